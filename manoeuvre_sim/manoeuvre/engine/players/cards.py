"""What a card in hand is worth to the heuristic players, in context, and the balanced
style's posture (the weights shifted by the score, the time left and the attrition race).
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import DIAMOND2, DIAMOND3
from manoeuvre_sim.manoeuvre.engine.players.odds import (
    DICE_GE,
    KMAX,
    _dice_at_least,
    _progress_rows,
)
from manoeuvre_sim.manoeuvre.engine.players.params import (
    H_ADVANCE,
    H_ATTACK,
    H_CONTROL,
    H_CYCLE,
    H_ELIM,
    H_OPP,
    H_OWN,
    H_SWITCH,
    H_THREAT,
)
from manoeuvre_sim.manoeuvre.engine.rules import strength

# the worth of holding each HQ card type (state.HQ_* order), before its context
HQ_VALUE = np.zeros(len(S.HQ_NAMES))
for _hq, _v in (
    (S.HQ_AMBUSH, 3.0), (S.HQ_COMMITTED, 2.8), (S.HQ_FORCED_MARCH, 2.0),
    (S.HQ_GUERRILLA, 2.6), (S.HQ_REDOUBT, 2.0), (S.HQ_REGROUP, 1.0), (S.HQ_SAPPERS, 0.5),
    (S.HQ_SPY, 1.0), (S.HQ_SKIRMISH, 1.5), (S.HQ_SUPPLY, 2.5), (S.HQ_WITHDRAW, 3.2),
    (S.HQ_ROCKETS, 2.0),  # Distant Lands: a riskless attack, 0.6 a retreat, 0.2 a hit
    (S.HQ_DEATH_WITH_HONOUR, 1.0),  # Distant Lands: a unit for the hits around it
    (S.HQ_BANZAI, 2.0),  # Distant Lands: two units up to two squares, as a Forced March
    (S.HQ_MAHARAJA, 1.5),  # Distant Lands: a restricted leader freed, Command 4 (a
    #                        leader's worth counts 0.5 a point of Command)
):  # fmt: skip
    HQ_VALUE[_hq] = _v


# ------------------------------------------------------------------------------------------
# cards
# ------------------------------------------------------------------------------------------
@kernel
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


# the decision context (``_decision_context``): what every card worth and the posture of one
# decision read of the units, gathered in one pass (int64 entries)
DC_FOE = 0  # the enemy's mean strength on the board, rounded (0 if none)
DC_ENEMY = 1  # the enemy units' squares, as bits of an int64
DC_REDUCED = 2  # p's reduced units
DC_LEAD = 3  # p's units in the enemy half minus the enemy's in p's half (rule 2.2)
DC_SIZE = 4


@kernel
def _decision_context(st, units, p, dc):
    """The decision context ``dc`` (``DC_*``) of player p, in one pass over the units: the
    numbers ``_card_worth`` and ``_posture_weights`` read, the same as their own passes gave
    (an enemy unit near a square, p's reduced units, the ground lead of rule 2.2)."""
    q = 1 - p
    enemy = np.int64(0)
    tot = 0
    k = 0
    reduced = 0
    lead = 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 1:
            reduced += 1
        if st[S.U_STEP + u] > 0 and _progress_rows(p, st[S.U_SQ + u]) >= 4:
            lead += 1
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] == 0:
            continue
        tsq = st[S.U_SQ + t]
        enemy |= np.int64(1) << tsq
        tot += strength(st, units, t)
        k += 1
        if st[S.U_STEP + t] > 0 and _progress_rows(q, tsq) >= 4:
            lead -= 1
    mean = tot / k if k > 0 else 0.0
    dc[DC_FOE] = int(mean + 0.5)
    dc[DC_ENEMY] = enemy
    dc[DC_REDUCED] = reduced
    dc[DC_LEAD] = lead


@kernel
def _assault_hits(n, s, a0, d):
    """Expected hits of an assault rolling n d s on attack total a0 against defence d: one
    when the total beats d, a second when it reaches 2d (the results table's bands, as the
    move values count them). At most 2, however large the dice."""
    return _dice_at_least(n, s, d + 1 - a0) + _dice_at_least(n, s, 2 * d - a0)


# the defences a unit card's attack may meet, over a defender of the typical strength: no
# card, or a printed defence of 3, 5 or 7 (the printed values run 2-8, most often 5); and
# the printed attack dice a defence card may meet (1d10, 2d6, 2d8 and 2d10 are all of them)
_DEF_SPREAD = np.array([0, 3, 5, 7], dtype=np.int64)
_ATK_SPREAD = np.array([[1, 10], [2, 6], [2, 8], [2, 10]], dtype=np.int64)

# The two sums of ``_card_value`` tabulated for strengths below SPREAD_MAX (every printed
# army; a larger one is summed as it stands): ATK_HITS[n, s, own, foe] the expected hits of
# an attack card n d s over _DEF_SPREAD, DEF_SAVES[foe, own, df] the hits a defence df
# saves over _ATK_SPREAD. Built with the kernel's own operations in its order (numpy's
# element-wise double arithmetic), so a looked-up sum equals the summed one bit for bit.
SPREAD_MAX = 16


def _spread_tables() -> tuple[np.ndarray, np.ndarray]:
    def at_least(n, s, x):  # _dice_at_least, element-wise over the integer array x
        return np.where(
            x <= 0, 1.0, np.where(x >= KMAX, 0.0, DICE_GE[n, s, np.clip(x, 0, KMAX - 1)])
        )

    def hits(n, s, a0, d):  # _assault_hits
        return at_least(n, s, d + 1 - a0) + at_least(n, s, 2 * d - a0)

    own, foe = np.meshgrid(np.arange(SPREAD_MAX), np.arange(SPREAD_MAX), indexing="ij")
    att = np.zeros((DICE_GE.shape[0], DICE_GE.shape[1], SPREAD_MAX, SPREAD_MAX))
    for n in range(DICE_GE.shape[0]):
        for s in range(DICE_GE.shape[1]):
            e = np.zeros(own.shape)
            for d in _DEF_SPREAD:
                e = e + hits(n, s, own, foe + d)
            att[n, s] = e
    f3, o3, d3 = np.meshgrid(*(np.arange(SPREAD_MAX),) * 3, indexing="ij")
    saves = np.zeros(f3.shape)
    for an, asd in _ATK_SPREAD:
        saves = saves + (hits(an, asd, f3, o3) - hits(an, asd, f3, o3 + d3))
    return att, saves


ATK_HITS, DEF_SAVES = _spread_tables()


@kernel
def _card_value(st, units, cards, weights, p, c, n_reduced):
    """``_card_worth`` of card c for p, its decision context gathered for it alone."""
    dc = stack_empty(DC_SIZE, np.int64)
    _decision_context(st, units, p, dc)
    return _card_worth(st, units, cards, weights, p, c, n_reduced, dc)


@kernel
def _card_worth(st, units, cards, weights, p, c, n_reduced, dc):
    """Worth of holding card c for p (0: none), ``dc`` being p's decision context
    (``_decision_context``). A unit card is worth what it does against
    the enemy units it may meet (of the enemy's mean strength), so its worth stops growing
    where more dice or defence change nothing: an attack by its expected hits (at most 2)
    over the defences of ``_DEF_SPREAD``, a bombardment by its chance of a hit, a defence by
    the expected hits it saves against the attacks of ``_ATK_SPREAD``. The scales make the
    printed cards (2d8 or 1d10 on a unit of strength 6, defence 5) worth about what the
    earlier worth, linear in the printed pips, gave them."""
    kind = cards[p, c, S.CF_KIND]
    if kind == S.KIND_UNIT:
        u = p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT]
        if st[S.U_STEP + u] == 0:
            return 0.0  # the card of an eliminated unit
        usq = st[S.U_SQ + u]
        near = (DIAMOND2[usq] & dc[DC_ENEMY]) != 0  # an enemy unit within 2 squares
        own = strength(st, units, u)
        foe = dc[DC_FOE]  # the enemy's mean strength
        v = 0.0
        n = cards[p, c, S.CF_ATK_N]
        small = own < SPREAD_MAX and foe < SPREAD_MAX
        if n > 0:
            if small:
                e = ATK_HITS[n, cards[p, c, S.CF_ATK_S], own, foe]
            else:
                e = 0.0
                for k in range(_DEF_SPREAD.shape[0]):
                    e += _assault_hits(n, cards[p, c, S.CF_ATK_S], own, foe + _DEF_SPREAD[k])
            v += e / _DEF_SPREAD.shape[0] * (3.6 if near else 2.0)
        if cards[p, c, S.CF_BOMB_N] > 0:
            e = _dice_at_least(cards[p, c, S.CF_BOMB_N], cards[p, c, S.CF_BOMB_S], foe + 1)
            v += e * (4.0 if (DIAMOND3[usq] & dc[DC_ENEMY]) != 0 else 2.0)
        if cards[p, c, S.CF_VOL_N] > 0:
            v += 0.5 if near else 0.2
        df = cards[p, c, S.CF_DEF]
        if df > 0 and small and df < SPREAD_MAX:
            v += DEF_SAVES[foe, own, df] / _ATK_SPREAD.shape[0] * (2.6 if near else 0.8)
        elif df > 0:
            e = 0.0
            for k in range(_ATK_SPREAD.shape[0]):
                an = _ATK_SPREAD[k, 0]
                asd = _ATK_SPREAD[k, 1]
                e += _assault_hits(an, asd, foe, own) - _assault_hits(an, asd, foe, own + df)
            v += e / _ATK_SPREAD.shape[0] * (2.6 if near else 0.8)
        if st[S.U_STEP + u] == 1:
            v += 2.0  # it restores its own unit (rule 7 Reinforcement)
        return v
    if kind == S.KIND_LEADER:
        return 4.0 + 0.3 * cards[p, c, S.CF_CBT_A] + 0.5 * cards[p, c, S.CF_CMD]
    if kind != S.KIND_HQ:
        return 0.0  # a blank card (card-value ablations): it can only be discarded
    hq = cards[p, c, S.CF_HQ]
    v = HQ_VALUE[hq]
    if hq == S.HQ_SUPPLY and n_reduced > 0:
        v += 1.0  # it may restore one (rule 7)
    elif hq == S.HQ_REGROUP and n_reduced > 0:
        v += 2.5
    elif hq == S.HQ_SAPPERS:
        q = 1 - p
        for i in range(S.MAXU_SIDE):
            t = q * S.MAXU_SIDE + i
            if st[S.U_STEP + t] > 0 and st[S.REDOUBT + st[S.U_SQ + t]] == 1:
                return 3.0  # an enemy redoubt to cancel
    return v


# ------------------------------------------------------------------------------------------
# posture (balanced style)
# ------------------------------------------------------------------------------------------
@kernel
def _posture_weights(st, weights, p, out, lead):
    """The effective weights: the style's ``weights`` written to ``out``, shifted by the
    posture switch when H_SWITCH is on; ``lead`` is p's ground lead (``DC_LEAD``: its units
    in the enemy half minus the enemy's in its half, rule 2.2)."""
    for i in range(weights.shape[0]):  # a loop: a slice copy would need numba's NRT
        out[i] = weights[i]
    q = 1 - p
    # cycle faster (play for nightfall) when ahead on the ground late in the day
    left = max(
        st[S.DECK_N + p] if st[S.FIRST_DECK_DONE + p] == 0 else 0,
        st[S.DECK_N + q] if st[S.FIRST_DECK_DONE + q] == 0 else 0,
    )
    late = left < 20
    if weights[H_SWITCH] == 0:
        if lead <= 0:
            out[H_CYCLE] = 0.0  # the fixed styles hurry the day on whenever they hold more ground
        return
    kills = st[S.ELIM + q]
    losses = st[S.ELIM + p]
    if losses >= 3 and losses > kills:
        # one or two more losses lose the game: hold
        out[H_OWN] = weights[H_OWN] * 1.4
        out[H_THREAT] = weights[H_THREAT] * 1.4
        out[H_ATTACK] = weights[H_ATTACK] + 0.15
    elif kills >= 3 or (kills > losses and kills >= 2):
        # the attrition race is ours: press it
        out[H_ATTACK] = weights[H_ATTACK] - 0.1
        out[H_OPP] = weights[H_OPP] * 1.5
        out[H_ELIM] = weights[H_ELIM] * 1.3
    if late:
        if lead > 0:
            out[H_THREAT] = out[H_THREAT] * 1.3
            out[H_CONTROL] = weights[H_CONTROL] * 1.3
        else:
            out[H_CYCLE] = 0.0
            out[H_ADVANCE] = weights[H_ADVANCE] * 1.4
            out[H_CONTROL] = weights[H_CONTROL] * 1.6
            out[H_ATTACK] = out[H_ATTACK] - 0.1
    else:
        out[H_CYCLE] = 0.0
