"""Moves for the heuristic players: a unit's position value (progress, the enemy half,
terrain, attack opportunities next turn, the threat of adjacent enemies) and the choice of
the move that improves it most.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import keep_best
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import (
    DIAMOND2,
    TP_DEF,
    TP_NO_ASSAULT,
    TP_REDOUBT,
    move_destinations,
)
from manoeuvre_sim.manoeuvre.engine.players.cards import DC_REDUCED, _card_worth
from manoeuvre_sim.manoeuvre.engine.players.odds import _dice_at_least, _loss, _progress_rows
from manoeuvre_sim.manoeuvre.engine.players.params import (
    H_ADVANCE,
    H_CARD,
    H_CONTROL,
    H_GROUND,
    H_OPP,
    H_OWN,
    H_TERRAIN,
    H_THREAT,
)
from manoeuvre_sim.manoeuvre.engine.rules import defence_base, hill_bonus, strength
from manoeuvre_sim.manoeuvre.engine.state import (  # names: constants for stack_empty
    HMAX,
    MAXU_SIDE,
    NUNITS,
)


# ------------------------------------------------------------------------------------------
# positions
# ------------------------------------------------------------------------------------------
@kernel(inline="always")
def _own_def_cards(st, cards, p, u):
    """Sum of the defence values of the unit cards p holds for unit u."""
    d = 0
    for s in range(st[S.HAND_N + p]):
        c = st[S.HAND + p * S.HMAX + s]
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT and cards[p, c, S.CF_UNIT] == u % 16:
            d += cards[p, c, S.CF_DEF]
    return d


@kernel(inline="always")
def _hand_unit_table(st, cards, p, tab):
    """The unit cards p holds, in one pass over the hand: row i of ``tab`` (int64,
    (MAXU_SIDE, 3)) for p's unit i holds (n, s) of its best attack card ((0, 0): none; the
    best by n * (s + 1), the first of equals in hand order) and the sum of its cards'
    defence values (``_own_def_cards`` for one unit)."""
    for i in range(S.MAXU_SIDE):
        tab[i, 0] = 0
        tab[i, 1] = 0
        tab[i, 2] = 0
    for s in range(st[S.HAND_N + p]):
        c = st[S.HAND + p * S.HMAX + s]
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT:
            i = cards[p, c, S.CF_UNIT]
            n = cards[p, c, S.CF_ATK_N]
            if n * (cards[p, c, S.CF_ATK_S] + 1) > tab[i, 0] * (tab[i, 1] + 1):
                tab[i, 0] = n
                tab[i, 1] = cards[p, c, S.CF_ATK_S]
            tab[i, 2] += cards[p, c, S.CF_DEF]


@kernel
def _enemy_table(st, units, cards, tprops, weights, p, enemy_rows, enemy_hit_values, grid):
    """The opposing units once per decision; returns the squares within 2 orthogonal steps
    of one (bits of an int64, bit k: square k). Encodings (row k per unit):

    enemy_rows[k]        int: (square, strength, defence + 1 for the expected card,
                              1 if it may be assaulted there (not a no-assault square))
    enemy_hit_values[k]  float: the value to p of one hit on it (``_loss``)
    grid[sq]             int: (adjacent enemy units n, then their rows k in columns
                              1 .. n, in the order of k)"""
    q = 1 - p
    k = 0
    near = 0
    grid[:, 0] = 0
    for i in range(S.MAXU_SIDE):
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] == 0:
            continue
        tsq = st[S.U_SQ + t]
        enemy_rows[k, 0] = tsq
        enemy_rows[k, 1] = strength(st, units, t)
        enemy_rows[k, 2] = defence_base(st, units, tprops, t, False) + 1
        enemy_rows[k, 3] = 1 - tprops[st[S.TERR + tsq], TP_NO_ASSAULT]
        enemy_hit_values[k] = _loss(st, weights, t)
        near |= DIAMOND2[tsq]
        r0 = tsq // 8
        c0 = tsq % 8
        for sq in (tsq - 8, tsq - 1, tsq + 1, tsq + 8):  # the orthogonal neighbours
            if 0 <= sq < 64 and (sq // 8 == r0 or sq % 8 == c0):
                grid[sq, 1 + grid[sq, 0]] = k
                grid[sq, 0] += 1
        k += 1
    return near


@kernel(inline="always")
def _position_value(
    st,
    units,
    tprops,
    weights,
    u,
    sq,
    atk_dice_n,
    atk_dice_sides,
    own_card_def,
    enemy_rows,
    enemy_hit_values,
    grid,
    near_mask,
    p,
):
    """Value for p of unit u standing on sq (the board otherwise as it is; the enemy units
    in ``enemy_rows``/``enemy_hit_values``, see _enemy_table; ``atk_dice_n`` d
    ``atk_dice_sides`` are the dice of the best attack card held for u (0 dice: none),
    ``own_card_def`` the defence of the cards held for it)."""
    f = _progress_rows(p, sq)
    v = weights[H_ADVANCE] * f / 7.0
    if f >= 4:
        v += weights[H_CONTROL]
    tsq_terr = st[S.TERR + sq]
    tdef = tprops[tsq_terr, TP_DEF] + tprops[tsq_terr, TP_REDOUBT] * st[S.REDOUBT + sq]
    own_strength = strength(st, units, u)
    own_loss_value = _loss(st, weights, u) * weights[H_OWN]
    own_defence = own_strength + tdef + own_card_def
    near = (near_mask >> sq) & 1  # an enemy unit within 2 squares
    threat = 0.0
    opp = 0.0
    marsh = tprops[tsq_terr, TP_NO_ASSAULT] == 1
    for j in range(grid[sq, 0]):
        k = grid[sq, 1 + j]
        tsq = enemy_rows[k, 0]
        # the enemy's assault on us next turn: its strength + a typical 2d6 card + hill
        if enemy_rows[k, 3] == 1:
            ea = enemy_rows[k, 1] + hill_bonus(st, tprops, tsq, sq)
            threat += own_loss_value * (
                _dice_at_least(2, 6, own_defence + 1 - ea)
                + _dice_at_least(2, 6, 2 * own_defence - ea)
            )
        # our assault on it: the best attack card held for u, or a later draw
        if not marsh:
            a0 = own_strength + hill_bonus(st, tprops, sq, tsq)
            enemy_defence = enemy_rows[k, 2]
            if atk_dice_n > 0:
                p_hit = _dice_at_least(
                    atk_dice_n, atk_dice_sides, enemy_defence + 1 - a0
                ) + _dice_at_least(atk_dice_n, atk_dice_sides, 2 * enemy_defence - a0)
            else:
                p_hit = 0.3 * (
                    _dice_at_least(2, 6, enemy_defence + 1 - a0)
                    + _dice_at_least(2, 6, 2 * enemy_defence - a0)
                )
            o = p_hit * enemy_hit_values[k]
            if o > opp:
                opp = o
    v -= weights[H_THREAT] * threat * 0.5
    v += weights[H_OPP] * opp * 0.5
    if near > 0:
        v += weights[H_TERRAIN] * tdef
    else:
        v += weights[H_TERRAIN] * tdef * 0.25
    return v


@kernel
def _move_value(
    st, units, tprops, weights, p, u, fr, to, hand, enemy_rows, enemy_hit_values, grid, near_mask
):
    """Change of unit u's position value moving from fr to to (enemy tables: _enemy_table;
    ``hand``: _hand_unit_table). ``_position_value`` is inlined at one call site (each costs
    its compile), on to, then fr."""
    i = u % S.MAXU_SIDE
    atk_dice_n = hand[i, 0]
    atk_dice_sides = hand[i, 1]
    own_card_def = hand[i, 2]
    v = 0.0
    for k in range(2):
        pv = _position_value(
            st, units, tprops, weights, u, to if k == 0 else fr, atk_dice_n, atk_dice_sides,
            own_card_def, enemy_rows, enemy_hit_values, grid, near_mask, p,
        )  # fmt: skip
        v = pv if k == 0 else v - pv
    return v


@kernel
def _skirmish_move_gain(st, units, cards, tprops, weights, p, u):
    """The position value unit u gains by its Skirmish move (rule 9.2: up to 2 squares, by
    the cavalry movement rules, interpretation 14), or 0 if staying is best: what
    ``_choose_unit_move`` will then take."""
    enemy_rows = stack_empty((MAXU_SIDE, 4), np.int32)
    enemy_hit_values = stack_empty(MAXU_SIDE, np.float64)
    grid = stack_empty((64, 5), np.int32)
    near_mask = _enemy_table(
        st, units, cards, tprops, weights, p, enemy_rows, enemy_hit_values, grid
    )
    hand = stack_empty((MAXU_SIDE, 3), np.int64)
    _hand_unit_table(st, cards, p, hand)
    buf = stack_empty(16, np.int32)
    fr = st[S.U_SQ + u]
    m = move_destinations(st[S.OCC : S.OCC + 64], st[S.TERR : S.TERR + 64], tprops, fr, 1, buf)
    best = 0.0
    for j in range(m):
        v = _move_value(
            st, units, tprops, weights, p, u, fr, buf[j], hand, enemy_rows, enemy_hit_values,
            grid, near_mask,
        )  # fmt: skip
        if v > best:
            best = v
    return best


@kernel(inline="always")  # one call site: no call overhead per decision
def _choose_unit_move(st, units, cards, tprops, weights, p, opts, n, dc, dk, rng):
    """Supply and Forced March moves, Skirmish moves, retreat squares and advances: the
    option whose unit gains most position value (net of the card spent). The options repeat
    cards and units (a Supply move lists every card x unit x square), so the cost of each
    card slot and each unit's cards and present value are computed once (the same numbers
    as ``_move_value``'s, so the same choice)."""
    enemy_rows = stack_empty((MAXU_SIDE, 4), np.int32)
    enemy_hit_values = stack_empty(MAXU_SIDE, np.float64)
    grid = stack_empty((64, 5), np.int32)
    near_mask = _enemy_table(
        st, units, cards, tprops, weights, p, enemy_rows, enemy_hit_values, grid
    )
    n_reduced = dc[DC_REDUCED]
    slot_cost = stack_empty(HMAX, np.float64)
    slot_cost[:] = np.nan
    unit_known = stack_empty(NUNITS, np.bool_)
    unit_known[:] = False
    unit_base = stack_empty(NUNITS, np.float64)
    hand = stack_empty((MAXU_SIDE, 3), np.int64)  # per unit: best attack n, its sides, defence
    _hand_unit_table(st, cards, p, hand)
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
                if np.isnan(slot_cost[o0]):
                    c = st[S.HAND + p * S.HMAX + o0]
                    slot_cost[o0] = -weights[H_CARD] * _card_worth(
                        st, units, cards, weights, p, c, n_reduced, dc
                    )
                v = slot_cost[o0]
            elif dk == D.D_ADVANCE:
                u, to = o0, opts[i, 1]
                v = 0.3 * weights[H_GROUND] + (0.3 if units[u, S.UF_CAV] == 1 else 0.0)
            else:  # skirmish move, retreat square
                u, to = opts[i, 1], o0
            if not unit_known[u]:
                unit_known[u] = True
                unit_base[u] = np.nan
            ui = u % S.MAXU_SIDE
            # one call site of the inlined _position_value: the unit's present square (once
            # per unit), then the option's
            while True:
                first = np.isnan(unit_base[u])
                pv = _position_value(
                    st, units, tprops, weights, u, st[S.U_SQ + u] if first else to,
                    hand[ui, 0], hand[ui, 1], hand[ui, 2], enemy_rows, enemy_hit_values, grid,
                    near_mask, p,
                )  # fmt: skip
                if first:
                    unit_base[u] = pv
                else:
                    v += pv - unit_base[u]
                    break
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@kernel
def _banzai_second_moves(
    st, units, tprops, weights, p, hand, enemy_rows, enemy_hit_values, grid, near_mask, top
):
    """The two best Banzai Charge moves of distinct units (Distant Lands 9.2: up to two
    squares by the cavalry rules) as ``top``: float64 (2, 2) rows (gain, unit), the best
    first (unit -1: none). The second unit's move of a Banzai Charge is valued as the best
    of another unit's (the board as it is)."""
    top[0, 0] = -1e18
    top[0, 1] = -1
    top[1, 0] = -1e18
    top[1, 1] = -1
    buf = stack_empty(16, np.int32)
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0:
            continue
        fr = st[S.U_SQ + u]
        m = move_destinations(occ, terr, tprops, fr, 1, buf)
        b = -1e18
        for j in range(m):
            v = _move_value(
                st, units, tprops, weights, p, u, fr, buf[j], hand, enemy_rows,
                enemy_hit_values, grid, near_mask,
            )  # fmt: skip
            if v > b:
                b = v
        if m == 0:
            continue
        if b > top[0, 0]:
            top[1, 0] = top[0, 0]
            top[1, 1] = top[0, 1]
            top[0, 0] = b
            top[0, 1] = u
        elif b > top[1, 0]:
            top[1, 0] = b
            top[1, 1] = u


@kernel(inline="always")  # one call site: no call overhead per decision
def _choose_move(st, units, cards, tprops, weights, p, opts, n, dc, rng, vals):
    """Movement (rule 5): the move that raises its unit's position value most. The options
    come grouped by unit, so each unit's cards and present value are computed once. A move
    that plays Banzai Charge (Distant Lands 9.2) adds the best second unit's move and costs
    the card."""
    enemy_rows = stack_empty((MAXU_SIDE, 4), np.int32)
    enemy_hit_values = stack_empty(MAXU_SIDE, np.float64)
    grid = stack_empty((64, 5), np.int32)
    near_mask = _enemy_table(
        st, units, cards, tprops, weights, p, enemy_rows, enemy_hit_values, grid
    )
    hand = stack_empty((MAXU_SIDE, 3), np.int64)
    _hand_unit_table(st, cards, p, hand)
    top = stack_empty((2, 2), np.float64)
    banzai_cost = np.nan
    best = -1e18
    bi = 0
    ties = 0
    cu = -1
    base = 0.0
    atk_dice_n = 0
    atk_dice_sides = 0
    own_card_def = 0
    for i in range(n):
        u = opts[i, 0]
        if u < 0:
            # Digging In (Distant Lands): the whole hand is discarded
            v = -0.5
            for s in range(st[S.HAND_N + p]):
                v -= weights[H_CARD] * _card_worth(
                    st, units, cards, weights, p, st[S.HAND + p * S.HMAX + s], 0, dc
                )
        else:
            if u != cu:
                cu = u
                atk_dice_n = hand[u % S.MAXU_SIDE, 0]
                atk_dice_sides = hand[u % S.MAXU_SIDE, 1]
                own_card_def = hand[u % S.MAXU_SIDE, 2]
                base = np.nan
            # one call site of the inlined _position_value: the unit's present square (once
            # per unit), then the option's
            while True:
                first = np.isnan(base)
                pv = _position_value(
                    st, units, tprops, weights, u, st[S.U_SQ + u] if first else opts[i, 1],
                    atk_dice_n, atk_dice_sides, own_card_def, enemy_rows, enemy_hit_values,
                    grid, near_mask, p,
                )  # fmt: skip
                if first:
                    base = pv
                else:
                    v = pv - base
                    break
            if opts[i, 3] == 1 and opts[i, 2] >= 0:  # this move plays Banzai Charge
                if np.isnan(banzai_cost):
                    _banzai_second_moves(st, units, tprops, weights, p, hand, enemy_rows,
                                         enemy_hit_values, grid, near_mask, top)  # fmt: skip
                    c = st[S.HAND + p * S.HMAX + opts[i, 2]]
                    banzai_cost = weights[H_CARD] * _card_worth(
                        st, units, cards, weights, p, c, dc[DC_REDUCED], dc
                    )
                second = top[1, 0] if top[0, 1] == u else top[0, 0]
                if second > -1e17:
                    v += second
                v -= banzai_cost
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi
