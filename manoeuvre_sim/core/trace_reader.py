"""Read a JSONL game trace and rebuild the game from it, with nothing but ``json``.

The traces that ``manoeuvre-sim replay --format jsonl`` (Manoeuvre) and ``manoeuvre-sim hex
replay --format jsonl`` (Maneuver) write are documented in ``docs/traces.md``: one JSON
object per line, a header first (``"record": "header"``, ``"schema"``: the schema version),
then one event per line (``"record": "event"``, ``"kind"``, named fields). This module
imports nothing of the project, so it can be copied beside a checker, a board viewer or a
notebook and used as it is::

    from manoeuvre_sim.core.trace_reader import read_trace, rebuild

    header, events = read_trace(open("game.jsonl"))
    final = rebuild(header, events)

:func:`rebuild` replays the events from an empty board and returns the final position:

- Manoeuvre: ``{"units": {id: {"square": "e4" or None, "step": 2 full, 1 reduced, 0
  eliminated}}, "redoubts": [squares], "eliminated": [army A's count, army B's]}``;
- Maneuver: ``{"units": {id: {"hex": "0302" or None (dead pile or never placed), "reduced":
  bool, "dead": bool}}, "captured": [blue's Capital captured, red's]}``.

Both check what they can on the way (a unit moving from where it is, a path that steps
from hex to neighbouring hex, dice that add up to the total) and raise :class:`TraceError`
on a contradiction.
"""

from __future__ import annotations

import json

SCHEMA = 1  # the schema version this reader reads (docs/traces.md)


class TraceError(ValueError):
    """The trace is not of a known schema or contradicts itself."""


def read_trace(lines) -> tuple[dict, list[dict]]:
    """``(header, events)`` from the lines of a JSONL trace (a file object, or a list of
    strings). The first line must be the header, of schema version :data:`SCHEMA`."""
    records = [json.loads(line) for line in lines if line.strip()]
    if not records or records[0].get("record") != "header":
        raise TraceError("the first line of a trace must be its header record")
    header = records[0]
    if header.get("schema") != SCHEMA:
        raise TraceError(f"trace schema {header.get('schema')!r}; this reader reads {SCHEMA}")
    events = records[1:]
    for i, ev in enumerate(events):
        if ev.get("record") != "event" or ev.get("seq") != i:
            raise TraceError(f"line {i + 2}: expected event seq {i}")
    return header, events


def rebuild(header: dict, events: list[dict]) -> dict:
    """The final position of the game the trace records, from its events alone."""
    if header["game"] == "manoeuvre":
        return _rebuild_manoeuvre(header, events)
    if header["game"] == "hex":
        return _rebuild_maneuver(header, events)
    raise TraceError(f"unknown game {header['game']!r}")


def _check_dice(ev: dict) -> None:
    if "dice" in ev and sum(ev["dice"]) != ev["natural"]:
        raise TraceError(f"event {ev['seq']}: dice {ev['dice']} do not add up to {ev['natural']}")


# --- Manoeuvre ---------------------------------------------------------------------------
def _square_steps(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def _rebuild_manoeuvre(header: dict, events: list[dict]) -> dict:
    units = {u["id"]: {"square": None, "step": 0} for u in header["units"]}
    occ: dict[str, int] = {}
    redoubts: set[str] = set()
    eliminated = [0, 0]

    def leave(u: int, sq: str) -> None:
        if units[u]["square"] != sq:
            raise TraceError(f"unit {u} leaves {sq} but is at {units[u]['square']}")
        del occ[sq]
        redoubts.discard(sq)  # rule 9.2 Redoubt: removed when its unit leaves
        units[u]["square"] = None

    def enter(u: int, sq: str) -> None:
        if sq in occ:
            raise TraceError(f"unit {u} enters {sq}, held by unit {occ[sq]}")
        occ[sq] = u
        units[u]["square"] = sq

    for ev in events:
        kind = ev["kind"]
        _check_dice(ev)
        if kind == "setup":
            enter(ev["unit"], ev["square"])
            units[ev["unit"]]["step"] = 2
        elif kind in ("move", "advance") or (kind == "retreat" and ev["to"] is not None):
            path = ev.get("path", [ev["from"], ev["to"]])
            if path[0] != ev["from"] or path[-1] != ev["to"]:
                raise TraceError(f"event {ev['seq']}: path {path} is not {ev['from']}-{ev['to']}")
            if any(_square_steps(x, y) != 1 for x, y in zip(path, path[1:], strict=False)):
                raise TraceError(f"event {ev['seq']}: path {path} is not square by square")
            leave(ev["unit"], ev["from"])
            enter(ev["unit"], ev["to"])
        elif kind == "hit":
            u = ev["unit"]
            if ev["step"] == 0:
                leave(u, units[u]["square"])
                eliminated[u // header["units_per_side"]] += 1
            units[u]["step"] = ev["step"]
        elif kind == "restore" and ev["success"]:
            units[ev["unit"]]["step"] = 2
        elif kind == "redoubt":
            redoubts.add(ev["square"])
    return {"units": units, "redoubts": sorted(redoubts), "eliminated": eliminated}


# --- Maneuver ----------------------------------------------------------------------------
def _hex_distance(a: str, b: str, columns: int) -> int:
    """Hexes apart on the odd-q map (hexes named CCRR, 1-based; odd columns half a hex
    lower, counted from 0), through cube coordinates."""

    def cube(h: str) -> tuple[int, int]:
        col, row = int(h[:2]) - 1, int(h[2:]) - 1
        return col, row - (col - (col & 1)) // 2

    (q1, r1), (q2, r2) = cube(a), cube(b)
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))


def _rebuild_maneuver(header: dict, events: list[dict]) -> dict:
    units = {u["id"]: {"hex": None, "reduced": False, "dead": False} for u in header["units"]}
    captured = [False, False]
    columns = header["map"]["columns"]
    for ev in events:
        kind = ev["kind"]
        _check_dice(ev)
        if kind == "place":
            units[ev["unit"]].update({"hex": ev["hex"], "reduced": ev["reduced"]})
        elif kind in ("move", "retreat", "withdraw", "advance"):
            u = units[ev["unit"]]
            if u["hex"] != ev["from"]:
                raise TraceError(f"event {ev['seq']}: unit {ev['unit']} is at {u['hex']}")
            path = ev.get("path", [ev["from"], ev["to"]])
            if path[0] != ev["from"] or path[-1] != ev["to"]:
                raise TraceError(f"event {ev['seq']}: path {path} is not {ev['from']}-{ev['to']}")
            if any(_hex_distance(x, y, columns) != 1 for x, y in zip(path, path[1:], strict=False)):
                raise TraceError(f"event {ev['seq']}: path {path} is not hex by hex")
            u["hex"] = ev["to"]
        elif kind == "replace":
            units[ev["unit"]].update({"hex": ev["hex"], "reduced": ev["reduced"], "dead": False})
        elif kind == "eliminated":
            units[ev["unit"]].update({"hex": None, "reduced": False, "dead": True})
        elif kind == "flip":
            units[ev["unit"]]["reduced"] = ev["reduced"]
        elif kind == "capture":
            captured[ev["side"]] = True
        elif kind == "recapture":
            captured[ev["side"]] = False
    return {"units": units, "captured": captured}
