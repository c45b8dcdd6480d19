"""Maneuver's fixer held to army quality against the handicap ladder, on the same seeds.

    python -m benchmarks hex-fix [--quick] [--games N] [--look N] [--free-games N] [--seed 1]

The large blue side (rule [13] 1, border ``large_blue``) under the ``capital`` player:

* ``hex ladder --max-k 10 --games N``: the score of blue at k = 0..10 combat units weak;
* the fixer (``studies.fix``, as ``hex fix`` runs it) allowed only the ladder's dimension,
  ``[quality] range = 10`` on blue, for the bands 60-70 % and 45-55 %: once with one look
  of N games (``--games-per-look`` = ``--max-games`` = N: the ladder's games exactly, so
  the errata must be its first rung in the band the search aims at: the band shrunk at each
  edge by the guard, the confirmation's half-width; docs/fix.md, "The guard band"), once
  sequentially (looks of ``--look`` games up to N: fewer games, estimates of its own);
* the fixer with every edit kind of blue (cost 1, range 1, budget 3; ``--free-games`` a
  look and ``4 x`` that the cap), 45-55 %: what it finds when it is not held to the ladder.

Each errata is confirmed on a fresh seed (N games). Every figure is the scripted players'
on the built-in authored scenario, not the printed counters.
"""

from __future__ import annotations

import time

from benchmarks.common import Parser, Run

BORDER, K = "large_blue", 10


def ladder(args):
    from manoeuvre_sim.hexgame.studies import ladder as HL

    spec = HL.LadderSpec(border=BORDER, favoured="blue", max_k=K, games=args.games,
                         seed=args.seed, block=min(args.games, 1000))  # fmt: skip
    t = time.perf_counter()
    res = HL.run_spec(spec)
    return res.ladder.set_index("k"), time.perf_counter() - t


def fix(args, band, edits, budget, look, cap):
    from manoeuvre_sim.hexgame import adapter as HX
    from manoeuvre_sim.studies import fix as F

    opts = HX.Options(border=BORDER)
    t = time.perf_counter()
    res = F.run("hex", HX.scenario_sides(opts), options=opts, editable=["blue"],
                targets=["blue"], band=band, edits=edits, budget=budget, policy="capital",
                games_per_look=look, max_games=cap, confirm_games=args.games,
                seed=args.seed, target_flag="--side")  # fmt: skip
    return res, time.perf_counter() - t


def first_in(score, band):
    ks = [k for k in score.index if band[0] <= score[k] <= band[1]]
    return ks[0] if ks else None


def answer(res) -> str:
    m = res.manifest
    if not m["errata"]:
        return "none"
    c = res.confirmation.targets.iloc[0] if res.confirmation is not None else None
    conf = ("" if c is None else f"; confirmed {100 * c.fixed_rate:.1f} % "
            f"[{100 * c.fixed_low:.1f}, {100 * c.fixed_high:.1f}]"
            f"{' CONFIRMED' if m['confirmed'] else ' not confirmed'}")  # fmt: skip
    return f"{'; '.join(m['errata'])} (cost {m['errata_cost']}, meets {m['meets']}){conf}"


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 5000, 200, "games per rung, the cap of a candidate, the confirmation's")
    ap.size("--look", 500, 100, "the sequential fixer's games per look")
    ap.size("--free-games", 500, 100, "the free fixer's games per look (its cap: 4 x)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from manoeuvre_sim.hexgame.scenario import load_scenario

    run = Run(args, ap.name)
    lad, secs = ladder(args)
    score = lad["score"]
    body = [f"## The ladder: blue's score at k of its combat units weak ({args.games:,} games "
            f"a rung, {secs:.0f} s)", "", "| k | score | 95 % interval |", "|---|---|---|"]  # fmt: skip
    body += [f"| {k} | {score[k]:.3f} | {lad.loc[k, 'score_ci_low']:.3f}-"
             f"{lad.loc[k, 'score_ci_high']:.3f} |" for k in score.index]  # fmt: skip
    body += ["", "## The fixer held to the ladder's dimension (`[quality] range = 10`)", "",
             "| band (searched) | ladder's first rung in the searched band | fixer, one look of N "
             "| games | s | fixer, sequential | games | s |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    agree = True
    for band in ((0.60, 0.70), (0.45, 0.55)):
        one, s1 = fix(args, band, {"quality": {"range": K}}, K, args.games, args.games)
        seq, s2 = fix(args, band, {"quality": {"range": K}}, K, args.look, args.games)
        inner = one.spec.search_band
        k = first_in(score, inner)
        want = [] if k is None else [f"blue/quality={k}"]
        agree &= one.manifest["errata"] == want
        body.append(f"| {100 * band[0]:.0f}-{100 * band[1]:.0f} % "
                    f"({100 * inner[0]:.1f}-{100 * inner[1]:.1f} %) | "
                    f"{'none' if k is None else k} | {answer(one)} | "
                    f"{one.manifest['games']:,} | {s1:.0f} | {answer(seq)} | "
                    f"{seq.manifest['games']:,} | {s2:.0f} |")  # fmt: skip
        tr = seq.trail
        body += ["", f"Sequential trail, {100 * band[0]:.0f}-{100 * band[1]:.0f} %: "
                 + "; ".join(f"{r.edits} {r.verdict} after {r.games_per_pairing} (est. "
                             f"{100 * r.rate:.1f} %)" for r in
                             tr.rename(columns={"rate blue": "rate"}).itertuples()), ""]  # fmt: skip
    free, s3 = fix(args, (0.45, 0.55), None, 3, args.free_games, 4 * args.free_games)
    t = free.trail
    body += ["## The fixer with every kind of edit of blue (budget 3, 45-55 %)", "",
             f"{len(t)} candidates ({(t['verdict'] == 'helpful').sum()} helpful), "
             f"{free.manifest['games']:,} games, {s3:.0f} s: {answer(free)}.", ""]  # fmt: skip
    if len(free.frontier):
        body += ["| cost | best errata | estimated distance |", "|---|---|---|"]
        body += [f"| {r.cost} | {r.edits} | {r.est_distance:.3f} |"
                 for r in free.frontier.itertuples()]  # fmt: skip
    body += ["", "The one-look fixer's errata is the ladder's first rung in the searched band: "
             f"{agree}."]  # fmt: skip
    sc = load_scenario(None)
    lines = run.header("Maneuver's balance fixer against the handicap ladder",
                       data_hash=sc.sha256, extra=[
                           f"scenario `{sc.name}`, border {BORDER}, player capital, seed "
                           f"{args.seed}; all threads"])  # fmt: skip
    run.write(lines + body)
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
