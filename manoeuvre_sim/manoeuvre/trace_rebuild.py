"""Manoeuvre's JSONL trace (``docs/traces.md``, written by ``replay/jsonl.py``) rebuilt from
an empty board to its final position, with nothing but the trace: the game's
``rebuild_trace`` hook (``core/games.py`` HOOKS), which ``core.trace_reader.rebuild`` calls
for a trace of ``"game": "manoeuvre"``. Imports only the generic reader (plain ``json``), so
it can be copied beside it and used as it is.
"""

from __future__ import annotations

from manoeuvre_sim.core.trace_reader import TraceError, check_dice


def _square_steps(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def rebuild_trace(header: dict, events: list[dict]) -> dict:
    """Manoeuvre's final position from a trace's events alone: ``{"units": {id: {"square":
    "e4" or None, "step": 2 full, 1 reduced, 0 eliminated}}, "redoubts": [squares],
    "eliminated": [army A's count, army B's]}``; a unit leaving a square it is not on, entering
    one held, a path not square by square or dice that do not add up raise
    :class:`TraceError`."""
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
        check_dice(ev)
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
