"""Manoeuvre's odds forms: the fields of each kind of ``manoeuvre-sim odds`` (the shared
:class:`~manoeuvre_sim.web.odds.forms.Field`), the built-in armies and terrains they name,
and :func:`read`, the shared reader with the armies a field may name."""

from __future__ import annotations

import functools

from manoeuvre_sim.web.odds.forms import SIM, Field, Params
from manoeuvre_sim.web.odds.forms import read as read_fields

DEFENSE = (
    Field("defense", "int", "Defense total", help="the whole total; or build it below",
          group="defender"),
    Field("defender_strength", "int", "Defender strength", group="defender"),
    Field("terrain", "terrain", "Terrain", group="defender"),
    Field("redoubt", "flag", "Redoubt (+3)", group="defender"),
)  # fmt: skip

FORMS: dict[str, tuple[Field, ...]] = {
    "assault": (
        Field("strength", "int", "Attacker base", 0, group="attacker",
              help="the attacking unit's strength",
              tip="Attacker base: the fixed part of the Attack Total, the attacking unit's "
              "strength (rule 6.1 step 6; none in an Ambush). The dice, the leader's "
              "Combat, the hill and the supports below are added to it."),
        Field("dice", "strs", "Attack dice", group="attacker", help="per card played, e.g. 2d8"),
        Field("support", "strs", "Support S[:DICE]", group="attacker",
              help="rule 6.4, e.g. 6:2d6"),
        Field("leader_combat", "int", "Leader Combat", 0, group="attacker"),
        Field("leader_command", "int", "Leader Command", group="attacker",
              help="limits supports to Command - 1"),
        Field("committed", "int", "Committed Attack cards (CA)", 0, group="attacker",
              help="+2d6 each",
              tip="CA: a Committed Attack HQ card, played in step 5 to add 2d6 to the Attack "
              "value; one attacking or supporting unit takes a hit after the attack for "
              "each one played (rule 6.1 step 5, HQ card Committed Attack)."),
        Field("hill", "flag", "On a hill, defender not (+2)", group="attacker"),
        Field("ambush", "flag", "Ambush (no strength, +1d10)", group="attacker"),
        Field("japanese_leader", "flag", "Japanese leader (+1d6)", group="attacker"),
        Field("maharaja", "flag", "Maharaja (Command 4)", group="attacker"),
        *DEFENSE,
        Field("sappers", "flag", "Sappers cancel the redoubt", group="defender"),
        Field("defense_card", "ints", "Defense cards", arg="defense_cards", group="defender",
              help="defense value of each card played"),
        Field("defender_leader_combat", "int", "Defender leader Combat", 0, group="defender"),
        *SIM,
    ),
    "bombard": (
        Field("dice", "strs", "Bombard dice", group="attacker", help="e.g. 2d6"),
        Field("grand_battery", "flag", "Grand Battery (2d10, rule 9.1)", group="attacker"),
        Field("hill", "flag", "On a hill, target not (+2)", group="attacker"),
        *DEFENSE,
        *SIM,
    ),
    "volley": (
        Field("dice", "strs", "Volley dice", group="attacker", help="e.g. 2d8"),
        Field("hill", "flag", "On a hill, target not (+2)", group="attacker"),
        *DEFENSE,
        *SIM,
    ),
    "pursuit": (
        Field("card", "ints", "Pursuit value of each card", arg="cards", group="attacker",
              help="e.g. 4"),
        Field("leader_mod", "int", "Leader's pursuit modifier", 0, group="attacker"),
        *SIM,
    ),
    "rally": (Field("rally", "str", "Rally value", "3", group="attacker",
                    help="1..6 or auto"), *SIM),  # fmt: skip
    "withdraw": (Field("withdraw_max", "int", "Withdraw 1..N", 3, group="attacker"), *SIM),
    "rockets": SIM,
    "matchup": (
        Field("attacker_army", "army", "Attacker's army", "France", group="attacker"),
        Field("attacker", "unit", "Attacking unit", arg="attacker_unit", group="attacker"),
        Field("attacker_reduced", "flag", "Reduced", group="attacker"),
        Field("attacker_terrain", "terrain", "Terrain", group="attacker"),
        Field("attacker_leader", "leader", "Leader", group="attacker"),
        Field("attack_cards", "int", "Attack cards played together", 1, group="attacker"),
        Field("committed", "int", "Committed Attack cards", 0, group="attacker"),
        Field("defender_army", "army", "Defender's army", "Austria", group="defender"),
        Field("defender", "unit", "Defending unit", arg="defender_unit", group="defender"),
        Field("defender_reduced", "flag", "Reduced", group="defender"),
        Field("defender_terrain", "terrain", "Terrain", group="defender"),
        Field("redoubt", "flag", "Redoubt", group="defender"),
        Field("sappers", "flag", "Sappers", group="defender"),
        Field("defender_leader", "leader", "Leader", group="defender"),
        Field("defender_cards", "int", "Cards the defender plays", 1, group="defender"),
    ),
    "table": (
        Field("mix", "strs", "Dice mixes", arg="mixes", group="grid",
              help="e.g. 2d8 or 2d8+1d6; none: the printed dice"),
        Field("strengths", "str", "Attacker bases", "0..12", group="grid"),
        Field("defenses", "str", "Defense totals", "1..20", group="grid"),
        Field("committed", "int", "Committed Attacks", 0, group="grid"),
    ),
    "chart": (
        Field("paper", "choice", "Paper", "a4", choices=("a4", "letter"), group="grid"),
        Field("mix", "strs", "Dice mixes", arg="mixes", group="grid",
              help="none: 1d6 1d8 1d10 2d6 2d8 2d10"),
        Field("strengths", "str", "Attacker bases", "0..12", group="grid",
              help="at most 16"),
        Field("defenses", "str", "Defense totals", "3..16", group="grid", help="at most 20"),
        Field("fire", "choice", "Bombardment / volley page", "on", choices=("on", "off"),
              group="grid"),
    ),
}  # fmt: skip


@functools.cache
def armies() -> tuple:
    """The 8 built-in armies (rule 2.2 order), the only ones the pages name."""
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies

    return tuple(load_builtin_armies())


def army_names() -> tuple[str, ...]:
    return tuple(a.name for a in armies())


@functools.cache
def terrain_names() -> tuple[str, ...]:
    """The terrains a unit may stand in (``data/terrain.toml``), lower case as the CLI's."""
    from manoeuvre_sim.manoeuvre.model import load_terrain

    return tuple(t.name.lower() for t in load_terrain().terrain.values() if t.enterable)


def read(params: Params, fields: tuple[Field, ...], extra: tuple[str, ...] = ()) -> dict:
    """A form's library arguments (:func:`~manoeuvre_sim.web.odds.forms.read`), an army
    field one of the built-in armies."""
    return read_fields(params, fields, extra, names={"army": army_names()})
