"""How far a balance study's ranking of the armies moves under another player: Kendall's tau.

    manoeuvre-sim balance --games-per-pairing 200 --policies tuned,search:16:tuned:v2 \\
        --seed 1 --out reports/value/balance-v2
    python -m benchmarks rank-agreement reports/value/balance-v2 [--boot 2000] [--seed 1]
    python -m benchmarks rank-agreement --quick     # plays a tiny two-policy study itself

Issue 26: Kendall's tau between two policies' field win rates, with a bootstrap interval.

Reads the study's games (``games.parquet``), computes each army's field win rate under each
of the two policies as the balance study does (the mean over its opponents, mirrors
excluded, of its win rate in the cell, seats pooled, draws half), Kendall's tau between
the two orderings, and a 95 % percentile interval of tau from ``--boot`` resamples of the
games within each (policy, ordered pairing).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.common import Parser, Run

NEEDS = "a balance study of two policies (DIR)"


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


def play_study(out: Path, policies: list[str], games_per_pairing: int, seed: int = 1) -> Path:
    """A balance study of ``policies`` (every ordered pairing of the 8 base armies) written
    to ``out`` as ``manoeuvre-sim balance --out`` writes it (the quick runs' input)."""
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies
    from manoeuvre_sim.studies import balance as B

    prepare_out_dir(out, force=True)
    armies = [a.name for a in load_builtin_armies()]
    res = B.run("manoeuvre", armies, games_per_pairing=games_per_pairing, policies=policies,
                seed=seed, out_dir=out)  # fmt: skip
    res.write(out)
    return out


def tau_of(games: pd.DataFrame, labels: list[str], boot: int, seed: int):
    """Each label's field win rates, Kendall's tau between the two and its bootstrap
    interval: (armies, point rates, tau, lo, hi, games per label)."""
    from scipy.stats import kendalltau

    armies = sorted(set(games["army_a"]) | set(games["army_b"]))
    idx = {x: i for i, x in enumerate(armies)}
    rng = np.random.default_rng(seed)
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
    boot_taus = []
    for _ in range(boot):
        rates = []
        for lab in labels:
            s, a, b, blocks = data[lab]
            pick = np.concatenate([rng.choice(x, size=len(x), replace=True) for x in blocks])
            rates.append(field_rates(s[pick], a[pick], b[pick], armies))
        boot_taus.append(kendalltau(rates[0], rates[1]).statistic)
    lo, hi = np.quantile(boot_taus, [0.025, 0.975]) if boot else (float("nan"),) * 2
    return armies, point, tau, float(lo), float(hi), {lab: len(data[lab][0]) for lab in labels}


def report(study: Path, manifest: dict, labels: list[str], res, args) -> list[str]:
    armies, point, tau, lo, hi, n = res
    per = n[labels[0]] // (len(armies) ** 2)
    lines = [
        f"The balance study `{study}` (`manoeuvre-sim balance --games-per-pairing {per} "
        f"--policies {','.join(labels)} --seed {manifest.get('seed')}`, rules "
        f"{manifest.get('rules_version')}): the {len(armies)} base armies, every ordered "
        f"pairing, {per} games each, both seats played by the policy, under `{labels[0]}` and "
        f"under `{labels[1]}`: each army's field win rate (mean over its opponents, mirrors "
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
    return lines + [
        "",
        f"Kendall's tau between the two orderings: **{tau:.2f}** [{lo:.2f}, {hi:.2f}] (95 % "
        f"bootstrap interval, {args.boot} resamples of the games within each ordered pairing). "
        f"Spread between the best and the worst army: {spread[labels[0]]:.1f} points under "
        f"`{labels[0]}`, {spread[labels[1]]:.1f} under `{labels[1]}`.",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("study", type=Path, nargs="?",
                    help="a balance study's --out directory (two policies); --quick plays one")  # fmt: skip
    ap.size("--boot", 2000, 50, "bootstrap resamples")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.study is None and not args.quick:
        ap.error("expected a balance study directory (or --quick)")
    run = Run(args, ap.name)
    tmp = None
    study = args.study
    if study is None:
        tmp = Path(tempfile.mkdtemp(prefix="bench-rank-"))
        study = play_study(tmp / "study", ["tuned", "balanced"], 4)
    games = pd.read_parquet(study / "games.parquet")
    manifest = json.loads((study / "manifest.json").read_text(encoding="utf-8"))
    labels = [p["label"] for p in manifest["policies"]]  # in the study's order
    if len(labels) != 2:
        ap.error(f"{study}: expected a study of two policies, got {labels}")
    res = tau_of(games, labels, args.boot, args.seed)
    lines = run.header("Balance under another player: the ranking's agreement",
                       data_hash=manifest.get("data_hash"))  # fmt: skip
    run.write(lines + report(study, manifest, labels, res, args))
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
