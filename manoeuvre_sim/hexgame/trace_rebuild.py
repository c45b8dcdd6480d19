"""Maneuver's JSONL trace (``docs/traces.md``, written by ``hexgame/jsonl.py``) rebuilt from
an empty map to its final position, with nothing but the trace: the game's
``rebuild_trace`` hook (``core/games.py`` HOOKS), which ``core.trace_reader.rebuild`` calls
for a trace of ``"game": "hex"``. Imports only the generic reader (plain ``json``), so it can
be copied beside it and used as it is.
"""

from __future__ import annotations

from manoeuvre_sim.core.trace_reader import TraceError, check_dice


def _hex_distance(a: str, b: str, columns: int) -> int:
    """Hexes apart on the odd-q map (hexes named CCRR, 1-based; odd columns half a hex
    lower, counted from 0), through cube coordinates."""

    def cube(h: str) -> tuple[int, int]:
        col, row = int(h[:2]) - 1, int(h[2:]) - 1
        return col, row - (col - (col & 1)) // 2

    (q1, r1), (q2, r2) = cube(a), cube(b)
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))


def rebuild_trace(header: dict, events: list[dict]) -> dict:
    """Maneuver's final position from a trace's events alone: ``{"units": {id: {"hex": "0302"
    or None (dead pile or never placed), "reduced": bool, "dead": bool}}, "captured": [blue's
    Capital captured, red's]}``; a unit moving from where it is not, a path not hex by hex or
    dice that do not add up raise :class:`TraceError`."""
    units = {u["id"]: {"hex": None, "reduced": False, "dead": False} for u in header["units"]}
    captured = [False, False]
    columns = header["map"]["columns"]
    for ev in events:
        kind = ev["kind"]
        check_dice(ev)
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
