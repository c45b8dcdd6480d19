"""One game of Maneuver as text: its event log and the board at the start of every turn.

The board is drawn as the tests draw positions (``tests/hex_boards.py``): the odd-q map
with two text lines per row, the second holding the odd columns, half a hex lower; a cell
is ``.`` or its units: upper case blue, lower case red, ``K`` Capital (``X``/``x`` when
captured), ``I`` infantry, ``C`` cavalry, ``A`` artillery, ``*`` after a reduced unit.
"""

from __future__ import annotations

from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import RESULT_NAMES
from manoeuvre_sim.hexgame.grid import Grid
from manoeuvre_sim.hexgame.scenario import MAXU, SIDES, U_TYPE

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

    def __init__(self, grid: Grid, units):
        self.grid = grid
        self.units = units
        self.pos: dict[int, int] = {}
        self.step: dict[int, int] = {}
        self.captured = [False, False]

    def apply(self, ev):
        kind, _, _, a, b, c = (int(x) for x in ev)
        if kind == S.EV_PLACE:
            self.pos[a] = b
            self.step[a] = 0
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

    def draw(self) -> str:
        g = self.grid
        cells: dict[int, str] = {}
        for u in sorted(self.pos):
            t = self.units[u, U_TYPE]
            ch = "X" if t == 3 and self.captured[u // MAXU] else LETTER[t]
            ch = ch if u < MAXU else ch.lower()
            if self.step.get(u, 0) == 1 and t != 3:
                ch += "*"
            cells[self.pos[u]] = cells.get(self.pos[u], "") + ch
        lines = []
        for r in range(g.rows):
            for parity in (0, 1):
                row = " " * (CELL * parity)
                for c in range(parity, g.columns, 2):
                    row += cells.get(g.hex_id(c, r), ".").ljust(2 * CELL)
                lines.append(row.rstrip())
        return "\n".join(lines)


def _name(names, u):
    return f"{SIDES[u // MAXU]} {names[u]}"


def render(trace, packed, sc, options_text, seed, game, policies, st) -> str:
    """The game's text: header, then per turn the board and the events."""
    g = Grid(sc.columns, sc.rows)
    names = packed.names
    lab = g.label
    pos = Position(g, packed.units)
    out = [
        f"{GAME_TITLE}: game {game} of seed {seed}",
        f"scenario {sc.name} (sha256 {sc.sha256[:16]}...), rules {RULES_VERSION}; {options_text}",
        f"blue: {policies[0]}, red: {policies[1]}",
        "",
    ]
    for ev in trace:
        kind, turn, player, a, b, c = (int(x) for x in ev)
        if kind == S.EV_TURN:
            out += ["", f"== game turn {a} ==", pos.draw(), ""]
        pos.apply(ev)
        who = SIDES[player]
        if kind == S.EV_PLACE:
            line = f"set-up: {_name(names, a)} in {lab(b)}"
        elif kind == S.EV_MOVE:
            line = f"{who} moves {names[a]} {lab(b)} -> {lab(c)}"
        elif kind == S.EV_REPLACE:
            line = f"{who} replacement: {_name(names, a)} at {lab(b)}" + (" (reduced)" if c else "")
        elif kind == S.EV_ATTACKER:
            line = f"  attacker {_name(names, a)} in {lab(b)}"
        elif kind == S.EV_DEFENDER:
            line = f"  defending hex {lab(a)}"
        elif kind == S.EV_RESULT:
            line = f"  {who} attacks: {a} + d6 against {b} + d6: {RESULT_NAMES[c]}"
        elif kind in (S.EV_RETREAT, S.EV_WITHDRAW, S.EV_ADVANCE):
            verb = {S.EV_RETREAT: "retreats", S.EV_WITHDRAW: "withdraws",
                    S.EV_ADVANCE: "advances"}[kind]  # fmt: skip
            line = f"  {_name(names, a)} {verb} {lab(b)} -> {lab(c)}"
        elif kind == S.EV_ELIM:
            line = f"  {_name(names, a)} eliminated in {lab(b)} ({CAUSES.get(c, '')})"
        elif kind == S.EV_FLIP:
            line = f"  {_name(names, a)} flipped to its {'front' if c == 0 else 'reduced'} side"
        elif kind == S.EV_CAPTURE:
            line = f"  {SIDES[a]} Capital in {lab(b)} CAPTURED"
        elif kind == S.EV_RECAPTURE:
            line = f"  {SIDES[a]} Capital in {lab(b)} recaptured"
        elif kind == S.EV_STACK:
            line = f"  {_name(names, a)} removed: over the stacking limit in {lab(b)}"
        elif kind == S.EV_END:
            continue
        else:
            continue
        out.append(line)
    out += ["", "== end ==", pos.draw(), ""]
    w = int(st[S.WINNER])
    if w == 2:
        out.append(f"draw after game turn {int(st[S.TURN])}")
    else:
        out.append(f"{SIDES[w]} wins in game turn {int(st[S.TURN])}: Capital captured, margin held")
    return "\n".join(out) + "\n"
