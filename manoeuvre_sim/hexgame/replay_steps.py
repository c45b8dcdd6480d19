"""One game of Maneuver step by step, for the workbench's replay page: the game's set-up
from the ``hex`` commands' options (:func:`load_game`, which ``hex replay`` uses too), its
events as :class:`HexStep` s (one per record of its JSONL trace, ``hex replay --format
jsonl``: the record, its line in English, the position after it, the combat it belongs
to), and the options of a game of a Maneuver study directory (:func:`study_options`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.grid import Grid
from manoeuvre_sim.hexgame.jsonl import events
from manoeuvre_sim.hexgame.replay import Position, event_line
from manoeuvre_sim.hexgame.scenario import H_SIDE, MAXU, U_TYPE

# bookkeeping records a step does not stop on (nothing happens on the map or in the log)
SILENT = ("phase", "decline", "supply")
# the keywords of load_game, with hex replay's defaults (the options of cli/hexgame/_options)
GAME_DEFAULTS = {
    "scenario": None, "border": "basic", "turns": 10, "first": "random",
    "quality_blue": "front", "quality_red": "front", "step_losses": False,
    "step_replacements": False, "captured_capital_zoc": False, "retreat_apart": False,
    "policy_a": "capital", "policy_b": "capital", "params_a": None, "params_b": None,
}  # fmt: skip


def load_game(kw: dict):
    """``(scenario, source, packed, options, pol, params, policies)`` from the options of
    the ``hex`` commands that play games (``kw``: their keywords, popped)."""
    from manoeuvre_sim.hexgame import parse_policy
    from manoeuvre_sim.hexgame.players import NPARAM, policy_arrays
    from manoeuvre_sim.hexgame.records import HexOptions
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario, pack

    source = kw.pop("scenario") or default_path()
    sc = load_scenario(source)
    options = HexOptions(
        border=kw.pop("border"),
        turns=kw.pop("turns"),
        first=kw.pop("first"),
        quality_blue=kw.pop("quality_blue"),
        quality_red=kw.pop("quality_red"),
        step_losses=kw.pop("step_losses"),
        step_replacements=kw.pop("step_replacements"),
        captured_capital_zoc=kw.pop("captured_capital_zoc"),
        retreat_apart=kw.pop("retreat_apart"),
    )
    if options.border not in sc.borders:
        raise UsageError(
            f"--border: expected one of {', '.join(sc.borders)} (scenario {source}), "
            f"got {options.border!r}"
        )
    policies = (kw.pop("policy_a"), kw.pop("policy_b"))
    for flag, p in zip(("--policy-a", "--policy-b"), policies, strict=True):
        try:
            parse_policy(p)
        except ValueError as e:
            raise UsageError(f"{flag}: {e}") from None
    vectors = []
    for flag, text in (("--params-a", kw.pop("params_a")), ("--params-b", kw.pop("params_b"))):
        if text is None:
            vectors.append(None)
            continue
        try:
            v = tuple(float(x) for x in text.split(","))
        except ValueError:
            v = ()
        if len(v) != NPARAM:
            raise UsageError(f"{flag}: expected {NPARAM} numbers separated by commas, got {text!r}")
        vectors.append(v)
    pol, params = policy_arrays(*policies, *vectors)
    return sc, source, pack(sc, options.border), options, pol, params, policies


@dataclass
class HexCombat:
    """A combat: the attackers' hexes, the defending hex, and its result in words."""

    attackers: list[int] = field(default_factory=list)
    defender: int = -1
    result: str = ""

    def caption(self, lab) -> list[str]:
        head = "Attack"
        if self.attackers:
            head += " from " + ", ".join(lab(h) for h in self.attackers)
        if self.defender >= 0:
            head += f" on {lab(self.defender)}"
        return [head, *([self.result] if self.result else [])]


@dataclass
class HexStanding:
    """Where the game stands after an event, as the trace tells it: the game turn, the
    phase under way (rule [4]; "" between phases and in the set-up), the phasing side
    (-1: none), and per side (blue, red) the rows of :data:`STANDING_ROWS`."""

    game_turn: int
    phase: str
    active: int
    rows: list[tuple]


# rule [12]: a side wins with the enemy Capital captured and at least two more combat units
# on the map than the enemy, at the end of an enemy player turn
STANDING_ROWS = (
    "combat units on the map (rule [12]: two more than the enemy, with its Capital taken, win)",
    "units eliminated",
    "units on their reduced side",
    "its Capital (rule [11])",
)
_PHASES = {S.PHASE_MOVEMENT: "movement", S.PHASE_COMBAT: "combat"}


def standing(pos: Position, turn: int, phase: str, active: int, dead: set) -> HexStanding:
    """The :class:`HexStanding` of position ``pos`` (``dead``: the units eliminated)."""
    units = pos.units
    on_map = [sum(1 for u in pos.pos if u // MAXU == p and units[u][U_TYPE] != 3)
              for p in range(2)]  # fmt: skip
    lost = [sum(1 for u in dead if u // MAXU == p) for p in range(2)]
    reduced = [sum(1 for u in pos.pos if u // MAXU == p and units[u][U_TYPE] != 3
                   and pos.step.get(u, 0) == 1) for p in range(2)]  # fmt: skip
    capital = ["captured" if pos.captured[p] else "held" for p in range(2)]
    rows = [tuple(on_map), tuple(lost), tuple(reduced), tuple(capital)]
    return HexStanding(turn, phase, active, rows)


@dataclass
class HexStep:
    """One event: its JSONL ``record``, its ``words``, the ``position`` after it, the
    ``combat`` it belongs to (None outside one) and the ``standing`` after it."""

    record: dict
    words: list[str]
    position: Position
    combat: HexCombat | None = None
    standing: HexStanding | None = None


def steps(trace, packed, sc) -> list[HexStep]:
    """The events of a game's trace (``batch.play_one``) as steps, the bookkeeping ones
    (:data:`SILENT`) left out."""
    grid = Grid(sc.columns, sc.rows)
    records = events(trace, grid)
    pos = Position(grid, packed.units, [int(x) for x in packed.hexes[:, H_SIDE]])
    out: list[HexStep] = []
    i, dice, combat = 0, None, None
    game_turn, phase, active, dead = 0, "", -1, set()
    for ev in trace:
        kind, turn, player, a, b, _ = (int(x) for x in ev)
        pos.apply(ev)
        if kind == S.EV_TURN:
            game_turn = turn
        elif kind == S.EV_PHASE:
            phase, active = ("", player) if b else (_PHASES.get(a, str(a)), player)
        elif kind == S.EV_ELIM:
            dead.add(a)
        elif kind == S.EV_REPLACE:
            dead.discard(a)
        if kind == S.EV_DICE:
            dice = (a, b)
            continue
        if kind == S.EV_PATH:
            continue
        rec = records[i]
        i += 1
        line = event_line(ev, packed.names, grid.label, dice)
        combat = _combat(combat, kind, a, b, line)
        if kind == S.EV_RESULT:
            dice = None
        if rec["kind"] in SILENT:
            continue
        words = [line.strip()] if line else [_plain(rec, turn)]
        out.append(
            HexStep(
                rec, words, pos.snapshot(), combat, standing(pos, game_turn, phase, active, dead)
            )
        )
    return out


def _plain(rec: dict, turn: int) -> str:
    if rec["kind"] == "turn":
        return f"Game turn {turn}"
    if rec["kind"] == "end":
        who = {0: "blue wins", 1: "red wins", 2: "a draw"}.get(rec["winner"], "no winner")
        return f"End of the game: {who} ({rec['victory']})"
    return rec["kind"].replace("_", " ")


def _combat(cur: HexCombat | None, kind: int, a: int, b: int, line) -> HexCombat | None:
    if kind == S.EV_ATTACKER:
        if cur is None or cur.result:
            cur = HexCombat()
        return HexCombat([*cur.attackers, *([b] if b not in cur.attackers else [])], cur.defender)
    if kind == S.EV_DEFENDER and cur is not None:
        return HexCombat(list(cur.attackers), a)
    if kind == S.EV_RESULT and cur is not None:
        return HexCombat(list(cur.attackers), cur.defender, (line or "").strip())
    if kind in (S.EV_TURN, S.EV_MOVE, S.EV_END, S.EV_PLACE, S.EV_REPLACE):
        return None
    return cur


def final_positions(position: Position) -> dict[int, tuple[int, int]]:
    """``{unit: (hex, step)}`` of the units on the map (step 0 front, 1 reduced)."""
    return {u: (h, position.step.get(u, 0)) for u, h in position.pos.items()}


def study_options(manifest: dict, row: dict) -> dict:
    """The :func:`load_game` keywords of a game of a Maneuver study (its manifest's rule
    options, those of the row's variant when the study has several, and the row's
    players)."""
    opts = dict(manifest.get("options") or {})
    if "border" not in opts and str(row.get("label")) in opts:  # hex balance: by variant
        opts = dict(opts[str(row["label"])])
    kw = dict(GAME_DEFAULTS)
    for k in GAME_DEFAULTS:
        if k in opts:
            kw[k] = opts[k]
    kw["policy_a"], kw["policy_b"] = str(row["policy_a"]), str(row["policy_b"])
    return kw
