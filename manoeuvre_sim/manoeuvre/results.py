"""Manoeuvre's game records -> pandas DataFrame (the ``simulate`` columns); writing them
with their manifest is the core's (``core/results.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

VICTORY = np.array(["none", "attrition", "nightfall"])
TIEBREAK = np.array(["squares", "eliminations", "reduced", "nation", "none"])


def _bits(words: np.ndarray) -> np.ndarray:
    """(n, 4) int32 words -> (n,) Python ints of 128 bits, as hex strings."""
    w = words.astype(np.int64) & 0xFFFFFFFF
    return np.array(
        [f"{(r[3] << 96) | (r[2] << 64) | (r[1] << 32) | r[0]:032x}" for r in w.tolist()],
        dtype=object,
    )


def to_frame(
    records: np.ndarray, manifest: dict, *, card_bits: bool = False, first_game: int = 0
) -> pd.DataFrame:
    """One row per game with the columns documented in docs/results-tables.md.

    ``manifest`` needs ``army_a``, ``army_b`` and ``config.seed / policy_a / policy_b``;
    ``first_game``: the game index of the first record (a study writes blocks of games).
    """
    from manoeuvre_sim.manoeuvre.engine import batch as B

    r = records
    n = len(r)
    seed = manifest["config"]["seed"]
    ab = np.array(["a", "b"])
    per_side = {  # column name -> the record's fields for armies a and b
        "eliminated": (B.R_ELIM_A, B.R_ELIM_B),
        "reduced": (B.R_RED_A, B.R_RED_B),
        "vp": (B.R_VP_A, B.R_VP_B),
        "combats": (B.R_COMBATS_A, B.R_COMBATS_B),
        "assaults": (B.R_ASSAULTS_A, B.R_ASSAULTS_B),
        "cards_played": (B.R_CARDS_A, B.R_CARDS_B),
    }
    winner = np.where(r[:, B.R_WINNER] < 0, "draw", ab[np.clip(r[:, B.R_WINNER], 0, 1)])
    df = pd.DataFrame(
        {
            "game": np.arange(first_game, first_game + n, dtype=np.int64),
            "seed": np.full(n, seed, dtype=np.int64),
            "army_a": manifest["army_a"],
            "army_b": manifest["army_b"],
            "policy_a": manifest["config"]["policy_a"],
            "policy_b": manifest["config"]["policy_b"],
            "first_player": ab[r[:, B.R_FIRST]],
            "winner": winner,
            "victory": VICTORY[r[:, B.R_VICTORY]],
            "tiebreak": np.where(
                r[:, B.R_VICTORY] == 2, TIEBREAK[np.clip(r[:, B.R_TIEBREAK], 0, 4)], ""
            ),
            "game_turns": r[:, B.R_TURNS],
            "turn_limit": r[:, B.R_TURN_LIMIT].astype(bool),
            **{
                f"{name}_{side}": r[:, col]
                for name, cols in per_side.items()
                for side, col in zip("ab", cols, strict=True)
            },
            # built with the rest: 8 columns set one by one cost 2.4x the whole frame
            **{
                f"{what}_{pos}": r[:, B.R_MAP + shift + i]
                for i, pos in enumerate(("nw", "ne", "sw", "se"))
                for what, shift in (("map", 0), ("rot", 4))
            },
        }
    )
    if card_bits:
        # card copy k (1-based card_no - 1 of `armies export`) is bit k of the hex number
        df["drawn_a"] = _bits(r[:, B.R_DRAWN : B.R_DRAWN + 4])
        df["drawn_b"] = _bits(r[:, B.R_DRAWN + 4 : B.R_DRAWN + 8])
        df["played_a"] = _bits(r[:, B.R_PLAYED : B.R_PLAYED + 4])
        df["played_b"] = _bits(r[:, B.R_PLAYED + 4 : B.R_PLAYED + 8])
    return df
