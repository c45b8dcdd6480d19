"""The why study of France v the United States: each part's share with its interval, their sum, games and time.

    python -m benchmarks why [--quick] [--armies France,"United States"] [--samples 80] [--block 20]

Issue 42: the gap of one pairing from 50 % shared out among both armies' parts by their
Shapley values (``manoeuvre_sim/studies/why.py``, docs/why.md), under the default player.
Writes every part's contribution with its 95 % interval, the observed rate, the mirror
(every part off), the gap against the contributions' sum, the widest interval, what
+/-1.5 points would cost, and the games, seconds and games per second of the run (the
machine's load beside them: the cores are shared).
"""

from __future__ import annotations

import time

from benchmarks.common import Parser, Run


def report(res, seconds: float) -> list[str]:
    m, s = res.manifest, res.spec
    x, y = s.balance.names
    c = res.contributions
    c = c.reindex(c["contribution"].abs().sort_values(ascending=False, kind="stable").index)
    half = (c["hi"] - c["lo"]) / 2
    t = res.totals.set_index("quantity")

    def row(q: str) -> str:
        r = t.loc[q]
        return (f"| {q} | {100 * r.estimate:+.2f} | [{100 * r.lo:+.2f}, {100 * r.hi:+.2f}] |"
                if q in ("gap", "contributions_sum", "mirror_offset") else
                f"| {q} | {100 * r.estimate:.2f} % | [{100 * r.lo:.2f}, {100 * r.hi:.2f}] |")  # fmt: skip

    lines = [
        f"{x} against {y}, `{m['why']['policy']}` in both seats, seed {m['seed']}: "
        f"{len(c)} parts, {s.method} Shapley values, {m['samples_done']} samples of "
        f"{s.coalitions_per_sample()} coalitions x 2 seatings x {s.block} games "
        f"({s.games_per_sample():,} games a sample).",
        "",
        f"- games: {m['games']:,} in {seconds:.0f} s ({m['games'] / seconds:,.0f} games/s, "
        "compilation not timed: the kernels were compiled before)",
        f"- the contributions add up to {100 * m['contributions_sum']:+.3f} points; the "
        f"measured gap (observed - all off) is {100 * m['gap']:+.3f} points: efficiency "
        f"residual {m['efficiency_residual']:.1e}",
        f"- widest interval +/-{100 * half.max():.2f} points, median +/-"
        f"{100 * half.median():.2f}; parts within +/-1.5: {int((half <= 0.015).sum())} of "
        f"{len(c)}",
        f"- +/-1.5 points for every part would take about {m['games_for_target']:,} games "
        f"({m['samples_for_target']} samples; at this run's rate "
        f"{m['games_for_target'] / (m['games'] / seconds) / 60:.0f} min)",
        f"- neutral reference: {s.reference} (reference hash `{m['reference_hash']}`)",
        "",
        "| quantity | estimate | 95 % interval |",
        "|---|---:|---|",
        *(row(q) for q in ("observed", "all_off", "mirror_offset", "gap", "contributions_sum")),
        "",
        f"Each part's contribution to {x}'s score in points (a win 1, a draw 1/2), largest first:",
        "",
        "| side | part | kind | contribution | 95 % interval | +/- |",
        "|---|---|---|---:|---|---:|",
    ]
    for r, h in zip(c.itertuples(index=False), half, strict=True):
        lines.append(f"| {r.side} | {r.part} | {r.kind} | {100 * r.contribution:+.2f} | "
                     f"[{100 * r.lo:+.2f}, {100 * r.hi:+.2f}] | {100 * h:.2f} |")  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("--armies", default="France,United States")
    ap.size("--samples", 80, 2, "independent samples (antithetic pairs of orders)")
    ap.size("--block", 20, 2, "games of a coalition in each seating, per sample")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from manoeuvre_sim.core.warmup import compile_kernels
    from manoeuvre_sim.studies import why

    run = Run(args, ap.name)
    compile_kernels(("games",))
    sides = [a.strip() for a in args.armies.split(",")]
    t0 = time.perf_counter()
    res = why.run("manoeuvre", sides, samples=args.samples, block=args.block, seed=args.seed)
    seconds = time.perf_counter() - t0
    title = f"The why study: {sides[0]} against {sides[1]}"
    run.write(run.header(title, data_hash=res.manifest["data_hash"]) + report(res, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
