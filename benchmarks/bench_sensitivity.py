"""The default balance study under every policy: each army's field win rate, Kendall's tau between them.

    python -m benchmarks sensitivity [--quick] [--policies random:100,...,search:16:6] [--seed 1]

Issue 16 item 6: how far the balance study's answer depends on play strength. Runs the
default balance study (the 8 base armies, every ordered pairing, both seats alike) once per
policy, each with its own games per ordered pairing (``POLICY:GAMES``: fewer for the slow
search player), and writes each army's field win rate with its 95 % interval and rank per
policy, and Kendall's tau between the policies' orderings of the armies (the armies in the
order of the next-to-last policy). The same figures for equal game counts come from
``manoeuvre-sim balance --policies ...``.
"""

from __future__ import annotations

import time

import pandas as pd

from benchmarks.common import Parser, Run

FULL = "random:100,simple:100,attritional:300,territorial:300,balanced:300,tuned:300,search:16:6"
QUICK = "random:5,tuned:5,search:2:1"


def play(plan: list[tuple[str, int]], seed: int):
    """Each policy's balance study: (the armies' frames stacked, [(name, games, seconds)])."""
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies
    from manoeuvre_sim.studies import balance as B

    armies = [a.name for a in load_builtin_armies()]
    frames, timing = [], []
    for name, games in plan:
        t0 = time.perf_counter()
        res = B.run("manoeuvre", armies, games_per_pairing=games, policy=name, seed=seed)
        secs = time.perf_counter() - t0
        frames.append(res.armies.assign(label=name))
        timing.append((name, games, secs))
        print(f"{name}: {games} games per pairing, {secs:.0f} s", flush=True)
    return pd.concat(frames, ignore_index=True), timing


def report(arm: pd.DataFrame, timing: list, seed: int) -> list[str]:
    from manoeuvre_sim.analyses.manoeuvre import balance as B

    styles, tau = B.style_sensitivity(arm)
    names = [n for n, *_ in timing]
    ref = names[-2 if len(names) > 1 else 0]
    order = list(styles[styles["policy"] == ref].sort_values("rank")["army"])
    lines = [
        "The default balance study (every ordered pairing of the 8 base armies, both seats "
        f"played by the policy named, seed {seed}) under each policy, with its own number of "
        "games per ordered pairing (fewer for the slow search player). Field win rate in per "
        "cent, 95 % interval in brackets (draws count half).",
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
        "| games per pairing | " + " | ".join(f"{g}" for _, g, _ in timing) + " |",
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
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--policies", FULL, QUICK, "POLICY:GAMES,... (games per ordered pairing)", type=str)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    plan = []
    for item in args.policies.split(","):
        name, _, games = item.rpartition(":")
        if not name or not games.isdigit():
            ap.error(f"--policies: {item!r}: expected POLICY:GAMES")
        plan.append((name, int(games)))
    run = Run(args, ap.name)
    arm, timing = play(plan, args.seed)
    title = "Sensitivity of the balance study to play strength"
    run.write(run.header(title) + report(arm, timing, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
