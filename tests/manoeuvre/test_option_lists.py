"""The rules' option lists against plain loops (issue 41: the same options, faster).

The rules kernels that read the board or the hand once and skip what cannot give an option
(bits, lists of the units on the board) must list exactly the options, in exactly the order,
that the plain loops over every card and every unit listed: here those loops, written out
in the tests, on random battlefields, hands and armies (the base game's and the made-up
Distant Lands test armies, for Grand Batteries, Rockets, Japanese leaders and Death With
Honour).
"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import board as B
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_ENTER, TP_NO_ASSAULT
from manoeuvre_sim.manoeuvre.engine.combat_phase import combat_options, rocket_unit
from manoeuvre_sim.manoeuvre.engine.movement import move_options
from manoeuvre_sim.manoeuvre.engine.restoration import restore_options
from tests.manoeuvre.engine_helpers import CHINA, INDIA, JAPAN, SWEDEN, packed

# (army A, army B, the combat kinds their random states give): every kind in one of them
MATCHES = (
    ("France", "Russia", {D.CK_ASSAULT, D.CK_BOMBARD, D.CK_VOLLEY, D.CK_GRAND_BATTERY}),
    (SWEDEN, CHINA, {D.CK_ASSAULT, D.CK_BOMBARD, D.CK_ROCKETS}),
    (JAPAN, INDIA, {D.CK_ASSAULT, D.CK_AMBUSH, D.CK_BOMBARD, D.CK_ROCKETS,
                    D.CK_DEATH_WITH_HONOUR}),
    ("Austria", "Prussia", {D.CK_ASSAULT, D.CK_AMBUSH, D.CK_BOMBARD, D.CK_VOLLEY}),
)  # fmt: skip


def random_state(P, rng):
    """Both armies' units on random squares of a random battlefield (in the middle rows,
    so that many are in reach of each other), some reduced or eliminated, and random hands
    of up to 7 cards."""
    st = S.new_state()
    st[S.TERR : S.TERR + 64] = rng.integers(0, P.tprops.shape[0], 64)
    free = [sq for sq in range(16, 48) if P.tprops[st[S.TERR + sq], TP_ENTER]]
    squares = rng.permutation(free)
    k = 0
    for u in range(S.NUNITS):
        if P.units[u, S.UF_EXISTS] == 0 or rng.random() < 0.15 or k >= len(squares):
            continue
        sq = int(squares[k])
        k += 1
        st[S.OCC + sq] = u
        st[S.U_SQ + u] = sq
        st[S.U_STEP + u] = 1 if rng.random() < 0.3 else 2
    for p in range(2):
        h = int(rng.integers(0, 8))
        st[S.HAND_N + p] = h
        st[S.HAND + p * S.HMAX : S.HAND + p * S.HMAX + h] = rng.integers(0, P.deck_size[p], h)
    return st


def plain_combat_options(st, units, cards, tprops, p, opts):
    """``combat_options`` as the plain loop over every hand card and every enemy unit."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    q = 1 - p
    n = D.add_option(opts, 0, D.CK_NONE, -1, -1, -1)
    for s in range(st[S.HAND_N + p]):
        c = R.hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            u = R.card_unit(cards, p, c)
            if st[S.U_STEP + u] == 0:
                continue
            sq = st[S.U_SQ + u]
            for i in range(S.MAXU_SIDE):
                t = q * S.MAXU_SIDE + i
                if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                    continue
                tsq = st[S.U_SQ + t]
                if cards[p, c, S.CF_ATK_N] > 0 and B.adjacent(sq, tsq):
                    if tprops[terr[sq], TP_NO_ASSAULT] == 0:
                        n = D.add_option(opts, n, D.CK_ASSAULT, u, s, t)
                if n < D.MAXOPT and cards[p, c, S.CF_BOMB_N] > 0:
                    if B.in_fire_range(occ, terr, tprops, sq, tsq, cards[p, c, S.CF_RANGE]):
                        n = D.add_option(opts, n, D.CK_BOMBARD, u, s, t)
                if n < D.MAXOPT and cards[p, c, S.CF_VOL_N] > 0:
                    if B.in_fire_range(occ, terr, tprops, sq, tsq, 1):
                        n = D.add_option(opts, n, D.CK_VOLLEY, u, s, t)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_AMBUSH:
            for i in range(S.MAXU_SIDE):
                t = q * S.MAXU_SIDE + i
                if st[S.U_STEP + t] != 0 and n < D.MAXOPT:
                    n = D.add_option(opts, n, D.CK_AMBUSH, -1, s, t)
        elif kind == S.KIND_LEADER and cards[p, c, S.CF_LUNIT] > 0:
            u = p * S.MAXU_SIDE + cards[p, c, S.CF_LUNIT] - 1
            if st[S.U_STEP + u] == 0 or tprops[terr[st[S.U_SQ + u]], TP_NO_ASSAULT] == 1:
                continue
            for i in range(S.MAXU_SIDE):
                t = q * S.MAXU_SIDE + i
                if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                    continue
                if B.adjacent(st[S.U_SQ + u], st[S.U_SQ + t]):
                    n = D.add_option(opts, n, D.CK_ASSAULT, u, s, t)
        elif kind == S.KIND_LEADER and cards[p, c, S.CF_GB_N] > 0:
            for i in range(S.MAXU_SIDE):
                u = p * S.MAXU_SIDE + i
                if st[S.U_STEP + u] == 0 or not R.leader_acts_for(units, cards, p, c, u):
                    continue
                for j in range(S.MAXU_SIDE):
                    t = q * S.MAXU_SIDE + j
                    if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                        continue
                    if B.in_fire_range(occ, terr, tprops, st[S.U_SQ + u], st[S.U_SQ + t], 2):
                        n = D.add_option(opts, n, D.CK_GRAND_BATTERY, u, s, t)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_ROCKETS:
            for j in range(S.MAXU_SIDE):
                t = q * S.MAXU_SIDE + j
                if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                    continue
                u = rocket_unit(st, tprops, p, t)
                if u >= 0:
                    n = D.add_option(opts, n, D.CK_ROCKETS, u, s, t)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_DEATH_WITH_HONOUR:
            for i in range(S.MAXU_SIDE):
                u = p * S.MAXU_SIDE + i
                if st[S.U_STEP + u] != 0 and n < D.MAXOPT:
                    n = D.add_option(opts, n, D.CK_DEATH_WITH_HONOUR, u, s, u)
    return n


def test_within_two_is_every_square_at_distance_one_or_two():
    for sq in range(64):
        want = {t for t in range(64) if 1 <= B.distance(sq, t) <= 2}
        got = {t for t in range(64) if (int(B.WITHIN_TWO[sq]) >> t) & 1}
        assert got == want


@pytest.mark.parametrize("a, b, kinds_seen", MATCHES, ids=[f"match{i}" for i in range(4)])
def test_combat_options_equal_the_plain_loop(a, b, kinds_seen):
    """Every combat option (rule 6: Assault, Ambush, Bombardment, Volley, Grand Battery,
    Rockets, Death With Honour) in the plain loop's order, on 300 random states per
    match-up, for either side; and states with options of every kind among them."""
    P = packed(a, b)
    rng = np.random.default_rng(41)
    got = np.zeros((D.MAXOPT, 4), np.int32)
    want = np.zeros((D.MAXOPT, 4), np.int32)
    kinds = set()
    for _ in range(300):
        st = random_state(P, rng)
        for p in range(2):
            n = combat_options(st, P.units, P.cards, P.tprops, p, got)
            m = plain_combat_options(st, P.units, P.cards, P.tprops, p, want)
            assert n == m
            assert (got[:n] == want[:n]).all()
            kinds |= {int(k) for k in got[1:n, 0]}
    assert kinds == kinds_seen


def plain_move_options(st, units, tprops, p, moved, opts, start, banzai, slot):
    """``move_options`` as the plain loop: ``move_destinations`` unit by unit."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    buf = np.zeros(B.MAX_MOVE_DESTINATIONS, np.int32)
    n = start
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0 or moved[i]:
            continue
        reach = 1 if banzai == 1 else units[u, S.UF_CAV]
        for j in range(B.move_destinations(occ, terr, tprops, st[S.U_SQ + u], reach, buf)):
            if n >= D.MAXOPT:
                break
            n = D.add_option(opts, n, u, buf[j], slot, banzai)
    return n


@pytest.mark.parametrize("a, b", [m[:2] for m in MATCHES], ids=[f"match{i}" for i in range(4)])
def test_move_options_equal_the_plain_loop(a, b):
    """Every move (rule 5; a Banzai Charge's, Distant Lands 9.2) of the units not moved
    yet, in the plain loop's order, on 300 random states per match-up, for either side."""
    P = packed(a, b)
    rng = np.random.default_rng(5)
    got = np.zeros((D.MAXOPT, 4), np.int32)
    want = np.zeros((D.MAXOPT, 4), np.int32)
    moves = 0
    for _ in range(300):
        st = random_state(P, rng)
        for p in range(2):
            moved = (rng.random(S.MAXU_SIDE) < 0.2).astype(np.int32)
            start = int(rng.integers(0, 2))
            banzai = int(rng.integers(0, 2))
            slot = int(rng.integers(-1, 5)) if banzai else 0
            n = move_options(st, P.units, P.tprops, p, moved, got, start, banzai, slot)
            m = plain_move_options(st, P.units, P.tprops, p, moved, want, start, banzai, slot)
            assert n == m
            assert (got[start:n] == want[start:n]).all()
            moves += n - start
    assert moves > 5_000


def plain_restore_options(st, units, cards, p, opts):
    """``restore_options`` as the plain loop over every hand card and every unit."""
    n = D.add_option(opts, 0, -1, -1, 0, 0)
    ms = R.find_hq(st, cards, p, S.HQ_MAHARAJA)
    for s in range(st[S.HAND_N + p]):
        c = R.hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        for i in range(S.MAXU_SIDE):
            u = p * S.MAXU_SIDE + i
            if st[S.U_STEP + u] != 1 or n >= D.MAXOPT:
                continue
            ok = False
            with_m = 0
            if kind == S.KIND_LEADER:
                ok = R.leader_acts_for(units, cards, p, c, u)
                if not ok and ms >= 0:
                    ok = True
                    with_m = 1 + ms
            elif kind == S.KIND_UNIT:
                ok = R.card_unit(cards, p, c) == u
            elif kind == S.KIND_HQ:
                ok = cards[p, c, S.CF_HQ] in (S.HQ_SUPPLY, S.HQ_REGROUP)
            if ok:
                n = D.add_option(opts, n, s, u, with_m, 0)
    return n


@pytest.mark.parametrize("a, b", [m[:2] for m in MATCHES], ids=[f"match{i}" for i in range(4)])
def test_restore_options_equal_the_plain_loop(a, b):
    """Every restoration (rule 7: unit cards, Supply, Regroup, leaders; Distant Lands 9.1:
    restricted leaders, the Maharaja) in the plain loop's order, on 300 random states per
    match-up, for either side."""
    P = packed(a, b)
    rng = np.random.default_rng(7)
    got = np.zeros((D.MAXOPT, 4), np.int32)
    want = np.zeros((D.MAXOPT, 4), np.int32)
    kinds = set()
    for _ in range(300):
        st = random_state(P, rng)
        for p in range(2):
            n = restore_options(st, P.units, P.cards, p, got)
            m = plain_restore_options(st, P.units, P.cards, p, want)
            assert n == m
            assert (got[:n] == want[:n]).all()
            kinds |= {int(P.cards[p, R.hand_card(st, p, s), S.CF_KIND]) for s in got[1:n, 0]}
    assert kinds == {S.KIND_UNIT, S.KIND_LEADER, S.KIND_HQ}
