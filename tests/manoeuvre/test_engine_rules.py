"""Scenario tests of the game rules, each set up as an ASCII board (tests/manoeuvre/boards.py).

Units on the boards: digits are player 0 (France, army A, home edge = bottom row),
lower-case letters player 1 (Russia, army B, home edge = top row). France's units in file
order: 0 1st Cuirassiers (cav), 1 2nd Legere, 2 4th Suisse, 3 8th Legere, 4 19th Legere,
5 45th Legere, 6 Guard Cavalry (cav), 7 Garde Imperial.
"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from tests.manoeuvre.boards import at, parse_board
from tests.manoeuvre.engine_helpers import (
    card_index,
    context,
    engine_unit,
    give_hand,
    packed,
    state_from_board,
    uowner,
)

EMPTY = "\n".join([". . . . . . . ."] * 8)


def test_results_table_reference_card():
    # rule 6.1 step 7 / reference card: A<D attacker hit ... A>=4D eliminated
    band = G.assault_band
    assert band(9, 10) == 0  # less than: all attacking units take a hit
    assert band(10, 10) == 1  # equal: no effect
    assert band(11, 10) == 2  # greater: defender chooses
    assert band(20, 10) == 3  # twice: attacker chooses
    assert band(30, 10) == 4  # three times: hit and retreat
    assert band(40, 10) == 5  # four times: eliminated
    assert band(39, 10) == 4 and band(29, 10) == 3 and band(19, 10) == 2


def test_nightfall_scoring_rule_2_2_and_tiebreakers():
    # Player 0 (bottom) scores squares of rows 0-3; player 1 squares of rows 4-7.
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . 0 . . . . . .
        . . . . . a . .
        . . . . . . . .
        . . . b . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    st = state_from_board(board)
    P = packed()
    tr = np.zeros((0, 6), np.int32)
    trn = np.zeros(1, np.int32)
    G.score_nightfall(st, P.units, uowner(), P.rank, tr, trn)
    # unit 0 at (2,1): occupies 1 + influences (1,1) (2,0) (2,2) (3,1) = 5, none contested.
    # unit b at (5,3): 1 + (4,3) (6,3) (5,2) (5,4) = 5; unit a at (3,5), on its own half,
    # still influences (4,5) on the enemy half: 6 in all.
    assert (st[S.VP], st[S.VP + 1]) == (5, 6)
    assert st[S.WINNER] == 1 and st[S.TIEBREAK] == 0
    # move a away: 5 to 5; a tie on squares, eliminations and reduced units goes to the
    # nation listed first in rule 2.2: Russia before France, so player 1
    R.move_unit(st, engine_unit(8), at(1, 5))
    G.score_nightfall(st, P.units, uowner(), P.rank, tr, trn)
    assert (st[S.VP], st[S.VP + 1]) == (5, 5)
    assert st[S.WINNER] == 1 and st[S.TIEBREAK] == 3
    # more enemy units eliminated wins first
    st[S.ELIM + 1] = 1
    G.score_nightfall(st, P.units, uowner(), P.rank, tr, trn)
    assert st[S.WINNER] == 0 and st[S.TIEBREAK] == 1
    # fewer reduced units wins next
    st[S.ELIM + 1] = 0
    st[S.U_STEP + engine_unit(0)] = 1
    G.score_nightfall(st, P.units, uowner(), P.rank, tr, trn)
    assert st[S.WINNER] == 1 and st[S.TIEBREAK] == 2


def test_mirror_match_last_tiebreak_is_a_draw():
    from manoeuvre_sim.manoeuvre.engine.pack import pack
    from manoeuvre_sim.manoeuvre.model import find_army, load_sections, load_terrain

    t = load_terrain()
    P = pack(find_army("France"), find_army("France"), t, load_sections(terrain=t))
    st = state_from_board(parse_board(EMPTY))
    G.score_nightfall(
        st, P.units, uowner(), P.rank, np.zeros((0, 6), np.int32), np.zeros(1, np.int32)
    )
    assert st[S.WINNER] == -1 and st[S.TIEBREAK] == 4


def test_pyrrhic_victory_rule_2_1():
    st = S.new_state()
    st[S.ELIM + 1] = 5  # the active player 0 eliminated a 5th enemy unit ...
    st[S.ELIM] = 5  # ... but lost its own 5th in the same battle (Committed Attack)
    assert G.check_attrition(st, 0)
    assert st[S.WINNER] == 1 and st[S.VICTORY] == S.VICTORY_ATTRITION
    st = S.new_state()
    st[S.ELIM + 1] = 5
    st[S.ELIM] = 4
    assert G.check_attrition(st, 0) and st[S.WINNER] == 0


def _combat_kinds(st, P, p, hand):
    give_hand(st, p, hand)
    opts = np.zeros((D.MAXOPT, 4), np.int32)
    n = G.combat_options(st, P.units, P.cards, P.tprops, p, opts)
    return {(int(o[0]), int(o[1]), int(o[3])) for o in opts[:n]}


def test_no_assault_out_of_a_marsh_but_volley_allowed():
    # rule 6.1 step 1: no Assault from a Marsh; rule 6.2: a Volley from a Marsh is allowed.
    # France's 19th Legere (4) has a 2d8 attack card; Russia's unit a is adjacent.
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . . M4 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    P = packed()
    st = state_from_board(board)
    atk = card_index(P, 0, unit=4, pred=lambda r: r[S.CF_ATK_N] > 0)
    kinds = _combat_kinds(st, P, 0, [atk])
    assert (D.CK_ASSAULT, 4, engine_unit(8)) not in kinds
    st[S.TERR + at(4, 4)] = st[S.TERR + at(0, 0)]  # now Clear
    kinds = _combat_kinds(st, P, 0, [atk])
    assert (D.CK_ASSAULT, 4, engine_unit(8)) in kinds


def test_bombard_line_of_sight_and_range():
    # rule 6.2 step 2: range 2, the intervening square may not hold a unit or Woods.
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . a . . . . . .
        . . . . . . . .
        . 3 . b . W c .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    P = packed()
    st = state_from_board(board)
    arty = card_index(P, 0, unit=3, pred=lambda r: r[S.CF_ARTY] == 1)
    kinds = _combat_kinds(st, P, 0, [arty])
    targets = {t for k, u, t in kinds if k == D.CK_BOMBARD}
    # a at (2,1): two squares straight up, (3,1) empty -> in range; b at (4,3): (4,2) empty
    assert targets == {engine_unit(8), engine_unit(9)}


def test_ambush_any_target_and_grand_battery():
    board = parse_board("""
        . . . . . . . a
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . b . .
        . . . . . . . .
        0 . . . . . . .
    """)
    P = packed("United States", "France")
    st = state_from_board(board)
    ambush = card_index(P, 0, kind="Ambush")
    kinds = _combat_kinds(st, P, 0, [ambush])
    assert {t for k, u, t in kinds if k == D.CK_AMBUSH} == {engine_unit(8), engine_unit(9)}
    # Napoleon's Grand Battery (rule 9.1): from any French unit at range 2
    P = packed("France", "Russia")
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . a . . . .
        . . . . . . . .
        . . . 5 . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    st = state_from_board(board)
    napoleon = card_index(P, 0, kind="leader", pred=lambda r: r[S.CF_GB_N] == 2)
    kinds = _combat_kinds(st, P, 0, [napoleon])
    assert (D.CK_GRAND_BATTERY, 5, engine_unit(8)) in kinds


def test_surrounded_unit_is_eliminated_when_it_must_retreat():
    # rule 6.5: all four squares blocked -> eliminated instead of retreating
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . 1 . . .
        . . . 2 a 3 . .
        . . . . 4 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    P = packed()
    st = state_from_board(board)
    g = context(P, seed=1)
    u = engine_unit(8)
    alive = G.retreat(st, g, u)
    assert not alive and st[S.U_STEP + u] == 0 and st[S.ELIM + 1] == 1
    assert st[S.OCC + at(3, 4)] == -1


def test_retreat_goes_toward_own_edge_first():
    # player 1's own edge is the top: unit a at (3,4) retreats to (2,4) when it is open
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . 2 a 3 . .
        . . . . 4 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    P = packed()
    st = state_from_board(board)
    G.retreat(st, context(P, seed=2), engine_unit(8))
    assert st[S.U_SQ + engine_unit(8)] == at(2, 4)


def test_redoubt_leaves_with_its_unit():
    st = state_from_board(parse_board(EMPTY.replace(". . . . . . . .", ". . . 0 . . . .", 1)))
    st[S.REDOUBT + at(0, 3)] = 1
    R.move_unit(st, 0, at(1, 3))
    assert st[S.REDOUBT + at(0, 3)] == 0  # rule 9.2 Redoubt: removed when the unit leaves


def test_day_ends_when_first_deck_drawn_out_rule_2_3():
    st = S.new_state()
    st[S.DECK_N] = 2
    st[S.DECK : S.DECK + 2] = [5, 6]
    rng = new_state(3)
    tr = np.zeros((0, 6), np.int32)
    trn = np.zeros(1, np.int32)
    assert R.draw_one(st, 0, rng, tr, trn) and st[S.FIRST_DECK_DONE] == 0
    assert R.draw_one(st, 0, rng, tr, trn) and st[S.FIRST_DECK_DONE] == 1
    # the discards are reshuffled into a new deck as often as needed
    st[S.DISC_N] = 1
    st[S.DISC] = 9
    assert R.draw_one(st, 0, rng, tr, trn)
    assert st[S.RESHUFFLES] == 1 and st[S.HAND_N] == 3
    assert not R.draw_one(st, 0, rng, tr, trn)  # nothing left anywhere


def _printed_band(a: int, d: int) -> int:
    """Rule 6.1 step 7 / the reference card, row by row: A < D attacker hit, A = D no
    effect, A > D defender's choice, A >= 2D attacker's choice, A >= 3D hit and retreat,
    A >= 4D eliminated (the highest row reached, interpretation 20)."""
    if a < d:
        return 0
    if a == d:
        return 1
    return 2 + (a >= 2 * d) + (a >= 3 * d) + (a >= 4 * d)


@pytest.mark.parametrize("seed", range(40))
def test_assault_outcome_follows_its_band(seed):
    """A Garde Imperial assault on a Russian unit, every decision random: whatever happens
    must be what the band of the logged totals allows (rules 6.1 step 7, 6.5, 6.6)."""
    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . 6 7 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    P = packed()
    st = state_from_board(board)
    atk = card_index(P, 0, unit=7, pred=lambda r: r[S.CF_ATK_N] > 0)
    give_hand(st, 0, [atk] + list(range(40, 44)))  # + leaders Lannes, Murat, Davout, Ney
    give_hand(st, 1, list(range(0, 5)))  # Russia's first unit's cards: defense for unit a
    for p in range(2):
        used = set(st[S.HAND + p * S.HMAX : S.HAND + p * S.HMAX + st[S.HAND_N + p]].tolist())
        rest = [c for c in range(P.deck_size[p]) if c not in used]
        st[S.DECK_N + p] = len(rest)
        st[S.DECK + p * S.MAXC : S.DECK + p * S.MAXC + len(rest)] = rest
    g = context(P, seed=seed, trace=400)
    cb, tr, trn = g.cb, g.tr, g.trn
    # declare the assault as combat_phase would, then run the procedure
    cb[G.CB_LEADER] = cb[G.CB_DLEADER] = -1
    cb[G.CB_KIND] = D.CK_ASSAULT
    c = R.play_to_table(st, 0, 0)
    cb[G.CB_INIT_CARD] = c
    t = engine_unit(8)
    tsq = st[S.U_SQ + t]
    G.assault(st, g, 0, D.CK_ASSAULT, 7, t)
    G.check_invariants(st, P.deck_size, P.tprops)
    ev = tr[: trn[0]]
    withdrew = any(e[0] == R.EV_WITHDRAW and e[3] == 1 for e in ev)
    combat = [e for e in ev if e[0] == R.EV_COMBAT]
    assert st[S.TABLE_N] == 0 and st[S.TABLE_N + 1] == 0  # every played card discarded
    if withdrew or not combat:
        return
    ((_, _, _, a, d, band),) = combat
    # the band from the reference card's results table itself, not from assault_band
    assert band == _printed_band(a, d), (a, d, band)
    involved = [cb[G.CB_ATT + i] for i in range(cb[G.CB_NATT])]
    if band == 0:  # all attacking/supporting units hit
        assert all(st[S.U_STEP + u] < 2 for u in involved)
    if band == 1:
        assert st[S.U_SQ + t] == tsq and st[S.U_STEP + t] == 2
    if band >= 2:
        assert st[S.U_SQ + t] != tsq or st[S.U_STEP + t] == 1 or st[S.U_STEP + t] == 0
    if band == 5:
        assert st[S.U_STEP + t] == 0
    if band >= 4 or (band >= 2 and st[S.U_SQ + t] != tsq):
        # the defender's square was vacated: one attacking/supporting unit advanced into it,
        # unless every involved unit played a "not required to advance" card (rule 6.5)
        played = [atk] + [
            e[2] for e in ev if e[0] == R.EV_PLAY and e[1] == 0 and e[3] == R.PURPOSE_ATTACK
        ]
        nrta_units = {
            engine_unit(P.cards[0, c, S.CF_UNIT]) for c in played if P.cards[0, c, S.CF_NRTA]
        }
        if st[S.OCC + tsq] == -1:
            assert set(involved) <= nrta_units
        else:
            assert st[S.OCC + tsq] in involved


@pytest.mark.parametrize(
    ("attack", "defense", "step", "moved"),
    [(40, 10, 0, None), (41, 10, 0, None), (39, 10, 1, True)],
    ids=["4x-eliminated", "above-4x-eliminated", "just-below-4x-hit-and-retreat"],
)
def test_four_times_the_defense_eliminates_a_full_strength_unit(attack, defense, step, moved):
    """Rule 6.1 step 7 (rulebook 003) and the reference card's Assault/Ambush Results
    Table (004): "greater than or equal to four times (x4) the Defense Total: Defending unit
    is Eliminated" - removed at once, full strength or not, not a Hit (which would only
    reduce it). One below four times is the row above, "takes a Hit and Retreats". The
    Garde Imperial (7) has assaulted Russia's full-strength unit a; the results step runs
    on the totals, as ``assault`` leaves them in the combat record:

        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .      a: Russia's first unit, full strength (2 steps)
        . . . . 7 . . .      7: Garde Imperial, the attacker
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    from manoeuvre_sim.manoeuvre.engine.combat_phase import results

    board = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . . 7 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    P = packed()
    st = state_from_board(board)
    g = context(P, seed=3, trace=64)
    t, atk = engine_unit(8), engine_unit(7)
    tsq = st[S.U_SQ + t]
    assert st[S.U_STEP + t] == 2 and st[S.ELIM + 1] == 0
    cb = g.cb
    cb[G.CB_KIND] = D.CK_ASSAULT
    cb[G.CB_LEADER] = cb[G.CB_DLEADER] = -1
    cb[G.CB_NATT] = 1
    cb[G.CB_ATT] = atk
    cb[D.CB_A], cb[D.CB_D] = attack, defense
    results(st, g, 0, D.CK_ASSAULT, t, False)
    ev = g.tr[: g.trn[0]]
    ((_, _, _, a, d, band),) = [e for e in ev if e[0] == R.EV_COMBAT]
    assert (a, d, band) == (attack, defense, _printed_band(attack, defense))
    assert st[S.U_STEP + t] == step  # eliminated: no step left (a hit would leave 1)
    assert st[S.ELIM + 1] == (1 if step == 0 else 0)
    assert st[S.U_STEP + atk] == 2  # the attacker untouched
    if moved:
        assert st[S.U_SQ + t] != tsq  # the row below: a hit, then a retreat
    else:
        assert st[S.OCC + tsq] in (-1, atk)  # the square emptied (the attacker may advance)
