"""Read a JSONL game trace, with nothing but ``json``, and rebuild the game from it.

The traces that ``manoeuvre-sim replay --format jsonl`` (Manoeuvre) and ``manoeuvre-sim hex
replay --format jsonl`` (Maneuver) write are documented in ``docs/traces.md``: one JSON
object per line, a header first (``"record": "header"``, ``"schema"``: the schema version),
then one event per line (``"record": "event"``, ``"kind"``, named fields). Reading imports
nothing of the project, so :func:`read_trace` can be copied beside a checker, a board viewer
or a notebook and used as it is::

    from manoeuvre_sim.core.trace_reader import read_trace, rebuild

    header, events = read_trace(open("game.jsonl"))
    final = rebuild(header, events)

:func:`rebuild` replays the events from an empty board and returns the final position,
through the ``rebuild_trace`` hook of the game the header names (``core/games.py`` HOOKS;
each game's in its own package, with what its position holds: Manoeuvre's
``manoeuvre/trace_rebuild.py``, Maneuver's ``hexgame/trace_rebuild.py``, each needing only
this module). A rebuild checks what it can on the way (a unit moving from where it is, a
path that steps to a neighbouring square or hex, dice that add up to the total:
:func:`check_dice`) and raises :class:`TraceError` on a contradiction.
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
    """The final position of the game the trace records, from its events alone: the
    ``rebuild_trace`` hook of the game its header names (``core.games``; the one import of
    the project here, made on the call)."""
    from manoeuvre_sim.core.games import GAMES, get_game, hook

    key = header.get("game")
    if key not in GAMES:
        raise TraceError(f"unknown game {key!r}: expected one of {', '.join(GAMES)}")
    own = hook(get_game(key), "rebuild_trace")
    if own is None:
        raise TraceError(f"game {key!r}: its traces are not rebuilt (no rebuild_trace hook)")
    return own(header, events)


def check_dice(ev: dict) -> None:
    """Refuse an event whose dice do not add up to its natural total (every game's
    rebuild checks this on the way)."""
    if "dice" in ev and sum(ev["dice"]) != ev["natural"]:
        raise TraceError(f"event {ev['seq']}: dice {ev['dice']} do not add up to {ev['natural']}")
