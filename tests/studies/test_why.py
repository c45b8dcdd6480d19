"""The why study (``studies/why.py``, ``studies/why_stats.py``) on the toy coin game: Shapley
values against brute force, the intervals against scipy and for their error rate on a known
game, the planted case, the known truth of a linear game, efficiency, resume, bad input.

With one flip a side, X's score is 1/2 + (p_X - p_Y) / 2 (a draw when both coins agree):
linear in the parts' offsets, so each part's Shapley value is known exactly (+offset/200
for X's parts, -offset/200 for Y's).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.studies import why as W
from manoeuvre_sim.studies import why_stats as S
from tests.studies import coin_game

ONE_FLIP = coin_game.Options(flips=1)
X, Y = "x:55/a=10", "y:50/a=20"  # two parts a side: the base and a
QUICK = {"samples": 6, "block": 40, "options": ONE_FLIP}


def _brute_force(value, n):
    """Shapley values as the mean marginal contribution over every order of the parts."""
    out = np.zeros(n)
    perms = list(itertools.permutations(range(n)))
    for order in perms:
        m = 0
        for j in order:
            out[j] += value[m | (1 << j)] - value[m]
            m |= 1 << j
    return out / len(perms)


def test_exact_shapley_is_the_mean_over_every_order():
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 5):
        value = rng.normal(size=1 << n)
        got = S.exact_shapley(value)
        assert np.allclose(got, _brute_force(value, n), atol=1e-12)
        assert math.isclose(got.sum(), value[-1] - value[0], abs_tol=1e-12)  # efficiency
    many = rng.normal(size=(1 << 4, 7))  # samples in columns, each its own game
    assert np.allclose(S.exact_shapley(many)[:, 2], S.exact_shapley(many[:, 2]))


def test_the_orders_contributions_telescope_to_the_gap():
    rng = np.random.default_rng(5)
    n = 6
    value = dict(enumerate(rng.normal(size=1 << n)))
    paths = S.orders(rng, n)
    assert paths[1] == paths[0][::-1]
    got = S.path_shapley(paths, value, n)
    assert math.isclose(got.sum(), value[(1 << n) - 1] - value[0], abs_tol=1e-12)
    # every order averaged: the exact values
    every = [list(p) for p in itertools.permutations(range(n))]
    assert np.allclose(S.path_shapley(every, value, n), S.exact_shapley(np.array(
        [value[m] for m in range(1 << n)])), atol=1e-12)  # fmt: skip


def test_the_interval_is_scipys_one_sample_t_interval():
    rng = np.random.default_rng(11)
    x = rng.normal(0.1, 0.3, size=(9, 3))
    mean, se, lo, hi = S.t_interval(x)
    for j in range(3):
        ci = stats.ttest_1samp(x[:, j], 0.0).confidence_interval(0.95)
        assert math.isclose(lo[j], ci.low, rel_tol=1e-12)
        assert math.isclose(hi[j], ci.high, rel_tol=1e-12)
        assert math.isclose(se[j], stats.sem(x[:, j]), rel_tol=1e-12)
    assert np.isnan(S.t_interval(x[:1])[2]).all()


def _interacting_game(n):
    """A game with interactions (the value of a coalition is not the sum of its parts)."""
    w = np.linspace(-0.2, 0.3, n)

    def v(mask):
        on = np.array([(mask >> j) & 1 for j in range(n)], dtype=float)
        lin = on @ w
        return 1 / (1 + np.exp(-3 * lin)) + 0.1 * on[0] * on[1] - 0.05 * on[2] * on[3]

    return v


def test_the_permutation_intervals_hold_the_exact_values_95_percent_of_the_time():
    """The study's procedure (antithetic orders, noisy coalition values shared by a sample,
    Student's t over samples) on a game whose Shapley values are known: over 400 studies of
    12 samples, each part's interval holds its exact value about 95 % of the time."""
    n, k, trials = 6, 12, 400
    v = _interacting_game(n)
    truth = S.exact_shapley(np.array([v(m) for m in range(1 << n)]))
    rng = np.random.default_rng(2024)
    held = np.zeros(n)
    for _ in range(trials):
        phis = []
        for _ in range(k):
            paths = S.orders(rng, n)
            masks = {m for o in paths for m in S.path_masks(o)}
            value = {m: v(m) + rng.normal(0, 0.15) for m in masks}  # a sample's games
            phis.append(S.path_shapley(paths, value, n))
        _, _, lo, hi = S.t_interval(np.array(phis))
        held += (lo <= truth) & (truth <= hi)
    rate = held / trials
    assert ((rate > 0.92) & (rate < 0.98)).all(), rate  # binomial sd ~1.1 points


def _truth(res):
    """Each part's exact Shapley value in the one-flip coin game."""
    sides = dict(zip(res.spec.balance.names, res.spec.balance.sides, strict=True))
    x = res.spec.balance.names[0]
    out = []
    for r in res.contributions.itertuples(index=False):
        coin = sides[r.side]
        offs = dict(coin.parts)
        off = coin.heads - sum(offs.values()) - 50 if r.part == "base" else offs[r.part]
        out.append((1 if r.side == x else -1) * off / 200)
    return np.array(out)


@pytest.mark.parametrize("method", ["exact", "permutation"])
def test_every_part_of_a_linear_game_gets_its_known_value(method):
    sides = ["x:50/a=10/b=-6", "y:50/a=20/b=-6"]  # y's a 10 points stronger, b the same
    res = W.run(coin_game, sides, method=method, **(QUICK | {"samples": 8, "block": 40}))
    c = res.contributions
    assert list(c["part"]) == ["base", "a", "b"] * 2 and res.spec.method == method
    truth = _truth(res)
    assert np.all(np.abs(c["contribution"] - truth) <= 4 * c["se"] + 1e-12), (c, truth)
    assert c["se"].max() < 0.02
    # the pair of a parts carries the gap, the b parts (equal on both sides) cancel
    a = c[c["part"] == "a"]["contribution"].sum()
    assert abs(a - res.total("gap")["estimate"]) < 0.03


@pytest.mark.parametrize("method", ["exact", "permutation"])
def test_the_planted_part_carries_the_whole_gap_and_every_other_part_holds_zero(method):
    """Two copies of the neutral coin, one part strengthened on one side (five flips: not
    linear): the strengthened part's contribution is the whole gap, every other part is
    exactly zero (a part at its reference changes no game on the same seeds)."""
    res = W.run(coin_game, ["x:50/a=0", "y:50/a=25"], method=method,
                samples=5, block=40)  # fmt: skip
    c = res.contributions.set_index(["side", "part"])
    gap = res.total("gap")
    planted = c.loc[("y", "a")]
    assert planted["contribution"] == pytest.approx(gap["estimate"], abs=1e-12)
    assert planted["lo"] <= gap["estimate"] <= planted["hi"]
    assert planted["hi"] < -0.05  # y's strength lowers x's score
    others = c.drop(("y", "a"))
    assert (others["contribution"] == 0).all() and (others["lo"] == 0).all()
    assert (others["hi"] == 0).all()


def test_the_contributions_add_up_to_the_measured_gap_exactly():
    for method in ("exact", "permutation"):
        res = W.run(coin_game, [X, Y], method=method, **QUICK)
        m = res.manifest
        assert res.contributions["contribution"].sum() == pytest.approx(m["gap"], abs=1e-12)
        assert m["gap"] == pytest.approx(m["observed"] - m["all_off"], abs=1e-12)
        assert m["efficiency_residual"] < 1e-12
        s = res.samples.groupby("sample")["contribution"].sum().to_numpy()
        assert len(s) == QUICK["samples"]  # every sample adds up on its own


def test_the_coalitions_of_a_sample_are_played_on_the_same_seeds():
    spec = W.command_spec(coin_game, [X, Y], **QUICK)
    base = W.seatings(spec)
    for s in (0, 1):
        ps = [W.coalition_pairing(coin_game, spec, base[s], s, m) for m in range(1 << spec.n)]
        assert {p.seed for p in ps} == {base[s].seed}
        assert len({p.label for p in ps}) == len(ps)
    # every part off: the two sides are one coin
    off = W.coalition_pairing(coin_game, spec, base[0], 0, 0)
    assert off.army_a.heads == off.army_b.heads == 50


def test_resume_reads_back_what_was_played_and_equals_the_uninterrupted_study(
        tmp_path, monkeypatch):  # fmt: skip
    kw = QUICK | {"method": "permutation"}
    full = W.run(coin_game, [X, Y], out_dir=tmp_path / "a", **kw)
    calls = {"n": 0}
    real = coin_game.play_block

    def stopping(*a, **k):
        calls["n"] += 1
        if calls["n"] == 21:  # within the second sample (8 coalitions x 2 seatings a sample)
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(coin_game, "play_block", stopping)
    cut = W.run(coin_game, [X, Y], out_dir=tmp_path / "b", **kw)
    assert cut.interrupted and cut.manifest["samples_done"] == 1
    calls["n"] = 10**6
    again = W.run(coin_game, [X, Y], out_dir=tmp_path / "b", resume=True, **kw)
    assert not again.interrupted and again.manifest["tasks_resumed"] == 20
    assert calls["n"] - 10**6 == full.manifest["games"] // kw["block"] - 20
    assert again.contributions.equals(full.contributions)
    assert again.totals.equals(full.totals)
    # more samples extend the study: the first ones read back
    more = W.run(coin_game, [X, Y], out_dir=tmp_path / "b", resume=True, **(kw | {"samples": 7}))
    assert more.manifest["tasks_resumed"] == 6 * 16


def test_the_outputs_are_written(tmp_path):
    res = W.run(coin_game, [X, Y], out_dir=tmp_path, **QUICK)
    names = {p.name for p in res.write(tmp_path)}
    assert {"contributions.csv", "totals.csv", "samples.csv", "summary.txt",
            "manifest.json"} <= names  # fmt: skip
    m = res.manifest
    assert m["study"] == "why" and m["seed"] == 1 and m["rules_version"] == "coin-1"
    assert m["data_hash"] and m["reference_hash"]
    assert "gap shared out" in (tmp_path / "summary.txt").read_text()


@pytest.mark.parametrize("kw, expected", [
    ({"sides": ["x", "y", "z"]}, "--armies: expected the two sides of the pairing"),
    ({"sides": ["x:60", "x:40"]}, "--armies: a side is named twice: x"),
    ({"samples": 1}, "--samples: expected at least 2"),
    ({"block": 0}, "--block: expected a positive number of games, got 0"),
    ({"method": "shapley"}, "--method 'shapley': expected one of auto, exact, permutation"),
    ({"sides": ["x:50" + "".join(f"/p{i}=1" for i in range(14)), "y"], "method": "exact"},
     "--method exact: 16 parts would play 2**16 coalitions"),
])  # fmt: skip
def test_bad_input_is_one_line(kw, expected):
    sides = kw.pop("sides", [X, Y])
    with pytest.raises(UsageError) as e:
        W.command_spec(coin_game, sides, **kw)
    assert expected in str(e.value) and "\n" not in str(e.value)


def test_a_game_without_parts_is_told_so(monkeypatch):
    for name in ("why_parts", "why_pairing"):
        monkeypatch.delattr(coin_game, name)
    with pytest.raises(UsageError, match="has no parts to share a gap among"):
        W.command_spec(coin_game, [X, Y])
