"""Scripted heuristic players (issue #5): one numba policy driven by a parameter vector.

The styles (``attritional``, ``territorial``, ``balanced``) are parameter vectors of the
same policy (``STYLE_PARAMS``); ``balanced`` also turns on the posture switch (``H_SWITCH``),
which shifts the weights by the score, the time left in the day and the attrition race.

Every decision the rules expose is judged:

* combats by their **exact** band probabilities (rule 6.1 step 7 results table) for the dice
  on the table, the card being considered and the known defence (the defender's cards once
  played; before that, its hand only after a Scout/Spy, else an expected ``H_DEFGUESS``);
* moves by the change of a unit's position value: progress toward the enemy edge, squares of
  the enemy half (nightfall, rule 2.2), defensive terrain, attack opportunities next turn
  (the cards in hand) and the threat of adjacent enemy units;
* cards by a context value (an eliminated unit's card is worth nothing; Withdraw and defence
  cards are worth more for threatened units; Regroup and Supply when units are reduced).

Fair play: the policy reads the board, its own hand, both hands' sizes, deck counts, the
cards on the table in the current combat, the elimination counters, and the opponent's hand
only while ``REVEALED[p]`` is set (Scout/Spy). ``tests/test_players.py`` checks it by
re-deciding every decision on a state whose hidden cards are scrambled.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from manoeuvre_sim.engine import decisions as D
from manoeuvre_sim.engine import state as S
from manoeuvre_sim.engine.board import TP_DEF, TP_NO_ASSAULT, TP_REDOUBT, adjacent
from manoeuvre_sim.engine.rules import (
    attack_base,
    attack_dice,
    can_retreat,
    defence_base,
    fire_dice,
    hill_bonus,
    strength,
    table_defence,
)
from manoeuvre_sim.rng import keep_best

# --- parameters: ndarray(float64, (NPARAM,)) per seat ---------------------------------------
H_HIT = 0  # value of one step taken off an enemy unit (full -> reduced)
H_ELIM = 1  # value of eliminating a reduced enemy unit (a full one: H_HIT + H_ELIM)
H_OWN = 2  # multiplier on own losses (risk aversion)
H_ATTACK = 3  # least expected value for which a combat is started
H_ADVANCE = 4  # value of moving a unit from its home edge to the enemy edge (per 7 rows)
H_CONTROL = 5  # value of a unit standing in the enemy half (nightfall squares, rule 2.2)
H_TERRAIN = 6  # value per point of terrain defence where enemies are near
H_THREAT = 7  # weight of the expected loss from adjacent enemy units
H_OPP = 8  # weight of the attack opportunities a square gives next turn
H_KEEP = 9  # discard cards whose value is below this
H_CYCLE = 10  # added to H_KEEP when ahead late in the day (play for nightfall)
H_CARD = 11  # cost of spending a card, per point of card value
H_GROUND = 12  # value of ground won (defender retreats, attacker advances)
H_CA = 13  # multiplier on the cost of a Committed Attack's hit
H_DEFGUESS = 14  # defence the defender's unseen cards are expected to add
H_SWITCH = 15  # 1: balanced posture switch on
H_CHURN = 16  # a full hand sheds its weakest card if worth less than H_KEEP + H_CHURN
NPARAM = 17

PARAM_NAMES = (
    "hit", "elim", "own_loss", "attack_min", "advance", "control", "terrain", "threat",
    "opportunity", "keep", "cycle", "card_cost", "ground", "committed_cost", "def_guess",
    "switch", "churn",
)  # fmt: skip

# fmt: off
#                        hit  elim own  atk   adv  ctl  ter   thr  opp  keep cyc  card  grd   ca   dg   sw   churn
ATTRITIONAL = np.array([1.0, 1.6, 1.0, 0.0,  1.0, 0.3, 0.25, 0.8, 1.5, 3.0, 0.0, 0.03, 0.35, 0.8, 1.5, 0.0, 2.0])
TERRITORIAL = np.array([1.0, 1.3, 1.3, 0.1,  2.0, 1.2, 0.35, 1.1, 0.6, 3.5, 1.0, 0.05, 0.6,  1.5, 2.0, 0.0, 3.0])
BALANCED = np.array(   [1.0, 1.6, 1.0, 0.0,  1.6, 0.6, 0.25, 0.5, 1.5, 4.5, 1.0, 0.03, 0.35, 0.8, 1.5, 1.0, 2.0])
# fmt: on


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

# the worth of holding each HQ card type (state.HQ_* order), before its context
HQ_VALUE = np.zeros(len(S.HQ_NAMES))
for _hq, _v in (
    (S.HQ_AMBUSH, 3.0), (S.HQ_COMMITTED, 2.8), (S.HQ_FORCED_MARCH, 2.0),
    (S.HQ_GUERRILLA, 2.6), (S.HQ_REDOUBT, 2.0), (S.HQ_REGROUP, 1.0), (S.HQ_SAPPERS, 0.5),
    (S.HQ_SPY, 1.0), (S.HQ_SKIRMISH, 1.5), (S.HQ_SUPPLY, 2.5), (S.HQ_WITHDRAW, 3.2),
):  # fmt: skip
    HQ_VALUE[_hq] = _v


@nb.njit(cache=True, inline="always")
def _ge1(n, s, x):
    """P(sum of n s-sided dice >= x)."""
    if x <= 0:
        return 1.0
    if x >= KMAX:
        return 0.0
    return DICE_GE[n, s, x]


@nb.njit(cache=True, inline="always")
def _ge(cum, top, x):
    """P(X >= x) from the tail ``cum`` of a distribution on 0..top."""
    if x <= 0:
        return 1.0
    if x > top:
        return 0.0
    return cum[x]


@nb.njit(cache=True, inline="always")
def _fwd(p, sq):
    """Rows of progress of sq from p's home edge toward the enemy edge (0..7)."""
    r = sq // 8
    return 7 - r if p == 0 else r


@nb.njit(cache=True)
def _loss(st, w, u):
    """Value of one hit on unit u for its owner's enemy: a step, an elimination, or the
    game when the elimination is its owner's 5th (rule 2.1 attrition; also the pyrrhic
    Committed Attack)."""
    if st[S.U_STEP + u] == 2:
        return w[H_HIT]
    if st[S.ELIM + u // S.MAXU_SIDE] >= 4:
        return w[H_ELIM] + DECISIVE
    return w[H_ELIM]


@nb.njit(cache=True)
def _elim_value(st, w, u):
    """Value of eliminating unit u outright (both steps if full), for its owner's enemy."""
    v = w[H_ELIM] + (w[H_HIT] if st[S.U_STEP + u] == 2 else 0.0)
    if st[S.ELIM + u // S.MAXU_SIDE] >= 4:
        v += DECISIVE
    return v


@nb.njit(cache=True)
def _band_values(st, tprops, w, t, can_ret, own_loss, vals):
    """Value to the attacker of each band (rule 6.1 step 7 / 6.5) against defender t."""
    full = st[S.U_STEP + t] == 2
    hv = _loss(st, w, t)  # one hit
    ev = _elim_value(st, w, t)  # elimination
    gr = w[H_GROUND]
    vals[0] = -own_loss
    vals[1] = 0.0
    # defender's choice: the cheaper for it of a hit and a retreat
    if can_ret:
        vals[2] = min(hv, gr + 0.15 * w[H_HIT])
    else:
        vals[2] = hv
    # attacker's choice: a hit, or a retreat (an impossible retreat eliminates)
    if can_ret:
        vals[3] = max(hv, gr + 0.15 * w[H_HIT])
    else:
        vals[3] = ev
    # hit and retreat
    if full and can_ret:
        vals[4] = hv + gr
    else:
        vals[4] = ev + gr
    vals[5] = ev + gr


@nb.njit(cache=True)
def _ev_cum(cum, top, a0, d, vals):
    """Expected value of an assault whose attack total is a0 + X against defence d, where X
    is distributed on 0..top with tail ``cum`` (P(X >= x)), ``vals`` being the value of
    each band of the results table (rule 6.1 step 7, as ``combat.assault_band``)."""
    g4 = _ge(cum, top, 4 * d - a0)
    g3 = _ge(cum, top, 3 * d - a0)
    g2 = _ge(cum, top, 2 * d - a0)
    g1 = _ge(cum, top, d + 1 - a0)
    g0 = _ge(cum, top, d - a0)
    return (
        vals[5] * g4
        + vals[4] * (g3 - g4)
        + vals[3] * (g2 - g3)
        + vals[2] * (g1 - g2)
        + vals[1] * (g0 - g1)
        + vals[0] * (1.0 - g0)
    )


@nb.njit(cache=True)
def _ev_single(n, s, a0, d, vals):
    """_ev_cum for one roll of n s-sided dice (the tail is tabulated)."""
    return _ev_cum(DICE_GE[n, s], KMAX - 1, a0, d, vals)


@nb.njit(cache=True)
def _convolve(pm, top, n, s, out):
    """out = pm * (n d s) for pm on 0..top; returns the new top (mass past LMAX is
    dropped: no table of cards gets near it)."""
    if n == 0 or s == 0:
        out[: top + 1] = pm[: top + 1]
        return top
    new = min(top + n * s, LMAX - 1)
    out[: new + 1] = 0.0
    for x in range(top + 1):
        px = pm[x]
        if px == 0.0:
            continue
        for k in range(n, n * s + 1):
            if x + k <= new:
                out[x + k] += px * DICE_PMF[n, s, k]
    return new


@nb.njit(cache=True)
def _tail(pm, top, cum):
    acc = 0.0
    for x in range(top, -1, -1):
        acc += pm[x]
        cum[x] = acc


@nb.njit(cache=True)
def _table_attack_pmf(st, cards, p, pm):
    """Distribution of the attack dice of the cards p has on the table (rule 6.1 step 6);
    returns its top."""
    pm[0] = 1.0
    top = 0
    tmp = np.empty(LMAX, dtype=np.float64)
    for j in range(st[S.TABLE_N + p]):
        n, s = attack_dice(cards, p, st[S.TABLE + p * S.TMAX + j])
        if n > 0:
            top = _convolve(pm, top, n, s, tmp)
            pm[: top + 1] = tmp[: top + 1]
    return top


@nb.njit(cache=True)
def _expected_def_cards(st, cards, w, p, t):
    """What the defender (owner of t) is expected to add with cards: its best cards for t
    when p has seen its hand (Scout/Spy), else the guess H_DEFGUESS."""
    q = 1 - p
    if st[S.REVEALED + p] == 0:
        return w[H_DEFGUESS]
    d = 0
    best_leader = 0
    for s in range(st[S.HAND_N + q]):
        c = st[S.HAND + q * S.HMAX + s]
        if cards[q, c, S.CF_KIND] == S.KIND_UNIT:
            if q * S.MAXU_SIDE + cards[q, c, S.CF_UNIT] == t:
                d += cards[q, c, S.CF_DEF]
        elif cards[q, c, S.CF_KIND] == S.KIND_LEADER:
            best_leader = max(best_leader, cards[q, c, S.CF_CBT_D])
    return float(d + best_leader)


# ------------------------------------------------------------------------------------------
# cards
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _enemy_reach(st, p, sq, maxd):
    """(enemy units within maxd orthogonal steps of sq, Manhattan distance to the nearest
    enemy unit (99 if none))."""
    r0 = sq // 8
    c0 = sq % 8
    q = 1 - p
    k = 0
    best = 99
    for i in range(S.MAXU_SIDE):
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] == 0:
            continue
        tsq = st[S.U_SQ + t]
        dist = abs(tsq // 8 - r0) + abs(tsq % 8 - c0)
        if dist <= maxd:
            k += 1
        best = min(best, dist)
    return k, best


@nb.njit(cache=True)
def _card_value(st, cards, w, p, c, nreduced):
    """Worth of holding card c for p (0: none)."""
    kind = cards[p, c, S.CF_KIND]
    if kind == S.KIND_UNIT:
        u = p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT]
        if st[S.U_STEP + u] == 0:
            return 0.0  # the card of an eliminated unit
        dist = _enemy_reach(st, p, st[S.U_SQ + u], 2)[1]
        near = dist <= 2
        v = 0.0
        if cards[p, c, S.CF_ATK_N] > 0:
            ea = cards[p, c, S.CF_ATK_N] * (cards[p, c, S.CF_ATK_S] + 1) * 0.5
            v += ea * (0.45 if near else 0.25)
        if cards[p, c, S.CF_BOMB_N] > 0:
            eb = cards[p, c, S.CF_BOMB_N] * (cards[p, c, S.CF_BOMB_S] + 1) * 0.5
            v += eb * (0.3 if dist <= 3 else 0.15)
        if cards[p, c, S.CF_VOL_N] > 0:
            v += 0.5 if near else 0.2
        v += cards[p, c, S.CF_DEF] * (0.5 if near else 0.15)
        if st[S.U_STEP + u] == 1:
            v += 2.0  # it restores its own unit (rule 7 Reinforcement)
        return v
    if kind == S.KIND_LEADER:
        return 4.0 + 0.3 * cards[p, c, S.CF_CBT_A] + 0.5 * cards[p, c, S.CF_CMD]
    if kind != S.KIND_HQ:
        return 0.0  # a blank card (card-value ablations): it can only be discarded
    hq = cards[p, c, S.CF_HQ]
    v = HQ_VALUE[hq]
    if hq == S.HQ_SUPPLY and nreduced > 0:
        v += 1.0  # it may restore one (rule 7)
    elif hq == S.HQ_REGROUP and nreduced > 0:
        v += 2.5
    elif hq == S.HQ_SAPPERS:
        q = 1 - p
        for i in range(S.MAXU_SIDE):
            t = q * S.MAXU_SIDE + i
            if st[S.U_STEP + t] > 0 and st[S.REDOUBT + st[S.U_SQ + t]] == 1:
                return 3.0  # an enemy redoubt to cancel
    return v
    if hq == S.HQ_SKIRMISH:
        return 1.5
    if hq == S.HQ_SAPPERS:
        q = 1 - p
        for i in range(S.MAXU_SIDE):
            t = q * S.MAXU_SIDE + i
            if st[S.U_STEP + t] > 0 and st[S.REDOUBT + st[S.U_SQ + t]] == 1:
                return 3.0
        return 0.5
    return 1.0


@nb.njit(cache=True)
def _n_reduced(st, p):
    k = 0
    for i in range(S.MAXU_SIDE):
        if st[S.U_STEP + p * S.MAXU_SIDE + i] == 1:
            k += 1
    return k


@nb.njit(cache=True)
def _hand_value(st, cards, w, p, s):
    return _card_value(st, cards, w, p, st[S.HAND + p * S.HMAX + s], _n_reduced(st, p))


# ------------------------------------------------------------------------------------------
# posture (balanced style)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _weights(st, w, p, out):
    """The effective weights: w, shifted by the posture switch when H_SWITCH is on."""
    out[:] = w
    q = 1 - p
    # cycle faster (play for nightfall) when ahead on the ground late in the day
    lead = 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] > 0 and _fwd(p, st[S.U_SQ + u]) >= 4:
            lead += 1
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] > 0 and _fwd(q, st[S.U_SQ + t]) >= 4:
            lead -= 1
    left = max(
        st[S.DECK_N + p] if st[S.FIRST_DECK_DONE + p] == 0 else 0,
        st[S.DECK_N + q] if st[S.FIRST_DECK_DONE + q] == 0 else 0,
    )
    late = left < 20
    if w[H_SWITCH] == 0:
        if lead <= 0:
            out[H_CYCLE] = 0.0  # the fixed styles hurry the day on whenever they hold more ground
        return
    kills = st[S.ELIM + q]
    losses = st[S.ELIM + p]
    if losses >= 3 and losses > kills:
        # one or two more losses lose the game: hold
        out[H_OWN] = w[H_OWN] * 1.4
        out[H_THREAT] = w[H_THREAT] * 1.4
        out[H_ATTACK] = w[H_ATTACK] + 0.15
    elif kills >= 3 or (kills > losses and kills >= 2):
        # the attrition race is ours: press it
        out[H_ATTACK] = w[H_ATTACK] - 0.1
        out[H_OPP] = w[H_OPP] * 1.5
        out[H_ELIM] = w[H_ELIM] * 1.3
    if late:
        if lead > 0:
            out[H_THREAT] = out[H_THREAT] * 1.3
            out[H_CONTROL] = w[H_CONTROL] * 1.3
        else:
            out[H_CYCLE] = 0.0
            out[H_ADVANCE] = w[H_ADVANCE] * 1.4
            out[H_CONTROL] = w[H_CONTROL] * 1.6
            out[H_ATTACK] = out[H_ATTACK] - 0.1
    else:
        out[H_CYCLE] = 0.0


# ------------------------------------------------------------------------------------------
# positions
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _best_attack_card(st, cards, p, u):
    """(n, s) of the best attack card p holds for unit u, (0, 0) if none."""
    bn = 0
    bs = 0
    for s in range(st[S.HAND_N + p]):
        c = st[S.HAND + p * S.HMAX + s]
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT and cards[p, c, S.CF_UNIT] == u % 16:
            n = cards[p, c, S.CF_ATK_N]
            if n * (cards[p, c, S.CF_ATK_S] + 1) > bn * (bs + 1):
                bn = n
                bs = cards[p, c, S.CF_ATK_S]
    return bn, bs


@nb.njit(cache=True)
def _own_def_cards(st, cards, p, u):
    d = 0
    for s in range(st[S.HAND_N + p]):
        c = st[S.HAND + p * S.HMAX + s]
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT and cards[p, c, S.CF_UNIT] == u % 16:
            d += cards[p, c, S.CF_DEF]
    return d


@nb.njit(cache=True)
def _enemy_table(st, units, cards, tprops, w, p, et, el, grid):
    """The opposing units once per decision: et[k] = (square, strength, defence + 1 (the
    expected card), 1 if it may assault), el[k] = the value of hitting it; per square,
    grid[sq] = (enemy units within 2 squares, adjacent enemy units, their k...). Returns the
    count."""
    q = 1 - p
    k = 0
    grid[:, :2] = 0
    for i in range(S.MAXU_SIDE):
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] == 0:
            continue
        tsq = st[S.U_SQ + t]
        et[k, 0] = tsq
        et[k, 1] = strength(st, units, t)
        et[k, 2] = defence_base(st, units, tprops, t, False) + 1
        et[k, 3] = 1 - tprops[st[S.TERR + tsq], TP_NO_ASSAULT]
        el[k] = _loss(st, w, t)
        r0 = tsq // 8
        c0 = tsq % 8
        for r in range(max(0, r0 - 2), min(7, r0 + 2) + 1):
            span = 2 - abs(r - r0)
            for c in range(max(0, c0 - span), min(7, c0 + span) + 1):
                sq = r * 8 + c
                grid[sq, 0] += 1
                if abs(r - r0) + abs(c - c0) == 1:
                    grid[sq, 2 + grid[sq, 1]] = k
                    grid[sq, 1] += 1
        k += 1
    return k


@nb.njit(cache=True)
def _posval(st, units, tprops, w, u, sq, bn, bs, owndef, et, el, grid, p):
    """Value for p of unit u standing on sq (the board otherwise as it is; the enemy units
    in ``et``/``el``, see _enemy_table)."""
    f = _fwd(p, sq)
    v = w[H_ADVANCE] * f / 7.0
    if f >= 4:
        v += w[H_CONTROL]
    tsq_terr = st[S.TERR + sq]
    tdef = tprops[tsq_terr, TP_DEF] + tprops[tsq_terr, TP_REDOUBT] * st[S.REDOUBT + sq]
    my = strength(st, units, u)
    myloss = _loss(st, w, u) * w[H_OWN]
    dd = my + tdef + owndef
    # u itself counts in grid only if it is an enemy: it is p's, so grid is all enemies
    near = grid[sq, 0]
    threat = 0.0
    opp = 0.0
    marsh = tprops[tsq_terr, TP_NO_ASSAULT] == 1
    for j in range(grid[sq, 1]):
        k = grid[sq, 2 + j]
        tsq = et[k, 0]
        # the enemy's assault on us next turn: its strength + a typical 2d6 card + hill
        if et[k, 3] == 1:
            ea = et[k, 1] + hill_bonus(st, tprops, tsq, sq)
            threat += myloss * (_ge1(2, 6, dd + 1 - ea) + _ge1(2, 6, 2 * dd - ea))
        # our assault on it: the best attack card held for u, or a later draw
        if not marsh:
            a0 = my + hill_bonus(st, tprops, sq, tsq)
            dt = et[k, 2]
            if bn > 0:
                pg = _ge1(bn, bs, dt + 1 - a0) + _ge1(bn, bs, 2 * dt - a0)
            else:
                pg = 0.3 * (_ge1(2, 6, dt + 1 - a0) + _ge1(2, 6, 2 * dt - a0))
            o = pg * el[k]
            if o > opp:
                opp = o
    v -= w[H_THREAT] * threat * 0.5
    v += w[H_OPP] * opp * 0.5
    if near > 0:
        v += w[H_TERRAIN] * tdef
    else:
        v += w[H_TERRAIN] * tdef * 0.25
    return v


@nb.njit(cache=True)
def _move_value(st, units, cards, tprops, w, p, u, fr, to, et, el, grid):
    """Change of unit u's position value moving from fr to to (enemy tables: _enemy_table)."""
    bn, bs = _best_attack_card(st, cards, p, u)
    od = _own_def_cards(st, cards, p, u)
    return _posval(st, units, tprops, w, u, to, bn, bs, od, et, el, grid, p) - _posval(
        st, units, tprops, w, u, fr, bn, bs, od, et, el, grid, p
    )


@nb.njit(cache=True)
def _choose_unit_move(st, units, cards, tprops, w, p, opts, n, dk, rng):
    """Supply and Forced March moves, Skirmish moves, retreat squares and advances: the
    option whose unit gains most position value (net of the card spent)."""
    et = np.empty((S.MAXU_SIDE, 4), dtype=np.int32)
    el = np.empty(S.MAXU_SIDE, dtype=np.float64)
    grid = np.empty((64, 6), dtype=np.int32)
    _enemy_table(st, units, cards, tprops, w, p, et, el, grid)
    nred = _n_reduced(st, p)
    best = -1e18
    bi = 0
    ties = 0
    for i in range(n):
        o0 = opts[i, 0]
        v = 0.0
        if o0 >= 0:
            if dk == D.D_SUPPLY_MOVE or dk == D.D_FORCED_MARCH:
                u = opts[i, 1] if dk == D.D_SUPPLY_MOVE else opts[i, 2]
                to = opts[i, 2] if dk == D.D_SUPPLY_MOVE else opts[i, 1]
                c = st[S.HAND + p * S.HMAX + o0]
                v = -w[H_CARD] * _card_value(st, cards, w, p, c, nred)
            elif dk == D.D_ADVANCE:
                u, to = o0, opts[i, 1]
                v = 0.3 * w[H_GROUND] + (0.3 if units[u, S.UF_CAV] == 1 else 0.0)
            else:  # skirmish move, retreat square
                u, to = opts[i, 1], o0
            v += _move_value(st, units, cards, tprops, w, p, u, st[S.U_SQ + u], to, et, el, grid)
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@nb.njit(cache=True)
def _choose_move(st, units, cards, tprops, w, p, opts, n, rng, vals):
    """Movement (rule 5): the move that raises its unit's position value most. The options
    come grouped by unit, so each unit's cards and present value are computed once."""
    et = np.empty((S.MAXU_SIDE, 4), dtype=np.int32)
    el = np.empty(S.MAXU_SIDE, dtype=np.float64)
    grid = np.empty((64, 6), dtype=np.int32)
    _enemy_table(st, units, cards, tprops, w, p, et, el, grid)
    best = -1e18
    bi = 0
    ties = 0
    cu = -1
    base = 0.0
    bn = 0
    bs = 0
    od = 0
    for i in range(n):
        u = opts[i, 0]
        if u < 0:
            # Digging In (Distant Lands): the whole hand is discarded
            v = -0.5
            for s in range(st[S.HAND_N + p]):
                v -= w[H_CARD] * _card_value(st, cards, w, p, st[S.HAND + p * S.HMAX + s], 0)
        else:
            if u != cu:
                cu = u
                bn, bs = _best_attack_card(st, cards, p, u)
                od = _own_def_cards(st, cards, p, u)
                base = _posval(st, units, tprops, w, u, st[S.U_SQ + u], bn, bs, od, et, el, grid, p)
            v = _posval(st, units, tprops, w, u, opts[i, 1], bn, bs, od, et, el, grid, p) - base
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


# ------------------------------------------------------------------------------------------
# combat
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _combat_value(st, units, cards, tprops, w, p, kind, u, c, t, cost, can_ret, vals):
    """Expected value of declaring a combat (D_COMBAT option) with card c, net of ``cost``
    (the card spent)."""
    tsq = st[S.U_SQ + t]
    if kind == D.CK_ASSAULT or kind == D.CK_AMBUSH:
        if kind == D.CK_ASSAULT:
            a0 = strength(st, units, u) + hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
            n, sd = cards[p, c, S.CF_ATK_N], cards[p, c, S.CF_ATK_S]
            own = _loss(st, w, u) * w[H_OWN]
        else:
            a0 = 0
            n, sd = 1, 10  # the Ambush card's 1d10 (HQ_CARDS.md); no unit is at risk
            own = 0.0
        # the defence with the expected cards, linear between the two whole totals around it
        df = defence_base(st, units, tprops, t, False) + _expected_def_cards(st, cards, w, p, t)
        d = int(df)
        fr = df - d
        _band_values(st, tprops, w, t, can_ret, own, vals)
        ev = _ev_single(n, sd, a0, d, vals)
        if fr > 0.0:
            ev = (1.0 - fr) * ev + fr * _ev_single(n, sd, a0, d + 1, vals)
        return ev - cost
    # bombardment, volley, grand battery (rule 6.2, 9.1): one hit if the roll beats the
    # target's defence; no risk
    n, sd = fire_dice(cards, p, c, kind)
    a0 = hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
    d = defence_base(st, units, tprops, t, False)
    return _ge1(n, sd, d + 1 - a0) * _loss(st, w, t) - cost


@nb.njit(cache=True)
def _choose_combat(st, units, cards, tprops, w, p, opts, n, vals):
    nred = _n_reduced(st, p)
    cost = np.empty(S.HMAX, dtype=np.float64)
    for s in range(st[S.HAND_N + p]):
        cost[s] = w[H_CARD] * _card_value(st, cards, w, p, st[S.HAND + p * S.HMAX + s], nred)
    ret = np.full(S.NUNITS, -1, dtype=np.int8)  # can the target retreat (computed once)
    best = w[H_ATTACK]
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
        c = st[S.HAND + p * S.HMAX + s]
        v = _combat_value(st, units, cards, tprops, w, p, kind, opts[i, 1], c, t, cost[s], cr, vals)
        if v > best:
            best = v
            bi = i
    return bi


@nb.njit(cache=True)
def _own_at_risk(st, w, cb):
    r = 0.0
    for i in range(cb[D.CB_NATT]):
        r += _loss(st, w, cb[D.CB_ATT + i]) * w[H_OWN]
    return r


@nb.njit(cache=True)
def _attacker_view(st, units, cards, tprops, w, p, cb, pm, cum, vals):
    """The assault under way (``cb``) as the attacker p sees it in step 5, the defender's
    cards being on the table: returns ``(d, a0, top)`` — the defence total, the attack total
    before dice (units, hill, a leader's Combat) and the top of the table's attack-dice
    distribution, written to ``pm`` with its tail in ``cum`` — and sets the band values."""
    t = cb[D.CB_DEF_U]
    d = defence_base(st, units, tprops, t, cb[D.CB_SAPPERS] == 1) + table_defence(st, cards, 1 - p)
    a0 = attack_base(st, units, tprops, cb, st[S.U_SQ + t], cb[D.CB_KIND] == D.CK_AMBUSH)
    if cb[D.CB_LMODE] == 1:
        a0 += cards[p, cb[D.CB_LEADER], S.CF_CBT_A]
    top = _table_attack_pmf(st, cards, p, pm)
    _tail(pm, top, cum)
    _band_values(st, tprops, w, t, can_retreat(st, tprops, t), _own_at_risk(st, w, cb), vals)
    return d, a0, top


@nb.njit(cache=True)
def _choose_att_card(st, units, cards, tprops, w, p, opts, n, cb, vals):
    """Rule 6.1 step 5: the defender's cards are on the table, so the defence is known."""
    tsq = st[S.U_SQ + cb[D.CB_DEF_U]]
    pm = np.empty(LMAX, dtype=np.float64)
    cum = np.empty(LMAX, dtype=np.float64)
    d, a0, top = _attacker_view(st, units, cards, tprops, w, p, cb, pm, cum, vals)
    tmp = np.empty(LMAX, dtype=np.float64)
    cum2 = np.empty(LMAX, dtype=np.float64)
    base = _ev_cum(cum, top, a0, d, vals)
    nred = _n_reduced(st, p)
    best = base
    bi = 0
    for i in range(1, n):
        s = opts[i, 0]
        what = opts[i, 1]
        c = st[S.HAND + p * S.HMAX + s]
        cost = w[H_CARD] * _card_value(st, cards, w, p, c, nred)
        v = base
        if what == D.AC_UNIT:
            t2 = _convolve(pm, top, cards[p, c, S.CF_ATK_N], cards[p, c, S.CF_ATK_S], tmp)
            _tail(tmp, t2, cum2)
            v = _ev_cum(cum2, t2, a0, d, vals)
        elif what == D.AC_COMMITTED:
            # +2d6; the unit takes a hit at the end (rule 9.2)
            u = opts[i, 2]
            t2 = _convolve(pm, top, 2, 6, tmp)
            _tail(tmp, t2, cum2)
            v = _ev_cum(cum2, t2, a0, d, vals) - _loss(st, w, u) * w[H_OWN] * w[H_CA]
        elif what == D.AC_SAPPERS:
            v = _ev_cum(cum, top, a0, d - 3, vals)
        elif what == D.AC_SKIRMISH:
            v = 0.0  # the combat is cancelled and the initiating card returns
            cost = w[H_CARD] * 1.0
        elif what == D.AC_LEADER_COMBAT:
            v = _ev_cum(cum, top, a0 + cards[p, c, S.CF_CBT_A], d, vals)
        elif what == D.AC_LEADER_COMMAND:
            # the strongest eligible supporting units (rule 6.4), each also at risk
            k = cards[p, c, S.CF_CMD] - 1
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
                risk += _loss(st, w, bu) * w[H_OWN]
                st[S.U_STEP + bu] = -st[S.U_STEP + bu]  # mark as taken (restored below)
            for j in range(S.MAXU_SIDE):
                uu = p * S.MAXU_SIDE + j
                if st[S.U_STEP + uu] < 0:
                    st[S.U_STEP + uu] = -st[S.U_STEP + uu]
            if add == 0:
                continue
            vals0 = vals[0]
            vals[0] = vals0 - risk
            v = _ev_cum(cum, top, a0 + add, d, vals)
            vals[0] = vals0
        v -= cost
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@nb.njit(cache=True)
def _choose_support(st, units, cards, tprops, w, p, opts, n, cb, vals):
    """Rule 6.4: add the supporting unit whose strength (at the risk of its hit in band 0)
    raises the assault's value most, or none."""
    tsq = st[S.U_SQ + cb[D.CB_DEF_U]]
    pm = np.empty(LMAX, dtype=np.float64)
    cum = np.empty(LMAX, dtype=np.float64)
    d, a0, top = _attacker_view(st, units, cards, tprops, w, p, cb, pm, cum, vals)
    best = _ev_cum(cum, top, a0, d, vals)
    bi = 0
    for i in range(1, n):
        u = opts[i, 0]
        vals0 = vals[0]
        vals[0] = vals0 - _loss(st, w, u) * w[H_OWN]
        add = strength(st, units, u)
        if cb[D.CB_KIND] != D.CK_AMBUSH:
            add += hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
        v = _ev_cum(cum, top, a0 + add, d, vals)
        vals[0] = vals0
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@nb.njit(cache=True)
def _defender_view(st, tprops, w, cards, q, cb, cum, vals):
    """The assault under way as the defender q sees it in steps 3-4: the tail of the
    attacker's table dice in ``cum`` (returns its top) and the band values, band 0 (the
    attackers take a hit) being q's gain."""
    t = cb[D.CB_DEF_U]
    pm = np.empty(LMAX, dtype=np.float64)
    top = _table_attack_pmf(st, cards, 1 - q, pm)
    _tail(pm, top, cum)
    _band_values(st, tprops, w, t, can_retreat(st, tprops, t), _own_at_risk(st, w, cb), vals)
    return top


@nb.njit(cache=True)
def _defender_loss(st, units, cards, tprops, w, q, cb, extra_def, cum, top, vals):
    """Expected loss for the defender q of the assault under way (cb), with extra_def more
    defence: the attack dice on the table (tail ``cum``) plus an expected 0.5 * H_DEFGUESS
    of later cards. ``vals`` holds the band values (_band_values)."""
    t = cb[D.CB_DEF_U]
    tsq = st[S.U_SQ + t]
    d = defence_base(st, units, tprops, t, False) + table_defence(st, cards, q) + extra_def
    # the attacker's later cards: half the defence guess, linear between whole totals
    af = 0.5 * w[H_DEFGUESS]
    a0 = attack_base(st, units, tprops, cb, tsq, cb[D.CB_KIND] == D.CK_AMBUSH) + int(af)
    fr = af - int(af)
    ev = _ev_cum(cum, top, a0, d, vals)
    if fr > 0.0:
        ev = (1.0 - fr) * ev + fr * _ev_cum(cum, top, a0 + 1, d, vals)
    return ev * w[H_OWN]


@nb.njit(cache=True)
def _choose_withdraw(st, units, cards, tprops, w, q, opts, n, cb, vals):
    t = cb[D.CB_DEF_U]
    cum = np.empty(LMAX, dtype=np.float64)
    top = _defender_view(st, tprops, w, cards, q, cb, cum, vals)
    # the loss if we stand, with the defence cards we hold for t
    hold = _own_def_cards(st, cards, q, t)
    lose = _defender_loss(st, units, cards, tprops, w, q, cb, hold, cum, top, vals)
    best = -lose
    bi = 0
    nred = _n_reduced(st, q)
    for i in range(1, n):
        c = st[S.HAND + q * S.HMAX + opts[i, 0]]
        cost = w[H_CARD] * _card_value(st, cards, w, q, c, nred) + w[H_GROUND]
        if cards[q, c, S.CF_KIND] == S.KIND_HQ:
            v = -cost
        else:
            ok = cards[q, c, S.CF_WITHDRAW] / 6.0
            v = -(ok * cost + (1 - ok) * lose)
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


@nb.njit(cache=True)
def _choose_def_card(st, units, cards, tprops, w, q, opts, n, cb, vals):
    cum = np.empty(LMAX, dtype=np.float64)
    top = _defender_view(st, tprops, w, cards, q, cb, cum, vals)
    lose = _defender_loss(st, units, cards, tprops, w, q, cb, 0, cum, top, vals)
    best = 0.0
    bi = 0
    nred = _n_reduced(st, q)
    for i in range(1, n):
        c = st[S.HAND + q * S.HMAX + opts[i, 0]]
        if cards[q, c, S.CF_KIND] == S.KIND_LEADER:
            add = cards[q, c, S.CF_CBT_D]
        else:
            add = cards[q, c, S.CF_DEF]
        if add <= 0:
            continue
        gain = lose - _defender_loss(st, units, cards, tprops, w, q, cb, add, cum, top, vals)
        v = gain - w[H_CARD] * _card_value(st, cards, w, q, c, nred) * 0.5
        if v > best + 1e-9:
            best = v
            bi = i
    return bi


# ------------------------------------------------------------------------------------------
# the policy
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def choose_heuristic(st, units, cards, tprops, w0, rng, opts, cb, p, dk, n):
    """Index of the option the heuristic style with parameters ``w0`` picks."""
    if dk == D.D_SPY or dk == D.D_GUERRILLA:
        return n - 1  # play it: Scout/Spy is replaced at once; negate what it can
    w = np.empty(NPARAM, dtype=np.float64)
    _weights(st, w0, p, w)
    vals = np.empty(6, dtype=np.float64)
    if dk == D.D_MOVE:
        return _choose_move(st, units, cards, tprops, w, p, opts, n, rng, vals)
    if dk == D.D_COMBAT:
        return _choose_combat(st, units, cards, tprops, w, p, opts, n, vals)
    if dk == D.D_ATT_CARD:
        return _choose_att_card(st, units, cards, tprops, w, p, opts, n, cb, vals)
    if dk == D.D_SUPPORT:
        return _choose_support(st, units, cards, tprops, w, p, opts, n, cb, vals)
    if dk == D.D_WITHDRAW:
        return _choose_withdraw(st, units, cards, tprops, w, p, opts, n, cb, vals)
    if dk == D.D_DEF_CARD:
        return _choose_def_card(st, units, cards, tprops, w, p, opts, n, cb, vals)
    if dk == D.D_DISCARD:
        # keep what is worth keeping; ahead late in the day, cycle faster (rule 2.3)
        keep = w[H_KEEP] + w[H_CYCLE]
        nred = _n_reduced(st, p)
        mask = 0
        low = 1e9
        lows = -1
        for s in range(st[S.HAND_N + p]):
            v = _card_value(st, cards, w, p, st[S.HAND + p * S.HMAX + s], nred)
            if v < keep:
                mask |= 1 << s
            elif v < low:
                low = v
                lows = s
        # keep the deck turning (rule 2.3): a full hand of keepers still sheds its weakest
        if mask == 0 and lows >= 0 and st[S.HAND_N + p] == 5 and low < keep + w[H_CHURN]:
            mask = 1 << lows
        return mask  # option m is the mask m (discard_phase)
    if (
        dk == D.D_SUPPLY_MOVE
        or dk == D.D_FORCED_MARCH
        or dk == D.D_ADVANCE
        or dk == D.D_SKIRMISH_MOVE
        or dk == D.D_RETREAT_SQ
    ):
        return _choose_unit_move(st, units, cards, tprops, w, p, opts, n, dk, rng)
    best = -1e18
    bi = 0
    ties = 0
    for i in range(n):
        v = _option_value(st, units, cards, tprops, w, p, opts, i, dk, cb, vals)
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@nb.njit(cache=True)
def _option_value(st, units, cards, tprops, w, p, opts, i, dk, cb, vals):
    o0 = opts[i, 0]
    o1 = opts[i, 1]
    o2 = opts[i, 2]
    if dk == D.D_HIT_OR_RETREAT:
        t = o1
        band = o2
        if band == 3 and p != t // 16:
            # attacker's choice: a hit, or a retreat (eliminates if there is nowhere to go)
            if o0 == 1:
                return (w[H_HIT] + w[H_ELIM]) if not can_retreat(st, tprops, t) else w[H_GROUND]
            return _loss(st, w, t)
        # the defender's choice: a hit or giving ground
        if o0 == 0:
            return -_loss(st, w, t)
        tsq = st[S.U_SQ + t]
        tt = st[S.TERR + tsq]
        hold = tprops[tt, TP_DEF] + tprops[tt, TP_REDOUBT] * st[S.REDOUBT + tsq]
        return -(w[H_GROUND] * (1.0 + 0.2 * hold) + 0.15 * w[H_HIT])
    if dk == D.D_RESTORE:
        if o0 < 0:
            return 0.0
        u = o1
        c = st[S.HAND + p * S.HMAX + o0]
        ok = 1.0
        if cards[p, c, S.CF_KIND] == S.KIND_LEADER and cards[p, c, S.CF_RALLY_AUTO] == 0:
            ok = cards[p, c, S.CF_RALLY] / 6.0
        gain = (units[u, S.UF_FULL] - units[u, S.UF_REDUCED]) * 0.2 + w[H_ELIM] * 0.5
        return ok * gain - w[H_CARD] * _card_value(st, cards, w, p, c, 0) * 0.5
    if dk == D.D_REDOUBT:
        if o0 < 0:
            return 0.6
        sq = st[S.U_SQ + o1]
        return _enemy_reach(st, p, sq, 2)[0] * 0.5 + (0.5 if _fwd(p, sq) >= 4 else 0.0)
    if dk == D.D_PLACE:
        sq = o0
        u = o1
        front = sq // 8 == (6 if p == 0 else 1)
        tdef = tprops[st[S.TERR + sq], TP_DEF]
        bn, bs = _best_attack_card(st, cards, p, u)
        v = tdef * 0.3 + (units[u, S.UF_FULL] * 0.1 if front else 0.0)
        if front and bn > 0:
            v += 0.5
        col = sq % 8
        if units[u, S.UF_CAV] == 1 and (col <= 1 or col >= 6):
            v += 0.2
        return v
    if dk == D.D_PICK_START:
        # tournament hand (rule 3): no unit is on the board yet; value a unit card by its
        # dice and defence
        c = o1
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT:
            n = cards[p, c, S.CF_ATK_N]
            nb_ = cards[p, c, S.CF_BOMB_N]
            return (
                n * (cards[p, c, S.CF_ATK_S] + 1) * 0.5 * 0.45
                + nb_ * (cards[p, c, S.CF_BOMB_S] + 1) * 0.5 * 0.3
                + cards[p, c, S.CF_DEF] * 0.3
            )
        return _card_value(st, cards, w, p, c, 0)
    return 0.0
