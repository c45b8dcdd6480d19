"""The why study's statistics (``studies/why.py``; docs/why.md): Shapley values of the parts
from the paired values of coalitions, exactly (every coalition) or along sampled
permutations and their reverses, and their 95 % intervals over independent samples.

A coalition is a bit mask over the parts of both sides (bit j set: part j on). In each
sample k its value ``v_k(S)`` is side X's mean score (a win 1, a draw 1/2) over the
sample's games of S, every coalition of a sample played on the same seeds.

- Exact: ``phi_j(k) = sum over S without j of |S|! (n - |S| - 1)! / n! (v_k(S + j) -
  v_k(S))`` (:func:`exact_shapley`).
- Sampled: a random order of the parts and its reverse (antithetic), ``phi_j(k)`` the mean
  of part j's two marginal contributions ``v_k(before j, and j) - v_k(before j)`` along
  them (:func:`path_shapley`); each order's contributions telescope to ``v_k(all) -
  v_k(none)``.

Either way ``sum_j phi_j(k) = v_k(all) - v_k(none)`` in every sample (efficiency), so the
mean contributions add up to the measured gap exactly; the samples are independent (own
seeds, own order), so each part's interval is Student's t over them (:func:`t_interval`,
checked against ``scipy.stats.ttest_1samp``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

FULL_LEVEL = 0.95


def weights(n: int) -> np.ndarray:
    """``w[s] = s! (n - s - 1)! / n!``: the Shapley weight of a coalition of ``s`` parts
    that part j joins (s = 0 .. n - 1)."""
    return np.array([math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n)
                     for s in range(n)])  # fmt: skip


def exact_shapley(values: np.ndarray) -> np.ndarray:
    """Every part's Shapley value from ``values`` (``float (2**n,)``: the value of each
    coalition by its bit mask, or ``(2**n, K)``: of K samples): ``(n,)`` or ``(n, K)``."""
    values = np.asarray(values, dtype=float)
    size = values.shape[0]
    n = size.bit_length() - 1
    if size != 1 << n:
        raise ValueError(f"expected 2**n coalition values, got {size}")
    masks = np.arange(size)
    count = np.array([bin(m).count("1") for m in masks])
    w = weights(n) if n else np.zeros(0)
    out = np.zeros((n, *values.shape[1:]))
    for j in range(n):
        without = masks[(masks >> j) & 1 == 0]
        gain = values[without | (1 << j)] - values[without]
        out[j] = np.tensordot(w[count[without]], gain, axes=(0, 0))
    return out


def orders(rng: np.random.Generator, n: int) -> tuple[list[int], list[int]]:
    """A random order of ``n`` parts and its reverse (the antithetic pair of a sample)."""
    first = [int(x) for x in rng.permutation(n)]
    return first, first[::-1]


def path_masks(order: Sequence[int]) -> list[int]:
    """The coalitions along an order: none, then each part switched on in turn."""
    masks, m = [0], 0
    for j in order:
        m |= 1 << j
        masks.append(m)
    return masks


def path_shapley(paths: Sequence[Sequence[int]], value: Mapping[int, float], n: int) -> np.ndarray:
    """Each part's mean marginal contribution along the orders ``paths`` (``value``: a
    coalition's value by its mask): ``(n,)``, summing to ``value[all] - value[none]``."""
    out = np.zeros(n)
    for order in paths:
        masks = path_masks(order)
        for t, j in enumerate(order):
            out[j] += value[masks[t + 1]] - value[masks[t]]
    return out / len(paths)


def t_interval(x: np.ndarray, level: float = FULL_LEVEL) -> tuple[np.ndarray, np.ndarray,
                                                                    np.ndarray, np.ndarray]:  # fmt: skip
    """Per column of ``x`` (``(K, n)``: K independent samples), the mean, its standard
    error and Student's t interval ``mean -/+ t(level, K - 1) se`` (nan with fewer than 2
    samples; a column of equal samples: an interval of width 0)."""
    from scipy import stats

    x = np.asarray(x, dtype=float)
    k = x.shape[0]
    mean = x.mean(axis=0)
    if k < 2:
        nan = np.full(mean.shape, np.nan)
        return mean, nan, nan, nan
    se = x.std(axis=0, ddof=1) / math.sqrt(k)
    half = stats.t.ppf(0.5 + level / 2, k - 1) * se
    return mean, se, mean - half, mean + half


def samples_for(se: float, samples: int, half_width: float, level: float = FULL_LEVEL) -> int:
    """About how many samples bring an interval of standard error ``se`` (measured on
    ``samples``) to ``half_width``: ``samples (z se / half_width)^2``, rounded up."""
    from scipy import stats

    if not se > 0:
        return samples
    z = stats.norm.ppf(0.5 + level / 2)
    return max(2, math.ceil(samples * (z * se / half_width) ** 2))


__all__ = ["FULL_LEVEL", "exact_shapley", "orders", "path_masks", "path_shapley",
           "samples_for", "t_interval", "weights"]  # fmt: skip
