"""Scripted heuristic players (issue #5): one numba policy driven by a parameter vector.

The styles (``attritional``, ``territorial``, ``balanced``) are parameter vectors of the
same policy (``params.py``); ``balanced`` also turns on the posture switch (``H_SWITCH``),
which shifts the weights by the score, the time left in the day and the attrition race.

This module routes each decision to its judge (``moves.py``, ``combat.py``, ``cards.py``,
all built on the exact odds of ``odds.py``). Every decision the rules expose is judged:

* combats by their **exact** band probabilities (rule 6.1 step 7 results table) for the dice
  on the table, the card being considered and the known defence (the defender's cards once
  played; before that, its hand only after a Scout/Spy, else an expected ``H_DEFGUESS``);
  an assault is declared on its value with the best card the attacker holds for step 5
  (a second unit card, a Committed Attack, Sappers, a leader's Combat), since it will play
  it there;
* moves by the change of a unit's position value: progress toward the enemy edge, squares of
  the enemy half (nightfall, rule 2.2), defensive terrain, attack opportunities next turn
  (the cards in hand) and the threat of adjacent enemy units;
* cards by a context value (an eliminated unit's card is worth nothing; a unit's cards are
  worth more when enemies are near it; Regroup and Supply when units are reduced, Sappers
  when an enemy stands on a redoubt; the other HQ cards have a fixed worth, ``HQ_VALUE``).

Fair play: the policy reads the board, its own hand, both hands' sizes, deck counts, the
cards on the table in the current combat, the elimination counters, and the opponent's hand
only while ``REVEALED[p]`` is set (Scout/Spy). ``tests/manoeuvre/test_players.py`` checks it by
re-deciding every decision on a state whose hidden cards are scrambled.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import keep_best
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_DEF, TP_REDOUBT
from manoeuvre_sim.manoeuvre.engine.players.cards import (
    DC_LEAD,
    DC_REDUCED,
    DC_SIZE,
    _card_worth,
    _decision_context,
    _enemy_reach,
    _posture_weights,
)
from manoeuvre_sim.manoeuvre.engine.players.combat import (
    _choose_att_card,
    _choose_combat,
    _choose_def_card,
    _choose_support,
    _choose_withdraw,
)
from manoeuvre_sim.manoeuvre.engine.players.moves import (
    _choose_move,
    _choose_unit_move,
    _hand_unit_table,
)
from manoeuvre_sim.manoeuvre.engine.players.odds import _loss, _progress_rows
from manoeuvre_sim.manoeuvre.engine.players.params import (
    H_CARD,
    H_CHURN,
    H_CYCLE,
    H_ELIM,
    H_GROUND,
    H_HIT,
    H_KEEP,
    NPARAM,
)
from manoeuvre_sim.manoeuvre.engine.rules import can_retreat
from manoeuvre_sim.manoeuvre.engine.state import MAXU_SIDE  # names: constants for stack_empty


# ------------------------------------------------------------------------------------------
# the policy
# ------------------------------------------------------------------------------------------
@kernel
def choose_heuristic(st, units, cards, tprops, style_params, rng, opts, cb, p, dk, n):
    """Index of the option the heuristic style with parameters ``style_params`` picks."""
    if dk == D.D_SPY or dk == D.D_GUERRILLA:
        return n - 1  # play it: Scout/Spy is replaced at once; negate what it can
    dc = stack_empty(DC_SIZE, np.int64)  # what the card worths and the posture read, once
    _decision_context(st, units, p, dc)
    weights = stack_empty(NPARAM, np.float64)
    _posture_weights(st, style_params, p, weights, dc[DC_LEAD])
    vals = stack_empty(6, np.float64)
    if dk == D.D_MOVE:
        return _choose_move(st, units, cards, tprops, weights, p, opts, n, dc, rng, vals)
    if dk == D.D_COMBAT:
        return _choose_combat(st, units, cards, tprops, weights, p, opts, n, dc, vals)
    if dk == D.D_ATT_CARD:
        return _choose_att_card(st, units, cards, tprops, weights, p, opts, n, dc, cb, vals)
    if dk == D.D_SUPPORT:
        return _choose_support(st, units, cards, tprops, weights, p, opts, n, cb, vals)
    if dk == D.D_WITHDRAW:
        return _choose_withdraw(st, units, cards, tprops, weights, p, opts, n, dc, cb, vals)
    if dk == D.D_DEF_CARD:
        return _choose_def_card(st, units, cards, tprops, weights, p, opts, n, dc, cb, vals)
    if dk == D.D_DISCARD:
        # keep what is worth keeping; ahead late in the day, cycle faster (rule 2.3)
        keep = weights[H_KEEP] + weights[H_CYCLE]
        n_reduced = dc[DC_REDUCED]
        mask = 0
        low = 1e9
        lows = -1
        for s in range(st[S.HAND_N + p]):
            v = _card_worth(
                st, units, cards, weights, p, st[S.HAND + p * S.HMAX + s], n_reduced, dc
            )
            if v < keep:
                mask |= 1 << s
            elif v < low:
                low = v
                lows = s
        # keep the deck turning (rule 2.3): a full hand of keepers still sheds its weakest
        if mask == 0 and lows >= 0 and st[S.HAND_N + p] == 5 and low < keep + weights[H_CHURN]:
            mask = 1 << lows
        return mask  # option m is the mask m (discard_phase)
    if (
        dk == D.D_SUPPLY_MOVE
        or dk == D.D_FORCED_MARCH
        or dk == D.D_ADVANCE
        or dk == D.D_SKIRMISH_MOVE
        or dk == D.D_RETREAT_SQ
    ):
        return _choose_unit_move(st, units, cards, tprops, weights, p, opts, n, dc, dk, rng)
    return _choose_by_value(st, units, cards, tprops, weights, p, opts, n, dc, dk, cb, vals, rng)


@kernel
def _choose_by_value(st, units, cards, tprops, weights, p, opts, n, dc, dk, cb, vals, rng):
    """The other decisions: the option of highest ``_option_value`` (inlined here, so an
    option costs no call)."""
    hand = stack_empty((MAXU_SIDE, 3), np.int64)
    if dk == D.D_PLACE:
        _hand_unit_table(st, cards, p, hand)
    best = -1e18
    bi = 0
    ties = 0
    for i in range(n):
        v = _option_value(st, units, cards, tprops, weights, p, opts, i, dk, cb, vals, hand, dc)
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@kernel(inline="always")  # one call site
def _option_value(st, units, cards, tprops, weights, p, opts, i, dk, cb, vals, hand, dc):
    o0 = opts[i, 0]
    o1 = opts[i, 1]
    o2 = opts[i, 2]
    if dk == D.D_COMMITTED_HIT:
        # a Committed Attack's hit whose unit fell (rule 9.2): the unit it costs least
        return -_loss(st, weights, o0)
    if dk == D.D_HIT_OR_RETREAT:
        t = o1
        band = o2
        if band == 3 and p != t // 16:
            # attacker's choice: a hit, or a retreat (eliminates if there is nowhere to go)
            if o0 == 1:
                return (
                    (weights[H_HIT] + weights[H_ELIM])
                    if not can_retreat(st, tprops, t)
                    else weights[H_GROUND]
                )
            return _loss(st, weights, t)
        # the defender's choice: a hit or giving ground
        if o0 == 0:
            return -_loss(st, weights, t)
        tsq = st[S.U_SQ + t]
        tt = st[S.TERR + tsq]
        hold = tprops[tt, TP_DEF] + tprops[tt, TP_REDOUBT] * st[S.REDOUBT + tsq]
        return -(weights[H_GROUND] * (1.0 + 0.2 * hold) + 0.15 * weights[H_HIT])
    if dk == D.D_RESTORE:
        if o0 < 0:
            return 0.0
        u = o1
        c = st[S.HAND + p * S.HMAX + o0]
        ok = 1.0
        if cards[p, c, S.CF_KIND] == S.KIND_LEADER and cards[p, c, S.CF_RALLY_AUTO] == 0:
            ok = cards[p, c, S.CF_RALLY] / 6.0
        gain = (units[u, S.UF_FULL] - units[u, S.UF_REDUCED]) * 0.2 + weights[H_ELIM] * 0.5
        v = ok * gain - weights[H_CARD] * _card_worth(st, units, cards, weights, p, c, 0, dc) * 0.5
        if o2 > 0:  # a Maharaja played with the leader (Distant Lands 9.1): spent too
            m = st[S.HAND + p * S.HMAX + o2 - 1]
            v -= weights[H_CARD] * _card_worth(st, units, cards, weights, p, m, 0, dc) * 0.5
        return v
    if dk == D.D_REDOUBT:
        if o0 < 0:
            return 0.6
        sq = st[S.U_SQ + o1]
        v = _enemy_reach(st, p, sq, 2)[0] * 0.5 + (0.5 if _progress_rows(p, sq) >= 4 else 0.0)
        c = st[S.HAND + p * S.HMAX + o0]
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT:
            # an Indian unit card's Redoubt (Distant Lands 8): the unit card is spent
            v -= weights[H_CARD] * _card_worth(st, units, cards, weights, p, c, 0, dc) * 0.5
        return v
    if dk == D.D_PLACE:
        sq = o0
        u = o1
        front = sq // 8 == (6 if p == 0 else 1)
        tdef = tprops[st[S.TERR + sq], TP_DEF]
        atk_dice_n = hand[u % S.MAXU_SIDE, 0]  # _hand_unit_table: its best attack card's dice
        v = tdef * 0.3 + (units[u, S.UF_FULL] * 0.1 if front else 0.0)
        if front and atk_dice_n > 0:
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
        return _card_worth(st, units, cards, weights, p, c, 0, dc)
    return 0.0
