"""Manoeuvre's balance study laid out (``BALANCE_TABLES`` of ``manoeuvre/adapter.py``): the
study (``studies/balance.py``: every ordered pairing of the chosen armies, both seats,
mirrors included, under one or more play styles) counts its games here (:func:`counter`,
``tally.Tally``) and :func:`build` turns the counts into its tables: the win-rate
``matrix``, the ``armies`` (field win rate, Bradley-Terry rating, rank, each with its
interval), the ``first_player``, ``victory`` and ``victory_by_army`` tables and, with more
than one style, the style sensitivity (``styles``, ``style_tau``). Plays no game.

Python API (what ``manoeuvre-sim balance`` calls)::

    from manoeuvre_sim.studies import balance
    spec = balance.command_spec("manoeuvre", armies="France,Russia,my_spain.toml",
                                games_per_pairing=500, seed=1)
    res = balance.run_spec(spec, out_dir="reports/balance")
    res.matrix      # one row per (policy, army, opponent)
    res.armies      # field win rate, Bradley-Terry rating, rank, each with its interval
    res.games       # every game record (read back from the study store)
    res.to_pdf("balance.pdf")

Seeding: game ``i`` of the ordered pairing (X in seat a, Y in seat b) is seeded from
(master seed, X's name, Y's name, i) alone (``study.pairing_seed``), so the records do not
depend on threads, task size, the other armies of the field or the play style, and a
precision run equals the fixed-N run with the same final N per pairing. The ``seed`` column
of a record is its pairing's block seed: ``manoeuvre-sim replay --seed SEED --game GAME``
with the two armies and policies replays that game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from manoeuvre_sim.analyses.manoeuvre import tally as T
from manoeuvre_sim.analyses.manoeuvre.balance_text import (
    interrupted_status,
    provenance,
    summary_lines,
)
from manoeuvre_sim.core.study import Pairing, Task
from manoeuvre_sim.studies.balance import BalanceResult, BalanceSpec

PDF_NAME = "balance.pdf"


class Counter:
    """A study's games counted (``tally.Tally``), and every block kept in memory when the
    study has no store."""

    def __init__(self, keep: bool) -> None:
        self.tally = T.Tally()
        self.kept: list[pd.DataFrame] | None = [] if keep else None

    def add(self, task: Task, df: pd.DataFrame) -> None:
        self.tally.add(df)
        if self.kept is not None:
            self.kept.append(df)


def counter(spec: BalanceSpec, *, keep: bool) -> Counter:
    return Counter(keep)


def build(spec: BalanceSpec, count: Counter, manifest: dict, played, *,
          boot: int = 200) -> BalanceResult:  # fmt: skip
    """The study's tables from its counts, the manifest's closing fields (the games
    planned, the armies of an incomplete pairing) and the games kept in memory."""
    res = build_result(spec, count.tally.table, manifest, boot=boot)
    if count.kept is not None:
        res.games_kept = (
            pd.concat(count.kept, ignore_index=True).sort_values(["label", "pairing", "game"])
            if count.kept
            else pd.DataFrame()
        ).reset_index(drop=True)
    games = {p: n - spec.first_game for p, n in played.done.items()}
    res.manifest |= {
        "games_planned": int(played.total) if spec.precision is None else None,
        "incomplete_armies": incomplete_armies(spec.pairings(), games),
    }
    return res


def summary(res: BalanceResult) -> list[str]:
    """The plain-text summary (``balance_text.summary_lines``)."""
    return summary_lines(res)


def pdf(res: BalanceResult, path: str | Path, paper: str = "a4") -> Path:
    """The study's PDF (``balance_pdf.write_balance_pdf``)."""
    from manoeuvre_sim.analyses.manoeuvre.balance_pdf import write_balance_pdf

    return write_balance_pdf(
        path,
        rank_ordered(res.frames()),
        provenance(res.manifest),
        paper=paper,
        summary_lines=res.summary(),
        status=interrupted_status(res.manifest),
        incomplete=res.manifest.get("incomplete_armies"),
    )


def rank_ordered(frames: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """``frames`` with the matrix's policies in the study's order and its rows and columns
    in the first policy's rank order (strongest first): the heatmap reads best so
    (``to_pdf`` and the report)."""
    armies, matrix = frames["armies"], frames["matrix"]
    # the policies stay in the study's order (the first is its main one), not alphabetical
    policies = {p: i for i, p in enumerate(pd.unique(armies["policy"]))}
    pos = {a: i for i, a in enumerate(by_rank(armies)["army"])}
    out = dict(frames)
    out["matrix"] = (
        matrix.assign(
            _p=matrix["policy"].map(policies),
            _r=matrix["army"].map(pos),
            _c=matrix["opponent"].map(pos),
        )
        .sort_values(["_p", "_r", "_c"], kind="stable")
        .drop(columns=["_p", "_r", "_c"])
    )
    return out


def by_rank(armies: pd.DataFrame, policy: str | None = None) -> pd.DataFrame:
    """The rows of ``armies`` (the study's armies table) of ``policy`` (default: the study's
    first) in rank order, strongest first, ties in the study's order: the order of the
    heatmap's rows and columns (:func:`rank_ordered`) and of the ranking in the summary."""
    if policy is None:
        policy = armies["policy"].iloc[0]
    return armies[armies["policy"] == policy].sort_values("rank", kind="stable")


def incomplete_armies(pairings: Sequence[Pairing], games: dict[int, int]) -> dict[str, list]:
    """Per policy label, the armies in a pairing with fewer games than the study's fullest
    pairing (an interrupted study): their field win rates and ranks rest on unequal
    opponents, so the summary and the PDF mark them; empty lists when every pairing is
    complete."""
    top = max(games.values(), default=0)
    out: dict[str, list] = {}
    for k, p in enumerate(pairings):
        names = out.setdefault(p.label, [])
        if games.get(k, 0) < top:
            names += [n for n in (p.army_a.name, p.army_b.name) if n not in names]
    return {label: sorted(names) for label, names in out.items()}


def build_result(spec: BalanceSpec, t: pd.DataFrame, manifest: dict, *,
                 boot: int = 200) -> BalanceResult:  # fmt: skip
    """The study's tables from ``t``, its tally (``tally.Tally.table``): also the base
    study's of a what-if."""
    names = spec.names
    m = T.matrix(t, names)
    arm, first_terms = T.armies(t, m, names, boot=boot, seed=spec.seed)
    fp = T.first_player(t, names)
    vic = T.victory(t, names)
    vba = T.victory_by_army(t, names)
    # the styles in the order the user gave them (the first is the study's main one)
    rank = {p.label: i for i, p in enumerate(spec.policies)}

    def in_order(df: pd.DataFrame) -> pd.DataFrame:
        key = df["label"].map(rank)
        return df.assign(_p=key).sort_values("_p", kind="stable").drop(columns="_p")

    m, arm, fp, vic, vba = (in_order(x).reset_index(drop=True) for x in (m, arm, fp, vic, vba))
    styles = tau = None
    if len(spec.policies) > 1:
        styles, tau = style_sensitivity(arm)
    rn = {"label": "policy"}
    manifest = dict(manifest)
    manifest["first_player_elo"] = {
        lb: {"estimate": v[0], "low": v[1], "high": v[2]} for lb, v in first_terms.items()
    }
    tables = {
        "matrix": m.rename(columns=rn),
        "armies": arm.rename(columns=rn),
        "first_player": fp.rename(columns=rn),
        "victory": vic.rename(columns=rn),
        "victory_by_army": vba.rename(columns=rn),
        "styles": styles,
        "style_tau": tau,
    }
    return BalanceResult(spec, tables, manifest, counts=t)


def style_sensitivity(arm: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each army's field win rate and rank per style, and Kendall's tau between the styles'
    orderings of the armies (by field win rate)."""
    from scipy.stats import kendalltau

    styles = arm[["label", "army", "field_win_rate", "ci_low", "ci_high", "rank"]].rename(
        columns={"label": "policy"}
    )
    labels = list(pd.unique(styles["policy"]))
    rows = []
    for x in range(len(labels)):
        for y in range(x + 1, len(labels)):
            a = styles[styles["policy"] == labels[x]].set_index("army")["field_win_rate"]
            b = styles[styles["policy"] == labels[y]].set_index("army")["field_win_rate"]
            b = b.reindex(a.index)
            res = kendalltau(a.to_numpy(), b.to_numpy())
            rows.append(
                {
                    "policy_x": labels[x],
                    "policy_y": labels[y],
                    "tau": float(res.statistic),
                    "p_value": float(res.pvalue),
                }
            )
    return styles.reset_index(drop=True), pd.DataFrame(rows)
