"""The kernels' RNG: reproducible, uniform dice, identical with and without the JIT."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from manoeuvre_sim.core.rng import new_state, next_u64, roll_dice, roll_die

SNIPPET = """
from manoeuvre_sim.core.rng import new_state, next_u64, roll_die
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


# --- reference vectors --------------------------------------------------------------------
# splitmix64 and xoshiro256** as published by Blackman and Vigna (prng.di.unimi.it,
# splitmix64.c and xoshiro256starstar.c), written again here in plain Python integers from
# the published algorithms so that the kernels are checked against an independent copy.
M64 = (1 << 64) - 1


def ref_splitmix64(x):
    """splitmix64.c ``next()``: returns (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return x, z ^ (z >> 31)


def ref_rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


def ref_step(s):
    """xoshiro256starstar.c: the state update of ``next()`` (the xor/shift part)."""
    s = list(s)
    t = (s[1] << 17) & M64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = ref_rotl(s[3], 45)
    return s


def ref_xoshiro256ss(s, n):
    """xoshiro256starstar.c ``next()`` n times from state ``s``: ``rotl(s1 * 5, 7) * 9``,
    then the update."""
    out = []
    for _ in range(n):
        out.append((ref_rotl((s[1] * 5) & M64, 7) * 9) & M64)
        s = ref_step(s)
    return out


def test_splitmix64_gives_the_reference_outputs():
    """splitmix64.c seeded with 1234567: its first five outputs."""
    from manoeuvre_sim.core.rng import splitmix64

    want = [6457827717110365317, 3203168211198807973, 9817491932198370423,
            4593380528125082431, 16408922859458223821]  # fmt: skip
    x, ref_x, got, ref = np.uint64(1234567), 1234567, [], []
    for _ in range(5):
        x, z = splitmix64(np.uint64(x))  # the kernel hands back Python ints
        got.append(int(z))
        ref_x, rz = ref_splitmix64(ref_x)
        ref.append(rz)
    assert ref == want  # the independent copy reproduces the published numbers
    assert got == want


def test_xoshiro256ss_from_state_1234_gives_the_reference_outputs():
    """State {1, 2, 3, 4}: the first outputs of xoshiro256starstar.c (also the test vector of
    the Rust rand_xoshiro crate, taken from the reference code)."""
    want = [11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
            607988272756665600, 16172922978634559625, 8476171486693032832,
            10595114339597558777, 2904607092377533576]  # fmt: skip
    assert ref_xoshiro256ss([1, 2, 3, 4], 10) == want
    s = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert [int(next_u64(s)) for _ in range(10)] == want


def test_xoshiro256ss_seeded_by_splitmix64_matches_the_reference():
    """The reference's recommended seeding (four splitmix64 outputs fill the state), then
    1,000 outputs, against the plain-Python copy; and the state words after them."""
    for seed in (0, 1234567, 2**64 - 1):
        x, words = seed, []
        for _ in range(4):
            x, z = ref_splitmix64(x)
            words.append(z)
        s = np.array(words, dtype=np.uint64)
        got = [int(next_u64(s)) for _ in range(1000)]
        assert got == ref_xoshiro256ss(words, 1000), seed
        # the state after 1,000 steps is the reference state after 1,000 steps
        ref_state = list(words)
        for _ in range(1000):
            ref_state = ref_step(ref_state)
        assert [int(w) for w in s] == ref_state


def test_seed_state_is_splitmix64_of_seed_and_stream():
    """``new_state`` derives the state exactly as ``rng.seed_state`` documents it, with the
    reference splitmix64: results never depend on anything but (seed, stream)."""
    for seed, stream in ((1, 0), (12345, 7), (2**63 + 5, 2**40)):
        x, a = ref_splitmix64(seed)
        _, b = ref_splitmix64(x ^ ((stream * 0xD1B54A32D192ED03) & M64))
        s, want = a ^ ref_rotl(b, 17), []
        for _ in range(4):
            s, out = ref_splitmix64(s)
            want.append(out)
        assert [int(w) for w in new_state(seed, stream)] == want
