"""Combat decisions for the heuristic players, each by its exact odds: which combat to
start, the attacker's cards and support, the defender's withdraw and defence cards.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_NO_ASSAULT, adjacent
from manoeuvre_sim.manoeuvre.engine.players.cards import DC_REDUCED, _card_worth
from manoeuvre_sim.manoeuvre.engine.players.moves import _own_def_cards, _skirmish_move_gain
from manoeuvre_sim.manoeuvre.engine.players.odds import (
    DICE_GE,
    DICE_PMF,
    KMAX,
    LMAX,
    _band_values,
    _convolve,
    _dice_at_least,
    _elim_value,
    _ev_cum,
    _ev_single,
    _expected_def_cards,
    _loss,
    _table_attack_pmf,
    _tail,
    _tail_at_least,
)
from manoeuvre_sim.manoeuvre.engine.players.params import (
    H_ATTACK,
    H_CA,
    H_CARD,
    H_DEFGUESS,
    H_GROUND,
    H_HIT,
    H_OWN,
)
from manoeuvre_sim.manoeuvre.engine.rules import (
    attack_base,
    attack_dice,
    can_retreat,
    defence_base,
    fire_dice,
    hill_bonus,
    leader_acts_for,
    strength,
    table_defence,
)
from manoeuvre_sim.manoeuvre.engine.state import HMAX, NUNITS  # names: constants for stack_empty


# ------------------------------------------------------------------------------------------
# combat
# ------------------------------------------------------------------------------------------
@kernel
def _ev_between(tail, top, a0, df, vals):
    """_ev_cum against a fractional defence ``df``: linear between the two whole totals."""
    d = int(df)
    fr = df - d
    ev = _ev_cum(tail, top, a0, d, vals)
    if fr > 0.0:
        ev = (1.0 - fr) * ev + fr * _ev_cum(tail, top, a0, d + 1, vals)
    return ev


@kernel
def _committed_hit_cost(st, weights, u, p0, pass_on):
    """What the hit a Committed Attack for unit u costs its player (rule 9.2: "one attacking
    or Supporting unit must take a Hit at the conclusion of the attack"), ``p0`` being the
    chance of band 0, in which every attacking unit takes a hit first (rule 6.1 step 7).
    Outside band 0, u takes it as it stands (``_loss``). In band 0 a full u takes its second
    hit, which eliminates it; a reduced u has been eliminated by the first, so the hit
    passes on (interpretation 26) at the cost ``pass_on`` (``_pass_on_loss``; 0 when u
    attacks alone)."""
    if st[S.U_STEP + u] == 2:
        second = _elim_value(st, weights, u) - weights[H_HIT]
    else:
        second = pass_on
    return ((1.0 - p0) * _loss(st, weights, u) + p0 * second) * weights[H_OWN] * weights[H_CA]


@kernel
def _pass_on_loss(st, weights, cb, u):
    """In band 0, the cost of a Committed Attack's hit passed on from the eliminated unit u
    (interpretation 26): the attacker gives it to the surviving attacking or supporting
    unit it costs least — a full one, reduced by the band, which it eliminates — or to none
    if every other was reduced (eliminated by the band too) or u attacked alone."""
    best = -1.0
    for i in range(cb[D.CB_NATT]):
        w = cb[D.CB_ATT + i]
        if w != u and st[S.U_STEP + w] == 2:
            x = _elim_value(st, weights, w) - weights[H_HIT]
            if best < 0.0 or x < best:
                best = x
    return max(best, 0.0)


@kernel
def _with_step5_card(st, units, cards, weights, p, u, s_init, n, sd, a0, df, tsq, ev, cost, vals):
    """The value of an assault (or ambush: ``u`` = -1) declared with ``n``d``sd`` from hand
    slot ``s_init``, once the attacker adds the best single card it holds for rule 6.1
    step 5 — a unit card of u, a Committed Attack for u, Sappers against a redoubt, a
    leader's Combat value — valued as ``_choose_att_card`` values it, net of its ``cost``
    (per slot); ``ev`` (the initiating card alone) if none adds more. A leader's Command
    (support, rule 6.4) is not credited."""
    # the initiating card's roll alone, as tabulated: its distribution (DICE_PMF, on 0..top)
    # and its tail (DICE_GE, on 0..KMAX - 1: the numbers _tail gives on 0..top, and 0 past)
    top = n * sd
    pmf = DICE_PMF[n, sd]
    tail = DICE_GE[n, sd]
    tmp = stack_empty(LMAX, np.float64)
    cum = stack_empty(LMAX, np.float64)
    best = ev
    for s in range(st[S.HAND_N + p]):
        if s == s_init:
            continue
        c = st[S.HAND + p * S.HMAX + s]
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            if u < 0 or p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT] != u:
                continue
            if cards[p, c, S.CF_ATK_N] == 0:
                continue
            t2 = _convolve(pmf, top, cards[p, c, S.CF_ATK_N], cards[p, c, S.CF_ATK_S], tmp)
            _tail(tmp, t2, cum)
            v = _ev_between(cum, t2, a0, df, vals)
        elif kind == S.KIND_LEADER:
            if not leader_acts_for(units, cards, p, c, u):
                continue  # Distant Lands 9.1 (a Maharaja's play is not credited here)
            v = _ev_between(tail, KMAX - 1, a0 + cards[p, c, S.CF_CBT_A], df, vals)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_COMMITTED:
            if u < 0:
                continue  # an Ambush has no attacking unit to commit
            t2 = _convolve(pmf, top, 2, 6, tmp)
            _tail(tmp, t2, cum)
            d = int(df)
            fr = df - d
            p0 = (1.0 - fr) * (1.0 - _tail_at_least(cum, t2, d - a0)) + fr * (
                1.0 - _tail_at_least(cum, t2, d + 1 - a0)
            )
            v = _ev_between(cum, t2, a0, df, vals) - _committed_hit_cost(st, weights, u, p0, 0.0)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_SAPPERS:
            if st[S.REDOUBT + tsq] == 0:
                continue
            v = _ev_between(tail, KMAX - 1, a0, df - 3.0, vals)
        else:
            continue
        v -= cost[s]
        if v > best:
            best = v
    return best


@kernel
def _combat_value(st, units, cards, tprops, weights, p, kind, u, s, t, cost, can_ret, vals):
    """Expected value of declaring a combat (D_COMBAT option) with the card in hand slot s,
    net of what the cards spent cost (``cost``: per hand slot). An assault or ambush is
    valued with the best card the attacker holds for step 5 (``_with_step5_card``)."""
    c = st[S.HAND + p * S.HMAX + s]
    tsq = st[S.U_SQ + t]
    if kind == D.CK_ASSAULT or kind == D.CK_AMBUSH:
        if kind == D.CK_ASSAULT:
            a0 = strength(st, units, u) + hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
            n, sd = attack_dice(cards, p, c)  # a unit card's, or a Japanese leader's 1d6
            own = _loss(st, weights, u) * weights[H_OWN]
        else:
            a0 = 0
            n, sd = 1, 10  # the Ambush card's 1d10 (HQ_CARDS.md); no unit is at risk
            own = 0.0
        # the defence with the expected cards, linear between the two whole totals around it
        df = defence_base(st, units, tprops, t, False) + _expected_def_cards(
            st, units, cards, weights, p, t
        )
        d = int(df)
        fr = df - d
        _band_values(st, tprops, weights, t, can_ret, own, vals)
        ev = _ev_single(n, sd, a0, d, vals)
        if fr > 0.0:
            ev = (1.0 - fr) * ev + fr * _ev_single(n, sd, a0, d + 1, vals)
        # rule 6.1 step 5: the cards the attacker holds for after the defender's
        u_att = u if kind == D.CK_ASSAULT else -1
        ev = _with_step5_card(
            st, units, cards, weights, p, u_att, s, n, sd, a0, df, tsq, ev, cost, vals
        )
        return ev - cost[s]
    if kind == D.CK_DEATH_WITH_HONOUR:
        # Distant Lands 9.2: our unit u is eliminated, every adjacent enemy unit hit
        v = -_elim_value(st, weights, u) * weights[H_OWN]
        for sq in (tsq - 8, tsq + 8, tsq - 1, tsq + 1):
            if 0 <= sq < 64 and (sq // 8 == tsq // 8 or sq % 8 == tsq % 8):
                e = st[S.OCC + sq]
                if e >= 0 and e // S.MAXU_SIDE != p:
                    v += _loss(st, weights, e)
        return v - cost[s]
    if kind == D.CK_ROCKETS:
        # Distant Lands 6.3: a d10, 0.4 a retreat, 0.2 a retreat and a hit; a target that
        # cannot retreat is eliminated instead (rule 6.6). No risk. A retreat is valued as
        # in an assault's bands (players/odds.py _band_values).
        if can_retreat(st, tprops, t):
            back = weights[H_GROUND] + 0.15 * weights[H_HIT]
            return 0.6 * back + 0.2 * _loss(st, weights, t) - cost[s]
        return 0.6 * _elim_value(st, weights, t) - cost[s]
    # bombardment, volley, grand battery (rule 6.2, 9.1): one hit if the roll beats the
    # target's defence; no risk
    n, sd = fire_dice(cards, p, c, kind)
    a0 = hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
    d = defence_base(st, units, tprops, t, False)
    return _dice_at_least(n, sd, d + 1 - a0) * _loss(st, weights, t) - cost[s]


@kernel
def _choose_combat(st, units, cards, tprops, weights, p, opts, n, dc, vals):
    n_reduced = dc[DC_REDUCED]
    cost = stack_empty(HMAX, np.float64)
    for s in range(st[S.HAND_N + p]):
        cost[s] = weights[H_CARD] * _card_worth(
            st, units, cards, weights, p, st[S.HAND + p * S.HMAX + s], n_reduced, dc
        )
    ret = stack_empty(NUNITS, np.int8)  # can the target retreat (computed once)
    ret[:] = -1
    best = weights[H_ATTACK]
    bi = 0
    for i in range(1, n):
        kind = opts[i, 0]
        s = opts[i, 2]
        t = opts[i, 3]
        cr = False
        if kind == D.CK_ASSAULT or kind == D.CK_AMBUSH:
            if ret[t] < 0:
                ret[t] = 1 if can_retreat(st, tprops, t) else 0
            cr = ret[t] == 1
        v = _combat_value(
            st, units, cards, tprops, weights, p, kind, opts[i, 1], s, t, cost, cr, vals
        )
        # the first of options worth the same within rounding: two ways to play the same
        # two cards (one declared, one in step 5) are worth the same in exact arithmetic,
        # and which one a last-bit difference favoured varied with numpy/numba versions
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@kernel
def _own_at_risk(st, weights, cb):
    r = 0.0
    for i in range(cb[D.CB_NATT]):
        r += _loss(st, weights, cb[D.CB_ATT + i]) * weights[H_OWN]
    return r


@kernel
def _attacker_view(st, units, cards, tprops, weights, p, cb, pmf, tail, vals):
    """The assault under way (``cb``) as the attacker p sees it in step 5, the defender's
    cards being on the table: returns ``(d, a0, top)`` — the defence total, the attack total
    before dice (units, hill, a leader's Combat) and the top of the table's attack-dice
    distribution, written to ``pmf`` with its tail in ``tail`` — and sets the band values."""
    t = cb[D.CB_DEF_U]
    d = defence_base(st, units, tprops, t, cb[D.CB_SAPPERS] == 1) + table_defence(st, cards, 1 - p)
    a0 = attack_base(st, units, tprops, cb, st[S.U_SQ + t], cb[D.CB_KIND] == D.CK_AMBUSH)
    if cb[D.CB_LMODE] == 1:
        a0 += cards[p, cb[D.CB_LEADER], S.CF_CBT_A]
    top = _table_attack_pmf(st, cards, p, cb, pmf)
    _tail(pmf, top, tail)
    _band_values(
        st, tprops, weights, t, can_retreat(st, tprops, t), _own_at_risk(st, weights, cb), vals
    )
    return d, a0, top


@kernel
def _choose_att_card(st, units, cards, tprops, weights, p, opts, n, dc, cb, vals):
    """Rule 6.1 step 5: the defender's cards are on the table, so the defence is known."""
    tsq = st[S.U_SQ + cb[D.CB_DEF_U]]
    pmf = stack_empty(LMAX, np.float64)
    tail = stack_empty(LMAX, np.float64)
    d, a0, top = _attacker_view(st, units, cards, tprops, weights, p, cb, pmf, tail, vals)
    tmp = stack_empty(LMAX, np.float64)
    cum2 = stack_empty(LMAX, np.float64)
    base = _ev_cum(tail, top, a0, d, vals)
    n_reduced = dc[DC_REDUCED]
    best = base
    bi = 0
    for i in range(1, n):
        s = opts[i, 0]
        what = opts[i, 1]
        if what == D.AC_DECLARE_COMMITTED:
            # Distant Lands 8: +2d6 for no card; the unit takes a hit at the end (its own)
            u = opts[i, 2]
            t2 = _convolve(pmf, top, 2, 6, tmp)
            _tail(tmp, t2, cum2)
            p0 = 1.0 - _tail_at_least(cum2, t2, d - a0)
            v = _ev_cum(cum2, t2, a0, d, vals) - _committed_hit_cost(st, weights, u, p0, 0.0)
            if v > best + 1e-9:
                best = v
                bi = i
            continue
        c = st[S.HAND + p * S.HMAX + s]
        cost = weights[H_CARD] * _card_worth(st, units, cards, weights, p, c, n_reduced, dc)
        if what == D.AC_MAHARAJA_COMBAT or what == D.AC_MAHARAJA_COMMAND:
            # Distant Lands 9.1: the Maharaja played with the leader costs its worth too
            m = st[S.HAND + p * S.HMAX + opts[i, 2]]
            cost += weights[H_CARD] * _card_worth(st, units, cards, weights, p, m, n_reduced, dc)
        v = base
        if what == D.AC_UNIT:
            na, sa = attack_dice(cards, p, c)  # a Japanese leader's 1d6 (Distant Lands 9.1)
            t2 = _convolve(pmf, top, na, sa, tmp)
            _tail(tmp, t2, cum2)
            v = _ev_cum(cum2, t2, a0, d, vals)
        elif what == D.AC_COMMITTED:
            # +2d6; the unit takes a hit at the end (rule 9.2)
            u = opts[i, 2]
            t2 = _convolve(pmf, top, 2, 6, tmp)
            _tail(tmp, t2, cum2)
            p0 = 1.0 - _tail_at_least(cum2, t2, d - a0)
            v = _ev_cum(cum2, t2, a0, d, vals) - _committed_hit_cost(
                st, weights, u, p0, _pass_on_loss(st, weights, cb, u)
            )
        elif what == D.AC_SAPPERS:
            v = _ev_cum(tail, top, a0, d - 3, vals)
        elif what == D.AC_SKIRMISH:
            # rule 9.2: the combat is cancelled, the initiating card returns to the hand
            # (going on spends it) and the unit may move up to 2 squares
            ci = cb[D.CB_INIT_CARD]
            v = weights[H_CARD] * _card_worth(st, units, cards, weights, p, ci, n_reduced, dc)
            v += _skirmish_move_gain(st, units, cards, tprops, weights, p, opts[i, 2])
        elif what == D.AC_LEADER_COMBAT or what == D.AC_MAHARAJA_COMBAT:
            v = _ev_cum(tail, top, a0 + cards[p, c, S.CF_CBT_A], d, vals)
        elif what == D.AC_LEADER_COMMAND or what == D.AC_MAHARAJA_COMMAND:
            # the strongest eligible supporting units (rule 6.4), each also at risk; with a
            # Maharaja Command 4 and any unit (Distant Lands 9.1)
            free = what == D.AC_MAHARAJA_COMMAND
            k = 3 if free else cards[p, c, S.CF_CMD] - 1
            add = 0
            risk = 0.0
            for _ in range(k):
                bu = -1
                bv = 0
                for j in range(S.MAXU_SIDE):
                    uu = p * S.MAXU_SIDE + j
                    if st[S.U_STEP + uu] <= 0:  # < 0: already taken below
                        continue
                    usq = st[S.U_SQ + uu]
                    if not adjacent(usq, tsq) or tprops[st[S.TERR + usq], TP_NO_ASSAULT] == 1:
                        continue
                    if not free and not leader_acts_for(units, cards, p, c, uu):
                        continue
                    already = False
                    for m in range(cb[D.CB_NATT]):
                        if cb[D.CB_ATT + m] == uu:
                            already = True
                    if already:
                        continue
                    sv = strength(st, units, uu)
                    if cb[D.CB_KIND] != D.CK_AMBUSH:
                        sv += hill_bonus(st, tprops, usq, tsq)
                    if sv > bv:
                        bv = sv
                        bu = uu
                if bu < 0:
                    break
                add += bv
                risk += _loss(st, weights, bu) * weights[H_OWN]
                st[S.U_STEP + bu] = -st[S.U_STEP + bu]  # mark as taken (restored below)
            for j in range(S.MAXU_SIDE):
                uu = p * S.MAXU_SIDE + j
                if st[S.U_STEP + uu] < 0:
                    st[S.U_STEP + uu] = -st[S.U_STEP + uu]
            if add == 0:
                continue
            vals0 = vals[0]
            vals[0] = vals0 - risk
            v = _ev_cum(tail, top, a0 + add, d, vals)
            vals[0] = vals0
        v -= cost
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@kernel
def _choose_support(st, units, cards, tprops, weights, p, opts, n, cb, vals):
    """Rule 6.4: add the supporting unit whose strength (at the risk of its hit in band 0)
    raises the assault's value most, or none."""
    tsq = st[S.U_SQ + cb[D.CB_DEF_U]]
    pmf = stack_empty(LMAX, np.float64)
    tail = stack_empty(LMAX, np.float64)
    d, a0, top = _attacker_view(st, units, cards, tprops, weights, p, cb, pmf, tail, vals)
    best = _ev_cum(tail, top, a0, d, vals)
    bi = 0
    for i in range(1, n):
        u = opts[i, 0]
        vals0 = vals[0]
        vals[0] = vals0 - _loss(st, weights, u) * weights[H_OWN]
        add = strength(st, units, u)
        if cb[D.CB_KIND] != D.CK_AMBUSH:
            add += hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
        v = _ev_cum(tail, top, a0 + add, d, vals)
        vals[0] = vals0
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@kernel
def _defender_view(st, tprops, weights, cards, q, cb, tail, vals):
    """The assault under way as the defender q sees it in steps 3-4: the tail of the
    attacker's table dice in ``tail`` (returns its top) and the band values, band 0 (the
    attackers take a hit) being q's gain."""
    t = cb[D.CB_DEF_U]
    pmf = stack_empty(LMAX, np.float64)
    top = _table_attack_pmf(st, cards, 1 - q, cb, pmf)
    _tail(pmf, top, tail)
    _band_values(
        st, tprops, weights, t, can_retreat(st, tprops, t), _own_at_risk(st, weights, cb), vals
    )
    return top


@kernel
def _defender_loss(st, units, cards, tprops, weights, q, cb, extra_def, tail, top, vals):
    """Expected loss for the defender q of the assault under way (cb), with extra_def more
    defence: the attack dice on the table (tail ``tail``) plus an expected 0.5 * H_DEFGUESS
    of later cards. ``vals`` holds the band values (_band_values)."""
    t = cb[D.CB_DEF_U]
    tsq = st[S.U_SQ + t]
    d = defence_base(st, units, tprops, t, False) + table_defence(st, cards, q) + extra_def
    # the attacker's later cards: half the defence guess, linear between whole totals
    af = 0.5 * weights[H_DEFGUESS]
    a0 = attack_base(st, units, tprops, cb, tsq, cb[D.CB_KIND] == D.CK_AMBUSH) + int(af)
    fr = af - int(af)
    ev = _ev_cum(tail, top, a0, d, vals)
    if fr > 0.0:
        ev = (1.0 - fr) * ev + fr * _ev_cum(tail, top, a0 + 1, d, vals)
    return ev * weights[H_OWN]


@kernel
def _choose_withdraw(st, units, cards, tprops, weights, q, opts, n, dc, cb, vals):
    t = cb[D.CB_DEF_U]
    tail = stack_empty(LMAX, np.float64)
    top = _defender_view(st, tprops, weights, cards, q, cb, tail, vals)
    # the loss if we stand, with the defence cards we hold for t
    hold = _own_def_cards(st, cards, q, t)
    lose = _defender_loss(st, units, cards, tprops, weights, q, cb, hold, tail, top, vals)
    best = -lose
    bi = 0
    n_reduced = dc[DC_REDUCED]
    for i in range(1, n):
        c = st[S.HAND + q * S.HMAX + opts[i, 0]]
        cost = (
            weights[H_CARD] * _card_worth(st, units, cards, weights, q, c, n_reduced, dc)
            + weights[H_GROUND]
        )
        if cards[q, c, S.CF_KIND] == S.KIND_HQ:
            v = -cost
        else:
            ok = cards[q, c, S.CF_WITHDRAW] / 6.0
            v = -(ok * cost + (1 - ok) * lose)
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@kernel
def _choose_def_card(st, units, cards, tprops, weights, q, opts, n, dc, cb, vals):
    tail = stack_empty(LMAX, np.float64)
    top = _defender_view(st, tprops, weights, cards, q, cb, tail, vals)
    lose = _defender_loss(st, units, cards, tprops, weights, q, cb, 0, tail, top, vals)
    best = 0.0
    bi = 0
    n_reduced = dc[DC_REDUCED]
    for i in range(1, n):
        c = st[S.HAND + q * S.HMAX + opts[i, 0]]
        if cards[q, c, S.CF_KIND] == S.KIND_LEADER:
            add = cards[q, c, S.CF_CBT_D]
        else:
            add = cards[q, c, S.CF_DEF]
        if add <= 0:
            continue
        gain = lose - _defender_loss(st, units, cards, tprops, weights, q, cb, add, tail, top, vals)
        v = (
            gain
            - weights[H_CARD] * _card_worth(st, units, cards, weights, q, c, n_reduced, dc) * 0.5
        )
        if opts[i, 2] > 0:  # with a Maharaja (Distant Lands 9.1): its worth spent too
            m = st[S.HAND + q * S.HMAX + opts[i, 2] - 1]
            v -= weights[H_CARD] * _card_worth(st, units, cards, weights, q, m, n_reduced, dc) * 0.5
        if v > best + 1e-9:
            best = v
            bi = i
    return bi
