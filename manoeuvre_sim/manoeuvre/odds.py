"""Combat odds: exact (numpy convolution of dice pmfs) and Monte Carlo (the numba kernels of
:mod:`manoeuvre_sim.manoeuvre.combat`, which the engine uses too) — each the check on the other.

Covers Assault and Ambush (rule 6.1), Bombardment and Volley (rule 6.2, Grand Battery rule
9.1), Pursuit (rule 6.6), leader Rally (rule 7), United States Withdraw attempts (rule 8) and
Rockets (Distant Lands 6.3). The totals they start from (``build_attack``, ``build_defense``)
are built in :mod:`manoeuvre_sim.manoeuvre.combat_totals`, the named matchups between units of the army
data in :mod:`manoeuvre_sim.manoeuvre.matchup`; both resolve their names here too, not the matchups.

Assault result bands are reported **exclusively**: each outcome falls in exactly one band,
the highest threshold of the Results Table it reaches (rule 6.1 step 7), so the six
probabilities sum to 1. ``cumulative`` gives the printed "at least" thresholds.

Every public function validates its input and raises :class:`~manoeuvre_sim.core.errors.UsageError`
with a readable message; kernels see only integers and integer arrays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import Estimate
from manoeuvre_sim.manoeuvre.combat import BAND_NAMES, DEFAULT_CHUNK, ROCKET_NAMES
from manoeuvre_sim.manoeuvre.combat_totals import AMBUSH_DICE as AMBUSH_DICE
from manoeuvre_sim.manoeuvre.combat_totals import (
    COMMITTED_DICE,
    Attack,
    _check_int,
    _dice_arrays,
    as_dice,
    dice_label,
    hill_bonus,
)
from manoeuvre_sim.manoeuvre.combat_totals import GRAND_BATTERY_DICE as GRAND_BATTERY_DICE
from manoeuvre_sim.manoeuvre.combat_totals import JAPANESE_LEADER_DICE as JAPANESE_LEADER_DICE
from manoeuvre_sim.manoeuvre.combat_totals import MAX_COMMITTED as MAX_COMMITTED
from manoeuvre_sim.manoeuvre.combat_totals import Support as Support
from manoeuvre_sim.manoeuvre.combat_totals import build_attack as build_attack
from manoeuvre_sim.manoeuvre.combat_totals import build_defense as build_defense
from manoeuvre_sim.manoeuvre.dice import Dice, sum_pmf

FIRE_NAMES = ("no_effect", "hit")
ROCKET_PROBS = np.array([0.4, 0.4, 0.2])  # Distant Lands 6.3: d10 1-4, 5-8, 9-10
MAX_SIMULATE = 10**11


# ----------------------------------------------------------------------------------------
# Exact odds
# ----------------------------------------------------------------------------------------


def attack_pmf(base: int, dice: Sequence[Dice], committed: int = 0) -> np.ndarray:
    """Exact distribution of an attack total.

    Returns
    -------
    ndarray(float64, shape=(max_total + 1,))
        Entry ``t`` is P(attack total == t).
    """
    p = sum_pmf(tuple(dice) + (COMMITTED_DICE,) * committed)
    return np.concatenate([np.zeros(base), p])


def _band_thresholds(defense: np.ndarray) -> np.ndarray:
    """Lower attack-total thresholds of the six bands, ``shape=defense.shape + (6,)``,
    made non-increasing from the top so that band ``k`` is ``[L_k, L_{k+1})``: this is the
    "highest threshold reached" rule of :func:`~manoeuvre_sim.manoeuvre.combat.assault_band`, also when
    ``defense == 0``."""
    d = np.asarray(defense, dtype=np.int64)
    lo = np.stack([np.full_like(d, np.iinfo(np.int32).min), d, d + 1, 2 * d, 3 * d, 4 * d], axis=-1)
    return np.minimum.accumulate(lo[..., ::-1], axis=-1)[..., ::-1]


def band_probabilities(pmf: np.ndarray, defense: int) -> np.ndarray:
    """P(each result band) for an attack-total pmf against a defense total (rule 6.1 step 7).

    Parameters
    ----------
    pmf : ndarray(float64, shape=(T + 1,))
        P(attack total == t).
    defense : int

    Returns
    -------
    ndarray(float64, shape=(6,))
        Exclusive band probabilities, indexed by the band constants of
        :mod:`manoeuvre_sim.manoeuvre.combat`.
    """
    return band_grid(pmf, np.array([0]), np.array([defense]))[0, 0]


def band_grid(dice_pmf: np.ndarray, bases: np.ndarray, defenses: np.ndarray) -> np.ndarray:
    """Band probabilities for every (base, defense) pair at once, from one dice pmf.

    The attack total is ``base + X`` with ``X ~ dice_pmf``; band ``k`` covers attack totals
    ``[L_k, L_{k+1})`` (:func:`_band_thresholds`), so its probability is a difference of the
    prefix sums of the pmf — one cumulative sum serves every cell.

    Parameters
    ----------
    dice_pmf : ndarray(float64, shape=(T + 1,))
    bases : ndarray(int, shape=(nb,))
    defenses : ndarray(int, shape=(nd,))

    Returns
    -------
    ndarray(float64, shape=(nb, nd, 6))
    """
    pmf = np.asarray(dice_pmf, dtype=np.float64)
    # prefix[i] = P(X < i) for i in 0..T+1; band k is X in [L_k - base, L_{k+1} - base)
    prefix = np.concatenate([[0.0], np.cumsum(pmf)])
    n = pmf.shape[0]
    lo = _band_thresholds(np.asarray(defenses))  # (nd, 6)
    t = lo[None, :, :] - np.asarray(bases, dtype=np.int64)[:, None, None]  # (nb, nd, 6)
    t = np.concatenate([t, np.full(t.shape[:2] + (1,), n)], axis=-1)
    c = prefix[np.clip(t, 0, n)]
    out = c[..., 1:] - c[..., :-1]
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True)
class AssaultOdds:
    """Exact odds of one assault or ambush (rule 6.1)."""

    attack: Attack
    defense_total: int
    probs: np.ndarray  # float64 (6,), exclusive, by band constant
    pmf: np.ndarray = field(repr=False)  # float64 (T+1,), P(attack total == t)

    @property
    def bands(self) -> dict[str, float]:
        return {name: float(p) for name, p in zip(BAND_NAMES, self.probs, strict=True)}

    @property
    def attack_total_mean(self) -> float:
        return float(np.dot(np.arange(self.pmf.size), self.pmf))

    @property
    def cumulative(self) -> dict[str, float]:
        """The printed thresholds, inclusive: P(A > D), P(A >= 2D), P(A >= 3D), P(A >= 4D)."""
        p = self.probs
        return {
            "A>D": float(p[2:].sum()),
            "A>=2D": float(p[3:].sum()),
            "A>=3D": float(p[4:].sum()),
            "A>=4D": float(p[5:].sum()),
        }

    def to_dict(self) -> dict:
        nz = np.nonzero(self.pmf)[0]
        return {
            **self.bands,
            "bands_exclusive": True,
            "attack_total_mean": self.attack_total_mean,
            "attack_total_min": int(nz[0]),
            "attack_total_max": int(nz[-1]),
            "attack_base": self.attack.base,
            "attack_dice": [str(d) for d in self.attack.dice],
            "committed_attacks": self.attack.committed,
            "defense_total": self.defense_total,
            "cumulative": self.cumulative,
        }


def assault_odds(attack: Attack, defense_total: int) -> AssaultOdds:
    """Exact result-band probabilities of an assault or ambush (rule 6.1 step 7)."""
    d = _check_int("defense total", defense_total, 0, 1000)
    pmf = attack_pmf(attack.base, attack.dice, attack.committed)
    return AssaultOdds(attack, d, band_probabilities(pmf, d), pmf)


@dataclass(frozen=True)
class FireOdds:
    """Exact odds of a bombardment or volley (rule 6.2)."""

    dice: tuple[Dice, ...]
    bonus: int
    defense_total: int
    hit: float

    def to_dict(self) -> dict:
        pmf = sum_pmf(self.dice)
        return {
            "hit": self.hit,
            "no_effect": 1.0 - self.hit,
            "attack_total_mean": float(np.dot(np.arange(pmf.size), pmf)) + self.bonus,
            "attack_bonus": self.bonus,
            "attack_dice": [str(d) for d in self.dice],
            "defense_total": self.defense_total,
        }


def fire_odds(dice: Iterable[object], defense_total: int, *, hill: bool = False) -> FireOdds:
    """Exact P(hit) of a bombardment or volley: P(dice + hill bonus > defense) (rule 6.2).

    ``hill``: the firing unit is on a hill and the target is not (+2, terrain chart).
    """
    dice_t = as_dice(dice)
    if not dice_t:
        raise UsageError("a bombardment or volley needs the dice of its unit card: give --dice")
    d = _check_int("defense total", defense_total, 0, 1000)
    bonus = hill_bonus() if hill else 0
    pmf = sum_pmf(dice_t)
    need = d - bonus + 1  # dice total needed
    hit = float(pmf[max(need, 0) :].sum())
    return FireOdds(dice_t, bonus, d, min(max(hit, 0.0), 1.0))


def pursuit_hit_prob(pursuit_max: int, leader_mod: int = 0) -> float:
    """P(hit) of one pursuit roll (rule 6.6): P(d6 + leader_mod <= pursuit_max); a modified
    roll below 1 counts as inside the range (see :func:`manoeuvre_sim.manoeuvre.combat.pursuit_hit`)."""
    return min(max(pursuit_max - leader_mod, 0), 6) / 6.0


def pursuit_odds(pursuit_maxes: Sequence[int], leader_mod: int = 0) -> np.ndarray:
    """Exact distribution of pursuit hits (rule 6.6): one d6 per card played by the
    pursuing cavalry, each a hit when within the card's range after the leader modifier.

    Returns
    -------
    ndarray(float64, shape=(len(pursuit_maxes) + 1,))
        Entry ``h`` is P(exactly h hits).
    """
    maxes = [_check_int("pursuit value", m, 1, 6) for m in pursuit_maxes]
    if not maxes:
        raise UsageError("pursuit: give the pursuit value of at least one card (--card)")
    mod = _check_int("leader pursuit modifier", leader_mod, -5, 5)
    out = np.array([1.0])
    for m in maxes:
        p = pursuit_hit_prob(m, mod)
        out = np.convolve(out, [1.0 - p, p])
    return out


def d6_range_prob(max_value: int) -> float:
    """P(d6 within 1..max_value): a leader rally (rule 7) or a US withdraw attempt (rule 8)."""
    return min(max(_check_int("range", max_value, 0, 6), 0), 6) / 6.0


def rally_odds(rally: int | str) -> float:
    """P(success) of a leader's rally attempt (rule 7); ``'auto'`` always succeeds."""
    if rally == "auto":
        return 1.0
    return d6_range_prob(rally)


def withdraw_odds(withdraw_max: int) -> float:
    """P(success) of a United States unit card's withdraw attempt (rule 8)."""
    return d6_range_prob(withdraw_max)


def rocket_odds() -> dict[str, float]:
    """Rocket attack outcomes (Distant Lands 6.3): d10 1-4 / 5-8 / 9-10."""
    return {n: float(p) for n, p in zip(ROCKET_NAMES, ROCKET_PROBS, strict=True)}


# ----------------------------------------------------------------------------------------
# Monte Carlo
# ----------------------------------------------------------------------------------------


def _check_sim(n: int, seed: int, chunk: int) -> tuple[int, np.uint64, int]:
    n = _check_int("number of simulations", n, 1, MAX_SIMULATE)
    seed = _check_int("seed", seed, 0, (1 << 64) - 1)
    chunk = _check_int("chunk", chunk, 1, 1 << 30)
    return n, np.uint64(seed), chunk


def simulate_assault(
    attack: Attack, defense_total: int, n: int, seed: int = 0, chunk: int = DEFAULT_CHUNK
) -> Estimate:
    """Monte Carlo estimate of the six result bands with the engine's kernel
    (:func:`manoeuvre_sim.manoeuvre.combat.simulate_assault`). Same seed, same result, on any number
    of threads."""
    from manoeuvre_sim.manoeuvre import combat

    n, s, chunk = _check_sim(n, seed, chunk)
    d = _check_int("defense total", defense_total, 0, 1000)
    counts, sides = _dice_arrays(attack.dice)
    out = combat.simulate_assault(
        s, n, attack.base, counts, sides, len(attack.dice), attack.committed, d, chunk
    )
    return Estimate(BAND_NAMES, out, n, int(s))


def simulate_fire(
    dice: Iterable[object],
    defense_total: int,
    n: int,
    seed: int = 0,
    *,
    hill: bool = False,
    chunk: int = DEFAULT_CHUNK,
) -> Estimate:
    """Monte Carlo estimate of a bombardment or volley (rule 6.2)."""
    from manoeuvre_sim.manoeuvre import combat

    dice_t = as_dice(dice)
    if not dice_t:
        raise UsageError("a bombardment or volley needs dice")
    n, s, chunk = _check_sim(n, seed, chunk)
    d = _check_int("defense total", defense_total, 0, 1000)
    counts, sides = _dice_arrays(dice_t)
    bonus = hill_bonus() if hill else 0
    out = combat.simulate_fire(s, n, bonus, counts, sides, len(dice_t), d, chunk)
    return Estimate(FIRE_NAMES, out, n, int(s))


def simulate_pursuit(
    pursuit_maxes: Sequence[int],
    leader_mod: int,
    n: int,
    seed: int = 0,
    chunk: int = DEFAULT_CHUNK,
) -> Estimate:
    """Monte Carlo estimate of the number of pursuit hits (rule 6.6)."""
    from manoeuvre_sim.manoeuvre import combat

    pursuit_odds(pursuit_maxes, leader_mod)  # validates
    n, s, chunk = _check_sim(n, seed, chunk)
    maxes = np.array(pursuit_maxes, dtype=np.int64)
    out = combat.simulate_pursuit(s, n, maxes, maxes.size, int(leader_mod), chunk)
    names = tuple(f"{h}_hits" for h in range(maxes.size + 1))
    return Estimate(names, out, n, int(s))


def simulate_d6_range(max_value: int, n: int, seed: int = 0, chunk: int = DEFAULT_CHUNK):
    """Monte Carlo estimate of a rally (rule 7) or withdraw (rule 8) attempt."""
    from manoeuvre_sim.manoeuvre import combat

    d6_range_prob(max_value)
    n, s, chunk = _check_sim(n, seed, chunk)
    k = int(combat.simulate_d6_range(s, n, int(max_value), chunk))
    return Estimate(("failure", "success"), np.array([n - k, k]), n, int(s))


def simulate_rockets(n: int, seed: int = 0, chunk: int = DEFAULT_CHUNK) -> Estimate:
    """Monte Carlo estimate of a rocket attack (Distant Lands 6.3)."""
    from manoeuvre_sim.manoeuvre import combat

    n, s, chunk = _check_sim(n, seed, chunk)
    return Estimate(ROCKET_NAMES, combat.simulate_rockets(s, n, chunk), n, int(s))


# ----------------------------------------------------------------------------------------
# Grids (the odds table and chart)
# ----------------------------------------------------------------------------------------

# The attack dice printed on the base armies' unit cards, single and the common pairs.
DEFAULT_MIXES = ("1d6", "1d8", "1d10", "2d6", "2d8", "2d10")


def odds_grid(
    mixes: Iterable[object], strengths: Sequence[int], defenses: Sequence[int]
) -> tuple[list[str], np.ndarray]:
    """Exact band probabilities for every dice mix x attacker base x defense total.

    Parameters
    ----------
    mixes : iterable
        Each item a dice notation string, a :class:`Dice`, or a list of them (a mix of
        several cards, e.g. ``["2d8", "1d10"]`` or the string ``"2d8+1d10"``).
    strengths : sequence of int
        Attacker bases (strength + fixed bonuses), >= 0.
    defenses : sequence of int
        Defense totals, >= 0.

    Returns
    -------
    labels : list of str
    probs : ndarray(float64, shape=(n_mixes, n_strengths, n_defenses, 6))
    """
    strengths = [_check_int("strength", s, 0, 200) for s in strengths]
    defenses = [_check_int("defense", d, 0, 1000) for d in defenses]
    labels, out = [], []
    for mix in mixes:
        dice = parse_mix(mix)
        labels.append(dice_label(dice))
        out.append(band_grid(sum_pmf(dice), np.array(strengths), np.array(defenses)))
    if not out:
        raise UsageError("give at least one dice mix")
    return labels, np.stack(out)


def parse_mix(mix: object) -> tuple[Dice, ...]:
    """``'2d8+1d10'`` or ``['2d8', '1d10']`` -> tuple of Dice."""
    if isinstance(mix, str):
        parts = [p for p in mix.replace(",", "+").split("+")]
        if any(not p.strip() for p in parts):
            raise UsageError(f"dice mix: expected e.g. '2d8' or '2d8+1d10', got {mix!r}")
        return as_dice(parts, "dice mix")
    return as_dice(mix, "dice mix")
