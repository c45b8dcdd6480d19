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
    # per target, the rate's interval of the box (r + m: the reference's interval plus the
    # change's sequence): inside the band at a look, the candidate *meets* the objective
    rate_low: tuple[float, ...] = ()
    rate_high: tuple[float, ...] = ()

    def band(self, band) -> str:
        """Where the box puts the candidate's rates: ``inside`` (every target's interval in
        the band), ``outside`` (some target's interval wholly out of it) or
        ``inconclusive`` (an interval straddles an edge)."""
        lo, hi = band
        if all(lo <= a and b <= hi for a, b in zip(self.rate_low, self.rate_high, strict=True)):
            return "inside"
        if any(b < lo or a > hi for a, b in zip(self.rate_low, self.rate_high, strict=True)):
            return "outside"
        return "inconclusive"

    def margin(self, band) -> float:
        """The least clearance of a target's rate interval from the band's edges (negative:
        an interval crosses an edge): the meeting errata most surely inside ranks first."""
        lo, hi = band
        return min(min(a - lo, hi - b) for a, b in zip(self.rate_low, self.rate_high,
                                                         strict=True))  # fmt: skip


def ref_radius(n, var, a: float, t_star: float, v0: float, fixed: bool) -> float:
    """The reference rate's half-width at level ``1 - a``: a confidence sequence
    (:func:`cs_radius`) when the reference grows look by look, the fixed-sample normal
    interval when it was played once to ``n`` games before the candidate's first look and
    is never looked at again (the fixer's: a fixed interval read once is valid as it is,
    and about 0.7 times the sequence's width)."""
    if fixed:
        from scipy.stats import norm

        return float(norm.ppf(1.0 - a / 2) * math.sqrt(var / n))
    return float(cs_radius(n, var, a, t_star, v0))


def judge(stats: Sequence[TargetStats], band, alpha: float, t_star: float, v0: float,
          last: bool = False, v_change: Sequence[float] | None = None,
          min_gain: float = 0.0, ref_fixed: bool = False) -> Judgement:  # fmt: skip
    """The sequential verdict on one candidate after a look (module docstring): the box of
    every target's reference rate and paired change, each at ``alpha / (2 x targets)``;
    ``last``: the cap is reached (``continue`` becomes ``inconclusive``). ``v0``: the
    variance the reference's rho is tuned to; ``v_change``: per target, the variance each
    change's rho is tuned to (None: ``v0``; the fixer's: :class:`Sequential`);
    ``min_gain``: a candidate whose greatest gain over the box is below it is
    ``negligible`` (an indifference zone: not worth a printed change); ``ref_fixed``: the
    reference was played once to its games before the candidate (:func:`ref_radius`). The
    box holds at every look with probability >= 1 - alpha, so its rate intervals
    (:meth:`Judgement.band`) decide whether the candidate meets the band at the same
    rate."""
    a = alpha / (2 * len(stats))
    low = high = 0.0
    rlo, rhi = [], []
    for i, s in enumerate(stats):
        wr = ref_radius(s.ref_n or s.n, s.ref_var, a, t_star, v0, ref_fixed)
        vm = v0 if v_change is None else v_change[i]
        wm = float(cs_radius(s.n, s.change_var, a, t_star, vm))
        g0, g1 = gain_range((s.ref - wr, s.ref + wr), (s.change - wm, s.change + wm), band)
        low, high = low + g0, high + g1
        rlo.append(s.rate - wr - wm)
        rhi.append(s.rate + wr + wm)
    box = (tuple(rlo), tuple(rhi))
    if all(s.changed_games == 0 for s in stats):
        return Judgement("unchanged", low, high, *box)
    if low > 0:
        return Judgement("helpful", low, high, *box)
    if high <= 0:
        return Judgement("not helpful", low, high, *box)
    if high < min_gain:
        return Judgement("negligible", low, high, *box)
    return Judgement("inconclusive" if last else "continue", low, high, *box)


# the change's design variance is the first look's, clipped to this range around v0 (a
# first look of one changed game must not tune rho to a variance a thousand times too small)
CHANGE_VAR_CLIP = (1 / 400, 4.0)


def change_design_variance(first: float, v0: float) -> float:
    """The variance a change's rho is tuned to: its sample variance at the first look,
    clipped to ``CHANGE_VAR_CLIP`` x ``v0``."""
    lo, hi = CHANGE_VAR_CLIP
    return float(min(max(first, lo * v0), hi * v0))


# the confirmation's default size (``confirm_games_for``): games per pairing so that its
# half-width for a fair score is at most this fraction of the band's half-width, within
CONFIRM_FRACTION = 0.2
CONFIRM_GAMES_RANGE = (200, 10_000)


def confirm_z(alpha: float, targets: int) -> float:
    """The confirmation's normal quantile: its target intervals are Bonferroni intervals at
    ``alpha / (2 x targets)`` each (``fix_confirm.confirm``)."""
    from scipy.stats import norm

    return float(norm.ppf(1.0 - alpha / (2 * targets)))


def confirm_halfwidth(alpha: float, targets: int, pairings: int, games: int) -> float:
    """The confirmation's half-width for a target's field rate (``fix_confirm.confirm``: a
    Bonferroni normal interval at ``alpha / (2 x targets)``) over ``games`` per pairing and
    ``pairings`` pairings of the target, at a fair score's variance (1/4 a game: no score of
    a win 1, a draw 1/2, a loss 0 varies more), so never narrower than the one it will be:
    the *guard* of the search (docs/fix.md, "The guard band")."""
    return confirm_z(alpha, targets) * math.sqrt(0.25 / pairings / games)


def confirm_games_for(band, alpha: float, targets: int, pairings: int) -> int:
    """The confirmation's default games per pairing: the fewest whose half-width
    (:func:`confirm_halfwidth`) is at most ``CONFIRM_FRACTION`` of the band's half-width,
    within ``CONFIRM_GAMES_RANGE``."""
    z = confirm_z(alpha, targets)
    want = CONFIRM_FRACTION * (band[1] - band[0]) / 2
    n = math.ceil(z * z * 0.25 / pairings / (want * want))
    lo, hi = CONFIRM_GAMES_RANGE
    return int(min(max(n, lo), hi))


def inner_band(band, guard: float) -> tuple[float, float]:
    """The search's band: ``band`` shrunk at each edge by ``guard`` (at most to its centre).
    An errata whose true rate is inside it is confirmed with probability >= 1/2 (more as it
    is more central); one whose rate is outside it but inside the band, with less."""
    lo, hi = band
    g = min(max(guard, 0.0), (hi - lo) / 2)
    return (lo + g, hi - g)


class Sequential:
    """The sequential test of one candidate, look after look (:func:`judge`), with each
    change's rho tuned to the paired variance seen at the first look and then held fixed
    for the candidate's later looks (docs/fix.md, "The sequential test"): a paired change
    varies far less than a score (most games come out the same), and a rho tuned to a
    score's variance would leave its confidence sequence wider than it need be. ``v0``: the
    reference's design variance (a fair score over the target's pairings); ``guard``: the
    confirmation's half-width, the objective D and the estimates read on the band shrunk by
    it (:func:`inner_band`), the box on the band itself."""

    def __init__(self, band, alpha: float, t_star: float, v0: float, min_gain: float = 0.0,
                 ref_fixed: bool = False, guard: float = 0.0) -> None:  # fmt: skip
        self.band, self.alpha, self.t_star, self.v0 = band, alpha, t_star, v0
        self.min_gain, self.ref_fixed = min_gain, ref_fixed
        self.inner = inner_band(band, guard)
        self.v_change: list[float] | None = None

    def look(self, stats: Sequence[TargetStats], last: bool = False) -> Judgement:
        if self.v_change is None:
            self.v_change = [change_design_variance(s.change_var, self.v0) for s in stats]
        return judge(stats, self.inner, self.alpha, self.t_star, self.v0, last, self.v_change,
                     self.min_gain, self.ref_fixed)  # fmt: skip

    def verdict(self, stats: Sequence[TargetStats], last: bool = False) -> tuple[str, Judgement]:
        """The look's verdict with the band's (:meth:`Judgement.band`): a helpful candidate
        (on the inner band) whose estimates are all inside the *inner* band plays on to the
        cap, and there it *meets* the objective when every target's rate interval lies
        inside the band, else it stays ``helpful`` (the band inconclusive or outside). The
        band is read at the cap only: stopping a candidate the moment its interval first
        enters the band would pick its luckiest look, an estimate flattered towards the
        inside that fresh seeds undo."""
        j = self.look(stats, last)
        if j.verdict != "helpful":
            return j.verdict, j
        lo, hi = self.inner
        if not all(lo <= s.rate <= hi for s in stats):
            return "helpful", j
        if not last:
            return "continue", j
        return ("meets" if j.band(self.band) == "inside" else "helpful"), j


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


def gain_estimate(base: Sequence[Pairing], joint: Joint, stats: Sequence[TargetStats],
                  targets: Sequence[str], band) -> tuple[float, float]:  # fmt: skip
    """The objective's estimated improvement ``D(r) - D(r + m)`` at the estimates and its
    paired standard error (the screen's ranking: docs/fix.md, "The screen"): each target's
    gain linearised along its chord (slope ``(distance(r) - distance(r + m)) / m``), so the
    gain is a weighted sum of the pairings' paired changes; the pairings are independent
    and a pairing's two sides' changes are opposite (their scores add to 1), so its
    variance is the sum over the pairings of (w_a - w_b)^2 x the change's variance."""
    gain, slope = 0.0, {}
    for t, s in zip(targets, stats, strict=True):
        g = distance(s.ref, band) - distance(s.rate, band)
        gain += g
        slope[t] = g / s.change if s.change else 0.0
    m = {t: sum(t in (p.army_a.name, p.army_b.name) for p in base) for t in targets}
    var, n = 0.0, None
    for k, p in enumerate(base):
        wa = slope.get(p.army_a.name, 0.0) / m.get(p.army_a.name, 1)
        wb = slope.get(p.army_b.name, 0.0) / m.get(p.army_b.name, 1)
        if wa == wb:
            continue
        nk, _, _, _, vd, _ = _moments(joint.counts[k], "a")
        var += (wa - wb) ** 2 * vd
        n = nk if n is None else min(n, nk)
    return gain, (math.sqrt(var / n) if n else 0.0)
