"""Maneuver's study pages: the sections (charts and tables) of the variant study, the
handicap ladder, the Capital map and the what-if, laid out from the study's own files or
the library function its command used (the ladder's fitted curve:
:func:`~manoeuvre_sim.hexgame.studies.ladder.fitted_score`)."""

from __future__ import annotations

import json

import pandas as pd

from manoeuvre_sim.analyses.common.chart_style import interval_text as cell_interval
from manoeuvre_sim.analyses.common.chart_style import pct_text
from manoeuvre_sim.analyses.hexgame.capital_fell import fallen_by_turn
from manoeuvre_sim.analyses.hexgame.rows import ALL
from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.web.games.hex import charts as GC
from manoeuvre_sim.web.studies import charts as C
from manoeuvre_sim.web.studies.tables import interval_text
from manoeuvre_sim.web.studies.views import Ctx, Section, View, pick_label, rows_of


def hex_balance_view(ctx: Ctx, wanted: str | None) -> View:
    """Maneuver's variant study: per variant, blue's win rate for each pair of players as a
    heatmap (a cell opens the pairing), and the variants' tables."""
    v = ctx.frame("variants")
    labels = [str(x) for x in pd.unique(v["variant"])]
    label = pick_label(labels, wanted)
    vl = rows_of(v, "variant", label)
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
        charts = [(f"fell-{side}", GC.fallen_lines(C.records(fallen_by_turn(cf, side)),
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
                    [("ladder-chart", GC.ladder(pts, curve, star))],
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
        spec = GC.capital_map(cells, title=f"the {who} player's Capital")
        charts.append((f"capital-{who}", spec))
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


# a pairing's table of games: its columns after the shared ones (web.studies.pages); how a
# game ended is its victory as it is (capital, draw ...)
PAIRING_COLUMNS = ("eliminated_a", "eliminated_b", "capital_hex_a", "capital_hex_b",
                   "capital_fell_turn_a", "capital_fell_turn_b")  # fmt: skip


STUDY_VIEWS = {
    "hex balance": (hex_balance_view, ("variants",)),
    "hex ladder": (hex_ladder_view, ("ladder",)),
    "hex setup": (hex_setup_view, ("capital_hexes",)),
    "hex whatif": (hex_whatif_view, ("whatif",)),
}  # the manifest's "study" -> (its view, the tables it needs)
