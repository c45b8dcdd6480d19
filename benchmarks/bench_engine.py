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

PY_SNIPPET = """
import time
from manoeuvre_sim.engine.trace import play_traced
t = time.perf_counter()
n = 0
for g in range({n}):
    play_traced("France", "Russia", seed=9, game=g, policies=("{pol}", "{pol}"), check=False)
    n += 1
print(n / (time.perf_counter() - t))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    args = ap.parse_args()
    import numba

    from manoeuvre_sim import __version__
    from manoeuvre_sim.runner import SimConfig, simulate

    load0 = os.getloadavg()[0]
    rows = []
    for pol in ("random", "simple"):
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
    py = {}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    for pol in ("random", "simple"):
        out = subprocess.run(
            [sys.executable, "-c", PY_SNIPPET.format(n=5, pol=pol)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        py[pol] = float(out.stdout.strip().splitlines()[-1])
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
        "Plain Python (`NUMBA_DISABLE_JIT=1`, the same kernels), measured in the same run:",
        "",
        "| policies | games/s | numba 1 thread / plain Python |",
        "|---|---:|---:|",
    ]
    for pol in ("random", "simple"):
        one = next(g for p, t, g, _ in rows if p == pol and t == 1)
        lines.append(f"| {pol} vs {pol} | {py[pol]:.2f} | {one / py[pol]:,.0f}x |")
    Path(__file__).with_name("RESULTS-engine.md").write_text(
        "\n".join(lines) + "\n", encoding="utf-8"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
