"""Manoeuvre's why_value hook (manoeuvre/why_value.py): the game it values is the game the
replay page plays (the same trace), each decision starts at the replay page's event of
its player turn's first phase, and the values are the learned model's."""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.games import get_game
from manoeuvre_sim.studies import why as W


def test_the_valued_game_is_the_replayed_one_and_its_decisions_sit_on_the_pages_events():
    from manoeuvre_sim.manoeuvre import adapter
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.manoeuvre.replay.steps import steps
    from manoeuvre_sim.manoeuvre.runner import SimConfig, traced_game
    from manoeuvre_sim.manoeuvre.why_value import played_rows

    g = get_game("manoeuvre")
    spec = W.command_spec(g, ["France", "Russia"], samples=2, block=2, policy="random")
    p = W.coalition_pairing(g, spec, W.seatings(spec)[1], 1, (1 << spec.n) - 1)
    prepared = adapter.prepare([p], spec.balance.options)
    tables = prepared["packed"][adapter._pack_key(p)][2].tables
    trace, x, meta, n = played_rows(p, 3, tables, prepared["opt"])
    cfg = SimConfig(p.army_a.name, p.army_b.name, games=1, seed=p.seed, policy_a="random",
                    policy_b="random")  # fmt: skip
    assert np.array_equal(trace, traced_game(cfg, 3)[1])  # the replay's game, row for row
    name, rows = g.why_value(p, 3, spec.balance.options)
    assert name and len(rows) == n // 2 > 4
    page = steps(replay_game(p.army_a.name, p.army_b.name, seed=p.seed, game=3,
                             policies=("random", "random")))  # fmt: skip
    for r in rows:  # event N (from 1) is the first event of the mover's player turn
        step = page[r["event"] - 1]
        assert step.record["kind"] == "discard" or step.standing.phase in ("discard", "draw")
        assert step.standing.active == "ab".index(r["mover"])
        assert step.standing.game_turn == r["turn"]
        before = page[r["event"] - 2]  # the event before: the other player's, or a new turn
        assert before.record["kind"] == "turn" or before.standing.active != step.standing.active
        assert 0 < r["value_a"] < 1 and 0 < r["value_b"] < 1
    # the seats' views differ and lean apart as the game is decided
    assert any(abs(r["value_a"] + r["value_b"] - 1) > 1e-3 for r in rows)
