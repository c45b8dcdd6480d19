"""Sensitivity of the balance study to play strength (issue #16 item 6).

    .venv/bin/python benchmarks/bench_sensitivity.py \\
        [--policies random:200,simple:200,attritional:500,territorial:500,balanced:500,search:12]
        [--seed 1]

Runs the default balance study (the 8 base armies, every ordered pairing, both seats alike)
once per policy, each with its own games per ordered pairing (``POLICY:GAMES``: fewer for
the slow search player), and writes each army's field win rate with its 95 % interval and
rank per policy, and Kendall's tau between the policies' orderings of the armies, into the
section "Sensitivity to play strength" of benchmarks/RESULTS-players.md. The same figures
for equal game counts come from ``manoeuvre-sim balance --policies ...``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "RESULTS-players.md"
TITLE = "Sensitivity to play strength"
DEFAULT = "random:200,simple:200,attritional:500,territorial:500,balanced:500,search:12"


def main() -> None:
    from bench_search import replace_section

    from manoeuvre_sim.analyses.manoeuvre import balance as B
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default=DEFAULT, help="POLICY:GAMES,... (games per pairing)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    plan = []
    for item in args.policies.split(","):
        name, _, games = item.rpartition(":")
        plan.append((name, int(games)))
    armies = [a.name for a in load_builtin_armies()]
    frames, timing = [], []
    for name, games in plan:
        t0 = time.perf_counter()
        res = B.run(armies, games_per_pairing=games, policy=name, seed=args.seed)
        secs = time.perf_counter() - t0
        arm = res.armies.copy()
        arm["label"] = name
        frames.append(arm)
        timing.append((name, games, games * len(armies) ** 2, secs))
        print(f"{name}: {games} games per pairing, {secs:.0f} s", flush=True)
    arm = pd.concat(frames, ignore_index=True)
    styles, tau = B.style_sensitivity(arm)
    order = list(styles[styles["policy"] == plan[-2 if len(plan) > 1 else 0][0]]
                 .sort_values("rank")["army"])  # fmt: skip
    names = [n for n, _ in plan]
    lines = [
        f"Measured {datetime.date.today().isoformat()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, by `benchmarks/bench_sensitivity.py --policies "
        f"{args.policies} --seed {args.seed}`.",
        "",
        "The default balance study (every ordered pairing of the 8 base armies, both seats "
        "played by the policy named) under each policy, with its own number of games per "
        "ordered pairing (fewer for the slow search player). Field win rate in per cent, "
        "95 % interval in brackets (draws count half).",
        "",
        "| army | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for army in order:
        cells = []
        for n in names:
            r = styles[(styles["policy"] == n) & (styles["army"] == army)].iloc[0]
            cells.append(
                f"{100 * r.field_win_rate:.1f} [{100 * r.ci_low:.0f}, {100 * r.ci_high:.0f}]"
            )
        lines.append(f"| {army} | " + " | ".join(cells) + " |")
    lines += [
        "| games per pairing | " + " | ".join(f"{g}" for _, g in plan) + " |",
        "| seconds | " + " | ".join(f"{s:.0f}" for *_, s in timing) + " |",
        "",
        "Kendall's tau between the policies' orderings of the armies (1: the same order):",
        "",
        "| | " + " | ".join(f"`{n}`" for n in names[1:]) + " |",
        "|---|" + "---:|" * (len(names) - 1),
    ]
    for x in names[:-1]:
        cells = []
        for y in names[1:]:
            row = tau[(tau.policy_x == x) & (tau.policy_y == y)]
            cells.append(f"{row.tau.iloc[0]:.2f}" if len(row) else "")
        lines.append(f"| `{x}` | " + " | ".join(cells) + " |")
    replace_section(OUT, TITLE, "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
