"""Explicit, seedable random numbers for the kernels: xoshiro256** seeded by splitmix64.

Every game (or every chunk of combat resolutions) gets its own generator state, derived from
``(master seed, stream index)`` alone, so results never depend on the number of threads,
the chunking or the order in which work is scheduled.

State layout: ``ndarray(uint64, shape=(4,))`` — the four xoshiro256** words.

Dice use Lemire's multiply-shift on the top 32 bits of one output: face = (u32 * sides) >> 32,
whose bias is below sides / 2**32 (< 5e-9 for a d20) — far below any Monte Carlo error here.

The functions are plain Python decorated with ``numba.njit``; with ``NUMBA_DISABLE_JIT=1``
they run as Python and give bit-identical streams (tests check this).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from manoeuvre_sim.core.jit import kernel

_MASK64 = (1 << 64) - 1
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def splitmix64(x):
    """One splitmix64 step: returns ``(next_state, output)`` (both uint64)."""
    x = np.uint64(x) + GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return x, z


@kernel
def seed_state(master_seed, stream, state):
    """Fill ``state`` (uint64[4]) for stream ``stream`` of ``master_seed``."""
    x, a = splitmix64(np.uint64(master_seed))
    x, b = splitmix64(x ^ (np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)))
    s = a ^ _rotl(b, 17)
    for i in range(4):
        s, out = splitmix64(s)
        state[i] = out
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = np.uint64(1)  # xoshiro's one forbidden state


@nb.njit(cache=True, inline="always")
def next_u64(state):
    """The next 64-bit output of xoshiro256** (advances ``state`` in place)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@nb.njit(cache=True, inline="always")
def roll_die(state, sides):
    """One die of ``sides`` sides: an int64 in 1..sides."""
    u = next_u64(state) >> np.uint64(32)
    return np.int64((u * np.uint64(sides)) >> np.uint64(32)) + 1


@kernel
def roll_dice(state, count, sides):
    """The total of ``count`` dice of ``sides`` sides."""
    total = 0
    for _ in range(count):
        total += roll_die(state, sides)
    return total


@nb.njit(cache=True, inline="always")
def uniform_below(state, n):
    """A uniform integer in 0..n-1 (n >= 1)."""
    u = next_u64(state) >> np.uint64(32)
    return np.int64((u * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True, inline="always")
def keep_best(v, i, best, bi, ties, eps, state):
    """One step of an argmax over options ``i`` worth ``v`` that breaks ties (within
    ``eps``) uniformly at random, by reservoir sampling: returns the new
    ``(best, index, ties)``. Start from ``(-inf, 0, 0)``."""
    if v > best + eps:
        return v, i, 1
    if v >= best - eps:
        ties += 1
        if uniform_below(state, ties) == 0:
            return best, i, ties
    return best, bi, ties


def new_state(master_seed: int, stream: int = 0) -> np.ndarray:
    """A fresh generator state for ``(master_seed, stream)``."""
    if not (0 <= master_seed <= _MASK64 and 0 <= stream <= _MASK64):
        raise ValueError("seed and stream must be integers in 0..2**64-1")
    state = np.zeros(4, dtype=np.uint64)
    seed_state(np.uint64(master_seed), np.uint64(stream), state)
    return state
