"""Maneuver's replay for the workbench's replay pages (``web/replay``): the game the page's
parameters name, played again by its own package (``hexgame/replay_game.py``: the web never
drives the engine), as a :class:`~manoeuvre_sim.web.replay.data.Replayed`: its steps,
record, trace, board drawing and key.

A game is named by a study's directory (``study``, ``pairing``, ``game``, ``label``: the
shared parameters) or by its seed and ``hex replay``'s options (:data:`REPLAY_PARAMS`).
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.replay import data as D

REPLAY_PARAMS = (
    "seed", "game", "border", "turns", "first", "quality_blue", "quality_red", "step_losses",
    "step_replacements", "captured_capital_zoc", "retreat_apart", "policy_a", "policy_b",
    "params_a", "params_b", "event", "step",
)  # fmt: skip


def game_options(params: Params, root: Path):
    """``(load_game keywords, seed, game, record or None, where)``."""
    from manoeuvre_sim.core.store import read_study, study_row
    from manoeuvre_sim.hexgame.replay_steps import GAME_DEFAULTS, study_options

    if params.has("study"):
        path, rel, pairing, game, label = D.study_game(params, root)
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
    D.bounded_players("hex", (kw["policy_a"], kw["policy_b"]))
    return kw, seed, D.game_index(params, "game"), None, None


def replay_game(params: Params, root: Path) -> D.Replayed:
    """The Maneuver game the parameters name, played again (``hexgame.replay_game``)."""
    from manoeuvre_sim.hexgame.grid import Grid
    from manoeuvre_sim.hexgame.jsonl import jsonl
    from manoeuvre_sim.hexgame.replay_game import replay_one
    from manoeuvre_sim.hexgame.replay_steps import STANDING_ROWS, final_positions, steps
    from manoeuvre_sim.web.games.hex.board import hex_legend, hex_svg

    kw, seed, game, row, where = game_options(params, root)
    played = replay_one(kw, seed, game, row, where)
    sc, packed, options, policies = played.scenario, played.packed, played.options, played.policies
    trace, rep, winner = played.trace, played.text, played.winner
    got = {"victory": played.victory, "game_turns": played.game_turns}
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
    return D.Replayed("hex", f"{policies[0]} (blue) v {policies[1]} (red), seed {seed} game {game}",
                    D.page_steps(hs, sides), D.turns_of(hs), facts, final, text,
                    f"hex-seed{seed}-game{game}.jsonl", draw, sides, STANDING_ROWS,
                    hex_legend(packed), D.start_of(hs))  # fmt: skip
