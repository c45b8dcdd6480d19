"""The why study of France v the United States and of a Maneuver variant: shares, intervals, games, time.

    python -m benchmarks why [--quick] [--pairings manoeuvre,hex] [--samples 80] [--block 20]
        [--hex-samples 40] [--hex-block 100]

Issue 42: the gap of one pairing from 50 % shared out among both sides' parts by their
Shapley values (``manoeuvre_sim/studies/why.py``, docs/why.md), under each game's default
player: France against the United States (Manoeuvre), and Maneuver's large_blue border
with ``hex fix``'s errata of blue (``blue/Infantry/count=5``, ``blue/Artillery/count=1``:
RESULTS-hex-fix.md), blue against red. Writes every part's contribution with its 95 %
interval, the observed rate, the mirror (every part off), the gap against the
contributions' sum, the widest interval, what +/-1.5 points would cost, and the games,
seconds and games per second of each run (the machine's load beside them).

``--pairings`` names the pairings played; a pairing not named keeps its section of the
results file as it was written (its own date, commit and load): the Manoeuvre pairing takes
about 100 s at load 4 (11 minutes at load 20), and need not be replayed to add the other.
"""

from __future__ import annotations

import re
import time

from benchmarks.common import Parser, Run, git_commit, load, results_path

HEX_BORDER = "large_blue"
HEX_EDITS = ("blue/Infantry/count=5", "blue/Artillery/count=1")
TITLES = {"manoeuvre": "Manoeuvre: France against United States",
          "hex": f"Maneuver: blue against red, border {HEX_BORDER}, " + ", ".join(HEX_EDITS)}  # fmt: skip


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
        f"{m['games_for_target'] / (m['games'] / seconds) / 60:.1f} min)",
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


def sections(text: str) -> dict[str, list[str]]:
    """The sections of a results file by pairing (``## `` titles of :data:`TITLES`); a file
    written before the sections (the Manoeuvre pairing alone) is that pairing's section,
    its header's date, commit and load its provenance."""
    lines = text.splitlines()
    out: dict[str, list[str]] = {}
    if not any(ln.startswith("## ") for ln in lines):
        body = lines[lines.index("", 2) + 1 :] if "" in lines[2:] else []
        made = next((ln for ln in lines if ln.startswith("- written by")), "")
        when = re.search(r"on (\S+ \S+ UTC) at commit (\w+)", made)
        was = next((ln[2:] for ln in lines if ln.startswith("- load:")), "")
        data = next((ln[2:] for ln in lines if ln.startswith("- data hash:")), "")
        prov = (f"- played on {when[1]} at commit {when[2]}; {was}; {data}" if when
                else "- (provenance unknown)")  # fmt: skip
        return {"manoeuvre": _trim([prov, "", *body])} if body else {}
    key = None
    for ln in lines:
        if ln.startswith("## "):
            key = next((k for k, t in TITLES.items() if ln[3:].strip() == t), None)
            out[key] = []
        elif key is not None:
            out[key].append(ln)
    return {k: _trim(v) for k, v in out.items() if k is not None}


def _trim(lines: list[str]) -> list[str]:
    """``lines`` without the blank lines at either end (a section as :func:`play` gives it)."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def play(game: str, args) -> list[str]:
    """One pairing's study, played now: its section's lines."""
    from manoeuvre_sim.studies import why

    started, load0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load()
    t0 = time.perf_counter()
    if game == "manoeuvre":
        sides = [a.strip() for a in args.armies.split(",")]
        res = why.run("manoeuvre", sides, samples=args.samples, block=args.block, seed=args.seed)
    else:
        from manoeuvre_sim.hexgame.adapter import Options, why_sides

        options = Options(border=HEX_BORDER)
        res = why.run("hex", list(why_sides(options, HEX_EDITS)), samples=args.hex_samples,
                      block=args.hex_block, seed=args.seed, options=options)  # fmt: skip
    seconds = time.perf_counter() - t0
    prov = (f"- played on {started} at commit {git_commit()}; load: 1-minute load average "
            f"{load0:.2f} at the start, {load():.2f} at the end; data hash "
            f"`{res.manifest['data_hash']}`")  # fmt: skip
    return [prov, "", *report(res, seconds)]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("--pairings", default="manoeuvre,hex",
                    help="the pairings to play (manoeuvre, hex); the others' sections are kept")  # fmt: skip
    ap.add_argument("--armies", default="France,United States")
    ap.size("--samples", 80, 2, "Manoeuvre: independent samples (antithetic pairs of orders)")
    ap.size("--block", 20, 2, "Manoeuvre: games of a coalition in each seating, per sample")
    ap.size("--hex-samples", 40, 2, "Maneuver: independent samples")
    ap.size("--hex-block", 100, 10, "Maneuver: games of a coalition in each seating, per sample")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.pairings.split(",") if g.strip()]
    if not games or set(games) - set(TITLES):
        ap.error(f"--pairings: expected some of {', '.join(TITLES)}, got {args.pairings!r}")
    from manoeuvre_sim.core.warmup import compile_kernels

    run = Run(args, ap.name)
    path = args.out or results_path(ap.name)
    kept = sections(path.read_text(encoding="utf-8")) if path.is_file() else {}
    body: list[str] = []
    for game in TITLES:
        if game in games:
            compile_kernels(("games",) if game == "manoeuvre" else ("hex",))
            lines = play(game, args)
        elif game in kept:
            lines = kept[game]
        else:
            continue
        body += [f"## {TITLES[game]}", "", *[ln for ln in lines if ln.strip() or True]]
        while body and not body[-1].strip():
            body.pop()
        body.append("")
    title = "The why study: France against United States, and a Maneuver variant"
    run.write(run.header(title, extra=[f"played now: {', '.join(games)}; each section says "
                                       "when it was played"]) + body)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
