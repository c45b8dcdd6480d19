"""How the odds pages show a result: the rows of the distribution table (exactly, at least,
at most, the Monte Carlo estimate and its Wilson interval, every figure from the library's
result), the Vega-Lite bar chart's spec built from those rows, and the CSV download.

Nothing here computes a probability: the cumulative views come from
:meth:`~manoeuvre_sim.manoeuvre.odds_query.OddsReport.at_least` (and ``at_most``) and from
:func:`manoeuvre_sim.hexgame.odds_query.views`, the intervals from
:attr:`~manoeuvre_sim.core.stats.Estimate.interval`, as the command line prints them.
"""

from __future__ import annotations

import csv
import io

VIEW_TITLES = {"exactly": "exactly", "at_least": "at least", "at_most": "at most"}


def outcome_label(name: str) -> str:
    """``'hit_and_retreat'`` -> ``'hit and retreat'``."""
    return name.replace("_", " ")


def rows(names, exactly, at_least=None, at_most=None, estimate=None, labels=None) -> list[dict]:
    """One dict per outcome: its name, label and each figure (``None`` when absent)."""
    lo = hi = sim = None
    if estimate is not None:
        sim = estimate.p
        lo, hi = estimate.interval
    out = []
    for i, name in enumerate(names):
        out.append(
            {
                "name": name,
                "label": labels[i] if labels else outcome_label(name),
                "exactly": float(exactly[i]),
                "at_least": None if at_least is None else float(at_least[i]),
                "at_most": None if at_most is None else float(at_most[i]),
                "simulated": None if sim is None else float(sim[i]),
                "low": None if lo is None else float(lo[i]),
                "high": None if hi is None else float(hi[i]),
            }
        )
    return out


def bar_spec(table: list[dict], view: str, x_title: str = "result") -> dict:
    """A Vega-Lite bar chart of one view (``exactly``, ``at_least``, ``at_most``) of the
    rows, outcomes in their order, the Monte Carlo interval as a rule when there is one."""
    values = [
        {"order": i, "outcome": r["label"], "p": r[view], "low": r["low"], "high": r["high"]}
        for i, r in enumerate(table)
    ]
    order = [r["label"] for r in table]
    x = {"field": "outcome", "type": "nominal", "sort": order, "title": x_title,
         "axis": {"labelAngle": 0 if len(order) <= 6 else -40}}  # fmt: skip
    y = {"field": "p", "type": "quantitative", "title": f"P({VIEW_TITLES[view]})",
         "axis": {"format": ".0%"}, "scale": {"domain": [0, 1]}}  # fmt: skip
    layers = [
        {
            "mark": {"type": "bar", "color": "#4c6a92"},
            "encoding": {
                "x": x,
                "y": y,
                "tooltip": [
                    {"field": "outcome", "title": "result"},
                    {"field": "p", "title": VIEW_TITLES[view], "format": ".2%"},
                ],
            },
        },
        {
            "mark": {"type": "text", "dy": -6, "fontSize": 11},
            "encoding": {"x": x, "y": y, "text": {"field": "p", "format": ".1%"}},
        },
    ]
    if view == "exactly" and table and table[0]["low"] is not None:
        layers.append(
            {
                "mark": {"type": "rule", "color": "#b03a2e", "strokeWidth": 2},
                "encoding": {
                    "x": x,
                    "y": {"field": "low", "type": "quantitative"},
                    "y2": {"field": "high"},
                },
            }
        )
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": "container",
        "height": 240,
        "data": {"values": values},
        "layer": layers,
    }


def csv_text(table: list[dict]) -> str:
    """The table as CSV: result, exactly, at least, at most, and with a simulation the
    estimate and its 95% Wilson interval; probabilities with 6 decimals, as ``odds table``."""
    keys = ["exactly", "at_least", "at_most", "simulated", "low", "high"]
    keys = [k for k in keys if table and table[0][k] is not None]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["result", *keys])
    for r in table:
        w.writerow([r["name"], *(f"{r[k]:.6f}" for k in keys)])
    return buf.getvalue()
