"""Dice notation and exact dice distributions (rule 1.2).

A dice expression is ``NdS``: N dice of S sides, each face 1..S equally likely (the d10's
"0" face counts as ten). The printed game uses d6, d8 and d10; designers may use any S in
4..20 and N in 1..10.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

MIN_SIDES, MAX_SIDES = 4, 20
MIN_COUNT, MAX_COUNT = 1, 10

_NOTATION = re.compile(r"^\s*(\d+)\s*[dD]\s*(\d+)\s*$")

DICE_EXPECTED = (
    f"dice notation NdS with N in {MIN_COUNT}..{MAX_COUNT} and S in {MIN_SIDES}..{MAX_SIDES}, "
    "e.g. '2d8' or '1d10'"
)


@dataclass(frozen=True, order=True)
class Dice:
    """``count`` dice of ``sides`` sides each."""

    count: int
    sides: int

    def __post_init__(self) -> None:
        if not (MIN_COUNT <= self.count <= MAX_COUNT and MIN_SIDES <= self.sides <= MAX_SIDES):
            raise ValueError(f"expected {DICE_EXPECTED}, got {self.count}d{self.sides}")

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"

    @property
    def min(self) -> int:
        return self.count

    @property
    def max(self) -> int:
        return self.count * self.sides

    def pmf(self) -> np.ndarray:
        """Exact distribution of the total: ``ndarray(float64, shape=(max + 1,))``,
        entry ``t`` is P(total == t)."""
        return _pmf(self.count, self.sides).copy()


def parse_dice(text: object) -> Dice:
    """Parse ``'2d8'`` into ``Dice(2, 8)``; raise ``ValueError`` saying what was expected."""
    if isinstance(text, Dice):
        return text
    if not isinstance(text, str):
        raise ValueError(f"expected {DICE_EXPECTED}, got {text!r}")
    m = _NOTATION.match(text)
    if not m:
        raise ValueError(f"expected {DICE_EXPECTED}, got {text!r}")
    n, s = int(m.group(1)), int(m.group(2))
    if not (MIN_COUNT <= n <= MAX_COUNT and MIN_SIDES <= s <= MAX_SIDES):
        raise ValueError(f"expected {DICE_EXPECTED}, got {text!r}")
    return Dice(n, s)


@lru_cache(maxsize=256)
def _pmf(count: int, sides: int) -> np.ndarray:
    one = np.zeros(sides + 1)
    one[1:] = 1.0 / sides
    out = np.array([1.0])
    for _ in range(count):
        out = np.convolve(out, one)
    out.setflags(write=False)
    return out


def sum_pmf(dice: list[Dice] | tuple[Dice, ...]) -> np.ndarray:
    """Exact distribution of the sum of several dice expressions (index = total)."""
    out = np.array([1.0])
    for d in dice:
        out = np.convolve(out, _pmf(d.count, d.sides))
    return out
