"""The balance fixer (studies/fix.py, issue 40): its sequential test's error rates on
simulated paired streams (against naive peeking), the search on the toy coin game (a planted
imbalance found at least cost and confirmed, an edit that changes nothing never helpful,
resume equal to an uninterrupted run, bad input one line each) and one small Manoeuvre run
whose errata replays through ``whatif --set``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.studies import fix as F
from manoeuvre_sim.studies.whatif import Joint
from tests.studies import coin_game

ALPHA = 0.05
TRIALS, LOOK, LOOKS = 2000, 100, 20
# a paired difference of one game: most games unchanged, the rest a half or a whole game
VALUES = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
NULL_P = np.array([0.05, 0.1, 0.7, 0.1, 0.05])


def _streams(p, seed):
    rng = np.random.default_rng(seed)
    return rng.choice(VALUES, size=(TRIALS, LOOK * LOOKS), p=p)


def _looks(d):
    """Per trial and look: n, the mean and the sample variance of the differences so far."""
    n = LOOK * np.arange(1, LOOKS + 1)
    s = np.cumsum(d, axis=1)[:, n - 1]
    s2 = np.cumsum(d * d, axis=1)[:, n - 1]
    mean = s / n
    var = (s2 - n * mean * mean) / (n - 1)
    return n, mean, var


def test_the_confidence_sequence_holds_at_every_look_and_naive_peeking_does_not():
    # 2,000 null streams (mean 0), looked at after every 100 games up to 2,000: the
    # confidence sequence excludes the true mean at some look in at most alpha of them (plus
    # Monte Carlo error); a fixed 95 % t interval read at every look does so far more often
    n, mean, var = _looks(_streams(NULL_P, 1))
    r = F.cs_radius(n, var, ALPHA, t_star=n[-1], v0=0.25)
    cs_wrong = (np.abs(mean) > r).any(axis=1).mean()
    t = st.t.ppf(0.975, n - 1)
    naive_wrong = (np.abs(mean) > t * np.sqrt(var / n)).any(axis=1).mean()
    mc = 3 * math.sqrt(ALPHA * (1 - ALPHA) / TRIALS)
    print(f"false exclusions: confidence sequence {cs_wrong:.4f}, naive peeking {naive_wrong:.4f}")
    assert cs_wrong <= ALPHA + mc
    assert naive_wrong >= 3 * ALPHA  # peeking: a false verdict several times 5 %
    # and at one look only, the naive interval is right about 95 % of the time (the
    # difference is the peeking, not the interval)
    one = (np.abs(mean[:, -1]) > t[-1] * np.sqrt(var[:, -1] / n[-1])).mean()
    assert one <= ALPHA + mc


def test_the_radius_is_where_the_mixture_martingale_reaches_one_over_alpha():
    # Robbins' normal mixture, integrated numerically (scipy), against the closed form: at
    # S = n x radius and V = n x var the mixture of exp(l S - l^2 V / 2) over l ~ N(0, rho^2)
    # equals 1 / alpha (confseq, the reference package, does not build here)
    from scipy import integrate

    alpha, t_star, v0 = 0.0125, 2000, 0.125
    c = -2 * math.log(alpha) + math.log(1 - 2 * math.log(alpha))
    rho = math.sqrt(c / (t_star * v0))
    for n, var in ((100, 0.1), (1000, 0.02), (2000, 0.125)):
        s_, v_ = n * float(F.cs_radius(n, var, alpha, t_star, v0)), n * var
        m, _ = integrate.quad(lambda lam, s_=s_, v_=v_: math.exp(lam * s_ - lam * lam * v_ / 2)
                              * st.norm.pdf(lam, scale=rho), -50 * rho, 50 * rho,
                              points=[s_ / v_])  # fmt: skip
        assert m == pytest.approx(1 / alpha, rel=1e-6)


def _verdicts(change_p, ref_rate=0.6, seed=2, min_gain=0.0, games=False):
    """The fixer's sequential test's verdict on each simulated candidate (``Sequential``:
    each change's rho tuned to its first look's variance): its paired changes ``change_p``
    (probabilities of VALUES), the reference's field rate ``ref_rate`` above the band;
    ``games``: also each candidate's games when it stopped."""
    rng = np.random.default_rng(seed)
    d = _streams(change_p, seed)
    x = (rng.random(d.shape) < ref_rate).astype(float)  # the reference's score per game
    n, dm, dv = _looks(d)
    _, xm, xv = _looks(x)
    out, used = [], []
    for i in range(TRIALS):
        test = F.Sequential((0.45, 0.55), ALPHA, n[-1], 0.25, min_gain)
        for k in range(LOOKS):
            s = F.TargetStats(int(n[k]), xm[i, k], xv[i, k], dm[i, k], dv[i, k], 1)
            j = test.look([s], last=k == LOOKS - 1)
            if j.verdict != "continue":
                break
        out.append(j.verdict)
        used.append(n[k])
    return (np.array(out), np.array(used)) if games else np.array(out)


def test_an_edit_that_changes_nothing_on_average_is_rarely_called_helpful():
    v = _verdicts(NULL_P)
    helpful = (v == "helpful").mean()
    print(f"null edits called helpful: {helpful:.4f}")
    assert helpful <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / TRIALS)


# a paired difference as most edits give it: 97 % of the games unchanged
SMALL_NULL_P = np.array([0.005, 0.01, 0.97, 0.01, 0.005])


def test_a_confidence_sequence_tuned_to_its_first_look_still_holds_at_every_look():
    # the fixer tunes each change's rho to the variance of its first look (then fixed): on
    # null streams of small variance, as most edits' paired changes are, the sequence so
    # tuned still excludes the true mean at some look in at most alpha of them, and it is
    # narrower at the cap than the one tuned to a score's variance (the point of tuning)
    for p in (NULL_P, SMALL_NULL_P):
        n, mean, var = _looks(_streams(p, 3))
        v1 = np.array([F.change_design_variance(v, 0.25) for v in var[:, 0]])
        r = F.cs_radius(n[None, :], var, ALPHA, t_star=n[-1], v0=v1[:, None])
        wrong = (np.abs(mean) > r).any(axis=1).mean()
        print(f"false exclusions, rho tuned at the first look: {wrong:.4f}")
        assert wrong <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / TRIALS)
    fixed = F.cs_radius(n[-1], var[:, -1], ALPHA, t_star=n[-1], v0=0.25)
    assert np.median(r[:, -1]) < 0.75 * np.median(fixed)  # measured 0.69


def test_a_small_null_change_is_rarely_called_helpful():
    v = _verdicts(SMALL_NULL_P, seed=4)
    helpful = (v == "helpful").mean()
    print(f"small null edits called helpful: {helpful:.4f}")
    assert helpful <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / TRIALS)


def test_negligible_stops_a_null_candidate_early_but_never_a_useful_one():
    # min_gain: a candidate whose greatest gain is surely below it is stopped as negligible;
    # one whose true gain is min_gain or more is called negligible at most alpha of the time
    v, used = _verdicts(SMALL_NULL_P, seed=5, min_gain=0.01, games=True)
    print(f"null, min_gain 0.01: negligible {(v == 'negligible').mean():.3f}, games "
          f"{used.mean():.0f}")  # fmt: skip
    assert (v == "negligible").mean() >= 0.5 and used.mean() < 0.8 * LOOK * LOOKS
    assert (v == "helpful").mean() <= ALPHA
    p = np.array([0.015, 0.01, 0.96, 0.01, 0.005])  # mean -0.01: a gain of exactly min_gain
    v = _verdicts(p, seed=6, min_gain=0.01)
    print(f"a gain of min_gain called negligible: {(v == 'negligible').mean():.4f}")
    assert (v == "negligible").mean() <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / TRIALS)


def test_the_sequential_test_finds_a_planted_effect():
    # a change of -0.05 (a lowered side loses 5 points, a per-game sd of 0.43): helpful in
    # most trials within the 2,000-game cap (measured 0.87), never the wrong way
    p = np.array([0.1, 0.1, 0.7, 0.05, 0.05])  # mean -0.05
    v = _verdicts(p)
    print(f"planted -5 points called helpful: {(v == 'helpful').mean():.3f}")
    assert (v == "helpful").mean() >= 0.8
    assert (v == "not helpful").mean() <= ALPHA


def _field_verdicts(x_rate, change_p, seed, trials=TRIALS, pairings=6):
    """The fixer's verdicts (``Sequential.verdict``, the reference fixed as the fixer plays
    it: once, to the cap, before the candidate's first look) on simulated field rates: per
    game index the reference's field score is the mean of ``pairings`` games won with
    probability ``x_rate``, the paired change the mean of ``pairings`` per-pairing changes
    drawn from VALUES with probabilities ``change_p``; band 45-55 %."""
    rng = np.random.default_rng(seed)
    cap = LOOK * LOOKS
    out = []
    for _ in range(trials):
        x = rng.binomial(pairings, x_rate, size=cap) / pairings
        d = rng.choice(VALUES, size=(cap, pairings), p=change_p).mean(axis=1)
        test = F.Sequential((0.45, 0.55), ALPHA, cap, 0.25 / pairings, ref_fixed=True)
        for k in range(1, LOOKS + 1):
            n = k * LOOK
            s = F.TargetStats(n, x.mean(), x.var(ddof=1), d[:n].mean(), d[:n].var(ddof=1), 1,
                              ref_n=cap)  # fmt: skip
            verdict, _ = test.verdict([s], last=k == LOOKS)
            if verdict != "continue":
                break
        out.append(verdict)
    return np.array(out)


def test_a_candidate_just_outside_the_band_is_rarely_said_to_meet_it():
    # the reference at 59.5 %, the change -4 points: the candidate's true rate 55.5 %, half
    # a point above the band 45-55 %. Its estimate at the cap falls inside the band in 19 % of
    # the trials (a point estimate would call them meeting), but "meets" asks the box's rate
    # interval to lie inside the band: at most alpha of the trials (measured 0.0 %), while
    # the candidate is called helpful in most (it does move the rate towards the band)
    outside = np.array([0.07, 0.06, 0.78, 0.06, 0.03])  # mean -0.04
    v = _field_verdicts(0.595, outside, seed=7)
    meets, helpful = (v == "meets").mean(), (v == "helpful").mean()
    print(f"true rate 55.5 %: meets {meets:.4f}, helpful {helpful:.3f}")
    assert meets <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / TRIALS)
    assert helpful >= 0.5
    # and one that lands in the middle of the band (60 % - 10 points) is said to meet it in
    # most trials within the cap (measured 100 %), a null change never
    inside = np.array([0.1, 0.08, 0.76, 0.04, 0.02])  # mean -0.10
    v = _field_verdicts(0.60, inside, seed=8, trials=500)
    print(f"true rate 50 %: meets {(v == 'meets').mean():.3f}")
    assert (v == "meets").mean() >= 0.8
    v = _field_verdicts(0.60, NULL_P, seed=9, trials=500)
    assert not (v == "meets").any() and (v == "helpful").mean() <= ALPHA


def _meets_then_confirms(mu, guarded, seed, trials=1000, m=6, cap=4000, look=200):
    """The planted benchmark's first case, simulated: a band of +-2.5 points (46.3-51.3 %),
    the reference at 55.7 % played once to the cap, a candidate whose true rate is ``mu``
    (each of the reference's wins lost with one probability: a paired change), judged look
    by look as the fixer does; then the confirmation on fresh games, the fixer's default
    size and guard (``guarded``) or the old 2,000 games and none. (meets, confirmed, both)
    rates over the trials."""
    from manoeuvre_sim.studies.fix_stats import confirm_games_for, confirm_halfwidth

    band, ref = (0.463, 0.513), 0.557
    n_c = confirm_games_for(band, ALPHA, 1, m) if guarded else 2000
    guard = confirm_halfwidth(ALPHA, 1, m, n_c) if guarded else 0.0
    rng = np.random.default_rng(seed)
    wins = rng.binomial(m, ref, size=(trials, cap))
    lost = rng.binomial(wins, (ref - mu) / ref)
    x, d = wins / m, -lost / m
    n = look * np.arange(1, cap // look + 1)
    dm = np.cumsum(d, axis=1)[:, n - 1] / n
    dv = (np.cumsum(d * d, axis=1)[:, n - 1] - n * dm * dm) / (n - 1)
    meets = np.zeros(trials, dtype=bool)
    for i in range(trials):
        test = F.Sequential(band, ALPHA, cap, 0.25 / m, ref_fixed=True, guard=guard)
        xm, xv = x[i].mean(), x[i].var(ddof=1)
        for k in range(len(n)):
            s = F.TargetStats(int(n[k]), xm, xv, dm[i, k], dv[i, k], 1, ref_n=cap)
            verdict, _ = test.verdict([s], last=k == len(n) - 1)
            if verdict != "continue":
                break
        meets[i] = verdict == "meets"
    est = rng.binomial(m * n_c, mu, size=trials) / (m * n_c)  # the fresh seeds' fixed rate
    half = st.norm.ppf(1 - ALPHA / 2) * np.sqrt(est * (1 - est) / m / n_c)
    confirmed = (est - half >= band[0]) & (est + half <= band[1])
    return meets.mean(), confirmed.mean(), (meets & confirmed).mean()


def test_the_guard_makes_a_meeting_errata_pass_its_confirmation():
    # an errata 0.8 points inside the band's edge (the planted case 1's 50.5 %): without the
    # guard the search says it meets in 12 % of the trials (measured) and the 2,000-game
    # confirmation then fails more than half of those (met, not confirmed: 6.8 % of all);
    # with the guard and the confirmation's default size (6,403 games, a half-width of 0.5
    # points) it meets in 8 % and 0.7 % fail, and the confirmation passes it in 87 % (44 %
    # without). A central errata (48.8 %) meets and passes either way; one just outside the
    # band (51.6 %) never meets
    rows = {}
    for mu in (0.505, 0.488, 0.516):
        for guarded in (False, True):
            rows[mu, guarded] = _meets_then_confirms(mu, guarded, seed=int(1000 * mu) + guarded)
            print(f"true rate {mu}: guard {guarded}: meets, confirmed, both "
                  f"{np.round(rows[mu, guarded], 3).tolist()}")  # fmt: skip
    (m0, c0, b0), (m1, c1, b1) = rows[0.505, False], rows[0.505, True]
    assert m0 - b0 >= 0.04  # met, then not confirmed: the failure the guard is for
    assert m1 - b1 <= 0.02 and c1 >= 0.8 and c0 <= 0.6
    assert min(rows[0.488, True][2], rows[0.488, False][2]) >= 0.8
    assert max(rows[0.516, True][0], rows[0.516, False][0]) <= ALPHA


def test_the_box_extremes_are_exact():
    # distance(r) - distance(r + m) over a rectangle, against a fine grid
    band = (0.45, 0.55)
    rng = np.random.default_rng(5)
    for _ in range(200):
        r0, m0 = rng.uniform(0.3, 0.7), rng.uniform(-0.2, 0.2)
        r1, m1 = r0 + rng.uniform(0, 0.1), m0 + rng.uniform(0, 0.1)
        lo, hi = F.gain_range((r0, r1), (m0, m1), band)
        rr, mm = np.meshgrid(np.linspace(r0, r1, 81), np.linspace(m0, m1, 81))
        g = np.vectorize(lambda a, b: F.distance(a, band) - F.distance(a + b, band))(rr, mm)
        assert lo <= g.min() + 1e-12 and hi >= g.max() - 1e-12
        assert lo >= g.min() - 2e-3 and hi <= g.max() + 2e-3


def test_holm_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests

    p = np.array([0.01, 0.04, 0.03, 0.005, 0.5])
    assert np.allclose(F.holm(p), multipletests(p, method="holm")[1])


# --------------------------------------------------------------------- the coin game

COINS = ["heavy:65", "mid", "low"]
QUICK = {"games_per_look": 100, "max_games": 600, "confirm_games": 800, "seed": 3}


def test_the_fixer_finds_a_planted_imbalance_at_least_cost_and_confirms_it():
    # heavy's coin 15 points above the others: three steps of 5 (cost 3) bring it back
    res = F.run(coin_game, COINS, editable=["heavy"], **QUICK)
    assert list(res.errata["edit"]) == ["heavy/heads=50"]
    assert res.meets and res.confirmation.confirmed
    assert int(res.errata["cost"].sum()) == 3
    t = res.confirmation.targets.set_index("side")
    assert ((t["fixed_low"] >= 0.45) & (t["fixed_high"] <= 0.55)).all()
    assert (t.loc["heavy", "base_rate"] > 0.6) and res.manifest["confirmed"]
    # the errata sheet in the side's own words, and the line that replays it
    row = res.errata.iloc[0]
    assert (row["before"], row["after"], row["whatif_set"]) == (
        "65",
        "50",
        '--set "heavy/heads=50"',
    )
    # every candidate cheaper than the answer was tried and none met the band
    trail = res.trail
    cheaper = trail[trail["cost"] < 3]
    assert len(cheaper) == 4 and not any(
        (cheaper["verdict"] == "helpful") & (cheaper["est_distance"] == 0)
    )
    # the fixed matrix: every pairing of heavy moved towards even, the others did not move
    moved = res.confirmation.moved
    assert moved["moved"].all() and set(moved["side_a"]) | set(moved["side_b"]) >= {"heavy"}
    assert abs(res.confirmation.fixed_matrix.loc["heavy", "mid"] - 0.5) < 0.06


def test_a_combination_when_no_single_edit_is_enough():
    # A 10 points above B, C 10 below: no single edit within 2 steps evens the field (A
    # lowered 10 leaves C at about 39 %), A and C moved together do; the combination is
    # tested against the single it extends, on the same seeds
    res = F.run(coin_game, ["A:60", "B:50", "C:40"], edits={"heads": {"range": 2}}, budget=4,
                **QUICK)  # fmt: skip
    assert res.meets, res.summary()
    assert set(res.errata["side"]) == {"A", "C"} and int(res.errata["cost"].sum()) <= 4
    combos = res.trail[res.trail["step"] == "combination"]
    assert len(combos) and (combos["against"] != "base").all()
    singles = res.trail[res.trail["step"] == "single"]
    assert not ((singles["verdict"] == "helpful") & (singles["est_distance"] == 0)).any()


def test_greedy_goes_back_when_the_best_single_is_a_dead_end(monkeypatch):
    # heavy at 65 % heads (67 % against the field here), the band 56.5-62 %, 4,000 games to
    # confirm (guard 0.8 points: the search aims at 57.3-61.2 %), budget 2. The best single,
    # heavy/heads=55 (cost 2: two steps), lands at 56-57 %, at the searched band's lower edge
    # (exactly 56.1 %), and the budget leaves it no edit to take: a dead end. heavy/heads=60
    # (cost 1) lands at 62 %, farther out, but with mid or low 5 points up (cost 1) at
    # 59.2 %, inside. Greedy alone answers the dead end, not meeting; greedy with
    # backtracking goes back to heavy/heads=60 and meets at the same cost
    kw = {"editable": ["heavy", "mid", "low"], "targets": ["heavy"], "band": (0.565, 0.62),
          "edits": {"heads": {"range": 2}}, "budget": 2, "games_per_look": 500,
          "max_games": 4000, "confirm_games": 4000, "seed": 3}  # fmt: skip
    spec = F.command_spec(coin_game, COINS, **kw)
    lo, hi = spec.search_band
    said = []
    res = F.run_spec(spec, say=said.append)
    assert res.meets, res.summary()
    assert res.manifest["errata"][0] == "heavy/heads=60" and len(res.manifest["errata"]) == 2
    assert any("back to heavy/heads=60" in line for line in said)
    assert res.confirmation.confirmed and int(res.errata["cost"].sum()) == 2
    trail = res.trail.set_index("edits")
    assert trail.loc["heavy/heads=55", "rate heavy"] < lo + 0.005  # the dead end, at the edge
    assert trail.loc["heavy/heads=60", "rate heavy"] > hi
    monkeypatch.setattr(F, "BACKTRACKS", 0)
    plain = F.run_spec(spec)
    assert not plain.meets and plain.manifest["errata"] == ["heavy/heads=55"]


def test_the_guard_band_moves_a_near_edge_errata_inward():
    # heavy at 65 % heads (about 68 % against the field), the band 44-59 %, a confirmation of
    # 150 games a pairing: its half-width for heavy, the guard, is 4.0 points, so the search
    # aims at 48-55 %. heavy/heads=55 alone (cost 2) lands at about 56.6 %: inside the band,
    # 2.4 points from its edge, its box inside the band, but outside the search's band. With
    # the guard the greedy step goes on from it (its inner distance is not 0) and adds
    # low/heads=55, which lowers heavy's rate by about 3 points: the answer is the more
    # central errata. Without the guard (0: the search on the band itself) the near-edge
    # single meets and is the answer, and the confirmation passes it far less surely
    from dataclasses import replace

    kw = {"editable": ["heavy", "low"], "targets": ["heavy"], "band": (0.44, 0.59),
          "edits": {"heads": {"range": 2}}, "budget": 3, "games_per_look": 500,
          "max_games": 4000, "confirm_games": 150, "seed": 3}  # fmt: skip
    spec = F.command_spec(coin_game, COINS, **kw)
    assert spec.guard == pytest.approx(1.96 * math.sqrt(0.25 / 4 / 150), rel=1e-3)
    assert spec.search_band == pytest.approx((0.44 + spec.guard, 0.59 - spec.guard))
    assert spec.record()["guard"] == spec.guard
    res = F.run_spec(spec)
    assert res.meets and res.manifest["errata"] == ["heavy/heads=55", "low/heads=55"]
    trail = res.trail.set_index("edits")
    near, both = trail.loc["heavy/heads=55"], trail.loc["heavy/heads=55; low/heads=55"]
    assert near["verdict"] == "helpful" and near["est_distance"] > 0  # on the search's band
    assert 0.55 < near["rate heavy"] < 0.59 and both["against"] == "heavy/heads=55"
    lo, hi = spec.search_band
    assert lo <= both["rate heavy"] <= hi and both["verdict"] == "meets"
    plain = F.run_spec(replace(spec, guard=0.0))
    assert plain.meets and plain.manifest["errata"] == ["heavy/heads=55"]
    # the guarded answer's confirmed rate is the more central one
    mid = sum(spec.band) / 2
    fixed = [abs(r.confirmation.targets.iloc[0]["fixed_rate"] - mid) for r in (res, plain)]
    assert fixed[0] < fixed[1]


def test_the_confirmation_s_default_size_comes_from_the_band():
    # a half-width at most a fifth of the band's (a fair score's variance, Bonferroni over
    # the targets), within 200..10,000 games per pairing
    spec = F.command_spec(coin_game, COINS, band=(0.45, 0.55), games_per_look=100)
    z = st.norm.ppf(1 - ALPHA / 6)  # three targets
    want = math.ceil(z * z * 0.25 / 4 / 0.01**2)
    assert spec.confirm_games == want and spec.guard <= 0.01 < spec.guard * 1.001
    narrow = F.command_spec(coin_game, COINS, band=(0.49, 0.51), targets=["heavy"],
                            games_per_look=100)  # fmt: skip
    assert narrow.confirm_games == 10_000 and narrow.guard > 0.002
    assert F.command_spec(coin_game, COINS, band=(0.1, 0.9)).confirm_games == 200


def _player(sides=COINS, **kw):
    spec = F.command_spec(coin_game, sides, **(QUICK | kw))
    return spec, F.Player(coin_game, spec)


def test_an_identical_edit_is_never_helpful():
    spec, player = _player()
    same = F.Edit("heavy", "heavy/heads=65", "heads", 1)  # the coin's own value
    t = F.try_candidate(player, (same,))
    assert t.verdict == "unchanged" and t.games == spec.games_per_look
    # and as a judgement on exactly equal games, whatever the reference
    s = F.TargetStats(500, 0.7, 0.2, 0.0, 0.0, 0)
    assert F.judge([s], (0.45, 0.55), ALPHA, 1000, 0.25).verdict == "unchanged"


def test_a_combination_plays_only_the_pairings_its_new_edit_touches():
    # heavy's edit, then low's added: heavy v mid (both seats) is the same game under both
    # errata, so the combination plays only low's four pairings and reuses the rest
    spec, player = _player()
    a, b = F.Edit("heavy", "heavy/heads=60", "heads", 1), F.Edit("low", "low/heads=55", "heads", 1)
    n = spec.games_per_look
    player.ensure((), n)  # the base first, as the search plays it
    player.ensure((a,), n)
    before = player.games
    player.ensure(F._key((a, b)), n)
    assert player.games - before == 4 * n
    j = player.joint(F._key((a, b)), (a,), n)
    for k, p in enumerate(player.base):  # the same games where low does not play
        if "low" not in (p.army_a.name, p.army_b.name):
            c = j.counts[k].reshape(2, 3, 2, 3).sum(axis=(0, 2))
            assert c.sum() == n and np.trace(c) == n


def test_a_block_pair_is_counted_once_and_its_counts_are_the_joint_s(monkeypatch):
    # the search pairs every candidate with its reference at every look: the pairings a
    # candidate leaves alone pair alike each time, so each block pair is counted once
    spec, player = _player()
    a, b = F.Edit("heavy", "heavy/heads=60", "heads", 1), F.Edit("low", "low/heads=55", "heads", 1)
    n = 2 * spec.games_per_look
    for e in ((), (a,), (b,)):
        player.ensure(e, n)
    calls = []
    real = F.pair_counts
    monkeypatch.setattr(F, "pair_counts", lambda x, y: calls.append(1) or real(x, y))
    first = {e: player.joint((e,), (), n).counts for e in (a, b)}
    counted = len(calls)
    again = {e: player.joint((e,), (), n).counts for e in (a, b)}
    assert len(calls) == counted  # nothing counted twice
    assert counted == 2 * len(player.base) * (n // spec.games_per_look)  # each block once
    # and the cached counts are those of the games themselves
    for e in (a, b):
        j = Joint()
        for k in range(len(player.base)):
            for t in F.blocks(k, 0, n, spec.games_per_look):
                f = (k, t.first_game)
                j.add_counts(k, real(player.frames[()][f], player.frames[player.sub((e,), k)][f]))
        for k in j.counts:
            assert np.array_equal(first[e][k], j.counts[k])
            assert np.array_equal(again[e][k], j.counts[k])


def test_resume_replays_nothing_finished_and_reaches_the_same_errata(tmp_path, monkeypatch):
    full = F.run(coin_game, COINS, editable=["heavy"], out_dir=tmp_path / "a", **QUICK)
    calls = {"n": 0}
    real = coin_game.play_block

    def stopping(*a, **k):
        calls["n"] += 1
        if calls["n"] == 45:  # the base (36 blocks) done, a candidate under way
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(coin_game, "play_block", stopping)
    cut = F.run(coin_game, COINS, editable=["heavy"], out_dir=tmp_path / "b", **QUICK)
    assert cut.interrupted and not (tmp_path / "b" / "errata.csv").exists()
    played_before = calls["n"] - 1
    calls["n"] = 10**6  # no more interruptions; count the blocks the resumed run plays
    lines = []
    again = F.run(coin_game, COINS, editable=["heavy"], out_dir=tmp_path / "b", resume=True,
                  say=lines.append, **QUICK)  # fmt: skip
    assert f"({played_before} blocks read back from the store)" in lines[-2], lines[-2]
    resumed_blocks = calls["n"] - 10**6
    assert list(again.errata["edit"]) == list(full.errata["edit"])
    assert again.trail.equals(full.trail)
    assert again.confirmation.moved.equals(full.confirmation.moved)
    total = len(list((tmp_path / "a" / "games.parquet").glob("*.parquet")))
    total += len(list((tmp_path / "a" / "confirm" / "games.parquet").glob("*.parquet")))
    assert played_before + resumed_blocks == total  # every block played exactly once


def test_a_fix_on_dask_equals_the_local_one(tmp_path, monkeypatch):
    # the candidates' games on a 2-worker Dask cluster: the same games, so the same search
    # (every candidate's verdict, games and estimates) and the same errata and confirmation
    pytest.importorskip("dask.distributed")
    import os
    from pathlib import Path

    import pandas as pd

    from manoeuvre_sim.core.backend import DaskBackend

    local = F.run(coin_game, COINS, editable=["heavy"], **QUICK)
    # the workers import the toy game by its module name, from the repository root
    path = [str(Path(__file__).resolve().parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    with DaskBackend(workers=2) as backend:
        real, maps = backend.map, []

        def counted(*a, **k):
            maps.append(1)
            return real(*a, **k)

        backend.map = counted
        dask = F.run(coin_game, COINS, editable=["heavy"], backend=backend,
                     out_dir=tmp_path / "d", **QUICK)  # fmt: skip
    assert len(maps) > 5  # the base's, every candidate's look, the confirmation's
    pd.testing.assert_frame_equal(local.errata, dask.errata)
    pd.testing.assert_frame_equal(local.trail, dask.trail)
    pd.testing.assert_frame_equal(local.confirmation.moved, dask.confirmation.moved)
    pd.testing.assert_frame_equal(local.confirmation.targets, dask.confirmation.targets)
    assert local.manifest["search_games"] == dask.manifest["search_games"]


def test_the_outputs_are_written(tmp_path):
    res = F.run(coin_game, COINS, editable=["heavy"], out_dir=tmp_path, **QUICK)
    names = {p.name for p in res.write(tmp_path)}
    assert {"errata.csv", "trail.csv", "matrix_base.csv", "matrix_fixed.csv", "moved.csv",
            "summary.txt", "manifest.json"} <= names  # fmt: skip
    import json

    m = json.loads((tmp_path / "manifest.json").read_text())
    assert m["confirm_seed"] != m["seed"] and m["errata"] == ["heavy/heads=50"]
    assert m["rules_version"] == coin_game.RULES_VERSION and m["data_hash"]


@pytest.mark.parametrize(
    ("kw", "start"),
    [
        ({"targets": ["Prussia"]}, "--army 'Prussia': not a side of the study"),
        ({"editable": ["hevy"]}, "--edit 'hevy': not a side of the study; did you mean 'heavy'?"),
        ({"edits": {"strength": {"cost": 1}}},
         "--edits: edit kind 'strength' is not one the game 'coin' offers; expected one of: heads"),
        ({"band": "1.2:1.5"}, "--target '1.2:1.5': expected LO:HI with 0 <= LO < HI <= 1"),
        ({"band": "0.6:0.4"}, "--target '0.6:0.4': expected LO:HI with 0 <= LO < HI <= 1"),
        ({"edits": {"heads": {"range": 0}}}, "--edits: no edit of heavy, mid, low is allowed"),
        ({"budget": 0}, "--budget 0: allows no edit"),
        ({"edits": {"heads": {"cost": 5}}, "budget": 3},
         "--budget 3: allows nothing (the cheapest allowed edit costs 5)"),
        ({"confirm_seed": 3}, "--confirm-seed 3: must differ from --seed"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(kw, start):
    with pytest.raises(UsageError) as e:
        F.command_spec(coin_game, COINS, **(QUICK | kw))
    msg = str(e.value)
    assert msg.startswith(start), msg
    assert "\n" not in msg


# --------------------------------------------------------------------- Manoeuvre


def test_a_manoeuvre_errata_replays_through_whatif_set(tmp_path):
    # France against Russia (France about 76 %), France's unit strengths editable: the
    # printed errata, pasted into `whatif --set` on the confirmation's seed, gives exactly
    # the confirmation's paired change (the same games: common random numbers)
    import pandas as pd

    from manoeuvre_sim.cli.main import main

    res = F.run("manoeuvre", ["France", "Russia"], editable=["France"],
                edits={"strength": {}}, band=(0.45, 0.66), games_per_look=200,
                max_games=1000, confirm_games=1000, threads=2, out_dir=tmp_path / "fix")  # fmt: skip
    assert len(res.errata) >= 1, res.summary()
    assert (res.errata["kind"] == "strength").all()
    sets = [x for line in res.errata["whatif_set"] for x in ("--set", line[7:-1])]
    m = res.confirmation.moved.set_index(["side_a", "side_b"])["change"]
    main(["whatif", "--armies", "France,Russia", *sets, "--seed", str(res.spec.confirm_seed),
          "--games-per-pairing", "1000", "--threads", "2", "--quiet",
          "--out", str(tmp_path / "whatif")])  # fmt: skip
    w = pd.read_csv(tmp_path / "whatif" / "whatif.csv").set_index(["army", "opponent"])
    pooled = (m[("France", "Russia")] - m[("Russia", "France")]) / 2  # France, both seats
    assert w.loc[("France", "Russia"), "delta"] == pytest.approx(pooled, abs=1e-12)
    base = res.confirmation.targets.set_index("side").loc["France", "base_rate"]
    assert w.loc[("France", "Russia"), "base_win_rate"] == pytest.approx(base, abs=1e-12)


@pytest.mark.parametrize(
    ("args", "toml", "start"),
    [
        (["--target", "1.2:1.5"], None, "error: --target '1.2:1.5': expected LO:HI"),
        (["--army", "Prussia"], None, "error: --army 'Prussia': not a side of the study"),
        (["--armies", "France,Frnace"], None, "error: --armies 'Frnace'"),
        ([], "[banzai]\n", "error: --edits "),
        ([], "[command]\nrange = 0\n", "error: --edits: no edit of France, Russia is allowed"),
        (["--budget", "0"], None, "error: --budget 0: allows no edit"),
        ([], "[strength]\ncost = 9\n",
         "error: --budget 6: allows nothing (the cheapest allowed edit costs 9)"),
        (["--edit", "Prussia"], None, "error: --edit 'Prussia': not a side of the study"),
    ],
)  # fmt: skip
def test_the_command_says_bad_input_in_one_line(tmp_path, capsys, args, toml, start):
    from manoeuvre_sim.cli.main import main

    if toml is not None:
        (tmp_path / "edits.toml").write_text(toml)
        args = [*args, "--edits", str(tmp_path / "edits.toml")]
    if "--armies" not in args:
        args = ["--armies", "France,Russia", *args]
    with pytest.raises(SystemExit) as e:
        main(["fix", *args, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and err.startswith(start), err
    assert "\n" not in err
    if toml == "[banzai]\n":
        assert "edit kind 'banzai' is not one the game 'manoeuvre' offers" in err
    assert not (tmp_path / "out" / "games.parquet").exists() or not any(
        (tmp_path / "out" / "games.parquet").iterdir()
    )


def test_a_combination_the_game_refuses_is_skipped_not_fatal(monkeypatch):
    # two edits legal alone may be refused together (a unit's reduced strength raised to its
    # lowered full one): the search goes on without that combination
    real = F.Player.pairings

    def refuse(self, edits):
        if len(edits) > 1:
            raise UsageError("--set: reduced must stay below full")
        return real(self, edits)

    monkeypatch.setattr(F.Player, "pairings", refuse)
    res = F.run(coin_game, ["A:60", "B:50", "C:40"], edits={"heads": {"range": 2}}, budget=4,
                **QUICK)  # fmt: skip
    assert not res.meets  # no single edit is enough (the test above)
    assert len(res.trail) and (res.trail["step"] == "single").all()


# --------------------------------------------------------------------- --confirm-with


def test_the_answer_is_confirmed_again_under_another_player(tmp_path):
    # the coin game's "lucky" player adds 10 points to both coins: heavy 65 -> 50 still
    # evens the field under it (both seats alike), on the same fresh seed, with its own games
    res = F.run(coin_game, COINS, editable=["heavy"], out_dir=tmp_path, confirm_with="lucky",
                confirm_with_games=400, **QUICK)  # fmt: skip
    w, c = res.strong, res.confirmation
    assert w is not None and w.confirmed and res.manifest["strong_confirmed"]
    assert w.games == res.manifest["strong_games_played"] > 0
    assert res.manifest["confirm_with"] == "lucky" and res.manifest["confirm_with_games"] == 400
    assert res.manifest["games"] == res.manifest["search_games"] + c.games + w.games
    # its games are the lucky player's (heavy's base rate is not the fair one's) on the
    # confirmation's seed, 400 per pairing, in a store of their own
    tw, tc = w.targets.set_index("side"), c.targets.set_index("side")
    assert tw.loc["heavy", "base_rate"] != tc.loc["heavy", "base_rate"]
    assert (tw["games"] == 400 * 4).all()
    import pyarrow.parquet as pq

    parts = sorted((tmp_path / "confirm-strong" / "games.parquet").glob("*.parquet"))
    assert parts and set(pq.read_table(parts[0]).column("policy_a").to_pylist()) == {"lucky"}
    names = {p.name for p in res.write(tmp_path)}
    assert {"targets_strong.csv", "moved_strong.csv"} <= names
    text = "\n".join(res.summary())
    assert "under lucky (" in text and "the fix holds under the stronger player" in text


def test_a_fix_that_does_not_hold_under_another_player_says_so():
    # 40 games a pairing under "lucky": the intervals are far wider than the band, so the
    # strong confirmation does not confirm, and the summary says the fix does not hold
    res = F.run(coin_game, COINS, editable=["heavy"], confirm_with="lucky",
                confirm_with_games=40, **QUICK)  # fmt: skip
    assert res.confirmation.confirmed and not res.strong.confirmed
    assert not res.manifest["strong_confirmed"]
    text = "\n".join(res.summary())
    assert "NOT confirmed; the fix does not hold under the stronger player" in text


def test_confirm_with_bad_input_is_one_line(tmp_path, capsys):
    from manoeuvre_sim.cli.main import main

    for args, start in (
        (["--confirm-with", "serach:16:tuned:v2"], "error: --confirm-with"),
        (["--confirm-with", "tuned", "--confirm-with-games", "1"],
         "error: --confirm-with-games: expected at least 2 games, got 1"),
        (["--min-gain", "2"], "error: --min-gain: expected a distance between 0 and 1"),
    ):  # fmt: skip
        with pytest.raises(SystemExit) as e:
            main(["fix", "--armies", "France,Russia", *args, "--out", str(tmp_path / "o")])
        err = capsys.readouterr().err.strip()
        assert e.value.code == 2 and err.startswith(start), err
        assert "\n" not in err
