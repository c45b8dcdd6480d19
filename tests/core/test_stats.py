"""The hand-written statistics against maintained libraries (statsmodels, scipy, choix)."""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core import stats


@pytest.mark.parametrize(
    "k,n", [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (1, 2), (50, 100), (999, 1000), (7, 13)]
)
def test_wilson_equals_statsmodels(k, n):
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = stats.wilson_interval(k, n)
    elo, ehi = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert float(lo) == pytest.approx(elo, abs=1e-12)
    assert float(hi) == pytest.approx(ehi, abs=1e-12)


def test_wilson_vectorised_equals_scalar():
    k = np.array([0, 3, 10])
    lo, hi = stats.wilson_interval(k, 10)
    for x, a, b in zip(k, lo, hi, strict=True):
        sa, sb = stats.wilson_interval(int(x), 10)
        assert (a, b) == (float(sa), float(sb))


def test_mean_of_rates_is_pooled_wald_when_cells_are_equal():
    from statsmodels.stats.proportion import proportion_confint

    wins = np.array([530, 530, 530, 530])
    n = np.array([1000, 1000, 1000, 1000])
    mean, var = stats.outcome_moments(wins, 0, n)
    m, lo, hi = stats.mean_of_rates_interval(mean, var, n)
    elo, ehi = proportion_confint(wins.sum(), n.sum(), alpha=0.05, method="normal")
    assert m == pytest.approx(wins.sum() / n.sum())
    assert (lo, hi) == pytest.approx((elo, ehi), abs=1e-12)


def test_mean_of_rates_interval_covers_at_its_level():
    """Unequal cells (stratified: narrower than the pooled interval): 95 % coverage."""
    rng = np.random.default_rng(11)
    p = np.array([0.2, 0.45, 0.6, 0.85])
    n = np.array([400, 800, 300, 1000])
    hits = 0
    reps = 4000
    for _ in range(reps):
        w = rng.binomial(n, p)
        mean, var = stats.outcome_moments(w, 0, n)
        _, lo, hi = stats.mean_of_rates_interval(mean, var, n)
        hits += lo <= p.mean() <= hi
    assert 0.935 < hits / reps < 0.965


def test_outcome_moments_count_draws_half():
    # 2 wins, 2 draws, 1 loss: scores 1,1,.5,.5,0
    x = np.array([1, 1, 0.5, 0.5, 0])
    mean, var = stats.outcome_moments(2, 2, 5)
    assert float(mean) == pytest.approx(x.mean())
    assert float(var) == pytest.approx(x.var())


def test_paired_interval_equals_scipy_t():
    from scipy.stats import ttest_1samp

    rng = np.random.default_rng(5)
    d = rng.choice([-1.0, -0.5, 0.0, 0.0, 0.0, 1.0], size=400)
    m, lo, hi = stats.paired_interval(d.sum(), (d * d).sum(), len(d))
    ci = ttest_1samp(d, 0.0).confidence_interval(0.95)
    assert float(m) == pytest.approx(d.mean())
    assert (float(lo), float(hi)) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_paired_interval_all_zero_is_exactly_zero():
    m, lo, hi = stats.paired_interval(0.0, 0.0, 1000)
    assert (float(m), float(lo), float(hi)) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "x,confidence",
    [([1.0, 0.5, 0.0, 1.0, 1.0], 0.95), ([3.0, 7.0, 8.0, 12.0], 0.9), ([2.0, 4.0], 0.95)],
)
def test_mean_interval_equals_scipy_normal_with_the_sample_sd(x, confidence):
    """What ``mean_interval`` documents: mean ± z·sd/sqrt(n), the sample sd (ddof=1), i.e.
    scipy's normal interval scaled by ``sem``. Small samples, where ddof matters most (n=5:
    the population sd is 11 % narrower)."""
    from scipy.stats import norm, sem

    m, lo, hi = stats.mean_interval(x, confidence)
    elo, ehi = norm.interval(confidence, loc=np.mean(x), scale=sem(x))
    assert m == pytest.approx(np.mean(x), abs=1e-15)
    assert (lo, hi) == pytest.approx((elo, ehi), rel=1e-12, abs=1e-12)


def test_mean_interval_of_fewer_than_two_values_has_no_bounds():
    m, lo, hi = stats.mean_interval([0.5])
    assert m == 0.5 and np.isnan(lo) and np.isnan(hi)


def _table():
    """A fixed 4-player table: (i, j, wins of i, games), no draws, no first-player term."""
    rows = [
        (0, 1, 60, 100), (0, 2, 70, 100), (0, 3, 80, 100),
        (1, 2, 55, 100), (1, 3, 65, 100), (2, 3, 58, 100),
        (1, 0, 45, 100), (3, 2, 40, 100),
    ]  # fmt: skip
    return np.array(rows)


def test_bradley_terry_equals_choix_mle():
    import choix

    t = _table()
    fit = stats.bradley_terry(["a", "b", "c", "d"], t[:, 0], t[:, 1], t[:, 2], t[:, 3])
    assert fit.converged
    data = []
    for i, j, w, n in t:
        data += [(int(i), int(j))] * int(w) + [(int(j), int(i))] * int(n - w)
    ref = choix.opt_pairwise(4, data, alpha=1e-9)
    ref = (ref - ref.mean()) * stats.ELO_PER_LOGIT
    np.testing.assert_allclose(fit.ratings, ref, atol=0.05)  # Elo points
    assert abs(fit.ratings.sum()) < 1e-9
    assert list(stats.ranks_from_ratings(fit.ratings)) == [1, 2, 3, 4]


def test_bradley_terry_intervals_equal_statsmodels_reference_coding():
    """The sum-to-zero covariance, carried by hand, against a fit coded with player 0 as the
    reference: the difference r1 - r0 and its standard error must agree."""
    import statsmodels.api as sm

    t = _table()
    fit = stats.bradley_terry(["a", "b", "c", "d"], t[:, 0], t[:, 1], t[:, 2], t[:, 3])
    X = np.zeros((len(t), 3))
    for r, (i, j, _, _) in enumerate(t):
        if i:
            X[r, i - 1] += 1
        if j:
            X[r, j - 1] -= 1
    ref = sm.GLM(np.column_stack([t[:, 2], t[:, 3] - t[:, 2]]), X, family=sm.families.Binomial())
    ref = ref.fit()
    e = stats.ELO_PER_LOGIT
    assert fit.ratings[1] - fit.ratings[0] == pytest.approx(ref.params[0] * e, abs=1e-6)
    c = fit.cov
    se_diff = np.sqrt(c[1, 1] + c[0, 0] - 2 * c[0, 1])
    assert se_diff == pytest.approx(ref.bse[0] * e, rel=1e-6)


def test_bradley_terry_first_player_term_recovers_a_known_advantage():
    """Equal players; the first mover wins 60 % (logit 0.405 = 70.4 Elo)."""
    rows_i, rows_j, s, n, f = [], [], [], [], []
    for i in range(3):
        for j in range(3):
            for first in (1, -1):
                rows_i.append(i)
                rows_j.append(j)
                s.append(6000 if first == 1 else 4000)
                n.append(10000)
                f.append(first)
    fit = stats.bradley_terry(["a", "b", "c"], rows_i, rows_j, s, n, first=f)
    assert fit.first_player == pytest.approx(np.log(1.5) * stats.ELO_PER_LOGIT, abs=1e-6)
    np.testing.assert_allclose(fit.ratings, 0.0, atol=1e-6)
    # its Wald interval, by hand: the two first-player groups of each pairing carry equal
    # and opposite f with the same rating columns, so the term is orthogonal to the ratings
    # and its information is sum n p (1 - p) = 18 * 10000 * 0.24
    se = stats.ELO_PER_LOGIT / np.sqrt(18 * 10000 * 0.24)
    half = stats.z_value() * se
    assert (fit.first_player_low, fit.first_player_high) == pytest.approx(
        (fit.first_player - half, fit.first_player + half), rel=1e-6
    )


def _random_groups(rng, k=6):
    """Grouped results of every ordered pairing (mirrors included), each first-player
    order its own group, with draws: what a what-if's bootstrap refits."""
    rows = []
    for i in range(k):
        for j in range(k):
            for first in (1, -1):
                n = int(rng.integers(20, 600))
                w = rng.binomial(n, rng.uniform(0.1, 0.9))
                rows.append((i, j, w + 0.5 * rng.binomial(n - w, 0.05), n, first))
    return np.array(rows, dtype=np.float64)


@pytest.mark.parametrize("seed", range(20))
def test_bradley_terry_ratings_equal_the_glm_fit(seed):
    """Newton's ratings (the bootstrap's refits) against the GLM's, first-player term and
    all: the same maximum, to far below the 6 digits a table prints."""
    t = _random_groups(np.random.default_rng(seed))
    k = 6
    fit = stats.bradley_terry([str(x) for x in range(k)], *t[:, :4].T, first=t[:, 4])
    ratings, params = stats.bradley_terry_ratings(k, *t[:, :4].T, first=t[:, 4])
    np.testing.assert_allclose(ratings, fit.ratings, rtol=0, atol=1e-7)  # Elo
    assert params[-1] * stats.ELO_PER_LOGIT == pytest.approx(fit.first_player, abs=1e-7)


def test_bradley_terry_ratings_without_a_finite_fit_is_none():
    """A side that wins every game (separation): no finite ratings, so None (the caller
    fits with the GLM, which says it did not converge)."""
    t = np.array([(0, 1, 100, 100), (0, 2, 100, 100), (1, 2, 60, 100)], dtype=np.float64)
    assert stats.bradley_terry_ratings(3, *t.T) is None
