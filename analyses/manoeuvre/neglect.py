"""What the play styles neglect, as Markdown tables (the players' benchmark,
``benchmarks/bench_neglect.py``, writes them): from the frames of the study
(``manoeuvre/studies/neglect.py``, :class:`NeglectResult`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def _pct(x: float) -> str:
    return "—" if not np.isfinite(x) else f"{100 * x:.1f}%"


def _ci(lo: float, hi: float, scale: float = 100.0, fmt: str = ".1f") -> str:
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return ""
    return f"[{scale * lo:{fmt}}, {scale * hi:{fmt}}]"


def markdown_policies(df: pd.DataFrame) -> list[str]:
    """The per-policy table as Markdown lines."""
    L = [
        "| policy | opponent | games | mean game turns | attrition endings | cards discarded "
        "on turn 1 (of 5) | whole hand on turn 1 | discards / side | plays / side |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in df.itertuples(index=False):
        L.append(
            f"| {r.policy} | {r.opponent} | {r.games:,} | {r.mean_turns:.1f} "
            f"{_ci(r.turns_low, r.turns_high, 1.0)} | {_pct(r.attrition)} "
            f"{_ci(r.attrition_low, r.attrition_high)} | {r.discarded_turn1:.2f} | "
            f"{_pct(r.whole_hand_turn1)} | {r.discards_per_side:.1f} | {r.plays_per_side:.1f} |"
        )
    return L


def markdown_cards(df: pd.DataFrame, cards: Sequence[str] | None = None) -> list[str]:
    """The per-type table as Markdown lines (``cards``: only these types, in this order)."""
    if cards is not None:
        order = {c: i for i, c in enumerate(cards)}
        df = df[df["card"].isin(order)].copy()
        df["_o"] = df["card"].map(order)
        df = df.sort_values(["_o", "policy"], kind="stable")
    L = [
        "| card | policy | copies drawn | played | discarded unplayed | sides holding | "
        "win rate, played | win rate, held never played | difference |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in df.itertuples(index=False):
        wp = (
            f"{_pct(r.win_played)} {_ci(r.win_played_low, r.win_played_high)} "
            f"(n={r.played_games:,})"
        )
        wu = (
            f"{_pct(r.win_unplayed)} {_ci(r.win_unplayed_low, r.win_unplayed_high)} "
            f"(n={r.unplayed_games:,})"
        )
        diff = (
            "n/a"
            if not np.isfinite(r.played_minus_unplayed)
            else f"{100 * r.played_minus_unplayed:+.1f} {_ci(r.diff_low, r.diff_high)}"
        )
        L.append(
            f"| {r.card} | {r.policy} | {r.copies_drawn:,} | {_pct(r.play_rate)} | "
            f"{_pct(r.discard_rate)} | {r.held_games:,} | {wp} | {wu} | {diff} |"
        )
    return L
