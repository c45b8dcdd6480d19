"""Manoeuvre's study pages: the sections (charts and tables) of a balance study, a
card-value study and a what-if, laid out from the study's own files."""

from __future__ import annotations

import pandas as pd

from manoeuvre_sim.analyses.common.chart_style import interval_text as cell_interval
from manoeuvre_sim.analyses.common.chart_style import pct_text
from manoeuvre_sim.analyses.manoeuvre.balance import by_rank, rank_ordered
from manoeuvre_sim.web.games.manoeuvre import charts as GC
from manoeuvre_sim.web.studies import charts as C
from manoeuvre_sim.web.studies.tables import interval_text
from manoeuvre_sim.web.studies.views import Ctx, Section, View, in_order, pick_label, rows_of


def balance_view(ctx: Ctx, wanted: str | None) -> View:
    """A Manoeuvre balance study: the matrix as a heatmap in the PDF's order (the armies by
    rank, :func:`~manoeuvre_sim.analyses.manoeuvre.balance.rank_ordered`; a cell shows its
    rate and interval as the PDF's does and opens its pairing: the row's army in seat a),
    the ratings by rank, the first player's tables, how games end."""
    m = ctx.frame("matrix")
    labels = [str(x) for x in pd.unique(m["policy"])] if "policy" in m else []
    label = pick_label(labels, wanted)
    armies = ctx.frame("armies") if ctx.has("armies") else pd.DataFrame()
    ranked = not armies.empty and {"policy", "rank"} <= set(armies) and "policy" in m
    if ranked:  # the PDF's order: the study's first policy's ranking
        m = rank_ordered({"armies": armies, "matrix": m})["matrix"]
    ml = rows_of(m, "policy", label)
    order = [str(a) for a in pd.unique(ml["army"])]
    order += [str(a) for a in pd.unique(ml["opponent"]) if str(a) not in order]
    cells = []
    for r in ml.to_dict("records"):
        lo, hi = r.get("ci_low"), r.get("ci_high")
        mirror = r["army"] == r["opponent"]
        cell = {
            "army": str(r["army"]), "opponent": str(r["opponent"]), "mirror": bool(mirror),
            "rate": C.clean(r["win_rate"]), "ci_low": C.clean(lo), "ci_high": C.clean(hi),
            "games": C.clean(r["games"]),
            "interval": "mirror: 1/2 by construction" if mirror else interval_text(lo, hi),
            # the cell's words as the PDF's heatmap writes them (pairing_heatmap.py)
            "text": pct_text(r["win_rate"]), "sub": cell_interval(lo, hi),
            "href": ctx.href(label, army_a=r["army"], army_b=r["opponent"]),
        }  # fmt: skip
        if mirror and "win_rate_first" in r:  # the first mover's rate, as the PDF shows it
            f_lo, f_hi = r.get("ci_low_first"), r.get("ci_high_first")
            first = C.clean(r["win_rate_first"])
            said = "" if first is None else f"; the first mover won {100 * first:.1f}%"
            cell |= {"text": f"1st {pct_text(r['win_rate_first'])}",
                     "sub": cell_interval(f_lo, f_hi),
                     "interval": f"{cell['interval']}{said} {interval_text(f_lo, f_hi)}"}  # fmt: skip
        cells.append(cell)
    spec = C.heatmap(cells, row="army", col="opponent", row_title="army",
                     col_title="opponent", order=order)  # fmt: skip
    terms = {"win rate", "95% interval", "mirror"}
    secs = [
        Section(
            "matrix",
            "Balance matrix",
            (
                "Each army's (row) win rate against each opponent (column) in per cent, both "
                "seats pooled, draws counting half, its 95% interval beneath; on the diagonal "
                "(an army against itself, 1/2 by construction) the first mover's rate. Armies "
                "in rank order, strongest first"
                + (f" (as {labels[0]} ranks them)" if ranked and len(labels) > 1 else "")
                + ". Hover a cell for its games; click it for the pairing (the row's army in "
                "seat a)."
            ),
            [("heatmap", spec)],
            [ctx.table("matrix", "Matrix (every cell, by seat and by who moved first)", ml)],
        )
    ]
    if ctx.has("armies"):
        ranks = by_rank(armies, label) if ranked else rows_of(armies, "policy", label)
        secs.append(
            Section(
                "ratings",
                "Ratings",
                "The armies by rank: win rate against the field, "
                "Bradley-Terry rating (Elo scale) and rank, each with its interval.",
                tables=[
                    ctx.table(
                        "armies", "Armies", ranks, sorted_by=("rank", "asc") if ranked else None
                    )
                ],  # fmt: skip
            )
        )
    if ctx.has("first_player"):
        fp = in_order(rows_of(ctx.frame("first_player"), "policy", label), "army", order)
        secs.append(
            Section(
                "first",
                "First player",
                "Each army's win rate when it moved "
                "first and second, and the difference (its first-player advantage).",
                tables=[ctx.table("first_player", "First player", fp)],
            )
        )
    vic_tables = []
    if ctx.has("victory"):
        v = rows_of(ctx.frame("victory"), "policy", label)
        hrefs = [ctx.href(label, army_a=a, army_b=b) for a, b in zip(v["army_a"], v["army_b"],
                                                                     strict=True)]  # fmt: skip
        vic_tables.append(ctx.table("victory", "By ordered pairing (click for its games)", v,
                                    hrefs=hrefs, link="army_b"))  # fmt: skip
    if ctx.has("victory_by_army"):
        vba = in_order(rows_of(ctx.frame("victory_by_army"), "policy", label), "army", order)
        vic_tables.append(ctx.table("victory_by_army", "By army", vba))
    if vic_tables:
        secs.append(Section("endings", "How games end", "Attrition, nightfall (and which "
                            "rule 2.2 tie-break decided it), draws, the turn limit, game length.",
                            tables=vic_tables))  # fmt: skip
    return View(secs, labels, label, terms=terms)


def cards_view(ctx: Ctx, wanted: str | None) -> View:
    """A card-value study: the cards' table and observed improvement against ablation."""
    cards = ctx.frame("cards")
    # the PDF's observed measure (IWD), else the next one the study could measure (each
    # needs MIN_GROUP games on both sides of its comparison), else the win rate when drawn
    observed = next((c for c in ("iwd", "piw", "oiwd", "drawn_win_rate")
                     if c in cards and cards[c].notna().any()), None)  # fmt: skip
    secs, terms = [], set()
    if observed and "value" in cards:
        pts = C.records(cards, ["card", "kind", observed, "value", "games"])
        for p, lo, hi in zip(pts, cards.get("value_low", []), cards.get("value_high", []),
                             strict=False):  # fmt: skip
            p["value_interval"] = interval_text(lo, hi)
        titles = {"iwd": "observed: when drawn − never drawn (IWD)",
                  "piw": "observed: when played − not (PIW)",
                  "oiwd": "observed: in the opening hand − not (OIWD)",
                  "drawn_win_rate": "observed: win rate when drawn (too few games for IWD)",
                  }  # fmt: skip
        spec = GC.card_scatter(pts, observed=observed, observed_title=titles[observed])
        secs.append(Section("observed", "Observed against ablation", (
            "Each card's observed improvement (x) against its ablation value: the win rate "
            "the army loses when the card is blanked (y). Type a name to find a card."),
            [("cards-chart", spec)]))  # fmt: skip
        terms.add("ablation value")
    secs.append(
        Section(
            "cards",
            "Card values",
            "Every card, sortable; each rate with its 95% interval and games.",
            tables=[ctx.table("cards", "Cards")],
        )
    )
    if ctx.has("card_copies"):
        secs[-1].tables.append(ctx.table("card_copies", "Each copy"))
    return View(secs, terms=terms)


def whatif_view(ctx: Ctx, wanted: str | None) -> View:
    """A Manoeuvre what-if: each pairing's and each army's change, with intervals."""
    w = ctx.frame("whatif")
    rows = C.records(w, ["army", "opponent", "delta", "delta_low", "delta_high", "games"])
    for r in rows:
        r["pair"] = f"{r['army']} v {r['opponent']}"
    spec = C.interval_bars(rows, label="pair", value="delta", low="delta_low",
                           high="delta_high", title="change in win rate (variant − base)",
                           label_title="army v opponent")  # fmt: skip
    secs = [
        Section(
            "deltas",
            "What-if deltas",
            "The variant's win rate minus the base's, on "
            "the same seeds (common random numbers), with its 95% paired interval.",
            [("whatif-chart", spec)],
            [ctx.table("whatif", "By pairing")],
        )
    ]
    if ctx.has("whatif_field"):
        secs[0].tables.append(ctx.table("whatif_field", "Against the field, and ratings"))
    return View(secs)


# a pairing's table of games: its columns after the shared ones (web.studies.pages)
PAIRING_COLUMNS = ("vp_a", "vp_b", "eliminated_a", "eliminated_b")


def ended_by(rec: dict) -> str:
    """How a game ended in words, from its record's ``victory``, ``tiebreak`` and
    ``turn_limit``: ``attrition``, ``nightfall, on squares`` (rule 2.2's tie-break that
    decided it), ``the turn limit, ...``."""
    how = str(rec["victory"])
    if bool(rec.get("turn_limit", False)):
        how = "the turn limit"
    tb = str(rec.get("tiebreak") or "")
    if tb and tb != "nan":
        how += f", on {tb}" if tb != "none" else ", tied"
    return how


STUDY_VIEWS = {
    "balance": (balance_view, ("matrix",)),
    "cards": (cards_view, ("cards",)),
    "whatif": (whatif_view, ("whatif",)),
}  # the manifest's "study" -> (its view, the tables it needs)
