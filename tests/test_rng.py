"""The kernels' RNG: reproducible, uniform dice, identical with and without the JIT."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from manoeuvre_sim.rng import new_state, next_u64, roll_dice, roll_die

SNIPPET = """
from manoeuvre_sim.rng import new_state, next_u64, roll_die
s = new_state(12345, 7)
print([int(next_u64(s)) for _ in range(3)], [int(roll_die(s, 10)) for _ in range(20)])
"""


def test_same_seed_same_stream_and_streams_differ():
    a, b, c = new_state(1, 0), new_state(1, 0), new_state(1, 1)
    xs = [int(next_u64(a)) for _ in range(5)]
    assert xs == [int(next_u64(b)) for _ in range(5)]
    assert xs != [int(next_u64(c)) for _ in range(5)]


def test_dice_are_uniform_chi_square():
    from scipy.stats import chisquare

    s = new_state(2026, 0)
    for sides in (4, 6, 8, 10, 20):
        faces = np.array([roll_die(s, sides) for _ in range(20000)])
        assert faces.min() == 1 and faces.max() == sides
        counts = np.bincount(faces, minlength=sides + 1)[1:]
        assert chisquare(counts).pvalue > 1e-4, sides
    tot = [roll_dice(s, 2, 6) for _ in range(5000)]
    assert min(tot) >= 2 and max(tot) <= 12


def test_jit_and_plain_python_give_identical_streams():
    env = dict(os.environ)
    out_jit = subprocess.run(
        [sys.executable, "-c", SNIPPET], capture_output=True, text=True, env=env, check=True
    ).stdout
    env["NUMBA_DISABLE_JIT"] = "1"
    out_py = subprocess.run(
        [sys.executable, "-c", SNIPPET], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert out_jit == out_py and out_jit.strip()
