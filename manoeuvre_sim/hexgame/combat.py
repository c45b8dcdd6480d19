"""Maneuver's combat phase (rule [8]) with the Capital's exceptions (rule [11]).

Attacks are built one at a time: the player names a first attacking unit (or ends the
phase once no enemy hex must still be attacked), then the enemy hexes it attacks (any of
its adjacent enemy hexes together), then which other unused units join (each must be
adjacent to every defending hex). An option is legal only if every enemy hex that must
still be attacked keeps an unused friendly unit beside it outside the friendly Capital's
hex (H9; rule [11]: those units are "never required" to attack): since one unit can always
attack all its adjacent hexes together, the mandatory-attack rule can always be met.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import players as PL
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.checks import CHK_CAPITAL_DUTY
from manoeuvre_sim.hexgame.crt import AE, AR, DE, DR, combat_dice, crt_result
from manoeuvre_sim.hexgame.scenario import CAVALRY, INFANTRY, MAXU, U_TYPE


@kernel(inline="always")
def _adjacent_unit(st, g, side, k, need_unused, outside_capital):
    """Some unit of ``side`` beside hex ``k`` (unused / outside its Capital's hex)."""
    for v in range(side * MAXU, side * MAXU + MAXU):
        h = st[S.POS + v]
        if h < 0 or not B.present(st, v) or g.dist[h, k] != 1:
            continue
        if need_unused and (st[S.FLAGS + v] & S.F_USED):
            continue
        if outside_capital and B.in_capital_hex(st, v):
            continue
        return True
    return False


@kernel
def mandatory_map(st, g, side):
    """``W_MLIST``: enemy hexes ``side`` must still attack (rule [8]: every enemy unit in a
    friendly ZOC; rule [11]: not the enemy Capital's hex, and not because of units in the
    friendly Capital's hex, which are never required to attack; H9: not once no unused unit
    outside that hex is beside it), as a list; returns how many."""
    e = 1 - side
    wk = g.wk
    ec = -1
    if st[S.CAP_CAPTURED + e] == 0:
        ec = B.capital_hex(st, e)
    # W_ADJ: the hexes beside a friend outside its Capital's hex (1), such a friend unused (2)
    for v in range(side * MAXU, side * MAXU + MAXU):
        h = st[S.POS + v]
        if h < 0 or not B.present(st, v) or B.in_capital_hex(st, v):
            continue
        bits = 1
        if not (st[S.FLAGS + v] & S.F_USED):
            bits |= 2
        for d in range(6):
            k = g.nbr[h, d]
            if k >= 0:
                wk[S.W_ADJ, k] |= bits
    count = 0
    for v in range(e * MAXU, e * MAXU + MAXU):
        k = st[S.POS + v]
        if k < 0 or k == ec or not B.present(st, v) or (st[S.FLAGS + v] & S.F_ATTACKED):
            continue
        if wk[S.W_ADJ, k] == 3:
            wk[S.W_ADJ, k] = 7  # listed (bit 4), once
            wk[S.W_MLIST, count] = k
            count += 1
    for v in range(side * MAXU, side * MAXU + MAXU):
        h = st[S.POS + v]
        if h >= 0:
            for d in range(6):
                k = g.nbr[h, d]
                if k >= 0:
                    wk[S.W_ADJ, k] = 0
    return count


@kernel(inline="always")
def _unused_beside(st, g, side, k):
    """How many unused units of ``side`` outside its Capital's hex stand beside hex ``k``
    (``_adjacent_unit``): those that can meet a duty to attack it (H9, rule [11])."""
    c = 0
    for v in range(side * MAXU, side * MAXU + MAXU):
        h = st[S.POS + v]
        if h >= 0 and B.present(st, v) and not (st[S.FLAGS + v] & S.F_USED) and g.dist[h, k] == 1:
            if not B.in_capital_hex(st, v):
                c += 1
    return c


@kernel(inline="always")
def _feasible(st, g, side, nm):
    """Every mandatory hex (``W_MLIST[:nm]``) not marked in ``W_TMP`` keeps an unused unit
    outside the Capital's hex beside it (H9)."""
    for i in range(nm):
        k = g.wk[S.W_MLIST, i]
        if g.wk[S.W_TMP, k] == 0:
            if not _adjacent_unit(st, g, side, k, True, True):
                return False
    return True


@kernel(inline="always")
def _duty_payable(st, g, side, n):
    """Some first-attacker option of ``wk[W_OPTS, :n]`` stands outside the Capital's hex:
    an attack still owed never falls to the Capital's hex alone (rule [11]; the check)."""
    for i in range(n):
        u = g.wk[S.W_OPTS, i]
        if u >= 0 and not B.in_capital_hex(st, u):
            return True
    return False


@kernel(inline="always")
def _mark_defenders(g, h, mask, on):
    for d in range(6):
        if mask & (1 << d):
            g.wk[S.W_TMP, g.nbr[h, d]] = on


@kernel
def attacker_options(st, g, side):
    """``(n, nm)``: the first-attacker options in ``wk[W_OPTS, :n]`` — each unused unit of
    ``side`` beside an enemy hex, and -1 (end the phase) once ``nm``, the hexes that must
    still be attacked (rule [8], ``mandatory_map``), is 0."""
    B.refresh(st, g)
    nm = mandatory_map(st, g, side)
    opts = g.wk[S.W_OPTS]
    n = 0
    if nm == 0:
        opts[n] = -1
        n += 1
    for u in range(side * MAXU, side * MAXU + MAXU):
        h = st[S.POS + u]
        if h < 0 or not B.present(st, u) or (st[S.FLAGS + u] & S.F_USED):
            continue
        for d in range(6):
            k = g.nbr[h, d]
            if k >= 0 and g.wk[S.W_OCC + 1 - side, k] > 0:
                opts[n] = u
                n += 1
                break
    return n, nm


@kernel
def defender_masks(st, g, side, u, nm):
    """The sets of defending hexes ``u`` (flagged used) may attack, as direction masks in
    ``wk[W_OPTS, :n]``; returns ``n``. A set is a non-empty set of u's adjacent enemy hexes
    (rule [8]) that takes in every mandatory hex left with no other unused unit beside it
    (H9: ``_feasible`` for each set, those hexes found once; only units outside the
    Capital's hex can meet that duty, rule [11])."""
    h = st[S.POS + u]
    opts = g.wk[S.W_OPTS]
    emask = 0  # the directions of u's adjacent enemy hexes
    for d in range(6):
        k = g.nbr[h, d]
        if k >= 0 and g.wk[S.W_OCC + 1 - side, k] > 0:
            emask |= 1 << d
    need = 0  # the directions of the hexes every set must take in
    for i in range(nm):
        k = g.wk[S.W_MLIST, i]
        if g.wk[S.W_TMP, k] == 0 and not _adjacent_unit(st, g, side, k, True, True):
            dk = 6  # none: no set can take it in
            for d in range(6):
                if g.nbr[h, d] == k:
                    dk = d
            need |= 1 << dk
    n = 0
    for mask in range(1, 64):
        if mask & ~emask or need & ~mask:
            continue
        opts[n] = mask
        n += 1
    return n


@kernel
def combat_phase(st, g, side, fresh):
    """Rule [8]: the phasing side's attacks, then stacking for both sides. ``fresh``: the
    phase begins (else it goes on between two attacks, flags kept). Returns 1, paused
    before an attack, when a search player searching its combat has none chosen
    (``search.py`` chooses it and plays on, ``game.PH_ATTACKS``), else 0."""
    e = 1 - side
    if fresh:
        for u in range(S.NU):
            st[S.FLAGS + u] &= ~(S.F_USED | S.F_ATTACKED)
    n_hex = g.nbr.shape[0]
    for k in range(n_hex):
        g.wk[S.W_TMP, k] = 0
    opts = g.wk[S.W_OPTS]
    while True:
        n, nm = attacker_options(st, g, side)
        if g.opt[S.O_CHECK] and nm > 0 and not _duty_payable(st, g, side, n):
            st[S.VIOLATIONS] |= CHK_CAPITAL_DUTY
        if n == 0:
            break
        if PL.searches_combat(g.pol[side]) and g.srch[side, S.SR_MODE] != S.SR_ATTACK:
            return 1
        u = opts[PL.choose(st, g, side, PL.D_ATTACKER, n, nm, 0)]
        if u < 0:
            if n > 1:
                S.log(g, st, S.EV_DECLINE, PL.D_ATTACKER, n - 1, -1)
            break
        # the defending hexes: a non-empty set of u's adjacent enemy hexes
        h = st[S.POS + u]
        st[S.FLAGS + u] |= S.F_USED
        n = defender_masks(st, g, side, u, nm)
        if n == 0:  # cannot happen (H9); a bug, not a choice
            raise RuntimeError("no legal defenders for an attacker")
        mask = opts[PL.choose(st, g, side, PL.D_DEFENDERS, n, u, 0)]
        _mark_defenders(g, h, mask, 1)
        nd = 0
        for d in range(6):
            if mask & (1 << d):
                g.wk[S.W_DEF, nd] = g.nbr[h, d]
                nd += 1
        na = 0
        g.wk[S.W_ATT, na] = u
        na += 1
        # the others that may join: unused, beside every defending hex (rule [8]); one may
        # join if every mandatory hex not defending keeps another unused unit outside the
        # Capital's hex beside it (H9: ``_feasible`` with v used, from a count of those units
        # beside each such hex; a unit of the Capital's hex never counts, rule [11])
        free = stack_empty(MAXU, np.int64)
        for i in range(nm):
            k = g.wk[S.W_MLIST, i]
            free[i] = _unused_beside(st, g, side, k) if g.wk[S.W_TMP, k] == 0 else -1
        for v in range(side * MAXU, side * MAXU + MAXU):
            hv = st[S.POS + v]
            if hv < 0 or not B.present(st, v) or (st[S.FLAGS + v] & S.F_USED):
                continue
            beside = True
            for i in range(nd):
                if g.dist[hv, g.wk[S.W_DEF, i]] != 1:
                    beside = False
            if not beside:
                continue
            opts[0] = 0
            n = 1
            ok = True
            counted = 0 if B.in_capital_hex(st, v) else 1
            for i in range(nm):
                v_beside = counted if g.dist[hv, g.wk[S.W_MLIST, i]] == 1 else 0
                if free[i] >= 0 and free[i] - v_beside <= 0:
                    ok = False
            if ok:
                opts[1] = 1
                n = 2
            joins = opts[PL.choose(st, g, side, PL.D_JOIN, n, v, 0)] == 1
            if not joins and n > 1:
                S.log(g, st, S.EV_DECLINE, PL.D_JOIN, 1, v)
            if joins:
                st[S.FLAGS + v] |= S.F_USED
                g.wk[S.W_ATT, na] = v
                na += 1
                for i in range(nm):
                    if free[i] >= 0 and g.dist[hv, g.wk[S.W_MLIST, i]] == 1:
                        free[i] -= counted
        for i in range(nd):
            g.wk[S.W_TMP, g.wk[S.W_DEF, i]] = 0
        g.srch[side, S.SR_MODE] = S.SR_OFF  # the attack the search chose is built
        resolve(st, g, side, na, nd)
        g.srch[side, S.SR_DICE] = 0
    g.srch[side, S.SR_MODE] = S.SR_OFF
    enforce_stacking(st, g, side)
    enforce_stacking(st, g, e)
    return 0


@kernel
def resolve(st, g, side, na, nd):
    """One attack: attackers ``wk[W_ATT, :na]`` against the enemy units in hexes
    ``wk[W_DEF, :nd]`` (rule [8]: withdrawal, supply, totals, result, retreats, advance).

    A unit sent back in the combat, by a withdrawal, its chain retreats or the result's
    retreats, is retreating (``F_RETREATING``) until the combat ends, withdrawal included
    (H11): it is pushed by no later retreat of the combat, saves no friend in an enemy ZOC,
    and a DR does not send it back a second time."""
    for u in range(S.NU):
        st[S.FLAGS + u] &= ~S.F_RETREATING
    _resolve(st, g, side, na, nd)
    for u in range(S.NU):  # rule [8]: "currently retreating" ends with the combat (H11)
        st[S.FLAGS + u] &= ~S.F_RETREATING


@kernel
def _resolve(st, g, side, na, nd):
    """``resolve``'s combat, its retreating flags set as it goes."""
    e = 1 - side
    st[S.COMBATS + side] += 1
    for i in range(na):
        S.log(g, st, S.EV_ATTACKER, g.wk[S.W_ATT, i], st[S.POS + g.wk[S.W_ATT, i]], 0)
    for i in range(nd):
        k = g.wk[S.W_DEF, i]
        S.log(g, st, S.EV_DEFENDER, k, 0, 0)
        for v in range(e * MAXU, e * MAXU + MAXU):
            if st[S.POS + v] == k:
                st[S.FLAGS + v] |= S.F_ATTACKED
    # enemies in captured Capitals' hexes before the combat (rule [11] recapture)
    B.refresh(st, g)
    before0 = g.wk[S.W_OCC + 1, B.capital_hex(st, 0)] if st[S.CAP_CAPTURED] == 1 else 0
    before1 = g.wk[S.W_OCC + 0, B.capital_hex(st, 1)] if st[S.CAP_CAPTURED + 1] == 1 else 0
    # withdrawal (rule [8]): no attacking cavalry, so defending cavalry may retreat first
    cav = False
    for i in range(na):
        if g.units[g.wk[S.W_ATT, i], U_TYPE] == CAVALRY:
            cav = True
    if not cav:
        # rule [8] "may retreat one hex" (H10): the cavalry standing in the defending hexes
        # are listed before any withdraws, and each is offered one withdrawal, so one that
        # withdraws into another defending hex of this attack is not offered a second; one
        # an earlier withdrawal pushed out (a chain retreat) has made its one-hex retreat
        cavs = stack_empty(MAXU, np.int64)
        nc = 0
        for i in range(nd):
            k = g.wk[S.W_DEF, i]
            for v in range(e * MAXU, e * MAXU + MAXU):
                if st[S.POS + v] == k and g.units[v, U_TYPE] == CAVALRY:
                    cavs[nc] = v
                    nc += 1
        for j in range(nc):
            v = cavs[j]
            if st[S.POS + v] < 0 or (st[S.FLAGS + v] & S.F_RETREATING):
                continue
            B.refresh(st, g)
            g.wk[S.W_RQ, 0] = v
            retreat_queue(st, g, e, 1, True)
        # a Capital whose captors all withdrew is recaptured at once (rule [11], H16), so
        # it supplies its side's units in this combat's supply check
        _recapture(st, g, before0, before1)
        left = 0
        for i in range(nd):
            if g.wk[S.W_OCC + e, g.wk[S.W_DEF, i]] > 0:
                left += 1
        if left == 0:
            # every defending hex vacated: infantry may advance, the attack is over; "advancing
            # units may not attack after advancing", the others may still attack (H10)
            for i in range(na):
                g.wk[S.W_QUEUE, i] = st[S.POS + g.wk[S.W_ATT, i]]
            _advance(st, g, side, na, nd, True)
            for i in range(na):
                a = g.wk[S.W_ATT, i]
                if st[S.POS + a] == g.wk[S.W_QUEUE, i]:
                    st[S.FLAGS + a] &= ~S.F_USED
            return
        # H10: a hex vacated beside others still held is dropped from the attack
        left = 0
        for i in range(nd):
            k = g.wk[S.W_DEF, i]
            if g.wk[S.W_OCC + e, k] > 0:
                g.wk[S.W_DEF, left] = k
                left += 1
        nd = left
    # supply of every involved unit at the beginning of the combat (rule [9])
    B.refresh(st, g)
    att = 0
    sup_att = stack_empty(MAXU, np.int64)  # each attacker's supply (units in a hex share it)
    for i in range(na):
        a = g.wk[S.W_ATT, i]
        h = st[S.POS + a]
        sup = -1
        for j in range(i):
            if st[S.POS + g.wk[S.W_ATT, j]] == h:
                sup = sup_att[j]
        if sup < 0:
            sup = 1 if B.traces_supply(st, g, a) else 0
        sup_att[i] = sup
        sa = B.strength(st, g, a, True, sup == 0)
        S.log(g, st, S.EV_SUPPLY, a, sup, sa)
        att += sa
    dfc = 0
    for i in range(nd):
        k = g.wk[S.W_DEF, i]
        sup = -1  # the hex's supply, found for its first unit (units in a hex share it)
        for v in range(e * MAXU, e * MAXU + MAXU):
            if st[S.POS + v] == k and B.present(st, v):
                if sup < 0:
                    sup = 1 if B.traces_supply(st, g, v) else 0
                sv = B.strength(st, g, v, False, sup == 0)
                S.log(g, st, S.EV_SUPPLY, v, sup, sv)
                dfc += sv
    if g.srch[side, S.SR_DICE] > 0:  # a search rollout's stratified roll (search.py)
        r = crt_result(att - dfc + g.srch[side, S.SR_DICE] - 6)
    else:
        da, dd = combat_dice(g.rngs[0])  # rule [8]: each side adds one d6
        S.log(g, st, S.EV_DICE, da, dd, 0)
        r = crt_result(att + da - (dfc + dd))
    S.log(g, st, S.EV_RESULT, att, dfc, r)
    if r == DE:
        for i in range(nd):
            k = g.wk[S.W_DEF, i]
            cap = st[S.CAP_CAPTURED + e] == 0 and B.capital_hex(st, e) == k
            if cap:  # rule [11]: a DE against the Capital captures it
                st[S.CAP_CAPTURED + e] = 1
                st[S.CAPTURES + e] += 1
                if st[S.CAP_FELL + e] == 0:
                    st[S.CAP_FELL + e] = st[S.TURN]
                S.log(g, st, S.EV_CAPTURE, e, k, 0)
            for v in range(e * MAXU + 1, e * MAXU + MAXU):
                if st[S.POS + v] == k:
                    _lose(st, g, v, cap, 1)
    elif r == DR:
        n = 0
        for i in range(nd):
            k = g.wk[S.W_DEF, i]
            for v in range(e * MAXU, e * MAXU + MAXU):
                if st[S.POS + v] != k or not B.present(st, v) or B.in_capital_hex(st, v):
                    continue  # rule [11]: DR is NE in the Capital's hex
                if st[S.FLAGS + v] & S.F_RETREATING:
                    continue  # H11: it withdrew (or was pushed) into this hex, one hex, once
                g.wk[S.W_RQ, n] = v
                n += 1
        B.refresh(st, g)
        retreat_queue(st, g, e, n, False)
    elif r == AR:
        n = 0
        for i in range(na):
            a = g.wk[S.W_ATT, i]
            if B.present(st, a) and not B.in_capital_hex(st, a) and a % MAXU != 0:
                g.wk[S.W_RQ, n] = a
                n += 1
        B.refresh(st, g)
        retreat_queue(st, g, side, n, False)
    elif r == AE:
        for i in range(na):
            a = g.wk[S.W_ATT, i]
            if B.present(st, a) and not B.in_capital_hex(st, a) and a % MAXU != 0:
                _lose(st, g, a, False, 2)
    _recapture(st, g, before0, before1)
    if r == DR or r == DE:  # noqa: SIM109 (numba)
        _advance(st, g, side, na, nd, False)


@kernel(inline="always")
def _recapture(st, g, before0, before1):
    """Rule [11]: a captured Capital is recaptured "the instant all enemy units in its hex
    are retreated or eliminated in combat" (H16): ``before0``/``before1``, the enemy units
    in each captured Capital's hex when the combat began, withdrawals included."""
    B.refresh(st, g)
    for s in range(2):
        before = before0 if s == 0 else before1
        c = B.capital_hex(st, s)
        if st[S.CAP_CAPTURED + s] == 1 and before > 0 and g.wk[S.W_OCC + 1 - s, c] == 0:
            st[S.CAP_CAPTURED + s] = 0  # rule [11]: its captors retreated or eliminated
            S.log(g, st, S.EV_RECAPTURE, s, c, 1)


@kernel(inline="always")
def _lose(st, g, u, always, cause):
    """An AE or DE for ``u``: eliminated, or flipped under step losses (rule [13] 3)."""
    if g.opt[S.O_STEP_LOSSES] == 1 and st[S.STEP + u] == 0 and not always:
        st[S.STEP + u] = 1
        S.log(g, st, S.EV_FLIP, u, st[S.POS + u], cause)
    else:
        B.eliminate(st, g, u, cause)


@kernel
def _advance(st, g, side, na, nd, infantry_only):
    """Advance after combat (rule [8]): each attacking infantry or cavalry unit may move
    into a defending hex its enemies vacated (rule [6]'s limits do not apply); after a
    withdrawal, infantry only. Never beyond the stacking limit (H4)."""
    e = 1 - side
    opts = g.wk[S.W_OPTS]
    for i in range(na):
        a = g.wk[S.W_ATT, i]
        t = g.units[a, U_TYPE]
        if not B.present(st, a) or not (t == INFANTRY or (t == CAVALRY and not infantry_only)):
            continue
        B.refresh(st, g)
        n = 0
        opts[n] = -1
        n += 1
        h = st[S.POS + a]
        for j in range(nd):
            k = g.wk[S.W_DEF, j]
            if g.wk[S.W_OCC + e, k] == 0 and g.dist[h, k] == 1 and B.fits(st, g, a, k, 0):
                opts[n] = k
                n += 1
        if n == 1:
            continue
        k = opts[PL.choose(st, g, side, PL.D_ADVANCE, n, a, 0)]
        if k < 0:
            S.log(g, st, S.EV_DECLINE, PL.D_ADVANCE, n - 1, a)
        else:
            S.log(g, st, S.EV_ADVANCE, a, h, k)
            B.enter(st, g, a, k)


@kernel
def retreat_queue(st, g, side, n, withdrawal):
    """Retreat the units ``wk[W_RQ, :n]`` one hex each, their owner choosing (rule [8]),
    with chain retreats of the friends they enter upon; ``withdrawal``: a cavalry
    withdrawal, which the owner may decline. A unit with no hex to go to is eliminated
    (H11), so is one entering an enemy ZOC with no friendly non-retreating unit there.

    Every unit is retreating from the moment it is queued (``F_RETREATING``), moved or
    not, until the combat ends (``resolve`` clears the flags; a cavalry that declines to
    withdraw is not retreating): rule [8]'s chain retreat is "a one-hex retreat", so a unit
    entering a hex of retreating friends pushes none of them a second time, also those an
    earlier queue of the same combat moved (a withdrawal's), and they do not save it from
    an enemy ZOC ("a friendly unit that is not currently retreating"). It may join them
    there (rule [8]: units "need not remain together", H11), unless ``O_RETREAT_APART`` (the
    earlier reading: no hex holding a retreating friend)."""
    e = 1 - side
    opts = g.wk[S.W_OPTS]
    apart = g.opt[S.O_RETREAT_APART] == 1
    for j in range(n):
        st[S.FLAGS + g.wk[S.W_RQ, j]] |= S.F_RETREATING
    i = 0
    while i < n:
        u = g.wk[S.W_RQ, i]
        i += 1
        if not B.present(st, u):
            continue
        B.refresh(st, g)
        h0 = st[S.POS + u]
        m = 0
        may_stay = withdrawal and i == 1  # the withdrawing unit; a chain retreat must go
        if may_stay:
            opts[m] = -1
            m += 1
        for d in range(6):
            k = g.nbr[h0, d]
            if k < 0 or g.wk[S.W_OCC + e, k] > 0:
                continue
            busy = False
            if apart:
                for v in range(side * MAXU, side * MAXU + MAXU):
                    if st[S.POS + v] == k and (st[S.FLAGS + v] & S.F_RETREATING):
                        busy = True
            if not busy:
                opts[m] = k
                m += 1
        if m == 0:
            B.eliminate(st, g, u, 3)
            continue
        kind = PL.D_WITHDRAW if may_stay else PL.D_RETREAT
        k = opts[PL.choose(st, g, side, kind, m, u, 0)]
        if k < 0:
            if m > 1:
                S.log(g, st, S.EV_DECLINE, PL.D_WITHDRAW, m - 1, u)
            st[S.FLAGS + u] &= ~S.F_RETREATING
            continue
        S.log(g, st, S.EV_WITHDRAW if may_stay else S.EV_RETREAT, u, h0, k)
        if PL._dies(st, g, side, k):
            st[S.POS + u] = k
            B.eliminate(st, g, u, 4)
            continue
        B.enter(st, g, u, k)
        for v in range(side * MAXU + 1, side * MAXU + MAXU):
            if v != u and st[S.POS + v] == k and not (st[S.FLAGS + v] & S.F_RETREATING):
                st[S.FLAGS + v] |= S.F_RETREATING
                g.wk[S.W_RQ, n] = v  # rule [8]: they must retreat one hex at once
                n += 1


@kernel
def enforce_stacking(st, g, side):
    """Rule [6]: in every hex over the limit the owner keeps one unit of the class (the
    one it chooses) and removes the rest to the dead pile (H12)."""
    over = False  # first, one pass: is any hex over the limit?
    for u in range(side * MAXU + 1, side * MAXU + MAXU):
        h = st[S.POS + u]
        if h >= 0:
            bit = 1 << B.stack_class(g, u)
            if g.wk[S.W_STACK, h] & bit:
                over = True
            g.wk[S.W_STACK, h] |= bit
    B.clear_stacks(st, g, side)
    if not over:
        return
    opts = g.wk[S.W_OPTS]
    for u in range(side * MAXU + 1, side * MAXU + MAXU):
        h = st[S.POS + u]
        if h < 0 or B.fits(st, g, u, h, 0):
            continue
        c = B.stack_class(g, u)
        n = 0
        for v in range(side * MAXU + 1, side * MAXU + MAXU):
            if st[S.POS + v] == h and B.stack_class(g, v) == c:
                opts[n] = v
                n += 1
        keep = opts[PL.choose(st, g, side, PL.D_KEEP, n, h, c)]
        for v in range(side * MAXU + 1, side * MAXU + MAXU):
            if v != keep and st[S.POS + v] == h and B.stack_class(g, v) == c:
                S.log(g, st, S.EV_STACK, v, h, 0)
                B.eliminate(st, g, v, 5)
