"""The odds pages' forms: for each kind of ``manoeuvre-sim odds`` (and ``hex odds``), its
fields, named as the command line's options, and how a request's parameters become the
arguments of the library function the command calls.

A field is ``Field(name, type, label)``: ``int`` (empty means the option's default),
``ints``/``strs`` (repeatable, as ``--dice 2d8 --dice 1d6``), ``str``, ``flag`` (a
checkbox), ``choice`` (a select). The caps the page adds to the command line's own checks
bound the work one request may start: :data:`MAX_SIMULATE` resolutions, :data:`MAX_REPEAT`
values of a repeatable option.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import Params, flag

MAX_SIMULATE = 1_000_000  # Monte Carlo resolutions per request (the CLI allows 10**11)
MAX_REPEAT = 8  # values of one repeatable option (--dice, --support, --card, --mix, ...)
MAX_SEED = (1 << 63) - 1
VIEWS = ("exactly", "at_least", "at_most")


@dataclass(frozen=True)
class Field:
    """One input of a form: ``name`` is the option's (``defender_strength`` is
    ``--defender-strength``), ``arg`` the library function's argument (default ``name``)."""

    name: str
    type: str
    label: str
    default: object = None
    arg: str | None = None
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    help: str = ""
    group: str = ""
    tip: str = ""  # what the field means, in the rules' words (under it and its tooltip)

    @property
    def option(self) -> str:
        return flag(self.name)


SIM = (
    Field("simulate", "int", "Monte Carlo resolutions", 0, lo=0, hi=MAX_SIMULATE, group="check",
          help=f"0: exact odds only; at most {MAX_SIMULATE:,}"),
    Field("seed", "int", "Seed", 1, lo=0, hi=MAX_SEED, group="check"),
)  # fmt: skip

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

HEX_FORMS: dict[str, tuple[Field, ...]] = {
    "combat": (
        Field("attack", "str", "Attacking units", "4,3", group="attacker",
              help="strengths, comma-separated, each then any of r reduced, u unsupplied, "
              "h in its Capital's hex, c the Capital"),
        Field("defend", "str", "Defending units (one hex)", "4", group="defender",
              help="a c among them makes it the Capital's hex"),
        Field("step_losses", "flag", "Step losses (advanced rule [13].3)", group="defender"),
        *SIM,
    ),
    "chart": (
        Field("paper", "choice", "Paper", "a4", choices=("a4", "letter"), group="grid"),
        Field("differences", "str", "Differences LO..HI", "-8..8", group="grid",
              help="at most 21 columns"),
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
    """The library arguments of a form's fields from the request's parameters, checked as
    the command line checks its options; a parameter the form does not have is refused.

    ``choice`` fields are checked against their choices; army, unit, leader and terrain
    names are left to the library, whose errors name the option."""
    params.only([f.name for f in fields] + list(extra))
    out = {}
    for f in fields:
        arg = f.arg or f.name
        if f.type == "int":
            out[arg] = params.integer(f.name, f.default, lo=f.lo, hi=f.hi)
        elif f.type in ("ints", "strs"):
            values = params.integers(f.name) if f.type == "ints" else params.strings(f.name)
            if len(values) > MAX_REPEAT:
                raise UsageError(
                    f"{f.option}: at most {MAX_REPEAT} values on this page, got {len(values)}"
                )
            out[arg] = values
        elif f.type == "flag":
            out[arg] = params.boolean(f.name)
        elif f.type == "choice":
            out[arg] = params.choice(f.name, f.choices, f.default)
        elif f.type == "army":  # a built-in army's name, never a path to a file
            out[arg] = params.choice(f.name, army_names(), f.default)
        else:
            out[arg] = params.string(f.name, f.default)
    return out


def values(params: Params, fields: tuple[Field, ...]) -> dict[str, object]:
    """What each input shows: the value as sent (a string, a list for repeatable ones, a
    bool for flags), or the field's default when the request does not give it."""
    out: dict[str, object] = {}
    for f in fields:
        if f.type in ("ints", "strs"):
            out[f.name] = list(params.strings(f.name))
        elif f.type == "flag":
            out[f.name] = (params.raw(f.name) or "").lower() in ("1", "true", "on", "yes")
        else:
            raw = params.raw(f.name)
            out[f.name] = raw if raw is not None else ("" if f.default is None else f.default)
    return out
