"""The hex map's geometry: offset labels, cube coordinates, neighbour and distance tables.

Layout "odd-q" (Red Blob Games, https://www.redblobgames.com/grids/hexagons/): hexes are
flat-topped, stood in columns, and odd columns (0-based) are shifted half a hex down. A hex
is numbered ``id = row * columns + col`` (0-based, reading order) and named ``CCRR`` (1-based,
as a wargame map prints it: "0101" top left).

The algorithms use cube coordinates ``(q, r, s)``, ``q + r + s = 0``; the kernels only
read the two tables built here:

- ``neighbours``: ``ndarray(int16, shape=(N, 6))``, the hex in each direction or -1 off
  the map; directions in the order of Red Blob's ``cube_direction_vectors``: (+1,0,-1),
  (+1,-1,0), (0,-1,+1), (-1,0,+1), (-1,+1,0), (0,+1,-1);
- ``distance``: ``ndarray(int8, shape=(N, N))``, hexes between two hexes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CUBE_DIRECTIONS = ((1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1))


def offset_to_cube(col: int, row: int) -> tuple[int, int, int]:
    """Odd-q offset (col, row) to cube (q, r, s) (Red Blob's ``oddq_to_cube``)."""
    q = col
    r = row - (col - (col & 1)) // 2
    return q, r, -q - r


def cube_to_offset(q: int, r: int, s: int) -> tuple[int, int]:
    """Cube (q, r, s) to odd-q offset (col, row) (Red Blob's ``cube_to_oddq``)."""
    del s
    col = q
    row = r + (q - (q & 1)) // 2
    return col, row


def cube_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def label(col: int, row: int) -> str:
    """``CCRR``, 1-based: the printed name of hex (col, row)."""
    return f"{col + 1:02d}{row + 1:02d}"


@dataclass(frozen=True)
class Grid:
    """A ``columns`` x ``rows`` odd-q map and its tables."""

    columns: int
    rows: int

    @property
    def n(self) -> int:
        return self.columns * self.rows

    def hex_id(self, col: int, row: int) -> int:
        return row * self.columns + col

    def col_row(self, h: int) -> tuple[int, int]:
        return h % self.columns, h // self.columns

    def on_map(self, col: int, row: int) -> bool:
        return 0 <= col < self.columns and 0 <= row < self.rows

    def label(self, h: int) -> str:
        return label(*self.col_row(h))

    def parse(self, text: str) -> int:
        """The hex named ``CCRR``; ValueError if not a hex of this map."""
        if len(text) != 4 or not text.isdigit():
            raise ValueError(f"expected a hex name CCRR such as '0305', got {text!r}")
        col, row = int(text[:2]) - 1, int(text[2:]) - 1
        if not self.on_map(col, row):
            raise ValueError(f"hex {text} is off the {self.columns} x {self.rows} map")
        return self.hex_id(col, row)

    def cube(self, h: int) -> tuple[int, int, int]:
        return offset_to_cube(*self.col_row(h))

    def neighbours(self) -> np.ndarray:
        """``ndarray(int16, shape=(N, 6))``: the neighbour in each cube direction, -1 off map."""
        out = np.full((self.n, 6), -1, dtype=np.int16)
        for h in range(self.n):
            q, r, s = self.cube(h)
            for d, (dq, dr, ds) in enumerate(CUBE_DIRECTIONS):
                col, row = cube_to_offset(q + dq, r + dr, s + ds)
                if self.on_map(col, row):
                    out[h, d] = self.hex_id(col, row)
        return out

    def distances(self) -> np.ndarray:
        """``ndarray(int8, shape=(N, N))``: hex distances (cube metric)."""
        cubes = np.array([self.cube(h) for h in range(self.n)], dtype=np.int64)
        diff = np.abs(cubes[:, None, :] - cubes[None, :, :]).max(axis=2)
        if diff.max() > 127:
            raise ValueError("map too large for int8 distances")
        return diff.astype(np.int8)

    def edge_hexes(self) -> set[int]:
        """Hexes with fewer than six neighbours on the map (they touch its edge)."""
        nb = self.neighbours()
        return {h for h in range(self.n) if (nb[h] < 0).any()}

    def corner_hexes(self) -> set[int]:
        c, r = self.columns - 1, self.rows - 1
        return {self.hex_id(0, 0), self.hex_id(c, 0), self.hex_id(0, r), self.hex_id(c, r)}
