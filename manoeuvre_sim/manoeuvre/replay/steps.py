"""Replays, step by step: one replayed game as a list of :class:`Step` s, one per event of
its JSONL trace (``replay --format jsonl``), each with the event's record, its lines in
English (the transcript's, :mod:`.text`), the board after it and the combat it belongs to.
This is what the workbench's replay page steps through; and :func:`study_config`, the
configuration of a game of a ``balance`` study directory (its manifest and row).

The board after each event is rebuilt by the same trace reader as the transcript
(:mod:`.reader`), row by row, so the board after the last step is the replay's final
board, which :func:`~manoeuvre_sim.manoeuvre.replay.verify` checked against the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import game_of
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.replay.jsonl import events, trace_rows
from manoeuvre_sim.manoeuvre.replay.model import Board, Replay, Section, square_name
from manoeuvre_sim.manoeuvre.replay.reader import _Reader
from manoeuvre_sim.manoeuvre.replay.text import COMBAT_TEXT, section_lines

# bookkeeping records a step does not stop on: nothing happens on the board or in the log
SILENT = ("phase", "decline")
# events that close a combat (its highlight and caption end before them)
_COMBAT_ENDS = {"turn", "move", "draw", "discard", "setup", "restore", "redoubt", "no_move",
                "dig_in", "end", "spy", "reshuffle"}  # fmt: skip


@dataclass
class Combat:
    """The combat an event belongs to: who attacks from where (squares 0..63), the dice
    rolled so far and the result once known; ``caption`` in words."""

    name: str
    attacker_sq: int = -1
    defender_sq: int = -1
    rolls: list[str] = field(default_factory=list)
    result: str = ""

    def caption(self) -> list[str]:
        head = COMBAT_TEXT.get(self.name, self.name)
        if self.attacker_sq >= 0 and self.defender_sq >= 0:
            head += f": {square_name(self.attacker_sq)} attacks {square_name(self.defender_sq)}"
        return [head, *self.rolls, *([self.result] if self.result else [])]


# rule 2.1 Attrition Victory: eliminating 5 (or more) enemy units wins at once
# (engine/turns.py checks the same count)
ATTRITION_UNITS = 5


@dataclass
class Standing:
    """Where the game stands after an event, as the trace tells it: the game turn, the
    phase under way (rule 4; "" between phases and in the set-up), whose turn it is, and
    per army (A, B) the rows of :data:`STANDING_ROWS`."""

    game_turn: int
    phase: str
    active: int  # the player whose turn it is (-1: the set-up, the end)
    rows: list[tuple[int, int]]  # per STANDING_ROWS entry: (army A's value, army B's)


STANDING_ROWS = (
    f"units lost ({ATTRITION_UNITS} lose the game, rule 2.1)",
    "units reduced on the board",
    "enemy squares controlled (rule 2.2, the score at nightfall)",
    "cards in hand",
    "cards left in the deck",
)


def standing(reader: _Reader) -> Standing:
    """The :class:`Standing` after the events ``reader`` has read."""
    bd = reader.board
    reduced = [sum(bd.step[u] == 1 for u in bd.units(p)) for p in range(2)]
    control = [bd.control(p) for p in range(2)]  # rule 2.2, with the engine's kernel
    rows = [tuple(bd.eliminated), tuple(reduced), tuple(control), tuple(reader.hand),
            tuple(reader.deck_left)]  # fmt: skip
    return Standing(reader.game_turn, reader.phase, reader.cur.player, rows)


@dataclass
class Step:
    """One event: its JSONL ``record``, its ``words`` (the transcript's lines; a turn's
    title for a new turn), the ``board`` after it, its ``combat`` (None outside one) and
    the ``standing`` of the game after it."""

    record: dict
    words: list[str]
    board: Board
    combat: Combat | None = None
    standing: Standing | None = None


def steps(rep: Replay) -> list[Step]:
    """Every event of ``rep`` but the bookkeeping ones (:data:`SILENT`), in order."""
    rows = trace_rows(rep)
    records = events(rows)
    reader = _Reader(rep.info)
    out: list[Step] = []
    i = 0
    combat: Combat | None = None
    pending: list[tuple] = []
    for row in rows:
        pending.append(row)
        if row[0] in (R.EV_DIE, R.EV_VIA):  # detail rows: part of the next event's record
            continue
        before = (id(reader.cur), len(reader.cur.lines))
        for r in pending:
            reader.event(tuple(r))
        pending = []
        start = before[1] if id(reader.cur) == before[0] else 0
        lines = reader.cur.lines[start:]
        rec = records[i]
        i += 1
        if rec["kind"] == "end":
            reader.finish()
            lines = reader.end.lines
        words = section_lines(rep, Section("", 0, -1, lines=list(lines)))
        combat = _combat(combat, rec, lines, words)
        if rec["kind"] in SILENT:
            continue
        if rec["kind"] == "turn":
            words = [reader.cur.title]
        out.append(Step(rec, words, reader.board.copy(), combat, standing(reader)))
    return out


def _combat(cur: Combat | None, rec: dict, lines, words: list[str]) -> Combat | None:
    """The combat after event ``rec`` (whose lines are ``lines``, in English ``words``): a
    new one at a card played to initiate it, the same one with its dice and result (the
    transcript's words), None after it."""
    kind = rec["kind"]
    if kind in _COMBAT_ENDS:
        return None
    if kind == "play" and rec.get("purpose") == "initiate":
        values = lines[0].values if lines else {}
        return Combat(rec.get("combat", ""), values.get("unit_sq", -1),
                      values.get("target_sq", -1))  # fmt: skip
    if cur is None:
        return None
    new = Combat(cur.name, cur.attacker_sq, cur.defender_sq, list(cur.rolls), cur.result)
    if kind == "roll":
        new.rolls += words
    elif kind == "combat":
        new.result = " ".join(words)
    return new


def final_positions(board: Board) -> dict[int, tuple[int, int]]:
    """``{unit id: (square, step)}`` of the units on ``board`` (the pages' and tests' view
    of where the game ended)."""
    return {u: (sq, board.step[u]) for u, sq in enumerate(board.square) if sq >= 0}


# ------------------------------------------------------------------------------------------
# a game of a study directory (the directory read by core.store, every game's reader)
# ------------------------------------------------------------------------------------------
# the studies whose 'base' games are ordinary games of the built-in (or named) armies
BASE_GAMES_OF = ("whatif", "cards")


def why_labels(m: dict) -> tuple[str, str]:
    """The labels of a why study's games with every part on (``studies/why.py``
    ``coalition_pairing``: ``s<seating>-<mask>``), the two seatings of the pairing itself."""
    n = len((m.get("why") or {}).get("parts") or [])
    full = (1 << n) - 1
    return tuple(f"s{s}-{full:0{(n + 3) // 4}x}" for s in (0, 1))


def _variant_sources(study: Path, m: dict, row: dict) -> dict[str, str]:
    """The changed armies of a what-if's variant game, from the army data the study keeps
    (``variant/*.army.json``, named in its manifest); a UsageError where it keeps none (a
    card study's ablations, a what-if written before the study kept them)."""
    kept = {e["name"]: e.get("file") for e in (m.get("variant") or {}).get("armies", [])}
    if m.get("study") != "whatif" or not kept or not all(kept.values()):
        raise UsageError(f"--label: {study.name} is a {m.get('study')!r} study; its "
                         f"{row.get('label')!r} games play changed army data the study does "
                         "not keep, so only its 'base' games can be replayed")  # fmt: skip
    return _kept_sources(study, [{"name": n, "file": f} for n, f in kept.items()],
                         "the variant's army")  # fmt: skip


def _kept_sources(study: Path, entries: list[dict], what: str) -> dict[str, str]:
    """The army files a study keeps (``{"name", "file"}`` entries of its manifest), each
    confined to the study; a UsageError naming ``--study`` where one is missing."""
    out = {}
    for e in entries:
        rel = str(e.get("file") or "")
        path = (Path(study) / rel).resolve()
        if not rel or Path(study).resolve() not in path.parents or not path.is_file():
            raise UsageError(f"--study: {study.name}: {what} data {rel!r} is missing or "
                             "outside the study")  # fmt: skip
        out[str(e["name"])] = str(path)
    return out


def study_config(study: Path, pairing: int, game: int, label: str | None = None):
    """``(SimConfig, record)``: how game ``game`` of pairing ``pairing`` of the Manoeuvre
    ``balance`` study in directory ``study`` was played (the row's armies, players and
    pairing seed; the manifest's rule options; ``docs/balance.md``, Seeds), and its row.
    A what-if's or card study's ``base`` games too (the base armies, the same seeds), and a
    what-if's variant games (its changed armies from the data the study keeps). Refuses
    another game's or another kind of study, and a card study's ablations."""
    from manoeuvre_sim.core.store import read_study, study_row
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.runner import SimConfig

    m = read_study(study)
    if game_of(m) != "manoeuvre":  # study.LEGACY_GAME
        raise UsageError(f"--study: {study.name} holds games of {m.get('game')!r}, not Manoeuvre")
    kind = m.get("study")
    if kind not in ("balance", "fix", "why", *BASE_GAMES_OF):
        raise UsageError(f"--study: {study.name} is a {kind!r} study; the replay page plays "
                         "the games of a balance, what-if, card-value, fix or why "
                         "study")  # fmt: skip
    replay = m.get("replay") or {}  # a fix's: its confirmation's labels and store
    confirmation = kind == "fix" and label in (replay.get("base"), replay.get("fixed"))
    store = replay.get("store", "games.parquet") if confirmation else "games.parquet"
    row = study_row(study, pairing, game, label, store)
    if kind == "why" and str(row.get("label")) not in why_labels(m):
        raise UsageError(f"--label: {study.name} is a why study; its {row.get('label')!r} "
                         "games play armies with parts switched to the neutral reference: "
                         "the games with every part on (the pairing itself) replay")  # fmt: skip
    sides = m.get("armies") or m.get("sides") or []
    sources = {s["name"]: s.get("source") or s["name"] for s in sides}
    relax = False
    if kind in BASE_GAMES_OF and str(row.get("label")) != "base":
        sources |= _variant_sources(study, m, row)
        relax = True  # the variant was checked when it was played (--relax or not)
    elif kind == "fix" and not confirmation and str(row.get("label")) != "base":
        raise UsageError(f"--label: {study.name} is a fix; its candidates' games "
                         f"({row.get('label')!r}) play edited data the study does not keep: "
                         f"the base's and the confirmation's games replay")  # fmt: skip
    elif kind == "fix" and label == replay.get("fixed"):
        sources |= _kept_sources(study, m.get("fixed_sides") or [], "the fixed army")
        relax = True  # the fixed armies were checked when they were played
    names = {f.name for f in fields(RuleOptions)}
    opts = {k: v for k, v in (m.get("options") or {}).items() if k in names}
    for k in ("fixed_map", "fixed_rot"):
        if opts.get(k) is not None:
            opts[k] = tuple(opts[k])
    options = RuleOptions(**opts)
    config = SimConfig(
        sources.get(row["army_a"], row["army_a"]), sources.get(row["army_b"], row["army_b"]),
        games=1, seed=int(row["seed"]), policy_a=str(row["policy_a"]),
        policy_b=str(row["policy_b"]), relax=relax, **options.sim_fields(),
    )  # fmt: skip
    return config, row
