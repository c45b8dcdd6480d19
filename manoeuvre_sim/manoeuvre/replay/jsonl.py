"""A replayed game of Manoeuvre as a JSONL trace (``manoeuvre-sim replay --format jsonl``):
a header record, then one record per event with every field named (schema in
``docs/traces.md``; read back by ``manoeuvre_sim/core/trace_reader.py`` with ``json`` alone).

The event codes of ``engine/rules.py`` become names here and the detail rows that belong
to an event become its fields: the ``EV_DIE`` rows before an ``EV_ROLL`` its ``dice``, the
``EV_VIA`` row before an ``EV_MOVE`` its ``path``.
"""

from __future__ import annotations

import json

from manoeuvre_sim.core.games import GAMES
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.replay.model import POSITIONS, Replay, square_name, unit_label
from manoeuvre_sim.manoeuvre.replay.reader import COMBAT_NAMES, PURPOSE_NAMES, ROLL_NAMES
from manoeuvre_sim.manoeuvre.replay.text import card_names

SCHEMA = 1  # docs/traces.md; bump on any change a reader could notice
MOVE_HOW = {0: "basic", 1: "supply", 2: "forced_march", 3: "skirmish", 4: "banzai"}
PHASE_NAMES = {R.PHASE_DISCARD: "discard", R.PHASE_DRAW: "draw", R.PHASE_MOVEMENT: "movement",
               R.PHASE_COMBAT: "combat", R.PHASE_RESTORATION: "restoration"}  # fmt: skip
# the named fields of an EV_DECLINE row's columns c and d, by decision (engine/decisions.py)
DECLINE_FIELDS = {
    D.D_SPY: (), D.D_FORCED_MARCH: (None, "unit"), D.D_SUPPLY_MOVE: (),
    D.D_GUERRILLA: ("negated_card",), D.D_COMBAT: (), D.D_WITHDRAW: ("unit",),
    D.D_DEF_CARD: ("unit",), D.D_ATT_CARD: (), D.D_SUPPORT: ("defender",),
    D.D_ADVANCE: ("vacated_square",), D.D_SKIRMISH_MOVE: ("unit",), D.D_RESTORE: (),
    D.D_REDOUBT: (), D.D_HIT_OR_RETREAT: ("unit", "band"),
}  # fmt: skip


def _sq(sq: int) -> str | None:
    return square_name(sq) if sq >= 0 else None


def header(rep: Replay) -> dict:
    """The first record: the game, the schema, how it was played and the static facts."""
    from manoeuvre_sim.manoeuvre.runner import config_dict, prepare

    info = rep.info
    config = info.config
    terrain = rep.setup.board.terrain
    units = []
    for p, army in enumerate(info.armies):
        for u, unit in zip(info.unit_ids(p), army.units, strict=True):
            units.append({"id": u, "side": p, "label": unit_label(u), "name": unit.name,
                          "type": unit.type, "full": unit.full, "reduced": unit.reduced})  # fmt: skip
    options = config_dict(config)
    for k in ("army_a", "army_b", "seed", "games", "first_game", "policy_a", "policy_b",
              "threads", "chunk"):  # fmt: skip
        options.pop(k, None)
    return {
        "record": "header",
        "schema": SCHEMA,
        "game": "manoeuvre",
        "game_title": GAMES["manoeuvre"][1],
        "rules_version": info.rules_version,
        "data_hash": prepare(config)[2].data_hash,
        "seed": info.seed,
        "game_index": info.game,
        "players": {"a": info.policies[0], "b": info.policies[1]},
        "armies": [a.name for a in info.armies],
        "options": options,
        "units_per_side": S.MAXU_SIDE,
        "units": units,
        "cards": [card_names(a) for a in info.armies],
        "terrain_names": dict(info.terrain_names),
        # the battlefield as laid by the set-up (the map and edge events): rank 8 first
        "terrain": ["".join(terrain[r * 8 : r * 8 + 8]) for r in range(8)],
    }


def _fields(ev: int, p: int, a: int, b: int, c: int, d: int) -> tuple[str, dict]:
    """An engine trace row's kind name and named fields."""
    if ev == R.EV_TURN:
        return "turn", {"game_turn": a}
    if ev in (R.EV_DRAW, R.EV_DISCARD, R.EV_SPY):
        return {R.EV_DRAW: "draw", R.EV_DISCARD: "discard", R.EV_SPY: "spy"}[ev], {"card": a}
    if ev == R.EV_MOVE:
        return "move", {"unit": a, "from": _sq(b), "to": _sq(c), "how": MOVE_HOW[d]}
    if ev == R.EV_PLAY:
        f = {"card": a, "purpose": PURPOSE_NAMES[b], "other": c}
        if b == R.PURPOSE_INITIATE:
            f["combat"] = COMBAT_NAMES.get(d, str(d))
        return "play", f
    if ev == R.EV_ROLL:
        if a == R.ROLL_FIRST:
            return "first_roll", {"roll_a": b, "roll_b": c, "sides": d}
        return "roll", {"what": ROLL_NAMES[a], "total": b, "count": c, "sides": d}
    if ev == R.EV_COMBAT:
        f = {"combat": COMBAT_NAMES[a]}
        if a == D.CK_ROCKETS:
            f.update(d10=b, outcome=d)
        elif a == D.CK_DEATH_WITH_HONOUR:
            f.update(unit=b, hits=d)
        else:
            f.update(attack=b, defense=c, result=d)
        return "combat", f
    if ev == R.EV_HIT:
        return "hit", {"unit": a, "step": b}
    if ev in (R.EV_RETREAT, R.EV_ADVANCE):
        return ("retreat" if ev == R.EV_RETREAT else "advance"), {
            "unit": a, "from": _sq(b), "to": _sq(c)}  # fmt: skip
    if ev == R.EV_RESTORE:
        return "restore", {"unit": a, "success": bool(b)}
    if ev == R.EV_REDOUBT:
        return "redoubt", {"square": _sq(a)}
    if ev == R.EV_NEGATE:
        return "negate", {"card": a, "guerrilla_card": b}
    if ev == R.EV_RESHUFFLE:
        return "reshuffle", {"cards": a}
    if ev == R.EV_SETUP:
        return "setup", {"unit": a, "square": _sq(b)}
    if ev == R.EV_END:
        return "end", {"winner": a, "victory": S.VICTORY_NAMES[b], "vp_a": c, "vp_b": d}
    if ev == R.EV_FIRST:
        return "first", {"side": p}
    if ev == R.EV_MAP:
        return "map", {"section": a, "turns": b, "quarter": POSITIONS[c]}
    if ev == R.EV_EDGE:
        return "edge", {"edge": D.EDGE_NAMES[a], "turns": b}
    if ev in (R.EV_DIG_IN, R.EV_NO_MOVE):
        return ("dig_in" if ev == R.EV_DIG_IN else "no_move"), {}
    if ev == R.EV_PURSUIT:
        return "pursuit", {"unit": a, "roll": b, "hit": bool(c)}
    if ev == R.EV_WITHDRAW:
        return "withdraw", {"unit": a, "success": bool(b)}
    if ev == R.EV_COMMITTED:
        return "declare_committed", {"unit": a, "card": b}
    if ev == R.EV_SUPPORT:
        return "support", {"unit": a, "defender": b, "leader_card": c}
    if ev == R.EV_PHASE:
        return "phase", {"phase": PHASE_NAMES[a], "at": "end" if b else "begin"}
    if ev == R.EV_DECLINE:
        f = {"decision": D.DECISION_NAMES[a], "options_not_taken": b}
        for name, v in zip(DECLINE_FIELDS[a], (c, d), strict=False):
            if name is not None:
                f[name] = _sq(v) if name.endswith("square") else v
        return "decline", f
    raise ValueError(
        f"trace event {ev} has no JSONL form in manoeuvre_sim/manoeuvre/replay/jsonl.py"
    )


def events(rows) -> list[dict]:
    """The JSONL event records of a game's trace rows (``(event, player, a, b, c, d)``)."""
    out: list[dict] = []
    dice: list[int] = []
    via: list[int] = []
    turn = 0
    for row in rows:
        ev, p, a, b, c, d = (int(x) for x in row)
        if ev == R.EV_DIE:
            dice.append(a)
            continue
        if ev == R.EV_VIA:
            via.append(b)
            continue
        if ev == R.EV_TURN:
            turn = a
        kind, f = _fields(ev, p, a, b, c, d)
        rec = {"record": "event", "seq": len(out), "kind": kind, "game_turn": turn, "player": p}
        rec.update(f)
        if ev == R.EV_ROLL and a != R.ROLL_FIRST:
            rec["dice"], dice = dice, []
            rec["natural"] = sum(rec["dice"])  # the pursuit total adds the leader's modifier
        elif ev == R.EV_MOVE:
            rec["path"] = [rec["from"], *(_sq(v) for v in via), rec["to"]]
            via = []
        if dice and ev != R.EV_ROLL:
            raise ValueError(f"trace: dice rows before a {kind} event")
        out.append(rec)
    return out


def trace_rows(rep: Replay) -> list[tuple[int, ...]]:
    """Every trace row of the replayed game, in order."""
    return [r for sec in (rep.setup, *rep.turns, rep.end) for r in sec.events]


def jsonl(rep: Replay) -> str:
    """The whole trace as JSONL text: the header line, then one line per event."""
    recs = [header(rep), *events(trace_rows(rep))]
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs)
