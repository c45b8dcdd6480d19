"""The study pages' Vega-Lite specs, built from the study's own tables (nothing computed
here but the layout: every rate, interval and fitted value is the study's or the library's).

Only the charts every game's pages may use live here; a chart of one game's own study (the
Capital map, the handicap ladder, the card values) is in that game's web package
(``web/games/<key>/charts.py``). Each spec is a plain dict for ``vega-embed``; ``static/studies.js`` embeds every
``<script type="application/json" class="vega-spec">`` of a page, and a mark whose datum
has an ``href`` navigates there when clicked (the heatmap's cells open their pairing).
"""

from __future__ import annotations

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


def pct_field(field: str, title: str) -> dict:
    """A quantitative field shown as a percentage (a tooltip's, an axis')."""
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
        pct_field("rate", what),
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
        pct_field(value, title),
        pct_field(low, "95% low"),
        pct_field(high, "95% high"),
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
