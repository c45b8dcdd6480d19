"""The ``simple`` policy: a one-ply heuristic that advances toward the enemy half,
prefers defensive terrain, attacks when its expected total beats the defence by a margin,
defends with its cards, restores reduced units and keeps useful cards (the engine issue's
baseline; it hoards cards).
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_DEF, TP_REDOUBT, adjacent, neighbors
from manoeuvre_sim.manoeuvre.engine.players.params import NPARAM
from manoeuvre_sim.manoeuvre.engine.rules import attack_dice, strength

# simple policy parameters
P_ADVANCE = 0  # weight of forward progress in a move
P_TERRAIN = 1  # weight of the destination's defense bonus
P_ATTACK_MARGIN = 2  # attack when expected attack total >= margin * defense total
P_CONTACT = 3  # weight of ending adjacent to an enemy unit
P_KEEP = 4  # discard cards worth less than this (see _card_value)
SIMPLE_PARAMS = np.zeros(NPARAM)
SIMPLE_PARAMS[:5] = (1.0, 0.6, 1.2, 0.3, 5.5)


@kernel
def dwh_balance(st, p, u):
    """Death With Honour (Distant Lands 9.2) counted in steps: the enemy steps the hits
    around p's unit u take, minus u's own steps."""
    nb = stack_empty(4, np.int32)
    k = neighbors(st[S.U_SQ + u], nb)
    v = -float(st[S.U_STEP + u])
    for i in range(k):
        e = st[S.OCC + nb[i]]
        if e >= 0 and e // S.MAXU_SIDE != p:
            v += 1.0
    return v


@kernel
def _mean_dice(n, s):
    return n * (s + 1) / 2.0


@kernel
def _forward(p, sq):
    """How far sq is toward p's enemy edge (0..7)."""
    r = sq // 8
    return 7 - r if p == 0 else r


@kernel
def _enemy_adjacent(st, p, sq):
    n = 0
    q = 1 - p
    for i in range(S.MAXU_SIDE):
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] > 0 and adjacent(st[S.U_SQ + t], sq):
            n += 1
    return n


@kernel
def _card_value(st, cards, p, c):
    """Rough worth of holding card c (0: useless)."""
    kind = cards[p, c, S.CF_KIND]
    if kind == S.KIND_UNIT:
        if st[S.U_STEP + p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT]] == 0:
            return 0.0
        v = _mean_dice(cards[p, c, S.CF_ATK_N], cards[p, c, S.CF_ATK_S]) * 0.5
        v += _mean_dice(cards[p, c, S.CF_BOMB_N], cards[p, c, S.CF_BOMB_S]) * 0.4
        v += _mean_dice(cards[p, c, S.CF_VOL_N], cards[p, c, S.CF_VOL_S]) * 0.4
        return v + 0.3 * cards[p, c, S.CF_DEF]
    if kind == S.KIND_LEADER:
        return 4.0 + cards[p, c, S.CF_CBT_A] * 0.5
    if kind != S.KIND_HQ:
        return 0.0  # a blank card (card-value ablations): it can only be discarded
    hq = cards[p, c, S.CF_HQ]
    if hq == S.HQ_WITHDRAW or hq == S.HQ_SUPPLY or hq == S.HQ_REGROUP:
        return 4.0
    if hq == S.HQ_COMMITTED or hq == S.HQ_SKIRMISH:
        return 1.0
    return 3.0


@kernel
def _score(st, units, cards, tprops, p, params, opts, i, dk, cb):
    """Heuristic value of option i of decision dk for the simple policy (higher is better)."""
    weights = params[p]
    o0 = opts[i, 0]
    o1 = opts[i, 1]
    o2 = opts[i, 2]
    o3 = opts[i, 3]
    if dk == D.D_PLACE:
        sq = o0
        u = o1
        front = 1.0 if (sq // 8 == 6 and p == 0) or (sq // 8 == 1 and p == 1) else 0.0
        return front * strength(st, units, u) * 0.2 + tprops[st[S.TERR + sq], TP_DEF] * 0.5
    if dk == D.D_PICK_START:
        c = o1
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            return (
                _mean_dice(cards[p, c, S.CF_ATK_N], cards[p, c, S.CF_ATK_S])
                + 0.1 * cards[p, c, S.CF_DEF]
            )
        if kind == S.KIND_LEADER:
            return 6.0 + cards[p, c, S.CF_CBT_A]
        return 4.0 if kind == S.KIND_HQ else 0.0
    if dk == D.D_DISCARD:
        # drop the cards worth less than the keep threshold (cards of eliminated units are
        # worth nothing), so the deck keeps cycling toward nightfall
        mask = o0
        sc = 0.0
        for s in range(st[S.HAND_N + p]):
            c = st[S.HAND + p * S.HMAX + s]
            dropped = (mask >> s) & 1
            v = _card_value(st, cards, p, c) - weights[P_KEEP]
            if dropped:
                sc -= v
        return sc
    if dk == D.D_MOVE or dk == D.D_SUPPLY_MOVE or dk == D.D_FORCED_MARCH or dk == D.D_SKIRMISH_MOVE:
        if dk == D.D_MOVE:
            u, to = o0, o1
        elif dk == D.D_SUPPLY_MOVE:
            u, to = o1, o2
        elif dk == D.D_FORCED_MARCH:
            u, to = o2, o1
        else:
            u, to = o1, o0
        if u < 0 or to < 0:
            return 0.0
        fr = st[S.U_SQ + u]
        gain = _forward(p, to) - _forward(p, fr)
        tdef = tprops[st[S.TERR + to], TP_DEF] - tprops[st[S.TERR + fr], TP_DEF]
        contact = _enemy_adjacent(st, p, to)
        sc = (
            weights[P_ADVANCE] * gain
            + weights[P_TERRAIN] * tdef
            + weights[P_CONTACT] * min(contact, 1)
        )
        if st[S.U_STEP + u] == 1:
            sc -= 0.5 * contact
        if dk != D.D_MOVE:
            sc -= 0.3  # a card spent
        elif o3 == 1 and o2 >= 0:
            # Distant Lands 9.2 Banzai Charge: a card spent for a second unit's move of up
            # to two squares, taken as two rows forward
            sc += 2.0 * weights[P_ADVANCE] - 0.3
        return sc
    if dk == D.D_COMBAT:
        kind = o0
        if kind == D.CK_NONE:
            return 0.0
        u, s, t = o1, o2, o3
        c = st[S.HAND + p * S.HMAX + s]
        tsq = st[S.U_SQ + t]
        tt = st[S.TERR + tsq]
        dtot = (
            strength(st, units, t)
            + tprops[tt, TP_DEF]
            + tprops[tt, TP_REDOUBT] * st[S.REDOUBT + tsq]
        )
        if kind == D.CK_ASSAULT:
            na, sa = attack_dice(cards, p, c)  # or a Japanese leader's 1d6 (Distant Lands 9.1)
            a = strength(st, units, u) + _mean_dice(na, sa)
            if a >= weights[P_ATTACK_MARGIN] * (dtot + 2.0):
                return 1.0 + (a - dtot) * 0.1
            return -1.0
        if kind == D.CK_AMBUSH:
            return -0.5
        if kind == D.CK_ROCKETS:
            return 0.2  # no risk: d10 5-10 a retreat, 9-10 with a hit (Distant Lands 6.3)
        if kind == D.CK_DEATH_WITH_HONOUR:
            return dwh_balance(st, p, u) + 0.25  # e.g. a reduced unit for one enemy hit

        if kind == D.CK_BOMBARD:
            a = _mean_dice(cards[p, c, S.CF_BOMB_N], cards[p, c, S.CF_BOMB_S])
        elif kind == D.CK_VOLLEY:
            a = _mean_dice(cards[p, c, S.CF_VOL_N], cards[p, c, S.CF_VOL_S])
        else:
            a = _mean_dice(cards[p, c, S.CF_GB_N], cards[p, c, S.CF_GB_S])
        return (a - dtot) * 0.2
    if dk == D.D_WITHDRAW:
        t = o1
        return 0.5 if (o0 >= 0 and st[S.U_STEP + t] == 1) else (0.0 if o0 < 0 else -0.2)
    if dk == D.D_DEF_CARD:
        if o0 < 0:
            return 0.0
        c = st[S.HAND + p * S.HMAX + o0]
        if cards[p, c, S.CF_KIND] == S.KIND_LEADER:
            # with a Maharaja (Distant Lands 9.1), a second card spent
            return 0.1 * cards[p, c, S.CF_CBT_D] - 0.3 - (0.2 if o2 > 0 else 0.0)
        return 0.2 * cards[p, c, S.CF_DEF]
    if dk == D.D_ATT_CARD:
        what = o1
        if what == D.AC_DECLARE_COMMITTED:
            # Distant Lands 8: +2d6 for a hit to the unit afterwards; a full unit can take it
            return 0.2 if st[S.U_STEP + o2] == 2 else -1.0
        if o0 < 0:
            return 0.0
        if what == D.AC_UNIT or what == D.AC_SAPPERS:
            return 1.0
        if what == D.AC_LEADER_COMBAT:
            c = st[S.HAND + p * S.HMAX + o0]
            return 0.2 * cards[p, c, S.CF_CBT_A]
        if what == D.AC_LEADER_COMMAND:
            return 0.3
        if what == D.AC_MAHARAJA_COMBAT:  # Distant Lands 9.1: two cards for the value
            c = st[S.HAND + p * S.HMAX + o0]
            return 0.2 * cards[p, c, S.CF_CBT_A] - 0.3
        if what == D.AC_MAHARAJA_COMMAND:  # Command 4: up to three supporting units
            return 0.35
        return -1.0  # Committed Attack, Skirmish: not for this simple player
    if dk == D.D_SUPPORT:
        return 1.0 if o0 >= 0 else 0.0
    if dk == D.D_COMMITTED_HIT:  # a full-strength unit loses a step, a reduced one dies
        return 1.0 if st[S.U_STEP + o0] == 2 else 0.0
    if dk == D.D_HIT_OR_RETREAT:
        t = o1
        band = o2
        if band == 3:  # attacker chooses: retreat if it eliminates or the unit is full
            return 1.0 if o0 == 0 and st[S.U_STEP + t] == 1 else (0.5 if o0 == 1 else 0.0)
        return 1.0 if o0 == 1 else 0.0  # defender: prefer to give ground
    if dk == D.D_RETREAT_SQ:
        return tprops[st[S.TERR + o0], TP_DEF] * 1.0
    if dk == D.D_ADVANCE:
        return 1.0 if o0 >= 0 else 0.0
    if dk == D.D_RESTORE:
        if o0 < 0:
            return 0.0
        c = st[S.HAND + p * S.HMAX + o0]
        if cards[p, c, S.CF_KIND] == S.KIND_LEADER:
            return 0.2 - (0.1 if o2 > 0 else 0.0)  # with a Maharaja: two cards
        return 1.0
    if dk == D.D_REDOUBT:
        if o0 < 0:
            return 0.0
        c = st[S.HAND + p * S.HMAX + o0]
        # an Indian unit card's Redoubt (Distant Lands 8) spends a unit card: the HQ first
        spent = 0.3 if cards[p, c, S.CF_KIND] == S.KIND_UNIT else 0.0
        return 0.5 + 0.5 * _enemy_adjacent(st, p, st[S.U_SQ + o1]) - spent
    if dk == D.D_GUERRILLA or dk == D.D_SPY:
        return 1.0 if o0 >= 0 else 0.0
    return 0.0
