"""Statistics of Monte Carlo results: intervals for proportions, means and paired
differences, and Bradley-Terry ratings.

The interval functions are vectorised: ``k`` and ``n`` may be scalars or arrays of the same shape,
and the bounds come back with that shape as ``float64``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np


def z_value(confidence: float = 0.95) -> float:
    """The two-sided standard-normal quantile for ``confidence`` (0.95 -> 1.95996...)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(k, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion ``k / n``.

    Well behaved at ``k = 0`` and ``k = n`` (unlike the normal interval), which matters for
    rare result bands such as ``eliminated``.

    Parameters
    ----------
    k : int or ndarray(int)
        Successes.
    n : int or ndarray(int)
        Trials (> 0).
    confidence : float

    Returns
    -------
    (lo, hi) : ndarray(float64), each of the broadcast shape of ``k`` and ``n``
    """
    k, n, z, p = _proportion(k, n, confidence)
    z2n = z * z / n
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * np.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / (1.0 + z2n)
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return lo, hi


def _proportion(k, n, confidence: float):
    """``(k, n, z, p)``: successes and trials as float arrays (every ``n`` positive, else a
    ValueError), the two-sided normal quantile of ``confidence`` and the proportion."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any(n <= 0):
        raise ValueError("n must be positive")
    return k, n, z_value(confidence), k / n


def normal_interval(k, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Normal-approximation (Wald) interval ``p ± z·sqrt(p(1-p)/n)``, clipped to [0, 1].

    Same parameters and return shape as :func:`wilson_interval`.
    """
    k, n, z, p = _proportion(k, n, confidence)
    half = z * np.sqrt(p * (1.0 - p) / n)
    return np.clip(p - half, 0.0, 1.0), np.clip(p + half, 0.0, 1.0)


def mean_interval(x, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(mean, lo, hi)``: the mean of the per-game values ``x`` and its normal interval
    ``mean ± z·sd/sqrt(n)`` (sample sd); NaN bounds for fewer than two values."""
    x = np.asarray(x, dtype=np.float64)
    m = float(x.mean())
    if len(x) < 2:
        return m, float("nan"), float("nan")
    half = z_value(confidence) * float(x.std(ddof=1)) / np.sqrt(len(x))
    return m, m - half, m + half


def binomial_sigma(p, n) -> np.ndarray:
    """Standard deviation of a proportion estimated from ``n`` trials with true ``p``."""
    p = np.asarray(p, dtype=np.float64)
    return np.sqrt(p * (1.0 - p) / np.asarray(n, dtype=np.float64))


# --- means of game outcomes (win 1, draw 0.5, loss 0) ---------------------------------------


def outcome_moments(wins, draws, games) -> tuple[np.ndarray, np.ndarray]:
    """Mean and population variance of per-game scores (win 1, draw 1/2, loss 0).

    ``wins``, ``draws`` and ``games`` are counts (scalars or arrays of one shape).
    """
    w = np.asarray(wins, dtype=np.float64)
    d = np.asarray(draws, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    mean = (w + 0.5 * d) / n
    var = np.maximum((w + 0.25 * d) / n - mean * mean, 0.0)
    return mean, var


def mean_of_rates_interval(
    rates, variances, games, confidence: float = 0.95
) -> tuple[float, float, float]:
    """The mean of independent per-cell rates and its normal interval.

    Each cell ``i`` has a rate estimated from ``games[i]`` games whose per-game scores have
    (population) variance ``variances[i]``; the mean of the k rates has standard error
    ``sqrt(sum(var_i / n_i)) / k`` (a stratified mean: narrower than the interval of the
    pooled games when the cells differ). With equal cells it is the Wald interval of the
    pooled proportion (tested against statsmodels), and its coverage is tested.

    Returns
    -------
    (mean, low, high) : floats, the bounds clipped to [0, 1]
    """
    r = np.asarray(rates, dtype=np.float64)
    v = np.asarray(variances, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    k = len(r)
    if k == 0 or np.any(n <= 0):
        return float("nan"), float("nan"), float("nan")
    m = float(r.mean())
    se = float(np.sqrt(np.sum(v / n)) / k)
    z = z_value(confidence)
    return m, max(0.0, m - z * se), min(1.0, m + z * se)


def paired_interval(
    diff_sum, diff_sumsq, n, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean of paired differences and its Student-t interval, from sums.

    ``diff_sum`` and ``diff_sumsq`` are the sums of the per-seed differences and of their
    squares over ``n`` pairs (scalars or arrays). When every difference is zero the interval
    is exactly ``[0, 0]``; with ``n < 2`` it is undefined (NaN). Same result as
    ``scipy.stats.ttest_1samp(d, 0).confidence_interval()`` on the differences (tested).

    Returns
    -------
    (mean, low, high) : ndarray(float64)
    """
    from scipy import stats as st

    s = np.asarray(diff_sum, dtype=np.float64)
    s2 = np.asarray(diff_sumsq, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        var = np.maximum(s2 - n * mean * mean, 0.0) / (n - 1.0)
        se = np.sqrt(var / n)
        t = st.t.ppf(0.5 + confidence / 2.0, np.maximum(n - 1.0, 1.0))
        half = np.where(n >= 2, t * se, np.nan)
    half = np.where(s2 == 0.0, 0.0, half)  # every difference zero: exactly no change
    return mean, mean - half, mean + half


# --- Bradley-Terry ratings ------------------------------------------------------------------

ELO_PER_LOGIT = 400.0 / np.log(10.0)


@dataclass(frozen=True)
class BradleyTerry:
    """A Bradley-Terry fit: ``logit P(i beats j) = r_i - r_j (+ h if i moves first, - h if j
    does)``, ratings summing to zero, in Elo points (400 log10 odds).

    ratings, low, high: ndarray(float64, (k,)); first_player (h), its low and high: floats
    (NaN when the fit had no first-player term); cov: ndarray(float64, (k, k)) of the ratings.
    """

    players: tuple[str, ...]
    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray
    first_player: float
    first_player_low: float
    first_player_high: float
    cov: np.ndarray
    converged: bool


def bradley_terry(
    players: Sequence[str],
    i,
    j,
    score_i,
    games,
    first=None,
    confidence: float = 0.95,
) -> BradleyTerry:
    """Fit Bradley-Terry ratings to grouped results by binomial GLM (statsmodels).

    Parameters
    ----------
    players : the k names, indexed by ``i`` and ``j``.
    i, j : ndarray(int) of shape (m,): the two sides of each group of games.
    score_i : ndarray(float) (m,): side i's score in the group (a draw counts one half).
    games : ndarray(int) (m,): games in the group (> 0).
    first : ndarray(int) (m,) or None: +1 when side i moved first in every game of the group,
        -1 when side j did; None fits no first-player term. Groups with ``i == j`` (mirror
        matches) inform only the first-player term and are dropped when ``first`` is None.
    confidence : of the Wald intervals (from the GLM's covariance).

    The ratings are constrained to sum to zero (the last is minus the sum of the others);
    their covariance is carried through that constraint. Tested against choix and against a
    reference-coded statsmodels fit.
    """
    import warnings

    import statsmodels.api as sm

    k = len(players)
    T, X, s, n = _bt_design(k, i, j, score_i, games, first)
    endog = np.column_stack([s, n - s])
    z = z_value(confidence)
    nan = float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fit = sm.GLM(endog, X, family=sm.families.Binomial()).fit()
            params = np.asarray(fit.params, dtype=np.float64)
            covp = np.asarray(fit.cov_params(), dtype=np.float64)
            converged = bool(getattr(fit, "converged", True)) and bool(np.all(np.isfinite(params)))
        except Exception:  # perfect separation or a singular design: no finite ratings
            p = X.shape[1]
            params, covp, converged = np.full(p, nan), np.full((p, p), nan), False
    theta = params[: k - 1]
    ct = covp[: k - 1, : k - 1]
    r = T @ theta * ELO_PER_LOGIT
    cov = T @ ct @ T.T * ELO_PER_LOGIT**2
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    if first is not None:
        h = float(params[-1] * ELO_PER_LOGIT)
        hse = float(np.sqrt(max(covp[-1, -1], 0.0)) * ELO_PER_LOGIT)
        h_lo, h_hi = h - z * hse, h + z * hse
    else:
        h = h_lo = h_hi = nan
    return BradleyTerry(tuple(players), r, r - z * se, r + z * se, h, h_lo, h_hi, cov, converged)


def _bt_design(k: int, i, j, score_i, games, first):
    """The Bradley-Terry fit's design (:func:`bradley_terry`, :func:`bradley_terry_ratings`):
    the sum-to-zero coding ``T`` (full ratings = T @ theta), the rows' differences (and the
    first player's column), the scores and the games, of the cells with games (a mirror
    cell only with a first-player column)."""
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    s = np.asarray(score_i, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    keep = n > 0
    if first is None:
        keep &= i != j
    i, j, s, n = i[keep], j[keep], s[keep], n[keep]
    T = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    X = T[i] - T[j]
    if first is not None:
        X = np.column_stack([X, np.asarray(first, dtype=np.float64)[keep]])
    return T, X, s, n


def bradley_terry_ratings(k: int, i, j, score_i, games, first=None):
    """The ratings alone of :func:`bradley_terry`'s fit (Elo, summing to zero), by Newton's
    method on the same binomial likelihood, iterated to machine precision: what a bootstrap
    refits hundreds of times (``studies.whatif_tables``), some 50 times faster than the GLM
    (which also builds the covariance, unused there). Returns ``(ratings, params)``, or
    ``None`` when Newton does not converge (separation, a singular design): then fit with
    :func:`bradley_terry`. The two agree to about 1e-9 Elo (a test compares them)."""
    T, X, s, n = _bt_design(k, i, j, score_i, games, first)
    beta = np.zeros(X.shape[1])
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(X @ beta)))
        w = n * p * (1.0 - p)
        try:
            step = np.linalg.solve((X * w[:, None]).T @ X, X.T @ (s - n * p))
        except np.linalg.LinAlgError:
            return None
        beta = beta + step
        if not np.all(np.isfinite(beta)) or np.max(np.abs(beta)) > NEWTON_BOUND:
            return None
        if np.max(np.abs(step)) < NEWTON_TOL:
            return T @ beta[: k - 1] * ELO_PER_LOGIT, beta
    return None


NEWTON_STEPS = 50  # a well-posed fit converges in 4 to 8
NEWTON_TOL = 1e-13  # logits: far below the GLM's own stopping point
NEWTON_BOUND = 12.0  # logits (2,085 Elo): beyond it the data separate (no finite ratings)


def ranks_from_ratings(ratings: np.ndarray) -> np.ndarray:
    """1-based ranks, best (highest rating) first; ties share the better rank."""
    from scipy.stats import rankdata

    return rankdata(-np.asarray(ratings, dtype=np.float64), method="min").astype(np.int64)


@dataclass(frozen=True)
class Estimate:
    """Monte Carlo counts of named outcomes, with Wilson intervals."""

    names: tuple[str, ...]
    counts: np.ndarray  # int64 (k,)
    n: int
    seed: int
    confidence: float = 0.95

    @property
    def p(self) -> np.ndarray:
        return self.counts / self.n

    @property
    def interval(self) -> tuple[np.ndarray, np.ndarray]:
        return wilson_interval(self.counts, self.n, self.confidence)

    def to_dict(self) -> dict:
        lo, hi = self.interval
        return {
            "n": self.n,
            "seed": self.seed,
            "confidence": self.confidence,
            "interval": "wilson",
            "estimates": {
                name: {"p": float(p), "lo": float(a), "hi": float(b), "count": int(c)}
                for name, p, a, b, c in zip(self.names, self.p, lo, hi, self.counts, strict=True)
            },
        }
