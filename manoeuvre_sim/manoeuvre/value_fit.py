"""Fit the learned value (issue 26) to self-play positions (``value_data.py``), measure its
calibration on held-out games, and export it as plain arrays (``engine/players/value.py``).

The model is a logistic regression (scikit-learn, the optional extra ``learn``) on the
standardised features: a seat's log-odds of winning is linear in them. It is small (26
numbers), calibrated by construction on the data it is fitted to (its log loss is the
quantity fitted), evaluated in a few dozen flops inside a rollout, and its weights can be
read. A draw (mirror matches only) counts as half a win: each drawn row is fitted twice,
once won and once lost, with weight 1/2.

The split is by game (``gid``), never by row: the rows of one game are strongly alike, and
a test set sharing games with the training set would flatter the fit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from manoeuvre_sim.core.stats import normal_interval
from manoeuvre_sim.manoeuvre.engine.players.features import FEATURE_NAMES


@dataclass
class Fit:
    """A fitted value: the arrays ``engine/value.save_value`` writes, and its test."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    metrics: dict  # held-out: log loss, Brier, and the same for the baselines
    reliability: pd.DataFrame  # held-out, by decile of the prediction
    test_gids: np.ndarray

    def predict(self, x: np.ndarray) -> np.ndarray:
        z = self.intercept + ((x - self.mean) / self.scale) @ self.coef
        return 1.0 / (1.0 + np.exp(-z))


def split_games(rows: pd.DataFrame, test_share: float, seed: int) -> np.ndarray:
    """A boolean mask of the rows whose game is held out: ``test_share`` of the games,
    drawn with ``seed``."""
    gids = np.unique(rows["gid"].to_numpy())
    rng = np.random.default_rng(seed)
    test = rng.choice(gids, size=max(1, int(round(test_share * len(gids)))), replace=False)
    return np.isin(rows["gid"].to_numpy(), test)


def log_loss(y: np.ndarray, p: np.ndarray) -> float:
    """Mean cross-entropy of predictions ``p`` for outcomes ``y`` in {0, 1/2, 1}."""
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def reliability(y: np.ndarray, p: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """By bin of the prediction (equal widths): rows, mean prediction, mean outcome and a
    95 % normal interval of the outcome."""
    edges = np.linspace(0, 1, bins + 1)
    idx = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    out = []
    for b in range(bins):
        m = idx == b
        n = int(m.sum())
        if n == 0:
            continue
        obs = float(y[m].mean())
        lo, hi = normal_interval(obs * n, n)
        out.append((edges[b], edges[b + 1], n, float(p[m].mean()), obs, float(lo), float(hi)))
    cols = ["lo", "hi", "rows", "predicted", "observed", "obs_lo", "obs_hi"]
    return pd.DataFrame(out, columns=cols)


def fit_value(rows: pd.DataFrame, *, test_share: float = 0.2, seed: int = 1, c: float = 1.0) -> Fit:
    """Fit the logistic value on the training games and test it on the held-out ones."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    x = rows[list(FEATURE_NAMES)].to_numpy(np.float64)
    y = rows["result"].to_numpy(np.float64)
    test = split_games(rows, test_share, seed)
    xtr, ytr = x[~test], y[~test]
    scaler = StandardScaler().fit(xtr)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    ztr = (xtr - scaler.mean_) / scale
    draw = ytr == 0.5
    zfit = np.concatenate([ztr, ztr[draw]])
    yfit = np.concatenate([np.where(draw, 1, ytr).astype(int), np.zeros(draw.sum(), dtype=int)])
    w = np.concatenate([np.where(draw, 0.5, 1.0), np.full(draw.sum(), 0.5)])
    lr = LogisticRegression(C=c, max_iter=2000).fit(zfit, yfit, sample_weight=w)
    fit = Fit(scaler.mean_.copy(), scale, lr.coef_[0].copy(), float(lr.intercept_[0]), {},
              pd.DataFrame(), np.unique(rows["gid"].to_numpy()[test]))  # fmt: skip
    p = fit.predict(x[test])
    yte = y[test]
    base = float(ytr.mean())
    fit.metrics = {
        "train_rows": int((~test).sum()),
        "test_rows": int(test.sum()),
        "test_games": int(len(fit.test_gids)),
        "log_loss": log_loss(yte, p),
        "brier": float(np.mean((p - yte) ** 2)),
        "log_loss_constant": log_loss(yte, np.full(len(yte), base)),
        "brier_constant": float(np.mean((base - yte) ** 2)),
        "train_log_loss": log_loss(ytr, fit.predict(xtr)),
    }
    fit.reliability = reliability(yte, p)
    return fit


def provenance(data_prov: dict, fit: Fit, **extra) -> dict:
    """The model file's provenance: the data's, the fit's test figures, library versions."""
    import numpy
    import sklearn

    return {
        "data": data_prov,
        "fit": "logistic regression, standardised features (manoeuvre_sim/manoeuvre/value_fit.py)",
        "test": {k: round(v, 6) if isinstance(v, float) else v for k, v in fit.metrics.items()},
        "versions": {"scikit-learn": sklearn.__version__, "numpy": numpy.__version__},
        **extra,
    }
