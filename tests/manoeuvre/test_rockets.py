"""Distant Lands Rockets (rules 6.3, 9.2; issue 14): range, the d10 table, whole games.

Scenarios draw the battlefield as ASCII (tests/manoeuvre/boards.py) and run the combat phase with
scripted decisions and loaded dice (the ``table`` fixture of test_engine_cards.py). The
rocket army is the made-up Sweden test army (tests/fixtures/distant_lands/sweden.toml,
player 0: units 0-5 infantry, 6-7 cavalry) against Russia (player 1: a 1st Cavalry 6/4, b
Black Sea Cossacks 5/4, c Russian Guard 8/6, d Kexholm 7/5, e Koursk 6/5, ...).
"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.combat import ROCKET_NO_EFFECT, ROCKET_RETREAT, ROCKET_RETREAT_AND_HIT
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import in_rocket_range
from tests.manoeuvre.boards import at, parse_board
from tests.manoeuvre.engine_helpers import CHINA, SWEDEN, packed, traced_jit_and_python
from tests.manoeuvre.test_engine_cards import (
    A,
    B,
    C,
    E,
    Slot,
    U,
    cards_of,
    discards,
    events,
    hand,
    setup,
    sq_of,
    step,
)
from tests.manoeuvre.test_engine_cards import table as _table  # noqa: F401 (the fixture "table")


@pytest.fixture
def table(_table):  # noqa: F811 (the imported fixture, under the name the tests use)
    """test_engine_cards.py's scripted-decisions, loaded-dice table."""
    return _table


def _rocket_targets(P, st, p, c):
    st = st.copy()
    st[S.HAND_N + p] = 1
    st[S.HAND + p * S.HMAX] = c
    opts = np.zeros((D.MAXOPT, 4), np.int32)
    n = G.combat_options(st, P.units, P.cards, P.tprops, p, opts)
    return [(int(o[1]), int(o[3])) for o in opts[:n] if o[0] == D.CK_ROCKETS]


def test_rocket_range_two_like_a_bombardment_three_only_from_a_hill():
    """Rule 6.3 / 9.2 Rockets: "a type of bombardment attack that can be targeted from any
    unit ... a range of 2, or 3 if the attacking unit is atop a hill firing at a non-hill
    space"; the intervening squares are traced as a Bombardment's (6.2 step 2). From the
    Hill at (4, 1): a three up over two open squares, yes; b up one and right two, the path
    up first is open (right first meets the Woods), yes; the square three right behind the
    Woods, no; c on a Hill three away: range 2 only, no. From 2 (not on a hill): e two up
    over Clear, yes; d three down, no; f four up, no."""
    board = """
        . . . . . . . f
        . a . . . . . .
        . . Hc . . . . e
        . . . b . . . .
        . H0 W . . . . 2
        . . . . . . . .
        . . . . . . . .
        . . . . . . . d
    """
    b = parse_board(board)
    hill, two = at(4, 1), at(4, 7)
    assert in_rocket_range(b.occ, b.terr, b.tprops, hill, at(1, 1), 3)
    assert in_rocket_range(b.occ, b.terr, b.tprops, hill, at(3, 3), 3)
    assert not in_rocket_range(b.occ, b.terr, b.tprops, hill, at(4, 4), 3)  # Woods between
    assert not in_rocket_range(b.occ, b.terr, b.tprops, hill, at(1, 1), 2)
    assert in_rocket_range(b.occ, b.terr, b.tprops, two, at(2, 7), 2)
    assert not in_rocket_range(b.occ, b.terr, b.tprops, two, at(7, 7), 2)
    assert not in_rocket_range(b.occ, b.terr, b.tprops, two, at(0, 7), 3)  # four squares
    P = packed(SWEDEN, "Russia")
    rk = cards_of(P, 0, "Rockets")[0]
    st = setup(board, P, {})
    # one option per target, fired by the first unit in range (which one fires changes
    # nothing); c is three from the hill but on a hill itself; d and f out of range
    assert _rocket_targets(P, st, 0, rk) == [(U(0), A), (U(0), B), (U(2), E)]


def test_rocket_three_squares_needs_an_open_path():
    """At range 3 every intervening square of some shortest orthogonal path is open
    (interpretation DL8); b's two paths around the Town are both closed, a's is open."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . T . . . . . .
        H0 1 . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    b = parse_board(board)
    # to (3, 2): paths via (3, 0)-(3, 1), (4, 1)-(3, 1), (4, 1)-(4, 2): Town, unit, unit
    assert not in_rocket_range(b.occ, b.terr, b.tprops, at(4, 0), at(3, 2), 3)
    # to (1, 0): straight up through (3, 0), (2, 0): open
    assert in_rocket_range(b.occ, b.terr, b.tprops, at(4, 0), at(1, 0), 3)
    # to (5, 2): via (5, 0)-(5, 1) open
    assert in_rocket_range(b.occ, b.terr, b.tprops, at(4, 0), at(5, 2), 3)


BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . c . . .
    . . . . . . . .
    . . . . 3 . . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize(
    "roll, outcome",
    [(1, ROCKET_NO_EFFECT), (4, ROCKET_NO_EFFECT), (5, ROCKET_RETREAT), (8, ROCKET_RETREAT),
     (9, ROCKET_RETREAT_AND_HIT), (10, ROCKET_RETREAT_AND_HIT)],
)  # fmt: skip
def test_rocket_table_no_withdraw_no_advance(table, roll, outcome):
    """Rule 6.3: a d10, no totals: 1-4 no effect, 5-8 the target retreats (toward its own
    edge, row 0 for player 1; rule 6.6), 9-10 it retreats and suffers one loss. The
    defender's Withdraw is not offered ("A Withdraw may not be used to avoid a Volley,
    Bombardment or Rocket attack", 9.2); nobody advances (6.6); it is the turn's one combat
    and the Rockets card is discarded."""
    P = packed(SWEDEN, "Russia")
    rk = cards_of(P, 0, "Rockets")[0]
    wd = cards_of(P, 1, "Withdraw")[0]
    st = setup(BOARD, P, {0: [rk], 1: [wd]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ROCKETS, U(3), Slot(rk), C))], dice=[roll],
    )  # fmt: skip
    assert script.kinds() == [D.D_COMBAT] and script.rolls == [(1, 10, roll)]
    assert events(ev, R.EV_ROLL) == [(0, R.ROLL_ROCKETS, roll, 1, 10)]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ROCKETS, roll, 0, outcome)]
    moved = outcome != ROCKET_NO_EFFECT
    assert sq_of(st, 10) == (at(2, 4) if moved else at(3, 4))
    assert step(st, 10) == (1 if outcome == ROCKET_RETREAT_AND_HIT else 2)
    assert sq_of(st, 3) == at(5, 4)  # no advance
    assert discards(st, 0) == [rk] and hand(st, 1) == [wd] and st[S.COMBATS] == 1


def test_rocket_loss_eliminates_a_reduced_unit_and_no_square_eliminates(table):
    """A reduced target that retreats and takes the loss is eliminated (rule 6.6 Hit); a
    target with no square to retreat to is eliminated instead of retreating (6.6 Retreat),
    and counts toward attrition (2.1)."""
    P = packed(SWEDEN, "Russia")
    rk = cards_of(P, 0, "Rockets")[0]
    st = setup(BOARD, P, {0: [rk]}, reduced=(10,))
    table("combat_phase", st, P, 0,
          answers=[(D.D_COMBAT, (D.CK_ROCKETS, U(3), Slot(rk), C))], dice=[9])  # fmt: skip
    assert step(st, 10) == 0 and st[S.ELIM + 1] == 1
    boxed = """
        . . . . . . . .
        . . . . . . . .
        . . . . L . . .
        . . . 1 a 2 . .
        . . . . 4 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    st = setup(boxed, P, {0: [rk]})
    script, ev = table("combat_phase", st, P, 0,
                       answers=[(D.D_COMBAT, (D.CK_ROCKETS, None, Slot(rk), A))], dice=[5])  # fmt: skip
    assert events(ev, R.EV_RETREAT) == [(1, A, at(3, 4), -1, 0)]
    assert step(st, 8) == 0 and st[S.ELIM + 1] == 1 and sq_of(st, 4) == at(4, 4)


def test_the_defender_chooses_among_equal_retreat_squares(table):
    """Rule 6.6: straight back blocked, the retreating player chooses a flank square."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . d . . .
        . . . . c . . .
        . . . . . . . .
        . . . . 3 . . .
        . . . . . . . .
        . . . . . . . .
    """
    P = packed(SWEDEN, "Russia")
    rk = cards_of(P, 0, "Rockets")[0]
    st = setup(board, P, {0: [rk]})
    script, _ = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ROCKETS, U(3), Slot(rk), C)),
                 (D.D_RETREAT_SQ, (at(3, 5),))],
        dice=[6],
    )  # fmt: skip
    (offered,) = script.offered(D.D_RETREAT_SQ)
    assert sorted(offered[:, 0].tolist()) == [at(3, 3), at(3, 5)]
    assert [a.seat for a in script.asked] == [0, 1]
    assert sq_of(st, 10) == at(3, 5) and sq_of(st, 11) == at(2, 4)


# --------------------------------------------------------------------------------------------
# whole games: the players choose rockets, invariants, fair play, JIT == plain Python
# --------------------------------------------------------------------------------------------
def _rocket_plays(tr) -> int:
    return int(((tr[:, 0] == R.EV_COMBAT) & (tr[:, 2] == D.CK_ROCKETS)).sum())


@pytest.mark.parametrize("policy", ["random", "simple", "attritional", "territorial", "balanced"])
def test_every_player_fires_rockets_and_plays_fair(policy):
    """Random and every style choose rockets (seen in traced games), and games with the
    rocket armies keep every invariant and the fair-play check (a violation raises)."""
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    fired = 0
    for seed in range(6):
        army = SWEDEN if seed % 2 else CHINA
        _, tr = play_traced(army, "Prussia", seed=seed, game=0, policies=(policy, policy))
        fired += _rocket_plays(tr)
    assert fired > 0, policy
    for a, b in ((SWEDEN, "France"), ("Austria", CHINA)):
        cfg = SimConfig(a, b, games=20, seed=11, policy_a=policy, policy_b="balanced",
                        threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
        assert len(simulate(cfg).records) == 20


def test_rocket_games_keep_every_invariant():
    """Random-legal games with both rocket armies, invariants checked after every phase."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    for i, (a, b) in enumerate(((SWEDEN, CHINA), (CHINA, "Russia"), ("Spain", SWEDEN))):
        cfg = SimConfig(a, b, games=400, seed=40 + i, policy_a="random", policy_b="random",
                        check_invariants=True)  # fmt: skip
        r = simulate(cfg).records
        assert len(r) == 400


def test_rocket_games_identical_with_and_without_the_jit():
    a, b = traced_jit_and_python(
        SWEDEN, CHINA, [(3, ("random", "simple")), (4, ("balanced", "simple"))]
    )
    assert a == b
    assert sum(_rocket_plays(np.array(v[0])) for v in a.values()) > 0


def test_the_engine_table_is_the_odds_table():
    """The engine and ``odds rockets`` read one table (combat.rocket_outcome): its outcome
    frequencies over the ten faces of the d10 are the exact odds."""
    from manoeuvre_sim.manoeuvre.combat import ROCKET_NAMES, rocket_outcome
    from manoeuvre_sim.manoeuvre.odds import rocket_odds

    counts = np.bincount([rocket_outcome(r) for r in range(1, 11)], minlength=3)
    assert dict(zip(ROCKET_NAMES, (counts / 10).tolist(), strict=True)) == rocket_odds()


def test_replays_of_rocket_games_rebuild_the_engine_state():
    """A replay (trace -> board, checked against the engine's final state) of games with
    rockets fired, and its English lines for them."""
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.manoeuvre.replay.text import section_lines

    lines = []
    for seed in range(3):
        rep = replay_game(SWEDEN, CHINA, seed=seed, policies=("random", "balanced"))
        lines += [ln for sec in rep.turns for ln in section_lines(rep, sec)]
    fired = [ln for ln in lines if "to fire rockets at" in ln]
    results = [ln for ln in lines if "Rockets: d10 " in ln]
    assert fired and len(fired) == len(results)
    assert any("the target retreats" in ln for ln in results)
