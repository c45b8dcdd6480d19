"""The rule options of every game of a Maneuver study (the adapter's ``Options``): the
engine's :class:`~manoeuvre_sim.hexgame.records.HexOptions` and the scenario file. Here,
below the adapter, so the variants of the balance study (``hexgame/variants.py``) build
them without importing the adapter."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from manoeuvre_sim.hexgame.records import HexOptions


@dataclass(frozen=True)
class Options(HexOptions):
    """The rule options every game of a study is played with (``hex simulate``'s), and the
    scenario file (None: the built-in reconstruction, ``data/hexgame/default.toml``)."""

    scenario: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.scenario is not None:
            object.__setattr__(self, "scenario", str(Path(self.scenario).resolve()))

    def describe(self) -> str:
        """The options that differ from the defaults, in words ("" for the default game)."""
        if self == Options():
            return ""
        text = HexOptions.describe(self)
        return text + (f"; scenario {self.scenario}" if self.scenario else "")
