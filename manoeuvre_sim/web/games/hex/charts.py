"""Maneuver's own charts of the study pages (Vega-Lite specs from the study's tables): the
Capital map of the set-up study, when each Capital fell in the variant study, the handicap
ladder; the shared ones are ``web/studies/charts.py``'s."""

from __future__ import annotations

import json

from manoeuvre_sim.web.studies.charts import SCHEMA, pct_field


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
                      "tooltip": [{"field": "k", "title": "k"}, pct_field("score", "score"),
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
        pct_field("share", "share of games"),
        pct_field("first_win_rate", "first player's win rate"),
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
                        pct_field("fallen", "games in which it had fallen")],
        },
    }  # fmt: skip
