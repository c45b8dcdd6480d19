"""What a study's page shows, by its kind: the sections (charts and tables) of a balance
study, a card-value study, a what-if (both games), Maneuver's variant study, handicap ladder
and Capital map, and any other study's tables as they are.

Every number comes from the study's own files (its CSV tables, ``fit.json``) or from the
library function its command used (the ladder's fitted curve:
:func:`~manoeuvre_sim.hexgame.studies.ladder.fitted_score`); this module only lays them
out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pandas as pd

from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.analyses.common.chart_style import interval_text as cell_interval
from manoeuvre_sim.analyses.common.chart_style import pct_text
from manoeuvre_sim.analyses.hexgame.balance import ALL
from manoeuvre_sim.analyses.hexgame.capital_fell import fallen_by_turn
from manoeuvre_sim.analyses.manoeuvre.balance import by_rank, rank_ordered
from manoeuvre_sim.core.errors import DataError, UsageError, did_you_mean
from manoeuvre_sim.web import study_charts as C
from manoeuvre_sim.web.study_tables import TableView, interval_text, table_view


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    charts: list[tuple[str, dict]] = field(default_factory=list)  # (element id, spec)
    tables: list[TableView] = field(default_factory=list)


@dataclass
class View:
    """A study page's content: its sections, the labels (policies, variants) it can show
    and the one shown."""

    sections: list[Section]
    labels: list[str] = field(default_factory=list)
    label: str | None = None
    shown: set[str] = field(default_factory=set)  # the tables drawn (the rest: "other")
    terms: set[str] = field(default_factory=set)  # the definitions its charts use

    def tables(self) -> list[TableView]:
        return [t for s in self.sections for t in s.tables]


def pairing_href(rel: str, pairing: int, label: str | None, many: bool) -> str:
    q = {"dir": rel, "pairing": int(pairing)}
    if many and label is not None:
        q["label"] = label
    return "/study/pairing?" + urlencode(q)


class Ctx:
    """One study directory being laid out: its tables read once, its pairings' index."""

    def __init__(self, path: Path, rel: str, names: list[str]):
        self.path, self.rel, self.names = path, rel, names
        self._frames: dict[str, pd.DataFrame] = {}
        self._index: pd.DataFrame | None = None
        self.shown: set[str] = set()

    def has(self, *names: str) -> bool:
        return all(n in self.names for n in names)

    def frame(self, name: str) -> pd.DataFrame:
        if name not in self._frames:
            self._frames[name] = SF.read_table(self.path, name)
        return self._frames[name]

    def table(self, name: str, title: str, df: pd.DataFrame | None = None, **kw) -> TableView:
        self.shown.add(name)
        return table_view(self.frame(name) if df is None else df, name, title, **kw)

    @property
    def index(self) -> pd.DataFrame:
        if self._index is None:
            self._index = SF.pairing_index(self.path)
        return self._index

    def pairing_of(self, label: str, **sides) -> int | None:
        ix = self.index
        if ix.empty:
            return None
        hit = ix["label"].astype(str) == str(label)
        for col, value in sides.items():
            if col not in ix:
                return None
            hit &= ix[col].astype(str) == str(value)
        rows = ix[hit]
        return int(rows["pairing"].iloc[0]) if len(rows) else None

    def href(self, label: str, **sides) -> str | None:
        p = self.pairing_of(label, **sides)
        many = self.index["label"].nunique() > 1 if not self.index.empty else False
        return None if p is None else pairing_href(self.rel, p, label, many)


def _pick(labels: list[str], wanted: str | None) -> str | None:
    """The label (policy, variant) to show: ``wanted``, checked, or the study's first."""
    if wanted is None:
        return labels[0] if labels else None
    if wanted not in labels:
        listed = ", ".join(repr(x) for x in labels)
        raise UsageError(f"--label: {wanted!r} is not one of {listed}"
                         f"{did_you_mean(wanted, labels)}")  # fmt: skip
    return wanted


def _of(df: pd.DataFrame, col: str, label: str | None) -> pd.DataFrame:
    return df[df[col].astype(str) == str(label)] if col in df and label is not None else df


def _in_order(df: pd.DataFrame, col: str, order: list[str]) -> pd.DataFrame:
    """``df``'s rows with ``col`` in ``order`` (the heatmap's), the others (a pooled row:
    ``all games``) first, as they were."""
    if col not in df:
        return df
    pos = {a: i for i, a in enumerate(order)}
    key = df[col].astype(str).map(pos).fillna(-1)
    return df.assign(_k=key).sort_values("_k", kind="stable").drop(columns="_k")


# ------------------------------------------------------------------------------ Manoeuvre


def balance_view(ctx: Ctx, wanted: str | None) -> View:
    """A Manoeuvre balance study: the matrix as a heatmap in the PDF's order (the armies by
    rank, :func:`~manoeuvre_sim.analyses.manoeuvre.balance.rank_ordered`; a cell shows its
    rate and interval as the PDF's does and opens its pairing: the row's army in seat a),
    the ratings by rank, the first player's tables, how games end."""
    m = ctx.frame("matrix")
    labels = [str(x) for x in pd.unique(m["policy"])] if "policy" in m else []
    label = _pick(labels, wanted)
    armies = ctx.frame("armies") if ctx.has("armies") else pd.DataFrame()
    ranked = not armies.empty and {"policy", "rank"} <= set(armies) and "policy" in m
    if ranked:  # the PDF's order: the study's first policy's ranking
        m = rank_ordered({"armies": armies, "matrix": m})["matrix"]
    ml = _of(m, "policy", label)
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
        ranks = by_rank(armies, label) if ranked else _of(armies, "policy", label)
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
        fp = _in_order(_of(ctx.frame("first_player"), "policy", label), "army", order)
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
        v = _of(ctx.frame("victory"), "policy", label)
        hrefs = [ctx.href(label, army_a=a, army_b=b) for a, b in zip(v["army_a"], v["army_b"],
                                                                     strict=True)]  # fmt: skip
        vic_tables.append(ctx.table("victory", "By ordered pairing (click for its games)", v,
                                    hrefs=hrefs, link="army_b"))  # fmt: skip
    if ctx.has("victory_by_army"):
        vba = _in_order(_of(ctx.frame("victory_by_army"), "policy", label), "army", order)
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
        spec = C.card_scatter(pts, observed=observed, observed_title=titles[observed])
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


# ------------------------------------------------------------------------------- Maneuver


def hex_balance_view(ctx: Ctx, wanted: str | None) -> View:
    """Maneuver's variant study: per variant, blue's win rate for each pair of players as a
    heatmap (a cell opens the pairing), and the variants' tables."""
    v = ctx.frame("variants")
    labels = [str(x) for x in pd.unique(v["variant"])]
    label = _pick(labels, wanted)
    vl = _of(v, "variant", label)
    vl = vl[(vl["policy_blue"].astype(str) != ALL) & (vl["policy_red"].astype(str) != ALL)]
    order = sorted({*map(str, vl["policy_blue"]), *map(str, vl["policy_red"])})
    cells = []
    for r in vl.to_dict("records"):
        lo, hi = r.get("blue_win_rate_ci_low"), r.get("blue_win_rate_ci_high")
        cells.append({
            "blue": str(r["policy_blue"]), "red": str(r["policy_red"]),
            "rate": C.clean(r["blue_win_rate"]), "ci_low": C.clean(lo), "ci_high": C.clean(hi),
            "games": C.clean(r["games"]), "interval": interval_text(lo, hi),
            "text": pct_text(r["blue_win_rate"]), "sub": cell_interval(lo, hi),
            "href": ctx.href(label, policy_a=r["policy_blue"], policy_b=r["policy_red"]),
        })  # fmt: skip
    spec = C.heatmap(cells, row="blue", col="red", row_title="blue's player",
                     col_title="red's player", order=order, what="blue's win rate")  # fmt: skip
    secs = [Section("matrix", f"Variant {label}", "Blue's win rate (its wins' share of the "
                    "games; draws apart, as the variant table counts them) for each pair of "
                    "players in per cent, its 95% interval beneath. Hover for the games; click for the "
                    "pairing.",
                    [("heatmap", spec)]),
            Section("variants", "Variants", "Every variant and pair of players: first, "
                    "second, blue and red win rates and draws, with intervals.",
                    tables=[ctx.table("variants", "Variants")])]  # fmt: skip
    if ctx.has("endings"):
        secs[1].tables.append(ctx.table("endings", "How games end"))
    if ctx.has("capital_fell"):  # as the PDF's page: a line per variant, the table collapsed
        cf = ctx.frame("capital_fell")
        charts = [(f"fell-{side}", C.fallen_lines(C.records(fallen_by_turn(cf, side)),
                                                  capital=side, current=label))
                  for side in ("blue", "red") if (cf["capital"] == side).any()]  # fmt: skip
        secs.append(Section("fell", "When the Capital fell", "The share of games in which "
                            "each side's Capital had fallen (first captured, rule [11]) by the "
                            "end of each turn, a line per variant (this one thicker), all "
                            "pairings pooled. The table has the counts per turn, variant and "
                            "pairing.", charts,
                            [ctx.table("capital_fell", "When the Capital fell, turn by turn",
                                       collapsed=True)]))  # fmt: skip
    return View(secs, labels, label)


def hex_ladder_view(ctx: Ctx, wanted: str | None) -> View:
    """The handicap ladder: each rung's score with its interval and the fitted curve."""
    from manoeuvre_sim.hexgame.studies.ladder import fitted_score

    lad = ctx.frame("ladder")
    try:
        fit = json.loads((ctx.path / "fit.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DataError(f"fit.json: not readable JSON ({e})") from None
    pts = C.records(lad, ["k", "score", "score_ci_low", "score_ci_high", "games"])
    for p in pts:
        p["interval"] = interval_text(p["score_ci_low"], p["score_ci_high"])
    top = float(lad["k"].max()) if len(lad) else 0.0
    ks = [top * i / 60 for i in range(61)]
    curve = [{"k": k, "score": C.clean(s)} for k, s in zip(ks, fitted_score(fit, ks),
                                                           strict=True)]  # fmt: skip
    star = None
    if fit.get("k_star") is not None and fit.get("k_star_ci_low") is not None:
        star = {"low": fit["k_star_ci_low"], "high": fit["k_star_ci_high"]}
    if fit.get("k_star") is not None:
        ci = interval_text(fit.get("k_star_ci_low"), fit.get("k_star_ci_high"), False)
        k_text = f"even point k* = {fit['k_star']:.2f} {ci}"
    else:
        k_text = str(fit.get("note") or "no even point")
    secs = [Section("ladder", "Handicap ladder", f"The favoured side ({fit.get('favoured', '?')}"
                    f") weakened by k units: its score on each rung, the fitted curve; {k_text}.",
                    [("ladder-chart", C.ladder(pts, curve, star))],
                    [ctx.table("ladder", "Rungs")])]  # fmt: skip
    return View(secs)


def hex_setup_view(ctx: Ctx, wanted: str | None) -> View:
    """The Capital map: where each player's Capital stood, and the first player's win rate
    there."""
    from manoeuvre_sim.analyses.hexgame.replay_pdf import hex_centre

    t = ctx.frame("capital_hexes")
    charts = []
    for who in [str(x) for x in pd.unique(t["capital"])]:
        cells = []
        for r in t[t["capital"] == who].to_dict("records"):
            h = str(r["hex"]).zfill(4)
            x, y = hex_centre(int(h[:2]) - 1, int(h[2:]) - 1)
            cells.append({
                "hex": h, "x": x, "y": y, "games": C.clean(r["games"]),
                "share": C.clean(r["share"]), "first_win_rate": C.clean(r["first_win_rate"]),
                "interval": interval_text(r["first_win_rate_ci_low"], r["first_win_rate_ci_high"]),
                "few_games": bool(r.get("few_games", False)),
            })  # fmt: skip
        charts.append((f"capital-{who}", C.capital_map(cells, title=f"the {who} player's Capital")))
    secs = [Section("capital", "Where the Capital stood", "Each legal hex coloured by the share "
                    "of games the Capital stood there (faint: too few games to say). Hover for "
                    "the first player's win rate there.", charts,
                    [ctx.table("capital_hexes", "Capital hexes")])]  # fmt: skip
    return View(secs)


def hex_whatif_view(ctx: Ctx, wanted: str | None) -> View:
    """A Maneuver what-if: each pair of players' change in blue's win rate."""
    w = ctx.frame("whatif")
    rows = C.records(w, ["policy_blue", "policy_red", "blue_win_change",
                         "blue_win_change_ci_low", "blue_win_change_ci_high"])  # fmt: skip
    for r in rows:
        r["pair"] = f"{r['policy_blue']} v {r['policy_red']}"
    spec = C.interval_bars(rows, label="pair", value="blue_win_change",
                           low="blue_win_change_ci_low", high="blue_win_change_ci_high",
                           title="change in blue's win rate (variant − base)",
                           label_title="blue v red players")  # fmt: skip
    secs = [
        Section(
            "deltas",
            "What-if deltas",
            "The variant scenario's rates minus the "
            "base's on the same seeds, with 95% paired intervals.",
            [("whatif-chart", spec)],
            [ctx.table("whatif", "By pair of players")],
        )
    ]
    return View(secs)


VIEWS = {
    ("manoeuvre", "balance"): (balance_view, ("matrix",)),
    ("manoeuvre", "cards"): (cards_view, ("cards",)),
    ("manoeuvre", "whatif"): (whatif_view, ("whatif",)),
    ("hex", "hex balance"): (hex_balance_view, ("variants",)),
    ("hex", "hex ladder"): (hex_ladder_view, ("ladder",)),
    ("hex", "hex setup"): (hex_setup_view, ("capital_hexes",)),
    ("hex", "hex whatif"): (hex_whatif_view, ("whatif",)),
}


def study_view(info: SF.StudyInfo, wanted_label: str | None) -> View:
    """The page's content for the study ``info`` (its kind's view when the directory holds
    the tables it needs), then every other table of the directory as it is."""
    ctx = Ctx(info.path, info.rel, SF.tables(info.path))
    fn, needs = VIEWS.get((info.game, info.kind), (None, ()))
    view = fn(ctx, wanted_label) if fn is not None and ctx.has(*needs) else View([])
    rest = [n for n in ctx.names if n not in ctx.shown]
    if rest:
        view.sections.append(Section("tables", "Tables" if not view.sections else "Other tables",
                                     tables=[ctx.table(n, n) for n in rest]))  # fmt: skip
    view.shown = ctx.shown
    return view
