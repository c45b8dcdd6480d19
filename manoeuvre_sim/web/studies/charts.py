"""The study pages' Vega-Lite specs, built from the study's own tables (nothing computed
here but the layout: every rate, interval and fitted value is the study's or the library's).

Each spec is a plain dict for ``vega-embed``; ``static/studies.js`` embeds every
``<script type="application/json" class="vega-spec">`` of a page, and a mark whose datum
has an ``href`` navigates there when clicked (the heatmap's cells open their pairing).
"""

from __future__ import annotations

import json
import math

import pandas as pd

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
RATE_SCALE = {"domain": [0, 0.5, 1], "range": ["#b2182b", "#f7f7f7", "#2166ac"]}


def clean(value):
    """A table value as JSON takes it: NaN and infinities as null, numpy scalars as
    Python's."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def records(df: pd.DataFrame, columns=None) -> list[dict]:
    """``df``'s rows (``columns`` of them) as JSON-ready dicts."""
    cols = [c for c in (columns or df.columns) if c in df.columns]
    return [{c: clean(v) for c, v in zip(cols, row, strict=True)} for row in df[cols].itertuples(
        index=False, name=None)]  # fmt: skip


def _pct(field: str, title: str) -> dict:
    return {"field": field, "type": "quantitative", "title": title, "format": ".1%"}


def heatmap(
    cells: list[dict],
    *,
    row: str,
    col: str,
    row_title: str,
    col_title: str,
    order: list[str],
    col_order: list[str] | None = None,
    what: str = "win rate",
) -> dict:
    """A win-rate matrix as the PDF draws it: one cell per (``row``, ``col``), coloured by
    ``rate`` (0 red, 1/2 white, 1 blue; a mirror grey), its ``text`` written large and its
    ``sub`` (the interval) small beneath; hovering shows the rate, its 95 % interval and
    the games; a cell with an ``href`` opens it when clicked.

    ``cells``: dicts with ``row``/``col`` keys named as given, ``rate``, ``ci_low``,
    ``ci_high``, ``games``, ``interval`` (the interval in words), ``text`` and ``sub`` (the
    cell's words), ``mirror`` (optional) and ``href``.
    """  # fmt: skip
    n_rows, n_cols = len(order), len(col_order or order)
    size = max(40, min(70, 560 // max(n_rows, n_cols, 1)))
    x = {
        "field": col,
        "type": "nominal",
        "title": col_title,
        "sort": col_order or order,
        "axis": {"labelAngle": -35, "labelLimit": 160},
    }
    y = {"field": row, "type": "nominal", "title": row_title, "sort": order,
         "axis": {"labelLimit": 180}}  # fmt: skip
    tooltip = [
        {"field": row, "type": "nominal", "title": row_title},
        {"field": col, "type": "nominal", "title": col_title},
        _pct("rate", what),
        {"field": "interval", "type": "nominal", "title": "95% interval"},
        {"field": "games", "type": "quantitative", "title": "games", "format": ","},
    ]
    ink = {"condition": {"test": "!datum.mirror && abs(datum.rate - 0.5) > 0.3",
                         "value": "#fff"}, "value": "#222"}  # fmt: skip
    return {
        "$schema": SCHEMA,
        "width": size * n_cols,
        "height": size * n_rows,
        "data": {"values": cells},
        "encoding": {"x": x, "y": y},
        "layer": [
            {
                "mark": {"type": "rect", "cursor": "pointer", "stroke": "#fff"},
                "encoding": {
                    "color": {"condition": {"test": "datum.mirror", "value": "#e8e8e8"},
                              "field": "rate", "type": "quantitative", "title": what,
                              "scale": RATE_SCALE, "legend": {"format": ".0%"}},
                    "tooltip": tooltip,
                },
            },
            {
                "mark": {"type": "text", "fontSize": 13, "fontWeight": "bold", "dy": -7,
                         "cursor": "pointer"},
                "encoding": {"text": {"field": "text"}, "color": ink, "tooltip": tooltip},
            },
            {
                "mark": {"type": "text", "fontSize": 9, "dy": 9, "cursor": "pointer"},
                "encoding": {"text": {"field": "sub"}, "color": ink, "tooltip": tooltip},
            },
        ],
        "config": {"view": {"stroke": None}},
    }  # fmt: skip


def card_scatter(cards: list[dict], *, observed: str, observed_title: str) -> dict:
    """Each card's observed improvement (x) against its ablation value (y), both with their
    intervals in the tooltip; a text box finds any card by name (the matching points stay
    solid and are named, the rest fade)."""
    find = "find && indexof(lower(datum.card), lower(find)) >= 0"
    tooltip = [
        {"field": "card", "type": "nominal", "title": "card"},
        {"field": "kind", "type": "nominal", "title": "kind"},
        _pct(observed, observed_title),
        _pct("value", "ablation value"),
        {"field": "value_interval", "type": "nominal", "title": "value, 95% interval"},
        {"field": "games", "type": "quantitative", "title": "games"},
    ]
    base = {
        "x": {"field": observed, "type": "quantitative", "title": observed_title,
              "axis": {"format": ".2~%"}, "scale": {"zero": False, "nice": True}},
        "y": {"field": "value", "type": "quantitative",
              "title": "ablation: win rate lost without the card", "axis": {"format": ".2~%"}},
    }  # fmt: skip
    return {
        "$schema": SCHEMA,
        "width": 640,
        "height": 400,
        "params": [{"name": "find", "value": "",
                    "bind": {"input": "search", "name": "find a card ",
                             "placeholder": "name, e.g. Garde"}}],
        "data": {"values": cards},
        "encoding": base,
        "layer": [
            {
                "mark": {"type": "point", "filled": True, "size": 60},
                "encoding": {
                    "shape": {"field": "kind", "type": "nominal"},
                    "color": {"field": "kind", "type": "nominal"},
                    "opacity": {"condition": {"test": f"!find || ({find})", "value": 0.9},
                                "value": 0.12},
                    "tooltip": tooltip,
                },
            },
            {
                "transform": [{"filter": find}],
                "mark": {"type": "text", "align": "left", "dx": 7, "fontSize": 11},
                "encoding": {"text": {"field": "card"}},
            },
            {"mark": {"type": "rule", "color": "#999", "strokeDash": [3, 3]},
             "encoding": {"y": {"datum": 0}, "x": None}},
        ],
    }  # fmt: skip


def delta_axis(rows: list[dict], low: str, high: str) -> tuple[dict, dict]:
    """The x axis and scale of a what-if's changes, in signed percent, whose tick labels
    never read alike: the ticks are given (``values``), a step of 1, 2 or 5 x 10^k about a
    sixth of the range, and printed with as many decimals as the step needs (a 0.5 % step:
    one), over a domain from the first tick to the last. (A format of ``+.0%`` on Vega's
    own half-percent ticks read "-5% -5%".)"""
    values = [v for r in rows for v in (r.get(low), r.get(high)) if v is not None] + [0.0]
    lo, hi = min(values), max(values)
    raw = (hi - lo) / 6 if hi > lo else 0.01
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * (1 - 1e-9))
    first = math.floor(lo / step + 1e-9) if hi > lo else -1
    last = math.ceil(hi / step - 1e-9) if hi > lo else 1
    ticks = [round(k * step, 12) + 0.0 for k in range(first, last + 1)]
    decimals = max(0, -math.floor(math.log10(100 * step) + 1e-9))
    return ({"format": f"+.{decimals}%", "values": ticks},
            {"domain": [ticks[0], ticks[-1]], "nice": False})  # fmt: skip


def interval_bars(
    rows: list[dict], *, label: str, value: str, low: str, high: str, title: str, label_title: str
) -> dict:
    """One point and its 95 % interval per row (a what-if's deltas), a rule at 0."""
    enc_y = {
        "field": label,
        "type": "nominal",
        "title": label_title,
        "sort": None,
        "axis": {"labelLimit": 220},
    }
    axis, scale = delta_axis(rows, low, high)
    tooltip = [
        {"field": label, "type": "nominal", "title": label_title},
        _pct(value, title),
        _pct(low, "95% low"),
        _pct(high, "95% high"),
    ]
    return {
        "$schema": SCHEMA,
        "width": 520,
        "height": {"step": 24},
        "data": {"values": rows},
        "encoding": {"y": enc_y},
        "layer": [
            {"mark": {"type": "rule", "strokeWidth": 2},
             "encoding": {"x": {"field": low, "type": "quantitative", "title": title,
                                "axis": axis, "scale": scale},
                          "x2": {"field": high}, "tooltip": tooltip}},
            {"mark": {"type": "point", "filled": True, "size": 70},
             "encoding": {"x": {"field": value, "type": "quantitative"}, "tooltip": tooltip}},
            {"mark": {"type": "rule", "color": "#999", "strokeDash": [3, 3]},
             "encoding": {"x": {"datum": 0}}},
        ],
    }  # fmt: skip


def ladder(points: list[dict], curve: list[dict], k_star: dict | None) -> dict:
    """The handicap ladder: the favoured side's score on each rung k with its interval, the
    fitted curve, and the even point k* (with its interval) when the fit found one."""
    x = {"field": "k", "type": "quantitative", "title": "k: units weakened (rung)"}
    y_title = "favoured side's score (win 1, draw 1/2)"
    layers = [
        {"data": {"values": curve}, "mark": {"type": "line", "color": "#23518c"},
         "encoding": {"x": x, "y": {"field": "score", "type": "quantitative", "title": y_title,
                                    "scale": {"domain": [0, 1]}, "axis": {"format": ".0%"}}}},
        {"data": {"values": points}, "mark": {"type": "rule"},
         "encoding": {"x": x, "y": {"field": "score_ci_low", "type": "quantitative"},
                      "y2": {"field": "score_ci_high"}}},
        {"data": {"values": points}, "mark": {"type": "point", "filled": True, "size": 70},
         "encoding": {"x": x, "y": {"field": "score", "type": "quantitative"},
                      "tooltip": [{"field": "k", "title": "k"}, _pct("score", "score"),
                                  {"field": "interval", "title": "95% interval"},
                                  {"field": "games", "title": "games"}]}},
        {"data": {"values": [{"y": 0.5}]}, "mark": {"type": "rule", "strokeDash": [3, 3],
                                                    "color": "#999"},
         "encoding": {"y": {"field": "y", "type": "quantitative"}}},
    ]  # fmt: skip
    if k_star:
        layers.append({"data": {"values": [k_star]}, "mark": {"type": "rect", "opacity": 0.15,
                                                              "color": "#a4262c"},
                       "encoding": {"x": {"field": "low", "type": "quantitative"},
                                    "x2": {"field": "high"}}})  # fmt: skip
    return {"$schema": SCHEMA, "width": 560, "height": 320, "layer": layers}


HEX_PATH = "M -1 0 L -0.5 -0.866 L 0.5 -0.866 L 1 0 L 0.5 0.866 L -0.5 0.866 Z"


def capital_map(cells: list[dict], *, title: str) -> dict:
    """Where the Capital stood: one hexagon per legal hex (``x``, ``y``: its centre on the
    map, flat-topped columns), coloured by the share of games it stood there, faint when
    few games; hover for the hex, its games and the first player's win rate there."""
    tooltip = [
        {"field": "hex", "title": "hex"},
        {"field": "games", "title": "games"},
        _pct("share", "share of games"),
        _pct("first_win_rate", "first player's win rate"),
        {"field": "interval", "title": "95% interval"},
    ]
    xs = [c["x"] for c in cells] or [0.0]
    ys = [c["y"] for c in cells] or [0.0]
    unit = 17  # pixels per hex radius; the scales keep the map's proportions
    x_dom, y_dom = [min(xs) - 1.2, max(xs) + 1.2], [min(ys) - 1.2, max(ys) + 1.2]
    return {
        "$schema": SCHEMA,
        "title": title,
        "width": round((x_dom[1] - x_dom[0]) * unit),
        "height": round((y_dom[1] - y_dom[0]) * unit),
        "data": {"values": cells},
        # a custom shape of radius 1 is drawn at radius sqrt(size) / 2 pixels
        "mark": {"type": "point", "shape": HEX_PATH, "filled": True,
                 "size": (2 * unit * 0.95) ** 2, "stroke": "#888", "strokeWidth": 0.6},
        "encoding": {
            "x": {"field": "x", "type": "quantitative", "axis": None,
                  "scale": {"domain": x_dom, "nice": False, "zero": False}},
            "y": {"field": "y", "type": "quantitative", "axis": None,
                  "scale": {"domain": y_dom, "nice": False, "zero": False, "reverse": True}},
            "color": {"field": "share", "type": "quantitative", "title": "share of games",
                      "scale": {"scheme": "blues"}, "legend": {"format": ".0%"}},
            "opacity": {"condition": {"test": "datum.few_games", "value": 0.45}, "value": 1},
            "tooltip": tooltip,
        },
    }  # fmt: skip


def fallen_lines(rows: list[dict], *, capital: str, current: str | None = None) -> dict:
    """When ``capital``'s Capital fell: the share of games in which it had fallen by the end
    of each turn, a line per variant (``rows``: ``variant``, ``turn``, ``fallen``, as
    :func:`~manoeuvre_sim.analyses.hexgame.capital_fell.fallen_by_turn` gives them; the
    ``current`` variant's line drawn thicker)."""
    turns = [int(r["turn"]) for r in rows] or [1]
    width = {"condition": {"test": f"datum.variant === {json.dumps(current)}", "value": 3.2},
             "value": 1.2}  # fmt: skip
    return {
        "$schema": SCHEMA,
        "title": {"text": f"{capital}'s Capital", "anchor": "start", "fontSize": 13},
        "width": 400,
        "height": 200,
        "data": {"values": rows},
        "mark": {"type": "line", "point": {"filled": True, "size": 30}},
        "encoding": {
            "x": {"field": "turn", "type": "quantitative", "title": "game turn",
                  "scale": {"domain": [min(turns), max(turns)], "nice": False},
                  "axis": {"format": "d", "tickMinStep": 1,
                           "values": list(range(min(turns), max(turns) + 1))}},
            "y": {"field": "fallen", "type": "quantitative", "title": "fallen by then",
                  "scale": {"domain": [0, 1]}, "axis": {"format": ".0%"}},
            "color": {"field": "variant", "type": "nominal", "title": "variant"},
            "strokeWidth": width,
            "tooltip": [{"field": "variant", "type": "nominal", "title": "variant"},
                        {"field": "turn", "type": "quantitative", "title": "by the end of turn"},
                        _pct("fallen", "games in which it had fallen")],
        },
    }  # fmt: skip


def lengths(rows: list[dict]) -> dict:
    """Games by length in turns (a pairing's game-length distribution): a bar per whole
    turn, centred on its turn (from ``turns`` - 1/2 to ``turns`` + 1/2), ticks on whole
    turns only."""
    turns = [int(r["turns"]) for r in rows] or [0]
    lo, hi = min(turns), max(turns)
    axis = {"format": "d", "tickMinStep": 1, "grid": False}
    if hi - lo <= 30:  # every turn named: a tick under each bar
        axis["values"] = list(range(lo, hi + 1))
    x = {
        "field": "from",
        "type": "quantitative",
        "title": "game length (turns)",
        "scale": {"domain": [lo - 0.5, hi + 0.5], "nice": False, "zero": False},
        "axis": axis,
    }
    return {
        "$schema": SCHEMA,
        "width": 460,
        "height": 180,
        "data": {"values": rows},
        "transform": [{"calculate": "datum.turns - 0.5", "as": "from"},
                      {"calculate": "datum.turns + 0.5", "as": "to"}],
        "mark": {"type": "bar", "color": "#23518c", "stroke": "#fff", "strokeWidth": 1},
        "encoding": {
            "x": x,
            "x2": {"field": "to"},
            "y": {"field": "games", "type": "quantitative", "title": "games"},
            "y2": {"datum": 0},
            "tooltip": [{"field": "turns", "type": "quantitative", "title": "turns"},
                        {"field": "games", "type": "quantitative", "title": "games"}],
        },
    }  # fmt: skip
