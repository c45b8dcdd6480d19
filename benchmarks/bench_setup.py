"""Set-up benchmark: what the rule 3 set-up (``--setup rules``: the first player lays the map,
the second chooses its edge) changes against the default random draw, with the default
player on both seats.

* the default field (the 8 base armies, every ordered pairing): the first player's win rate
  over all games and each army's win rate against the field, under each set-up;
* France against Russia, both seatings: France's win rate and the first player's;
* which sections the players lay under the rules set-up (the random draw uses each section
  of the pool equally often).

95 % Wilson intervals (``manoeuvre_sim.core.stats``); a draw counts half. Writes
benchmarks/RESULTS-setup.md.

    .venv/bin/python benchmarks/bench_setup.py [--games-per-pairing 500] [--games 2000]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time
from collections import Counter
from pathlib import Path


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _ci(lo: float, hi: float) -> str:
    return f"[{_pct(lo)}, {_pct(hi)}]"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games-per-pairing", type=int, default=500, help="the field study")
    ap.add_argument("--games", type=int, default=2000, help="France-Russia, per seating")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    import numba

    from manoeuvre_sim import __version__
    from manoeuvre_sim.analyses.manoeuvre import balance as B
    from manoeuvre_sim.core.stats import wilson_interval
    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    load = os.getloadavg()[0]
    simulate(SimConfig("France", "Russia", games=20, setup="rules"))  # compile
    modes = ("random", "rules")
    armies = [a.name for a in load_builtin_armies()]
    field = {}
    seconds = {}
    for mode in modes:
        t0 = time.perf_counter()
        field[mode] = B.run(
            armies, args.games_per_pairing, seed=args.seed, options=RuleOptions(setup=mode)
        )
        seconds[mode] = time.perf_counter() - t0

    duel = {}
    for mode in modes:
        rows = []
        for a, b in (("France", "Russia"), ("Russia", "France")):
            cfg = SimConfig(a, b, games=args.games, seed=args.seed, setup=mode)
            res = simulate(cfg)
            rows.append(to_frame(res.records, res.manifest))
        duel[mode] = rows

    lines = [
        "# Set-up: rule 3 choices against the random draw",
        "",
        f"Written by `benchmarks/bench_setup.py` on {datetime.date.today().isoformat()}: "
        f"manoeuvre-sim {__version__} (rules {RULES_VERSION}), numba {numba.__version__}, "
        f"{platform.machine()}, {os.cpu_count()} logical CPUs; 1-minute load average "
        f"{load:.2f} at the start. Seed {args.seed}; the default player (`balanced`) on both "
        "seats. `random`: four distinct sections drawn with random rotations, army A at the "
        "bottom (the default); `rules`: the first player lays the map and the second player "
        "chooses its edge (README: Set-up). 95 % Wilson intervals; a draw counts half.",
        "",
        "## The default field",
        "",
        f"The 8 base armies, every ordered pairing (mirrors included), "
        f"{args.games_per_pairing:,} games each: {64 * args.games_per_pairing:,} games per "
        "set-up (`balance --setup random|rules`).",
        "",
        "| set-up | games | first player's win rate % | 95% CI | seconds |",
        "|---|---:|---:|---|---:|",
    ]
    for mode in modes:
        fp = field[mode].first_player
        row = fp[fp["army"] == "all games"].iloc[0]
        lines.append(
            f"| {mode} | {int(row.games_first):,} | {_pct(row.win_rate_first)} | "
            f"{_ci(row.ci_low_first, row.ci_high_first)} | {seconds[mode]:.0f} |"
        )
    lines += [
        "",
        "Each army's win rate against the field (mirrors excluded; normal interval from the "
        "cells' variances, as `armies.csv`) and its rank:",
        "",
        "| army | random % | 95% CI | rank | rules % | 95% CI | rank |",
        "|---|---:|---|---:|---:|---|---:|",
    ]
    ar = {m: field[m].armies.set_index("army") for m in modes}
    for army in ar["random"].sort_values("rank").index:
        cells = []
        for m in modes:
            r = ar[m].loc[army]
            cells += [_pct(r.field_win_rate), _ci(r.ci_low, r.ci_high), str(int(r["rank"]))]
        lines.append(f"| {army} | " + " | ".join(cells) + " |")

    lines += [
        "",
        "## France against Russia",
        "",
        f"{args.games:,} games with France as army A and {args.games:,} with Russia as army A "
        "(`simulate --setup random|rules`).",
        "",
        "| set-up | games | France's win rate % | 95% CI | first player's win rate % | 95% CI |",
        "|---|---:|---:|---|---:|---|",
    ]
    for mode in modes:
        fr = 0.0
        first = 0.0
        n = 0
        for df in duel[mode]:
            w = df["winner"].to_numpy()
            fside = "a" if df["army_a"].iloc[0] == "France" else "b"
            fr += float((w == fside).sum()) + 0.5 * float((w == "draw").sum())
            first += float((w == df["first_player"].to_numpy()).sum())
            first += 0.5 * float((w == "draw").sum())
            n += len(df)
        lo, hi = wilson_interval(fr, n)
        flo, fhi = wilson_interval(first, n)
        lines.append(
            f"| {mode} | {n:,} | {_pct(fr / n)} | {_ci(lo, hi)} | {_pct(first / n)} | "
            f"{_ci(flo, fhi)} |"
        )

    lines += [
        "",
        "## The sections the players lay",
        "",
        "How often each section is on the battlefield in the field study (share of games; "
        "under `random` each of the pool's sections is on about 4/21 = 19 % of battlefields).",
        "",
        "| section | random % | rules % |",
        "|---:|---:|---:|",
    ]
    counts = {}
    for m in modes:
        g = field[m].games
        c = Counter()
        for col in ("map_nw", "map_ne", "map_sw", "map_se"):
            c.update(g[col].tolist())
        counts[m] = (c, len(g))
    for s in sorted(set(counts["random"][0]) | set(counts["rules"][0])):
        lines.append(
            f"| {s} | "
            + " | ".join(_pct(counts[m][0].get(s, 0) / counts[m][1]) for m in modes)
            + " |"
        )
    n_rules = counts["rules"][1]
    top = Counter(
        tuple(sorted(r)) for r in field["rules"].games[["map_nw", "map_ne", "map_sw", "map_se"]]
        .to_numpy().tolist()
    ).most_common(3)  # fmt: skip
    lines += [
        "",
        "The most frequent sets of four sections under `rules`: "
        + "; ".join(f"{', '.join(map(str, k))} ({_pct(v / n_rules)} %)" for k, v in top)
        + ".",
        "",
    ]
    out = Path(__file__).with_name("RESULTS-setup.md")
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
