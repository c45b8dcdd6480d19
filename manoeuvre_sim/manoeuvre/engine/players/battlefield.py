"""Set-up choices of rule 3 for the scripted players (``simple`` and the heuristic styles):
the sections the first player lays and the starting edge the second player takes
(``--setup rules``; the ``random`` player picks uniformly, ``dispatch.py``).

Both are judged by one evaluation of the terrain for the two armies. A player ``p``'s
*side score* of a battlefield, with p's starting edge at its own end (depth ``d`` = rows from
its edge, 0..7), adds for every square:

* in its own half (d 0-3), the terrain's defence (rule 6.3: Hill 2, Woods 2, Town 3, Marsh 1)
  weighted by depth, ``HOLD`` = 0.25, 0.5, 1, 1: the rows nearest the centre are where its
  line will stand, and squares the enemy must take to score at nightfall (rule 2.2);
* on its front row (d 3), ``W_HILL`` per point of attack bonus (a Hill's +2, which it can
  use against units entering the enemy half);
* in its two set-up rows (d 0-1), ``-W_LAKE`` per square no unit may enter (a Lake: one
  set-up square fewer, rule 3);
* beyond its set-up rows (d 2-7), ``-W_CAV`` x its army's cavalry share per square that ends
  a move (Field, Marsh, rule 5: its cavalry's 2-square moves stop there);
* in the four middle rows (d 2-5), ``-W_LOS`` x its army's share of bombarding unit cards per
  square that blocks line of sight (Hill, Town, Woods, rule 6.2).

A battlefield's value to p is its side score minus the opponent's, so the same terrain
counts for whoever has it, and the army terms favour open ground for the side with more
cavalry and artillery. The **second player** takes the edge whose battlefield is worth most
to it. The **first player** lays its sections one quarter at a time (NW, NE, SW, SE) and,
knowing the second player will then pick the edge, values a map by the edge worst for
itself (the least of the four turnings of the battlefield); quarters not yet laid count
nothing. Ties are broken uniformly at random with the game's RNG.

Fair play: these decisions read the terrain, the unit tables and the composition of both
decks (the armies are public; no hand is dealt before the edge is chosen, rule 3).
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import keep_best
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_ATK, TP_DEF, TP_ENTER, TP_LOS, TP_STOP

HOLD = (0.25, 0.5, 1.0, 1.0)  # weight of a square's defence at depth 0..3 of its own half
W_HILL = 0.5  # per point of attack bonus on its front row
W_LAKE = 1.0  # per unenterable square in its set-up rows
W_CAV = 1.0  # per move-ending square beyond its set-up rows, times its cavalry share
W_LOS = 1.0  # per line-of-sight blocker in the middle rows, times its bombard share


@kernel
def army_traits(units, cards, p):
    """(share of p's units that are cavalry, share of p's unit cards with a bombardment)."""
    n_units = 0
    n_cav = 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if units[u, S.UF_EXISTS] == 1:
            n_units += 1
            n_cav += units[u, S.UF_CAV]
    n_cards = 0
    n_bomb = 0
    for c in range(cards.shape[1]):
        if cards[p, c, S.CF_KIND] == S.KIND_UNIT:
            n_cards += 1
            if cards[p, c, S.CF_BOMB_N] > 0:
                n_bomb += 1
    return n_cav / max(n_units, 1), n_bomb / max(n_cards, 1)


@kernel
def side_score(terr, tprops, p, cav_share, bomb_share):
    """Player p's side score (module docstring) of the battlefield ``terr``
    (ndarray(int64, (64,)) terrain codes in the engine's frame, p's edge at row 7 for p 0 and
    row 0 for p 1; -1: a square not yet laid, which counts nothing)."""
    v = 0.0
    for sq in range(64):
        t = terr[sq]
        if t < 0:
            continue
        r = sq // 8
        d = 7 - r if p == 0 else r
        if d <= 3:
            v += HOLD[d] * tprops[t, TP_DEF]
            if d == 3:
                v += W_HILL * tprops[t, TP_ATK]
            if d <= 1 and tprops[t, TP_ENTER] == 0:
                v -= W_LAKE
        if d >= 2:
            v -= W_CAV * cav_share * tprops[t, TP_STOP]
            if d <= 5:
                v -= W_LOS * bomb_share * tprops[t, TP_LOS]
    return v


@kernel
def battlefield_value(terr, tprops, p, traits):
    """The battlefield's value to p: its side score minus the opponent's. ``traits``:
    ndarray(float64, (2, 2)), each player's (cavalry share, bombard share)."""
    q = 1 - p
    return side_score(terr, tprops, p, traits[p, 0], traits[p, 1]) - side_score(
        terr, tprops, q, traits[q, 0], traits[q, 1]
    )


@kernel
def turn_terrain(terr, turns, out):
    """``out`` = the battlefield ``terr`` turned ``turns`` quarter turns clockwise (as
    setup.turn_battlefield turns the map): square (r, c) goes to (c, 7 - r) each turn."""
    for sq in range(64):
        r = sq // 8
        c = sq % 8
        for _ in range(turns):
            r, c = c, 7 - r
        out[r * 8 + c] = terr[sq]


@kernel(nrt=True)
def _traits(units, cards):
    traits = np.empty((2, 2), dtype=np.float64)
    for p in range(2):
        cav, bomb = army_traits(units, cards, p)
        traits[p, 0] = cav
        traits[p, 1] = bomb
    return traits


@kernel(nrt=True)
def choose_battlefield(st, units, cards, tprops, rng, opts, p, dk, n):
    """Index of the D_MAP_SECTION or D_EDGE option p picks (module docstring)."""
    traits = _traits(units, cards)
    grid = np.empty(64, dtype=np.int64)
    turned = np.empty(64, dtype=np.int64)
    best = -1e18
    bi = 0
    ties = 0
    if dk == D.D_EDGE:
        for sq in range(64):
            grid[sq] = st[S.TERR + sq]
        for i in range(n):
            turn_terrain(grid, opts[i, 1], turned)
            v = battlefield_value(turned, tprops, p, traits)
            best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
        return bi
    # D_MAP_SECTION: the quarters before this one are laid (NW, NE, SW, SE order)
    for i in range(n):
        pos = opts[i, 1] // 4
        for sq in range(64):
            q = (sq // 32) * 2 + (sq % 8) // 4  # the square's quarter
            if q < pos:
                grid[sq] = st[S.TERR + sq]
            elif q == pos:
                r = (sq // 8) % 4
                c = sq % 4
                w = np.int64(opts[i, 2 + r // 2])
                grid[sq] = (w >> np.int64(4 * (4 * (r % 2) + c))) & np.int64(15)
            else:
                grid[sq] = -1
        worst = 1e18
        for turns in range(4):
            turn_terrain(grid, turns, turned)
            worst = min(worst, battlefield_value(turned, tprops, p, traits))
        best, bi, ties = keep_best(worst, i, best, bi, ties, 1e-9, rng)
    return bi
