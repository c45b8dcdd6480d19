"""Set-up (rule 3): the map from four sections, the deal (or the tournament hand) and the
placement of both armies.

Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from manoeuvre_sim.engine import decisions as D
from manoeuvre_sim.engine import state as S
from manoeuvre_sim.engine.board import TP_ENTER
from manoeuvre_sim.engine.checks import decide
from manoeuvre_sim.engine.rules import EV_MAP, EV_SETUP, draw_to_five, log, mark_drawn, shuffle
from manoeuvre_sim.rng import uniform_below


# ------------------------------------------------------------------------------------------
# set-up (rule 3)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
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
        st[S.MAP + pos] = section_numbers[k]
        st[S.MAP + 4 + pos] = rot
        log(tr, trn, EV_MAP, -1, section_numbers[k], rot, pos, 0)
        r0 = (pos // 2) * 4
        c0 = (pos % 2) * 4
        for r in range(4):
            for c in range(4):
                # clockwise rotation by `rot` quarter turns: dest (r, c) <- source cell
                sr, sc = r, c
                for _ in range(rot):
                    sr, sc = 3 - sc, sr
                st[S.TERR + (r0 + r) * 8 + c0 + c] = sections[k, sr * 4 + sc]


@nb.njit(cache=True)
def deal(st, g, p, tournament):
    """Shuffle p's deck and draw 5 (or choose 5 in the tournament option, rule 3)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
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


@nb.njit(cache=True)
def place_units(st, g, p):
    """Rule 3: p sets up its units in the 2 rows nearest its starting edge, one per square."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
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
                    opts[n, 0] = sq
                    opts[n, 1] = u
                    opts[n, 2] = 0
                    opts[n, 3] = 0
                    n += 1
        if n == 0:
            raise ValueError("no square left to set up a unit")
        k = decide(st, g, p, D.D_PLACE, n)
        sq = opts[k, 0]
        st[S.OCC + sq] = u
        st[S.U_SQ + u] = sq
        st[S.U_STEP + u] = 2
        log(tr, trn, EV_SETUP, p, u, sq, 0, 0)
