"""The totals of a combat from what the odds are asked about: the attack total of an Assault
or Ambush and the defense total (rule 6.1 step 6), the Hill's attack bonus as the terrain
table gives it, and the checks of dice notation and integers every odds function shares.

:mod:`manoeuvre_sim.manoeuvre.odds` turns these totals into exact and simulated odds (and resolves
every name here too). Each bad input raises a one-line
:class:`~manoeuvre_sim.core.errors.UsageError` naming the value and what was expected.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.dice import Dice, parse_dice


@functools.lru_cache(maxsize=1)
def hill_bonus() -> int:
    """The attack bonus of a unit on a hill attacking a unit not on one: the Hill's
    ``attack_bonus`` in data/terrain.toml (+2 on the reference card's terrain chart), read
    as the engine reads it."""
    from manoeuvre_sim.manoeuvre.model import load_terrain

    return _terrain_table_attack_bonus(load_terrain())


def _terrain_table_attack_bonus(table) -> int:
    hill = table.terrain.get("H")
    return hill.attack_bonus if hill is not None else 0


COMMITTED_DICE = Dice(2, 6)  # rule 9.2 Committed Attack: +2d6 each
AMBUSH_DICE = Dice(1, 10)  # the printed Ambush card (HQ_CARDS.md): the attack roll is 1d10
JAPANESE_LEADER_DICE = Dice(1, 6)  # Distant Lands 9.1: a Japanese leader's 1d6 Assault value
GRAND_BATTERY_DICE = Dice(2, 10)  # rule 9.1 Grand Battery
MAX_COMMITTED = 8


# ----------------------------------------------------------------------------------------
# Input helpers
# ----------------------------------------------------------------------------------------


def as_dice(values: Iterable[object] | str | Dice, what: str = "dice") -> tuple[Dice, ...]:
    """Parse dice notation (``'2d8'``, a :class:`Dice`, or a list of either) into a tuple of
    :class:`Dice`; a bad value raises :class:`UsageError` naming ``what``."""
    if isinstance(values, str | Dice):
        values = [values]
    out = []
    for v in values:
        try:
            out.append(parse_dice(v))
        except ValueError as e:
            raise UsageError(f"{what}: {e}") from None
    return tuple(out)


def _check_int(name: str, v: object, lo: int | None = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int | np.integer):
        raise UsageError(f"{name}: expected an integer, got {v!r}")
    v = int(v)
    if lo is not None and v < lo:
        raise UsageError(f"{name}: expected an integer >= {lo}, got {v}")
    if hi is not None and v > hi:
        raise UsageError(f"{name}: expected an integer <= {hi}, got {v}")
    return v


def _dice_arrays(dice: Sequence[Dice]) -> tuple[np.ndarray, np.ndarray]:
    counts = np.array([d.count for d in dice], dtype=np.int64)
    sides = np.array([d.sides for d in dice], dtype=np.int64)
    return counts, sides


def dice_label(dice: Sequence[Dice], committed: int = 0) -> str:
    """``'2d8+1d10'``; Committed Attacks shown as ``'+CA'`` each."""
    s = "+".join(str(d) for d in dice) or "no dice"
    return s + "+CA" * committed


# ----------------------------------------------------------------------------------------
# Building the totals (rule 6.1 step 6, rule 6.2 step 3)
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Support:
    """A supporting unit (rule 6.4): its strength and the attack dice of the unit cards
    played for it."""

    strength: int
    dice: tuple[Dice, ...] = ()


@dataclass(frozen=True)
class Attack:
    """An assault or ambush attack total: ``base`` + ``dice`` + 2d6 per Committed Attack.

    ``base`` is every fixed part: attacking unit strength, hill bonus, leader combat value,
    supporting units' strengths.
    """

    base: int
    dice: tuple[Dice, ...]
    committed: int = 0

    @property
    def all_dice(self) -> tuple[Dice, ...]:
        return self.dice + (COMMITTED_DICE,) * self.committed

    @property
    def label(self) -> str:
        return f"{self.base}+{dice_label(self.dice, self.committed)}"


def build_attack(
    strength: int = 0,
    dice: Iterable[object] = (),
    *,
    hill: bool = False,
    leader_combat: int = 0,
    leader_command: int | None = None,
    supports: Sequence[Support] = (),
    committed: int = 0,
    ambush: bool = False,
    japanese_leader: bool = False,
    maharaja: bool = False,
) -> Attack:
    """The attack total of an assault or ambush (rule 6.1 step 6).

    Parameters
    ----------
    strength : int
        Attacking unit's strength (plus any fixed bonus the caller folds in); 0 in an Ambush.
    dice : iterable of dice notation
        Attack dice of every unit card played for the attacking unit.
    hill : bool
        Attacking from a hill against a unit not on a hill: +2 (terrain chart). Not in an
        Ambush (rule 9.2: the ambush comes from the defender's own square).
    leader_combat : int
        The leader's Combat value (rule 9.1). Excludes ``supports``: a leader gives
        Combat or Command, never both.
    leader_command : int, optional
        The leader's Command value when ``supports`` are given: at most ``command - 1``
        supporting units (rule 6.4). Without it, up to 3 (the largest printed Command, 4).
    supports : sequence of Support
        Supporting units brought by the leader's Command (rule 6.4).
    committed : int
        Committed Attack cards, +2d6 each (rule 9.2; one per attacking/supporting unit).
    ambush : bool
        An Ambush: no attacking unit strength, the Ambush card's 1d10 is added.
    japanese_leader : bool
        Distant Lands 9.1: a Japanese leader (not Tokugawa) played for the one unit it
        names starts or joins its attack with a 1d6 Assault value, so it adds 1d6 and may
        start an Assault without a unit card. It never brings supporting units.
    maharaja : bool
        Distant Lands 9.1: a Maharaja played with the leader gives it Command 4 (at most 3
        supporting units); not with ``leader_command``, which it replaces.

    Returns
    -------
    Attack
    """
    strength = _check_int("strength", strength, 0, 200)
    leader_combat = _check_int("leader combat", leader_combat, 0, 50)
    committed = _check_int("committed attacks", committed, 0, MAX_COMMITTED)
    dice_t = as_dice(dice)
    supports = tuple(supports)
    _check_leader(leader_combat, leader_command, supports, japanese_leader, maharaja)
    units = 1 + len(supports)
    if committed > units:
        raise UsageError(
            f"{committed} Committed Attacks but only {units} attacking/supporting unit(s): "
            "at most one per unit (rule 6.1 step 5)"
        )
    dice_t = _attack_dice(dice_t, strength, hill, ambush, japanese_leader)
    base = strength + (hill_bonus() if hill else 0) + leader_combat
    for s in supports:
        base += _check_int("supporting unit strength", s.strength, 0, 200)
        dice_t = dice_t + as_dice(s.dice, "supporting unit dice")
    return Attack(base=base, dice=dice_t, committed=committed)


def _check_leader(leader_combat, leader_command, supports, japanese_leader, maharaja) -> None:
    """What the attack's leader gives: its Combat value or supporting units within its
    Command (a Maharaja's 4), never both (rules 6.4, 9.1, Distant Lands 9.1)."""
    if leader_combat and supports:
        raise UsageError(
            "a leader adds his Combat value or brings supporting units with his Command "
            "value, never both (rule 9.1)"
        )
    if maharaja and leader_command is not None:
        raise UsageError(
            "a Maharaja gives the leader Command 4 (Distant Lands 9.1): give --maharaja or "
            "--leader-command, not both"
        )
    if japanese_leader and supports and leader_command is None and not maharaja:
        raise UsageError(
            "a Japanese leader other than Tokugawa cannot combine units (Distant Lands 9.1): "
            "supporting units need another leader's --leader-command or a --maharaja"
        )
    if maharaja:
        leader_command = 4
    if supports:
        limit = 3 if leader_command is None else _check_int("leader command", leader_command, 1) - 1
        if len(supports) > limit:
            raise UsageError(
                f"{len(supports)} supporting units but the leader's Command allows {limit} "
                "(rule 6.4: Command - 1 supporting units)"
            )


def _attack_dice(dice_t: tuple[Dice, ...], strength: int, hill: bool, ambush: bool,
                 japanese_leader: bool) -> tuple[Dice, ...]:  # fmt: skip
    """The attacking unit's dice: an Ambush's 1d10 first (it has no attacking unit), a
    Japanese leader's 1d6 last; an Assault needs at least one die."""
    if ambush:
        if strength:
            raise UsageError("an Ambush has no attacking unit, so no strength (rule 6.1 step 6)")
        if hill:
            raise UsageError("an Ambush gets no terrain benefit for the attacker (rule 9.2)")
        if japanese_leader:
            raise UsageError(
                "a Japanese leader adds 1d6 to the attack of the unit it names (Distant Lands "
                "9.1); an Ambush has no attacking unit"
            )
        dice_t = (AMBUSH_DICE,) + dice_t
    if japanese_leader:
        dice_t = dice_t + (JAPANESE_LEADER_DICE,)
    elif not ambush and not dice_t:
        raise UsageError(
            "an Assault needs the attack dice of the unit card that starts it "
            "(rule 6.1 step 1): give at least one --dice (or --japanese-leader)"
        )
    return dice_t


def build_defense(
    strength: int,
    *,
    terrain: int = 0,
    redoubt: bool = False,
    sappers: bool = False,
    cards: Iterable[int] = (),
    leader_combat: int = 0,
    redoubt_value: int | None = None,
) -> int:
    """The defense total of an assault or ambush (rule 6.1 step 6).

    Parameters
    ----------
    strength : int
        Defending unit's strength (full or reduced side).
    terrain : int
        Terrain defense benefit of the defender's square (Hill/Woods +2, Town +3, Marsh +1).
    redoubt : bool
        A redoubt on the square: +``redoubt_value`` (rule 9.2 Redoubt: +3; None reads
        ``redoubt_defense`` from ``data/terrain.toml``, as the engine does) ...
    sappers : bool
        ... unless the attacker played Sappers/Engineers, which ignore it (rule 9.2).
    cards : iterable of int
        Defense values of the defending unit's cards played (rule 6.1 step 4).
    leader_combat : int
        The defending leader's Combat value (rule 9.1).

    Returns
    -------
    int
    """
    total = _check_int("defender strength", strength, 0, 200)
    total += _check_int("terrain defense", terrain, 0, 50)
    if sappers and not redoubt:
        raise UsageError("Sappers/Engineers only cancel a redoubt: there is none (rule 9.2)")
    if redoubt and not sappers:
        if redoubt_value is None:
            from manoeuvre_sim.manoeuvre.model import load_terrain

            redoubt_value = load_terrain().redoubt_defense
        total += redoubt_value
    for c in cards:
        total += _check_int("defense card value", c, 0, 50)
    total += _check_int("defender leader combat", leader_combat, 0, 50)
    return total
