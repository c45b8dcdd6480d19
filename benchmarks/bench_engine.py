"""Manoeuvre's engine: full games per second per player on 1 and 2 threads, numba against plain Python.

France vs Russia, the same player on both seats (random, simple and the default player),
no trace, no invariant checks; then the first games of the same seed played as plain
Python (``NUMBA_DISABLE_JIT=1``, the same kernels, a subprocess) against numba on one
thread, per game turn (games differ in length between players). Issue 13's goal: the
default player at 10,000 games/s on 2 threads and 5,000 on 1.

    python -m benchmarks engine [--quick] [--games N] [--py-games N] [--reps N]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from benchmarks.common import Parser, Run
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

POLICIES = ("random", "simple", DEFAULT_POLICY)  # the default style (bench_players.py)

PY_SNIPPET = """
import time
import numpy as np
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.game import play_game
from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options
cfg = SimConfig("France", "Russia", games=1, seed=2, policy_a="{pol}", policy_b="{pol}")
_, _, P = prepare(cfg)  # the data is loaded once, as in simulate: only games are timed
pol, params = policy_arrays(cfg)
opt = rule_options(cfg)
tr = np.zeros((0, 6), dtype=np.int32)
turns = 0
t = time.perf_counter()
for g in range({n}):  # games 0..n-1 of seed 2: the first games of the numba rows
    st = S.new_state()
    play_game(st, P.tables, pol, params, new_state(2, g), opt, tr, np.zeros(1, np.int32))
    turns += int(st[S.TURN])
print(time.perf_counter() - t, turns)
"""


def games_per_second(games: int) -> list[tuple[str, int, float, float]]:
    """``[(policy, threads, games/s, mean game turns), ...]``."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    rows = []
    for pol in POLICIES:
        simulate(SimConfig("France", "Russia", games=64, seed=1, policy_a=pol, policy_b=pol))
        for threads in (1, 2):
            cfg = SimConfig("France", "Russia", games=games, seed=2, policy_a=pol, policy_b=pol,
                            threads=threads, chunk=4096)  # fmt: skip
            t = time.perf_counter()
            res = simulate(cfg)
            dt = time.perf_counter() - t
            rows.append((pol, threads, games / dt, float(res.records[:, 3].mean())))
    return rows


def plain_python(n_py: int, reps: int) -> dict[str, tuple[float, int, float]]:
    """Plain Python against numba on the same games (the first ``n_py`` of the rows' seed),
    one thread: ``{policy: (plain seconds, game turns, numba seconds)}``."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare, simulate

    py = {}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    for pol in POLICIES:
        out = subprocess.run(
            [sys.executable, "-c", PY_SNIPPET.format(n=n_py, pol=pol)],
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        secs, turns = out.stdout.strip().splitlines()[-1].split()
        cfg = SimConfig("France", "Russia", games=n_py, seed=2, policy_a=pol, policy_b=pol,
                        threads=1)  # fmt: skip
        prepared = prepare(cfg)  # the data are loaded once, as in the plain-Python loop
        res = simulate(cfg, prepared=prepared)
        assert int(res.records[:, 3].sum()) == int(turns), "plain Python played other games"
        t = time.perf_counter()
        for _ in range(reps):
            simulate(cfg, prepared=prepared)
        py[pol] = (float(secs), int(turns), (time.perf_counter() - t) / reps)
    return py


def report(rows, py, args) -> list[str]:
    lines = [
        f"France vs Russia, {args.games:,} games per row, no trace, no invariant checks.",
        "",
        "| policies | threads | games/s | mean game turns |",
        "|---|---:|---:|---:|",
    ]
    for pol, th, gps, turns in rows:
        lines.append(f"| {pol} vs {pol} | {th} | {gps:,.0f} | {turns:.1f} |")
    lines += [
        "",
        f"Plain Python (`NUMBA_DISABLE_JIT=1`, the same kernels) against numba on one thread, "
        f"on the same {args.py_games} games (games 0..{args.py_games - 1} of the rows' seed; "
        f"numba timed over {args.reps} repetitions of them, through `simulate`), measured in "
        "the same run:",
        "",
        "| policies | game turns | plain Python µs per game turn | numba µs per game turn "
        "| numba / plain Python |",
        "|---|---:|---:|---:|---:|",
    ]
    for pol in POLICIES:
        secs, turns, nb_secs = py[pol]
        lines.append(
            f"| {pol} vs {pol} | {turns} | {1e6 * secs / turns:,.0f} | "
            f"{1e6 * nb_secs / turns:,.1f} | {secs / nb_secs:,.0f}x |"
        )
    bal = {t: g for p, t, g, _ in rows if p == DEFAULT_POLICY}
    met = bal[2] >= 10_000 and bal[1] >= 5_000
    lines += [
        "",
        f"Goal (issue 13): the default player ({DEFAULT_POLICY}) at 10,000 games/s on 2 threads "
        f"and 5,000 on 1 — measured {bal[2]:,.0f} and {bal[1]:,.0f}: "
        + ("**met**." if met else "**not met**."),
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 20_000, 2_000, "games per games/s row")
    ap.size("--py-games", 20, 3, "games played as plain Python")
    ap.size("--reps", 200, 20, "numba repetitions of those games")
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    rows = games_per_second(args.games)
    py = plain_python(args.py_games, args.reps)
    run.write(run.header("Engine benchmark") + report(rows, py, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
