"""Positions of self-play games for the learned value (issue 26): each game's features at
the start of every player turn, from both seats' sides, with the game's record.

``play_range_positions`` plays games ``lo..hi`` of a master seed as ``batch.play_games``
(game i's generator from (seed, i) alone: any thread count or chunking gives the same
rows) through the search driver's game (``search.play_search_game_rows``: a seat that does
not search plays its policy; one that does, searches), which writes, before each player turn of
p, two rows — seat 0's features and seat 1's (``features.features``, each reading only
what that seat sees), ``to_move`` = p — into ``x[k, j]`` with ``meta[k, j]`` = (seat, to
move, game turn), for the first ``MAX_ROWS // 2`` player turns of game k; ``nrows[k]``
says how many. The game's record (``batch._record``) goes to ``out[k]``: its winner is the
label (``manoeuvre_sim/manoeuvre/value_data.py``).
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import seed_state
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.batch import _record
from manoeuvre_sim.manoeuvre.engine.search import play_search_game_rows

MAX_ROWS = 160  # rows kept per game: the first 80 player turns (40 game turns)


@kernel(nrt=True, nogil=True)
def play_range_positions(seed, first_game, lo, hi, tables, pol, params, scfg, opt, out, x, meta,
                         nrows):  # fmt: skip
    """Games ``first_game + lo .. first_game + hi - 1`` of master ``seed``: records into
    ``out[lo:hi]``, rows into ``x[lo:hi]`` and ``meta[lo:hi]``, counts into ``nrows``."""
    tr = np.zeros((0, 6), dtype=np.int32)  # untraced
    trn = np.zeros(1, dtype=np.int32)
    for k in range(lo, hi):
        st = np.empty(S.STATE_SIZE, dtype=np.int32)
        S.clear_state(st)
        rng = np.zeros(4, dtype=np.uint64)
        seed_state(np.uint64(seed), np.uint64(first_game + k), rng)
        nrows[k] = play_search_game_rows(st, tables, pol.copy(), params, scfg, rng, opt, tr, trn,
                                         x[k], meta[k])  # fmt: skip
        _record(st, out[k])
