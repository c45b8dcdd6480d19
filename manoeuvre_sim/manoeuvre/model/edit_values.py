"""The fields an inline army edit (``edit.py``, ``--set PATH=VALUE``) may set, and how each
field's value converts from the command line's text: integers, ``none``, dice notation,
``true``/``false``, a unit type, a name, a rally value. A value that does not convert raises
:class:`_BadValue` saying what was expected; ``edit.py`` names the edit in the error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from manoeuvre_sim.manoeuvre.dice import DICE_EXPECTED, parse_dice

_INT_RE = re.compile(r"^[+-]?\d+$")


class _BadValue(Exception):
    """A value that does not convert to the field's type; the message says what was expected."""


def _integer(expected: str, word: str | None = None, value: Any = None) -> Callable[[str], Any]:
    """The converter of an integer field that also takes ``word`` (any case) for ``value``
    when a word is given; ``expected`` is what its error says was expected."""

    def convert(text: str) -> Any:
        if word is not None and text.casefold() == word:
            return value
        if not _INT_RE.match(text):
            raise _BadValue(expected)
        return int(text)

    return convert


_int = _integer("an integer")
_opt_int = _integer("an integer or none", "none")
_range = _integer("1, 2 or none", "none")
_rally = _integer("an integer or auto", "auto", "auto")


def _opt_dice(text: str) -> str | None:
    if text.casefold() == "none":
        return None
    try:
        return str(parse_dice(text))
    except ValueError:
        raise _BadValue(f"{DICE_EXPECTED}, or none") from None


def _flag(text: str) -> bool:
    word = text.casefold()
    if word not in ("true", "false"):
        raise _BadValue("true or false")
    return word == "true"


def _unit_type(text: str) -> str:
    word = text.casefold()
    if word not in ("infantry", "cavalry"):
        raise _BadValue("infantry or cavalry")
    return word


def _name(text: str) -> str:
    if not text:
        raise _BadValue("a non-empty name")
    return text


Converter = Callable[[str], Any]

UNIT_FIELDS: dict[str, Converter] = {
    "full": _int,
    "reduced": _int,
    "type": _unit_type,
    "name": _name,
}
CARD_FIELDS: dict[str, Converter] = {
    "attack": _opt_dice,
    "bombard": _opt_dice,
    "volley": _opt_dice,
    "defense": _int,
    "range": _range,
    "pursuit_max": _opt_int,
    "withdraw_max": _opt_int,
    "not_required_to_advance": _flag,
    "artillery": _flag,
}
LEADER_FIELDS: dict[str, Converter] = {
    "command": _int,
    "combat": _int,
    "combat_attack": _int,
    "combat_defense": _int,
    "rally": _rally,
    "pursuit_mod": _opt_int,
    "grand_battery": _opt_dice,
}
