"""The replay pages' data: one game of either game, replayed by the library the ``replay``
and ``hex replay`` commands call, as a :class:`Replayed` — its steps for the page, its
record, its JSONL trace and a function drawing the board after any step — kept in a small
in-memory LRU cache so that stepping never plays the game again.

A game is named by the page's parameters, with the command line's names and checks: a
game of a study directory (``study``, ``pairing``, ``game``, ``label``), or one given by its
seed and options (``replay``'s, ``hex replay``'s). One replay is one game: bounded work;
the cache holds :data:`CACHE_SIZE` games, and games are played one at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.web.page_cache import Memo
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.safety import confine

CACHE_SIZE = 8  # games kept; each keeps at most SVG_KEPT boards drawn
SVG_KEPT = 600
MAX_GAME_INDEX = 10**9
MAX_TURNS_CAP = 500  # --max-turns on a page: the engine's default is 200
STUDY_PARAMS = ("study", "pairing", "game", "label", "event", "step")
MANOEUVRE_PARAMS = (
    "army_a", "army_b", "seed", "game", "policy_a", "policy_b", "setup", "map", "rot",
    "tournament_hand", "advance_to_contact", "digging_in", "dl_forced_march", "max_turns",
    "relax", "event", "step",
)  # fmt: skip
HEX_PARAMS = (
    "seed", "game", "border", "turns", "first", "quality_blue", "quality_red", "step_losses",
    "step_replacements", "captured_capital_zoc", "retreat_apart", "policy_a", "policy_b",
    "params_a", "params_b", "event", "step",
)  # fmt: skip


@dataclass
class Replayed:
    """One replayed game, ready for the page.

    ``steps``: per event ``{"turn", "kind", "player", "seq", "words", "standing"}`` (the
    standing: ``{"turn", "phase", "active", "values"}``, ``values`` one ``[side 0's, side
    1's]`` per row of ``standing_rows``); ``turns``: ``(game turn, its first step)``;
    ``facts``: the record of the game as (name, value) rows; ``final``: ``{counter id:
    (where, step)}`` after the last event; ``jsonl``: the trace as ``--format jsonl``
    writes it; ``draw(i)``: the board SVG after step ``i`` (0-based; the pages number
    events from 1); ``sides``: the two sides' names; ``legend``: the key to the board
    (``{"counters": [(codes, meaning)], "terrain": [(letter, name)], "marks": [(mark,
    meaning)]}``); ``start``: the step a page opens on, the last of the set-up (every unit
    deployed).
    """

    game: str
    title: str
    steps: list[dict]
    turns: list[tuple[int, int]]
    facts: list[tuple[str, str]]
    final: dict
    jsonl: str
    filename: str
    draw: Callable[[int], Markup]
    sides: tuple[str, str] = ("", "")
    standing_rows: tuple[str, ...] = ()
    legend: dict = field(default_factory=dict)
    start: int = 0
    _svg: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def svg(self, i: int) -> Markup:
        """The board after step ``i`` (drawn once, then kept)."""
        with self._lock:
            hit = self._svg.get(i)
        if hit is None:
            hit = self.draw(i)
            with self._lock:
                if len(self._svg) >= SVG_KEPT:
                    self._svg.clear()
                self._svg[i] = hit
        return hit


# the games replayed, kept whole (their boards drawn on demand); one game is played at a
# time, whatever the number of clients
_REPLAYS = Memo(CACHE_SIZE)


def replayed(game: str, params: Params, root: Path) -> Replayed:
    """The replay the parameters name (from the cache when it is there)."""
    allowed = STUDY_PARAMS if params.has("study") else (
        MANOEUVRE_PARAMS if game == "manoeuvre" else HEX_PARAMS)  # fmt: skip
    params.only(allowed)
    key = (game, str(Path(root).resolve()),
           tuple(sorted((k, params.raw(k) or "") for k in allowed if k not in ("event", "step"))))  # fmt: skip
    build = _manoeuvre if game == "manoeuvre" else _hex
    return _REPLAYS.get_or_build(key, lambda: _titled(build(params, root), params, root))


def event_of(params: Params, rep: Replayed) -> int:
    """The step (0-based) the ``event`` parameter names: events are numbered from 1, as
    the page shows them; without it the last step of the set-up (:attr:`Replayed.start`)."""
    if not params.has("event"):
        return rep.start
    return params.integer("event", lo=1, hi=len(rep.steps)) - 1


def old_step(params: Params, rep: Replayed) -> int | None:
    """The step (0-based) of an old ``step=`` address (steps were counted from 0 before
    events were numbered from 1), or None when the address has none."""
    if not params.has("step"):
        return None
    return params.integer("step", lo=0, hi=len(rep.steps) - 1)


def _study(params: Params, root: Path) -> tuple[Path, str, int, int, str | None]:
    rel = params.string("study")
    path = confine(root, rel, "--study")
    if not path.is_dir():
        raise UsageError(f"--study: {rel!r} is not a study directory under the studies folder")
    if not params.has("pairing"):
        raise UsageError("--pairing: required with --study (the pairing's number)")
    pairing = _index(params, "pairing", "a pairing number")
    return path, rel, pairing, _index(params, "game"), params.string("label")


def _index(params: Params, name: str, what: str = "a game index") -> int:
    """A game index (or pairing number), as ``replay --game`` checks it."""
    value = params.integer(name, 0)
    if value < 0:
        raise UsageError(f"--{name}: expected {what} >= 0, got {value}")
    if value > MAX_GAME_INDEX:
        raise UsageError(f"--{name}: expected {what} <= {MAX_GAME_INDEX}, got {value}")
    return value


def _army(params: Params, name: str) -> str:
    from manoeuvre_sim.manoeuvre.model import find_army

    value = params.string(name)
    if value is None:
        raise UsageError(f"--{name.replace('_', '-')}: required (or study=DIR&pairing=P)")
    if "/" in value or "\\" in value or value.lower().endswith(".toml"):
        raise UsageError(f"--{name.replace('_', '-')}: give a built-in army's name; the "
                         "workbench reads no army file")  # fmt: skip
    try:
        find_army(value, relax=params.boolean("relax"))
    except DataError as e:
        raise UsageError(f"--{name.replace('_', '-')}: {e}") from None
    return value


def _manoeuvre_info(params: Params, root: Path):
    """``(MatchInfo, record or None, where)`` of the game the parameters name."""
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.engine.options import parse_fixed_map
    from manoeuvre_sim.manoeuvre.replay import match_info
    from manoeuvre_sim.manoeuvre.replay.steps import study_config

    if params.has("study"):
        path, rel, pairing, game, label = _study(params, root)
        config, row = study_config(path, pairing, game, label)
        info = match_info(config.army_a, config.army_b, game=game, config=config)
        return info, row, f"{rel}, pairing {pairing}"
    army_a, army_b = _army(params, "army_a"), _army(params, "army_b")
    fixed_map, fixed_rot = parse_fixed_map(params.string("map"), params.string("rot"))
    options = RuleOptions(
        setup=params.choice("setup", ("random", "rules"), "random"),
        fixed_map=fixed_map, fixed_rot=fixed_rot,
        tournament_hand=params.boolean("tournament_hand"),
        advance_to_contact=params.boolean("advance_to_contact"),
        digging_in=params.boolean("digging_in"),
        dl_forced_march=params.boolean("dl_forced_march"),
        max_turns=params.integer("max_turns", 200, lo=1, hi=MAX_TURNS_CAP),
    )  # fmt: skip
    policies = (params.string("policy_a", DEFAULT_POLICY),
                params.string("policy_b", DEFAULT_POLICY))  # fmt: skip
    _players("manoeuvre", policies)
    info = match_info(
        army_a, army_b, seed=params.integer("seed", 1, lo=0, hi=2**63 - 1),
        game=_index(params, "game"), relax=params.boolean("relax"),
        policies=policies, options=options,
    )  # fmt: skip
    return info, None, None


def _manoeuvre(params: Params, root: Path) -> Replayed:
    from manoeuvre_sim.manoeuvre.replay import replay_game, summary
    from manoeuvre_sim.manoeuvre.replay.jsonl import jsonl
    from manoeuvre_sim.manoeuvre.replay.model import square_name, unit_label
    from manoeuvre_sim.manoeuvre.replay.source import check_record
    from manoeuvre_sim.manoeuvre.replay.steps import STANDING_ROWS, final_positions, steps
    from manoeuvre_sim.manoeuvre.replay.text import header
    from manoeuvre_sim.web.boards import manoeuvre_legend, manoeuvre_svg

    info, row, where = _manoeuvre_info(params, root)
    rep = replay_game(info.config.army_a, info.config.army_b, seed=info.seed, game=info.game,
                      info=info)  # fmt: skip
    if row is not None:
        check_record(rep, row, where)
    st = steps(rep)

    def draw(i: int) -> Markup:
        s = st[i]
        caption = s.combat.caption() if s.combat is not None else []
        return manoeuvre_svg(info, s.board, s.combat, caption)

    res = rep.result
    facts = [
        ("Army A", f"{info.armies[0].name} ({info.policies[0]})"),
        ("Army B", f"{info.armies[1].name} ({info.policies[1]})"),
        ("Seed, game", f"{info.seed}, game {info.game}"),
        ("Winner", "draw" if res.winner < 0 else info.side(res.winner)),
        ("Victory", res.victory),
        ("Game turns", str(res.game_turns)),
        ("Squares controlled", f"A {res.vp[0]}, B {res.vp[1]}"),
        ("Result", summary(rep)),
    ]
    if where:
        facts.insert(0, ("Study", where))
    facts += [("Played", ln) for ln in header(rep)[1:] if not ln.startswith("Result")]
    final = {unit_label(u): (square_name(sq), step)
             for u, (sq, step) in final_positions(rep.board).items()}  # fmt: skip
    sides = (info.side(0), info.side(1))
    return Replayed(
        "manoeuvre", f"{info.armies[0].name} v {info.armies[1].name}, seed {info.seed} "
        f"game {info.game}", _page_steps(st, sides), _turns(st), facts, final, jsonl(rep),
        f"manoeuvre-seed{info.seed}-game{info.game}.jsonl", draw, sides, STANDING_ROWS,
        manoeuvre_legend(info, rep.board), _start(st),
    )  # fmt: skip


def _hex_setup(params: Params, root: Path):
    """``(load_game keywords, seed, game, record or None, where)``."""
    from manoeuvre_sim.hexgame.replay_steps import GAME_DEFAULTS, study_options
    from manoeuvre_sim.manoeuvre.replay.steps import read_study, study_row

    if params.has("study"):
        path, rel, pairing, game, label = _study(params, root)
        m = read_study(path)
        if m.get("game") != "hex":
            raise UsageError(f"--study: {rel} holds games of {m.get('game')!r}, not Maneuver")
        row = study_row(path, pairing, game, label)
        kw = study_options(m, row)
        if kw["scenario"]:
            raise UsageError(f"--study: {rel} was played on a scenario file; the workbench "
                             "replays the built-in scenario's games")  # fmt: skip
        return kw, int(row["seed"]), game, row, f"{rel}, pairing {pairing}"
    kw = dict(GAME_DEFAULTS)
    for k in ("border", "first", "quality_blue", "quality_red", "policy_a", "policy_b",
              "params_a", "params_b"):  # fmt: skip
        kw[k] = params.string(k, kw[k])
    kw["first"] = params.choice("first", ("random", "blue", "red"), "random")
    kw["turns"] = params.integer("turns", 10, lo=1, hi=100)
    for k in ("step_losses", "step_replacements", "captured_capital_zoc", "retreat_apart"):
        kw[k] = params.boolean(k)
    seed = params.integer("seed", 1, lo=0, hi=2**63 - 1)
    _players("hex", (kw["policy_a"], kw["policy_b"]))
    return kw, seed, _index(params, "game"), None, None


def _hex(params: Params, root: Path) -> Replayed:
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.grid import Grid
    from manoeuvre_sim.hexgame.jsonl import jsonl
    from manoeuvre_sim.hexgame.replay import build
    from manoeuvre_sim.hexgame.replay_steps import (
        STANDING_ROWS,
        final_positions,
        load_game,
        steps,
    )
    from manoeuvre_sim.manoeuvre.replay import ReplayError
    from manoeuvre_sim.web.boards import hex_legend, hex_svg

    kw, seed, game, row, where = _hex_setup(params, root)
    sc, _, packed, options, pol, prm, policies = load_game(kw)
    st, trace = batch.play_one(seed, game, packed, options.array(), pol, prm)
    rep = build(trace, packed, sc, options.describe(), seed, game, policies, st)
    winner = ("a", "b", "draw")[int(st[S.WINNER])] if int(st[S.WINNER]) >= 0 else "none"
    got = {"winner": winner, "victory": S.VICTORY_NAMES[int(st[S.VICTORY])],
           "game_turns": int(st[S.TURN])}  # fmt: skip
    if row is not None:
        diff = [f"{k}: replayed {v}, recorded {row[k]}" for k, v in got.items()
                if k in row and str(v) != str(row[k])]  # fmt: skip
        if diff:
            raise ReplayError(f"the replay of game {game} is not the game recorded in "
                              f"{where}: " + "; ".join(diff))  # fmt: skip
    grid = Grid(sc.columns, sc.rows)
    hs = steps(trace, packed, sc)

    def draw(i: int) -> Markup:
        s = hs[i]
        caption = s.combat.caption(grid.label) if s.combat is not None else []
        return hex_svg(packed, grid, s.position, s.combat, caption)

    facts = [("Blue", policies[0]), ("Red", policies[1]), ("Seed, game", f"{seed}, game {game}"),
             ("Winner", {"a": "blue", "b": "red"}.get(winner, winner)),
             ("Victory", got["victory"]), ("Game turns", str(got["game_turns"])),
             ("Result", rep.result), ("Options", rep.header[2])]  # fmt: skip
    if where:
        facts.insert(0, ("Study", where))
    final = {str(u): (grid.label(h), step) for u, (h, step) in final_positions(
        hs[-1].position).items()}  # fmt: skip
    text = jsonl(trace, packed, sc, options, seed, game, policies)
    sides = (f"blue ({policies[0]})", f"red ({policies[1]})")
    return Replayed("hex", f"{policies[0]} (blue) v {policies[1]} (red), seed {seed} game {game}",
                    _page_steps(hs, sides), _turns(hs), facts, final, text,
                    f"hex-seed{seed}-game{game}.jsonl", draw, sides, STANDING_ROWS,
                    hex_legend(packed), _start(hs))  # fmt: skip


def _page_steps(steps, sides: tuple[str, str]) -> list[dict]:
    return [{"turn": s.record["game_turn"], "kind": s.record["kind"], "seq": s.record["seq"],
             "player": s.record["player"], "words": s.words,
             "standing": _standing(s.standing, sides)} for s in steps]  # fmt: skip


def _standing(st, sides: tuple[str, str]) -> dict:
    """A step's standing (the replay library's) for the page: the values as the trace
    gives them, the phase and the side to play in words."""
    return {"turn": st.game_turn, "phase": st.phase or "-",
            "active": sides[st.active] if st.active in (0, 1) else "-",
            "values": [list(r) for r in st.rows]}  # fmt: skip


def _start(steps) -> int:
    """The last step of the set-up (game turn 0): every unit deployed, no move yet."""
    last = 0
    for i, s in enumerate(steps):
        if s.record["game_turn"] > 0:
            break
        last = i
    return last


def _turns(steps) -> list[tuple[int, int]]:
    """``(game turn, the index of its first step)`` for each game turn (0: the set-up)."""
    out: list[tuple[int, int]] = []
    for i, s in enumerate(steps):
        t = s.record["game_turn"]
        if not out or out[-1][0] != t:
            out.append((t, i))
    return out


def _titled(rep: Replayed, params: Params, root: Path) -> Replayed:
    """A what-if's game titled as the base's or the variant's, with the edit: both are the
    same armies on the same seed (``whatif_result.version_title``)."""
    if params.has("study"):
        from manoeuvre_sim.manoeuvre.replay.steps import read_study
        from manoeuvre_sim.web.whatif_result import version_title

        path = confine(root, params.string("study"), "--study")
        rep.title += version_title(read_study(path), params.string("label"))
    return rep


def _players(key: str, policies) -> None:
    """A replay asked by its seed plays its players' game: bounded by its cost
    (``safety.check_players``), as a job is; a study's games replay with the study's."""
    from manoeuvre_sim.core.games import get_game
    from manoeuvre_sim.web.safety import MAX_REPLAY_COST, check_players

    check_players(get_game(key), policies, ("--policy-a", "--policy-b"), cap=MAX_REPLAY_COST)
