"""Draw a battlefield as ASCII in a test and get the engine's arrays back.

Format
------
Eight non-blank lines, top row (row 0, player 1's starting edge) first, bottom row (row 7,
player 0's starting edge) last; eight cells per line separated by whitespace. A cell is one
or two characters:

- a terrain letter of ``data/terrain.toml`` (``C F H L M T W``) or ``.`` for Clear,
- optionally followed by a unit marker: ``0``..``7`` = player 0's units 0..7,
  ``a``..``h`` = player 1's units 8..15;
- a unit marker alone stands on Clear.

So ``H3`` is player 0's unit 3 on a Hill, ``a`` or ``.a`` is player 1's unit 8 on Clear,
``Mc`` is player 1's unit 10 in a Marsh, ``L`` an empty Lake. Terrain letters are upper
case and unit markers digits or lower case, so they never collide. A unit may not stand on
a Lake (it can never enter one) and each unit appears at most once.

Example::

    b = parse_board('''
        . . . . . . . .
        . . . . . . . .
        . . H . . . . .
        . . 0 . a . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    ''')
    b.occ[at(3, 2)] == 0 and b.unit_sq[8] == at(3, 4)
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from manoeuvre_sim.manoeuvre.engine.board import TP_ENTER, terrain_codes, terrain_props
from manoeuvre_sim.manoeuvre.model import load_terrain

N_UNITS = 16  # 8 per player: player 0 ids 0..7, player 1 ids 8..15


class Board(NamedTuple):
    """A parsed board. All arrays are fresh copies the test may change."""

    occ: np.ndarray  # int32[64]: unit id per square, -1 empty
    terr: np.ndarray  # int32[64]: terrain code per square (index into letters)
    tprops: np.ndarray  # int32[n_codes, 7]: terrain properties (board.TP_* columns)
    unit_owner: np.ndarray  # int32[16]: 0 for ids 0..7, 1 for ids 8..15
    unit_sq: np.ndarray  # int32[16]: square of each unit, -1 if not on the board
    letters: str  # terrain code i is letters[i]


def at(r: int, c: int) -> int:
    """Square index of row ``r`` (0 = top), column ``c`` (0 = left)."""
    if not (0 <= r < 8 and 0 <= c < 8):
        raise ValueError(f"({r}, {c}) is off the 8x8 board")
    return r * 8 + c


def rc(sq: int) -> tuple[int, int]:
    """(row, column) of a square index."""
    return divmod(int(sq), 8)


@lru_cache(maxsize=1)
def packed_terrain() -> tuple[str, np.ndarray]:
    """``(letters, tprops)`` of the real terrain table (``data/terrain.toml``)."""
    return terrain_props(load_terrain())


def unit_id(marker: str) -> int:
    """Unit id of a marker: ``'0'``..``'7'`` -> 0..7, ``'a'``..``'h'`` -> 8..15."""
    if marker in "01234567":
        return int(marker)
    if marker in "abcdefgh":
        return 8 + "abcdefgh".index(marker)
    raise ValueError(f"unknown unit marker {marker!r}: expected 0-7 (player 0) or a-h (player 1)")


def parse_board(text: str) -> Board:
    """Parse an ASCII battlefield (format in the module docstring) into a :class:`Board`."""
    letters, tprops = packed_terrain()
    lines = [ln.split() for ln in text.strip("\n").splitlines() if ln.strip()]
    if len(lines) != 8:
        raise ValueError(f"expected 8 rows, got {len(lines)}")
    rows: list[str] = []
    occ = np.full(64, -1, dtype=np.int32)
    unit_sq = np.full(N_UNITS, -1, dtype=np.int32)
    for r, cells in enumerate(lines):
        if len(cells) != 8:
            raise ValueError(f"row {r}: expected 8 cells, got {len(cells)}: {cells}")
        row = ""
        for c, cell in enumerate(cells):
            if len(cell) > 2:
                raise ValueError(f"row {r} col {c}: cell {cell!r} longer than 2 characters")
            ch = cell[0]
            if ch == ".":
                terrain, marker = "C", cell[1:]
            elif ch in letters:
                terrain, marker = ch, cell[1:]
            else:
                if len(cell) != 1:
                    raise ValueError(f"row {r} col {c}: cell {cell!r}: bad terrain letter {ch!r}")
                terrain, marker = "C", cell
            row += terrain
            if marker:
                u = unit_id(marker)
                if unit_sq[u] >= 0:
                    raise ValueError(f"unit {marker!r} drawn twice")
                if not tprops[letters.index(terrain), TP_ENTER]:
                    raise ValueError(f"row {r} col {c}: unit {marker!r} on unenterable {terrain}")
                occ[r * 8 + c] = u
                unit_sq[u] = r * 8 + c
        rows.append(row)
    terr = terrain_codes(rows, letters)
    unit_owner = np.array([0] * 8 + [1] * 8, dtype=np.int32)
    return Board(occ, terr, tprops.copy(), unit_owner, unit_sq, letters)


def render(board: Board, marks: dict[int, str] | None = None) -> str:
    """The board back as ASCII (for assertion messages); ``marks`` overrides cells by square."""
    out = []
    for r in range(8):
        cells = []
        for c in range(8):
            sq = r * 8 + c
            t = board.letters[board.terr[sq]]
            cell = "." if t == "C" else t
            u = int(board.occ[sq])
            if u >= 0:
                m = str(u) if u < 8 else "abcdefgh"[u - 8]
                cell = m if cell == "." else cell + m
            if marks and sq in marks:
                cell = marks[sq]
            cells.append(f"{cell:<2}")
        out.append(" ".join(cells).rstrip())
    return "\n".join(out)
