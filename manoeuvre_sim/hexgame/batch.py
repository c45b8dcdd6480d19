"""Many games of Maneuver, one record per game, the same whatever the threads.

Game ``i`` of master seed ``seed`` draws from three xoshiro256** streams seeded from
``(seed, 3 i + k)`` alone: ``k = 0`` the dice (and the first player's draw), ``1`` blue's
player, ``2`` red's player. Games are split into one contiguous range per thread
(``numba.get_num_threads()``), each played by a compiled kernel that releases the GIL, as
Manoeuvre's ``engine/batch.py`` does.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import seed_state
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.players import policy_arrays
from manoeuvre_sim.hexgame.search import play_game

# --- one record per game: ndarray(int32, (n_games, NREC)); "_b" blue, "_r" red ------------
R_FIRST = 0  # side that moved first (0 blue)
R_WINNER = 1  # 0 blue, 1 red, 2 draw
R_VICTORY = 2  # state.VIC_*
R_TURNS = 3  # game turns played
R_FELL = 4  # + side: first game turn that side's Capital fell (0 never)
R_CAPTURES = 6  # + side: times that side's Capital was captured
R_NO_MARGIN = 8  # + side: victory checks that side held the enemy Capital short of the margin
R_UNITS = 10  # + side: combat units on the map at the end
R_ELIM = 12  # + side: units eliminated
R_REPL = 14  # + side: replacements received
R_COMBATS = 16  # + side: attacks made
R_CAPTURED = 18  # + side: that side's Capital captured at the end
R_VIOLATIONS = 20  # invariants broken (checks.CHK_* bits; only with the O_CHECK option)
R_CAP_HEX = 21  # + side: the hex that side's Capital was set up on, as CCRR (0101 = 101)
NREC = 23


@kernel
def record(st, g, out):
    out[R_FIRST] = st[S.FIRST]
    out[R_WINNER] = st[S.WINNER]
    out[R_VICTORY] = st[S.VICTORY]
    out[R_TURNS] = st[S.TURN]
    for s in range(2):
        out[R_FELL + s] = st[S.CAP_FELL + s]
        out[R_CAPTURES + s] = st[S.CAPTURES + s]
        out[R_NO_MARGIN + s] = st[S.NO_MARGIN + s]
        out[R_UNITS + s] = B.combat_units_on_map(st, s)
        out[R_ELIM + s] = st[S.ELIM + s]
        out[R_REPL + s] = st[S.REPL + s]
        out[R_COMBATS + s] = st[S.COMBATS + s]
        out[R_CAPTURED + s] = st[S.CAP_CAPTURED + s]
    out[R_VIOLATIONS] = st[S.VIOLATIONS]
    columns = g.nbr[0, 5]  # hex 0's neighbour below it is hex ``columns`` (odd-q, row 1)
    for s in range(2):
        h = st[S.CAP_HOME + s]
        out[R_CAP_HEX + s] = (h % columns + 1) * 100 + h // columns + 1 if h >= 0 else 0


@kernel
def seed_game(seed, game, rngs):
    for k in range(3):
        seed_state(np.uint64(seed), np.uint64(3 * game + k), rngs[k])


@kernel(nogil=True)
def play_range(seed, first_game, lo, hi, st, g, out):
    """Games ``first_game + lo .. first_game + hi - 1`` of ``seed`` into ``out[lo:hi]``."""
    for k in range(lo, hi):
        S.clear_state(st, g.units)
        seed_game(seed, first_game + k, g.rngs)
        g.trn[0] = 0
        play_game(st, g)
        record(st, g, out[k])


def play_games(seed, first_game, n, packed, opt, pol, params, threads=None):
    """Records (int32, (n, NREC)) of games ``first_game .. first_game + n - 1`` of
    ``seed``, on ``threads`` threads (numba's count when None)."""
    out = np.zeros((n, NREC), dtype=np.int32)
    threads = max(1, min(threads or nb.get_num_threads(), n))
    bounds = [n * i // threads for i in range(threads + 1)]

    def run(i):
        g = S.new_context(packed, opt, pol, params)
        st = np.zeros(S.STATE_SIZE, dtype=np.int32)
        play_range(seed, first_game, bounds[i], bounds[i + 1], st, g, out)

    if threads == 1:
        run(0)
    else:
        with ThreadPoolExecutor(threads) as pool:
            for f in [pool.submit(run, i) for i in range(threads)]:
                f.result()
    return out


def play_one(seed, game, packed, opt, pol, params, trace_rows=20000):
    """Game ``game`` of ``seed`` with its event trace: ``(state, trace)``; the same game as
    in :func:`play_games`."""
    g = S.new_context(packed, opt, pol, params, trace_rows)
    st = np.zeros(S.STATE_SIZE, dtype=np.int32)
    play_range(seed, game, 0, 1, st, g, np.zeros((1, NREC), dtype=np.int32))
    return st, g.tr[: g.trn[0]].copy()


# The invariant runs (tests/hexgame/test_hex_games.py, ``python -m benchmarks hex``): random players on
# both seats, the games spread over the border lines and the advanced-rule options.
INVARIANT_SPREAD = (
    ("basic", {}),
    ("large_blue", {}),
    ("large_red", {}),
    ("basic", {"step_losses": 1}),
    ("large_blue", {"step_losses": 1, "step_repl": 1}),
    ("large_red", {"quality": (16, 3)}),
    ("basic", {"captured_zoc": 1, "retreat_apart": 1}),
    ("basic", {"step_losses": 1, "step_repl": 1, "quality": (2, 5), "captured_zoc": 1}),
)


def invariant_run(sc, seed, n_per, threads=None, policies=("random", "random")):
    """Play ``n_per`` checked games of ``seed`` per row of ``INVARIANT_SPREAD`` (row ``k``
    plays games ``k * n_per ..``): ``[(border, options, records), ...]``."""
    pol, params = policy_arrays(*policies)
    out = []
    for k, (border, kw) in enumerate(INVARIANT_SPREAD):
        opt = S.default_options(check=1, **kw)
        rec = play_games(seed, k * n_per, n_per, SC.pack(sc, border), opt, pol, params, threads)
        out.append((border, kw, rec))
    return out
