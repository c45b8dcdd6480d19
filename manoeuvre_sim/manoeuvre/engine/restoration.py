"""The Restoration Phase (rule 7): restore a reduced unit, or build a redoubt (rule 9.2).

Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import roll_die

# the one results table (rule 6.1 step 7) and the one test of each d6 roll (6.6, 7, 8)
from manoeuvre_sim.manoeuvre.combat import within
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.checks import decide
from manoeuvre_sim.manoeuvre.engine.movement import guerrilla
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_DIE,
    EV_PLAY,
    EV_REDOUBT,
    EV_RESTORE,
    EV_ROLL,
    PURPOSE_MAHARAJA,
    PURPOSE_REDOUBT,
    PURPOSE_RESTORE,
    ROLL_RALLY,
    card_unit,
    find_hq,
    hand_card,
    is_hq,
    leader_acts_for,
    log,
    play_and_discard,
    play_two,
    secondary_usable,
)
from manoeuvre_sim.manoeuvre.engine.state import MAXU_SIDE  # names: constants for stack_empty


# ------------------------------------------------------------------------------------------
# restoration (rule 7) and redoubts (rule 9.2)
# ------------------------------------------------------------------------------------------
@kernel
def restore_options(st, units, cards, p, opts):
    """The options of p's restoration attempt (rule 7, D_RESTORE) into ``opts``: none, then
    per hand card in hand order the reduced units it may restore, in unit order — a unit
    card its own unit, a Supply or Regroup card any, a leader those it acts for or, with a
    Maharaja in hand, any (Distant Lands 9.1). Returns their count."""
    n = D.add_option(opts, 0, -1, -1, 0, 0)
    # p's reduced units, in unit order (only those may be restored): read once, and with
    # none (most player turns) the hand is not read at all
    red = stack_empty(MAXU_SIDE, np.int32)
    nr = 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 1:
            red[nr] = u
            nr += 1
    h = 0
    ms = -1
    if nr > 0:
        h = st[S.HAND_N + p]
        ms = find_hq(st, cards, p, S.HQ_MAHARAJA)
    for s in range(h):
        c = hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            # a unit card restores its own unit only: one option at most
            u = card_unit(cards, p, c)
            if st[S.U_STEP + u] == 1 and n < D.MAXOPT:
                n = D.add_option(opts, n, s, u, 0, 0)
            continue
        if kind == S.KIND_HQ:
            hq = cards[p, c, S.CF_HQ]
            if hq != S.HQ_SUPPLY and hq != S.HQ_REGROUP:
                continue
        elif kind != S.KIND_LEADER:
            continue
        # a Supply or Regroup card restores any reduced unit, a leader those it acts for
        for r in range(nr):
            u = red[r]
            if n >= D.MAXOPT:
                continue
            ok = True
            with_m = 0
            if kind == S.KIND_LEADER:
                ok = leader_acts_for(units, cards, p, c, u)
                if not ok and ms >= 0:
                    ok = True
                    with_m = 1 + ms
            if ok:
                n = D.add_option(opts, n, s, u, with_m, 0)
    return n


@kernel
def restoration_phase(st, g, p):
    """Rule 7: one restoration attempt — a Supply or Regroup card, a unit card of the unit,
    a leader's rally roll (Distant Lands 9.1: a restricted leader only for a unit it acts
    for, or with a Maharaja, which lifts the restriction) — then one Redoubt (rule 9.2; or
    an Indian unit card's Redoubt, Distant Lands 8)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    n = restore_options(st, units, cards, p, opts)
    if n > 1:
        k = decide(st, g, p, D.D_RESTORE, n)
        s = opts[k, 0]
        if s >= 0:
            u = opts[k, 1]
            if opts[k, 2] > 0:
                c, m = play_two(st, p, s, opts[k, 2] - 1, False)
                log(tr, trn, EV_PLAY, p, m, PURPOSE_MAHARAJA, c, 0)
            else:
                c = play_and_discard(st, p, s)
            log(tr, trn, EV_PLAY, p, c, PURPOSE_RESTORE, u, 0)
            ok = True
            if cards[p, c, S.CF_KIND] == S.KIND_LEADER:
                # rally: a d6 within the leader's range (Palafox: automatic)
                if cards[p, c, S.CF_RALLY_AUTO] == 0:
                    r = roll_die(rng, 6)
                    log(tr, trn, EV_DIE, p, r, 6, 0, 0)
                    log(tr, trn, EV_ROLL, p, ROLL_RALLY, r, 1, 6)
                    ok = within(r, cards[p, c, S.CF_RALLY])
            elif guerrilla(st, g, p, c):
                ok = False  # Supply, Regroup or a Reinforcement negated (rule 9.2 Guerrilla)
            if ok:
                st[S.U_STEP + u] = 2
            log(tr, trn, EV_RESTORE, p, u, 1 if ok else 0, 0, 0)
    # one Redoubt card after any restoration attempt (rule 7), under one of p's units on a
    # square without a redoubt; or an Indian unit card's Redoubt, while its unit is on the
    # board, under a unit of that unit's nationality (Distant Lands 8; interpretation DL18)
    n = D.add_option(opts, 0, -1, -1, 0, 0)
    s = -1  # the first Redoubt card's slot (find_hq), found in the same pass
    for j in range(st[S.HAND_N + p]):
        c = hand_card(st, p, j)
        nat = -1
        if s < 0 and is_hq(cards, p, c, S.HQ_REDOUBT):
            s = j
            nat = 0
        elif secondary_usable(st, cards, p, c, S.SEC_REDOUBT):
            nat = units[p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT], S.UF_NAT]
        if nat < 0:
            continue
        for i in range(S.MAXU_SIDE):
            u = p * S.MAXU_SIDE + i
            if st[S.U_STEP + u] == 0 or st[S.REDOUBT + st[S.U_SQ + u]] == 1:
                continue
            if nat > 0 and units[u, S.UF_NAT] != nat:
                continue
            n = D.add_option(opts, n, j, u, 0, 0)
    if n == 1:
        return
    k = decide(st, g, p, D.D_REDOUBT, n)
    if opts[k, 0] < 0:
        return
    u = opts[k, 1]
    c = play_and_discard(st, p, opts[k, 0])
    st[S.REDOUBT + st[S.U_SQ + u]] = 1
    log(tr, trn, EV_PLAY, p, c, PURPOSE_REDOUBT, u, 0)
    log(tr, trn, EV_REDOUBT, p, st[S.U_SQ + u], 0, 0, 0)
