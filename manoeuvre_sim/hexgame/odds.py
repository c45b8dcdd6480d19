"""Maneuver's combat odds (rules 001): the exact chance of every result of an attack, what
each unit then suffers, and a Monte Carlo check with the engine's own roll.

An attack (rule [8]) adds the attacking units' combat strengths and one d6, the defence
adds the defending units' strengths and one d6, and the difference reads the results table
(:mod:`manoeuvre_sim.hexgame.crt`). The two dice make the difference the strengths'
difference plus a triangular d6 - d6 (-5..+5, P(k) = (6 - |k|) / 36), so every probability
is a multiple of 1/36 and is given exactly as a :class:`~fractions.Fraction`.

What a result does to each unit:

- rule [9]: an unsupplied unit fights at its strength - 2, never below 0 (H-odds-1);
- rule [11]: AE, AR and DR are no effect for the Capital and every unit in its hex — an
  attacker from the Capital's hex ignores AE and AR, units attacking beside it from other
  hexes do not (H-odds-2); a defending hex holding the Capital ignores DR, and a DE
  captures the Capital (its other units are eliminated, H-odds-3);
- rule [13].3 (advanced, ``step_losses``): an AE or DE flips a full-strength unit to its
  reduced side instead of eliminating it; a reduced unit is eliminated.

A unit is written ``STRENGTH`` then any of ``r`` (showing its reduced, underlined side),
``u`` (unsupplied), ``h`` (an attacker in its Capital's hex), ``c`` (the Capital itself):
``"4,3r,1c"`` (:func:`parse_units`). The strength is the one for the unit's role: an
Artillery or Capital unit has an attack and a defence strength (rule [5]).

:func:`simulate` rolls combats with :func:`manoeuvre_sim.hexgame.crt.roll_combat`, the roll
the engine uses, from the project's seeded RNG: the same seed gives the same counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.hexgame.crt import (
    AE,
    AR,
    AR_FROM,
    DE,
    DE_FROM,
    DR,
    DR_FROM,
    N_RESULTS,
    NE,
    NE_FROM,
    RESULT_NAMES,
    roll_combat,
)

DIE_SIDES = 6  # rule [2]: one six-sided die, rolled once by each side (rule [8] steps 1-2)
UNSUPPLIED_PENALTY = 2  # rule [9]: an unsupplied unit subtracts two from its combat strength
MAX_STRENGTH = 20  # per unit (the printed counters are far below it)
MAX_UNITS = 12  # per side: stacking (rule [6]) holds 3 per hex, and a hex has 6 neighbours
MAX_SIMULATE = 10**10
CHUNK = 1 << 20  # combats per RNG stream in :func:`simulate`

# what a result does to one unit, worst last
UNAFFECTED, RETREATS, REDUCED, ELIMINATED, CAPTURED = 0, 1, 2, 3, 4
FATE_NAMES = ("unaffected", "retreats", "reduced", "eliminated", "captured")
CUMULATIVE_NAMES = (">=AR", ">=NE", ">=DR", ">=DE")


# ----------------------------------------------------------------------------------------
# Units
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One unit in an attack.

    ``strength`` is the combat strength it shows for its role (attack or defence, rule [5]);
    ``reduced``: it shows its reduced (underlined) side, so a step loss eliminates it (rule
    [13].3); ``supplied``: rule [9]; ``capital``: the Capital unit; ``capital_hex``: it is in
    its side's Capital's hex (always true of the Capital).
    """

    strength: int
    reduced: bool = False
    supplied: bool = True
    capital: bool = False
    capital_hex: bool = False

    @property
    def effective(self) -> int:
        """The strength it adds to its side's total (rule [9], H-odds-1)."""
        return unit_strength(self.strength, self.supplied)

    @property
    def protected(self) -> bool:
        """Rule [11]: AE, AR and DR are no effect for the Capital and all units in its hex."""
        return self.capital or self.capital_hex

    @property
    def label(self) -> str:
        """The unit in :func:`parse_units`' notation, e.g. ``'3ru'``."""
        flags = "r" * self.reduced + "u" * (not self.supplied)
        flags += "c" if self.capital else "h" * self.capital_hex
        return f"{self.strength}{flags}"

    def to_dict(self) -> dict:
        return {
            "unit": self.label,
            "strength": self.strength,
            "effective_strength": self.effective,
            "reduced": self.reduced,
            "supplied": self.supplied,
            "capital": self.capital,
            "capital_hex": self.protected,
        }


def unit_strength(strength: int, supplied: bool = True) -> int:
    """A unit's combat strength in an attack: ``strength - 2`` when unsupplied (rule [9]), but
    never below 0 (H-odds-1: a unit adds nothing, as a zero-strength unit does, rule [5];
    it never takes strength away from the units beside it)."""
    return strength if supplied else max(strength - UNSUPPLIED_PENALTY, 0)


_TOKEN = re.compile(r"(\d+)([a-z]*)")
UNIT_SYNTAX = (
    "a strength, then any of r (reduced side), u (unsupplied), h (attacker in its Capital's "
    "hex), c (the Capital), e.g. 4,3r,2u"
)


def parse_units(text: str, what: str, *, attacking: bool) -> tuple[Unit, ...]:
    """``'4,3r,2u,1c'`` -> the units of one side; ``what`` names the option in errors.

    Raises :class:`UsageError` (one line) on anything but 1..MAX_UNITS comma-separated
    tokens of :data:`UNIT_SYNTAX`, and on units the rules cannot put in the attack
    (:func:`check_side`)."""
    tokens = [t.strip().lower() for t in str(text).split(",")]
    units = []
    for tok in tokens:
        m = _TOKEN.fullmatch(tok)
        flags = m.group(2) if m else ""
        if not m or set(flags) - set("ruhc") or len(set(flags)) != len(flags):
            raise UsageError(f"{what}: expected units as {UNIT_SYNTAX}; got {text!r}")
        units.append(
            Unit(
                strength=int(m.group(1)),
                reduced="r" in flags,
                supplied="u" not in flags,
                capital="c" in flags,
                capital_hex="h" in flags or "c" in flags,
            )
        )
    return check_side(units, what, attacking=attacking)


def check_side(units: Iterable[Unit], what: str, *, attacking: bool) -> tuple[Unit, ...]:
    """The units of one side, checked against the rules; a defending side's units all share
    the Capital's hex when the Capital is among them (rule [8]: a hex defends as one)."""
    units = tuple(units)
    if not 1 <= len(units) <= MAX_UNITS:
        raise UsageError(f"{what}: expected 1 to {MAX_UNITS} units, got {len(units)}")
    for u in units:
        if isinstance(u.strength, bool) or not isinstance(u.strength, int | np.integer):
            raise UsageError(f"{what}: a unit's strength must be an integer, got {u.strength!r}")
        if not 0 <= u.strength <= MAX_STRENGTH:
            raise UsageError(f"{what}: a unit's strength must be 0..{MAX_STRENGTH}, got {u.label}")
        if u.capital and u.reduced:
            raise UsageError(
                f"{what}: the Capital has no reduced side (its back side is 'captured', rule "
                f"[11]); got {u.label}"
            )
        if u.protected and not u.supplied:
            raise UsageError(
                f"{what}: a unit in its Capital's hex is always supplied (rule [9]: its Supply "
                f"Path ends where it stands); got {u.label}"
            )
    if sum(u.capital for u in units) > 1:
        raise UsageError(f"{what}: each side has one Capital; 'c' marks more than one unit")
    if not attacking:
        if any(u.capital_hex for u in units) and not any(u.capital for u in units):
            raise UsageError(
                f"{what}: 'h' marks an attacker from its Capital's hex; the defenders share "
                "one hex, which is the Capital's when the Capital (c) is among them"
            )
        if any(u.capital for u in units):
            units = tuple(Unit(u.strength, u.reduced, u.supplied, u.capital, True) for u in units)
    return units


# ----------------------------------------------------------------------------------------
# Exact odds
# ----------------------------------------------------------------------------------------


def dice_difference_pmf() -> dict[int, Fraction]:
    """P(attacker's d6 - defender's d6 == k) for k in -5..5: ``(6 - |k|) / 36``."""
    n = DIE_SIDES
    return {k: Fraction(n - abs(k), n * n) for k in range(1 - n, n)}


def _at_least(difference: int, threshold: int) -> Fraction:
    """P(difference + d6 - d6 >= threshold)."""
    return sum(
        (p for k, p in dice_difference_pmf().items() if difference + k >= threshold), Fraction(0)
    )


def result_fractions(difference: int) -> tuple[Fraction, ...]:
    """Exact P(AE), P(AR), P(NE), P(DR), P(DE) (by result code) when the attack strength
    exceeds the defence strength by ``difference`` (negative: falls short): the results
    table's bands (rule [8]) over the two dice."""
    if isinstance(difference, bool) or not isinstance(difference, int | np.integer):
        raise UsageError(f"difference: expected an integer, got {difference!r}")
    ge = [Fraction(1)] + [
        _at_least(int(difference), t) for t in (AR_FROM, NE_FROM, DR_FROM, DE_FROM)
    ]
    ge.append(Fraction(0))
    return tuple(ge[r] - ge[r + 1] for r in range(N_RESULTS))


def result_table(differences: Sequence[int]) -> np.ndarray:
    """``ndarray(float64, shape=(len(differences), 5))``: P(result) per difference (the chart's
    data), from :func:`result_fractions`."""
    return np.array([[float(p) for p in result_fractions(d)] for d in differences], dtype=float)


def unit_fate(unit: Unit, result: int, *, attacking: bool, step_losses: bool = False) -> int:
    """What ``result`` (a code of :mod:`~manoeuvre_sim.hexgame.crt`) does to ``unit``."""
    if attacking:
        if result in (AE, AR) and unit.protected:
            return UNAFFECTED  # rule [11] The Capital: AE and AR are no effect in its hex
        if result == AR:
            return RETREATS  # rule [8]: all attackers retreat one hex
        if result == AE:
            return _loss(unit, step_losses)  # rule [8]: all attackers eliminated
        return UNAFFECTED
    if result == DR:
        # rule [11] The Capital: DR is no effect for the Capital and all units in its hex
        return UNAFFECTED if unit.protected else RETREATS
    if result == DE:
        if unit.capital:
            return CAPTURED  # rule [11] Capturing the enemy Capital: DE captures it
        if unit.protected:
            # H14: the other units of a captured Capital's hex are eliminated, step losses
            # or not (its owner's units do not stay in a captured Capital's hex)
            return ELIMINATED
        return _loss(unit, step_losses)  # rule [8]: all defenders eliminated
    return UNAFFECTED


def _loss(unit: Unit, step_losses: bool) -> int:
    # rule [13].3 Step losses: a full-strength unit flips; an underlined one is eliminated
    return REDUCED if step_losses and not unit.reduced else ELIMINATED


@dataclass(frozen=True)
class CombatOdds:
    """The exact odds of one attack (rule [8]), with what each result does to each unit."""

    attackers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    step_losses: bool
    exact: tuple[Fraction, ...]  # P(result), by result code AE..DE

    @property
    def attack_strength(self) -> int:
        return sum(u.effective for u in self.attackers)

    @property
    def defence_strength(self) -> int:
        return sum(u.effective for u in self.defenders)

    @property
    def difference(self) -> int:
        return self.attack_strength - self.defence_strength

    @property
    def capital_defending(self) -> bool:
        return any(u.capital for u in self.defenders)

    @property
    def capital_attacking(self) -> bool:
        """Some attacker is the Capital or stands in its hex (rule [11])."""
        return any(u.protected for u in self.attackers)

    @property
    def probs(self) -> np.ndarray:
        """``ndarray(float64, shape=(5,))``: P(result) by result code."""
        return np.array([float(p) for p in self.exact])

    @property
    def rolls_of_36(self) -> tuple[int, ...]:
        """How many of the 36 rolls of the two dice give each result."""
        return tuple(int(p * DIE_SIDES**2) for p in self.exact)

    @property
    def cumulative(self) -> dict[str, Fraction]:
        """P(the result is at least AR, NE, DR, DE), in the attacker's favour."""
        return {
            name: sum(self.exact[r:], Fraction(0)) for r, name in enumerate(CUMULATIVE_NAMES, 1)
        }

    def effects(self, result: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The fate of every attacker and every defender when the table gives ``result``."""
        kw = {"step_losses": self.step_losses}
        return (
            tuple(unit_fate(u, result, attacking=True, **kw) for u in self.attackers),
            tuple(unit_fate(u, result, attacking=False, **kw) for u in self.defenders),
        )

    def fates(self, attacking: bool) -> list[tuple[Fraction, ...]]:
        """Per unit of one side, P(each fate of :data:`FATE_NAMES`)."""
        side = 0 if attacking else 1
        units = self.attackers if attacking else self.defenders
        out = [[Fraction(0)] * len(FATE_NAMES) for _ in units]
        for r in range(N_RESULTS):
            for i, f in enumerate(self.effects(r)[side]):
                out[i][f] += self.exact[r]
        return [tuple(row) for row in out]

    def to_dict(self) -> dict:
        def side(units, attacking):
            rows = []
            for u, fates in zip(units, self.fates(attacking), strict=True):
                d = u.to_dict()
                d["fates"] = {n: float(p) for n, p in zip(FATE_NAMES, fates, strict=True)}
                rows.append(d)
            return rows

        return {
            **{n: float(p) for n, p in zip(RESULT_NAMES, self.exact, strict=True)},
            "exact": {n: str(p) for n, p in zip(RESULT_NAMES, self.exact, strict=True)},
            "rolls_of_36": dict(zip(RESULT_NAMES, self.rolls_of_36, strict=True)),
            "cumulative": {k: float(v) for k, v in self.cumulative.items()},
            "attack_strength": self.attack_strength,
            "defence_strength": self.defence_strength,
            "difference": self.difference,
            "step_losses": self.step_losses,
            "capital_attacking": self.capital_attacking,
            "capital_defending": self.capital_defending,
            "effects": {
                n: {
                    "attackers": [FATE_NAMES[f] for f in self.effects(r)[0]],
                    "defenders": [FATE_NAMES[f] for f in self.effects(r)[1]],
                }
                for r, n in enumerate(RESULT_NAMES)
            },
            "attackers": side(self.attackers, True),
            "defenders": side(self.defenders, False),
        }


def _as_units(units, what: str, attacking: bool) -> tuple[Unit, ...]:
    if isinstance(units, str):
        return parse_units(units, what, attacking=attacking)
    units = list(units)
    units = [u if isinstance(u, Unit) else Unit(u) for u in units]
    return check_side(units, what, attacking=attacking)


def combat_odds(
    attackers: str | Iterable[Unit | int],
    defenders: str | Iterable[Unit | int],
    *,
    step_losses: bool = False,
) -> CombatOdds:
    """The exact odds of an attack.

    Parameters
    ----------
    attackers, defenders : str or iterable of Unit or int
        The units of each side: :func:`parse_units` notation (``'4,3r'``), or units, or
        plain strengths (full-strength, supplied units away from the Capital).
    step_losses : bool
        Play the advanced step-loss rule [13].3.

    Returns
    -------
    CombatOdds
    """
    att = _as_units(attackers, "attackers", True)
    dfn = _as_units(defenders, "defenders", False)
    diff = sum(u.effective for u in att) - sum(u.effective for u in dfn)
    return CombatOdds(att, dfn, bool(step_losses), result_fractions(diff))


# ----------------------------------------------------------------------------------------
# Monte Carlo with the engine's roll
# ----------------------------------------------------------------------------------------


@kernel
def count_results(attack_strength, defence_strength, n, rng, counts):
    """Roll ``n`` combats with :func:`~manoeuvre_sim.hexgame.crt.roll_combat` and add one to
    ``counts[result]`` (``ndarray(int64, shape=(5,))``) for each."""
    for _ in range(n):
        counts[roll_combat(attack_strength, defence_strength, rng)] += 1


def simulate(odds: CombatOdds, n: int, seed: int = 1, chunk: int = CHUNK):
    """Monte Carlo estimate of :attr:`CombatOdds.exact`: ``n`` combats of the same strengths,
    rolled by the engine's kernel, ``chunk`` per RNG stream ``(seed, chunk index)``: the
    counts depend on ``seed`` (and ``chunk``) alone.

    Returns
    -------
    manoeuvre_sim.core.stats.Estimate
        Counts of AE..DE with their Wilson intervals.
    """
    from manoeuvre_sim.core.stats import Estimate

    for name, v, lo, hi in (("--simulate", n, 1, MAX_SIMULATE), ("--seed", seed, 0, (1 << 64) - 1),
                            ("chunk", chunk, 1, 1 << 30)):  # fmt: skip
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or not lo <= v <= hi:
            raise UsageError(f"{name}: expected an integer in {lo}..{hi}, got {v!r}")
    counts = np.zeros(N_RESULTS, dtype=np.int64)
    a, d = odds.attack_strength, odds.defence_strength
    for c, first in enumerate(range(0, n, chunk)):
        count_results(a, d, min(chunk, n - first), new_state(int(seed), c), counts)
    return Estimate(RESULT_NAMES, counts, int(n), int(seed))


__all__ = [
    "AE", "AR", "NE", "DR", "DE", "RESULT_NAMES", "FATE_NAMES", "CUMULATIVE_NAMES",
    "UNAFFECTED", "RETREATS", "REDUCED", "ELIMINATED", "CAPTURED", "Unit", "CombatOdds",
    "combat_odds", "count_results", "dice_difference_pmf", "parse_units", "result_fractions",
    "result_table", "simulate", "unit_fate", "unit_strength",
]  # fmt: skip
