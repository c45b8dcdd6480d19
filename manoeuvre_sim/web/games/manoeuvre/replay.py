"""Manoeuvre's replay for the workbench's replay pages (``web/replay``): the game the page's
parameters name, replayed by the library the ``replay`` command calls
(``manoeuvre/replay``), as a :class:`~manoeuvre_sim.web.replay.data.Replayed`: its steps,
record, trace, board drawing and key.

A game is named by a study's directory (``study``, ``pairing``, ``game``, ``label``: the
shared parameters) or by its seed and ``replay``'s options (:data:`REPLAY_PARAMS`).
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.replay import data as D

MAX_TURNS_CAP = 500  # --max-turns on a page: the engine's default is 200
REPLAY_PARAMS = (
    "army_a", "army_b", "seed", "game", "policy_a", "policy_b", "setup", "map", "rot",
    "tournament_hand", "advance_to_contact", "digging_in", "dl_forced_march", "max_turns",
    "relax", "event", "step",
)  # fmt: skip


def game_info(params: Params, root: Path):
    """``(MatchInfo, record or None, where)`` of the game the parameters name."""
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.engine.options import parse_fixed_map
    from manoeuvre_sim.manoeuvre.replay import match_info
    from manoeuvre_sim.manoeuvre.replay.steps import study_config

    if params.has("study"):
        path, rel, pairing, game, label = D.study_game(params, root)
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
    D.bounded_players("manoeuvre", policies)
    info = match_info(
        army_a, army_b, seed=params.integer("seed", 1, lo=0, hi=2**63 - 1),
        game=D.game_index(params, "game"), relax=params.boolean("relax"),
        policies=policies, options=options,
    )  # fmt: skip
    return info, None, None


def replay_game(params: Params, root: Path) -> D.Replayed:
    from manoeuvre_sim.manoeuvre.replay import replay_game, summary
    from manoeuvre_sim.manoeuvre.replay.jsonl import jsonl
    from manoeuvre_sim.manoeuvre.replay.model import square_name, unit_label
    from manoeuvre_sim.manoeuvre.replay.source import check_record
    from manoeuvre_sim.manoeuvre.replay.steps import STANDING_ROWS, final_positions, steps
    from manoeuvre_sim.manoeuvre.replay.text import header
    from manoeuvre_sim.web.games.manoeuvre.board import (
        TERRAIN_FILL,
        manoeuvre_legend,
        manoeuvre_svg,
    )

    info, row, where = game_info(params, root)
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
    return D.Replayed(
        "manoeuvre", f"{info.armies[0].name} v {info.armies[1].name}, seed {info.seed} "
        f"game {info.game}", D.page_steps(st, sides), D.turns_of(st), facts, final, jsonl(rep),
        f"manoeuvre-seed{info.seed}-game{info.game}.jsonl", draw, sides, STANDING_ROWS,
        manoeuvre_legend(info, rep.board), D.start_of(st), TERRAIN_FILL,
    )  # fmt: skip


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


def replay_form() -> dict:
    """What the ``/replay`` form shows for Manoeuvre: the built-in armies, the default
    player."""
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    return {"armies": sorted(a.name for a in load_builtin_armies()), "policy": DEFAULT_POLICY}
