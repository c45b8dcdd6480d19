"""Maneuver combat-odds benchmark (rules 001): writes ``benchmarks/RESULTS-hex-odds.md``.

Measures, in one run:

1. agreement of the exact odds (:func:`manoeuvre_sim.hexgame.odds.result_fractions`) with
   the engine's own roll (:func:`manoeuvre_sim.hexgame.crt.roll_combat`, through
   :func:`manoeuvre_sim.hexgame.odds.simulate`) for every difference of the printed chart,
   -8..+8, as the largest deviation in standard errors;
2. simulated combats per second (one thread: the simulator runs its RNG streams one after
   the other, so the counts depend on the seed alone), and exact odds per second.

Run: ``.venv/bin/python benchmarks/bench_hex_odds.py [--quick]``. A benchmark, not a test:
the figures depend on the machine and are recorded, not asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import time
from pathlib import Path

import numba
import numpy as np

from manoeuvre_sim import __version__
from manoeuvre_sim.hexgame import GAME_TITLE
from manoeuvre_sim.hexgame import odds as O
from manoeuvre_sim.hexgame.crt import RESULT_NAMES

OUT = Path(__file__).with_name("RESULTS-hex-odds.md")
DIFFERENCES = range(-8, 9)
DEFENCE = 8  # each difference is played as (8 + difference) against 8
SEED = 2026


def best_of(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10x fewer rolls")
    args = ap.parse_args()
    per_diff = 100_000 if args.quick else 1_000_000
    speed_n = 2_000_000 if args.quick else 20_000_000
    load0 = os.getloadavg()[0]

    O.simulate(O.combat_odds([4], [4]), 10, SEED)  # compile (or load) the kernel first
    rows, worst = [], (0.0, None)
    for i, diff in enumerate(DIFFERENCES):
        res = O.combat_odds([DEFENCE + diff], [DEFENCE])
        est = O.simulate(res, per_diff, SEED + i)  # independent rolls per row
        cells = []
        for r, p in enumerate(res.exact):
            p = float(p)
            sd = math.sqrt(p * (1 - p) / per_diff)
            if sd == 0:  # a certain or impossible result: rolled always, or never
                z = 0.0 if est.p[r] == p else math.inf
            else:
                z = (est.p[r] - p) / sd
            if abs(z) > abs(worst[0]):
                worst = (z, f"{diff:+d} {RESULT_NAMES[r]}")
            cells.append(f"{100 * p:.3f} / {100 * est.p[r]:.3f}")
        rows.append(f"| {diff:+d} | " + " | ".join(cells) + " |")

    res = O.combat_odds([6], [4])
    t_sim = best_of(lambda: O.simulate(res, speed_n, SEED), 3)
    n_exact = 20_000
    t_exact = best_of(lambda: [O.result_fractions(d % 21 - 10) for d in range(n_exact)], 3)
    t_combat = best_of(lambda: [O.combat_odds("4,3r", "5,1c", step_losses=True)
                                for _ in range(2_000)], 3)  # fmt: skip
    load1 = os.getloadavg()[0]

    lines = [
        "# Maneuver combat-odds benchmark",
        "",
        f"{GAME_TITLE}. Written by `benchmarks/bench_hex_odds.py` on {dt.date.today()}: "
        f"manoeuvre-sim {__version__}, numba {numba.__version__}, numpy {np.__version__}; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs.",
        "",
        f"1-minute load average {load0:.2f} at the start, {load1:.2f} at the end: other "
        "processes share the machine's cores, so the speeds are lower bounds.",
        "",
        "## Exact odds against the engine's roll",
        "",
        f"Each difference played as ({DEFENCE} + difference) against {DEFENCE}: "
        f"{per_diff:,} combats rolled with `crt.roll_combat` (seed {SEED} for -8, one more per "
        "row) beside the exact "
        "odds. Cells: exact % / simulated %.",
        "",
        "| difference | " + " | ".join(RESULT_NAMES) + " |",
        "|---:|" + "---:|" * len(RESULT_NAMES),
        *rows,
        "",
        f"Largest deviation: {worst[0]:+.2f} standard errors ({worst[1]}) over "
        f"{len(DIFFERENCES) * len(RESULT_NAMES)} cells; a result the exact odds call impossible "
        "was never rolled, and a certain one always rolled (either failing would read inf).",
        "",
        "## Speed",
        "",
        "| what | per second |",
        "|---|---:|",
        f"| simulated combats (`odds.simulate`, one thread, {speed_n:,} rolls, best of 3) | "
        f"{speed_n / t_sim / 1e6:,.0f} M |",
        f"| exact results of a difference (`result_fractions`, Fractions) | "
        f"{n_exact / t_exact:,.0f} |",
        f"| exact odds of an attack with its units' fates (`combat_odds`, 2 + 2 units, step "
        f"losses) | {2_000 / t_combat:,.0f} |",
        "",
        "The exact odds are sums of 1/36ths, so a chart or a command never needs the "
        "simulator; it is the check that the engine rolls what the odds say.",
        "",
    ]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
