"""Combat resolution kernels (rules 6.1, 6.2, 6.6, 7, 8; Distant Lands 6.3 Rockets).

Written once, in numba, for both the combat-odds simulator (:mod:`manoeuvre_sim.manoeuvre.odds`) and
the full-game engine. Every function is ``@numba.njit(cache=True)``, takes integers and
integer arrays only, and draws its randomness from an explicit xoshiro256** state
(:mod:`manoeuvre_sim.core.rng`), so with ``NUMBA_DISABLE_JIT=1`` they run as plain Python with the
same results.

Result bands of the Assault/Ambush Results Table (rule 6.1 step 7, reference card) are the
integer constants below. The bands are cumulative thresholds on the printed table; a combat
falls in exactly one band, the highest threshold it reaches (``A >= 4D`` is ``ELIMINATED``
even though it is also ``> D``).

Dice in the kernels
-------------------
One 64-bit xoshiro output feeds two dice: its top and bottom 32 bits each become a face by
Lemire's multiply-shift ``(u32 * sides) >> 32`` (bias below ``sides / 2**32``). The
single-die helpers of :mod:`manoeuvre_sim.core.rng` (``roll_die``) use one output per die;
:func:`roll_dice_list` and the batch kernels use the paired draw.

Batch kernels and seeding
-------------------------
The ``simulate_*`` kernels split ``n`` resolutions into chunks of ``chunk`` (default
``1 << 20``); chunk ``c`` draws from ``rng.seed_state(master_seed, c)``. Chunks run in
parallel with ``numba.prange`` and each writes its own row of counts, so the totals depend on
``(master_seed, n, chunk)`` only — never on the number of threads.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import next_u64, roll_die, seed_state

# Result bands, rule 6.1 step 7 (reference card, Assault/Ambush Results Table).
ATTACKER_HIT = 0  # A < D: all attacking/supporting units take a hit
NO_EFFECT = 1  # A = D
DEFENDER_CHOICE = 2  # A > D: defender chooses retreat or hit
ATTACKER_CHOICE = 3  # A >= 2D: attacker chooses retreat or hit
HIT_AND_RETREAT = 4  # A >= 3D: defender takes a hit and retreats
ELIMINATED = 5  # A >= 4D: defender eliminated
N_BANDS = 6
BAND_NAMES = (
    "attacker_hit",
    "no_effect",
    "defender_choice",
    "attacker_choice",
    "hit_and_retreat",
    "eliminated",
)

# Bombardment / volley outcomes (rule 6.2 step 4).
FIRE_NO_EFFECT = 0
FIRE_HIT = 1

# Rocket outcomes (Distant Lands 6.3): d10 1-4 no effect, 5-8 retreat, 9-10 retreat + loss.
ROCKET_NO_EFFECT = 0
ROCKET_RETREAT = 1
ROCKET_RETREAT_AND_HIT = 2
ROCKET_NAMES = ("no_effect", "retreat", "retreat_and_hit")

DEFAULT_CHUNK = 1 << 20
_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@nb.njit(cache=True, inline="always")
def assault_band(attack_total, defense_total):
    """The band of the Assault/Ambush Results Table (rule 6.1 step 7).

    Higher multiples are checked first. With ``defense_total == 0`` (impossible in play:
    every unit has strength >= 1) every attack total ``>= 0`` reaches ``4 * 0`` and is
    ``ELIMINATED`` — the literal reading of the table.

    Parameters
    ----------
    attack_total, defense_total : int

    Returns
    -------
    int
        One of ``ATTACKER_HIT`` .. ``ELIMINATED`` (0..5).
    """
    a = attack_total
    d = defense_total
    if a >= 4 * d:
        return ELIMINATED
    if a >= 3 * d:
        return HIT_AND_RETREAT
    if a >= 2 * d:
        return ATTACKER_CHOICE
    if a > d:
        return DEFENDER_CHOICE
    if a == d:
        return NO_EFFECT
    return ATTACKER_HIT


@nb.njit(cache=True, inline="always")
def fire_hits(attack_total, defense_total):
    """Bombardment and volley (rule 6.2 step 4): a hit iff attack total > defense total."""
    return attack_total > defense_total


@nb.njit(cache=True, inline="always")
def _face(u32, sides):
    # Lemire multiply-shift of a 32-bit uniform onto 1..sides.
    return np.int64((u32 * np.uint64(sides)) >> _S32) + 1


@nb.njit(cache=True, inline="always")
def _sum_flat(state, dice, pairs, odd):
    """Total of a flat list of dice sides (``flat_dice``), two dice per 64-bit output: the
    hot loop of the batch kernels."""
    t = 0
    for j in range(pairs):
        u = next_u64(state)
        t += _face(u >> _S32, dice[2 * j]) + _face(u & _MASK32, dice[2 * j + 1])
    if odd:
        t += _face(next_u64(state) >> _S32, dice[2 * pairs])
    return t


@nb.njit(cache=True, inline="always")
def roll_dice_list(state, counts, sides, n):
    """The total of ``n`` dice expressions ``counts[i]`` d ``sides[i]``.

    Two dice per 64-bit output (top half first). Advances ``state`` in place.

    Parameters
    ----------
    state : ndarray(uint64, shape=(4,))
    counts, sides : ndarray(int, shape=(>= n,))
        Expression ``i`` is ``counts[i]`` dice of ``sides[i]`` sides.
    n : int
        Number of expressions to use.

    Returns
    -------
    int
    """
    total = 0
    spare = np.uint64(0)
    have = False
    for e in range(n):
        s = sides[e]
        for _ in range(counts[e]):
            if have:
                total += _face(spare, s)
                have = False
            else:
                u = next_u64(state)
                total += _face(u >> _S32, s)
                spare = u & _MASK32
                have = True
    return total


@nb.njit(cache=True, inline="always")
def _d6(state):
    return roll_die(state, 6)


@nb.njit(cache=True, inline="always")
def pursuit_hits(roll, pursuit_max, leader_mod):
    """Rule 6.6: a pursuit roll ``roll`` (a d6) hits if ``roll + leader_mod`` is within
    ``1..pursuit_max`` (a modified roll below 1 counts as within: the modifier is meant to
    make pursuit easier, rule 9.1 Pursuit). The engine and :func:`pursuit_hit` both ask
    this."""
    return roll + leader_mod <= pursuit_max


@nb.njit(cache=True, inline="always")
def within(roll, maximum):
    """A d6 ``roll`` within ``1..maximum``: a leader's rally (rule 7) or a United States
    unit card's withdraw attempt (rule 8). The engine and the odds kernels both ask this."""
    return roll <= maximum


@nb.njit(cache=True, inline="always")
def pursuit_hit(state, pursuit_max, leader_mod):
    """One pursuit roll (rule 6.6): d6 + leader pursuit modifier, a hit if the modified
    roll is within ``1..pursuit_max``.

    A modified roll below 1 (e.g. 1 with a -1 leader) counts as within the range: the
    modifier is meant to make pursuit easier (rule 9.1 Pursuit), so the test is
    ``d6 + leader_mod <= pursuit_max``.

    Parameters
    ----------
    state : ndarray(uint64, shape=(4,))
    pursuit_max : int
        The card's pursuit value (1..6).
    leader_mod : int
        The leader's pursuit modifier (0 if none; negative makes hits easier).

    Returns
    -------
    bool
    """
    return pursuit_hits(_d6(state), pursuit_max, leader_mod)


@nb.njit(cache=True, inline="always")
def rally_success(state, rally_max, auto):
    """Leader rally in the Restoration Phase (rule 7): d6 within ``1..rally_max``;
    ``auto`` (e.g. Palafox) succeeds without a roll (no random number is drawn)."""
    if auto:
        return True
    return within(_d6(state), rally_max)


@nb.njit(cache=True, inline="always")
def withdraw_success(state, withdraw_max):
    """A United States unit card's withdraw attempt (rule 8): d6 within ``1..withdraw_max``."""
    return within(_d6(state), withdraw_max)


@nb.njit(cache=True, inline="always")
def rocket_outcome(roll):
    """The rocket table (Distant Lands 6.3) for a d10 ``roll``: 1-4 ``ROCKET_NO_EFFECT``,
    5-8 ``ROCKET_RETREAT``, 9-10 ``ROCKET_RETREAT_AND_HIT`` (the engine's and the odds')."""
    if roll <= 4:
        return ROCKET_NO_EFFECT
    if roll <= 8:
        return ROCKET_RETREAT
    return ROCKET_RETREAT_AND_HIT


@nb.njit(cache=True, inline="always")
def rocket_result(state):
    """A rocket attack (Distant Lands 6.3): d10 1-4 no effect, 5-8 retreat, 9-10 retreat
    and one loss. Returns ``ROCKET_NO_EFFECT``, ``ROCKET_RETREAT`` or
    ``ROCKET_RETREAT_AND_HIT``."""
    return rocket_outcome(_face(next_u64(state) >> _S32, 10))


# --------------------------------------------------------------------------------------
# Batch Monte Carlo kernels
# --------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _n_chunks(n, chunk):
    return (n + chunk - 1) // chunk


@nb.njit(cache=True)
def _chunk_stream(master_seed, n, chunk, c):
    """Chunk ``c`` of ``n`` resolutions cut ``chunk`` at a time: its own generator, seeded
    from ``(master_seed, c)`` alone, and the number of resolutions it plays."""
    state = np.empty(4, dtype=np.uint64)
    seed_state(master_seed, c, state)
    return state, min(chunk, n - c * chunk)


@nb.njit(cache=True)
def _chunk_totals(master_seed, n, chunk, c, base, dice):
    """The totals ``base`` + a roll of the flat ``dice`` (``flat_dice``) of chunk ``c``'s
    resolutions (``_chunk_stream``), in the order they are rolled."""
    state, k = _chunk_stream(master_seed, n, chunk, c)
    m = dice.shape[0]
    pairs = m // 2
    odd = m % 2 == 1
    out = np.empty(k, dtype=np.int64)
    for j in range(k):
        out[j] = base + _sum_flat(state, dice, pairs, odd)
    return out


@kernel(nrt=True)
def flat_dice(counts, sides, n, committed):
    """Flatten dice expressions into one entry per die; each Committed Attack (rule 9.2)
    adds 2d6. Returns ``ndarray(int64, shape=(total dice,))`` of side counts."""
    m = 2 * committed
    for e in range(n):
        m += counts[e]
    out = np.empty(m, dtype=np.int64)
    k = 0
    for e in range(n):
        for _ in range(counts[e]):
            out[k] = sides[e]
            k += 1
    for _ in range(2 * committed):
        out[k] = 6
        k += 1
    return out


@nb.njit(cache=True, parallel=True)
def simulate_assault(master_seed, n, base, counts, sides, n_dice, committed, defense, chunk):
    """Monte Carlo of ``n`` assault/ambush resolutions (rule 6.1 steps 6-7).

    Attack total = ``base`` + the dice ``counts[i]`` d ``sides[i]`` (i < ``n_dice``) +
    2d6 per Committed Attack; the band of each resolution is :func:`assault_band` against
    the fixed ``defense`` total.

    Parameters
    ----------
    master_seed : int (uint64)
    n : int
        Resolutions to simulate.
    base : int
        Strength and fixed bonuses of the attack (strength, hill, leader, supports).
    counts, sides : ndarray(int64, shape=(n_dice,))
    n_dice : int
    committed : int
        Committed Attack cards (each 2d6).
    defense : int
        The whole defense total (>= 0).
    chunk : int
        Resolutions per independently seeded chunk.

    Returns
    -------
    ndarray(int64, shape=(6,))
        Resolutions per band, indexed by the band constants.
    """
    dice = flat_dice(counts, sides, n_dice, committed)
    m = dice.shape[0]
    top = base
    for i in range(m):
        top += dice[i]
    # band of every reachable attack total (rule 6.1 step 7), looked up per resolution
    lut = np.empty(max(top, 0) + 1, dtype=np.int64)
    for a in range(lut.shape[0]):
        lut[a] = assault_band(a, defense)
    n_chunks = _n_chunks(n, chunk)
    per = np.zeros((n_chunks, N_BANDS), dtype=np.int64)
    for c in nb.prange(n_chunks):
        cnt = np.zeros(N_BANDS, dtype=np.int64)
        for a in _chunk_totals(master_seed, n, chunk, c, base, dice):
            if a < 0:
                cnt[assault_band(a, defense)] += 1
            else:
                cnt[lut[a]] += 1
        per[c, :] = cnt
    out = np.zeros(N_BANDS, dtype=np.int64)
    for c in range(n_chunks):
        for b in range(N_BANDS):
            out[b] += per[c, b]
    return out


@nb.njit(cache=True, parallel=True)
def simulate_fire(master_seed, n, bonus, counts, sides, n_dice, defense, chunk):
    """Monte Carlo of ``n`` bombardments or volleys (rule 6.2): dice + ``bonus`` (hill)
    against ``defense``. Returns ``ndarray(int64, shape=(2,))``: counts of
    ``FIRE_NO_EFFECT`` and ``FIRE_HIT``."""
    dice = flat_dice(counts, sides, n_dice, 0)
    n_chunks = _n_chunks(n, chunk)
    per = np.zeros(n_chunks, dtype=np.int64)
    for c in nb.prange(n_chunks):
        hits = 0
        for a in _chunk_totals(master_seed, n, chunk, c, bonus, dice):
            if fire_hits(a, defense):
                hits += 1
        per[c] = hits
    out = np.zeros(2, dtype=np.int64)
    out[FIRE_HIT] = per.sum()
    out[FIRE_NO_EFFECT] = n - out[FIRE_HIT]
    return out


@nb.njit(cache=True, parallel=True)
def simulate_pursuit(master_seed, n, pursuit_max, n_cards, leader_mod, chunk):
    """Monte Carlo of ``n`` pursuits (rule 6.6): one :func:`pursuit_hit` roll per card.

    Returns ``ndarray(int64, shape=(n_cards + 1,))``: entry ``h`` counts pursuits with
    exactly ``h`` hits."""
    n_chunks = _n_chunks(n, chunk)
    per = np.zeros((n_chunks, n_cards + 1), dtype=np.int64)
    for c in nb.prange(n_chunks):
        state, k = _chunk_stream(master_seed, n, chunk, c)
        for _ in range(k):
            h = 0
            for i in range(n_cards):
                if pursuit_hit(state, pursuit_max[i], leader_mod):
                    h += 1
            per[c, h] += 1
    out = np.zeros(n_cards + 1, dtype=np.int64)
    for c in range(n_chunks):
        for h in range(n_cards + 1):
            out[h] += per[c, h]
    return out


@nb.njit(cache=True, parallel=True)
def simulate_d6_range(master_seed, n, max_value, chunk):
    """Monte Carlo of ``n`` d6 tests "within 1..max_value" — a leader rally (rule 7,
    :func:`rally_success`) or a US withdraw attempt (rule 8, :func:`withdraw_success`).
    Returns the number of successes."""
    n_chunks = _n_chunks(n, chunk)
    per = np.zeros(n_chunks, dtype=np.int64)
    for c in nb.prange(n_chunks):
        state, k = _chunk_stream(master_seed, n, chunk, c)
        s = 0
        for _ in range(k):
            if withdraw_success(state, max_value):
                s += 1
        per[c] = s
    return per.sum()


@nb.njit(cache=True, parallel=True)
def simulate_rockets(master_seed, n, chunk):
    """Monte Carlo of ``n`` rocket attacks (Distant Lands 6.3). Returns
    ``ndarray(int64, shape=(3,))`` indexed by the ``ROCKET_*`` constants."""
    n_chunks = _n_chunks(n, chunk)
    per = np.zeros((n_chunks, 3), dtype=np.int64)
    for c in nb.prange(n_chunks):
        state, k = _chunk_stream(master_seed, n, chunk, c)
        for _ in range(k):
            per[c, rocket_result(state)] += 1
    out = np.zeros(3, dtype=np.int64)
    for c in range(n_chunks):
        for r in range(3):
            out[r] += per[c, r]
    return out
