"""A game of Maneuver as a JSONL trace (``manoeuvre-sim hex replay --format jsonl``): a header
record, then one record per event with every field named (schema in ``docs/traces.md``;
read back by ``manoeuvre_sim/core/trace_reader.py`` with ``json`` alone).

The codes of ``state.py``'s trace become names here, and the detail rows that belong to an
event become its fields: the ``EV_DICE`` row before an ``EV_RESULT`` its dice, the
``EV_PATH`` rows before an ``EV_MOVE`` its ``path``.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from manoeuvre_sim.hexgame import GAME_KEY, GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import RESULT_NAMES
from manoeuvre_sim.hexgame.grid import Grid
from manoeuvre_sim.hexgame.players import DECISION_NAMES
from manoeuvre_sim.hexgame.replay import CAUSES
from manoeuvre_sim.hexgame.scenario import H_SIDE, MAXU, TYPE_NAMES, U_TYPE, UNIT_VALUES

SCHEMA = 1  # docs/traces.md; bump on any change a reader could notice
PHASE_NAMES = {S.PHASE_MOVEMENT: "movement", S.PHASE_COMBAT: "combat"}


def header(packed, sc, options, seed: int, game: int, policies) -> dict:
    """The first record: the game, the schema, how it was played and the static facts."""
    g = Grid(sc.columns, sc.rows)
    units = []
    for u in range(2 * MAXU):
        row = packed.units[u]
        if row[U_TYPE] < 0:
            continue
        units.append({
            "id": u, "side": u // MAXU, "name": packed.names[u], "type": TYPE_NAMES[row[U_TYPE]],
            **{name: int(row[col]) for name, col in UNIT_VALUES},
        })  # fmt: skip
    hexes = [{"hex": g.label(h), "side": int(packed.hexes[h, H_SIDE])} for h in range(g.n)]
    return {
        "record": "header",
        "schema": SCHEMA,
        "game": GAME_KEY,
        "game_title": GAME_TITLE,
        "rules_version": RULES_VERSION,
        "data_hash": sc.sha256,
        "seed": seed,
        "game_index": game,
        "players": {"a": policies[0], "b": policies[1]},
        "options": asdict(options),
        "scenario": sc.name,
        "map": {"columns": sc.columns, "rows": sc.rows, "hexes": hexes},
        "units": units,
    }


def events(trace, grid: Grid) -> list[dict]:
    """The JSONL event records of a game's trace rows (``(kind, turn, player, a, b, c)``)."""
    lab = grid.label
    out: list[dict] = []
    dice: tuple[int, int] | None = None
    path: list[int] = []
    for row in trace:
        kind, turn, p, a, b, c = (int(x) for x in row)
        if kind == S.EV_DICE:
            dice = (a, b)
            continue
        if kind == S.EV_PATH:
            path.append(b)
            continue
        f: dict
        if kind == S.EV_PLACE:
            name, f = "place", {"unit": a, "hex": lab(b), "reduced": bool(c)}
        elif kind == S.EV_MOVE:
            name, f = "move", {"unit": a, "from": lab(b), "to": lab(c)}
            f["path"] = [lab(b), *(lab(h) for h in path), lab(c)]
            path = []
        elif kind == S.EV_REPLACE:
            name, f = "replace", {"unit": a, "hex": lab(b), "reduced": bool(c)}
        elif kind == S.EV_RESULT:
            name, f = "result", {"attack": a, "defence": b}
            if dice is None:
                raise ValueError("trace: a combat result without its dice")
            f.update(attack_die=dice[0], defence_die=dice[1],
                     difference=a + dice[0] - b - dice[1], result=RESULT_NAMES[c])  # fmt: skip
            dice = None
        elif kind in (S.EV_RETREAT, S.EV_WITHDRAW, S.EV_ADVANCE):
            name = {S.EV_RETREAT: "retreat", S.EV_WITHDRAW: "withdraw"}.get(kind, "advance")
            f = {"unit": a, "from": lab(b), "to": lab(c)}
        elif kind == S.EV_ELIM:
            name, f = "eliminated", {"unit": a, "hex": lab(b) if b >= 0 else None,
                                     "cause": CAUSES.get(c, "")}  # fmt: skip
        elif kind in (S.EV_CAPTURE, S.EV_RECAPTURE):
            name = "capture" if kind == S.EV_CAPTURE else "recapture"
            f = {"side": a, "hex": lab(b)}
        elif kind == S.EV_STACK:
            name, f = "stacking_removal", {"unit": a, "hex": lab(b)}
        elif kind == S.EV_TURN:
            name, f = "turn", {}
        elif kind == S.EV_END:
            name, f = "end", {"winner": a, "victory": S.VICTORY_NAMES[b]}
        elif kind == S.EV_FLIP:
            name, f = "flip", {"unit": a, "hex": lab(b), "reduced": c != 0}
            f["cause"] = CAUSES.get(c, "step replacement")
        elif kind == S.EV_ATTACKER:
            name, f = "attacker", {"unit": a, "hex": lab(b)}
        elif kind == S.EV_DEFENDER:
            name, f = "defender_hex", {"hex": lab(a)}
        elif kind == S.EV_SUPPLY:
            name, f = "supply", {"unit": a, "supplied": bool(b), "strength": c}
        elif kind == S.EV_PHASE:
            name, f = "phase", {"phase": PHASE_NAMES[a], "at": "end" if b else "begin"}
        elif kind == S.EV_DECLINE:
            name, f = "decline", {"decision": DECISION_NAMES[a], "options_not_taken": b}
            if c >= 0:
                f["unit"] = c
        else:
            raise ValueError(f"trace event {kind} has no JSONL form in hexgame/jsonl.py")
        if dice is not None or (path and kind != S.EV_MOVE):
            raise ValueError(f"trace: detail rows before a {name} event")
        rec = {"record": "event", "seq": len(out), "kind": name, "game_turn": turn, "player": p}
        rec.update(f)
        out.append(rec)
    return out


def jsonl(trace, packed, sc, options, seed: int, game: int, policies) -> str:
    """The whole trace as JSONL text: the header line, then one line per event."""
    grid = Grid(sc.columns, sc.rows)
    recs = [header(packed, sc, options, seed, game, policies), *events(trace, grid)]
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs)
