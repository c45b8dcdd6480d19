"""Maneuver's hooks for the why study (``studies/why.py``; docs/why.md, "Maneuver"): a side
cut into the parts a designer recognises, and the neutral reference each is switched to.

A side is blue or red of a variant (its scenario's order of battle, its army quality and
its part of the map under the variant's border): :func:`why_sides` builds the two from the
study's options (and ``hex whatif --set``'s edits of either side). Its parts:

- ``infantry xN``, ``cavalry xN``, ``artillery xN``, ``Capital`` (kind ``unit``): the side's
  units of that type, every entry of it with its count and values (rule [5]);
- ``army quality Q`` (kind ``quality``): rule [13] 2, the side's units set up weak;
- ``territory +N hexes`` (kind ``territory``): the hexes the variant's border gives the side
  beyond the half line (rule [13] 1's large nation; a border is cut column by column into
  blue's rows beyond the half and red's, so each side owns its own gain).

The neutral reference, the same for both sides (with every part of both off, the two sides
are one army on a halved map):

- a unit type switched off is the built-in scenario's units of that type
  (:func:`reference_units`: ``data/hexgame/default.toml``, whose blue and red are the same
  army): infantry 6 x 4-2 MA 3, cavalry 2 x 2-0 MA 5, artillery 2 x 5-3/2-1 MA 2, the
  Capital 1-0/4-0; the toolkit's one authored order of battle, the same whatever the
  scenario, so that a type's contribution measures its count and its values;
- army quality switched off is ``front`` (rule [3]: every unit begins on its front side);
- territory switched off is no gain: the half line (each column halved, rule [2]'s basic
  game), so the map needs an even number of rows.

The two seatings (``studies/why.py``: X in seat a, then Y): Maneuver's seats are fixed (side
a is blue, the top of the map), so in the second seating the map is turned half round: the
side X (blue) plays seat b from the bottom with its own order of battle, quality and
territory, turned (column c to the last but c), and Y sits on top. A half turn maps the
odd-q grid onto itself when the columns are even, so each side's land is the same shape in
both seats. With every part off both seatings play the same scenario, and X's mean score
over them is 1/2 in expectation whatever the seat is worth: the first player (rule [3],
``--first``), the geometry, the players' tie-breaks all belong to the seat and cancel.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Collection, Sequence
from dataclasses import replace

from manoeuvre_sim.core.errors import DataError, UsageError

TYPES = ("infantry", "cavalry", "artillery", "capital")
COMBAT = TYPES[:3]
NEUTRAL_QUALITY = "front"
SIDES = ("blue", "red")
WHY_REFERENCE = (
    "a unit type: the built-in scenario's units of that type (infantry 6 x 4-2 MA 3, cavalry "
    "2 x 2-0 MA 5, artillery 2 x 5-3/2-1 MA 2, the Capital 1-0/4-0); army quality: front; "
    "territory: the half line"
)


@functools.lru_cache(maxsize=1)
def reference_units() -> tuple[str, ...]:
    """The built-in scenario's order of battle (blue's, the same as red's), each entry as
    canonical JSON: the neutral reference of every unit type."""
    from manoeuvre_sim.hexgame.scenario import load_scenario

    raw = json.loads(load_scenario().canonical())
    blue, red = (raw["sides"][s]["units"] for s in SIDES)
    assert blue == red, "the built-in scenario's two sides are one army"
    return tuple(json.dumps(u, sort_keys=True) for u in blue)


def _of_type(units: Sequence[dict], t: str) -> list[dict]:
    return [u for u in units if u["type"] == t]


def _raw(side) -> dict:
    if getattr(side, "scenario", None) is None or getattr(side, "border", None) is None:
        name = getattr(side, "name", side)
        raise UsageError(f"why: side {name!r} carries no scenario and border; build the sides "
                         "with hexgame.adapter.why_sides(options)")  # fmt: skip
    return json.loads(side.scenario)


def why_sides(scenario_sides: Sequence, options, edits: Sequence[str] = ()) -> tuple:
    """Blue and red of ``options``' scenario (``scenario_sides``: the adapter's, each with
    its army quality), each with the rows of the options' border, after ``edits`` (``hex
    whatif --set``'s ``SIDE/UNIT/FIELD=VALUE`` or ``SIDE/quality=Q``, each of one side);
    ``adapter.why_sides(options, edits)`` calls it."""
    from manoeuvre_sim.hexgame.fix_edits import apply_side_edits

    sides = dict(zip(SIDES, scenario_sides, strict=True))
    for edit in edits:
        who = edit.partition("/")[0].strip()
        if who not in sides:
            raise UsageError(f"--set {edit!r}: expected an edit of blue or red "
                             "(SIDE/UNIT/FIELD=VALUE or SIDE/quality=Q)")  # fmt: skip
        sides[who] = apply_side_edits(sides[who], [edit])[0]
    borders = json.loads(sides["blue"].scenario)["borders"]
    if options.border not in borders:
        raise UsageError(f"--border: {options.border!r} is not a border of the scenario "
                         f"({', '.join(borders)})")  # fmt: skip
    rows = tuple(borders[options.border]["blue_rows"])
    return tuple(replace(sides[s], border=rows) for s in SIDES)


def gains(side) -> tuple[int, ...]:
    """Per column (left to right, as the side's own map has them), the rows the side's border
    gives it beyond the half line: blue's from the top, red's from the bottom."""
    raw = _raw(side)
    half = raw["rows"] // 2
    sign = 1 if side.name == "blue" else -1
    return tuple(max(0, sign * (r - half)) for r in side.border)


@functools.lru_cache(maxsize=64)
def _parts(side) -> tuple[tuple[str, str], ...]:
    raw = _raw(side)
    if side.name not in SIDES:
        raise UsageError(f"why: side {side.name!r}: expected blue or red (Maneuver's sides)")
    if raw["columns"] % 2 or raw["rows"] % 2:
        raise UsageError(f"why: the scenario's map is {raw['columns']} x {raw['rows']} hexes; "
                         "expected an even number of columns and of rows (the second seating "
                         "turns the map half round; the reference territory is the half "
                         "line)")  # fmt: skip
    units = raw["sides"][side.name]["units"]
    order = [COMBAT.index(u["type"]) for u in units if u["type"] != "capital"]
    if order != sorted(order):
        raise UsageError(f"why: {side.name}'s units list their types in another order than "
                         "infantry, cavalry, artillery; expected each type's entries together "
                         "in that order (the reference's), so that every part on plays the "
                         "scenario's own games")  # fmt: skip
    from manoeuvre_sim.hexgame.scenario import SideSpec

    for off in itertools.product((False, True), repeat=len(TYPES)):  # each mixture legal
        mixed = _mix(units, {t for t, o in zip(TYPES, off, strict=True) if o})
        try:
            SideSpec.model_validate({"units": mixed})
        except ValueError as e:
            which = ", ".join(t for t, o in zip(TYPES, off, strict=True) if o) or "none"
            first = e.errors()[0]["msg"] if hasattr(e, "errors") else str(e)
            raise UsageError(f"why: {side.name}'s units with the reference's {which} break "
                             f"a rule: {first}") from None  # fmt: skip
    count = {t: sum(u.get("count", 1) for u in _of_type(units, t)) for t in TYPES}
    names = [(f"{t} x{count[t]}", "unit") for t in COMBAT] + [("Capital", "unit")]
    return (*names, (f"army quality {side.quality or NEUTRAL_QUALITY}", "quality"),
            (f"territory +{sum(gains(side))} hexes", "territory"))  # fmt: skip


def why_parts(side) -> list[tuple[str, str]]:
    """The parts of ``side`` (a side of :func:`why_sides`), ``(name, kind)``: its four unit
    types (infantry, cavalry, artillery, the Capital), its army quality, its territory."""
    return list(_parts(side))


def _mix(units: Sequence[dict], off_types: Collection[str]) -> list[dict]:
    """The side's units with the types ``off_types`` the reference's, in type order (the
    Capital, then infantry, cavalry, artillery): every type on is the side's own list."""
    ref = [json.loads(u) for u in reference_units()]
    own = {t: _of_type(units, t) for t in TYPES}
    return [u for t in ("capital", *COMBAT) for u in (_of_type(ref, t) if t in off_types
                                                      else own[t])]  # fmt: skip


def switch_off(side, off: Collection[str]) -> tuple[list[dict], str, tuple[int, ...]]:
    """``side`` with its parts ``off`` switched to the reference: its units, its army
    quality and its gains per column; an unknown part is a UsageError naming its parts."""
    parts = [n for n, _ in why_parts(side)]
    if unknown := sorted(set(off) - set(parts)):
        raise UsageError(f"why: {side.name} has no part {unknown[0]!r}; its parts: "
                         f"{', '.join(parts)}")  # fmt: skip
    raw = _raw(side)
    types_off = {t for t, n in zip(TYPES, parts[:4], strict=True) if n in off}
    units = _mix(raw["sides"][side.name]["units"], types_off)
    quality = NEUTRAL_QUALITY if parts[4] in off else (side.quality or NEUTRAL_QUALITY)
    gain = (0,) * len(side.border) if parts[5] in off else gains(side)
    return units, quality, gain


def why_pairing(pairing, off_a: Collection[str], off_b: Collection[str]):
    """``pairing`` (blue against red; or red against blue: the second seating) with seat a's
    parts ``off_a`` and seat b's ``off_b`` switched off: seat a is always the engine's blue
    (the top of the map) and b red, so red in seat a plays its units, quality and territory
    from the top of the map turned half round (module docstring)."""
    from manoeuvre_sim.hexgame.fix_edits import canonical

    a, b = pairing.army_a, pairing.army_b
    if {a.name, b.name} != set(SIDES):
        raise UsageError(f"why: a pairing of blue and red, got {a.name} and {b.name}")
    ua, qa, ga = switch_off(a, off_a)
    ub, qb, gb = switch_off(b, off_b)
    raw = _raw(a)
    cols, half = raw["columns"], raw["rows"] // 2
    turned = a.name == "red"
    col = (lambda c: cols - 1 - c) if turned else (lambda c: c)  # noqa: E731
    rows = tuple(half + ga[col(c)] - gb[col(c)] for c in range(cols))
    raw["sides"] = {"blue": {"units": ua}, "red": {"units": ub}}
    text = canonical(raw)
    _check_coalition(text, rows)
    return replace(pairing, army_a=replace(a, name="blue", scenario=text, quality=qa, border=rows),
                   army_b=replace(b, name="red", scenario=text, quality=qb, border=rows))  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _check_coalition(text: str, rows: tuple[int, ...]) -> None:
    """A coalition's scenario ``text`` under the border ``rows`` validated before any game
    (set-up room, rule [3]): a DataError as one UsageError line."""
    from manoeuvre_sim.core.data import validate
    from manoeuvre_sim.hexgame.scenario import Scenario

    raw = json.loads(text)
    raw["borders"]["why"] = {"note": "", "blue_rows": list(rows)}
    try:
        validate(Scenario, raw, "the why study's coalition")
    except DataError as e:
        raise UsageError(f"why: a coalition breaks a rule: {e.problems[0][0]}: "
                         f"{e.problems[0][1]}") from None  # fmt: skip


__all__ = ["NEUTRAL_QUALITY", "TYPES", "WHY_REFERENCE", "gains",
           "reference_units", "switch_off", "why_pairing", "why_parts", "why_sides"]  # fmt: skip
