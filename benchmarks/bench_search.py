"""The search player: its strength against its rollout style and its speed, per budget (issue 16).

    python -m benchmarks search [--quick] [--budgets 8,32,128] [--games 48] [--seed 1]
    python -m benchmarks search --ladder 16 [--games 8]
    python -m benchmarks search --specs A,B,... [--opponent tuned] [--games 16]

For each budget, ``search:BUDGET`` (rollouts by ``--rollout``, default ``balanced``) plays
``balanced`` with every base army in a mirror match, in both seats, ``--games`` games per
army and seat; the search player's score (win 1, draw 1/2) is reported with a 95 % Wilson
interval (draws counting half), with games/s on all cores from the same run (whole games
with one search seat). Goal (issue 16): a budget at which the search player scores at
least 60 %. Writes benchmarks/RESULTS-search.md.

With ``--ladder BUDGET``: ``search:BUDGET`` against every other policy the same way (the
ladder's row for the search player, which the tournament leaves out as too slow), into
benchmarks/RESULTS-search-ladder.md.

With ``--specs A,B,...`` (issue 26, the value search): each search spec against
``--opponent`` the same way, on the same seeds (paired: the first spec is the baseline of
the paired differences), with games/s from the same run and the load average, into
benchmarks/RESULTS-search-specs.md (``--out`` to keep a run under another name, as
benchmarks/RESULTS-value-search.md). ``--note`` adds a line on what the run compares.
"""

from __future__ import annotations

import os
import time

import numpy as np

from benchmarks.common import BENCH_DIR, Parser, Run


def scores(records: np.ndarray, seat: int) -> np.ndarray:
    from manoeuvre_sim.manoeuvre.engine.batch import R_WINNER

    w = records[:, R_WINNER]
    return np.where(w == seat, 1.0, np.where(w < 0, 0.5, 0.0))


def interval(s: np.ndarray) -> tuple[float, float, float]:
    """The mean score and its 95 % Wilson interval, draws counting half (as the tournament
    reports them)."""
    from manoeuvre_sim.core.stats import wilson_interval

    lo, hi = wilson_interval(s.sum(), len(s))
    return s.mean(), float(lo), float(hi)


def versus(spec: str, opp: str, armies: list[str], args) -> tuple[np.ndarray, float]:
    """The search player's per-game scores against ``opp`` over every army in a mirror
    match, both seats, and the seconds it took."""
    import numba

    from manoeuvre_sim.core.study import pairing_seed
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    got = []
    t0 = time.perf_counter()
    for army in armies:
        for seat in (0, 1):
            pa, pb = (spec, opp) if seat == 0 else (opp, spec)
            seed = pairing_seed(args.seed, f"{army}/search", f"seat{seat}")
            res = simulate(SimConfig(army, army, games=args.games, seed=seed, policy_a=pa,
                                     policy_b=pb, threads=numba.config.NUMBA_NUM_THREADS))  # fmt: skip
            got.append(scores(res.records, seat))
            print(f"{spec} vs {opp}: {army} seat {'ab'[seat]}: {got[-1].mean():.3f}", flush=True)
    return np.concatenate(got), time.perf_counter() - t0


def specs_lines(armies: list[str], args) -> list[str]:
    specs = args.specs.split(",")
    res = []
    for spec in specs:
        load0 = os.getloadavg()[0]
        s, secs = versus(spec, args.opponent, armies, args)
        res.append((spec, s, len(s) / secs, (load0 + os.getloadavg()[0]) / 2))
    lines = [
        f"Each spec against `{args.opponent}`: every base army in a mirror match, both seats, "
        f"{args.games} games per army and seat, the same seeds for every spec (paired). "
        "Score: win 1, draw 1/2, with a 95 % Wilson interval; the change against the first "
        "spec is the mean paired per-game difference with a 95 % normal interval. Games/s: "
        "whole games with one search seat on all threads, the load average beside it (the "
        "2 cores are shared); the speed-up is against the first spec in this run.",
        "",
        "| spec | games | score | 95 % interval | change (points) | games/s | load | speed-up |",
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
    return lines


def ladder_lines(armies: list[str], args) -> list[str]:
    from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES

    spec = f"search:{args.ladder}:{args.rollout}"
    lines = [
        f"`{spec}` against each policy: every base army in a mirror match, both seats, "
        f"{args.games} games per army and seat; the search player's score (win 1, draw 1/2) "
        "with a 95 % Wilson interval (draws count half).",
        "",
        "| opponent | games | search player's score | 95 % interval |",
        "|---|---:|---:|---|",
    ]
    for opp in (p for p in POLICY_NAMES if p != "search"):
        m, lo, hi = interval(got := versus(spec, opp, armies, args)[0])
        lines.append(
            f"| `{opp}` | {len(got)} | {100 * m:.1f} % | [{100 * lo:.1f}, {100 * hi:.1f}] |"
        )
    return lines


def budget_lines(armies: list[str], args) -> list[str]:
    rows = []
    for b in (int(x) for x in args.budgets.split(",")):
        s, secs = versus(f"search:{b}:{args.rollout}", args.rollout, armies, args)
        rows.append((b, len(s), *interval(s), len(s) / secs))
    lines = [
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
        lines.append(f"| {b} | {n} | {100 * m:.1f} % | [{100 * lo:.1f}, {100 * hi:.1f}] | "
                     f"{gps:.2f} |")  # fmt: skip
    goal = [b for b, _, m, *_ in rows if m >= 0.60]
    return lines + [
        "",
        "Goal (issue 16): a budget at which the search player scores at least 60 % — "
        + (f"**met** at {goal[0]} rollouts." if goal else "**not met** at these budgets."),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--budgets", "8,32,128", "2", "rollout budgets, comma-separated", type=str)
    ap.size("--games", 48, 1, "games per army and seat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rollout", default="balanced")
    ap.add_argument("--ladder", type=int, default=0, help="a budget: play every policy")
    ap.add_argument("--specs", default="", help="search specs to compare, the first the base")
    ap.add_argument("--opponent", default="tuned")
    ap.add_argument("--note", default="", help="a line on what the run compares")
    args = ap.parse_args(argv)
    import numba

    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    run = Run(args, ap.name)
    armies = [a.name for a in load_builtin_armies()]
    threads = numba.config.NUMBA_NUM_THREADS
    # compile once, outside the timings
    simulate(SimConfig(armies[0], armies[0], games=2, policy_a="search:2", threads=threads))
    if args.specs:
        title, body, out = "Search specs against one opponent", specs_lines(armies, args), "specs"
    elif args.ladder:
        title, body, out = "Ladder with the search player", ladder_lines(armies, args), "ladder"
    else:
        title, body, out = "The search player per budget", budget_lines(armies, args), ""
    note = [args.note] if args.note else []
    lines = run.header(title, extra=[f"{threads} threads", *note]) + body
    run.write(lines, BENCH_DIR / f"RESULTS-search{'-' + out if out else ''}.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
