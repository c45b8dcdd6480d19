"""Confidence intervals for Monte Carlo proportions.

Both functions are vectorised: ``k`` and ``n`` may be scalars or arrays of the same shape,
and the bounds come back with that shape as ``float64``.
"""

from __future__ import annotations

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
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any(n <= 0):
        raise ValueError("n must be positive")
    z = z_value(confidence)
    p = k / n
    z2n = z * z / n
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * np.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / (1.0 + z2n)
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return lo, hi


def normal_interval(k, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Normal-approximation (Wald) interval ``p ± z·sqrt(p(1-p)/n)``, clipped to [0, 1].

    Same parameters and return shape as :func:`wilson_interval`.
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any(n <= 0):
        raise ValueError("n must be positive")
    z = z_value(confidence)
    p = k / n
    half = z * np.sqrt(p * (1.0 - p) / n)
    return np.clip(p - half, 0.0, 1.0), np.clip(p + half, 0.0, 1.0)


def binomial_sigma(p, n) -> np.ndarray:
    """Standard deviation of a proportion estimated from ``n`` trials with true ``p``."""
    p = np.asarray(p, dtype=np.float64)
    return np.sqrt(p * (1.0 - p) / np.asarray(n, dtype=np.float64))
