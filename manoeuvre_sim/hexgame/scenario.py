"""A Maneuver scenario file: the map, its border lines and each side's order of battle.

The rulebook (rules 001) gives neither the counters' values nor where the border lines
run, so the built-in scenario (``data/hexgame/default.toml``) is an authored reconstruction,
labelled so in the file. A scenario is validated here (every problem one line naming the
file, the field and what was expected: ``DataError``), hashed (sha256 of its canonical
content, recorded in every output) and packed into the integer arrays the kernels read.

Packed unit table, ``ndarray(int32, shape=(2 * MAXU, U_NCOL))``: rows ``side * MAXU + i``,
side 0 blue, 1 red; the Capital is always row ``side * MAXU`` (rule [5]: one per side);
an unused row has ``U_TYPE = -1``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, model_validator

from manoeuvre_sim.core.data import Int, data_dir, read_toml, validate
from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.hexgame.grid import Grid

_FROZEN = ConfigDict(frozen=True, extra="forbid")
SIDES = ("blue", "red")
MAXU = 16  # units a side may have, its Capital included
# unit types, as the kernels number them
INFANTRY, CAVALRY, ARTILLERY, CAPITAL = 0, 1, 2, 3
TYPE_NAMES = ("infantry", "cavalry", "artillery", "capital")
# columns of the packed unit table: type, attack and defence on the front (0) and reduced
# (1) side, movement allowance (the same on both sides: one MA per counter in this file)
U_TYPE, U_ATT0, U_DEF0, U_ATT1, U_DEF1, U_MA = range(6)
U_NCOL = 6
# a unit's values as the records name them, in their order, with their columns
UNIT_VALUES = (
    ("attack", U_ATT0),
    ("defence", U_DEF0),
    ("reduced_attack", U_ATT1),
    ("reduced_defence", U_DEF1),
    ("movement", U_MA),
)
# columns of the packed hex table: the side owning the hex under the chosen border (0 blue,
# 1 red), whether its side may set units up there (rule [3]: not adjacent to the border),
# whether its Capital may (also not adjacent to the map edge, two hexes from a corner), its
# distance to the nearest hex of the other side (the players' set-up reads it)
H_SIDE, H_SETUP, H_CAPITAL_OK, H_BORDER_DIST = range(4)
H_NCOL = 4

Strengths = tuple[Int(0, 20), Int(0, 20)]


class UnitSpec(BaseModel):
    """One counter (or ``count`` identical ones): front and reduced values (rule [5])."""

    model_config = _FROZEN
    name: str
    type: Literal["infantry", "cavalry", "artillery", "capital"]
    count: Int(1, MAXU) = 1
    strength: Strengths | None = None  # infantry, cavalry: combat strength, front and reduced
    attack: Strengths | None = None  # artillery, Capital: attack strength, front and reduced
    defence: Strengths | None = None
    ma: Int(0, 20)

    @model_validator(mode="after")
    def _fields_of_type(self):
        if self.type in ("infantry", "cavalry"):
            if self.strength is None or self.attack is not None or self.defence is not None:
                raise ValueError(
                    f"a {self.type} unit has 'strength = [front, reduced]' and no attack/defence"
                )
        elif self.strength is not None or self.attack is None or self.defence is None:
            raise ValueError(
                f"a {self.type} unit has 'attack' and 'defence' = [front, reduced], no strength"
            )
        if self.type == "capital" and (self.ma != 0 or self.count != 1):
            raise ValueError("the Capital has ma = 0 and count = 1 (rule [5])")
        if self.type != "capital" and self.ma < 1:
            raise ValueError(f"expected ma >= 1 for a {self.type} unit, got {self.ma}")
        return self

    def values(self) -> tuple[int, int, int, int]:
        """(attack front, defence front, attack reduced, defence reduced)."""
        if self.strength is not None:
            return self.strength[0], self.strength[0], self.strength[1], self.strength[1]
        return self.attack[0], self.defence[0], self.attack[1], self.defence[1]


class SideSpec(BaseModel):
    model_config = _FROZEN
    units: tuple[UnitSpec, ...]

    @model_validator(mode="after")
    def _order_of_battle(self):
        caps = sum(u.count for u in self.units if u.type == "capital")
        if caps != 1:
            raise ValueError(f"expected exactly one unit of type 'capital' (rule [5]), got {caps}")
        total = sum(u.count for u in self.units)
        if total > MAXU:
            raise ValueError(f"expected at most {MAXU} units including the Capital, got {total}")
        zero = sum(u.count for u in self.units if u.type != "capital" and u.values()[2:] == (0, 0))
        if zero != 2:
            raise ValueError(
                f"expected exactly two combat units whose reduced side is 0 (rule [5]), got {zero}"
            )
        return self


class Sides(BaseModel):
    model_config = _FROZEN
    blue: SideSpec
    red: SideSpec


class Border(BaseModel):
    """A border line: for each column, left to right, the hexes from the top that are blue."""

    model_config = _FROZEN
    note: str = ""
    blue_rows: tuple[Int(1, 99), ...]


class Scenario(BaseModel):
    model_config = _FROZEN
    name: str
    note: str
    columns: Int(4, 30)
    rows: Int(4, 30)
    layout: Literal["odd-q"]
    borders: dict[str, Border]
    sides: Sides

    @model_validator(mode="after")
    def _borders(self):
        if "basic" not in self.borders:
            raise ValueError("expected a border named 'basic' (rule [2]: the basic game's line)")
        for name, b in self.borders.items():
            if len(b.blue_rows) != self.columns:
                raise ValueError(
                    f"borders > {name} > blue_rows: expected {self.columns} numbers (one per "
                    f"column), got {len(b.blue_rows)}"
                )
            bad = [(c, k) for c, k in enumerate(b.blue_rows, 1) if not 1 <= k < self.rows]
            if bad:
                c, k = bad[0]
                raise ValueError(
                    f"borders > {name} > blue_rows: column {c} (entry {c} of {self.columns}) "
                    f"is {k}; expected a row in 1..{self.rows - 1} (blue holds rows 1..N of "
                    f"that column)"
                    + (f", and {len(bad) - 1} more out of range" if len(bad) > 1 else "")
                )
            tab = hex_table(self, name)
            for s, side in enumerate(SIDES):
                spec = getattr(self.sides, side)
                if not (tab[:, H_CAPITAL_OK] & (tab[:, H_SIDE] == s)).any():
                    raise ValueError(
                        f"borders > {name}: {side} has no hex its Capital may set up on (rule [3])"
                    )
                room = int((tab[:, H_SETUP] & (tab[:, H_SIDE] == s)).sum())
                line = sum(u.count for u in spec.units if u.type in ("infantry", "cavalry"))
                if line > room - 1:
                    raise ValueError(
                        f"borders > {name}: {side} has {room} set-up hexes, expected room for "
                        f"its {line} infantry and cavalry beside its Capital (rule [3])"
                    )
        return self

    @property
    def grid(self) -> Grid:
        return Grid(self.columns, self.rows)

    def units(self, side: int) -> list[tuple[str, int, tuple[int, int, int, int], int]]:
        """The side's units, Capital first: (name, type code, values, ma)."""
        spec = getattr(self.sides, SIDES[side])
        out = []
        for u in sorted(spec.units, key=lambda u: u.type != "capital"):
            for i in range(u.count):
                name = u.name if u.count == 1 else f"{u.name} {i + 1}"
                out.append((name, TYPE_NAMES.index(u.type), u.values(), u.ma))
        return out

    def canonical(self) -> str:
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    @property
    def sha256(self) -> str:
        """Hash of the canonical content (comments and layout of the file do not count)."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()


def hex_table(sc: Scenario, border: str) -> np.ndarray:
    """``ndarray(int32, shape=(N, H_NCOL))`` for border line ``border`` (rule [3])."""
    g = Grid(sc.columns, sc.rows)
    nb = g.neighbours()
    dist = g.distances()
    cut = sc.borders[border].blue_rows
    side = np.array([0 if g.col_row(h)[1] < cut[g.col_row(h)[0]] else 1 for h in range(g.n)])
    edge = g.edge_hexes()
    corners = sorted(g.corner_hexes())
    out = np.zeros((g.n, H_NCOL), dtype=np.int32)
    for h in range(g.n):
        out[h, H_SIDE] = side[h]
        near_border = any(n >= 0 and side[n] != side[h] for n in nb[h])
        out[h, H_SETUP] = not near_border
        # rule [3]: not adjacent to the map edge (read: not an edge hex, H3) and at least
        # two hexes from every corner hex
        out[h, H_CAPITAL_OK] = (
            not near_border and h not in edge and all(dist[h, c] >= 2 for c in corners)
        )
        out[h, H_BORDER_DIST] = int(dist[h][side != side[h]].min())
    return out


@dataclass(frozen=True)
class Packed:
    """The arrays the kernels read (one border line chosen)."""

    units: np.ndarray  # int32 (2 * MAXU, U_NCOL)
    hexes: np.ndarray  # int32 (N, H_NCOL)
    neighbours: np.ndarray  # int16 (N, 6)
    distance: np.ndarray  # int8 (N, N)
    names: tuple[str, ...]  # 2 * MAXU unit names ("" for an unused row)


def pack(sc: Scenario, border: str = "basic") -> Packed:
    if border not in sc.borders:
        raise DataError(
            sc.name,
            [("borders", f"no border named {border!r}; expected one of: {', '.join(sc.borders)}")],
        )
    units = np.full((2 * MAXU, U_NCOL), -1, dtype=np.int32)
    names = [""] * (2 * MAXU)
    for s in range(2):
        for i, (name, typ, vals, ma) in enumerate(sc.units(s)):
            units[s * MAXU + i] = (typ, *vals, ma)
            names[s * MAXU + i] = name
    g = sc.grid
    return Packed(units, hex_table(sc, border), g.neighbours(), g.distances(), tuple(names))


def default_path() -> Path:
    """The built-in scenario (``data/hexgame/default.toml``, packaged)."""
    return data_dir() / "hexgame" / "default.toml"


def load_scenario(path: Path | str | None = None) -> Scenario:
    """Load and validate a scenario file (the built-in default when ``path`` is None)."""
    path = default_path() if path is None else Path(path)
    return validate(Scenario, read_toml(path), str(path))
