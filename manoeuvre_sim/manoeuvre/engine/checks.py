"""Every decision goes through ``decide``: the seat's policy picks an option index and an
illegal index raises. With the fair-play flag (tests) each decision is taken again on a
state whose hidden cards are scrambled (``fair_check``); ``check_invariants`` is the rule
invariant check run after every step when ``OPT_CHECK`` is set.

Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import next_u64, seed_state, uniform_below
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_ENTER
from manoeuvre_sim.manoeuvre.engine.options import (
    FLAG_FAIR_CHECK,
    FLAG_FOG_OWN_HAND,
    POL_FLAGS,
    POL_PLAN_DK,
    POL_PLAN_K,
    POL_PLAN_N,
    POL_PLAN_SEAT,
)
from manoeuvre_sim.manoeuvre.engine.rules import EV_DECLINE, is_decline, log

FOG_SEED = 0x9E3779B97F4A7C15  # master seed of fair_check's scrambling


@kernel
def decide(st, g, seat, dk, n):
    """Ask seat's policy to choose among ``opts[:n]``; an illegal answer raises.

    With ``pol[POL_FLAGS] & FLAG_FAIR_CHECK`` (tests), every decision is taken a second time
    on a copy of the state whose hidden cards are scrambled (``fair_check``).

    A planned decision (``pol[POL_PLAN_*]``, set by the search player's driver, which has
    taken it and checked its fair play itself) is answered from the plan, once."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    if pol[POL_PLAN_DK] == dk and pol[POL_PLAN_SEAT] == seat:
        if pol[POL_PLAN_N] != n:
            raise AssertionError("search: the planned decision has other options")
        pol[POL_PLAN_DK] = 0
        k = pol[POL_PLAN_K]
    else:
        fair = (pol[POL_FLAGS] & FLAG_FAIR_CHECK) != 0
        rng0 = stack_empty(4, np.uint64)  # the generator as the player found it
        if fair:
            for i in range(4):
                rng0[i] = rng[i]
        k = player(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n)
        if k < 0 or k >= n:
            raise ValueError("policy chose an option that is not legal")
        if fair:
            fair_check(st, g, seat, dk, n, k, rng0)
    if tr.shape[0] > 0 and n > 1 and is_decline(dk, opts, k):  # issue 30: the trace only
        log(tr, trn, EV_DECLINE, seat, dk, n - 1, opts[k, 1], opts[k, 2])
    return k


@kernel(nrt=True)
def fog_copy(st, dsize, pol, seat, dk, n):
    """A copy of ``st`` in which everything ``seat`` may not see is different: both draw
    piles (order and contents), both discard piles, the drawn/played records, and the
    opponent's hand unless a Scout/Spy revealed it (``REVEALED``). The fog uses its own
    generator, not the game's."""
    fog = st.copy()
    fr = np.zeros(4, dtype=np.uint64)  # the fog's own stream (rng.py), never the game's
    seed_state(np.uint64(FOG_SEED), np.uint64(st[S.TURN] * 1000003 + dk * 7919 + n), fr)
    for p in range(2):
        # the draw piles; the discard piles, which may not be searched; the drawn/played
        # records, which are the analysis's, not the players'
        for i in range(st[S.DECK_N + p]):
            fog[S.DECK + p * S.MAXC + i] = uniform_below(fr, dsize[p])
        for i in range(st[S.DISC_N + p]):
            fog[S.DISC + p * S.MAXC + i] = uniform_below(fr, dsize[p])
        for i in range(4):
            fog[S.DRAWN + p * 4 + i] = np.int32(next_u64(fr) >> np.uint64(33))
            fog[S.PLAYED + p * 4 + i] = np.int32(next_u64(fr) >> np.uint64(33))
    q = 1 - seat
    if (pol[POL_FLAGS] & FLAG_FOG_OWN_HAND) != 0:
        q = seat
    if st[S.REVEALED + seat] == 0 or q == seat:
        for i in range(st[S.HAND_N + q]):
            fog[S.HAND + q * S.HMAX + i] = uniform_below(fr, dsize[q])
    return fog


@kernel(nrt=True)  # it owns the fog copy
def fair_check(st, g, seat, dk, n, k, rng0):
    """Raise unless seat's policy takes the same decision on ``fog_copy(st)``."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    fog = fog_copy(st, dsize, pol, seat, dk, n)
    k2 = player(fog, units, cards, tprops, uowner, pol, params, rng0, opts, cb, seat, dk, n)
    if k2 != k:
        raise AssertionError("fair play: a decision depends on cards the player may not see")


@kernel
def check_invariants(st, dsize, tprops):
    """Raise if the state breaks a rule invariant (used by tests and OPT_CHECK)."""
    for p in range(2):
        tot = (
            st[S.DECK_N + p]
            + st[S.HAND_N + p]
            + st[S.DISC_N + p]
            + st[S.TABLE_N + p]
            + st[S.OUT_N + p]
        )
        if tot != dsize[p]:
            raise AssertionError("card conservation broken")
        if st[S.HAND_N + p] > S.HMAX:
            raise AssertionError("hand overflow")
    alive = 0
    for u in range(S.NUNITS):
        sq = st[S.U_SQ + u]
        if st[S.U_STEP + u] > 0:
            if sq < 0 or st[S.OCC + sq] != u:
                raise AssertionError("unit and board disagree")
            if tprops[st[S.TERR + sq], TP_ENTER] == 0:
                raise AssertionError("unit on a lake")
            alive += 1
        elif sq != -1:
            raise AssertionError("eliminated unit on the board")
    on_board = 0
    for sq in range(64):
        u = st[S.OCC + sq]
        if u >= 0:
            on_board += 1
            if st[S.U_SQ + u] != sq:
                raise AssertionError("board and unit disagree")
        elif st[S.REDOUBT + sq] != 0:
            raise AssertionError("redoubt without a unit")
    if on_board != alive:
        raise AssertionError("unit count mismatch")
