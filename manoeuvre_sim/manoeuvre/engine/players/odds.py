"""Exact combat odds for the heuristic players: the dice tables (P(sum of n s-sided dice
== k) and >= k), the values of the results-table bands (rule 6.1 step 7) and the expected
value of a combat from the dice on the table.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.players.params import H_DEFGUESS, H_ELIM, H_GROUND, H_HIT
from manoeuvre_sim.manoeuvre.engine.rules import attack_dice, find_hq, leader_acts_for


def _dice_tables(nmax: int = 10, smax: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """PMF[n, s, k] = P(sum of n s-sided dice == k); GE[n, s, k] = P(sum >= k), for every
    dice an army file may print (``dice.py``: up to 10 dice of up to 20 sides)."""
    kmax = nmax * smax + 1
    pmf = np.zeros((nmax + 1, smax + 1, kmax), dtype=np.float64)
    pmf[:, 0, 0] = 1.0
    for s in range(1, smax + 1):
        die = np.full(s + 1, 1.0 / s)
        die[0] = 0.0
        pmf[0, s, 0] = 1.0
        for n in range(1, nmax + 1):
            pmf[n, s] = np.convolve(pmf[n - 1, s], die)[:kmax]
    ge = np.cumsum(pmf[:, :, ::-1], axis=2)[:, :, ::-1].copy()
    return pmf, ge


DICE_PMF, DICE_GE = _dice_tables()
KMAX = DICE_PMF.shape[2]
LMAX = 512  # length of the attack-dice distributions built from the table
DECISIVE = 6.0  # added to an elimination that ends the game by attrition (rule 2.1)


@nb.njit(cache=True, inline="always")
def _dice_at_least(n, s, x):
    """P(sum of n s-sided dice >= x)."""
    if x <= 0:
        return 1.0
    if x >= KMAX:
        return 0.0
    return DICE_GE[n, s, x]


@nb.njit(cache=True, inline="always")
def _tail_at_least(tail, top, x):
    """P(X >= x) from the tail ``tail`` of a distribution on 0..top."""
    if x <= 0:
        return 1.0
    if x > top:
        return 0.0
    return tail[x]


@nb.njit(cache=True, inline="always")
def _progress_rows(p, sq):
    """Rows of progress of sq from p's home edge toward the enemy edge (0..7)."""
    r = sq // 8
    return 7 - r if p == 0 else r


@kernel
def _loss(st, weights, u):
    """Value of one hit on unit u for its owner's enemy: a step, an elimination, or the
    game when the elimination is its owner's 5th (rule 2.1 attrition; also the pyrrhic
    Committed Attack)."""
    if st[S.U_STEP + u] == 2:
        return weights[H_HIT]
    if st[S.ELIM + u // S.MAXU_SIDE] >= 4:
        return weights[H_ELIM] + DECISIVE
    return weights[H_ELIM]


@kernel
def _elim_value(st, weights, u):
    """Value of eliminating unit u outright (both steps if full), for its owner's enemy."""
    v = weights[H_ELIM] + (weights[H_HIT] if st[S.U_STEP + u] == 2 else 0.0)
    if st[S.ELIM + u // S.MAXU_SIDE] >= 4:
        v += DECISIVE
    return v


@kernel
def _band_values(st, tprops, weights, t, can_ret, own_loss, vals):
    """Value to the attacker of each band (rule 6.1 step 7 / 6.5) against defender t."""
    full = st[S.U_STEP + t] == 2
    hv = _loss(st, weights, t)  # one hit
    ev = _elim_value(st, weights, t)  # elimination
    gr = weights[H_GROUND]
    vals[0] = -own_loss
    vals[1] = 0.0
    # defender's choice: the cheaper for it of a hit and a retreat
    if can_ret:
        vals[2] = min(hv, gr + 0.15 * weights[H_HIT])
    else:
        vals[2] = hv
    # attacker's choice: a hit, or a retreat (an impossible retreat eliminates)
    if can_ret:
        vals[3] = max(hv, gr + 0.15 * weights[H_HIT])
    else:
        vals[3] = ev
    # hit and retreat
    if full and can_ret:
        vals[4] = hv + gr
    else:
        vals[4] = ev + gr
    vals[5] = ev + gr


@kernel
def _ev_cum(tail, top, a0, d, vals):
    """Expected value of an assault whose attack total is a0 + X against defence d, where X
    is distributed on 0..top with tail ``tail`` (P(X >= x)), ``vals`` being the value of
    each band of the results table (rule 6.1 step 7, as ``combat.assault_band``)."""
    g4 = _tail_at_least(tail, top, 4 * d - a0)
    g3 = _tail_at_least(tail, top, 3 * d - a0)
    g2 = _tail_at_least(tail, top, 2 * d - a0)
    g1 = _tail_at_least(tail, top, d + 1 - a0)
    g0 = _tail_at_least(tail, top, d - a0)
    return (
        vals[5] * g4
        + vals[4] * (g3 - g4)
        + vals[3] * (g2 - g3)
        + vals[2] * (g1 - g2)
        + vals[1] * (g0 - g1)
        + vals[0] * (1.0 - g0)
    )


@kernel
def _ev_single(n, s, a0, d, vals):
    """_ev_cum for one roll of n s-sided dice (the tail is tabulated)."""
    return _ev_cum(DICE_GE[n, s], KMAX - 1, a0, d, vals)


@kernel
def _convolve(pmf, top, n, s, out):
    """out = pmf * (n d s) for pmf on 0..top; returns the new top (mass past LMAX is
    dropped: no table of cards gets near it)."""
    if n == 0 or s == 0:
        for x in range(top + 1):  # loops: a slice copy would need numba's NRT
            out[x] = pmf[x]
        return top
    new = min(top + n * s, LMAX - 1)
    out[: new + 1] = 0.0
    for x in range(top + 1):
        px = pmf[x]
        if px == 0.0:
            continue
        for k in range(n, n * s + 1):
            if x + k <= new:
                out[x + k] += px * DICE_PMF[n, s, k]
    return new


@kernel
def _tail(pmf, top, tail):
    acc = 0.0
    for x in range(top, -1, -1):
        acc += pmf[x]
        tail[x] = acc


@kernel
def _table_attack_pmf(st, cards, p, cb, pmf):
    """Distribution of the attack dice of the cards p has on the table (rule 6.1 step 6),
    the combat's leader for Combat or Command aside, with 2d6 per attack declared Committed
    by a unit card (Distant Lands 8); returns its top."""
    pmf[0] = 1.0
    top = 0
    tmp = stack_empty(LMAX, np.float64)
    for j in range(st[S.TABLE_N + p]):
        c = st[S.TABLE + p * S.TMAX + j]
        if c == cb[D.CB_LEADER]:
            continue
        n, s = attack_dice(cards, p, c)
        if n > 0:
            top = _convolve(pmf, top, n, s, tmp)
            for x in range(top + 1):
                pmf[x] = tmp[x]
    for i in range(cb[D.CB_NATT]):
        if cb[D.CB_CA + i] == 2:
            top = _convolve(pmf, top, 2, 6, tmp)
            for x in range(top + 1):
                pmf[x] = tmp[x]
    return top


@kernel
def _expected_def_cards(st, units, cards, weights, p, t):
    """What the defender (owner of t) is expected to add with cards: its best cards for t
    when p has seen its hand (Scout/Spy), else the guess H_DEFGUESS. A restricted leader
    (Distant Lands 9.1) counts only for its units, unless a Maharaja in that hand frees it."""
    q = 1 - p
    if st[S.REVEALED + p] == 0:
        return weights[H_DEFGUESS]
    d = 0
    best_leader = 0
    maharaja = find_hq(st, cards, q, S.HQ_MAHARAJA) >= 0
    for s in range(st[S.HAND_N + q]):
        c = st[S.HAND + q * S.HMAX + s]
        if cards[q, c, S.CF_KIND] == S.KIND_UNIT:
            if q * S.MAXU_SIDE + cards[q, c, S.CF_UNIT] == t:
                d += cards[q, c, S.CF_DEF]
        elif cards[q, c, S.CF_KIND] == S.KIND_LEADER:
            if maharaja or leader_acts_for(units, cards, q, c, t):
                best_leader = max(best_leader, cards[q, c, S.CF_CBT_D])
    return float(d + best_leader)
