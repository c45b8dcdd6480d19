"""The combat search's candidate attacks and its stratified dice (``search.plan_attack``).

An attack (rule [8]) is a first attacking unit, the enemy hexes it attacks (any of its
adjacent enemy hexes together) and the other unused units that join it (each beside every
defending hex), or the end of the combat phase once no enemy hex must still be attacked.
The candidates, at most ``MAX_CAND``: first the attack the player's style would build
(``players.choose``), then, for every unit that may attack and every set of defending hexes
the rules allow it (H9: every hex that must still be attacked keeps an unused unit beside
it, ``combat._feasible``), the unit with every unit that may join it, and the unit alone;
then the end of the phase where allowed. Every candidate is legal by construction: the
lists are the ones ``combat.combat_phase`` draws up.
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import combat as C
from manoeuvre_sim.hexgame import players as PL
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.scenario import MAXU

MAX_CAND = 24


@kernel
def joins(st, g, side, u, mask, nm, every):
    """The joining units' bits (``v % MAXU``) for ``u``'s attack on ``mask``: ``every``:
    each unit that may join, in order (the scripted styles' choice), else none."""
    if not every:
        return 0
    h = st[S.POS + u]
    C._mark_defenders(g, h, mask, 1)
    bits = 0
    for v in range(side * MAXU, side * MAXU + MAXU):
        hv = st[S.POS + v]
        if hv < 0 or not B.present(st, v) or (st[S.FLAGS + v] & S.F_USED):
            continue
        beside = True
        for d in range(6):
            if mask & (1 << d) and g.dist[hv, g.nbr[h, d]] != 1:
                beside = False
        if not beside:
            continue
        st[S.FLAGS + v] |= S.F_USED
        if C._feasible(st, g, side, nm):
            bits |= 1 << (v % MAXU)
        else:
            st[S.FLAGS + v] &= ~S.F_USED
    for v in range(side * MAXU, side * MAXU + MAXU):
        if bits & (1 << (v % MAXU)):
            st[S.FLAGS + v] &= ~S.F_USED
    C._mark_defenders(g, h, mask, 0)
    return bits


@kernel(inline="always")
def _add(cu, cm, cj, nc, u, mask, bits):
    """Append a candidate unless it is already listed; returns the new count."""
    for i in range(nc):
        if cu[i] == u and cm[i] == mask and cj[i] == bits:
            return nc
    if nc >= MAX_CAND:
        return nc
    cu[nc] = u
    cm[nc] = mask
    cj[nc] = bits
    return nc + 1


@kernel
def candidates(st, g, side, cu, cm, cj):
    """The candidate attacks (the module docstring) into ``cu, cm, cj`` (first attacker,
    mask, joining bits); returns their number. ``g`` plays the style (its own scratch rows
    and generators); ``st``'s flags are put back."""
    n, nm = C.attacker_options(st, g, side)
    if n == 0:
        return 0
    opts = g.wk[S.W_OPTS]
    u = opts[PL.choose(st, g, side, PL.D_ATTACKER, n, nm, 0)]
    nc = 0
    if u < 0:
        nc = _add(cu, cm, cj, nc, -1, 0, 0)
    else:
        st[S.FLAGS + u] |= S.F_USED
        nk = C.defender_masks(st, g, side, u, nm)
        mask = opts[PL.choose(st, g, side, PL.D_DEFENDERS, nk, u, 0)]
        nc = _add(cu, cm, cj, nc, u, mask, joins(st, g, side, u, mask, nm, True))
        st[S.FLAGS + u] &= ~S.F_USED
    n, nm = C.attacker_options(st, g, side)
    end = opts[0] < 0
    units = 0  # the attacker options as bits (the option list is reused below)
    for i in range(n):
        if opts[i] >= 0:
            units |= 1 << (opts[i] - side * MAXU)
    for u in range(side * MAXU, side * MAXU + MAXU):
        if not (units & (1 << (u - side * MAXU))):
            continue
        st[S.FLAGS + u] |= S.F_USED
        nk = C.defender_masks(st, g, side, u, nm)
        for i in range(nk):
            mask = opts[i]
            nc = _add(cu, cm, cj, nc, u, mask, joins(st, g, side, u, mask, nm, True))
            nc = _add(cu, cm, cj, nc, u, mask, 0)
        st[S.FLAGS + u] &= ~S.F_USED
    if end:
        nc = _add(cu, cm, cj, nc, -1, 0, 0)
    return nc


@kernel(inline="always")
def diff_at(j):
    """The ``j``-th smallest of the 36 equally likely d6 - d6 (0 <= j < 36): stratified
    rolls (``search.plan_attack``) walk this list."""
    c = 0
    for x in range(-5, 6):
        c += 6 - abs(x)
        if j < c:
            return x
    return 5
