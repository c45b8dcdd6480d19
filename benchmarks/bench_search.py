"""The search player (issue #16): strength against its rollout style and speed, per budget.

    .venv/bin/python benchmarks/bench_search.py [--budgets 8,32,128] [--games 48] [--seed 1]
    .venv/bin/python benchmarks/bench_search.py --ladder 16 [--games 8]

For each budget, ``search:BUDGET`` (rollouts by ``balanced``) plays ``balanced`` with every
base army in a mirror match, in both seats, ``--games`` games per army and seat; the search
player's score (win 1, draw 1/2) is reported with a 95 % Wilson interval (draws counting
half), with games/s on all cores from the same run. Writes the section "Search
player" of benchmarks/RESULTS-players.md (other sections are kept).

With ``--ladder BUDGET``: ``search:BUDGET`` against every other policy the same way (the
ladder's row for the search player, which the tournament leaves out as too slow), into the
section "Ladder with the search player".

With ``--specs A,B,...`` (issue 26): each search spec against ``--opponent`` (default
``tuned``) the same way, on the same seeds (paired: the first spec is the baseline of the
paired differences), with games/s from the same run and the load average, into the section
"Value search: speed and strength" (``--title`` to name another).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "RESULTS-players.md"
TITLE = "Search player"
VALUE_TITLE = "Value search: speed and strength"
LADDER_TITLE = "Ladder with the search player"


def replace_section(path: Path, title: str, body: str) -> None:
    """Write ``## title`` + body into ``path``, replacing that section if present (up to
    the next ``## `` heading or ``<!-- `` marker) and keeping everything else."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    head = f"## {title}\n"
    block = head + "\n" + body.strip("\n") + "\n"
    i = text.find("\n" + head) + 1 if ("\n" + head) in text else -1
    if text.startswith(head):
        i = 0
    if i >= 0:
        # up to the next section, or the marker of a block another script writes
        ends = [k for k in (text.find("\n## ", i + len(head)), text.find("\n<!-- ", i)) if k >= 0]
        j = min(ends) if ends else -1
        text = text[:i] + block + ("\n" + text[j:].lstrip("\n") if j >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + block
    from manoeuvre_sim.core.fileio import atomic_write

    with atomic_write(path, encoding="utf-8") as f:
        f.write(text)


def scores(records: np.ndarray, seat: int) -> np.ndarray:
    from manoeuvre_sim.manoeuvre.engine.batch import R_WINNER

    w = records[:, R_WINNER]
    return np.where(w == seat, 1.0, np.where(w < 0, 0.5, 0.0))


def main() -> None:
    import numba

    from manoeuvre_sim.core.stats import wilson_interval
    from manoeuvre_sim.core.study import pairing_seed
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="8,32,128")
    ap.add_argument("--games", type=int, default=48, help="games per army and seat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rollout", default="balanced")
    ap.add_argument("--ladder", type=int, default=0, help="a budget: play every policy")
    ap.add_argument("--specs", default="", help="search specs to compare, the first the base")
    ap.add_argument("--opponent", default="tuned")
    ap.add_argument("--title", default=VALUE_TITLE)
    ap.add_argument("--note", default="")
    args = ap.parse_args()
    budgets = [int(x) for x in args.budgets.split(",")]
    armies = [a.name for a in load_builtin_armies()]
    threads = numba.config.NUMBA_NUM_THREADS
    # compile once, outside the timings
    simulate(SimConfig(armies[0], armies[0], games=2, policy_a="search:2", threads=threads))

    def versus(spec: str, opp: str) -> tuple[np.ndarray, float]:
        """The search player's per-game scores against ``opp`` over every army in a mirror
        match, both seats, and the seconds it took."""
        got = []
        t0 = time.perf_counter()
        for army in armies:
            for seat in (0, 1):
                pa, pb = (spec, opp) if seat == 0 else (opp, spec)
                seed = pairing_seed(args.seed, f"{army}/search", f"seat{seat}")
                res = simulate(SimConfig(army, army, games=args.games, seed=seed, policy_a=pa,
                                         policy_b=pb, threads=threads))  # fmt: skip
                got.append(scores(res.records, seat))
                print(f"{spec} vs {opp}: {army} seat {'ab'[seat]}: {got[-1].mean():.3f}",
                      flush=True)  # fmt: skip
        return np.concatenate(got), time.perf_counter() - t0

    def interval(s: np.ndarray) -> tuple[float, float, float]:
        """The mean score and its 95 % Wilson interval, draws counting half (as the
        tournament reports them)."""
        lo, hi = wilson_interval(s.sum(), len(s))
        return s.mean(), float(lo), float(hi)

    head = (
        f"Measured {datetime.date.today().isoformat()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, {threads} threads, by `benchmarks/bench_search.py "
    )
    if args.specs:
        specs = args.specs.split(",")
        res = []
        for spec in specs:
            load0 = os.getloadavg()[0]
            s, secs = versus(spec, args.opponent)
            res.append((spec, s, len(s) / secs, (load0 + os.getloadavg()[0]) / 2))
        lines = [
            head + f"--specs {args.specs} --opponent {args.opponent} --games {args.games} "
            f"--seed {args.seed}`{': ' + args.note if args.note else ''}.",
            "",
            f"Each spec against `{args.opponent}`: every base army in a mirror match, both seats, "
            f"{args.games} games per army and seat, the same seeds for every spec (paired). "
            "Score: win 1, draw 1/2, with a 95 % Wilson interval; the change against the first "
            "spec is the mean paired per-game difference with a 95 % normal interval. Games/s: "
            "whole games with one search seat on all threads, the load average beside it (the "
            "2 cores are shared); the speed-up is against the first spec in this run.",
            "",
            "| spec | games | score | 95 % interval | change (points) | games/s | load | "
            "speed-up |",
            "|---|---:|---:|---|---|---:|---:|---:|",
        ]
        base_s, base_gps = res[0][1], res[0][2]
        for spec, s, gps, load in res:
            m, lo, hi = interval(s)
            d = s - base_s
            se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else 0.0
            ch = (f"{100 * d.mean():+.1f} [{100 * (d.mean() - 1.96 * se):+.1f}, "
                  f"{100 * (d.mean() + 1.96 * se):+.1f}]") if spec != specs[0] else "—"  # fmt: skip
            lines.append(
                f"| `{spec}` | {len(s)} | {100 * m:.1f} % | [{100 * lo:.1f}, {100 * hi:.1f}] | "
                f"{ch} | {gps:.2f} | {load:.1f} | {gps / base_gps:.1f}x |"
            )
        replace_section(OUT, args.title, "\n".join(lines) + "\n")
        print("\n".join(lines))
        return
    if args.ladder:
        spec = f"search:{args.ladder}:{args.rollout}"
        from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES

        lines = [
            head + f"--ladder {args.ladder} --games {args.games} --seed {args.seed}`.",
            "",
            f"`{spec}` against each policy: every base army in a mirror match, both seats, "
            f"{args.games} games per army and seat; the search player's score (win 1, draw "
            "1/2) with a 95 % Wilson interval (draws count half).",
            "",
            "| opponent | games | search player's score | 95 % interval |",
            "|---|---:|---:|---|",
        ]
        for opp in (p for p in POLICY_NAMES if p != "search"):
            got = versus(spec, opp)[0]
            m, lo, hi = interval(got)
            lines.append(
                f"| `{opp}` | {len(got)} | {100 * m:.1f} % | [{100 * lo:.1f}, {100 * hi:.1f}] |"
            )
        replace_section(OUT, LADDER_TITLE, "\n".join(lines) + "\n")
        print("\n".join(lines))
        return
    rows = []
    for b in budgets:
        s, secs = versus(f"search:{b}:{args.rollout}", args.rollout)
        m, lo, hi = interval(s)
        rows.append((b, len(s), m, lo, hi, len(s) / secs))
    lines = [
        head + f"--budgets {args.budgets} --games {args.games} --seed {args.seed}`.",
        "",
        f"`search:BUDGET` (rollouts by `{args.rollout}`) against `{args.rollout}`: every base "
        f"army in a mirror match, both seats, {args.games} games per army and seat. Score: win "
        "1, draw 1/2 (mirror matches can be drawn); 95 % Wilson interval, draws counting half. "
        "Games/s is whole games with one search seat, all threads.",
        "",
        "| budget (rollouts per decision) | games | search player's score | 95 % interval | "
        "games/s |",
        "|---:|---:|---:|---|---:|",
    ]
    for b, n, m, lo, hi, gps in rows:
        lines.append(
            f"| {b} | {n} | {100 * m:.1f} % | [{100 * lo:.1f}, {100 * hi:.1f}] | {gps:.2f} |"
        )
    goal = [b for b, _, m, lo, _, _ in rows if m >= 0.60]
    lines += [
        "",
        "Goal (issue 16): a budget at which the search player scores at least 60 % — "
        + (f"**met** at {goal[0]} rollouts." if goal else "**not met** at these budgets."),
    ]
    replace_section(OUT, TITLE, "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
