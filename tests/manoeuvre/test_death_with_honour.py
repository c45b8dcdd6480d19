"""Distant Lands Death With Honour (rule 9.2; issue 14): scenarios and whole games.

"This card requires you to eliminate one of your units from any space on the board. When
it is removed, any and all enemy units adjacent to that unit are flipped to their reduced
side. Any unit already on the reduced side is eliminated. This card play counts as your
one Attack in this turn. Only the Japanese have Death with Honour cards."

The Japanese test army (tests/fixtures/distant_lands/japan.toml) also uses rules the engine
does not play yet (leaders bound to one unit, Banzai Charge); these tests play a copy with
those swapped for base ones (player 0: units 0-5 infantry, 6-7 cavalry) against Russia.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.pack import engine_support
from manoeuvre_sim.manoeuvre.model import load_army
from tests.manoeuvre.boards import at
from tests.manoeuvre.engine_helpers import packed, traced_jit_and_python
from tests.manoeuvre.test_engine_cards import (
    Slot,
    U,
    cards_of,
    discards,
    events,
    setup,
    sq_of,
    step,
)
from tests.manoeuvre.test_engine_cards import table as _table  # noqa: F401 (the fixture "table")

JAPAN = Path(__file__).parents[1] / "fixtures" / "distant_lands" / "japan.toml"


@pytest.fixture
def table(_table):  # noqa: F811 (the imported fixture, under the name the tests use)
    """test_engine_cards.py's scripted-decisions, loaded-dice table."""
    return _table


@pytest.fixture(scope="module")
def japan(tmp_path_factory) -> str:
    """The Japanese test army with only rules the engine plays: no leader bound to a unit,
    Ambush for Banzai Charge."""
    text = re.sub(r'^unit = ".*"\n', "", JAPAN.read_text(encoding="utf-8"), flags=re.M)
    text = text.replace('type = "Banzai Charge"', 'type = "Ambush"\ntitle = "Ambush "')
    path = tmp_path_factory.mktemp("dwh") / "japan_playable.toml"
    path.write_text(text, encoding="utf-8")
    assert engine_support(load_army(path)) == []
    return str(path)


def _dwh_options(P, st, p, c):
    st = st.copy()
    st[S.HAND_N + p] = 1
    st[S.HAND + p * S.HMAX] = c
    opts = np.zeros((D.MAXOPT, 4), np.int32)
    n = G.combat_options(st, P.units, P.cards, P.tprops, p, opts)
    return [(int(o[1]), int(o[3])) for o in opts[:n] if o[0] == D.CK_DEATH_WITH_HONOUR]


BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . a c . .
    . . . 2 3 b . .
    . . . . 4 . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_own_unit_falls_adjacent_enemies_hit(table, japan):
    """Rule 9.2: unit 3 is eliminated; a (full, above) is reduced, b (reduced, right) is
    eliminated; c (diagonal) and our own neighbours 2 and 4 are untouched; no dice, no
    decision but the combat's; it is the turn's combat and its card is discarded. Both
    sides' eliminations count (rule 2.1)."""
    P = packed(japan, "Russia")
    dwh = cards_of(P, 0, "Death With Honour")[0]
    st = setup(BOARD, P, {0: [dwh]}, reduced=(9,))
    assert _dwh_options(P, st, 0, dwh) == [(U(2), U(2)), (U(3), U(3)), (U(4), U(4))]
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_DEATH_WITH_HONOUR, U(3), Slot(dwh), U(3)))],
    )  # fmt: skip
    assert script.kinds() == [D.D_COMBAT] and script.rolls == []
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_DEATH_WITH_HONOUR, U(3), 0, 2)]
    assert step(st, 3) == 0 and sq_of(st, 3) == -1
    assert step(st, 8) == 1 and sq_of(st, 8) == at(3, 4)
    assert step(st, 9) == 0 and step(st, 10) == 2
    assert step(st, 2) == 2 and step(st, 4) == 2
    assert st[S.ELIM] == 1 and st[S.ELIM + 1] == 1
    assert discards(st, 0) == [dwh] and st[S.COMBATS] == 1


@pytest.mark.parametrize(
    "elim, winner",
    [((0, 4), 0), ((4, 4), 1)],
    ids=["the enemy's fifth: attrition victory", "our own fifth: the opponent wins"],
)
def test_death_with_honour_counts_toward_attrition(japan, elim, winner):
    """Rule 2.1 when the combat phase ends (interpretation 3, DL10): an enemy's 5th loss
    wins; our own 5th loss loses, even when the enemy's 5th fell with it."""
    from manoeuvre_sim.manoeuvre.engine import combat_phase as CP
    from tests.manoeuvre.engine_helpers import context

    P = packed(japan, "Russia")
    dwh = cards_of(P, 0, "Death With Honour")[0]
    st2 = setup(BOARD, P, {0: [dwh]}, reduced=(9,), elim=elim)
    CP.death_with_honour(st2, context(P, trace=100), 0, U(3))
    assert st2[S.ELIM] == elim[0] + 1 and st2[S.ELIM + 1] == 5
    assert G.check_attrition(st2, 0)
    assert st2[S.WINNER] == winner and st2[S.VICTORY] == S.VICTORY_ATTRITION


GOOD_TRADE = """
    . . . . . . . .
    . . . . . . . .
    . . . . a . . .
    . . . c 3 b . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . 5 . . . . .
"""


@pytest.mark.parametrize("policy", ["simple", "attritional", "territorial", "balanced"])
def test_every_style_takes_a_good_trade_and_declines_a_bad_one(japan, policy):
    """The players value it (players/simple.py, players/combat.py): our reduced unit 3 for
    the three reduced enemy units around it is taken; our full unit 5 alone, with no enemy
    beside it, is not sacrificed."""
    from tests.manoeuvre.test_player_choices import run_phase

    P = packed(japan, "Russia")
    dwh = cards_of(P, 0, "Death With Honour")[0]
    st = setup(GOOD_TRADE, P, {0: [dwh]}, reduced=(3, 8, 9, 10))
    tr = run_phase("combat_phase", st, P, 0, policy=policy)
    assert events(tr, R.EV_COMBAT) == [(0, D.CK_DEATH_WITH_HONOUR, U(3), 0, 3)], policy
    assert st[S.ELIM + 1] == 3 and st[S.ELIM] == 1
    lonely = GOOD_TRADE.replace("a", ".").replace("b", "d").replace("c", ".").replace("3", ".")
    st = setup(lonely, P, {0: [dwh]})
    tr = run_phase("combat_phase", st, P, 0, policy=policy)
    assert events(tr, R.EV_COMBAT) == [] and st[S.ELIM] == 0, policy


@pytest.mark.parametrize("policy", ["random", "simple", "attritional", "territorial", "balanced"])
def test_whole_games_with_it_keep_invariants_and_fair_play(japan, policy):
    """Games of the Japanese test army keep every invariant and the fair-play check on (a
    violation raises); random play uses the card (seen in traces)."""
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    if policy == "random":
        played = 0
        for seed in range(6):
            _, tr = play_traced(japan, "Prussia", seed=seed, game=0, policies=(policy, policy))
            played += int(((tr[:, 0] == R.EV_COMBAT) & (tr[:, 2] == D.CK_DEATH_WITH_HONOUR)).sum())
        assert played > 0
    cfg = SimConfig(japan, "France", games=20, seed=7, policy_a=policy, policy_b="balanced",
                    threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
    assert len(simulate(cfg).records) == 20


def test_random_games_keep_every_invariant(japan):
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    cfg = SimConfig(japan, "Russia", games=600, seed=9, policy_a="random", policy_b="random",
                    check_invariants=True)  # fmt: skip
    assert len(simulate(cfg).records) == 600


def test_replay_rebuilds_games_with_it(japan):
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.manoeuvre.replay.text import section_lines

    lines = []
    for seed in range(6):
        rep = replay_game(japan, "Russia", seed=seed, policies=("random", "random"))
        lines += [ln for sec in rep.turns for ln in section_lines(rep, sec)]
    assert any("Death With Honour:" in ln and "falls;" in ln for ln in lines)


def test_games_with_it_identical_with_and_without_the_jit(japan):
    a, b = traced_jit_and_python(japan, "Russia", [(s, ("random", "balanced")) for s in (1, 2)])
    assert a == b
    played = sum(
        int(
            (
                (np.array(v[0])[:, 0] == R.EV_COMBAT)
                & (np.array(v[0])[:, 2] == D.CK_DEATH_WITH_HONOUR)
            ).sum()
        )
        for v in a.values()
    )
    assert played > 0
