"""What moved between two Maneuver variant studies played on the same seeds (`hex balance`).

Used to show what a rules change or a reading does to the default study (issue 30): play
the study before and after (or with and without a switch) with the same options and seed,
then::

    python -m benchmarks.compare_hex_studies BEFORE_DIR AFTER_DIR

It prints, as Markdown: how many games changed outcome (the seeds match game for game, so
the rest played out alike or at least ended alike), each variant's pooled rates before and
after, and every rate of any pairing that left the 95 % interval it had before. Reads only
the two directories' `variants.csv` and `games.parquet/`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

KEY = ["variant", "policy_blue", "policy_red"]
RATES = ("first_win", "blue_win", "red_win", "draw")


def compare(before: Path, after: Path) -> tuple[pd.DataFrame, pd.Series, int]:
    """``(rates, changed, games)``: each rate of each variant and pairing before and after
    (``beyond``: after outside before's interval), the games that changed winner per
    variant, and the games compared."""
    a = pd.read_csv(before / "variants.csv")
    b = pd.read_csv(after / "variants.csv")
    m = a.merge(b, on=KEY, suffixes=("_0", "_1"), validate="one_to_one")
    rows = []
    for r in m.to_dict("records"):
        pairing = f"{r['policy_blue']} v {r['policy_red']}"
        for x in RATES:
            p0, p1 = r[f"{x}_rate_0"], r[f"{x}_rate_1"]
            lo, hi = r[f"{x}_rate_ci_low_0"], r[f"{x}_rate_ci_high_0"]
            rows.append((r["variant"], pairing, x, p0, lo, hi, p1, not lo <= p1 <= hi))
    cols = ["variant", "pairing", "rate", "before", "low", "high", "after", "beyond"]
    rates = pd.DataFrame(rows, columns=cols)
    keys = ["label", "pairing", "game"]
    ga = pd.read_parquet(before / "games.parquet", columns=[*keys, "winner"])
    gb = pd.read_parquet(after / "games.parquet", columns=[*keys, "winner"])
    g = ga.merge(gb, on=keys, suffixes=("_0", "_1"), validate="one_to_one")
    changed = (g["winner_0"] != g["winner_1"]).groupby(g["label"]).sum()
    return rates, changed, len(g)


def _pc(x: float) -> str:
    return f"{100 * x:.1f}"


def markdown(rates: pd.DataFrame, changed: pd.Series, games: int) -> str:
    out = [f"{games:,} games compared, {int(changed.sum()):,} changed winner "
           f"({100 * changed.sum() / games:.1f} %).", "",
           "| variant | games changed | first player | blue | red | draw |",
           "|---|---|---|---|---|---|"]  # fmt: skip
    pooled = rates[rates["pairing"] == "all v all"].set_index(["variant", "rate"])
    for v in dict.fromkeys(rates["variant"]):
        cells = [f"{_pc(pooled.loc[(v, x), 'before'])} → {_pc(pooled.loc[(v, x), 'after'])}"
                 for x in RATES]  # fmt: skip
        out.append(f"| {v} | {int(changed.get(v, 0)):,} | " + " | ".join(cells) + " |")
    beyond = rates[rates["beyond"]]
    out += ["", f"Rates (of {len(rates)}, every variant, pairing and rate) that left the 95 % "
            f"interval they had before: {len(beyond)}."]  # fmt: skip
    for r in beyond.itertuples(index=False):
        out.append(f"- {r.variant}, {r.pairing}, {r.rate}: {_pc(r.before)} "
                   f"[{_pc(r.low)}, {_pc(r.high)}] → {_pc(r.after)}")  # fmt: skip
    big = rates.assign(change=(rates["after"] - rates["before"]).abs()).nlargest(1, "change")
    for r in big.itertuples(index=False):
        out.append(f"The largest change: {r.variant}, {r.pairing}, {r.rate}: {_pc(r.before)} → "
                   f"{_pc(r.after)} (interval before [{_pc(r.low)}, {_pc(r.high)}]).")  # fmt: skip
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.compare_hex_studies",
                                 description=__doc__.splitlines()[0])  # fmt: skip
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    for d in (args.before, args.after):
        if not (d / "variants.csv").is_file() or not (d / "games.parquet").is_dir():
            print(f"error: {d}: not a hex balance study directory (variants.csv, "
                  "games.parquet/)", file=sys.stderr)  # fmt: skip
            return 2
    print(markdown(*compare(args.before, args.after)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
