"""Set-up (rule 3): the battlefield from four sections and the starting edges, the deal (or
the tournament hand) and the placement of both armies.

The battlefield (``set_up_battlefield``, by the ``opt`` array's ``OPT_SETUP`` and
``OPT_MAP``, ``options.py``):

* ``random`` (the default): four distinct sections drawn from the pool, each in a random
  rotation (``build_map``); army A (player 0) sets up at the bottom.
* ``rules``: as rule 3 gives it. The first player lays the four sections, choosing each one
  and its orientation (``choose_map``); then the second player chooses which of the four map
  edges is its starting edge, the first player taking the opposite one (``choose_edge``).
  Player 0 always sets up on row 7 and player 1 on row 0, so the choice is carried out by
  turning the whole battlefield until the chosen edge is on the second player's side: the
  sections move round the quarters and each turns with the map, and the recorded map is the
  battlefield as played.
* a fixed map (``OPT_MAP``): these four sections in these rotations (``lay_fixed_map``); with
  ``rules`` the battlefield is fixed and only the edge choice remains.

Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import uniform_below
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_ENTER
from manoeuvre_sim.manoeuvre.engine.checks import decide
from manoeuvre_sim.manoeuvre.engine.options import OPT_MAP, OPT_ROT, OPT_SETUP, SETUP_RULES
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_EDGE,
    EV_MAP,
    EV_SETUP,
    draw_to_five,
    log,
    mark_drawn,
    shuffle,
)


# ------------------------------------------------------------------------------------------
# set-up (rule 3)
# ------------------------------------------------------------------------------------------
@kernel(nrt=True)
def build_map(st, sections, section_numbers, rng, tr, trn):
    """Rule 3 / 1.1: four distinct sections from the pool, each in any of 4 rotations, in a
    2x2 pattern (random)."""
    ns = sections.shape[0]
    picked = np.empty(4, dtype=np.int64)
    for pos in range(4):
        while True:
            k = uniform_below(rng, ns)
            ok = True
            for j in range(pos):
                if picked[j] == k:
                    ok = False
            if ok:
                break
        picked[pos] = k
        rot = uniform_below(rng, 4)
        log(tr, trn, EV_MAP, -1, section_numbers[k], rot, pos, 0)
        lay_section(st, sections, section_numbers, k, rot, pos)


@kernel
def section_code(sections, k, rot, r, c):
    """Terrain code at (r, c) of pool section k turned ``rot`` quarter turns clockwise."""
    sr, sc = r, c
    for _ in range(rot):
        sr, sc = 3 - sc, sr
    return sections[k, sr * 4 + sc]


@kernel
def lay_section(st, sections, section_numbers, k, rot, pos):
    """Lay pool section k turned ``rot`` quarter turns clockwise in quarter ``pos`` (0 NW,
    1 NE, 2 SW, 3 SE): its terrain, and its number and rotation in ``MAP``."""
    st[S.MAP + pos] = section_numbers[k]
    st[S.MAP + 4 + pos] = rot
    r0 = (pos // 2) * 4
    c0 = (pos % 2) * 4
    for r in range(4):
        for c in range(4):
            # clockwise rotation by `rot` quarter turns: dest (r, c) <- source cell
            st[S.TERR + (r0 + r) * 8 + c0 + c] = section_code(sections, k, rot, r, c)


@kernel
def pool_index(section_numbers, number):
    """Index in the pool of section ``number`` (checked before any game: options.py)."""
    for k in range(section_numbers.shape[0]):
        if section_numbers[k] == number:
            return k
    raise ValueError("map: a section of the fixed map is not in the map pool")


@kernel
def lay_fixed_map(st, opt, sections, section_numbers, tr, trn):
    """A fixed map (``OPT_MAP``, ``OPT_ROT``): these sections in these rotations."""
    for pos in range(4):
        k = pool_index(section_numbers, opt[OPT_MAP + pos])
        rot = opt[OPT_ROT + pos]
        log(tr, trn, EV_MAP, -1, section_numbers[k], rot, pos, 0)
        lay_section(st, sections, section_numbers, k, rot, pos)


@kernel
def pack_section_codes(sections, k, rot, half):
    """The terrain codes of rows ``2 * half`` and ``2 * half + 1`` of pool section k turned
    ``rot`` quarter turns clockwise, 4 bits a square in one int32 word (square (r, c) at
    bits ``4 * (4 * (r % 2) + c)``; the D_MAP_SECTION options, decisions.py)."""
    w = np.int64(0)
    for j in range(8):
        r = 2 * half + j // 4
        c = j % 4
        w |= np.int64(section_code(sections, k, rot, r, c)) << np.int64(4 * j)
    if w >= np.int64(1) << np.int64(31):
        w -= np.int64(1) << np.int64(32)
    return np.int32(w)


@kernel(nrt=True, inline="always")  # one call site: no compile of its own
def choose_map(st, g, p, sections, section_numbers):
    """Rule 3: the first player p "chooses 4 map sections and decides how to orient and place
    them into the 2 x 2 pattern": one decision per quarter, NW, NE, SW, SE in that order,
    among every section not yet laid in each of its 4 rotations (D_MAP_SECTION)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    ns = sections.shape[0]
    if 4 * ns > D.MAXOPT:
        raise ValueError("map pool too large for the set-up decision (MAXOPT)")
    if tprops.shape[0] > 16:
        raise ValueError("more than 16 terrain codes: the set-up options pack 4 bits a square")
    used = np.zeros(ns, dtype=np.bool_)
    for pos in range(4):
        n = 0
        for k in range(ns):
            if used[k]:
                continue
            for rot in range(4):
                n = D.add_option(
                    opts,
                    n,
                    k,
                    pos * 4 + rot,
                    pack_section_codes(sections, k, rot, 0),
                    pack_section_codes(sections, k, rot, 1),
                )
        i = decide(st, g, p, D.D_MAP_SECTION, n)
        k = opts[i, 0]
        rot = opts[i, 1] % 4
        used[k] = True
        log(tr, trn, EV_MAP, p, section_numbers[k], rot, pos, 0)
        lay_section(st, sections, section_numbers, k, rot, pos)


# quarter -> the quarter it moves to when the whole battlefield turns a quarter turn
# clockwise: NW -> NE -> SE -> SW -> NW
CLOCKWISE_QUARTER = (1, 3, 0, 2)


@kernel(nrt=True)
def turn_battlefield(st, sections, section_numbers, turns):
    """Turn the whole battlefield ``turns`` quarter turns clockwise: each section moves round
    the quarters and turns with it (MAP and the terrain are laid again)."""
    num = np.empty(4, dtype=np.int64)
    rot = np.empty(4, dtype=np.int64)
    for pos in range(4):
        dest = pos
        for _ in range(turns):
            dest = CLOCKWISE_QUARTER[dest]
        num[dest] = st[S.MAP + pos]
        rot[dest] = (st[S.MAP + 4 + pos] + turns) % 4
    for pos in range(4):
        lay_section(st, sections, section_numbers, pool_index(section_numbers, num[pos]),
                    rot[pos], pos)  # fmt: skip


@kernel(inline="always")  # one call site: no compile of its own
def choose_edge(st, g, p, sections, section_numbers):
    """Rule 3: the second player p "selects which of the four map edges will be their
    starting edge and the first player is assigned the opposite starting edge" (D_EDGE).
    Player 0 sets up on row 7 (the south edge) and player 1 on row 0 (north), so the chosen
    edge is brought to p's side by turning the whole battlefield."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    home = D.EDGE_S if p == 0 else D.EDGE_N
    for e in range(4):
        opts[e, 0] = e
        opts[e, 1] = (home - e) % 4
        opts[e, 2] = 0
        opts[e, 3] = 0
    i = decide(st, g, p, D.D_EDGE, 4)
    turns = opts[i, 1]
    log(tr, trn, EV_EDGE, p, opts[i, 0], turns, 0, 0)
    if turns != 0:
        turn_battlefield(st, sections, section_numbers, turns)


@kernel(nrt=True)
def set_up_battlefield(st, g, opt, first, sections, section_numbers):
    """Rule 3: the battlefield and the starting edges, by the set-up mode and the fixed map
    of ``opt`` (module docstring). The default (random, no fixed map) draws from the game's
    RNG exactly as ``build_map`` always has."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    rules = opt[OPT_SETUP] == SETUP_RULES
    if opt[OPT_MAP] > 0:
        lay_fixed_map(st, opt, sections, section_numbers, tr, trn)
    elif rules:
        choose_map(st, g, first, sections, section_numbers)
    else:
        build_map(st, sections, section_numbers, rng, tr, trn)
    if rules:
        choose_edge(st, g, 1 - first, sections, section_numbers)


@kernel(inline="always")  # one call site: no compile of its own
def deal(st, g, p, tournament):
    """Shuffle p's deck and draw 5 (or choose 5 in the tournament option, rule 3)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    n = dsize[p]
    for i in range(n):
        st[S.DECK + p * S.MAXC + i] = i
    st[S.DECK_N + p] = n
    if tournament:
        for _ in range(min(5, n)):
            m = st[S.DECK_N + p]
            for i in range(m):
                opts[i, 0] = i
                opts[i, 1] = st[S.DECK + p * S.MAXC + i]
                opts[i, 2] = 0
                opts[i, 3] = 0
            k = decide(st, g, p, D.D_PICK_START, m)
            pos = opts[k, 0]
            c = st[S.DECK + p * S.MAXC + pos]
            st[S.DECK + p * S.MAXC + pos] = st[S.DECK + p * S.MAXC + m - 1]
            st[S.DECK_N + p] = m - 1
            st[S.HAND + p * S.HMAX + st[S.HAND_N + p]] = c
            st[S.HAND_N + p] += 1
            mark_drawn(st, p, c, tr, trn)  # the chosen cards are drawn cards too
        shuffle(st, S.DECK + p * S.MAXC, st[S.DECK_N + p], rng)
    else:
        shuffle(st, S.DECK + p * S.MAXC, n, rng)
        draw_to_five(st, p, rng, tr, trn)


@kernel
def place_units(st, g, p):
    """Rule 3: p sets up its units in the 2 rows nearest its starting edge, one per square."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    rows0 = 6 if p == 0 else 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if units[u, S.UF_EXISTS] == 0:
            continue
        n = 0
        for r in range(rows0, rows0 + 2):
            for c in range(8):
                sq = r * 8 + c
                if st[S.OCC + sq] < 0 and tprops[st[S.TERR + sq], TP_ENTER] == 1:
                    n = D.add_option(opts, n, sq, u, 0, 0)
        if n == 0:
            raise ValueError("no square left to set up a unit")
        k = decide(st, g, p, D.D_PLACE, n)
        sq = opts[k, 0]
        st[S.OCC + sq] = u
        st[S.U_SQ + u] = sq
        st[S.U_STEP + u] = 2
        log(tr, trn, EV_SETUP, p, u, sq, 0, 0)
