"""Many games in parallel: one compact record per game, independent of thread count.

The batch functions (``play_games``, ``play_games_cards``, ``play_games_search``) split the
games into one contiguous range per thread (``numba.get_num_threads()``) and play each
range with a compiled kernel (``play_range*``) on a Python thread; the kernels release the
GIL. The parallel driver is thus plain Python and the game is compiled once, in the range
kernels, rather than again inside a ``prange`` function (issue 13: that driver was the
costliest compile of all). Game i's RNG is seeded from (seed, i) alone, so any thread
count or chunking gives the same records.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import seed_state
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.cardstats import scan_trace
from manoeuvre_sim.manoeuvre.engine.game import play_game
from manoeuvre_sim.manoeuvre.engine.search import play_game_search

# --- one record per game: ndarray(int32, (n_games, NREC)) ---------------------------------
R_FIRST = 0  # first player (0 = army A)
R_WINNER = 1  # 0 army A, 1 army B, -1 draw
R_VICTORY = 2  # VICTORY_* code
R_TURNS = 3  # game turns played
R_ELIM_A = 4  # units of army A eliminated
R_ELIM_B = 5
R_RED_A = 6  # units of army A at reduced strength at the end
R_RED_B = 7
R_VP_A = 8  # nightfall control points (0 after an attrition victory)
R_VP_B = 9
R_MAP = 10  # 4 section numbers (NW NE SW SE), then R_MAP + 4: their rotations
R_TIEBREAK = 18
R_TURN_LIMIT = 19
R_COMBATS_A = 20
R_COMBATS_B = 21
R_ASSAULTS_A = 22
R_ASSAULTS_B = 23
R_CARDS_A = 24  # cards played
R_CARDS_B = 25
R_DRAWN = 26  # 2 x 4 words: 128-bit sets of card copies drawn, army A then B
R_PLAYED = 34  # 2 x 4 words: card copies played
NREC = 42


@kernel
def _record(st, out):
    out[R_FIRST] = st[S.FIRST]
    out[R_WINNER] = st[S.WINNER]
    out[R_VICTORY] = st[S.VICTORY]
    out[R_TURNS] = st[S.TURN]
    out[R_ELIM_A] = st[S.ELIM]
    out[R_ELIM_B] = st[S.ELIM + 1]
    ra = 0
    rb = 0
    for u in range(S.NUNITS):
        if st[S.U_STEP + u] == 1:
            if u < S.MAXU_SIDE:
                ra += 1
            else:
                rb += 1
    out[R_RED_A] = ra
    out[R_RED_B] = rb
    out[R_VP_A] = st[S.VP]
    out[R_VP_B] = st[S.VP + 1]
    for i in range(8):
        out[R_MAP + i] = st[S.MAP + i]
    out[R_TIEBREAK] = st[S.TIEBREAK]
    out[R_TURN_LIMIT] = st[S.TURN_LIMIT_HIT]
    out[R_COMBATS_A] = st[S.COMBATS]
    out[R_COMBATS_B] = st[S.COMBATS + 1]
    out[R_ASSAULTS_A] = st[S.ASSAULTS]
    out[R_ASSAULTS_B] = st[S.ASSAULTS + 1]
    out[R_CARDS_A] = st[S.CARDS_PLAYED]
    out[R_CARDS_B] = st[S.CARDS_PLAYED + 1]
    for i in range(8):
        out[R_DRAWN + i] = st[S.DRAWN + i]
        out[R_PLAYED + i] = st[S.PLAYED + i]


@kernel(nrt=True, inline="always")
def _play_one(seed, game, tables, pol, params, opt, out, tr, trn):
    """Play game ``game`` of master ``seed`` into the record ``out`` (trace into ``tr``)."""
    st = np.empty(S.STATE_SIZE, dtype=np.int32)
    S.clear_state(st)
    rng = np.zeros(4, dtype=np.uint64)
    seed_state(np.uint64(seed), np.uint64(game), rng)
    play_game(st, tables, pol, params, rng, opt, tr, trn)
    _record(st, out)


def _split(n, run):
    """``run(lo, hi)`` over ``0..n`` in one contiguous range per thread (numba's thread
    count, set by ``numba.set_num_threads``), on Python threads; returns the results."""
    threads = max(1, min(nb.get_num_threads(), n))
    bounds = [n * i // threads for i in range(threads + 1)]
    if threads == 1:
        return [run(0, n)]
    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(run, bounds[i], bounds[i + 1]) for i in range(threads)]
        return [f.result() for f in futures]


@kernel(nrt=True, nogil=True)
def play_range(seed, first_game, lo, hi, tables, pol, params, opt, out):
    """Games ``first_game + lo .. first_game + hi - 1`` of master ``seed`` into
    ``out[lo:hi]``."""
    tr = np.zeros((0, 6), dtype=np.int32)
    trn = np.zeros(1, dtype=np.int32)
    for k in range(lo, hi):
        _play_one(seed, first_game + k, tables, pol, params, opt, out[k], tr, trn)


def play_games(seed, first_game, n, tables, pol, params, opt, out):
    """Play games ``first_game .. first_game + n - 1`` of master ``seed`` into ``out[:n]``
    (int32, (n, NREC)), on ``numba.get_num_threads()`` threads.

    Game i's RNG is seeded from (seed, i) alone, so any thread count or chunking gives the
    same records.
    """
    _split(n, lambda lo, hi: play_range(seed, first_game, lo, hi, tables, pol, params, opt, out))


TRACE_ROWS = 16384  # events one game may log when its card statistics are taken


@kernel(nrt=True, nogil=True)
def play_range_cards(seed, first_game, lo, hi, tables, pol, params, opt, out, cstats):
    """As :func:`play_range`, with each game's card statistics into ``cstats[lo:hi]``;
    returns the number of games whose trace overflowed."""
    tr = np.empty((TRACE_ROWS, 6), dtype=np.int32)
    trn = np.zeros(1, dtype=np.int32)
    overflow = 0
    for k in range(lo, hi):
        trn[0] = 0
        _play_one(seed, first_game + k, tables, pol, params, opt, out[k], tr, trn)
        scan_trace(tr, trn[0], cstats[k])
        if trn[0] >= TRACE_ROWS:
            overflow += 1
    return overflow


def play_games_cards(seed, first_game, n, tables, pol, params, opt, out, cstats):
    """As :func:`play_games` (the same games, the same records), and also each game's
    per-card-copy statistics into ``cstats[:n]`` (int32, (n, 2, n_cards, NCS), zeroed by
    the caller; ``engine/cardstats.py``) from its event trace. Returns the number of games
    whose trace overflowed ``TRACE_ROWS`` (their statistics are incomplete)."""
    return sum(
        _split(
            n,
            lambda lo, hi: play_range_cards(
                seed, first_game, lo, hi, tables, pol, params, opt, out, cstats
            ),
        )
    )


@kernel(nrt=True)
def _play_one_search(seed, game, tables, pol, params, scfg, opt, out, tr, trn):
    st = np.empty(S.STATE_SIZE, dtype=np.int32)
    S.clear_state(st)
    rng = np.zeros(4, dtype=np.uint64)
    seed_state(np.uint64(seed), np.uint64(game), rng)
    play_game_search(st, tables, pol.copy(), params, scfg, rng, opt, tr, trn)
    _record(st, out)


@kernel(nrt=True, nogil=True)
def play_range_search(seed, first_game, lo, hi, tables, pol, params, scfg, opt, out, cstats):
    """As :func:`play_range` with a search player in a seat; card statistics into
    ``cstats[lo:hi]`` when ``cstats.shape[2] > 0``. Returns the overflowed games."""
    want = cstats.shape[2] > 0
    rows = TRACE_ROWS if want else 0
    tr = np.empty((rows, 6), dtype=np.int32)
    trn = np.zeros(1, dtype=np.int32)
    overflow = 0
    for k in range(lo, hi):
        trn[0] = 0
        _play_one_search(seed, first_game + k, tables, pol, params, scfg, opt, out[k], tr, trn)
        if want:
            scan_trace(tr, trn[0], cstats[k])
            if trn[0] >= TRACE_ROWS:
                overflow += 1
    return overflow


def play_games_search(seed, first_game, n, tables, pol, params, scfg, opt, out, cstats):
    """As :func:`play_games` and :func:`play_games_cards` with a search player in a seat
    (``engine/search.py``; ``scfg``: its budget). Card statistics are taken when
    ``cstats.shape[2] > 0``; returns the number of games whose trace overflowed.

    A search game takes tens of milliseconds, some twice as long as others: the threads
    take the games one at a time as they come free (``_one_by_one``), not a range each, so
    none waits idle on another's longer range."""
    return sum(
        _one_by_one(
            n,
            lambda k: play_range_search(
                seed, first_game, k, k + 1, tables, pol, params, scfg, opt, out, cstats
            ),
        )
    )


def _one_by_one(n, run):
    """``run(k)`` for each game k of ``0..n`` on numba's thread count of Python threads,
    each taking the next game not yet taken when it is free; returns the results."""
    threads = max(1, min(nb.get_num_threads(), n))
    if threads == 1:
        return [run(k) for k in range(n)]
    games = iter(range(n))  # next() on it is atomic under the GIL: each game taken once

    def worker():
        return [run(k) for k in games]

    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(worker) for _ in range(threads)]
        return [x for f in futures for x in f.result()]
