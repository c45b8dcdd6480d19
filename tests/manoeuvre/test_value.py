"""The learned position value and the search that uses it (issue 26): the features read
only what the seat sees, the model file round-trips and a bad one is refused in one line,
the value search plays fair and its records do not depend on threads, the positions are
reproducible. (Its kernels against plain Python: tests/manoeuvre/test_search.py one_decision.)"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
from tests.manoeuvre.test_search import _mid_game_state

VALUE_SPEC = "search:6:tuned:v2:m8"


def _features(P, st, s, to_move=0):
    from manoeuvre_sim.manoeuvre.engine.players.features import NFEAT, features

    uowner = (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)
    x = np.zeros(NFEAT)
    features(st, P.tables.units, P.tables.cards, uowner, P.deck_size, s, to_move, x)
    return x


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_features_read_only_what_the_seat_sees(seed):
    """Scrambling what a seat may not see (piles, records, the opponent's hand) leaves its
    features as they were; scrambling its own hand too (the mutation) changes them."""
    from manoeuvre_sim.manoeuvre.engine.checks import fog_copy
    from manoeuvre_sim.manoeuvre.engine.options import FLAG_FOG_OWN_HAND, POL_FLAGS, POL_SIZE
    from manoeuvre_sim.manoeuvre.engine.players.features import FEATURE_NAMES

    P, st = _mid_game_state(seed)
    pol = np.zeros(POL_SIZE, dtype=np.int32)
    for s in range(2):
        x = _features(P, st, s)
        for n in range(2, 6):  # fogs of other seeds
            fog = fog_copy(st, P.deck_size, pol, s, 1, n)
            assert not np.array_equal(fog, st)
            assert np.array_equal(_features(P, fog, s), x)
        own = pol.copy()
        own[POL_FLAGS] = FLAG_FOG_OWN_HAND
        changed = set()
        for n in range(2, 6):
            diff = _features(P, fog_copy(st, P.deck_size, own, s, 1, n), s) != x
            changed |= {FEATURE_NAMES[i] for i in np.flatnonzero(diff)}
        assert changed == ({"hand_worth"} if st[S.HAND_N + s] > 0 else set())
    # the sides' features mirror each other
    x0, x1 = _features(P, st, 0), _features(P, st, 1)
    assert x0[0] == -x1[0] and x0[3] == x1[4] and x0[9] == -x1[9]


def test_the_features_count_control_as_the_rules_do():
    """The features' count of the squares each side controls (``features.control_pair``, on
    bit sets) is the rules' square by square (``control.control_score``, rule 2.2), on
    random boards from empty to crowded, units on every edge and corner among them."""
    from manoeuvre_sim.manoeuvre.engine.control import control_score
    from manoeuvre_sim.manoeuvre.engine.players.features import control_pair

    rng = np.random.default_rng(41)
    uowner = (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)
    counts = set()
    for _ in range(3000):
        occ = np.full(64, -1, dtype=np.int32)
        n = int(rng.integers(0, 33))
        occ[rng.choice(64, size=n, replace=False)] = rng.permutation(S.NUNITS)[:n]
        for s in (0, 1):
            want = (control_score(occ, uowner, s), control_score(occ, uowner, 1 - s))
            assert control_pair(occ, uowner, s) == want, (occ.reshape(8, 8), s)
            counts.add(want)
    assert len(counts) > 50  # the boards were varied


def _model(tmp_path, **change):
    from manoeuvre_sim.manoeuvre.engine.players.features import NFEAT

    rng = np.random.default_rng(1)
    arrays = dict(mean=rng.normal(size=NFEAT), scale=rng.uniform(0.5, 2, NFEAT),
                  coef=rng.normal(size=NFEAT), intercept=0.3, provenance={"seed": 1})  # fmt: skip
    arrays.update(change)
    return arrays


def test_a_value_file_round_trips_and_the_kernel_evaluates_it(tmp_path):
    from manoeuvre_sim.manoeuvre.engine.players.value import (
        load_value,
        pack_value,
        save_value,
        value_of,
    )

    m = _model(tmp_path)
    path = tmp_path / "m.npz"
    save_value(path, m["mean"], m["scale"], m["coef"], m["intercept"], m["provenance"])
    got = load_value(str(path))
    for k in ("mean", "scale", "coef"):
        assert np.array_equal(got[k], m[k])
    assert got["intercept"] == 0.3 and got["provenance"] == {"seed": 1}
    x = np.random.default_rng(2).normal(size=len(m["mean"]))
    z = m["intercept"] + np.sum(m["coef"] * (x - m["mean"]) / m["scale"])
    assert value_of(pack_value(got), x) == pytest.approx(1 / (1 + np.exp(-z)), rel=1e-12)


def test_a_bad_value_file_is_refused_in_one_line(tmp_path):
    from manoeuvre_sim.manoeuvre.engine.players.value import load_value, save_value

    m = _model(tmp_path)
    bad = tmp_path / "bad.npz"
    save_value(bad, m["mean"][:-1], m["scale"], m["coef"], 0.0, {})
    with pytest.raises(DataError, match=r"bad\.npz: mean: expected 25 finite floats") as e:
        load_value(str(bad))
    assert "\n" not in str(e.value)
    save_value(bad, m["mean"], -m["scale"], m["coef"], 0.0, {})
    with pytest.raises(DataError, match="scale: expected every scale > 0"):
        load_value(str(bad))
    np.savez(bad, format=np.array(1))
    with pytest.raises(DataError, match="features: missing"):
        load_value(str(bad))
    bad.write_text("not a zip")
    with pytest.raises(DataError, match="not a readable .npz"):
        load_value(str(bad))
    with pytest.raises(DataError, match=r"nosuch\.npz: no such value model file"):
        simulate(SimConfig("France", "Russia", games=1, policy_a="search:2:tuned:v1:wnosuch"))


@pytest.mark.parametrize(
    "spec, msg",
    [
        ("search:8:tuned:v0", "horizon in player turns must be in 1..50"),
        ("search:8:tuned:vx", "horizon"),
        ("search:8:tuned:m0", "first moves weighed must be in 1..64"),
        ("search:8:tuned:x3", "expected search:BUDGET:STYLE and then any of vH"),
        ("search:8:tuned:v2:v3", "once each"),
        ("search:8:tuned:wtuned", "give vH too"),
        ("search:8:tuned:v2:wa/b", "a model name"),
    ],
)
def test_bad_value_search_options_are_refused(spec, msg):
    with pytest.raises(UsageError, match=msg):
        SimConfig("France", "Russia", policy_a=spec)


def _cfg(**kw):
    base = dict(games=3, seed=3, policy_a=VALUE_SPEC, policy_b="tuned", threads=1)
    return SimConfig("France", "Russia", **{**base, **kw})


def test_value_search_records_are_the_same_on_one_and_two_threads():
    one = simulate(_cfg(threads=1)).records
    two = simulate(_cfg(threads=2, chunk=1)).records
    assert np.array_equal(one, two)
    full = simulate(_cfg(policy_a="search:6:tuned:m8")).records  # the same, played out
    assert not np.array_equal(one, full)


def test_value_search_plays_fair_and_the_check_can_fail():
    """Every decision of the value search is taken again on a scrambled copy of the state
    and must agree; scrambling its own hand too (which its value reads) makes it fire. The
    other seat and the rollouts play at random, which reads nothing."""
    from manoeuvre_sim.manoeuvre.engine.options import FLAG_FAIR_CHECK, FLAG_FOG_OWN_HAND
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    cfg = _cfg(games=2, policy_b="search:3:tuned:v1", check_fair_play=1, check_invariants=True)
    assert len(simulate(cfg).records) == 2
    pols = ("search:4:random:v2", "random")
    play_traced("France", "Russia", seed=17, policies=pols, fair_play=FLAG_FAIR_CHECK)
    with pytest.raises(AssertionError, match="fair play"):
        play_traced("France", "Russia", seed=17, policies=pols,
                    fair_play=FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND)  # fmt: skip


def test_positions_are_reproducible_and_labelled_from_each_side():
    from manoeuvre_sim.manoeuvre.value_data import positions

    a, prov = positions(["France", "Russia"], 3, "tuned", seed=2, threads=1)
    b, _ = positions(["France", "Russia"], 3, "tuned", seed=2, threads=2, chunk=2)
    assert a.equals(b) and prov["rows"] == len(a) > 100
    pair = a.groupby(["gid", "game_turn", "mover"]).result.sum()
    assert np.allclose(pair, 1.0)  # one seat's win is the other's loss
    assert set(a.mover) == {0, 1} and a.groupby("gid").game_turn.min().eq(1).all()


def test_a_study_records_the_value_model_it_played_with():
    import hashlib

    from manoeuvre_sim.manoeuvre.engine.players.dispatch import value_record
    from manoeuvre_sim.manoeuvre.engine.players.value import value_path

    digest = hashlib.sha256(value_path("tuned").read_bytes()).hexdigest()[:16]
    assert value_record("search:4:tuned:v1") == {"value_model": "tuned", "value_sha256": digest}
    assert value_record("search:4:tuned") == {} and value_record("tuned") == {}
