"""Manoeuvre's own charts of the study pages (Vega-Lite specs from the study's tables): the
card-value study's scatter; the shared ones are ``web/studies/charts.py``'s."""

from __future__ import annotations

from manoeuvre_sim.web.studies.charts import SCHEMA, pct_field


def card_scatter(cards: list[dict], *, observed: str, observed_title: str) -> dict:
    """Each card's observed improvement (x) against its ablation value (y), both with their
    intervals in the tooltip; a text box finds any card by name (the matching points stay
    solid and are named, the rest fade)."""
    find = "find && indexof(lower(datum.card), lower(find)) >= 0"
    tooltip = [
        {"field": "card", "type": "nominal", "title": "card"},
        {"field": "kind", "type": "nominal", "title": "kind"},
        pct_field(observed, observed_title),
        pct_field("value", "ablation value"),
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
