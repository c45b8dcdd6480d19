"""Inline "what-if" edits of armies (``--set PATH=VALUE``); their field-level differences
(``describe_changes``, also importable from here) are in ``diff.py``, the fields an edit may
set and how each value converts in ``edit_values.py``.

Grammar of one edit, ``PATH=VALUE`` (split on the last ``=``, whitespace around every part
stripped, names matched case-insensitively)::

    ARMY/UNIT/FIELD=V              full, reduced (integers), type (infantry|cavalry), name
    ARMY/UNIT/cardN/FIELD=V        N-th unit card of the unit in file order (card1, card2, ...):
                                   attack, bombard, volley (dice NdS or none), defense (integer),
                                   range (1, 2 or none), pursuit_max, withdraw_max (integer or
                                   none), not_required_to_advance, artillery (true|false)
    ARMY/leaders/LEADER/FIELD=V    command, combat (sets attack and defense), combat_attack,
                                   combat_defense (integers), rally (integer or auto),
                                   pursuit_mod (integer or none), grand_battery (dice or none)
    ARMY/cards/HQTYPE=COUNT        copies of an HQ card type (0 removes the type)

``ARMY`` is an army name (``great_britain`` works for ``Great Britain``); ``UNIT`` a unit's
counter or card name; ``LEADER`` a leader's name or a unique part of it (accents optional:
``napoleon``). Edits apply in order, so of two edits of the same field the last wins.

The deck-size rule for HQ counts: when a ``cards/`` edit changes the army's number of HQ
cards, the difference is taken from (or given to) the army's most numerous HQ type that no
``cards/`` edit of the same call names (ties: the first in the file's order), so the deck
stays at its size (60 cards, 20 HQ cards for a legal army); when that type cannot give up
enough cards the edit is an error. With ``relax=True`` nothing is balanced and the deck
changes size.

Every edited army is validated again through the :class:`~manoeuvre_sim.manoeuvre.model.army.Army`
model, so every rule of the game applies to the result; each problem becomes one
:class:`~manoeuvre_sim.core.errors.UsageError` line naming the edit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from manoeuvre_sim.core.data import validate
from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.manoeuvre.model.army import HQ_TYPES, Army
from manoeuvre_sim.manoeuvre.model.diff import describe_changes, show_value
from manoeuvre_sim.manoeuvre.model.edit_values import (
    CARD_FIELDS,
    LEADER_FIELDS,
    UNIT_FIELDS,
    Converter,
    _BadValue,
    _int,
)

__all__ = ["apply_edits", "describe_changes", "edit_army"]

_GRAMMAR = (
    "expected ARMY/UNIT/FIELD, ARMY/UNIT/cardN/FIELD, ARMY/leaders/LEADER/FIELD "
    "or ARMY/cards/HQTYPE before '='"
)
_EXAMPLE = '"France/Garde Imperial/full=8"'
_CARD_RE = re.compile(r"^card\s*#?\s*(\d+)$", re.IGNORECASE)


# --------------------------------------------------------------------------- names


def _fold(text: str) -> str:
    """Case- and accent-insensitive form of a name (``Napoléon`` -> ``napoleon``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def _army_key(text: str) -> str:
    return _fold(text).replace("_", " ").replace("-", " ")


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


# --------------------------------------------------------------------------- the edits


class _EditError(Exception):
    pass


@dataclass
class _State:
    """One army being edited: its validation input (a plain dict) and what touched it."""

    key: str
    original: Army
    data: dict[str, Any]
    named_hq: set[str]  # HQ types named by a cards/ edit of this call (never balanced)
    touched: list[tuple[str, tuple]]  # (edit text, target) in order


def army_data(army: Army) -> dict[str, Any]:
    """The army as validation input: ``model_dump()`` with each leader's combat written once
    (``combat`` when the file gave it, else ``combat_attack`` and ``combat_defense``)."""
    data = army.model_dump()
    data["units"] = [dict(u, cards=list(u["cards"])) for u in data["units"]]
    data["leaders"] = list(data["leaders"])
    data["hq"] = list(data["hq"])
    for ld in data["leaders"]:
        if ld.get("combat") is not None:
            del ld["combat_attack"], ld["combat_defense"]
        else:
            ld.pop("combat", None)
    return data


def _find_army(states: dict[str, _State], armies: Mapping[str, Army], name: str) -> _State:
    key = _army_key(name)
    for k, army in armies.items():
        if key in (_army_key(k), _army_key(army.name)):
            return states[k]
    known = ", ".join(a.name for a in armies.values())
    raise _EditError(f"unknown army {name!r}; expected one of: {known}")


def _hq_type(name: str) -> str | None:
    key = _fold(name)
    return next((t for t in HQ_TYPES if _fold(t) == key), None)


def _find_unit(state: _State, name: str) -> int:
    units = state.data["units"]
    for fold in (str.casefold, _fold):
        key = fold(name)
        for i, u in enumerate(units):
            if key in (fold(u["name"]), fold(u.get("card_name") or u["name"])):
                return i
    listed = ", ".join(
        u["name"] + (f" ({u['card_name']})" if u.get("card_name") else "") for u in units
    )
    raise _EditError(f"unknown unit {name!r} in {state.data['name']}; expected one of: {listed}")


def _find_leader(state: _State, name: str) -> int:
    leaders = state.data["leaders"]
    names = [ld["name"] for ld in leaders]
    for fold in (str.casefold, _fold):
        exact = [i for i, n in enumerate(names) if fold(n) == fold(name)]
        if len(exact) == 1:
            return exact[0]
    part = [i for i, n in enumerate(names) if _fold(name) in _fold(n)]
    if len(part) == 1:
        return part[0]
    if part:
        matches = ", ".join(names[i] for i in part)
        raise _EditError(f"ambiguous leader {name!r}: matches {matches}; give more of the name")
    listed = ", ".join(names) or "(none)"
    raise _EditError(f"unknown leader {name!r} in {state.data['name']}; expected one of: {listed}")


def _field(name: str, fields: Mapping[str, Converter], what: str) -> str:
    key = name.casefold()
    if key not in fields:
        raise _EditError(f"unknown {what} field {name!r}; expected one of: {', '.join(fields)}")
    return key


def _convert(conv: Converter, value: str, label: str) -> Any:
    try:
        return conv(value)
    except _BadValue as e:
        raise _EditError(f"expected {e} for {label}, got {value!r}") from None


def _split(edit: str) -> tuple[list[str], str]:
    if "=" not in edit:
        raise _EditError(f"expected PATH=VALUE, e.g. {_EXAMPLE}")
    path, value = edit.rsplit("=", 1)
    parts = [p.strip() for p in path.split("/")]
    if len(parts) < 3 or any(not p for p in parts):
        raise _EditError(_GRAMMAR)
    return parts, value.strip()


def _hq_size(data: dict[str, Any]) -> tuple[int, int]:
    """(deck size, HQ cards with the leaders) of an army's validation input."""
    hq = len(data["leaders"]) + sum(h["count"] for h in data["hq"])
    return sum(len(u["cards"]) for u in data["units"]) + hq, hq


def _set_hq(state: _State, hq_type: str, value: str, relax: bool) -> list[str]:
    try:
        count = _int(value)
    except _BadValue:
        count = -1
    if count < 0:
        raise _EditError(f"expected a count (an integer >= 0) for {hq_type}, got {value!r}")
    army = state.data["name"]
    entries = state.data["hq"]
    entry = next((h for h in entries if h["type"] == hq_type), None)
    old = entry["count"] if entry else 0
    line = f"{army} / cards / {hq_type}: {old} -> {count}"
    if count == old:
        return [line + " (unchanged)"]
    deck_before, hq_before = _hq_size(state.data)
    balance = None
    if not relax:
        others = [h for h in entries if h["type"] not in state.named_hq]
        delta = count - old
        if not others:
            raise _EditError(
                f"no other HQ type to balance the deck against (every type of {army} is "
                "named by a cards/ edit); relax the deck rules to change the deck size"
            )
        balance = max(others, key=lambda h: h["count"])  # max keeps the first of a tie
        if balance["count"] < delta:
            raise _EditError(
                f"cannot keep the deck at {deck_before} cards: the most numerous other HQ "
                f"type, {balance['type']}, has {balance['count']} to give up {delta}; "
                "lower another type too, or relax the deck rules"
            )
    if entry is None:
        entries.append({"type": hq_type, "title": None, "count": count})
    elif count == 0:
        entries.remove(entry)
    else:
        entry["count"] = count
    if balance is None:
        deck, hq = _hq_size(state.data)
        return [
            f"{line} (deck rules relaxed, not balanced: the deck now holds {deck} cards "
            f"instead of {deck_before}, {hq} HQ cards instead of {hq_before})"
        ]
    b_old = balance["count"]
    b_new = b_old - (count - old)
    if b_new == 0:
        entries.remove(balance)
    else:
        balance["count"] = b_new
    return [
        line,
        f"{army} / cards / {balance['type']}: {b_old} -> {b_new} (balances the {hq_type} "
        f"change: the deck stays at {deck_before} cards, {hq_before} HQ cards)",
    ]


def _apply_one(state: _State, parts: list[str], value: str, relax: bool) -> tuple[list[str], tuple]:
    """Apply one edit to ``state.data``; return its change lines and its target."""
    army = state.data["name"]
    section = parts[1].casefold()
    if section == "cards":
        hq_type = _hq_type("/".join(parts[2:]))
        if hq_type is None:
            raise _EditError(
                f"unknown HQ card type {'/'.join(parts[2:])!r}; expected one of: "
                + ", ".join(HQ_TYPES)
            )
        return _set_hq(state, hq_type, value, relax), ("hq",)
    if section == "leaders":
        if len(parts) != 4:
            raise _EditError("expected ARMY/leaders/LEADER/FIELD before '='")
        li = _find_leader(state, parts[2])
        field = _field(parts[3], LEADER_FIELDS, "leader")
        new = _convert(LEADER_FIELDS[field], value, field)
        ld = state.data["leaders"][li]
        label = f"{army} / leaders / {ld['name']} / {field}"
        return _set_leader(state, li, field, new, label), ("leaders", li)
    if len(parts) > 4:
        raise _EditError(_GRAMMAR)
    ui = _find_unit(state, parts[1])
    unit = state.data["units"][ui]
    if len(parts) == 3:
        field = _field(parts[2], UNIT_FIELDS, "unit")
        new = _convert(UNIT_FIELDS[field], value, field)
        target: tuple = ("units", ui)
        holder, label = unit, f"{army} / {unit['name']} / {field}"
    else:
        m = _CARD_RE.match(parts[2])
        n_cards = len(unit["cards"])
        if not m:
            raise _EditError(f"expected card1..card{n_cards} after the unit name, got {parts[2]!r}")
        n = int(m.group(1))
        if not 1 <= n <= n_cards:
            raise _EditError(
                f"card {n} out of range: {unit['name']} has cards card1..card{n_cards}"
            )
        field = _field(parts[3], CARD_FIELDS, "unit card")
        new = _convert(CARD_FIELDS[field], value, field)
        target = ("units", ui, n - 1)
        holder = unit["cards"][n - 1]
        label = f"{army} / {unit['name']} / card{n} / {field}"
    old = holder.get(field)
    if old == new:
        return [f"{label}: {show_value(old)} -> {show_value(new)} (unchanged)"], target
    holder[field] = new
    return [f"{label}: {show_value(old)} -> {show_value(new)}"], target


def _set_leader(state: _State, li: int, field: str, new: Any, label: str) -> list[str]:
    ld = state.data["leaders"][li]
    if field.startswith("combat"):
        att = ld.get("combat_attack", ld.get("combat"))
        dfn = ld.get("combat_defense", ld.get("combat"))
        old = att if att == dfn else f"{att}/{dfn}"
        if field == "combat":
            att = dfn = new
        elif field == "combat_attack":
            old, att = att, new
        else:
            old, dfn = dfn, new
        changed = (att, dfn) != (
            ld.get("combat_attack", ld.get("combat")),
            ld.get("combat_defense", ld.get("combat")),
        )
        if changed:
            for k in ("combat", "combat_attack", "combat_defense"):
                ld.pop(k, None)
            # ``combat`` writes one value for both sides, and so does a file that gave one.
            if field == "combat" or (att == dfn and state.original.leaders[li].combat is not None):
                ld["combat"] = att
            else:
                ld["combat_attack"], ld["combat_defense"] = att, dfn
    else:
        old = ld.get(field)
        changed = old != new
        if changed:
            ld[field] = new
    tail = "" if changed else " (unchanged)"
    return [f"{label}: {show_value(old)} -> {show_value(new)}{tail}"]


def _quote(edits: Sequence[str]) -> str:
    return " ".join(f'--set "{_one_line(e)}"' for e in edits)


_LOC_RE = re.compile(r'^(units|leaders|hq) #(\d+)(?: ".*?")?(?: > cards #(\d+))?')


def _culprits(state: _State, field_path: str) -> list[str]:
    """The edits of this army that touched where a validation problem was found: those at or
    inside the problem's place, else those around it, else all the army's edits."""
    m = _LOC_RE.match(field_path)
    if m is None:  # the army as a whole: deck counts, repeated unit names
        hits = [e for e, t in state.touched if t == ("hq",) or (t[0] == "units" and len(t) == 2)]
    else:
        kind, i, card = m.group(1), int(m.group(2)) - 1, m.group(3)
        loc = ("hq",) if kind == "hq" else (kind, i) + ((int(card) - 1,) if card else ())
        hits = [e for e, t in state.touched if t[: len(loc)] == loc]
        hits = hits or [e for e, t in state.touched if loc[: len(t)] == t]
    hits = hits or [e for e, _ in state.touched]
    return list(dict.fromkeys(hits))


def apply_edits(
    armies: Mapping[str, Army], edits: Sequence[str], *, relax: bool = False
) -> tuple[dict[str, Army], list[str]]:
    """Apply ``--set PATH=VALUE`` edits to armies (grammar in the module docstring).

    Parameters
    ----------
    armies : the armies, keyed by army name (``Army.name``).
    edits : the edits as given on the command line, applied in order (the last edit of a
        field wins).
    relax : lift the deck-composition counts: HQ count edits are not balanced and the deck
        changes size. Without it, a ``cards/HQTYPE=COUNT`` edit that changes the number of HQ
        cards takes the difference from (or gives it to) the army's most numerous HQ type not
        named by any ``cards/`` edit of this call (ties: the first in the file's order), so
        the deck keeps its 60 cards and 20 HQ cards; if that type cannot give up enough cards
        the edit is an error.

    Returns
    -------
    (armies, changes) : a new dict with the same keys, where each edited army is a new,
        validated ``Army`` and the others are the same objects; and one line per change,
        e.g. ``'France / Garde Imperial / full: 8 -> 9'``, with a second line for the HQ type
        that balanced a count change.

    Raises
    ------
    UsageError : one line naming the bad edit and what was expected.
    """
    if isinstance(edits, str):
        edits = [edits]
    states = {k: _State(k, a, army_data(a), set(), []) for k, a in armies.items()}
    # The types named by cards/ edits are never used to balance another count.
    for edit in edits:
        try:
            parts, _ = _split(edit)
            state = _find_army(states, armies, parts[0])
        except _EditError:
            continue
        if parts[1].casefold() == "cards" and (t := _hq_type("/".join(parts[2:]))):
            state.named_hq.add(t)

    changes: list[str] = []
    edited: list[_State] = []
    for edit in edits:
        try:
            parts, value = _split(edit)
            state = _find_army(states, armies, parts[0])
            lines, target = _apply_one(state, parts, value, relax)
        except _EditError as e:
            raise UsageError(f"{_quote([edit])}: {_one_line(str(e))}") from None
        state.touched.append((edit, target))
        if state not in edited:
            edited.append(state)
        changes.extend(lines)

    out = dict(armies)
    for state in edited:
        out[state.key] = _revalidate(state, relax)
    return out, changes


def edit_army(edit: str, armies: Mapping[str, Army]) -> str | None:
    """The key of the army of ``armies`` (keyed by name) an edit addresses, as
    :func:`apply_edits` finds it (its first path part, case-, accent- and ``_``/``-``
    insensitive), or None (a malformed edit or an unknown army: :func:`apply_edits` says
    which in one line)."""
    try:
        parts, _ = _split(edit)
    except _EditError:
        return None
    key = _army_key(parts[0])
    for k, army in armies.items():
        if key in (_army_key(k), _army_key(army.name)):
            return k
    return None


def _revalidate(state: _State, relax: bool) -> Army:
    try:
        return validate(Army, state.data, f"--set {state.data['name']}", {"relax": relax})
    except DataError as e:
        groups: dict[tuple[str, ...], list[str]] = {}
        for field, msg in e.problems:
            who = tuple(_culprits(state, field))
            groups.setdefault(who, []).append(f"{field}: {msg}" if field else msg)
        line = "; ".join(f"{_quote(who)}: {'; '.join(msgs)}" for who, msgs in groups.items())
        raise UsageError(_one_line(line)) from None
