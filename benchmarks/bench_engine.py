"""Engine benchmark: full games per second (random-legal and simple policies, 1 and 2
threads) and the plain-Python ratio. Writes benchmarks/RESULTS-engine.md.

    .venv/bin/python benchmarks/bench_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

POLICIES = ("random", "simple", DEFAULT_POLICY)  # the default style (bench_players.py)
KEEP_SECTIONS = ("Invariant run", "Before and after", "Decisions of the default player")
N_PY = 20  # games played as plain Python

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    args = ap.parse_args()
    import numba

    from manoeuvre_sim import __version__
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare, simulate

    load0 = os.getloadavg()[0]
    rows = []
    for pol in POLICIES:
        simulate(
            SimConfig("France", "Russia", games=64, seed=1, policy_a=pol, policy_b=pol)
        )  # compile
        for threads in (1, 2):
            cfg = SimConfig(
                "France",
                "Russia",
                games=args.games,
                seed=2,
                policy_a=pol,
                policy_b=pol,
                threads=threads,
                chunk=4096,
            )
            t = time.perf_counter()
            res = simulate(cfg)
            dt = time.perf_counter() - t
            turns = res.records[:, 3].mean()
            rows.append((pol, threads, args.games / dt, turns))
    # plain Python against numba on the SAME games (the first N_PY of the rows' seed), one
    # thread, per game and per game turn (games differ in length between policies)
    py = {}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    for pol in POLICIES:
        out = subprocess.run(
            [sys.executable, "-c", PY_SNIPPET.format(n=N_PY, pol=pol)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        secs, turns = out.stdout.strip().splitlines()[-1].split()
        cfg = SimConfig("France", "Russia", games=N_PY, seed=2, policy_a=pol, policy_b=pol,
                        threads=1)  # fmt: skip
        prepared = prepare(cfg)  # the data are loaded once, as in the plain-Python loop
        res = simulate(cfg, prepared=prepared)
        assert int(res.records[:, 3].sum()) == int(turns), "plain Python played other games"
        reps = 200
        t = time.perf_counter()
        for _ in range(reps):
            simulate(cfg, prepared=prepared)
        nb_secs = (time.perf_counter() - t) / reps
        py[pol] = (float(secs), int(turns), nb_secs)
    load1 = os.getloadavg()[0]
    lines = [
        "# Engine benchmark",
        "",
        f"Written by `benchmarks/bench_engine.py` on {datetime.date.today()}: manoeuvre-sim {__version__}, "
        f"numba {numba.__version__}, {platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs. "
        f"France vs Russia, {args.games} games per row, no trace, no invariant checks. "
        f"1-minute load average {load0:.2f} at the start, {load1:.2f} at the end.",
        "",
        "| policies | threads | games/s | mean game turns |",
        "|---|---:|---:|---:|",
    ]
    for pol, th, gps, turns in rows:
        lines.append(f"| {pol} vs {pol} | {th} | {gps:,.0f} | {turns:.1f} |")
    lines += [
        "",
        f"Plain Python (`NUMBA_DISABLE_JIT=1`, the same kernels) against numba on one thread, "
        f"on the same {N_PY} games (games 0..{N_PY - 1} of the rows' seed; numba timed over "
        "200 repetitions of them, through `simulate`), measured in the same run:",
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
        f"Goal (issue 13): the default player ({DEFAULT_POLICY}) at 10,000 games/s on 2 threads and "
        f"5,000 on 1 — measured {bal[2]:,.0f} and {bal[1]:,.0f}: "
        + ("**met**." if met else "**not met**."),
    ]
    out_path = Path(__file__).with_name("RESULTS-engine.md")
    # keep the sections other benchmarks write into the same file (bench_invariants.py)
    kept = ""
    if out_path.exists():
        old = out_path.read_text(encoding="utf-8")
        i = old.find("\n## ")
        while i >= 0 and not old[i + 4 :].startswith(KEEP_SECTIONS):
            i = old.find("\n## ", i + 1)
        kept = old[i:] if i >= 0 else ""
    out_path.write_text("\n".join(lines) + "\n" + kept, encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
