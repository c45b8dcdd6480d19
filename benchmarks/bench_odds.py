"""Combat-odds benchmark: writes ``benchmarks/RESULTS-odds.md``.

Measures, in one run (every figure a ratio of timings taken in that run):

1. exact chart cells per second (:func:`manoeuvre_sim.manoeuvre.odds.odds_grid`, the printable chart's
   grid: 6 dice mixes x attacker base 0..12 x defense 3..16) against what a user of the
   alternatives would write for the same cells: icepool with one Die per dice mix and the
   comparisons per cell, and a plain-Python loop over numpy pmfs (one convolved pmf per
   mix, tail sums per cell); icepool rebuilding a Die for every cell is kept for reference;
2. Monte Carlo assault resolutions per second with the engine's kernel
   (:func:`manoeuvre_sim.manoeuvre.combat.simulate_assault`) on 1 and 2 threads, against a numpy
   vectorised Monte Carlo that maps totals to bands with a lookup table (``np.select`` kept
   for reference).

Run: ``.venv/bin/python benchmarks/bench_odds.py [--quick]``. A benchmark, not a test: the
figures depend on the machine and are recorded, not asserted (pytest collects only
``tests/``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import time
from pathlib import Path

import icepool
import numba
import numpy as np

from manoeuvre_sim import __version__
from manoeuvre_sim.manoeuvre import combat
from manoeuvre_sim.manoeuvre import odds as O

OUT = Path(__file__).with_name("RESULTS-odds.md")
MIXES = O.DEFAULT_MIXES
STRENGTHS = list(range(13))
DEFENSES = list(range(3, 17))


def best_of(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _bands_from_ge(ge):
    """P(total >= 0, >= d, > d, >= 2d, >= 3d, >= 4d) -> the six exclusive bands."""
    ge = [*ge, 0.0]
    return [float(ge[k] - ge[k + 1]) for k in range(6)]


def icepool_cells_per_cell(cells):
    """Band probabilities of each (mix, base, defense), a new icepool Die for every cell."""
    out = []
    for mix, base, d in cells:
        die = icepool.Die([base])
        for dice in O.parse_mix(mix):
            die = die + (dice.count @ icepool.d(dice.sides))
        ge = [1.0] + [(die >= t).probability(True) for t in (d, d + 1, 2 * d, 3 * d, 4 * d)]
        out.append(_bands_from_ge(ge))
    return out


def icepool_cells(cells):
    """The same cells as an icepool user would write them: one Die per dice mix, then the
    five comparisons per cell (``die >= t - base``)."""
    dies, out = {}, []
    for mix, base, d in cells:
        die = dies.get(mix)
        if die is None:
            die = icepool.Die([0])
            for dice in O.parse_mix(mix):
                die = die + (dice.count @ icepool.d(dice.sides))
            dies[mix] = die
        ts = (d, d + 1, 2 * d, 3 * d, 4 * d)
        out.append(_bands_from_ge([1.0] + [(die >= t - base).probability(True) for t in ts]))
    return out


def pmf_loop_cells(cells):
    """Plain Python over numpy pmfs: one convolved pmf per dice mix, then per cell the tail
    sums ``P(X >= t - base)`` (a suffix-sum array per mix, looked up per threshold)."""
    tails, out = {}, []
    for mix, base, d in cells:
        tail = tails.get(mix)
        if tail is None:
            pmf = np.ones(1)
            for dice in O.parse_mix(mix):
                for _ in range(dice.count):
                    pmf = np.convolve(pmf, np.r_[0.0, np.full(dice.sides, 1.0 / dice.sides)])
            tail = np.r_[np.cumsum(pmf[::-1])[::-1], 0.0]  # tail[k] = P(X >= k)
            tails[mix] = tail
        n, ge = len(tail) - 1, [1.0]
        for t in (d, d + 1, 2 * d, 3 * d, 4 * d):
            k = t - base
            ge.append(1.0 if k <= 0 else (float(tail[k]) if k <= n else 0.0))
        out.append(_bands_from_ge(ge))
    return out


def _numpy_totals(rng, k, base, dice_sides):
    a = np.full(k, base, dtype=np.int64)
    for s in dice_sides:
        a += rng.integers(1, s + 1, size=k)
    return a


def numpy_mc(n, base, dice_sides, defense, seed=1, batch=10_000_000):
    """Band counts of ``n`` assaults, vectorised numpy: the band of each total from a lookup
    table built once (``lut[total]``), then ``bincount``."""
    rng = np.random.default_rng(seed)
    d = defense
    t = np.arange(base + sum(dice_sides) + 1)
    lut = np.select([t >= 4 * d, t >= 3 * d, t >= 2 * d, t > d, t == d], [5, 4, 3, 2, 1], 0)
    counts = np.zeros(6, dtype=np.int64)
    done = 0
    while done < n:
        k = min(batch, n - done)
        counts += np.bincount(lut[_numpy_totals(rng, k, base, dice_sides)], minlength=6)
        done += k
    return counts


def numpy_mc_select(n, base, dice_sides, defense, seed=1, batch=10_000_000):
    """The same with ``np.select`` over the totals (slower; for reference)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(6, dtype=np.int64)
    done = 0
    while done < n:
        k = min(batch, n - done)
        a = _numpy_totals(rng, k, base, dice_sides)
        d = defense
        band = np.select(
            [a >= 4 * d, a >= 3 * d, a >= 2 * d, a > d, a == d], [5, 4, 3, 2, 1], default=0
        )
        counts += np.bincount(band, minlength=6)
        done += k
    return counts


def kernel_mc(n, base, dice, committed, defense, seed=1):
    counts, sides = O._dice_arrays(dice)
    return combat.simulate_assault(
        np.uint64(seed), n, base, counts, sides, len(dice), committed, defense, combat.DEFAULT_CHUNK
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sample sizes")
    args = ap.parse_args()
    n_mc = 20_000_000 if args.quick else 400_000_000
    n_np = 5_000_000 if args.quick else 40_000_000
    repeat = 3
    load_start = os.getloadavg()[0]

    # --- 1. exact chart cells ------------------------------------------------------------
    n_cells = len(MIXES) * len(STRENGTHS) * len(DEFENSES)
    O.odds_grid(MIXES, STRENGTHS, DEFENSES)  # warm the pmf cache as a chart run would
    t_ours = best_of(lambda: O.odds_grid(MIXES, STRENGTHS, DEFENSES), 20)
    cells = [(m, s, d) for m in MIXES for s in STRENGTHS for d in DEFENSES]
    _, grid = O.odds_grid(MIXES, STRENGTHS, DEFENSES)
    idx = {c: (MIXES.index(c[0]), STRENGTHS.index(c[1]), DEFENSES.index(c[2])) for c in cells}

    def max_err(ref, sub):
        return max(
            float(np.max(np.abs(grid[idx[c]] - np.array(r)))) for c, r in zip(sub, ref, strict=True)
        )

    # the fair baselines time the whole chart (dies / pmfs built inside the timing)
    icepool_cells(cells[:20])  # warm icepool's own caches (d6, d8, ... and their sums)
    t_ice = best_of(lambda: icepool_cells(cells), repeat)
    t_pmf = best_of(lambda: pmf_loop_cells(cells), repeat)
    err_ice = max_err(icepool_cells(cells), cells)
    err_pmf = max_err(pmf_loop_cells(cells), cells)
    # a Die per cell is slow: a sample of cells, extrapolated
    sub = cells[:: max(1, len(cells) // (60 if args.quick else 300))]
    icepool_cells_per_cell(sub[:5])
    t_ice_cell = best_of(lambda: icepool_cells_per_cell(sub), 1)
    ours_cps = n_cells / t_ours
    ice_cps = n_cells / t_ice
    pmf_cps = n_cells / t_pmf
    ice_cell_cps = len(sub) / t_ice_cell

    # --- 2. Monte Carlo resolutions per second ----------------------------------------------
    dice = O.as_dice(["2d8"])
    kernel_mc(1000, 8, dice, 0, 12)  # compile / load cache
    rates = {}
    old = numba.get_num_threads()
    for th in (1, 2):
        numba.set_num_threads(min(th, numba.config.NUMBA_NUM_THREADS))
        t = best_of(lambda: kernel_mc(n_mc, 8, dice, 0, 12), repeat)
        rates[th] = n_mc / t
    heavy = O.as_dice(["2d10", "1d6"])
    t = best_of(lambda: kernel_mc(n_mc // 4, 6, heavy, 1, 12), repeat)
    rate_heavy = (n_mc // 4) / t
    numba.set_num_threads(old)
    numpy_mc(1000, 8, [8, 8], 12)
    t_np = best_of(lambda: numpy_mc(n_np, 8, [8, 8], 12), repeat)
    np_rate = n_np / t_np
    t_sel = best_of(lambda: numpy_mc_select(n_np, 8, [8, 8], 12), repeat)
    sel_rate = n_np / t_sel
    np_check = numpy_mc(n_np, 8, [8, 8], 12) / n_np
    check = kernel_mc(n_mc, 8, dice, 0, 12) / n_mc
    exact = O.assault_odds(O.build_attack(8, ["2d8"]), 12).probs

    load_end = os.getloadavg()[0]
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass

    def ok(c):
        return "met" if c else "**not met**"

    lines = [
        "# Combat-odds benchmark",
        "",
        f"Written by `benchmarks/bench_odds.py` on {dt.date.today().isoformat()}: "
        f"manoeuvre-sim {__version__}, numba {numba.__version__}, numpy {np.__version__}, "
        f"icepool {icepool.__version__}; {cpu}, {os.cpu_count()} logical CPUs"
        + (" (quick run)" if args.quick else "")
        + ".",
        "",
        f"1-minute load average {load_start:.2f} at the start, {load_end:.2f} at the end: other "
        "processes on the machine share its cores, so the 2-thread figures are only clean when "
        "both are near 0.",
        "",
        "## Exact chart cells",
        "",
        f"The printable chart's grid: {len(MIXES)} dice mixes ({', '.join(MIXES)}) x attacker "
        f"base {STRENGTHS[0]}..{STRENGTHS[-1]} x defense {DEFENSES[0]}..{DEFENSES[-1]} = "
        f"{n_cells} cells, six band probabilities each.",
        "",
        "| method | cells/s | whole chart | `odds_grid` is faster by |",
        "|---|---:|---:|---:|",
        f"| `odds.odds_grid` (numpy prefix sums of convolved pmfs) | {ours_cps:,.0f} | "
        f"{1e3 * t_ours:.2f} ms | 1x |",
        f"| icepool {icepool.__version__}, one Die per dice mix, 5 comparisons per cell | "
        f"{ice_cps:,.0f} | {1e3 * t_ice:,.1f} ms | {ours_cps / ice_cps:,.0f}x |",
        f"| plain Python over numpy pmfs (a convolved pmf and its tail sums per mix, 5 "
        f"look-ups per cell) | {pmf_cps:,.0f} | {1e3 * t_pmf:,.1f} ms | "
        f"{ours_cps / pmf_cps:,.0f}x |",
        f"| icepool, a new Die for every cell (for reference; {len(sub)} cells timed) | "
        f"{ice_cell_cps:,.0f} | {1e3 * n_cells / ice_cell_cps:,.0f} ms (extrapolated) | "
        f"{ours_cps / ice_cell_cps:,.0f}x |",
        "",
        f"Goal >= 100x icepool: {ours_cps / ice_cps:,.0f}x against icepool used as its users "
        f"would (a Die per dice mix), {ok(ours_cps / ice_cps >= 100)} (the earlier figure, "
        f"{ours_cps / ice_cell_cps:,.0f}x, was against a Die rebuilt for every cell). Against "
        f"the plain-Python pmf loop, which the goal did not name, `odds_grid` is "
        f"{ours_cps / pmf_cps:,.0f}x faster: 100x against it would be "
        f"{ok(ours_cps / pmf_cps >= 100)} — most of the lead over icepool is icepool's "
        "per-call overhead, not a better algorithm (all three compute exact tail probabilities). Whole "
        f"chart under a second: {ok(t_ours < 1)}. Largest difference on the whole grid: "
        f"icepool {err_ice:.1e}, pmf loop {err_pmf:.1e}. Timings best of {repeat} (icepool "
        "per cell: one pass).",
        "",
        "## Monte Carlo assault resolutions",
        "",
        f"8 + 2d8 against 12 (`combat.simulate_assault`, chunks of {combat.DEFAULT_CHUNK:,}, "
        f"{n_mc:,} resolutions, best of {repeat}):",
        "",
        "| method | resolutions/s |",
        "|---|---:|",
        f"| numba kernel, 1 thread | {rates[1] / 1e6:,.0f} M |",
        f"| numba kernel, 2 threads | {rates[2] / 1e6:,.0f} M |",
        f"| numpy vectorised (`default_rng().integers`, a band lookup table `lut[total]`, "
        f"`bincount`; batches of 1e7; {n_np:,} resolutions) | {np_rate / 1e6:,.1f} M |",
        f"| numpy vectorised with `np.select` instead of the lookup table (for reference) | "
        f"{sel_rate / 1e6:,.1f} M |",
        f"| numba kernel, 2 threads, 6 + 2d10 + 1d6 + Committed Attack (5 dice) | "
        f"{rate_heavy / 1e6:,.0f} M |",
        "",
        f"Goal >= 200 M/s on 2 threads: {ok(rates[2] >= 200e6)}; goal >= 5x numpy (with the "
        f"lookup table): {rates[2] / np_rate:,.1f}x on 2 threads, "
        f"{ok(rates[2] >= 5 * np_rate)}; on 1 thread {rates[1] / np_rate:,.1f}x (numpy runs on "
        f"one core). The lookup table makes numpy {np_rate / sel_rate:,.1f}x faster than "
        f"`np.select`. Thread scaling 1 -> 2: {rates[2] / rates[1]:.2f}x.",
        "",
        "Check of the simulated run against the exact odds (band: simulated / exact):",
        "",
        "| band | kernel | numpy (lookup table) | exact |",
        "|---|---:|---:|---:|",
        *[
            f"| {b} | {s:.6f} | {q:.6f} | {e:.6f} |"
            for b, s, q, e in zip(combat.BAND_NAMES, check, np_check, exact, strict=True)
        ],
        "",
        "How the kernel gets its speed: one xoshiro256** output feeds two dice (top and bottom "
        "32 bits, Lemire multiply-shift), the band of each attack total comes from a lookup "
        "table built once with `assault_band`, nothing is allocated per resolution, and "
        "`prange` runs independently seeded chunks (the counts are identical on any thread "
        "count).",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
