"""One game of Maneuver as text: its event log and the board at the start of every turn.

The board is drawn as the tests draw positions (``tests/hexgame/hex_boards.py``): the odd-q map
with two text lines per row, the second holding the odd columns, half a hex lower; a cell
is empty (``.`` on blue's side of the border, ``:`` on red's) or its units: upper case
blue, lower case red, ``K`` Capital (``X``/``x`` when captured), ``I`` infantry, ``C``
cavalry, ``A`` artillery, ``*`` after a reduced unit. Column numbers head the map and row
numbers begin its lines, so a hex reads as its name ``CCRR``; :func:`legend` says all this
at the top of the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import RESULT_NAMES
from manoeuvre_sim.hexgame.grid import Grid
from manoeuvre_sim.hexgame.scenario import H_SIDE, MAXU, SIDES, TYPE_NAMES, U_TYPE, UNIT_VALUES

LETTER = "ICAK"  # by unit type: infantry, cavalry, artillery, Capital
CAUSES = {
    1: "DE",
    2: "AE",
    3: "no hex to retreat to",
    4: "retreated into an enemy ZOC",
    5: "over the stacking limit",
}
CELL = 4


class Position:
    """Positions rebuilt from the event trace."""

    def __init__(self, grid: Grid, units, sides=None):
        self.grid = grid
        self.units = units
        self.sides = sides  # each hex's side of the border (scenario H_SIDE), for draw
        self.pos: dict[int, int] = {}
        self.step: dict[int, int] = {}
        self.captured = [False, False]

    def apply(self, ev):
        kind, _, _, a, b, c = (int(x) for x in ev)
        if kind == S.EV_PLACE:
            self.pos[a] = b
            self.step[a] = c  # rule [13] 2: 1 set up on its reduced side
        elif kind in (S.EV_MOVE, S.EV_RETREAT, S.EV_WITHDRAW, S.EV_ADVANCE):
            self.pos[a] = c
        elif kind == S.EV_REPLACE:
            self.pos[a] = b
            self.step[a] = c
        elif kind == S.EV_ELIM:
            self.pos.pop(a, None)
            self.step[a] = 0
        elif kind == S.EV_FLIP:
            self.step[a] = 0 if c == 0 else 1
        elif kind == S.EV_CAPTURE:
            self.captured[a] = True
        elif kind == S.EV_RECAPTURE:
            self.captured[a] = False

    def snapshot(self) -> Position:
        p = Position(self.grid, self.units, self.sides)
        p.pos, p.step, p.captured = dict(self.pos), dict(self.step), list(self.captured)
        return p

    def cells(self) -> dict[int, str]:
        """hex -> its units' letters, as :meth:`draw` writes them."""
        cells: dict[int, str] = {}
        for u in sorted(self.pos):
            t = self.units[u, U_TYPE]
            ch = "X" if t == 3 and self.captured[u // MAXU] else LETTER[t]
            ch = ch if u < MAXU else ch.lower()
            if self.step.get(u, 0) == 1 and t != 3:
                ch += "*"
            cells[self.pos[u]] = cells.get(self.pos[u], "") + ch
        return cells

    def draw(self) -> str:
        """The map as text: the column numbers over it, each row's number before its two
        lines, an empty hex ``.`` (blue's side) or ``:`` (red's side)."""
        g = self.grid
        cells = self.cells()
        lines = []
        for parity in (0, 1):  # the column numbers, over their cells
            row = " " * (CELL * parity + 4)
            for c in range(parity, g.columns, 2):
                row += f"{c + 1:02d}".ljust(2 * CELL)
            lines.append(row.rstrip())
        for r in range(g.rows):
            for parity in (0, 1):
                row = f"{r + 1:02d}  " + " " * (CELL * parity)
                for c in range(parity, g.columns, 2):
                    h = g.hex_id(c, r)
                    empty = ":" if self.sides is not None and self.sides[h] == 1 else "."
                    row += cells.get(h, empty).ljust(2 * CELL)
                lines.append(row.rstrip())
        return "\n".join(lines)


def _name(names, u):
    return f"{SIDES[u // MAXU]} {names[u]}"


@dataclass
class Section:
    """One part of the game: ``title``, the board at its start (``board``: a Position
    snapshot, None for the set-up) and its events as English lines."""

    title: str
    board: Position | None
    lines: list[str] = field(default_factory=list)


def legend(packed) -> list[str]:
    """The key to the text map: coordinates, letters, cases, and each side's units."""
    out = [
        "Key: a hex is named CCRR, column CC (numbered over the map, left to right) and row RR",
        "(numbered down its left side); each row takes two lines, the second holding the even",
        "columns, half a hex lower. A hex shows its units: upper case blue, lower case red;",
        "K Capital (X when captured), I infantry, C cavalry, A artillery; * after a unit: on its",
        "reduced side. An empty hex is . on blue's side of the border, : on red's.",
    ]
    for s, side in enumerate(SIDES):
        kinds: dict[tuple, list[str]] = {}
        for u in range(s * MAXU, s * MAXU + MAXU):
            row = packed.units[u]
            if row[U_TYPE] >= 0:
                # type, then attack and defence front and reduced, movement
                key = (int(row[U_TYPE]), *(int(row[c]) for _, c in UNIT_VALUES))
                kinds.setdefault(key, []).append(packed.names[u])
        text = []
        for (t, a0, d0, a1, d1, ma), names in kinds.items():
            letter = LETTER[t] if s == 0 else LETTER[t].lower()
            if t == 3:  # the Capital has one side
                text.append(f"{letter} {TYPE_NAMES[t]} attack {a0}, defence {d0}, MA {ma}")
            else:
                text.append(f"{letter} {TYPE_NAMES[t]} x{len(names)} attack {a0}/{a1}, "
                            f"defence {d0}/{d1}, MA {ma}")  # fmt: skip
        out.append(f"{side} (front/reduced side): " + "; ".join(text))
    return out


def _line(kind, player, a, b, c, names, lab):
    who = SIDES[player]
    if kind == S.EV_PLACE:
        return f"set-up: {_name(names, a)} in {lab(b)}"
    if kind == S.EV_MOVE:
        return f"{who} moves {names[a]} {lab(b)} -> {lab(c)}"
    if kind == S.EV_REPLACE:
        return f"{who} replacement: {_name(names, a)} at {lab(b)}" + (" (reduced)" if c else "")
    if kind == S.EV_ATTACKER:
        return f"  attacker {_name(names, a)} in {lab(b)}"
    if kind == S.EV_DEFENDER:
        return f"  defending hex {lab(a)}"
    if kind == S.EV_RESULT:
        return f"  {who} attacks: {a} + d6 against {b} + d6: {RESULT_NAMES[c]}"
    if kind == S.EV_DICE:  # the result line that follows shows them (build)
        return None
    if kind in (S.EV_RETREAT, S.EV_WITHDRAW, S.EV_ADVANCE):
        verb = {S.EV_RETREAT: "retreats", S.EV_WITHDRAW: "withdraws", S.EV_ADVANCE: "advances"}
        return f"  {_name(names, a)} {verb[kind]} {lab(b)} -> {lab(c)}"
    if kind == S.EV_ELIM:
        return f"  {_name(names, a)} eliminated in {lab(b)} ({CAUSES.get(c, '')})"
    if kind == S.EV_FLIP:
        return f"  {_name(names, a)} flipped to its {'front' if c == 0 else 'reduced'} side"
    if kind == S.EV_CAPTURE:
        return f"  {SIDES[a]} Capital in {lab(b)} CAPTURED"
    if kind == S.EV_RECAPTURE:
        return f"  {SIDES[a]} Capital in {lab(b)} recaptured"
    if kind == S.EV_STACK:
        return f"  {_name(names, a)} removed: over the stacking limit in {lab(b)}"
    return None


def event_line(ev, names, lab, dice: tuple[int, int] | None = None) -> str | None:
    """The English line of trace row ``ev`` (None for a row the log does not show):
    ``names`` the units' names, ``lab`` a hex's label; ``dice``: the d6 of the combat
    whose result ``ev`` is (rule [8]: each side's die, the EV_DICE row before it)."""
    kind, _, player, a, b, c = (int(x) for x in ev)
    line = _line(kind, player, a, b, c, names, lab)
    if kind == S.EV_RESULT and dice is not None:  # rule [8]: each side's d6
        line = line.replace(
            f"{a} + d6 against {b} + d6",
            f"{a} + {dice[0]} against {b} + {dice[1]} (difference {a + dice[0] - b - dice[1]:+d})",
        )
    return line


@dataclass
class GameReplay:
    header: list[str]
    sections: list[Section]
    result: str
    grid: Grid
    legend: list[str] = field(default_factory=list)  # the key to the text map (:func:`legend`)


def build(trace, packed, sc, options_text, seed, game, policies, st) -> GameReplay:
    """The game's sections from its event trace (``batch.play_one``)."""
    g = Grid(sc.columns, sc.rows)
    pos = Position(g, packed.units, [int(x) for x in packed.hexes[:, H_SIDE]])
    header = [
        f"{GAME_TITLE}: game {game} of seed {seed}",
        f"scenario {sc.name}, sha256 {sc.sha256}",
        f"rules {RULES_VERSION}; {options_text}",
        f"blue: {policies[0]}, red: {policies[1]}",
    ]
    sections = [Section("set-up", None)]
    dice = None
    for ev in trace:
        kind, _, player, a, b, c = (int(x) for x in ev)
        if kind == S.EV_TURN:
            sections.append(Section(f"game turn {a}", pos.snapshot()))
        pos.apply(ev)
        if kind == S.EV_DICE:
            dice = (a, b)
        line = event_line(ev, packed.names, g.label, dice)
        if kind == S.EV_RESULT:
            dice = None
        if line is not None:
            sections[-1].lines.append(line)
    sections.append(Section("end", pos.snapshot()))
    w = int(st[S.WINNER])
    if w == 2:
        result = f"draw after game turn {int(st[S.TURN])}"
    else:
        result = f"{SIDES[w]} wins in game turn {int(st[S.TURN])}: Capital captured, margin held"
    return GameReplay(header, sections, result, g, legend(packed))


def render(rep: GameReplay) -> str:
    """The game as text: header, then per turn the board and the events."""
    out = [*rep.header, *rep.legend, ""]
    for sec in rep.sections:
        if sec.board is not None:
            out += ["", f"== {sec.title} ==", sec.board.draw(), ""]
        out += sec.lines
    out += ["", rep.result]
    return "\n".join(out) + "\n"
