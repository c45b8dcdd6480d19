"""The steps of one combat after it is declared (rule 6.1 steps 4-8): the defender's
withdraw and defence cards, the attacker's step 5 (leaders, support, Committed Attack,
Skirmish), retreat (6.5), advance and pursuit (6.6).

``combat_phase.py`` declares the combat and applies the results table; the current
combat's fields live in ``cb`` (``decisions.py``, ``CB_*``).
Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import roll_die

# the one results table (rule 6.1 step 7) and the one test of each d6 roll (6.6, 7, 8)
from manoeuvre_sim.manoeuvre.combat import pursuit_hits, within
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_NO_ASSAULT, adjacent
from manoeuvre_sim.manoeuvre.engine.checks import decide
from manoeuvre_sim.manoeuvre.engine.decisions import (  # the current combat's fields (cb)
    CB_ATT,
    CB_CA,
    CB_DLEADER,
    CB_INIT_CARD,
    CB_LEADER,
    CB_LMODE,
    CB_MAHARAJA,
    CB_NATT,
    CB_SAPPERS,
    CB_STEP5,
)
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_ADVANCE,
    EV_COMMITTED,
    EV_DIE,
    EV_PLAY,
    EV_PURSUIT,
    EV_RETREAT,
    EV_ROLL,
    EV_SUPPORT,
    EV_WITHDRAW,
    PURPOSE_ATTACK,
    PURPOSE_COMMITTED,
    PURPOSE_DEFENSE,
    PURPOSE_LEADER_COMBAT,
    PURPOSE_LEADER_COMMAND,
    PURPOSE_MAHARAJA,
    PURPOSE_SAPPERS,
    PURPOSE_SKIRMISH,
    PURPOSE_WITHDRAW,
    ROLL_PURSUIT,
    ROLL_WITHDRAW,
    can_retreat,
    card_unit,
    clear_table,
    eliminate,
    find_hq,
    hand_card,
    hit,
    is_hq,
    leader_acts_for,
    leader_restricted,
    log,
    move_unit,
    owner,
    play_to_table,
    play_two,
    retreat_squares,
)

MAX_ATT = 5


# ------------------------------------------------------------------------------------------
# retreat (rule 6.5), advance and pursuit (rule 6.6)
# ------------------------------------------------------------------------------------------
@kernel
def retreat(st, g, u):
    """Rule 6.5 Retreat with its priority; the owner picks among equal choices. Returns True
    if the unit retreated, False if it could not and was eliminated."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    p = owner(u)
    buf = stack_empty(4, np.int32)
    n = retreat_squares(st, tprops, u, buf)
    fr = st[S.U_SQ + u]
    if n == 0:
        eliminate(st, u, tr, trn)
        log(tr, trn, EV_RETREAT, p, u, fr, -1, 0)
        return False
    k = 0
    if n > 1:
        for i in range(n):  # a loop: a slice copy would need numba's runtime
            opts[i, 0] = buf[i]
        opts[:n, 1] = u
        opts[:n, 2:] = 0
        k = decide(st, g, p, D.D_RETREAT_SQ, n)
        k = opts[k, 0]
    else:
        k = buf[0]
    move_unit(st, u, k)
    log(tr, trn, EV_RETREAT, p, u, fr, k, 0)
    return True


@kernel
def involved(cb, u):
    for i in range(cb[CB_NATT]):
        if cb[CB_ATT + i] == u:
            return i
    return -1


@kernel
def pursue_and_advance(st, g, p, vacated, retreated_u):
    """Rule 6.5 Advance After Combat and 6.6 Pursuit (assaults only). ``vacated``: the
    defender's old square; ``retreated_u``: the defender if it retreated/withdrew alive."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    # who may advance: any living attacking/supporting unit; none only if every involved
    # unit played a "not required to advance" card (rule 6.5)
    all_nrta = True
    n = 0
    for i in range(cb[CB_NATT]):
        u = cb[CB_ATT + i]
        if st[S.U_STEP + u] == 0:
            continue
        has = False
        for j in range(st[S.TABLE_N + p]):
            c = st[S.TABLE + p * S.TMAX + j]
            if card_unit(cards, p, c) == u and cards[p, c, S.CF_NRTA] == 1:
                has = True
        if not has:
            all_nrta = False
        n = D.add_option(opts, n, u, vacated, 0, 0)
    if n == 0:
        return
    if all_nrta:
        n = D.add_option(opts, n, -1, vacated, 0, 0)
    k = 0
    if n > 1:
        k = decide(st, g, p, D.D_ADVANCE, n)
    u = opts[k, 0]
    if u >= 0:
        advance_into(st, g, p, u, vacated, retreated_u)


@kernel
def advance_into(st, g, p, u, vacated, retreated_u):
    """Unit u advances into the vacated square; if it is cavalry and the defender
    retreated or withdrew (``retreated_u`` >= 0, still on the board), rule 6.6 Pursuit: a d6
    per unit card u played in the combat, plus the attacker's leader's pursuit modifier;
    within the card's range is a hit."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    fr = st[S.U_SQ + u]
    move_unit(st, u, vacated)
    log(tr, trn, EV_ADVANCE, p, u, fr, vacated, 0)
    if units[u, S.UF_CAV] == 0 or retreated_u < 0:
        return
    pmod = 0
    if cb[CB_LEADER] >= 0:
        pmod = cards[p, cb[CB_LEADER], S.CF_PMOD]
    for j in range(st[S.TABLE_N + p]):
        c = st[S.TABLE + p * S.TMAX + j]
        if card_unit(cards, p, c) != u or cards[p, c, S.CF_PURSUIT] == 0:
            continue
        if st[S.U_STEP + retreated_u] == 0:
            break
        d6 = roll_die(rng, 6)
        h = 1 if pursuit_hits(d6, cards[p, c, S.CF_PURSUIT], pmod) else 0
        r = d6 + pmod  # the modified roll, as the trace shows it
        log(tr, trn, EV_DIE, p, d6, 6, 0, 0)
        log(tr, trn, EV_ROLL, p, ROLL_PURSUIT, r, 1, 6)
        log(tr, trn, EV_PURSUIT, p, u, r, h, 0)
        if h:
            hit(st, retreated_u, tr, trn)


@kernel
def end_combat(st, p):
    clear_table(st, p)
    clear_table(st, 1 - p)


@kernel
def withdraw_options(st, cards, tprops, q, t, opts):
    """Rule 6.1 step 3: the defender q's options to withdraw unit t, into ``opts`` (row:
    (slot or -1, t, 0, 0)): none, a Withdraw HQ card, or a US unit card of t with a
    withdraw roll (rule 8); only if t has somewhere to go. Returns their number (0 when it
    has not)."""
    if not can_retreat(st, tprops, t):
        return 0
    n = D.add_option(opts, 0, -1, t, 0, 0)
    for s in range(st[S.HAND_N + q]):
        c = hand_card(st, q, s)
        if is_hq(cards, q, c, S.HQ_WITHDRAW) or (
            card_unit(cards, q, c) == t and cards[q, c, S.CF_WITHDRAW] > 0
        ):
            n = D.add_option(opts, n, s, t, 0, 0)
    return n


@kernel
def withdraw_step(st, g, p, t):
    """Rule 6.1 step 3 for the defender (player q, unit t). Returns True if the defender
    withdrew (the combat is then over but for advance and pursuit)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    q = 1 - p
    # step 3: Withdraw (HQ card, or a US unit card's withdraw attempt, rule 8); only if the
    # unit has somewhere to go
    n = withdraw_options(st, cards, tprops, q, t, opts)
    if n > 1:
        k = decide(st, g, q, D.D_WITHDRAW, n)
        s = opts[k, 0]
        if s >= 0:
            c = hand_card(st, q, s)
            if is_hq(cards, q, c, S.HQ_WITHDRAW):
                play_to_table(st, q, s)
                log(tr, trn, EV_PLAY, q, c, PURPOSE_WITHDRAW, t, 0)
                log(tr, trn, EV_WITHDRAW, q, t, 1, 0, 0)
                return True
            # US unit card: d6 within 1..withdraw succeeds; if not, the card's defense
            # counts as a defense card played (rule 8 Withdraw)
            play_to_table(st, q, s)
            log(tr, trn, EV_PLAY, q, c, PURPOSE_WITHDRAW, t, 0)
            r = roll_die(rng, 6)
            log(tr, trn, EV_DIE, q, r, 6, 0, 0)
            log(tr, trn, EV_ROLL, q, ROLL_WITHDRAW, r, 1, 6)
            ok = within(r, cards[q, c, S.CF_WITHDRAW])
            log(tr, trn, EV_WITHDRAW, q, t, 1 if ok else 0, 0, 0)
            if ok:
                return True
    return False


@kernel
def def_card_options(st, units, cards, cb, q, t, opts):
    """Rule 6.1 step 4: the defender q's cards for unit t, into ``opts`` (row: (slot or -1,
    t, 1 + Maharaja slot or 0, 0)): none, a unit card of t, or a leader for its combat value
    if none is played yet — a Distant Lands restricted leader only for a unit it acts for,
    or with a Maharaja, which lifts the restriction (9.1). Returns their number (1: only
    none)."""
    n = D.add_option(opts, 0, -1, t, 0, 0)
    ms = find_hq(st, cards, q, S.HQ_MAHARAJA)
    for s in range(st[S.HAND_N + q]):
        c = hand_card(st, q, s)
        if card_unit(cards, q, c) == t:
            n = D.add_option(opts, n, s, t, 0, 0)
        elif cards[q, c, S.CF_KIND] == S.KIND_LEADER and cb[CB_DLEADER] < 0:
            if leader_acts_for(units, cards, q, c, t):
                n = D.add_option(opts, n, s, t, 0, 0)
            elif ms >= 0:
                n = D.add_option(opts, n, s, t, 1 + ms, 0)
    return n


@kernel
def def_card_step(st, g, p, t):
    """Rule 6.1 step 4, one card: the defender plays a unit card of t or one leader for its
    combat value. Returns True if it played one (it may then play another)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    q = 1 - p
    n = def_card_options(st, units, cards, cb, q, t, opts)
    if n == 1:
        return False
    k = decide(st, g, q, D.D_DEF_CARD, n)
    s = opts[k, 0]
    if s < 0:
        return False
    if opts[k, 2] > 0:
        c, m = play_two(st, q, s, opts[k, 2] - 1, True)
        log(tr, trn, EV_PLAY, q, m, PURPOSE_MAHARAJA, c, 0)
    else:
        c = play_to_table(st, q, s)
    if cards[q, c, S.CF_KIND] == S.KIND_LEADER:
        cb[CB_DLEADER] = c
        log(tr, trn, EV_PLAY, q, c, PURPOSE_LEADER_COMBAT, t, 0)
    else:
        log(tr, trn, EV_PLAY, q, c, PURPOSE_DEFENSE, t, 0)
    return True


@kernel
def att_card_options(st, units, cards, cb, p, t, ambush, opts):
    """Rule 6.1 step 5: the attacker p's options, into ``opts`` (row: (slot or -1, what
    AC_*, unit or -1, t)): done, a unit card of an attacking or supporting unit, a leader
    for Combat or Command (one per combat, rule 9.1), a Committed Attack per unit without
    one (9.2), Sappers against a redoubt, Skirmish before any other step-5 card.
    Distant Lands (9.1, 8): a restricted leader gives Combat only to an attacking unit it
    acts for and Command only if it acts for the attacking unit (in an Ambush, the Ambush
    card: its supporting units are checked one by one) and is not a Japanese leader, who
    cannot combine units; with a Maharaja in hand, a leader may be played with it for
    Combat (if restricted) or Command (4); a Japanese leader adds its 1d6 Assault value for
    its unit when involved (as a unit card, not the combat's one leader); a unit whose
    Committed Attack unit card is on the table may have its attack declared Committed
    (one Committed Attack per unit). Returns their number (1: only done)."""
    tsq = st[S.U_SQ + t]
    n = D.add_option(opts, 0, -1, D.AC_DONE, -1, t)
    ms = find_hq(st, cards, p, S.HQ_MAHARAJA)
    u0 = -1 if ambush else cb[CB_ATT]
    for s in range(st[S.HAND_N + p]):
        if n >= D.MAXOPT - 12:
            break
        c = hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            u = card_unit(cards, p, c)
            if cards[p, c, S.CF_ATK_N] > 0 and involved(cb, u) >= 0:
                n = D.add_option(opts, n, s, D.AC_UNIT, u, t)
        elif kind == S.KIND_LEADER:
            lu = cards[p, c, S.CF_LUNIT]
            if lu > 0 and involved(cb, p * S.MAXU_SIDE + lu - 1) >= 0:
                # Distant Lands 9.1: "used to ... add to an attack with that unit using a
                # 1d6 Assault value", as a unit card of that unit (interpretation DL16)
                n = D.add_option(opts, n, s, D.AC_UNIT, p * S.MAXU_SIDE + lu - 1, t)
            if cb[CB_LEADER] >= 0:
                continue
            # one leader per combat, for Combat or Command (rule 9.1); a Skirmish ends
            # the combat, so no leader is ever played with one
            acts = leader_acts_for(units, cards, p, c, u0)
            if acts:
                n = D.add_option(opts, n, s, D.AC_LEADER_COMBAT, -1, t)
            elif ms >= 0:
                n = D.add_option(opts, n, s, D.AC_MAHARAJA_COMBAT, ms, t)
            if cards[p, c, S.CF_CMD] >= 2 and lu == 0 and (acts or ambush):
                n = D.add_option(opts, n, s, D.AC_LEADER_COMMAND, -1, t)
            if ms >= 0 and (cards[p, c, S.CF_CMD] < 4 or leader_restricted(cards, p, c)):
                n = D.add_option(opts, n, s, D.AC_MAHARAJA_COMMAND, ms, t)
        elif kind == S.KIND_HQ:
            hq = cards[p, c, S.CF_HQ]
            if hq == S.HQ_COMMITTED:
                # one Committed Attack per attacking/supporting unit (rule 9.2)
                for i in range(cb[CB_NATT]):
                    if cb[CB_CA + i] == 0:
                        n = D.add_option(opts, n, s, D.AC_COMMITTED, cb[CB_ATT + i], t)
            elif hq == S.HQ_SAPPERS and cb[CB_SAPPERS] == 0 and st[S.REDOUBT + tsq] == 1:
                n = D.add_option(opts, n, s, D.AC_SAPPERS, -1, t)
            elif (
                hq == S.HQ_SKIRMISH
                and not ambush
                and cb[CB_STEP5] == 0
                and cards[p, cb[CB_INIT_CARD], S.CF_KIND] != S.KIND_LEADER
            ):
                # "may not play a Leader card during the same combat as a Skirmish card":
                # not after a Japanese leader started the Assault (Distant Lands 9.1)
                n = D.add_option(opts, n, s, D.AC_SKIRMISH, cb[CB_ATT], t)
    # Distant Lands 8 Committed Attack: "when an Attack is made using this card, the
    # Indian player may declare the Attack Committed" (interpretation DL17)
    for i in range(cb[CB_NATT]):
        u = cb[CB_ATT + i]
        if cb[CB_CA + i] != 0 or n >= D.MAXOPT - 1:
            continue
        for j in range(st[S.TABLE_N + p]):
            c = st[S.TABLE + p * S.TMAX + j]
            if card_unit(cards, p, c) == u and cards[p, c, S.CF_SECOND] == S.SEC_COMMITTED:
                n = D.add_option(opts, n, -1, D.AC_DECLARE_COMMITTED, u, t)
                break
    # opts[:, 0] may repeat a slot (leader combat/command, CA for several units)
    return n


# what one attacker card of step 5 did (att_card_step)
STEP5_DONE, STEP5_AGAIN, STEP5_COMMAND, STEP5_SKIRMISH = 0, 1, 2, 3


@kernel
def att_card_step(st, g, p, t, ambush):
    """Rule 6.1 step 5, one card: returns STEP5_DONE (no card: on to the dice),
    STEP5_AGAIN (a card was played; another may follow), STEP5_COMMAND (a leader for
    command: supporting units next, ``support_step``) or STEP5_SKIRMISH (a Skirmish
    cancelled the combat)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    n = att_card_options(st, units, cards, cb, p, t, ambush, opts)
    if n == 1:
        return STEP5_DONE
    k = decide(st, g, p, D.D_ATT_CARD, n)
    s = opts[k, 0]
    what = opts[k, 1]
    ukey = opts[k, 2]
    if what == D.AC_DONE:
        return STEP5_DONE
    if what == D.AC_DECLARE_COMMITTED:
        # Distant Lands 8: +2d6 for the unit, and one hit on it at the end (``results``)
        i = involved(cb, ukey)
        cb[CB_CA + i] = 2
        for j in range(st[S.TABLE_N + p]):
            c = st[S.TABLE + p * S.TMAX + j]
            if card_unit(cards, p, c) == ukey and cards[p, c, S.CF_SECOND] == S.SEC_COMMITTED:
                log(tr, trn, EV_COMMITTED, p, ukey, c, 0, 0)
                break
        return STEP5_AGAIN
    if what == D.AC_MAHARAJA_COMBAT or what == D.AC_MAHARAJA_COMMAND:
        c, m = play_two(st, p, s, ukey, True)
        log(tr, trn, EV_PLAY, p, m, PURPOSE_MAHARAJA, c, 0)
        cb[CB_MAHARAJA] = 1
        what = D.AC_LEADER_COMBAT if what == D.AC_MAHARAJA_COMBAT else D.AC_LEADER_COMMAND
    else:
        c = play_to_table(st, p, s)
    cb[CB_STEP5] += 1
    if what == D.AC_UNIT:
        log(tr, trn, EV_PLAY, p, c, PURPOSE_ATTACK, ukey, 0)
    elif what == D.AC_COMMITTED:
        cb[CB_CA + involved(cb, ukey)] = 1
        log(tr, trn, EV_PLAY, p, c, PURPOSE_COMMITTED, ukey, 0)
    elif what == D.AC_SAPPERS:
        cb[CB_SAPPERS] = 1
        log(tr, trn, EV_PLAY, p, c, PURPOSE_SAPPERS, t, 0)
    elif what == D.AC_SKIRMISH:
        log(tr, trn, EV_PLAY, p, c, PURPOSE_SKIRMISH, ukey, 0)
        return STEP5_SKIRMISH
    elif what == D.AC_LEADER_COMBAT:
        cb[CB_LEADER] = c
        cb[CB_LMODE] = 1
        log(tr, trn, EV_PLAY, p, c, PURPOSE_LEADER_COMBAT, -1, 0)
    else:
        cb[CB_LEADER] = c
        cb[CB_LMODE] = 2
        log(tr, trn, EV_PLAY, p, c, PURPOSE_LEADER_COMMAND, -1, 0)
        return STEP5_COMMAND
    return STEP5_AGAIN


@kernel
def support_options(st, units, cards, tprops, cb, p, t, ambush, opts):
    """Rule 6.4, after a leader played for command: the attacker p's supporting units, into
    ``opts`` (row: (unit or -1, t, 0, 0)): none, or a unit adjacent to the defender, not in a
    Marsh, not yet involved, while the leader's command value leads more units (an Ambush
    card counts as the first) and fewer than 5 are involved. Returns their number (0 when no
    more may be led, 1: only none). Distant Lands 9.1: a Maharaja gives the leader Command 4
    and lifts its restriction; else an Indian leader leads only units of its nationality."""
    ld = cb[CB_LEADER]
    cmd = 4 if cb[CB_MAHARAJA] == 1 else cards[p, ld, S.CF_CMD]
    limit = cmd - 1 - (cb[CB_NATT] - (0 if ambush else 1))
    if limit <= 0 or cb[CB_NATT] >= MAX_ATT:
        return 0
    tsq = st[S.U_SQ + t]
    n = D.add_option(opts, 0, -1, t, 0, 0)
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0 or involved(cb, u) >= 0:
            continue
        if cb[CB_MAHARAJA] == 0 and not leader_acts_for(units, cards, p, ld, u):
            continue
        usq = st[S.U_SQ + u]
        if adjacent(usq, tsq) and tprops[st[S.TERR + usq], TP_NO_ASSAULT] == 0:
            n = D.add_option(opts, n, u, t, 0, 0)
    return n


@kernel
def support_step(st, g, p, t, ambush):
    """Rule 6.4, one supporting unit (``support_options``). Returns True if one joined (the
    leader may lead another)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    n = support_options(st, units, cards, tprops, cb, p, t, ambush, opts)
    if n <= 1:
        return False
    k = decide(st, g, p, D.D_SUPPORT, n)
    u = opts[k, 0]
    if u < 0:
        return False
    cb[CB_ATT + cb[CB_NATT]] = u
    cb[CB_NATT] += 1
    # rule 6.4: the supporting unit adds its strength; the trace names it and its leader
    # (logging draws no random number and changes no state: the game is the same untraced)
    log(tr, trn, EV_SUPPORT, p, u, t, cb[CB_LEADER], 0)
    return True
