"""The map as the rules read it: occupancy, zones of control, supply, reach, stacking.

Everything works over the packed neighbour table (``Ctx.nbr``, int16 (N, 6), -1 off the
map) and the state vector; results go into the context's scratch rows (``state.W_*``).
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.scenario import (
    ARTILLERY,
    CAPITAL,
    H_SIDE,
    MAXU,
    U_ATT0,
    U_ATT1,
    U_DEF0,
    U_DEF1,
    U_MA,
    U_TYPE,
)


@kernel(inline="always")
def present(st, u):
    """Unit ``u`` is on the map and counts as a unit there: a captured Capital does not
    (rule [11]: its values are zero; H6: it blocks nothing and has no ZOC)."""
    if st[S.POS + u] < 0:
        return False
    return not (u % MAXU == 0 and st[S.CAP_CAPTURED + u // MAXU] == 1)


@kernel(inline="always")
def _occ_hex(u, h, captured):
    """The hex unit ``u`` occupies standing in ``h`` (-1: off the map, or a captured Capital,
    which counts as no unit there: ``present``)."""
    if h < 0 or (u % MAXU == 0 and captured == 1):
        return -1
    return h


@kernel(inline="always")
def _zoc_hex(u, h, captured, captured_zoc):
    """The hex whose six neighbours unit ``u`` standing in ``h`` holds in its ZOC (rule [7]),
    -1 none: a captured Capital none (H6), unless the option keeps its ZOC."""
    if h < 0 or (u % MAXU == 0 and captured == 1 and captured_zoc == 0):
        return -1
    return h


@kernel(inline="always")
def _count(g, s, occ, zoc, delta):
    """Add ``delta`` to side ``s``'s occupancy of ``occ`` and ZOC counts around ``zoc``."""
    if occ >= 0:
        g.wk[S.W_OCC + s, occ] += delta
    if zoc >= 0:
        for d in range(6):
            k = g.nbr[zoc, d]
            if k >= 0:
                g.wk[S.W_ZOC + s, k] += delta


@kernel
def refresh(st, g):
    """Bring occupancy ``W_OCC + side`` and zones of control ``W_ZOC + side`` (rule [7]: the
    six hexes adjacent to each unit; a count of the units exerting it) up to date with the
    units' hexes: only the units that moved, were eliminated or changed a Capital's status
    since the last call are counted again (``W_KEY`` holds what the tables were computed
    from), so a call that finds nothing changed costs one pass over the units."""
    wk = g.wk
    cz = g.opt[S.O_CAPTURED_ZOC]
    if wk[S.W_KEY, S.K_VALID] != 1 or wk[S.W_KEY, S.K_OPT] != cz:
        n = g.nbr.shape[0]
        for r in range(4):
            for h in range(n):
                wk[S.W_OCC + r, h] = 0
        for u in range(S.NU):
            c = st[S.CAP_CAPTURED + u // MAXU]
            h = st[S.POS + u]
            _count(g, u // MAXU, _occ_hex(u, h, c), _zoc_hex(u, h, c, cz), 1)
            wk[S.W_KEY, u] = h
        wk[S.W_KEY, S.K_CAP] = st[S.CAP_CAPTURED]
        wk[S.W_KEY, S.K_CAP + 1] = st[S.CAP_CAPTURED + 1]
        wk[S.W_KEY, S.K_OPT] = cz
        wk[S.W_KEY, S.K_VALID] = 1
        return
    for s in range(2):
        c0 = wk[S.W_KEY, S.K_CAP + s]
        c1 = st[S.CAP_CAPTURED + s]
        for u in range(s * MAXU, s * MAXU + MAXU):
            h0 = wk[S.W_KEY, u]
            h1 = st[S.POS + u]
            if h0 == h1 and (c0 == c1 or u % MAXU != 0):
                continue
            _count(g, s, _occ_hex(u, h0, c0), _zoc_hex(u, h0, c0, cz), -1)
            _count(g, s, _occ_hex(u, h1, c1), _zoc_hex(u, h1, c1, cz), 1)
            wk[S.W_KEY, u] = h1
        wk[S.W_KEY, S.K_CAP + s] = c1


@kernel(inline="always")
def capital_hex(st, side):
    return st[S.POS + side * MAXU]


@kernel(inline="always")
def in_capital_hex(st, u):
    """``u`` shares the hex of its own uncaptured Capital (rule [11])."""
    s = u // MAXU
    return st[S.CAP_CAPTURED + s] == 0 and st[S.POS + u] == st[S.POS + s * MAXU]


@kernel
def besieged(st, g, side):
    """Rule [11]: every hex adjacent to the Capital holds an enemy unit or enemy ZOC.
    Needs ``refresh``."""
    h = capital_hex(st, side)
    if h < 0:
        return False
    e = 1 - side
    for d in range(6):
        k = g.nbr[h, d]
        if k < 0:
            continue  # H3: a Capital is never on an edge hex; off-map counts for the siege
        if g.wk[S.W_OCC + e, k] == 0 and g.wk[S.W_ZOC + e, k] == 0:
            return False
    return True


@kernel
def supply_map(st, g, side):
    """Mark ``W_SUP + side`` with 1 on the hexes from which a supply path reaches ``side``'s
    Capital (rule [9]: through no enemy unit and no vacant hex in enemy ZOC; a captured
    Capital supplies nobody, a besieged one only its own hex: rule [11]). Brings occupancy
    and ZOC up to date (``refresh``) and searches again only if a unit moved since the
    side's last search (``W_SKEY + side``)."""
    refresh(st, g)
    wk = g.wk
    row = S.W_SUP + side
    key = S.W_SKEY + side
    same = True
    for i in range(S.K_VALID + 1):
        if wk[key, i] != wk[S.W_KEY, i]:
            same = False
            break
    if same:
        return
    for i in range(S.K_VALID + 1):
        wk[key, i] = wk[S.W_KEY, i]
    n = g.nbr.shape[0]
    e = 1 - side
    c = capital_hex(st, side)
    if st[S.CAP_CAPTURED + side] == 1 or c < 0:
        for h in range(n):
            wk[row, h] = 0
        return
    if besieged(st, g, side):
        for h in range(n):
            wk[row, h] = 0
        wk[row, c] = 1
        return
    # 0 where a path may pass, -1 where not: an enemy unit, a vacant hex in enemy ZOC
    for h in range(n):
        blocked = wk[S.W_OCC + e, h] > 0 or (wk[S.W_OCC + side, h] == 0 and wk[S.W_ZOC + e, h] > 0)
        wk[row, h] = -1 if blocked else 0
    wk[row, c] = 1
    head = 0
    tail = 0
    wk[S.W_QUEUE, tail] = c
    tail += 1
    while head < tail:
        h = wk[S.W_QUEUE, head]
        head += 1
        for d in range(6):
            k = g.nbr[h, d]
            if k < 0 or wk[row, k] != 0:
                continue  # off the map, reached, or blocked
            wk[row, k] = 1
            wk[S.W_QUEUE, tail] = k
            tail += 1


@kernel(inline="always")
def supplied(st, g, u):
    """After ``supply_map`` for u's side: u can trace a supply path (rule [9])."""
    return g.wk[S.W_SUP + u // MAXU, st[S.POS + u]] == 1


@kernel
def traces_supply(st, g, u):
    """``u`` can trace a supply path to its Capital (rule [9]; rule [11]: not from a captured
    Capital, only in its hex from a besieged one): what ``supplied`` answers after
    ``supply_map``, found by a search from u's hex, nearer the Capital first, that stops at
    the first path. Needs ``refresh``."""
    s = u // MAXU
    e = 1 - s
    c = capital_hex(st, s)
    h = st[S.POS + u]
    if st[S.CAP_CAPTURED + s] == 1 or c < 0 or h < 0:
        return False
    if h == c:
        return True
    if besieged(st, g, s):
        return False
    wk = g.wk
    if wk[S.W_OCC + e, h] > 0 or (wk[S.W_OCC + s, h] == 0 and wk[S.W_ZOC + e, h] > 0):
        return False
    found = False
    nv = 1
    sp = 1
    wk[S.W_SEEN, h] = 1
    wk[S.W_VLIST, 0] = h
    wk[S.W_STK, 0] = h
    while sp > 0:
        sp -= 1
        x = wk[S.W_STK, sp]
        dx = g.dist[x, c]
        if dx == 1:  # the Capital's hex is next: a path (the Capital's own hex needs none)
            found = True
            break
        near = -1
        for d in range(6):
            k = g.nbr[x, d]
            if k < 0 or wk[S.W_SEEN, k] == 1:
                continue
            if wk[S.W_OCC + e, k] > 0:
                continue  # an enemy unit
            if wk[S.W_OCC + s, k] == 0 and wk[S.W_ZOC + e, k] > 0:
                continue  # a vacant hex in enemy ZOC
            wk[S.W_SEEN, k] = 1
            wk[S.W_VLIST, nv] = k
            nv += 1
            if near < 0 and g.dist[k, c] < dx:
                near = sp
            wk[S.W_STK, sp] = k
            sp += 1
        if near >= 0:  # a neighbour nearer the Capital searched from next
            k = wk[S.W_STK, near]
            wk[S.W_STK, near] = wk[S.W_STK, sp - 1]
            wk[S.W_STK, sp - 1] = k
    for i in range(nv):
        wk[S.W_SEEN, wk[S.W_VLIST, i]] = 0
    return found


@kernel
def reach(st, g, u, ma):
    """``W_REACH``: movement points to each hex ``u`` can end its move in, -1 elsewhere
    (rule [6]: no hex with an enemy unit, friends passed through; rule [7]: entering an
    enemy ZOC ends the move, never from one enemy ZOC hex directly into another, a unit
    starting in an enemy ZOC may leave). Needs ``refresh``. Returns the number of hexes,
    which ``W_QUEUE`` lists (in the order reached)."""
    wk = g.wk
    n = g.nbr.shape[0]
    for h in range(n):
        wk[S.W_REACH, h] = -1
    s = u // MAXU
    e = 1 - s
    start = st[S.POS + u]
    wk[S.W_REACH, start] = 0
    head = 0
    tail = 0
    count = 1
    wk[S.W_QUEUE, tail] = start
    tail += 1
    while head < tail:
        h = wk[S.W_QUEUE, head]
        head += 1
        used = wk[S.W_REACH, h]
        if used >= ma:
            continue
        in_zoc = wk[S.W_ZOC + e, h] > 0
        if h != start and in_zoc:
            continue  # rule [7]: stop on entering an enemy ZOC
        for d in range(6):
            k = g.nbr[h, d]
            if k < 0 or wk[S.W_REACH, k] >= 0:
                continue
            if wk[S.W_OCC + e, k] > 0:
                continue  # rule [6]: never into an enemy unit's hex
            if in_zoc and wk[S.W_ZOC + e, k] > 0:
                continue  # rule [7]: never ZOC to ZOC directly
            wk[S.W_REACH, k] = used + 1
            wk[S.W_QUEUE, tail] = k
            tail += 1
            count += 1
    return count


@kernel(inline="always")
def stack_class(g, u):
    """Rule [6] stacking: 0 infantry or cavalry (one a hex), 1 artillery (one a hex),
    2 the Capital (always allowed with them)."""
    t = g.units[u, U_TYPE]
    if t == CAPITAL:
        return 2
    if t == ARTILLERY:
        return 1
    return 0


@kernel(inline="always")
def fits(st, g, u, h, only_flag):
    """``u`` could stand in ``h`` within the stacking limit (rule [6]) beside its side's
    units there other than itself; with ``only_flag`` > 0 only units having that flag
    count (units already moved, say)."""
    s = u // MAXU
    c = stack_class(g, u)
    if c == 2:
        return True
    for v in range(s * MAXU, s * MAXU + MAXU):
        if v == u or st[S.POS + v] != h or not present(st, v):
            continue
        if only_flag > 0 and (st[S.FLAGS + v] & only_flag) == 0:
            continue
        if stack_class(g, v) == c:
            return False
    return True


@kernel(inline="always")
def mark_stacks(st, g, s, only_flag):
    """``W_STACK``: for each hex, bit ``c`` set where a present unit of side ``s`` of
    stacking class ``c`` (0, 1) stands (with ``only_flag`` > 0: having that flag), so that
    ``fits_marked`` answers ``fits`` for a unit not itself marked without a scan of the
    side's units per hex. ``clear_stacks`` after use."""
    for v in range(s * MAXU, s * MAXU + MAXU):
        if not present(st, v):
            continue
        if only_flag > 0 and (st[S.FLAGS + v] & only_flag) == 0:
            continue
        c = stack_class(g, v)
        if c < 2:
            g.wk[S.W_STACK, st[S.POS + v]] |= 1 << c


@kernel(inline="always")
def clear_stacks(st, g, s):
    for v in range(s * MAXU, s * MAXU + MAXU):
        h = st[S.POS + v]
        if h >= 0:
            g.wk[S.W_STACK, h] = 0


@kernel(inline="always")
def fits_marked(g, u, h):
    """``fits(st, g, u, h, flag)`` after ``mark_stacks(st, g, u's side, flag)``, for a
    unit ``u`` that was not marked (unplaced, or without ``flag``)."""
    c = stack_class(g, u)
    return c == 2 or ((g.wk[S.W_STACK, h] >> c) & 1) == 0


@kernel(inline="always")
def strength(st, g, u, attacking, unsupplied):
    """u's combat strength (rule [5]: attack or defence for artillery and the Capital; a
    captured Capital 0, rule [11]; -2 unsupplied, rule [9], never below 0: H8)."""
    if u % MAXU == 0 and st[S.CAP_CAPTURED + u // MAXU] == 1:
        return 0
    red = st[S.STEP + u] == 1
    if attacking:
        v = g.units[u, U_ATT1] if red else g.units[u, U_ATT0]
    else:
        v = g.units[u, U_DEF1] if red else g.units[u, U_DEF0]
    if unsupplied:
        v -= 2
    return max(v, 0)


@kernel(inline="always")
def movement_allowance(st, g, u):
    """Rule [5] MA, -1 when unsupplied at the phase's supply check (rule [9])."""
    ma = g.units[u, U_MA]
    if st[S.FLAGS + u] & S.F_UNSUPPLIED:
        ma -= 1
    return max(ma, 0)


@kernel
def enemy_side_hex(g, h, side):
    return g.hexes[h, H_SIDE] != side


@kernel
def combat_units_on_map(st, side):
    """Combat units (not the Capital) of ``side`` on the map (rule [12])."""
    n = 0
    for u in range(side * MAXU + 1, side * MAXU + MAXU):
        if st[S.POS + u] >= 0:
            n += 1
    return n


@kernel
def eliminate(st, g, u, cause):
    """u to the dead pile (rule [10]), front side up."""
    S.log(g, st, S.EV_ELIM, u, st[S.POS + u], cause)
    st[S.POS + u] = S.DEAD
    st[S.STEP + u] = 0
    st[S.FLAGS + u] = 0
    st[S.ELIM + u // MAXU] += 1


@kernel
def enter(st, g, u, h):
    """u now stands in ``h``; a friendly unit entering its side's captured Capital's hex
    recaptures it (rule [11])."""
    st[S.POS + u] = h
    s = u // MAXU
    if st[S.CAP_CAPTURED + s] == 1 and h == capital_hex(st, s) and u % MAXU != 0:
        st[S.CAP_CAPTURED + s] = 0
        S.log(g, st, S.EV_RECAPTURE, s, h, 0)
