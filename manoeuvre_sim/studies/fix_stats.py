"""The statistics of the balance fixer (``studies/fix.py``; docs/fix.md): the
always-valid confidence sequence a candidate is judged by, the objective's distance, Holm's
correction, and the per-side moments read off a paired study's joint counts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from manoeuvre_sim.core.study import Pairing
from manoeuvre_sim.studies.whatif import Joint

SCORE = {"a": np.array([1.0, 0.0, 0.5]), "b": np.array([0.0, 1.0, 0.5])}  # by winner a, b, draw


class _Interrupted(Exception):
    """A fix's games stopped (Ctrl-C, a job's cancel): nothing is written."""


# ----------------------------------------------------------------------- the statistics


def cs_radius(n, var, alpha: float, t_star: float, v0: float):
    """Half-width at ``n`` samples of the two-sided asymptotic confidence sequence for a
    mean (Waudby-Smith, Arnold, Wu & Ramdas 2021, arXiv:2103.06476, Theorem 2.2, the
    normal-mixture boundary of Robbins 1970)::

        sqrt( 2 (n v rho^2 + 1) / (n^2 rho^2) * log( sqrt(n v rho^2 + 1) / alpha ) )

    ``var``: the sample variance of one sample; ``rho`` is fixed before any game so that the
    width is least at ``t_star`` samples for a variance ``v0`` (their Eq. for the optimal
    rho: ``rho^2 v0 t_star = -2 log alpha + log(1 - 2 log alpha)``). Every look may be read:
    with probability >= 1 - alpha (asymptotically) the mean is inside at every n at once."""
    n = np.asarray(n, dtype=np.float64)
    c = -2.0 * math.log(alpha) + math.log(1.0 - 2.0 * math.log(alpha))
    rho2 = c / (t_star * v0)
    tv = n * np.asarray(var, dtype=np.float64) * rho2 + 1.0
    return np.sqrt(2.0 * tv / (n * n * rho2) * np.log(np.sqrt(tv) / alpha))


def distance(x, band: tuple[float, float]) -> float:
    """How far a rate is from the band (0 inside)."""
    lo, hi = band
    return float(max(lo - x, 0.0, x - hi))


def gain_range(r: tuple[float, float], m: tuple[float, float], band) -> tuple[float, float]:
    """The least and the greatest of ``distance(r) - distance(r + m)`` over the rectangle
    ``r x m`` (the objective's improvement for one target). The function is piecewise linear
    with kinks on the lines r = lo, r = hi, r + m = lo, r + m = hi, so its extremes are at
    the rectangle's corners or where those lines cross its edges or each other."""
    (r0, r1), (m0, m1) = r, m
    cuts = band
    rs = {r0, r1} | {c for c in cuts if r0 <= c <= r1}
    rs |= {c - x for c in cuts for x in (m0, m1) if r0 <= c - x <= r1}
    vals = []
    for rv in rs:
        ms = {m0, m1} | {c - rv for c in cuts if m0 <= c - rv <= m1}
        vals += [distance(rv, band) - distance(rv + mv, band) for mv in ms]
    return min(vals), max(vals)


@dataclass(frozen=True)
class TargetStats:
    """One target's field rate over ``n`` games per pairing: the reference's mean and the
    variance of its per-game-index field score, the paired change's mean and variance."""

    n: int
    ref: float
    ref_var: float
    change: float
    change_var: float
    changed_games: int
    ref_n: int | None = None  # the reference's own games per pairing (None: n)

    @property
    def rate(self) -> float:
        return self.ref + self.change


@dataclass(frozen=True)
class Judgement:
    verdict: str  # helpful, not helpful, negligible, unchanged, continue, inconclusive
    gain_low: float
    gain_high: float


def judge(stats: Sequence[TargetStats], band, alpha: float, t_star: float, v0: float,
          last: bool = False, v_change: Sequence[float] | None = None,
          min_gain: float = 0.0) -> Judgement:  # fmt: skip
    """The sequential verdict on one candidate after a look (module docstring): the box of
    every target's reference rate and paired change, each from its confidence sequence at
    ``alpha / (2 x targets)``; ``last``: the cap is reached (``continue`` becomes
    ``inconclusive``). ``v0``: the variance the reference's rho is tuned to; ``v_change``:
    per target, the variance each change's rho is tuned to (None: ``v0``; the fixer's:
    :class:`Sequential`); ``min_gain``: a candidate whose greatest gain over the box is
    below it is ``negligible`` (an indifference zone: not worth a printed change)."""
    a = alpha / (2 * len(stats))
    low = high = 0.0
    for i, s in enumerate(stats):
        wr = float(cs_radius(s.ref_n or s.n, s.ref_var, a, t_star, v0))
        vm = v0 if v_change is None else v_change[i]
        wm = float(cs_radius(s.n, s.change_var, a, t_star, vm))
        g0, g1 = gain_range((s.ref - wr, s.ref + wr), (s.change - wm, s.change + wm), band)
        low, high = low + g0, high + g1
    if all(s.changed_games == 0 for s in stats):
        return Judgement("unchanged", low, high)
    if low > 0:
        return Judgement("helpful", low, high)
    if high <= 0:
        return Judgement("not helpful", low, high)
    if high < min_gain:
        return Judgement("negligible", low, high)
    return Judgement("inconclusive" if last else "continue", low, high)


# the change's design variance is the first look's, clipped to this range around v0 (a
# first look of one changed game must not tune rho to a variance a thousand times too small)
CHANGE_VAR_CLIP = (1 / 400, 4.0)


def change_design_variance(first: float, v0: float) -> float:
    """The variance a change's rho is tuned to: its sample variance at the first look,
    clipped to ``CHANGE_VAR_CLIP`` x ``v0``."""
    lo, hi = CHANGE_VAR_CLIP
    return float(min(max(first, lo * v0), hi * v0))


class Sequential:
    """The sequential test of one candidate, look after look (:func:`judge`), with each
    change's rho tuned to the paired variance seen at the first look and then held fixed
    for the candidate's later looks (docs/fix.md, "The sequential test"): a paired change
    varies far less than a score (most games come out the same), and a rho tuned to a
    score's variance would leave its confidence sequence wider than it need be. ``v0``: the
    reference's design variance (a fair score over the target's pairings)."""

    def __init__(self, band, alpha: float, t_star: float, v0: float,
                 min_gain: float = 0.0) -> None:  # fmt: skip
        self.band, self.alpha, self.t_star, self.v0 = band, alpha, t_star, v0
        self.min_gain = min_gain
        self.v_change: list[float] | None = None

    def look(self, stats: Sequence[TargetStats], last: bool = False) -> Judgement:
        if self.v_change is None:
            self.v_change = [change_design_variance(s.change_var, self.v0) for s in stats]
        return judge(stats, self.band, self.alpha, self.t_star, self.v0, last, self.v_change,
                     self.min_gain)  # fmt: skip


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error over the pairings)."""
    p = np.asarray(p, dtype=np.float64)
    order = np.argsort(p)
    adj = np.empty_like(p)
    run = 0.0
    for k, i in enumerate(order):
        run = max(run, min(1.0, (len(p) - k) * p[i]))
        adj[i] = run
    return adj


def _moments(counts: np.ndarray, seat: str) -> tuple[int, float, float, float, float, int]:
    """Of one pairing's Joint counts, for side ``seat``: games, the reference's mean score
    and variance, the paired change's mean and variance, the games whose winner changed."""
    c = counts.reshape(2, 3, 2, 3).sum(axis=(0, 2))  # winner ref x winner cand
    s = SCORE[seat]
    n = int(c.sum())
    x = np.broadcast_to(s[:, None], c.shape)
    d = s[None, :] - s[:, None]
    mx = float((c * x).sum()) / n
    md = float((c * d).sum()) / n
    vx = max(float((c * x * x).sum()) / n - mx * mx, 0.0) * n / max(n - 1, 1)
    vd = max(float((c * d * d).sum()) / n - md * md, 0.0) * n / max(n - 1, 1)
    return n, mx, vx, md, vd, int(n - np.trace(c))


def field_stats(base: Sequence[Pairing], joint: Joint, targets: Sequence[str]) -> list[TargetStats]:
    """Per target: its field rate (the mean over its pairings, both seats, of its score; the
    pairings independent, so the per-game-index variance is the sum of theirs over m^2)."""
    out = []
    for t in targets:
        parts = [_moments(joint.counts[k], "a" if p.army_a.name == t else "b")
                 for k, p in enumerate(base) if t in (p.army_a.name, p.army_b.name)]  # fmt: skip
        m = len(parts)
        n = min(x[0] for x in parts)
        out.append(TargetStats(n, sum(x[1] for x in parts) / m, sum(x[2] for x in parts) / m**2,
                               sum(x[3] for x in parts) / m, sum(x[4] for x in parts) / m**2,
                               sum(x[5] for x in parts)))  # fmt: skip
    return out
