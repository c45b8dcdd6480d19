"""Maneuver's options, records and manifest: what a run of games was and what it gave.

The core columns are those of Manoeuvre's records (``game, seed, army_a, army_b,
policy_a, policy_b, first_player, winner, victory, game_turns``), so the shared study layer
reads both games; ``army_a`` is blue (side 0) and ``army_b`` red. The game's own columns
follow (README text in the lead's report).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import GAME_KEY, GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame import batch as BT
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.scenario import MAXU, SIDES

VICTORY = np.array(S.VICTORY_NAMES)
# the rule switches in words, as a run's description says those switched on (and a balance
# variant's name, of the first two: variants.Variant)
SWITCH_WORDS = (
    ("step_losses", "step losses"),
    ("step_replacements", "step replacements"),
    ("captured_capital_zoc", "a captured Capital keeps its ZOC (H6)"),
    ("retreat_apart", "retreating units never share a hex (H11)"),
)


@dataclass(frozen=True)
class HexOptions:
    """The rule options of a run (rules [3], [12], [13])."""

    border: str = "basic"  # rule [2] / [13] 1: a border line of the scenario
    turns: int = 10  # rule [12]
    first: str = "random"  # rule [3]: "random", "blue" or "red"
    quality_blue: str = "front"  # rule [13] 2: "front", "back" or K (the first K units back)
    quality_red: str = "front"
    step_losses: bool = False  # rule [13] 3
    step_replacements: bool = False  # rule [13] 4
    captured_capital_zoc: bool = False  # H6's other reading
    retreat_apart: bool = False  # H11's earlier reading: no two retreating units in one hex

    def __post_init__(self) -> None:
        if self.first not in ("random", "blue", "red"):
            raise UsageError(f"--first: expected random, blue or red, got {self.first!r}")
        for side in SIDES:
            q = getattr(self, f"quality_{side}")
            if q not in ("front", "back") and not (q.isdigit() and int(q) <= MAXU):
                if _units(q) is None:
                    raise UsageError(
                        f"--quality-{side}: expected front, back, a number of units or "
                        f"units:I,J,... (unit numbers 1..{MAXU - 1} in scenario order), got {q!r}"
                    )
        if not 1 <= self.turns <= 100:
            raise UsageError(f"--turns: expected 1..100, got {self.turns}")

    def array(self) -> np.ndarray:
        return S.default_options(
            turns=self.turns,
            first={"random": -1, "blue": 0, "red": 1}[self.first],
            quality=(_quality(self.quality_blue), _quality(self.quality_red)),
            weak=(_weak_mask(self.quality_blue), _weak_mask(self.quality_red)),
            step_losses=int(self.step_losses),
            step_repl=int(self.step_replacements),
            captured_zoc=int(self.captured_capital_zoc),
            retreat_apart=int(self.retreat_apart),
        )

    def describe(self) -> str:
        adv = [
            f"border {self.border}",
            f"first player {self.first}",
            f"{self.turns} turns",
        ]
        if (self.quality_blue, self.quality_red) != ("front", "front"):
            adv.append(f"army quality blue {self.quality_blue}, red {self.quality_red}")
        adv += [words for name, words in SWITCH_WORDS if getattr(self, name)]
        return "; ".join(adv)


def _units(q: str) -> tuple[int, ...] | None:
    """``units:I,J,...``: the side's units I, J (scenario order, the Capital 0) set up on their
    weak side; None if ``q`` is not of that form or names a unit out of range or twice."""
    head, sep, rest = q.partition(":")
    if head != "units" or not sep:
        return None
    parts = rest.split(",")
    if not all(p.isdigit() and 1 <= int(p) < MAXU for p in parts) or len(set(parts)) < len(parts):
        return None
    return tuple(int(p) for p in parts)


def _weak_mask(q: str) -> int:
    """The kernels' O_WEAK bit mask of ``units:I,J`` (bit I-1 per unit); 0 otherwise."""
    return sum(1 << (i - 1) for i in _units(q) or ())


def _quality(q: str) -> int:
    """Rule [13] 2 as the kernels read it: how many combat units start reduced."""
    return {"front": 0, "back": MAXU}.get(q, int(q) if q.isdigit() else 0)


def manifest(sc, source, options: HexOptions, seed, first_game, games, policies, params):
    """What every output of a run records (the scenario's hash among it)."""
    return {
        "game": GAME_KEY,
        "game_title": GAME_TITLE,
        "rules_version": RULES_VERSION,
        "scenario": sc.name,
        "scenario_file": str(source),
        "scenario_sha256": sc.sha256,
        "options": asdict(options),
        "options_text": options.describe(),
        "army_a": "blue",
        "army_b": "red",
        "config": {
            "seed": seed,
            "first_game": first_game,
            "games": games,
            "policy_a": policies[0],
            "policy_b": policies[1],
            "params_a": [float(x) for x in params[0]],
            "params_b": [float(x) for x in params[1]],
        },
    }


def to_frame(records: np.ndarray, man: dict, first_game: int = 0) -> pd.DataFrame:
    """One row per game (columns: the README's Maneuver records table)."""
    r = records
    n = len(r)
    ab = np.array(["a", "b", "draw"])
    cfg = man["config"]
    df = pd.DataFrame(
        {
            "game": np.arange(first_game, first_game + n, dtype=np.int64),
            "seed": np.full(n, cfg["seed"], dtype=np.int64),
            "army_a": man["army_a"],
            "army_b": man["army_b"],
            "policy_a": cfg["policy_a"],
            "policy_b": cfg["policy_b"],
            "first_player": ab[r[:, BT.R_FIRST]],
            "winner": ab[r[:, BT.R_WINNER]],
            "victory": VICTORY[r[:, BT.R_VICTORY]],
            "game_turns": r[:, BT.R_TURNS],
        }
    )
    for s, x in enumerate(("a", "b")):
        df[f"capital_fell_turn_{x}"] = r[:, BT.R_FELL + s]
        df[f"capital_captures_{x}"] = r[:, BT.R_CAPTURES + s]
        df[f"captured_without_margin_{x}"] = r[:, BT.R_NO_MARGIN + s]
        df[f"units_on_map_{x}"] = r[:, BT.R_UNITS + s]
        df[f"eliminated_{x}"] = r[:, BT.R_ELIM + s]
        df[f"replacements_{x}"] = r[:, BT.R_REPL + s]
        df[f"combats_{x}"] = r[:, BT.R_COMBATS + s]
        df[f"capital_captured_at_end_{x}"] = r[:, BT.R_CAPTURED + s].astype(bool)
    for s, x in enumerate(("a", "b")):  # rule [3]: where each Capital was set up (CCRR)
        df[f"capital_hex_{x}"] = [f"{v:04d}" for v in r[:, BT.R_CAP_HEX + s]]
    o = man["options"]
    df["border"] = o["border"]
    df["quality_a"] = o["quality_blue"]
    df["quality_b"] = o["quality_red"]
    df["step_losses"] = bool(o["step_losses"])
    df["step_replacements"] = bool(o["step_replacements"])
    df["captured_capital_zoc"] = bool(o.get("captured_capital_zoc", False))
    df["retreat_apart"] = bool(o.get("retreat_apart", False))
    return df
