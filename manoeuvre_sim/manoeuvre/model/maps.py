"""Terrain table and map sections (rule 1.1, reference card terrain effects)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from manoeuvre_sim.core.data import Flag, Int

_FROZEN = ConfigDict(frozen=True, extra="forbid")
SECTION_SIZE = 4  # rule 1.1: each section is 4 squares by 4


class Terrain(BaseModel):
    """Effects of one terrain type; see data/terrain.toml for each field's meaning."""

    model_config = _FROZEN

    name: Annotated[str, Field(min_length=1, max_length=30)]
    enterable: Flag = True
    must_stop: Flag = False
    defense: Int(0, 10) = 0
    blocks_los: Flag = False
    attack_bonus: Int(0, 10) = 0
    no_assault_from: Flag = False
    no_forced_march: Flag = False


class TerrainTable(BaseModel):
    """All terrain types by letter, plus the redoubt's defense bonus."""

    model_config = _FROZEN

    redoubt_defense: Int(0, 10)
    terrain: dict[Annotated[str, Field(pattern=r"^[A-Z]$")], Terrain]

    @field_validator("terrain")
    @classmethod
    def _clear_first(cls, v: dict[str, Terrain]) -> dict[str, Terrain]:
        if "C" not in v:
            raise ValueError("the table needs a 'C' (Clear) entry")
        return v

    @property
    def letters(self) -> str:
        return "".join(sorted(self.terrain))

    def code(self, letter: str) -> int:
        """Integer code of a terrain letter: its index in ``letters``."""
        return self.letters.index(letter)


class MapSection(BaseModel):
    """One printed 4x4 map section; ``rows`` top to bottom as printed."""

    model_config = _FROZEN

    number: Int(1, 999)
    verified: Flag = True
    rows: tuple[str, str, str, str]

    @field_validator("rows")
    @classmethod
    def _grid(cls, v: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        letters = (info.context or {}).get("letters")
        for i, row in enumerate(v, 1):
            if len(row) != SECTION_SIZE:
                raise ValueError(f"row {i} {row!r}: expected {SECTION_SIZE} letters")
            if letters:
                bad = sorted({ch for ch in row if ch not in letters})
                if bad:
                    raise ValueError(
                        f"row {i} {row!r}: unknown terrain letter(s) {', '.join(bad)}; "
                        f"expected one of {', '.join(letters)} (data/terrain.toml)"
                    )
        return v

    def rotated(self, quarter_turns: int) -> tuple[str, ...]:
        """The grid turned clockwise ``quarter_turns`` times (rule 3: any orientation)."""
        g = [list(r) for r in self.rows]
        for _ in range(quarter_turns % 4):
            g = [list(r) for r in zip(*g[::-1], strict=True)]
        return tuple("".join(r) for r in g)


class SectionSet(BaseModel):
    model_config = _FROZEN

    sections: tuple[MapSection, ...]

    @field_validator("sections")
    @classmethod
    def _unique(cls, v: tuple[MapSection, ...]) -> tuple[MapSection, ...]:
        nums = [s.number for s in v]
        dup = sorted({n for n in nums if nums.count(n) > 1})
        if dup:
            raise ValueError(f"section numbers must be unique, repeated: {dup}")
        if sum(s.verified for s in v) < 4:
            raise ValueError("at least 4 verified sections are needed to build a battlefield")
        return v
