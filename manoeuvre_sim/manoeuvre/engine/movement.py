"""The Movement Phase (rule 5): the one ordinary move, Supply, Forced March and their
Guerrilla negation (rule 9.2), the Distant Lands Banzai Charge (9.2) and the Distant Lands
options (advance to contact, digging in, the expansion's Forced March wording).

Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, lowest_bit, stack_empty
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import (
    forced_march_destinations,
    free_squares,
    move_mask,
    move_via,
)
from manoeuvre_sim.manoeuvre.engine.checks import decide
from manoeuvre_sim.manoeuvre.engine.options import (
    OPT_ADVANCE_TO_CONTACT,
    OPT_DIGGING_IN,
    OPT_DL_FORCED_MARCH,
)
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_DIG_IN,
    EV_DISCARD,
    EV_MOVE,
    EV_NEGATE,
    EV_NO_MOVE,
    EV_PLAY,
    EV_VIA,
    PURPOSE_BANZAI,
    PURPOSE_FORCED_MARCH,
    PURPOSE_GUERRILLA,
    PURPOSE_SUPPLY_MOVE,
    discard,
    find_hq,
    hand_card,
    hand_remove,
    log,
    move_unit,
    play_and_discard,
    secondary_usable,
)
from manoeuvre_sim.manoeuvre.engine.state import MAXU_SIDE  # names: constants for stack_empty


# ------------------------------------------------------------------------------------------
# Guerrilla (rule 9.2): negating the card just played
# ------------------------------------------------------------------------------------------
@kernel
def guerrilla(st, g, p, negated_card):
    """Rule 9.2 Guerrilla: the opponent of the active player p may cancel the card just
    played; both cards are discarded. Returns True if negated. Distant Lands 8: an Indian
    unit card with "Guerrillas" may be played "as if [it] were [a] standard Guerrilla
    Card" while its unit is on the board; those come first, the Guerrilla card last."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    q = 1 - p
    n = D.add_option(opts, 0, -1, negated_card, 0, 0)
    for j in range(st[S.HAND_N + q]):
        if secondary_usable(st, cards, q, hand_card(st, q, j), S.SEC_GUERRILLAS):
            n = D.add_option(opts, n, j, negated_card, 0, 0)
    s = find_hq(st, cards, q, S.HQ_GUERRILLA)
    if s >= 0:
        n = D.add_option(opts, n, s, negated_card, 0, 0)
    if n == 1:
        return False
    k = decide(st, g, q, D.D_GUERRILLA, n)
    s = opts[k, 0]
    if s < 0:
        return False
    g = play_and_discard(st, q, s)
    log(tr, trn, EV_PLAY, q, g, PURPOSE_GUERRILLA, negated_card, 0)
    log(tr, trn, EV_NEGATE, q, negated_card, g, 0, 0)
    return True


# ------------------------------------------------------------------------------------------
# movement (rule 5, Supply, Forced March, Guerrilla; Distant Lands options)
# ------------------------------------------------------------------------------------------
@kernel
def move_options(st, units, tprops, p, moved, opts, start, banzai, slot):
    """Append move options for p's units not in ``moved``; returns the new count. Basic
    moves (``banzai`` 0) are (unit, to, 0, 0), a cavalry unit reaching 2 squares (rule 5);
    Banzai Charge moves (``banzai`` 1) are (unit, to, slot, 1), every unit reaching up to 2
    squares by the cavalry movement rules (Distant Lands 9.2: "two units may be moved two
    spaces", interpretation DL14), ``slot`` the card's hand slot (-1: already played)."""
    enter, through = free_squares(st[S.OCC : S.OCC + 64], st[S.TERR : S.TERR + 64], tprops)
    n = start
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0 or moved[i]:
            continue
        reach = 1 if banzai == 1 else units[u, S.UF_CAV]
        # move_destinations, the board's free squares read once for every unit, in
        # ascending order (move_destinations_from) straight into the options
        m = move_mask(st[S.U_SQ + u], reach, enter, through)
        while m != 0:
            if n >= D.MAXOPT:
                break
            b = lowest_bit(m)
            n = D.add_option(opts, n, u, b, slot, banzai)
            m ^= np.int64(1) << b
    return n


@kernel
def first_move_options(st, units, cards, tprops, opt, p, opts):
    """The options of the Movement Phase's first decision (D_MOVE), into ``opts``: Digging
    In (with ``OPT_DIGGING_IN``), every basic move, and with a Banzai Charge card in hand
    every Banzai Charge move (which plays it). Returns their count. The search player lists
    the first move with it too (``search.first_options``)."""
    n = 0
    if opt[OPT_DIGGING_IN]:
        n = D.add_option(opts, 0, -1, -1, 0, 0)
    moved = stack_empty(MAXU_SIDE, np.int32)
    moved[:] = 0
    n = move_options(st, units, tprops, p, moved, opts, n, 0, 0)
    s = find_hq(st, cards, p, S.HQ_BANZAI)
    if s >= 0:
        n = move_options(st, units, tprops, p, moved, opts, n, 1, s)
    return n


@kernel
def log_via(st, g, p, u, to):
    """Before unit u's move to ``to``: the square it passes through, if two squares away
    (EV_VIA; only into a trace with rows: the untraced games do no more work)."""
    if g.tr.shape[0] > 0:
        via = move_via(st[S.OCC : S.OCC + 64], st[S.TERR : S.TERR + 64], g.tprops,
                       st[S.U_SQ + u], to)  # fmt: skip
        if via >= 0:
            log(g.tr, g.trn, EV_VIA, p, u, via, 0, 0)


@kernel
def forced_march(st, g, opt, p, u, start_sq, s):
    """Rule 9.2 Forced March: the unit that just moved may move one more square (not after
    a move that began or ended in a Field or Marsh; with ``OPT_DL_FORCED_MARCH``, the
    Distant Lands wording, only one that began there), with the Forced March card at hand
    slot ``s`` (the callers look for it first: without one, most moves, the game context
    is not handed on)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    if st[S.U_STEP + u] == 0:
        return
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    buf = stack_empty(4, np.int32)
    end_counts = 1 - opt[OPT_DL_FORCED_MARCH]
    m = forced_march_destinations(occ, terr, tprops, start_sq, st[S.U_SQ + u], end_counts, buf)
    if m == 0:
        return
    opts[0, 0] = -1
    opts[0, 1] = -1
    for j in range(m):
        opts[j + 1, 0] = s
        opts[j + 1, 1] = buf[j]
    opts[: m + 1, 2] = u
    opts[: m + 1, 3] = 0
    k = decide(st, g, p, D.D_FORCED_MARCH, m + 1)
    if opts[k, 0] < 0:
        return
    to = opts[k, 1]
    c = play_and_discard(st, p, s)
    log(tr, trn, EV_PLAY, p, c, PURPOSE_FORCED_MARCH, u, 0)
    if guerrilla(st, g, p, c):
        return  # rule 5: no second Forced March for the same unit
    fr = st[S.U_SQ + u]
    move_unit(st, u, to)
    log(tr, trn, EV_MOVE, p, u, fr, to, 2)


@kernel
def movement_phase(st, g, opt, p):
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    moved = stack_empty(MAXU_SIDE, np.int32)
    moved[:] = 0
    nmoves = 1
    if opt[OPT_ADVANCE_TO_CONTACT]:
        t = st[S.TURN]
        nmoves = 3 if t == 1 else (2 if t == 2 else 1)
    banzai = False
    mv = 0
    while mv < nmoves:
        if mv == 0:
            n = first_move_options(st, units, cards, tprops, opt, p, opts)
        elif banzai:
            n = move_options(st, units, tprops, p, moved, opts, 0, 1, -1)
        else:
            n = move_options(st, units, tprops, p, moved, opts, 0, 0, 0)
        if n == 0:
            log(tr, trn, EV_NO_MOVE, p, 0, 0, 0, 0)
            break
        k = decide(st, g, p, D.D_MOVE, n)
        u = opts[k, 0]
        if u < 0:
            # Distant Lands, Digging In: no move; the whole hand is discarded
            while st[S.HAND_N + p] > 0:
                c = hand_remove(st, p, st[S.HAND_N + p] - 1)
                discard(st, p, c)
                log(tr, trn, EV_DISCARD, p, c, 0, 0, 0)
            log(tr, trn, EV_DIG_IN, p, 0, 0, 0, 0)
            return
        to = opts[k, 1]
        how = 0
        if opts[k, 3] == 1:
            how = 4
            if opts[k, 2] >= 0:
                # Distant Lands 9.2 Banzai Charge: two units move up to two squares each, in
                # place of the basic move; it overrides Advance to Contact's move count
                c = play_and_discard(st, p, opts[k, 2])
                log(tr, trn, EV_PLAY, p, c, PURPOSE_BANZAI, u, 0)
                banzai = True
                nmoves = 2
        fr = st[S.U_SQ + u]
        log_via(st, g, p, u, to)
        move_unit(st, u, to)
        moved[u - p * S.MAXU_SIDE] = 1
        st[S.MOVES + p] += 1
        log(tr, trn, EV_MOVE, p, u, fr, to, how)
        fm = find_hq(st, cards, p, S.HQ_FORCED_MARCH)
        if fm >= 0:
            forced_march(st, g, opt, p, u, fr, fm)
        mv += 1
    # rule 5 / 9.2 Supply: one Supply card per Movement Phase moves a second unit
    s = find_hq(st, cards, p, S.HQ_SUPPLY)
    if s < 0:
        return
    D.add_option(opts, 0, -1, -1, 0, 0)
    n = move_options(st, units, tprops, p, moved, opts, 1, 0, 0)
    if n <= 1:
        return
    for i in range(1, n):
        opts[i, 2] = opts[i, 1]
        opts[i, 1] = opts[i, 0]
        opts[i, 0] = s
    k = decide(st, g, p, D.D_SUPPLY_MOVE, n)
    if opts[k, 0] < 0:
        return
    u = opts[k, 1]
    to = opts[k, 2]
    c = play_and_discard(st, p, s)
    log(tr, trn, EV_PLAY, p, c, PURPOSE_SUPPLY_MOVE, u, 0)
    if guerrilla(st, g, p, c):
        return
    fr = st[S.U_SQ + u]
    log_via(st, g, p, u, to)
    move_unit(st, u, to)
    st[S.MOVES + p] += 1
    log(tr, trn, EV_MOVE, p, u, fr, to, 1)
    fm = find_hq(st, cards, p, S.HQ_FORCED_MARCH)
    if fm >= 0:
        forced_march(st, g, opt, p, u, fr, fm)
