"""Manoeuvre's what-if read back: its summary and PDF (``WHATIF_PAGES`` of the adapter: the
study itself, its spec, run and tables, is ``studies/whatif.py``), and the rankings before
and after the change from a what-if's store (the workbench's what-if page).

Python API::

    from manoeuvre_sim.studies import whatif
    res = whatif.run("manoeuvre", ["France", "Russia", "Spain"],
                     edits=["France/Garde Imperial/full=9"], games_per_pairing=500, seed=1)
    res.whatif         # one row per (changed army, opponent), plus its "field" row
    res.field          # per changed army: field win rate and rating, base vs variant

    from manoeuvre_sim.analyses.manoeuvre.whatif import rankings
    rankings("reports/whatif")   # every army's rank and rating, before and after
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from manoeuvre_sim.analyses.manoeuvre import tally as T
from manoeuvre_sim.analyses.manoeuvre.balance_text import provenance, study_notes
from manoeuvre_sim.studies.whatif import BASE, VARIANT
from manoeuvre_sim.studies.whatif_base import base_line


def write_pages(res, out_dir: Path, paper: str = "a4") -> list[Path]:
    """``whatif.pdf``: the changes of each pairing and of the field, with the summary."""
    from manoeuvre_sim.analyses.manoeuvre.balance_pdf import write_whatif_pdf

    path = write_whatif_pdf(
        Path(out_dir) / "whatif.pdf", res.whatif, provenance(res.manifest), paper=paper,
        changes=res.spec.changes, summary_lines=summary_lines(res),
    )  # fmt: skip
    return [path]


def summary_lines(res) -> list[str]:
    """The summary (``summary.txt``, the PDF's first page) of a Manoeuvre what-if
    (``studies.whatif.WhatIfResult``)."""
    m = res.manifest
    out = [
        f"what-if: {len(res.spec.sides)} armies, {m['games']:,} games "
        f"({res.spec.games_per_pairing:,} per ordered pairing, base and variant on the "
        f"same seeds), seed {m['seed']}, rules {m['rules_version']}, base data "
        f"{m['data_hash']}"
    ]
    out += study_notes(m, res.interrupted, covered="paired games")
    if m.get("base_study"):  # its base games read from a balance study, not played again
        out.append(base_line(m["base_study"]))
    out.append("changes:")
    out += [f"  {c}" for c in res.spec.changes]
    if res.identical:
        out.append(
            "the variant's data are identical to the base data: every change below is "
            "exactly 0 (the paired games replay the base games)"
        )
    out.append("")
    out.append("change in win rate (variant minus base, points; paired 95 % interval):")
    for r in res.whatif.itertuples(index=False):
        out.append(
            f"  {r.army:<16} vs {r.opponent:<16} {100 * r.base_win_rate:5.1f} -> "
            f"{100 * r.variant_win_rate:5.1f}  {100 * r.delta:+6.2f} "
            f"[{100 * r.delta_low:+.2f}, {100 * r.delta_high:+.2f}]  outcome changed in "
            f"{100 * r.changed_games:.1f} % of {r.games:,} games"
        )
    for r in res.field.itertuples(index=False):
        out.append(
            f"{r.army}: rating {r.base_rating:.0f} -> {r.variant_rating:.0f} Elo "
            f"({r.rating_delta:+.1f} [{r.rating_delta_low:+.1f}, {r.rating_delta_high:+.1f}]), "
            f"rank {r.base_rank} -> {r.variant_rank}"
        )
    return out


def rankings(study_dir: str | Path, *, boot: int = 200) -> pd.DataFrame:
    """Every army's rank, Bradley-Terry rating and field win rate before the change and
    after it, each with its interval (``tally.armies``, as a balance study ranks them),
    read from a what-if study's store: before, the base's games; after, the same games
    with each one the variant replayed taken from the variant (the pairings no changed army
    plays are the same games in both). Only paired games count (an interrupted study may
    hold a base game whose variant was not played). One row per army, in the order of its
    rank after the change; columns ``army``, then ``rank``, ``rank_low``, ``rank_high``,
    ``rating``, ``rating_low``, ``rating_high``, ``field_win_rate``, ``ci_low``,
    ``ci_high`` and ``games``, each prefixed ``before_`` and ``after_``. Empty when the
    store holds no paired games."""
    import json

    from manoeuvre_sim.core.store import STORE, read_store

    study_dir = Path(study_dir)
    games = read_store(study_dir / STORE)
    if games.empty or "label" not in games:
        return pd.DataFrame()
    m = json.loads((study_dir / "manifest.json").read_text(encoding="utf-8"))
    order = [a["name"] if isinstance(a, dict) else str(a) for a in m.get("armies", [])]
    key = ["army_a", "army_b", "game"]
    base = games[games["label"] == BASE]
    variant = games[games["label"] == VARIANT]
    mark = base[key].merge(variant[key], on=key, how="left", indicator=True)["_merge"]
    replayed = mark.eq("both").to_numpy()
    touched = set(m.get("variant", {}).get("touched", []))
    plays = (base["army_a"].isin(touched) | base["army_b"].isin(touched)).to_numpy()
    counted = replayed | ~plays  # a touched pairing's base game counts once replayed
    kept, same = base[counted], base[~plays]
    if kept.empty:
        return pd.DataFrame()
    paired = variant.merge(kept[key], on=key)
    before, after = T.Tally(), T.Tally()
    before.add(kept.assign(label="before"))
    after.add(pd.concat([same, paired], ignore_index=True).assign(label="after"))
    t = pd.concat([before.table, after.table], ignore_index=True)
    table, _ = T.armies(t, T.matrix(t, order), order, boot=boot, seed=int(m.get("seed", 0)))
    cols = ["army", "games", "rank", "rank_low", "rank_high", "rating", "rating_low",
            "rating_high", "field_win_rate", "ci_low", "ci_high"]  # fmt: skip
    out = None
    for when in ("before", "after"):
        part = table.loc[table["label"] == when, cols].set_index("army").add_prefix(f"{when}_")
        out = part if out is None else out.join(part)
    out = out.reset_index().sort_values(["after_rank", "army"], kind="stable")
    return out.reset_index(drop=True)
