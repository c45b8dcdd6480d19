"""The learned position value: self-play positions, the fit, its calibration on held-out games.

    python -m benchmarks value [--quick] [--games 100] [--policy tuned] [--seed 1]
        [--name tuned] [--test-share 0.2] [--note TEXT]

Issue 26 part 1: a seat's chance to win from a position, fitted to self-play games
(``manoeuvre_sim/manoeuvre/value_data.py``, ``value_fit.py``; the model
``engine/players/value.py``, its features ``engine/players/features.py``). Plays
``--games`` games of ``--policy`` against itself on every ordered pairing of the 8 base
armies (the balance study's seeds), keeps the features of both seats at the start of every
player turn (stored in reports/value/, not committed), fits the logistic value on the games
outside a held-out ``--test-share`` of them (split by game), writes the model to
data/value/NAME.npz with its provenance, and benchmarks/RESULTS-value-NAME.md: log loss and
Brier score on the held-out games (lower is better) against a constant prediction, the
reliability table (predicted against observed win rate by bin of the prediction; draws
count half), the weights, and the other models of data/value/ on the same games. The
reliability curve is drawn to reports/value/NAME-reliability.png. Needs the ``learn`` extra.

A ``--quick`` run writes its model, positions and curve to a temporary directory, never
to data/value/ (the engine reads those files).

The search uses ``tuned`` (the default of ``search:...:vH``). ``search1`` and ``search1b``
are the self-play refit round of issue 26 part 2: ``search1b`` predicts the value search's
own games better than ``tuned``, but the search with it did not win (47.6 % [43.3, 51.9]
head to head, 81.0 % against ``tuned`` where the search with ``tuned`` scored 83.0 %;
docs/players.md), so neither is used.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from benchmarks.common import BENCH_DIR, ROOT, Parser, Run


def positions_of(args, armies: list[str], data: Path):
    """The self-play positions (read back if ``data`` holds them): rows, provenance, seconds."""
    from manoeuvre_sim.manoeuvre.value_data import positions, read_positions, write_positions

    t0 = time.perf_counter()
    if data.exists():
        rows, prov = read_positions(data)
        print(f"read {len(rows)} rows from {data}", flush=True)
    else:
        rows, prov = positions(
            armies, args.games, args.policy, args.seed,
            progress=lambda i, n: print(f"pairing {i}/{n}", flush=True),
        )  # fmt: skip
        write_positions(rows, prov, data)
    return rows, prov, time.perf_counter() - t0


def fit_lines(args, rows, prov, secs: float, fit) -> list[str]:
    import numpy as np

    from manoeuvre_sim.manoeuvre.engine.players.features import FEATURE_NAMES

    m = fit.metrics
    lines = [
        f"## Model `{args.name}`",
        "",
        f"Data: `{args.policy}` against itself, {args.games} games on each of the 64 ordered "
        f"pairings of the 8 base armies, {len(rows):,} rows (both seats at the start of every "
        f"player turn; {secs:.0f} s to play), rules {prov['rules_version']}, data hash "
        f"`{prov['data_hash']}`, rows hash `{prov['rows_hash']}`. Held out: "
        f"{m['test_games']:,} games ({m['test_rows']:,} rows); fitted on {m['train_rows']:,} "
        "rows.",
        "",
        "| held-out games | log loss | Brier |",
        "|---|---:|---:|",
        f"| the value | {m['log_loss']:.4f} | {m['brier']:.4f} |",
        f"| a constant (the training mean) | {m['log_loss_constant']:.4f} | "
        f"{m['brier_constant']:.4f} |",
        "",
        f"(Log loss on the training rows: {m['train_log_loss']:.4f}.)",
        "",
        "Reliability on the held-out games (bins of the predicted chance to win):",
        "",
        "| predicted | rows | mean predicted | observed | 95 % interval |",
        "|---|---:|---:|---:|---|",
    ]
    for r in fit.reliability.itertuples():
        lines.append(f"| {r.lo:.1f}-{r.hi:.1f} | {r.rows:,} | {r.predicted:.3f} | "
                     f"{r.observed:.3f} | [{r.obs_lo:.3f}, {r.obs_hi:.3f}] |")  # fmt: skip
    worst = float(np.max(np.abs(fit.reliability.predicted - fit.reliability.observed)))
    lines += [
        "",
        f"Largest gap between a bin's mean prediction and its observed rate: {worst:.3f}.",
        "",
        "Weights (per standard deviation of the feature; the log-odds of winning):",
        "",
        "| feature | mean | sd | weight |",
        "|---|---:|---:|---:|",
    ]
    for i in np.argsort(-np.abs(fit.coef)):
        lines.append(f"| `{FEATURE_NAMES[i]}` | {fit.mean[i]:.3f} | {fit.scale[i]:.3f} | "
                     f"{fit.coef[i]:+.3f} |")  # fmt: skip
    return lines + [f"| intercept | | | {fit.intercept:+.3f} |"]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 100, 2, "games per ordered pairing")
    ap.add_argument("--policy", default="tuned")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="tuned", help="the model's name: data/value/NAME.npz")
    ap.add_argument("--test-share", type=float, default=0.2)
    ap.add_argument("--note", default="", help="a line on how this model came about")
    args = ap.parse_args(argv)
    from manoeuvre_sim.manoeuvre.engine.players.value import load_value, save_value, value_path
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies
    from manoeuvre_sim.manoeuvre.value_fit import fit_value, provenance

    run = Run(args, ap.name)
    tmp = Path(tempfile.mkdtemp(prefix="bench-value-")) if args.quick else None
    where = tmp or ROOT / "reports" / "value"
    armies = [a.name for a in load_builtin_armies()]
    safe = args.policy.replace(":", "_")
    data = where / f"positions-{safe}-g{args.games}-s{args.seed}.parquet"
    rows, prov, secs = positions_of(args, armies, data)
    fit = fit_value(rows, test_share=args.test_share, seed=args.seed)
    path = (tmp / f"{args.name}.npz") if tmp else value_path(args.name)
    save_value(path, fit.mean, fit.scale, fit.coef, fit.intercept,
               provenance(prov, fit, test_share=args.test_share, split_seed=args.seed))  # fmt: skip
    load_value(str(path))  # what the engine will read
    lines = run.header(f"The learned position value: model `{args.name}`",
                       data_hash=prov["data_hash"], extra=[args.note] if args.note else [])  # fmt: skip
    lines += fit_lines(args, rows, prov, secs, fit)
    others = cross_check(rows, fit, args.name)
    if others:
        lines += [
            "",
            "The other models of data/value/ on the same held-out games (as read from their "
            "files when this ran):",
            "",
            "| model | log loss | Brier | largest reliability gap |",
            "|---|---:|---:|---:|",
            *others,
        ]
    run.write(lines, BENCH_DIR / f"RESULTS-value-{args.name}.md")
    plot(fit, where / f"{args.name}-reliability.png", args.name)
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def cross_check(rows, fit, name: str) -> list[str]:
    """Table rows: every other model file's log loss, Brier score and largest reliability
    gap on this fit's held-out games."""
    import numpy as np

    from manoeuvre_sim.manoeuvre.engine.players.features import FEATURE_NAMES
    from manoeuvre_sim.manoeuvre.engine.players.value import load_value, value_path
    from manoeuvre_sim.manoeuvre.value_fit import log_loss, reliability

    test = np.isin(rows["gid"].to_numpy(), fit.test_gids)
    x = rows[list(FEATURE_NAMES)].to_numpy(np.float64)[test]
    y = rows["result"].to_numpy(np.float64)[test]
    out = []
    for path in sorted(value_path(name).parent.glob("*.npz")):
        if path.stem == name:
            continue
        m = load_value(str(path))
        p = 1.0 / (1.0 + np.exp(-(m["intercept"] + ((x - m["mean"]) / m["scale"]) @ m["coef"])))
        r = reliability(y, p)
        gap = float(np.max(np.abs(r.predicted - r.observed)))
        out.append(f"| `{path.stem}` | {log_loss(y, p):.4f} | {np.mean((p - y) ** 2):.4f} | "
                   f"{gap:.3f} |")  # fmt: skip
    return out


def plot(fit, path: Path, name: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = fit.reliability
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, label="perfect calibration")
    ax.errorbar(r.predicted, r.observed, yerr=[r.observed - r.obs_lo, r.obs_hi - r.observed],
                fmt="o-", label=f"value `{name}`, held-out games")  # fmt: skip
    ax.set_xlabel("predicted chance to win")
    ax.set_ylabel("observed win rate (draws 1/2)")
    ax.set_title(f"Reliability: log loss {fit.metrics['log_loss']:.3f}, "
                 f"Brier {fit.metrics['brier']:.3f}")  # fmt: skip
    ax.legend(loc="upper left")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    print(f"wrote {path}")


if __name__ == "__main__":
    raise SystemExit(main())
