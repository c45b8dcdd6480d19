"""Scenario tests of the heuristic players' card choices (issue #16, item 3: what the styles
neglect): a battlefield drawn as ASCII (tests/boards.py), the hands given, one phase
kernel of the game run compiled with ``balanced`` deciding for both seats, and the cards it
played read off the trace. Decisions come before the dice, so the choices asserted do not
depend on the seed.

Armies: Russia (player 0: digits, 0 1st Cavalry, 1 Black Sea Cossacks, 2 Russian Guard,
3 Kexholm, 4 Koursk, 5 Leib Grenadiers, 6 Moscow, 7 Orlov) against France (player 1:
letters, a 1st Cuirassiers ... g Guard Cavalry, h Garde Imperial) unless a test says
otherwise.
"""

from __future__ import annotations

import numpy as np
from engine_helpers import engine_unit, packed, uowner
from test_engine_cards import attack_card, cards_of, setup

from manoeuvre_sim.engine import decisions as D
from manoeuvre_sim.engine import game as G
from manoeuvre_sim.engine import rules as R
from manoeuvre_sim.engine.players import policy_arrays
from manoeuvre_sim.rng import new_state


def run_phase(kernel, st, P, p, policy="balanced", seed=1):
    """Run the compiled phase kernel ``kernel`` of player p with ``policy`` deciding for
    both seats; returns the trace rows (event, player, a, b, c, d)."""
    pol, params = policy_arrays(policy, policy)
    g = G.Context(
        P.units, P.cards, P.deck_size, P.tprops, uowner(), pol, params, new_state(seed),
        np.zeros((D.MAXOPT, 4), np.int32), np.zeros(G.CB_SIZE, np.int32),
        np.zeros((500, 6), np.int32), np.zeros(1, np.int32),
    )  # fmt: skip
    getattr(G, kernel)(st, g, p)
    G.check_invariants(st, P.deck_size, P.tprops)
    return g.tr[: g.trn[0]].copy()


def plays(tr, p):
    """(card, purpose) of every card player p played, in order."""
    return [(int(e[2]), int(e[3])) for e in tr if e[0] == R.EV_PLAY and e[1] == p]


# --------------------------------------------------------------------------------------------
# the combat decision credits the cards held for step 5 (rule 6.1 step 5)
# --------------------------------------------------------------------------------------------
TOWN_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . Th . . . .
    . . . 4 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_with_a_committed_attack_in_hand_balanced_assaults_and_commits():
    """Koursk (6, a 1d10 card) beside the reduced Garde Imperial (5) in a town: the 1d10
    alone is not worth the assault; with a Committed Attack in hand (+2d6 in step 5, rule
    9.2) it is, and balanced declares it and commits. Before the combat decision credited
    the cards held for step 5, balanced declined both times."""
    P = packed("Russia", "France")
    atk = attack_card(P, 0, 4)
    ca = cards_of(P, 0, "Committed Attack")[0]
    st = setup(TOWN_BOARD, P, {0: [atk]}, reduced=(15,))
    assert plays(run_phase("combat_phase", st, P, 0), 0) == []
    st = setup(TOWN_BOARD, P, {0: [atk, ca]}, reduced=(15,))
    assert plays(run_phase("combat_phase", st, P, 0), 0) == [
        (atk, R.PURPOSE_INITIATE),
        (ca, R.PURPOSE_COMMITTED),
    ]


def test_step5_credit_kernel_equals_its_plain_python():
    """``_with_step5_card`` compiled and as plain Python (its ``py_func``) on the town board,
    with each of Koursk's step-5 companions in hand."""
    from manoeuvre_sim.engine import state as S
    from manoeuvre_sim.engine.players.combat import _with_step5_card
    from manoeuvre_sim.engine.players.params import BALANCED

    P = packed("Russia", "France")
    atk = attack_card(P, 0, 4)
    others = [
        cards_of(P, 0, "Committed Attack")[0],
        cards_of(P, 0, "leader")[0],
        cards_of(P, 0, "unit", 4, lambda r: r[S.CF_ATK_N] > 0)[1],
    ]
    vals = np.array([-1.0, 0.0, 0.5, 1.0, 1.35, 2.95])
    cost = np.array([0.1, 0.2, 0.15, 0.0, 0.0])
    seen = set()
    for other in others:
        st = setup(TOWN_BOARD, P, {0: [atk, other]}, reduced=(15,))
        tsq = int(st[S.U_SQ + engine_unit(15)])
        args = (st, P.cards, BALANCED, 0, 4, 0, 1, 10, 6, 8.5, tsq, -0.2, cost, vals)
        got = _with_step5_card(*args)
        assert got == _with_step5_card.py_func(*args)
        seen.add(round(got, 9))
    assert len(seen) == 3 and min(seen) > -0.2  # each companion adds something different
