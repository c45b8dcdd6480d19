"""Scenario tests of the heuristic players' card choices (issue #16, item 3: what the styles
neglect): a battlefield drawn as ASCII (tests/manoeuvre/boards.py), the hands given, one phase
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
import pytest

from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.players import policy_arrays
from tests.manoeuvre.engine_helpers import engine_unit, packed, uowner
from tests.manoeuvre.test_engine_cards import attack_card, cards_of, setup


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
    a . c . e . g .
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
    the cards held for step 5, balanced declined both times. (Four French units stand far
    off on row 8: a unit card is worth what it does against the enemy's units, so an enemy
    army of one reduced unit would make Koursk's card worth more than in any game.)"""
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
    from manoeuvre_sim.manoeuvre.engine.players.combat import _with_step5_card
    from manoeuvre_sim.manoeuvre.engine.players.params import BALANCED

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
        args = (st, P.units, P.cards, BALANCED, 0, 4, 0, 1, 10, 6, 8.5, tsq, -0.2, cost, vals)
        got = _with_step5_card(*args)
        assert got == _with_step5_card.py_func(*args)
        seen.add(round(got, 9))
    assert len(seen) == 3 and min(seen) > -0.2  # each companion adds something different


# --------------------------------------------------------------------------------------------
# a Committed Attack's own hit is counted once (rule 9.2, rule 6.1 step 7, interpretation 26)
# --------------------------------------------------------------------------------------------
CAVALRY_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . e . . . .
    . . . 0 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def run_assault(st, P, p, u, t, slot):
    """Rule 6.1 from step 3 on: unit u's card in hand slot ``slot`` starts an assault on t
    (as combat_phase declares it), then the compiled ``assault`` with balanced deciding."""
    pol, params = policy_arrays("balanced", "balanced")
    g = G.Context(
        P.units, P.cards, P.deck_size, P.tprops, uowner(), pol, params, new_state(1),
        np.zeros((D.MAXOPT, 4), np.int32), np.zeros(G.CB_SIZE, np.int32),
        np.zeros((500, 6), np.int32), np.zeros(1, np.int32),
    )  # fmt: skip
    cb = g.cb
    cb[D.CB_KIND], cb[D.CB_ATT_P], cb[D.CB_DEF_U] = D.CK_ASSAULT, p, t
    cb[D.CB_LEADER] = cb[D.CB_DLEADER] = -1
    cb[D.CB_INIT_CARD] = R.play_to_table(st, p, slot)
    G.assault(st, g, p, D.CK_ASSAULT, u, t)
    G.check_invariants(st, P.deck_size, P.tprops)
    assert st[S.TABLE_N] == 0 and st[S.TABLE_N + 1] == 0
    return g.tr[: g.trn[0]].copy()


def test_committed_attack_when_its_hit_is_the_band_zero_units_second():
    """The 1st Cavalry assaults the 19th Legere, who defends with two cards: even with
    +2d6, an attack total below the defence (band 0, every attacking unit takes a hit) stays
    likely. Full, a Committed Attack would then cost its second step — elimination — and
    balanced does not commit. Reduced, band 0 eliminates it anyway and the Committed
    Attack's hit has no unit left to take it (interpretation 26), so committing costs only
    when the attack succeeds: balanced commits. (Counting the hit as one step taken as the
    unit stands, balanced did the opposite in both cases.)"""
    P = packed("Russia", "France")
    atk = cards_of(P, 0, "unit", 0, lambda r: r[S.CF_ATK_N] > 0)[1]
    ca = cards_of(P, 0, "Committed Attack")[0]
    defs = cards_of(P, 1, "unit", 4)[:2]
    cav, legere = engine_unit(0), engine_unit(12)
    for reduced, commits in (((), False), ((0,), True)):
        st = setup(CAVALRY_BOARD, P, {0: [atk, ca], 1: defs}, reduced=reduced)
        tr = run_assault(st, P, 0, cav, legere, 0)
        assert sorted(c for c, _ in plays(tr, 1)) == sorted(defs)  # the defender plays both
        assert ((ca, R.PURPOSE_COMMITTED) in plays(tr, 0)) == commits, reduced


def test_committed_hit_cost_arithmetic():
    """_committed_hit_cost and _pass_on_loss by hand (balanced: hit 1, elim 1.6, own 1,
    committed_cost 0.8), with p0 = 0.25 the chance of band 0."""
    import pytest

    from manoeuvre_sim.manoeuvre.engine.players.combat import _committed_hit_cost, _pass_on_loss
    from manoeuvre_sim.manoeuvre.engine.players.odds import DECISIVE
    from manoeuvre_sim.manoeuvre.engine.players.params import BALANCED

    P = packed("Russia", "France")
    st = setup(CAVALRY_BOARD.replace(". . . . . . . .\n", ". . . 1 . . . .\n", 1), P, {})
    cav, cossacks = engine_unit(0), engine_unit(1)
    cb = np.zeros(D.CB_SIZE, np.int32)
    cb[D.CB_NATT], cb[D.CB_ATT], cb[D.CB_ATT + 1] = 2, cav, cossacks
    k = 0.8
    # full: a step as it stands, or in band 0 its second step (its elimination)
    assert _committed_hit_cost(st, BALANCED, cav, 0.25, 0.0) == pytest.approx(
        k * (0.75 * 1.0 + 0.25 * 1.6)
    )
    st[S.U_STEP + cav] = 1
    # reduced and alone: in band 0 nobody is left to take the hit
    assert _committed_hit_cost(st, BALANCED, cav, 0.25, 0.0) == pytest.approx(k * 0.75 * 1.6)
    # reduced with a full supporting unit: in band 0 it passes to it, which it eliminates
    on = _pass_on_loss(st, BALANCED, cb, cav)
    assert on == pytest.approx(1.6)
    assert _committed_hit_cost(st, BALANCED, cav, 0.25, on) == pytest.approx(k * 1.6)
    st[S.U_STEP + cossacks] = 1  # a reduced supporter is eliminated by band 0 too
    assert _pass_on_loss(st, BALANCED, cb, cav) == 0.0
    st[S.ELIM] = 4  # an elimination now ends the game (rule 2.1, pyrrhic victory)
    assert _committed_hit_cost(st, BALANCED, cav, 0.25, 0.0) == pytest.approx(
        k * 0.75 * (1.6 + DECISIVE)
    )


# --------------------------------------------------------------------------------------------
# Skirmish credits what it gives back (rule 9.2 Skirmish)
# --------------------------------------------------------------------------------------------
CUIRASSIER_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . a . . . .
    . . . 0 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_skirmish_calls_off_a_doubtful_assault_keeping_the_card_and_moving():
    """The 1st Cavalry's assault on the 1st Cuirassiers, who defend with a card, is about
    even. A Skirmish cancels it, returns the initiating card to the hand (fighting on spends
    it) and lets the unit move up to 2 squares (rule 9.2): balanced now counts both and
    skirmishes. (Valuing a Skirmish at nothing, it fought on.)"""
    P = packed("Russia", "France")
    atk = attack_card(P, 0, 0)
    skirmish = cards_of(P, 0, "Skirmish")[0]
    dcard = cards_of(P, 1, "unit", 0)[0]
    cav = engine_unit(0)
    st = setup(CUIRASSIER_BOARD, P, {0: [atk, skirmish], 1: [dcard]})
    start = int(st[S.U_SQ + cav])
    tr = run_assault(st, P, 0, cav, engine_unit(8), 0)
    assert plays(tr, 1) == [(dcard, R.PURPOSE_DEFENSE)]
    assert plays(tr, 0) == [(skirmish, R.PURPOSE_SKIRMISH)]
    assert st[S.HAND_N] == 1 and st[S.HAND] == atk  # the card is back
    assert not [e for e in tr if e[0] == R.EV_COMBAT]  # no combat took place
    moves = [e for e in tr if e[0] == R.EV_MOVE]
    assert len(moves) == 1 and moves[0][3] == start != int(st[S.U_SQ + cav])


# --------------------------------------------------------------------------------------------
# a unit card is worth what it does, which stops growing at two hits
# --------------------------------------------------------------------------------------------
def test_a_unit_cards_worth_grows_with_its_dice_and_stops_at_two_hits():
    """The worth of holding a Koursk card (Russia's unit 4, on the town board) as printed
    (1d10 / 5), with 2d10 / 7, with 8d20 / 20 and with 10d20 / 20: it grows with the dice
    and the defence, and 8d20 and 10d20 are worth the same, since both beat every defence
    the card will meet twice over. (A worth linear in the printed pips made a designer's
    10d20 card too precious to spend: a style with a high card cost kept it to the end.)"""
    from manoeuvre_sim.manoeuvre.engine.pack import pack
    from manoeuvre_sim.manoeuvre.engine.players.cards import _card_value
    from manoeuvre_sim.manoeuvre.engine.players.params import BALANCED
    from manoeuvre_sim.manoeuvre.model import find_army, load_sections, load_terrain
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits

    t = load_terrain()
    sections = load_sections(terrain=t)
    france = find_army("France")
    worth = []
    for attack, defense in (("1d10", 5), ("2d10", 7), ("8d20", 20), ("10d20", 20)):
        edits = [
            f"Russia/Koursk Regiment/card1/attack={attack}",
            f"Russia/Koursk Regiment/card1/defense={defense}",
        ]
        edited, _ = apply_edits({"Russia": find_army("Russia")}, edits)
        P = pack(edited["Russia"], france, t, sections)
        n, sides = attack.split("d")
        c = attack_card(P, 0, 4, dice=(int(n), int(sides)))
        assert P.cards[0, c, S.CF_DEF] == defense
        st = setup(TOWN_BOARD, P, {0: [c]}, reduced=(15,))
        worth.append(_card_value(st, P.units, P.cards, BALANCED, 0, c, 0))
    assert worth[0] < worth[1] < worth[2], worth
    assert worth[3] == pytest.approx(worth[2]), worth


def test_a_cards_tabulated_sums_equal_the_summed_loops_bit_for_bit():
    """``_card_value`` looks up its two sums (an attack card's expected hits over the
    defences of _DEF_SPREAD, a defence's saved hits over the attacks of _ATK_SPREAD) in
    tables built with numpy: every entry must equal the kernel's own loop of
    ``_assault_hits`` exactly, or a game's choices could change on a last bit."""
    import numba as nb

    from manoeuvre_sim.manoeuvre.engine.players import cards as C

    @nb.njit
    def summed(att, saves):
        bad = 0
        for n in range(att.shape[0]):
            for s in range(att.shape[1]):
                for own in range(att.shape[2]):
                    for foe in range(att.shape[3]):
                        e = 0.0
                        for k in range(C._DEF_SPREAD.shape[0]):
                            e += C._assault_hits(n, s, own, foe + C._DEF_SPREAD[k])
                        bad += e != att[n, s, own, foe]
        for foe in range(saves.shape[0]):
            for own in range(saves.shape[1]):
                for df in range(saves.shape[2]):
                    e = 0.0
                    for k in range(C._ATK_SPREAD.shape[0]):
                        an = C._ATK_SPREAD[k, 0]
                        asd = C._ATK_SPREAD[k, 1]
                        e += C._assault_hits(an, asd, foe, own) - C._assault_hits(
                            an, asd, foe, own + df
                        )
                    bad += e != saves[foe, own, df]
        return bad

    assert C.ATK_HITS.shape == (11, 21, C.SPREAD_MAX, C.SPREAD_MAX)
    assert summed(C.ATK_HITS, C.DEF_SAVES) == 0
    assert C.ATK_HITS[2, 6, 6, 5] > 0.5  # 2d6 on strength 6 against strength 5: hits
    altered = C.DEF_SAVES.copy()
    altered[5, 6, 3] = np.nextafter(altered[5, 6, 3], 9.0)  # one last bit off
    assert summed(C.ATK_HITS, altered) == 1


def test_the_hand_table_is_each_units_best_attack_card_and_defence():
    """``_hand_unit_table`` reads the hand once for every unit: the best attack card of a
    unit is the one of most n * (s + 1) (the first of equals), its defence the sum of its
    cards' defence values; a unit without cards has (0, 0, 0)."""
    from manoeuvre_sim.manoeuvre.engine.players.moves import _hand_unit_table

    cards = np.zeros((2, S.MAXC, S.NCF), np.int32)
    # (hand card, unit, attack n, attack sides, defence)
    hand = ((7, 4, 1, 10, 3), (9, 4, 2, 6, 5), (11, 4, 1, 13, 0), (12, 2, 1, 8, 4))
    for c, u, n, sides, df in hand:
        cards[0, c, S.CF_KIND] = S.KIND_UNIT
        cards[0, c, S.CF_UNIT] = u
        cards[0, c, S.CF_ATK_N], cards[0, c, S.CF_ATK_S] = n, sides
        cards[0, c, S.CF_DEF] = df
    cards[0, 3, S.CF_KIND] = S.KIND_HQ  # not a unit card: no row
    st = S.new_state()
    for j, c in enumerate([h[0] for h in hand] + [3]):
        st[S.HAND + j] = c
    st[S.HAND_N] = len(hand) + 1
    tab = np.full((S.MAXU_SIDE, 3), 99, np.int64)
    _hand_unit_table(st, cards, 0, tab)
    # 1d10: 1 * 11 = 11 < 2d6: 2 * 7 = 14 = 1d13: 1 * 14, the first of equals kept
    assert tuple(tab[4]) == (2, 6, 3 + 5 + 0)
    assert tuple(tab[2]) == (1, 8, 4)
    assert tab[[i for i in range(S.MAXU_SIDE) if i not in (2, 4)]].sum() == 0


# --------------------------------------------------------------------------------------------
# the decision context: one pass over the units for every card worth and the posture
# --------------------------------------------------------------------------------------------
def test_the_decision_context_equals_the_passes_it_replaces_on_random_boards():
    """``_decision_context`` gathers in one pass what each card worth and the posture used
    to compute by a pass of their own: the enemy's mean strength rounded, whether an enemy
    unit stands within 2 (a unit card's "near") or 3 squares (a bombardment's) of each
    square, p's reduced units and its ground lead (rule 2.2). On 300 random battlefields
    (units anywhere, some reduced, some eliminated), compiled and as plain Python, it must
    give what those passes gave, written here as the loops they were."""
    from manoeuvre_sim.manoeuvre.engine import rules as R
    from manoeuvre_sim.manoeuvre.engine.players import cards as C

    P = packed()
    rng = np.random.default_rng(20261203)
    dc_j = np.zeros(C.DC_SIZE, np.int64)
    dc_p = np.zeros(C.DC_SIZE, np.int64)
    for trial in range(300):
        st = S.new_state()
        squares = rng.permutation(64)
        for u in range(S.NUNITS):
            step = int(rng.choice([0, 1, 2], p=[0.2, 0.3, 0.5]))
            st[S.U_STEP + u] = step
            st[S.U_SQ + u] = squares[u] if step else -1
        for p in range(2):
            q = 1 - p
            alive = [q * S.MAXU_SIDE + i for i in range(S.MAXU_SIDE) if st[S.U_STEP + q * 16 + i]]
            sq_of = [int(st[S.U_SQ + t]) for t in alive]
            tot = sum(int(R.strength(st, P.units, t)) for t in alive)
            mean = tot / len(alive) if alive else 0.0

            def rows(side, sq):
                return 7 - sq // 8 if side == 0 else sq // 8

            lead = sum(
                1
                for i in range(S.MAXU_SIDE)
                if st[S.U_STEP + p * 16 + i] > 0 and rows(p, st[S.U_SQ + p * 16 + i]) >= 4
            ) - sum(1 for t in alive if rows(q, st[S.U_SQ + t]) >= 4)
            reduced = sum(1 for i in range(S.MAXU_SIDE) if st[S.U_STEP + p * 16 + i] == 1)
            C._decision_context(st, P.units, p, dc_j)
            C._decision_context.py_func(st, P.units, p, dc_p)
            assert dc_j.tolist() == dc_p.tolist(), trial
            assert dc_j[C.DC_FOE] == int(mean + 0.5), trial
            assert dc_j[C.DC_REDUCED] == reduced, trial
            assert dc_j[C.DC_LEAD] == lead, trial
            for sq in range(64):
                dist = min((abs(t // 8 - sq // 8) + abs(t % 8 - sq % 8) for t in sq_of), default=99)
                assert ((C.DIAMOND2[sq] & dc_j[C.DC_ENEMY]) != 0) == (dist <= 2), (trial, sq)
                assert ((C.DIAMOND3[sq] & dc_j[C.DC_ENEMY]) != 0) == (dist <= 3), (trial, sq)
