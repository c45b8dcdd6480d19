"""The numba combat kernels (manoeuvre_sim/manoeuvre/combat.py): result bands, single rolls, batch
Monte Carlo determinism across thread counts and against NUMBA_DISABLE_JIT."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.manoeuvre import combat as C

# --- rule 6.1 step 7: the Assault/Ambush Results Table, reference card -------------------


@pytest.mark.parametrize(
    ("a", "d", "band"),
    [
        (4, 5, C.ATTACKER_HIT),  # less than
        (0, 1, C.ATTACKER_HIT),
        (5, 5, C.NO_EFFECT),  # equal
        (6, 5, C.DEFENDER_CHOICE),  # greater than
        (9, 5, C.DEFENDER_CHOICE),
        (10, 5, C.ATTACKER_CHOICE),  # >= twice
        (14, 5, C.ATTACKER_CHOICE),
        (15, 5, C.HIT_AND_RETREAT),  # >= three times
        (19, 5, C.HIT_AND_RETREAT),
        (20, 5, C.ELIMINATED),  # >= four times
        (40, 5, C.ELIMINATED),
        (2, 1, C.ATTACKER_CHOICE),  # D = 1: "greater than" is already "twice"
        (3, 1, C.HIT_AND_RETREAT),
        (1, 1, C.NO_EFFECT),
        (0, 0, C.ELIMINATED),  # D = 0 (never in play): A >= 4*0, literal table
        (7, 0, C.ELIMINATED),
    ],
)
def test_assault_band_reference_card(a, d, band):
    assert C.assault_band(a, d) == band
    assert C.assault_band.py_func(a, d) == band


def test_fire_hits_rule_6_2():
    assert C.fire_hits(7, 6) and not C.fire_hits(6, 6) and not C.fire_hits(5, 6)


def test_band_names_match_constants():
    assert C.BAND_NAMES[C.ATTACKER_HIT] == "attacker_hit"
    assert C.BAND_NAMES[C.ELIMINATED] == "eliminated"
    assert len(C.BAND_NAMES) == C.N_BANDS == 6


# --- single rolls --------------------------------------------------------------------------


def _freq(fn, n=60_000):
    st = new_state(7)
    return np.mean([fn(st) for _ in range(n)])


def test_pursuit_hit_modified_roll_below_one_counts():
    # pursuit 1 with a -1 leader: die 1 -> 0, die 2 -> 1: both hits (rule 6.6), 2/6
    st = new_state(3)
    hits = sum(C.pursuit_hit(st, 1, -1) for _ in range(60_000)) / 60_000
    assert abs(hits - 2 / 6) < 4 * np.sqrt(2 / 6 * 4 / 6 / 60_000)
    st = new_state(3)
    assert all(C.pursuit_hit(st, 6, 0) for _ in range(1000))
    st = new_state(3)
    assert not any(C.pursuit_hit(st, 1, 1) for _ in range(1000))  # a +1 modifier: d6+1 > 1


def test_rally_and_withdraw():
    st = new_state(5)
    assert all(C.rally_success(st, 0, True) for _ in range(100))  # Palafox: automatic
    before = st.copy()
    C.rally_success(st, 3, True)
    assert np.array_equal(st, before)  # an automatic rally draws no random number
    assert not any(C.rally_success(st, 0, False) for _ in range(100))
    st = new_state(5)
    w = sum(C.withdraw_success(st, 2) for _ in range(60_000)) / 60_000
    assert abs(w - 1 / 3) < 4 * np.sqrt(2 / 9 / 60_000)


def test_roll_dice_list_range_and_mean():
    st = new_state(11)
    counts = np.array([2, 1, 3], dtype=np.int64)
    sides = np.array([8, 10, 6], dtype=np.int64)
    tot = np.array([C.roll_dice_list(st, counts, sides, 3) for _ in range(40_000)])
    assert tot.min() >= 6 and tot.max() <= 16 + 10 + 18
    mean = 2 * 4.5 + 5.5 + 3 * 3.5
    sd = np.sqrt(2 * 63 / 12 + 99 / 12 + 3 * 35 / 12)
    assert abs(tot.mean() - mean) < 4 * sd / np.sqrt(tot.size)
    # only the first n expressions count
    assert all(2 <= C.roll_dice_list(st, counts, sides, 1) <= 16 for _ in range(200))


def test_rocket_result_faces():
    st = new_state(2)
    r = np.array([C.rocket_result(st) for _ in range(50_000)])
    p = np.bincount(r, minlength=3) / r.size
    assert np.all(np.abs(p - [0.4, 0.4, 0.2]) < 4 * np.sqrt(0.24 / r.size))


# --- batch kernels: results depend on (seed, n, chunk) only ---------------------------------


def _all_batches(chunk):
    counts = np.array([2, 1], dtype=np.int64)
    sides = np.array([8, 6], dtype=np.int64)
    seed = np.uint64(12345)
    n = 50_001
    return (
        C.simulate_assault(seed, n, 5, counts, sides, 2, 1, 11, chunk),
        C.simulate_fire(seed, n, 2, counts, sides, 2, 12, chunk),
        C.simulate_pursuit(seed, n, np.array([4, 3, 2], dtype=np.int64), 3, -1, chunk),
        C.simulate_d6_range(seed, n, 4, chunk),
        C.simulate_rockets(seed, n, chunk),
    )


def test_batch_kernels_identical_on_1_and_2_threads():
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _all_batches(4096)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _all_batches(4096)
    finally:
        numba.set_num_threads(old)
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)
    assert one[0].sum() == one[1].sum() == one[2].sum() == one[4].sum() == 50_001


def test_batch_seed_changes_stream():
    counts = np.array([2], dtype=np.int64)
    sides = np.array([8], dtype=np.int64)
    a = C.simulate_assault(np.uint64(1), 20_000, 8, counts, sides, 1, 0, 12, 4096)
    b = C.simulate_assault(np.uint64(2), 20_000, 8, counts, sides, 1, 0, 12, 4096)
    assert not np.array_equal(a, b)


_NOJIT = """
import json, numpy as np
from manoeuvre_sim.manoeuvre import combat as C
counts = np.array([2, 1], dtype=np.int64); sides = np.array([8, 10], dtype=np.int64)
out = [C.simulate_assault(np.uint64(9), 3000, 4, counts, sides, 2, 1, 10, 1000).tolist(),
       C.simulate_fire(np.uint64(9), 3000, 2, counts, sides, 1, 9, 1000).tolist(),
       C.simulate_pursuit(np.uint64(9), 3000, np.array([4, 2], dtype=np.int64), 2, -1,
                          1000).tolist()]
print(json.dumps(out))
"""


def test_jitted_equals_numba_disable_jit():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", _NOJIT], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stderr
    counts = np.array([2, 1], dtype=np.int64)
    sides = np.array([8, 10], dtype=np.int64)
    jit = [
        C.simulate_assault(np.uint64(9), 3000, 4, counts, sides, 2, 1, 10, 1000).tolist(),
        C.simulate_fire(np.uint64(9), 3000, 2, counts, sides, 1, 9, 1000).tolist(),
        C.simulate_pursuit(
            np.uint64(9), 3000, np.array([4, 2], dtype=np.int64), 2, -1, 1000
        ).tolist(),
    ]
    assert json.loads(proc.stdout) == jit
