"""The Combat Phase (rule 6): the legal combats, bombardment and volley fire (6.3, 6.4),
assault and ambush (6.1, 6.2) through the results table (step 7).

The steps inside an assault live in ``combat_steps.py``.
Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty

# the one results table (rule 6.1 step 7) and the one test of each d6 roll (6.6, 7, 8)
from manoeuvre_sim.manoeuvre.combat import (
    ROCKET_NO_EFFECT,
    ROCKET_RETREAT_AND_HIT,
    assault_band,
    rocket_outcome,
)
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import (
    NEIGHBOURS,
    TP_NO_ASSAULT,
    WITHIN_TWO,
    adjacent,
    in_fire_range,
    in_rocket_range,
    move_destinations,
    neighbors,
)
from manoeuvre_sim.manoeuvre.engine.checks import decide
from manoeuvre_sim.manoeuvre.engine.combat_steps import (
    STEP5_COMMAND,
    STEP5_DONE,
    STEP5_SKIRMISH,
    att_card_options,
    att_card_step,
    def_card_options,
    def_card_step,
    end_combat,
    pursue_and_advance,
    retreat,
    support_options,
    support_step,
    withdraw_options,
    withdraw_step,
)
from manoeuvre_sim.manoeuvre.engine.decisions import (  # the current combat's fields (cb)
    CB_A,
    CB_ATT,
    CB_ATT_P,
    CB_CA,
    CB_D,
    CB_DEF_U,
    CB_DLEADER,
    CB_INIT_CARD,
    CB_KIND,
    CB_LEADER,
    CB_LMODE,
    CB_NATT,
    CB_SAPPERS,
    CB_SIZE,
    CB_STAGE,
)
from manoeuvre_sim.manoeuvre.engine.movement import log_via
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_COMBAT,
    EV_MOVE,
    EV_PLAY,
    EV_ROLL,
    PURPOSE_INITIATE,
    ROLL_ATTACK,
    ROLL_FIRE,
    ROLL_ROCKETS,
    attack_base,
    attack_dice,
    can_retreat,
    card_unit,
    defence_base,
    eliminate,
    fire_dice,
    hand_add,
    hand_card,
    hill_bonus,
    hit,
    leader_acts_for,
    log,
    move_unit,
    owner,
    play_to_table,
    roll_logged,
    table_defence,
)
from manoeuvre_sim.manoeuvre.engine.state import MAXU_SIDE  # names: constants for stack_empty


# ------------------------------------------------------------------------------------------
# combat (rule 6)
# ------------------------------------------------------------------------------------------
@kernel
def combat_options(st, units, cards, tprops, p, opts):
    """Every combat the active player p may declare (rule 6): none; Assault (6.1 step 1:
    a unit card with an Attack value for a unit not in a Marsh, an adjacent enemy); Ambush
    (any enemy unit); Bombardment (range 2 with line of sight, 6.2); Volley (adjacent);
    Napoleon's Grand Battery (9.1: from any unit, range 2); Distant Lands Rockets (6.3, 9.2:
    from any unit, range 2 or 3 from a hill at a non-hill square; one option per target,
    fired by the first unit in range, since which unit fires changes nothing); Distant Lands
    Death With Honour (9.2: any own unit, itself the "target").
    Row: (kind, unit, slot, target)."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    q = 1 - p
    # the enemy units on the board, in unit order (every target below is one), and their
    # squares as bits (bit k: square k), read once for the whole hand
    foes = stack_empty(MAXU_SIDE, np.int32)
    nf = 0
    fbits = 0
    for i in range(S.MAXU_SIDE):
        t = q * S.MAXU_SIDE + i
        if st[S.U_STEP + t] != 0:
            foes[nf] = t
            nf += 1
            fbits |= np.int64(1) << st[S.U_SQ + t]
    n = D.add_option(opts, 0, D.CK_NONE, -1, -1, -1)
    h = st[S.HAND_N + p]
    for s in range(h):
        c = hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            u = card_unit(cards, p, c)
            if st[S.U_STEP + u] == 0:
                continue
            sq = st[S.U_SQ + u]
            # an Assault and a Volley need an adjacent target (6.1 step 1, 6.2 step 2), a
            # Bombardment one at range 2 at most: a card with no enemy unit that near (the
            # usual case) has no option, and the others are tested on those units only
            near = WITHIN_TWO[sq] if cards[p, c, S.CF_BOMB_N] > 0 else NEIGHBOURS[sq]
            if (near & fbits) == 0:
                continue
            for f in range(nf):
                t = foes[f]
                if n >= D.MAXOPT:
                    continue
                tsq = st[S.U_SQ + t]
                if ((near >> tsq) & 1) == 0:
                    continue
                if cards[p, c, S.CF_ATK_N] > 0 and adjacent(sq, tsq):
                    if tprops[terr[sq], TP_NO_ASSAULT] == 0:
                        n = D.add_option(opts, n, D.CK_ASSAULT, u, s, t)
                if n < D.MAXOPT and cards[p, c, S.CF_BOMB_N] > 0:
                    if in_fire_range(occ, terr, tprops, sq, tsq, cards[p, c, S.CF_RANGE]):
                        n = D.add_option(opts, n, D.CK_BOMBARD, u, s, t)
                if n < D.MAXOPT and cards[p, c, S.CF_VOL_N] > 0:
                    if in_fire_range(occ, terr, tprops, sq, tsq, 1):
                        n = D.add_option(opts, n, D.CK_VOLLEY, u, s, t)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_AMBUSH:
            for f in range(nf):
                if n >= D.MAXOPT:
                    continue
                n = D.add_option(opts, n, D.CK_AMBUSH, -1, s, foes[f])
        elif kind == S.KIND_LEADER and cards[p, c, S.CF_LUNIT] > 0:
            # Distant Lands 9.1: a Japanese leader may "initiate ... an attack with that
            # unit using a 1d6 Assault value" — an Assault by its unit (6.1 step 1)
            u = p * S.MAXU_SIDE + cards[p, c, S.CF_LUNIT] - 1
            if st[S.U_STEP + u] == 0:
                continue
            sq = st[S.U_SQ + u]
            if tprops[terr[sq], TP_NO_ASSAULT] == 1:
                continue
            for f in range(nf):
                t = foes[f]
                if n >= D.MAXOPT:
                    continue
                if adjacent(sq, st[S.U_SQ + t]):
                    n = D.add_option(opts, n, D.CK_ASSAULT, u, s, t)
        elif kind == S.KIND_LEADER and cards[p, c, S.CF_GB_N] > 0:
            for i in range(S.MAXU_SIDE):
                u = p * S.MAXU_SIDE + i
                if st[S.U_STEP + u] == 0 or not leader_acts_for(units, cards, p, c, u):
                    continue
                for f in range(nf):
                    t = foes[f]
                    if n >= D.MAXOPT:
                        continue
                    if in_fire_range(occ, terr, tprops, st[S.U_SQ + u], st[S.U_SQ + t], 2):
                        n = D.add_option(opts, n, D.CK_GRAND_BATTERY, u, s, t)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_ROCKETS:
            for f in range(nf):
                t = foes[f]
                if n >= D.MAXOPT:
                    continue
                u = rocket_unit(st, tprops, p, t)
                if u >= 0:
                    n = D.add_option(opts, n, D.CK_ROCKETS, u, s, t)
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_DEATH_WITH_HONOUR:
            for i in range(S.MAXU_SIDE):
                u = p * S.MAXU_SIDE + i
                if st[S.U_STEP + u] == 0 or n >= D.MAXOPT:
                    continue
                n = D.add_option(opts, n, D.CK_DEATH_WITH_HONOUR, u, s, u)
    return n


@kernel
def death_with_honour(st, g, p, u):
    """Distant Lands rule 9.2 Death With Honour: player p eliminates its own unit u; every
    enemy unit adjacent to it (never diagonally) takes a hit — a full one is reduced, a
    reduced one eliminated. It is the turn's one combat; the losses of both sides count
    toward attrition (rule 2.1, checked when the combat phase ends: interpretation DL10)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    nb = stack_empty(4, np.int32)
    k = neighbors(st[S.U_SQ + u], nb)
    foes = stack_empty(4, np.int32)
    foes[:] = -1
    nf = 0
    for i in range(k):
        v = st[S.OCC + nb[i]]
        if v >= 0 and owner(v) != p:
            foes[nf] = v
            nf += 1
    log(tr, trn, EV_COMBAT, p, D.CK_DEATH_WITH_HONOUR, u, 0, nf)
    eliminate(st, u, tr, trn)
    for i in range(nf):
        hit(st, foes[i], tr, trn)


@kernel
def rocket_unit(st, tprops, p, t):
    """The first unit of player p that can fire rockets at unit t (Distant Lands 6.3, 9.2:
    any unit; range 2, or 3 from a hill at a non-hill square), -1 if none."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    tsq = st[S.U_SQ + t]
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0:
            continue
        usq = st[S.U_SQ + u]
        reach = 3 if hill_bonus(st, tprops, usq, tsq) > 0 else 2
        if in_rocket_range(occ, terr, tprops, usq, tsq, reach):
            return u
    return -1


@kernel
def rockets(st, g, p, t):
    """Distant Lands rules 6.3, 9.2 Rockets against unit t: a d10 and no totals; 1-4 no
    effect, 5-8 the target retreats, 9-10 it retreats and takes a hit
    (``combat.rocket_outcome``, the table ``odds.rocket_odds`` gives). A unit that cannot
    retreat is eliminated (rule 6.6). No Withdraw (9.2 Withdraw), no advance, no pursuit."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    roll = roll_logged(rng, 1, 10, tr, trn, p)
    log(tr, trn, EV_ROLL, p, ROLL_ROCKETS, roll, 1, 10)
    res = rocket_outcome(roll)
    log(tr, trn, EV_COMBAT, p, D.CK_ROCKETS, roll, 0, res)
    if res != ROCKET_NO_EFFECT:
        if retreat(st, g, t) and res == ROCKET_RETREAT_AND_HIT:
            hit(st, t, tr, trn)


@kernel
def fire(st, units, cards, tprops, p, kind, u, c, t, rng, tr, trn):
    """Rule 6.2 Bombardment / Volley (and 9.1 Grand Battery): dice + hill bonus against the
    target's strength + terrain + redoubt; a greater total is one hit."""
    nd, sd = fire_dice(cards, p, c, kind)
    dice = roll_logged(rng, nd, sd, tr, trn, p)
    log(tr, trn, EV_ROLL, p, ROLL_FIRE, dice, nd, sd)
    tsq = st[S.U_SQ + t]
    a = dice + hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
    d = defence_base(st, units, tprops, t, False)
    h = 1 if a > d else 0
    log(tr, trn, EV_COMBAT, p, kind, a, d, h)
    if h:
        hit(st, t, tr, trn)


@kernel
def assault(st, g, p, kind, u, t):
    """Rule 6.1, Assault and Ambush, steps 3 to 7 and the results of 6.5 / 6.6: unit u (-1
    in an Ambush) of the active player p against unit t, the initiating card already on
    the table (``combat_phase``)."""
    cb = g.cb
    cb[CB_KIND] = kind
    cb[CB_ATT_P] = p
    cb[CB_DEF_U] = t
    if kind != D.CK_AMBUSH:
        cb[CB_ATT] = u
        cb[CB_NATT] = 1
    cb[CB_STAGE] = D.STAGE_WITHDRAW
    while cb[CB_STAGE] != D.STAGE_NONE:
        combat_stage(st, g, p)


@kernel
def results_options(st, tprops, cb, p, opts):
    """Rule 6.1 step 7, bands 2 and 3 of the totals in ``cb``: who chooses between a hit
    and a retreat of the defender, and the options into ``opts`` (row: (0 hit / 1 retreat,
    t, band, 0)); the attacker may choose Retreat even when it is impossible (it
    eliminates), the defender only when there is a square to go to. Returns (chooser, n);
    n is 0 in the other bands."""
    t = cb[CB_DEF_U]
    band = assault_band(cb[CB_A], cb[CB_D])
    if band != 2 and band != 3:
        return -1, 0
    opts[0, 0] = 0
    n = 1
    if band == 3 or can_retreat(st, tprops, t):
        opts[1, 0] = 1
        n = 2
    opts[:n, 1] = t
    opts[:n, 2] = band
    opts[:n, 3] = 0
    return (1 - p if band == 2 else p), n


@kernel
def stage_options(st, g, p, opts):
    """The first decision of the current stage of the combat under way (``cb[CB_STAGE]``,
    p attacking), its options into ``opts`` exactly as the stage will list them: returns
    (deciding seat, decision kind, number of options); fewer than 2 options: the stage
    asks nothing (or only a forced choice)."""
    units = g.units
    cards = g.cards
    tprops = g.tprops
    cb = g.cb
    stage = cb[CB_STAGE]
    t = cb[CB_DEF_U]
    ambush = cb[CB_KIND] == D.CK_AMBUSH
    if stage == D.STAGE_WITHDRAW:
        return 1 - p, D.D_WITHDRAW, withdraw_options(st, cards, tprops, 1 - p, t, opts)
    if stage == D.STAGE_DEF_CARD:
        return 1 - p, D.D_DEF_CARD, def_card_options(st, units, cards, cb, 1 - p, t, opts)
    if stage == D.STAGE_ATT_CARD:
        return p, D.D_ATT_CARD, att_card_options(st, units, cards, cb, p, t, ambush, opts)
    if stage == D.STAGE_SUPPORT:
        return p, D.D_SUPPORT, support_options(st, units, cards, tprops, cb, p, t, ambush, opts)
    if stage == D.STAGE_RESULTS:
        seat, n = results_options(st, tprops, cb, p, opts)
        return seat, D.D_HIT_OR_RETREAT, n
    return -1, 0, 0


@kernel
def combat_stage(st, g, p):
    """Play the current stage (``cb[CB_STAGE]``, ``decisions.STAGE_*``) of the Assault or
    Ambush under way, p attacking, and set the next one (STAGE_NONE once it is over)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    q = 1 - p
    stage = cb[CB_STAGE]
    kind = cb[CB_KIND]
    t = cb[CB_DEF_U]
    ambush = kind == D.CK_AMBUSH
    tsq = st[S.U_SQ + t]
    if stage == D.STAGE_WITHDRAW:  # step 3
        if withdraw_step(st, g, p, t):
            # Withdraw: retreat exactly as a Retreat; in an Assault the attacking unit must
            # advance and may pursue (rule 6.1 step 3) — unless its card says "Not required
            # to advance" (rule 6.5 names Withdrawal; docs/RULE_INTERPRETATIONS.md)
            alive = retreat(st, g, t)
            if not ambush:
                pursue_and_advance(st, g, p, tsq, t if alive else -1)
            end_combat(st, p)
            cb[CB_STAGE] = D.STAGE_NONE
        else:
            cb[CB_STAGE] = D.STAGE_DEF_CARD
    elif stage == D.STAGE_DEF_CARD:  # step 4
        if not def_card_step(st, g, p, t):
            cb[CB_STAGE] = D.STAGE_ATT_CARD
    elif stage == D.STAGE_ATT_CARD:  # step 5
        r = att_card_step(st, g, p, t, ambush)
        if r == STEP5_DONE:
            cb[CB_STAGE] = D.STAGE_DICE
        elif r == STEP5_COMMAND:
            cb[CB_STAGE] = D.STAGE_SUPPORT
        elif r == STEP5_SKIRMISH:
            skirmish(st, g, p)
            end_combat(st, p)
            cb[CB_STAGE] = D.STAGE_NONE
    elif stage == D.STAGE_SUPPORT:  # step 5: the leader's supporting units
        if not support_step(st, g, p, t, ambush):
            cb[CB_STAGE] = D.STAGE_ATT_CARD
    elif stage == D.STAGE_DICE:  # step 6: totals
        a = attack_base(st, units, tprops, cb, tsq, ambush)
        for j in range(st[S.TABLE_N + p]):
            c = st[S.TABLE + p * S.TMAX + j]
            if c == cb[CB_LEADER]:
                continue  # the leader played for Combat or Command rolls nothing
            nd, sd = attack_dice(cards, p, c)
            if nd > 0:
                dv = roll_logged(rng, nd, sd, tr, trn, p)
                log(tr, trn, EV_ROLL, p, ROLL_ATTACK, dv, nd, sd)
                a += dv
        for i in range(cb[CB_NATT]):
            if cb[CB_CA + i] == 2:
                # Distant Lands 8: a Committed attack declared with a unit card, +2d6
                dv = roll_logged(rng, 2, 6, tr, trn, p)
                log(tr, trn, EV_ROLL, p, ROLL_ATTACK, dv, 2, 6)
                a += dv
        if cb[CB_LMODE] == 1:
            a += cards[p, cb[CB_LEADER], S.CF_CBT_A]
        d = defence_base(st, units, tprops, t, cb[CB_SAPPERS] == 1) + table_defence(st, cards, q)
        cb[CB_A] = a
        cb[CB_D] = d
        cb[CB_STAGE] = D.STAGE_RESULTS
    else:  # step 7
        results(st, g, p, kind, t, ambush)
        end_combat(st, p)
        cb[CB_STAGE] = D.STAGE_NONE


@kernel
def skirmish(st, g, p):
    """Rule 9.2 Skirmish: the initiating card returns to the hand, the defender's cards
    are discarded, the attacking unit may move up to 2 squares."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    u = cb[CB_ATT]
    for j in range(st[S.TABLE_N + p]):
        c = st[S.TABLE + p * S.TMAX + j]
        if c == cb[CB_INIT_CARD]:
            for jj in range(j, st[S.TABLE_N + p] - 1):
                st[S.TABLE + p * S.TMAX + jj] = st[S.TABLE + p * S.TMAX + jj + 1]
            st[S.TABLE_N + p] -= 1
            hand_add(st, p, c)
            break
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    buf = stack_empty(16, np.int32)
    m = move_destinations(occ, terr, tprops, st[S.U_SQ + u], 1, buf)
    opts[0, 0] = -1
    for j in range(m):
        opts[j + 1, 0] = buf[j]
    opts[: m + 1, 1] = u
    opts[: m + 1, 2:] = 0
    k = decide(st, g, p, D.D_SKIRMISH_MOVE, m + 1)
    if opts[k, 0] >= 0:
        fr = st[S.U_SQ + u]
        log_via(st, g, p, u, opts[k, 0])  # up to 2 squares (interpretation 14)
        move_unit(st, u, opts[k, 0])
        log(tr, trn, EV_MOVE, p, u, fr, opts[k, 0], 3)


@kernel
def results(st, g, p, kind, t, ambush):
    """Rule 6.1 step 7: the Assault/Ambush Results Table on the totals in ``cb``, then
    advance and pursuit (6.5, 6.6) and the Committed Attacks' hits (9.2)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    tsq = st[S.U_SQ + t]
    a = cb[CB_A]
    d = cb[CB_D]
    band = assault_band(a, d)
    log(tr, trn, EV_COMBAT, p, kind, a, d, band)
    retreated = -1
    vacated = False
    if band == 0:
        for i in range(cb[CB_NATT]):
            hit(st, cb[CB_ATT + i], tr, trn)
    elif band == 2 or band == 3:
        chooser, n = results_options(st, tprops, cb, p, opts)
        k = 0
        if n > 1:
            k = decide(st, g, chooser, D.D_HIT_OR_RETREAT, n)
        if opts[k, 0] == 0:
            if not hit(st, t, tr, trn):
                vacated = True
        else:
            if retreat(st, g, t):
                retreated = t
            vacated = True
    elif band == 4:
        vacated = True
        if hit(st, t, tr, trn):
            if retreat(st, g, t):
                retreated = t
    elif band == 5:
        eliminate(st, t, tr, trn)
        vacated = True
    if vacated and not ambush:
        pursue_and_advance(st, g, p, tsq, retreated)
    # rule 9.2 Committed Attack: "one attacking or Supporting unit must take a Hit at the
    # conclusion of the attack for each COMMITTED ATTACK card played". The unit a card was
    # played for takes its hit (interpretation 13); if that unit fell earlier in the
    # combat, the hit passes to a surviving attacking or supporting unit of the attacker's
    # choice (interpretation 26) - and may be the attacker's 5th loss (rule 2.1, pyrrhic)
    owed = 0
    # Distant Lands 8: a unit whose attack was declared Committed with a unit card "suffers
    # one hit after all other combat losses", as a Committed Attack card's (cb[CB_CA] 2)
    for i in range(cb[CB_NATT]):
        if cb[CB_CA + i] != 0:
            if st[S.U_STEP + cb[CB_ATT + i]] > 0:
                hit(st, cb[CB_ATT + i], tr, trn)
            elif cb[CB_CA + i] == 1:
                owed += 1  # a unit card's Committed hit is its own unit's only (DL17)
    for _ in range(owed):
        n = 0
        for i in range(cb[CB_NATT]):
            u = cb[CB_ATT + i]
            if st[S.U_STEP + u] > 0:
                n = D.add_option(opts, n, u, 0, 0, 0)
        if n == 0:
            break  # every attacking and supporting unit is gone: no one left to take it
        k = 0
        if n > 1:
            k = decide(st, g, p, D.D_COMMITTED_HIT, n)
        hit(st, opts[k, 0], tr, trn)


@kernel
def declare_combat(st, g, p):
    """Rule 6: the active player p declares a combat or none (``combat_options``); a fire
    combat is resolved at once, an Assault or Ambush is left under way at its first stage
    (``cb[CB_STAGE]``, ``combat_stage``)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    n = combat_options(st, units, cards, tprops, p, opts)
    k = decide(st, g, p, D.D_COMBAT, n)
    kind = opts[k, 0]
    if kind == D.CK_NONE:
        return
    u = opts[k, 1]
    s = opts[k, 2]
    t = opts[k, 3]
    for i in range(CB_SIZE):
        cb[i] = 0
    cb[CB_KIND] = kind
    cb[CB_ATT_P] = p
    cb[CB_DEF_U] = t
    cb[CB_LEADER] = -1
    cb[CB_DLEADER] = -1
    st[S.COMBATS + p] += 1
    c = play_to_table(st, p, s)
    cb[CB_INIT_CARD] = c
    log(tr, trn, EV_PLAY, p, c, PURPOSE_INITIATE, t, kind)
    if kind == D.CK_ASSAULT or kind == D.CK_AMBUSH:
        st[S.ASSAULTS + p] += 1
        if kind != D.CK_AMBUSH:
            cb[CB_ATT] = u
            cb[CB_NATT] = 1
        cb[CB_STAGE] = D.STAGE_WITHDRAW
    elif kind == D.CK_ROCKETS:
        rockets(st, g, p, t)
        end_combat(st, p)
    elif kind == D.CK_DEATH_WITH_HONOUR:
        death_with_honour(st, g, p, u)
        end_combat(st, p)
    else:
        fire(st, units, cards, tprops, p, kind, u, c, t, rng, tr, trn)
        end_combat(st, p)


@kernel
def combat_phase(st, g, p):
    """Rule 6, the Combat Phase of the active player p: declare a combat and play it
    through; if one is already under way (``cb[CB_STAGE]``: a search's rollout that begins
    inside a combat), play it on from its stage."""
    cb = g.cb
    if cb[CB_STAGE] == D.STAGE_NONE:
        declare_combat(st, g, p)
    while cb[CB_STAGE] != D.STAGE_NONE:
        combat_stage(st, g, p)
