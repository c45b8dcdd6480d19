"""How far a balance study's ranking of the armies moves under another player (issue 26):
Kendall's tau between two policies' field win rates, with a bootstrap interval.

    manoeuvre-sim balance --games-per-pairing 200 --policies tuned,search:16:tuned:v2 \\
        --seed 1 --out reports/value/balance-v2
    .venv/bin/python benchmarks/bench_rank_agreement.py reports/value/balance-v2 \\
        [--boot 2000] [--seed 1]

Reads the study's games (``games.parquet``), computes each army's field win rate under each
of the two policies as the balance study does (the mean over its opponents, mirrors
excluded, of its win rate in the cell, seats pooled, draws half), Kendall's tau between
the two orderings, and a 95 % percentile interval of tau from ``--boot`` resamples of the
games within each (policy, ordered pairing). Writes the section "Balance under the value
search" of benchmarks/RESULTS-players.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "RESULTS-players.md"
TITLE = "Balance under the value search"


def field_rates(score: np.ndarray, a: np.ndarray, b: np.ndarray, armies: list[str]) -> np.ndarray:
    """Each army's mean over its opponents (mirrors excluded) of its score in the cell."""
    k = len(armies)
    tot = np.zeros((k, k))
    n = np.zeros((k, k))
    np.add.at(tot, (a, b), score)
    np.add.at(n, (a, b), 1)
    np.add.at(tot, (b, a), 1 - score)
    np.add.at(n, (b, a), 1)
    cell = tot / np.where(n > 0, n, 1)
    off = ~np.eye(k, dtype=bool)
    return np.array([cell[i][off[i]].mean() for i in range(k)])


def main() -> None:
    from bench_search import replace_section
    from scipy.stats import kendalltau

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study", type=Path, help="a balance study's --out directory (two policies)")
    ap.add_argument("--boot", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    games = pd.read_parquet(args.study / "games.parquet")
    manifest = json.loads((args.study / "manifest.json").read_text(encoding="utf-8"))
    labels = [p["label"] for p in manifest["policies"]]  # in the study's order
    if len(labels) != 2:
        raise SystemExit(f"{args.study}: expected a study of two policies, got {labels}")
    armies = sorted(set(games["army_a"]) | set(games["army_b"]))
    idx = {x: i for i, x in enumerate(armies)}
    rng = np.random.default_rng(args.seed)
    data = {}
    for lab in labels:
        g = games[games["label"] == lab]
        s = np.where(g["winner"] == "a", 1.0, np.where(g["winner"] == "b", 0.0, 0.5))
        a = g["army_a"].map(idx).to_numpy()
        b = g["army_b"].map(idx).to_numpy()
        blocks = [np.flatnonzero((a == i) & (b == j)) for i in range(len(armies))
                  for j in range(len(armies))]  # fmt: skip
        data[lab] = (s, a, b, [x for x in blocks if len(x)])
    point = {lab: field_rates(*data[lab][:3], armies) for lab in labels}
    tau = float(kendalltau(point[labels[0]], point[labels[1]]).statistic)
    boot = []
    for _ in range(args.boot):
        rates = []
        for lab in labels:
            s, a, b, blocks = data[lab]
            pick = np.concatenate([rng.choice(x, size=len(x), replace=True) for x in blocks])
            rates.append(field_rates(s[pick], a[pick], b[pick], armies))
        boot.append(kendalltau(rates[0], rates[1]).statistic)
    lo, hi = np.quantile(boot, [0.025, 0.975])
    n = {lab: len(data[lab][0]) for lab in labels}
    per = n[labels[0]] // (len(armies) ** 2)
    lines = [
        f"Measured {datetime.date.today().isoformat()}, 2 cores shared (load "
        f"{os.getloadavg()[0]:.1f}), by `manoeuvre-sim balance --games-per-pairing {per} "
        f"--policies {','.join(labels)} --seed {manifest.get('seed')}` and "
        f"`benchmarks/bench_rank_agreement.py DIR --boot {args.boot} --seed {args.seed}` "
        f"(rules {manifest.get('rules_version')}).",
        "",
        f"The default balance study (the {len(armies)} base armies, every ordered pairing, "
        f"{per} games each, both seats played by the policy) under `{labels[0]}` and under "
        f"`{labels[1]}`: each army's field win rate (mean over its opponents, mirrors "
        "excluded, draws half) in per cent, and its rank.",
        "",
        f"| army | `{labels[0]}` | rank | `{labels[1]}` | rank |",
        "|---|---:|---:|---:|---:|",
    ]
    ranks = {lab: (-point[lab]).argsort().argsort() + 1 for lab in labels}
    for i in np.argsort(-point[labels[0]]):
        lines.append(
            f"| {armies[i]} | {100 * point[labels[0]][i]:.1f} | {ranks[labels[0]][i]} | "
            f"{100 * point[labels[1]][i]:.1f} | {ranks[labels[1]][i]} |"
        )
    spread = {lab: 100 * (point[lab].max() - point[lab].min()) for lab in labels}
    lines += [
        "",
        f"Kendall's tau between the two orderings: **{tau:.2f}** [{lo:.2f}, {hi:.2f}] (95 % "
        f"bootstrap interval, {args.boot} resamples of the games within each ordered pairing). "
        f"Spread between the best and the worst army: {spread[labels[0]]:.1f} points under "
        f"`{labels[0]}`, {spread[labels[1]]:.1f} under `{labels[1]}`.",
    ]
    replace_section(OUT, TITLE, "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
