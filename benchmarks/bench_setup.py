"""Set-up: rule 3's choices (``--setup rules``) against the random draw, the default player on both seats.

What the rule 3 set-up (the first player lays the map, the second chooses its edge)
changes against the default random draw:

* the default field (the 8 base armies, every ordered pairing): the first player's win rate
  over all games and each army's win rate against the field, under each set-up;
* France against Russia, both seatings: France's win rate and the first player's;
* which sections the players lay under the rules set-up (the random draw uses each section
  of the pool equally often).

95 % Wilson intervals (``manoeuvre_sim.core.stats``); a draw counts half.

    python -m benchmarks setup [--quick] [--games-per-pairing 500] [--games 2000]
"""

from __future__ import annotations

import time
from collections import Counter

from benchmarks.common import Parser, Run

MODES = ("random", "rules")
MAP_COLS = ["map_nw", "map_ne", "map_sw", "map_se"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _ci(lo: float, hi: float) -> str:
    return f"[{_pct(lo)}, {_pct(hi)}]"


def play(args) -> tuple[dict, dict, dict]:
    """The field study and France-Russia under each set-up: (field, seconds, duel frames)."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
    from manoeuvre_sim.studies import balance as B

    simulate(SimConfig("France", "Russia", games=20, setup="rules"))  # compile
    armies = [a.name for a in load_builtin_armies()]
    field, seconds, duel = {}, {}, {}
    for mode in MODES:
        t0 = time.perf_counter()
        field[mode] = B.run(
            "manoeuvre",
            armies,
            games_per_pairing=args.games_per_pairing,
            seed=args.seed,
            options=RuleOptions(setup=mode),
        )
        seconds[mode] = time.perf_counter() - t0
    for mode in MODES:
        rows = []
        for a, b in (("France", "Russia"), ("Russia", "France")):
            res = simulate(SimConfig(a, b, games=args.games, seed=args.seed, setup=mode))
            rows.append(to_frame(res.records, res.manifest))
        duel[mode] = rows
    return field, seconds, duel


def field_lines(field: dict, seconds: dict, args) -> list[str]:
    lines = [
        "## The default field",
        "",
        f"The 8 base armies, every ordered pairing (mirrors included), "
        f"{args.games_per_pairing:,} games each: {64 * args.games_per_pairing:,} games per "
        "set-up (`balance --setup random|rules`).",
        "",
        "| set-up | games | first player's win rate % | 95% CI | seconds |",
        "|---|---:|---:|---|---:|",
    ]
    for mode in MODES:
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
    ar = {m: field[m].armies.set_index("army") for m in MODES}
    for army in ar["random"].sort_values("rank").index:
        cells = []
        for m in MODES:
            r = ar[m].loc[army]
            cells += [_pct(r.field_win_rate), _ci(r.ci_low, r.ci_high), str(int(r["rank"]))]
        lines.append(f"| {army} | " + " | ".join(cells) + " |")
    return lines


def duel_lines(duel: dict, games: int) -> list[str]:
    from manoeuvre_sim.core.stats import wilson_interval

    lines = [
        "## France against Russia",
        "",
        f"{games:,} games with France as army A and {games:,} with Russia as army A "
        "(`simulate --setup random|rules`).",
        "",
        "| set-up | games | France's win rate % | 95% CI | first player's win rate % | 95% CI |",
        "|---|---:|---:|---|---:|---|",
    ]
    for mode in MODES:
        fr = first = 0.0
        n = 0
        for df in duel[mode]:
            w = df["winner"].to_numpy()
            fside = "a" if df["army_a"].iloc[0] == "France" else "b"
            draws = 0.5 * float((w == "draw").sum())
            fr += float((w == fside).sum()) + draws
            first += float((w == df["first_player"].to_numpy()).sum()) + draws
            n += len(df)
        lo, hi = wilson_interval(fr, n)
        flo, fhi = wilson_interval(first, n)
        lines.append(f"| {mode} | {n:,} | {_pct(fr / n)} | {_ci(lo, hi)} | "
                     f"{_pct(first / n)} | {_ci(flo, fhi)} |")  # fmt: skip
    return lines


def section_lines(field: dict) -> list[str]:
    lines = [
        "## The sections the players lay",
        "",
        "How often each section is on the battlefield in the field study (share of games; "
        "under `random` each of the pool's sections is on about 4/21 = 19 % of battlefields).",
        "",
        "| section | random % | rules % |",
        "|---:|---:|---:|",
    ]
    counts = {}
    for m in MODES:
        g = field[m].games
        c = Counter()
        for col in MAP_COLS:
            c.update(g[col].tolist())
        counts[m] = (c, len(g))
    for s in sorted(set(counts["random"][0]) | set(counts["rules"][0])):
        cells = [_pct(counts[m][0].get(s, 0) / counts[m][1]) for m in MODES]
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    n_rules = counts["rules"][1]
    sets = field["rules"].games[MAP_COLS].to_numpy().tolist()
    top = Counter(tuple(sorted(r)) for r in sets).most_common(3)
    return lines + [
        "",
        "The most frequent sets of four sections under `rules`: "
        + "; ".join(f"{', '.join(map(str, k))} ({_pct(v / n_rules)} %)" for k, v in top)
        + ".",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games-per-pairing", 500, 30, "the field study, per ordered pairing")
    ap.size("--games", 2000, 200, "France-Russia, per seating")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

    run = Run(args, ap.name)
    field, seconds, duel = play(args)
    lines = run.header(
        "Set-up: rule 3 choices against the random draw",
        data_hash=field["random"].manifest.get("data_hash"),
        extra=[f"seed {args.seed}; the default player (`{DEFAULT_POLICY}`) on both seats. "
               "`random`: four distinct sections drawn with random rotations, army A at the "
               "bottom (the default); `rules`: the first player lays the map and the second "
               "player chooses its edge (README: Set-up). 95 % Wilson intervals; a draw "
               "counts half"],
    )  # fmt: skip
    lines += field_lines(field, seconds, args) + [""] + duel_lines(duel, args.games) + [""]
    run.write(lines + section_lines(field))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
