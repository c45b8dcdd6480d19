"""A why study's result page (issue 42, item 5).

Routes::

    /why/result?dir=REL        (REL: a why study under the studies folder)

The page: the waterfall from 50 % to the observed rate (a Vega-Lite spec built here from
the rows ``analyses/common/why_chart.rows`` lays out for the PDF's figure), the
contributions table, the totals and the three games that show the gap
(``studies/why_games.py``), each linked to its replay opened at the decision where the
learned value swings most, that decision marked on the replay's timeline (``mark=N-M``),
with the value along the game as a small chart. Every figure is the study's own (its CSV
tables and manifest); nothing is computed here.

The balance matrix's "why?" links are the study page's (``pages.why_grid``).
"""

from __future__ import annotations

import math
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.game_parts import has_replay
from manoeuvre_sim.web.render import page
from manoeuvre_sim.web.studies.charts import SCHEMA
from manoeuvre_sim.web.studies.pages import open_kind, replay_href

SIDE_COLOURS = ("#3f4a5a", "#b9c2cf")  # side X dark, side Y light (the PDF's greys, tinted)


def _records(info, name: str) -> list[dict]:
    if name not in SF.tables(info.path):
        return []
    df = SF.read_table(info.path, name)
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
            for r in df.to_dict("records")]  # fmt: skip


def waterfall_spec(rows: list[dict], names) -> dict:
    """The waterfall as Vega-Lite: one bar per row (``why_chart.rows``: label, start, end,
    lo, hi, side) from its start to its end, its 95 % interval a whisker at its end, side
    X's parts dark and Y's light, the totals white; a rule at 50 %."""
    data = []
    for i, r in enumerate(rows):
        side = r["side"]
        lo, hi = r["lo"], r["hi"]
        last = i == len(rows) - 1
        data.append({"order": i, "label": r["label"], "start": r["start"], "end": r["end"],
                     "lo": None if lo is None or math.isnan(lo) else lo,
                     "hi": None if hi is None or math.isnan(hi) else hi,
                     "who": "total" if side is None else f"{'XY'[side]}: {names[side]}",
                     "points": (f"{100 * r['end']:.1f} %" if last
                                else f"{100 * (r['end'] - r['start']):+.1f}")})  # fmt: skip
    labels = [d["label"] for d in data]
    y = {"field": "label", "type": "nominal", "sort": labels, "title": None,
         "axis": {"labelLimit": 260}}  # fmt: skip
    domain = ["total", *[f"{'XY'[k]}: {n}" for k, n in enumerate(names)]]
    tip = [{"field": "label", "title": "part"}, {"field": "points", "title": "points"},
           {"field": "lo", "title": "95% low", "format": ".1%"},
           {"field": "hi", "title": "95% high", "format": ".1%"}]  # fmt: skip
    return {
        "$schema": SCHEMA,
        "width": 520,
        "height": max(120, 17 * len(data)),
        "data": {"values": data},
        "layer": [
            {"mark": {"type": "bar", "stroke": "#222", "strokeWidth": 0.6, "height": 12},
             "encoding": {"y": y, "x": {"field": "start", "type": "quantitative", "title":
                                "side X's score (a win 1, a draw ½)", "axis": {"format": ".0%"},
                                "scale": {"zero": False}},
                          "x2": {"field": "end"},
                          "color": {"field": "who", "type": "nominal", "title": None,
                                    "scale": {"domain": domain,
                                              "range": ["#ffffff", *SIDE_COLOURS]},
                                    "legend": {"orient": "top"}},
                          "tooltip": tip}},
            {"mark": {"type": "rule", "color": "#000"},
             "encoding": {"y": y, "x": {"field": "lo", "type": "quantitative"}, "x2": {"field": "hi"},
                          "tooltip": tip}},
            {"mark": {"type": "text", "align": "left", "dx": 4, "fontSize": 10},
             "encoding": {"y": y, "x": {"value": 524}, "text": {"field": "points"}}},
            {"data": {"values": [{"half": 0.5}]}, "mark": {"type": "rule", "strokeDash": [4, 3],
                                                           "color": "#888"},
             "encoding": {"x": {"field": "half", "type": "quantitative"}}},
        ],
        "config": {"view": {"stroke": None}},
    }  # fmt: skip


def value_spec(values: list[dict], marked: dict | None, x_seat: str) -> dict:
    """Side X's learned value along one game, one point per decision, the marked one
    ringed."""
    pts = [{"decision": v["decision"], "turn": v["turn"], "value": v[f"value_{x_seat}"],
            "marked": marked is not None and v["decision"] == marked} for v in values]  # fmt: skip
    return {
        "$schema": SCHEMA, "width": 300, "height": 90, "data": {"values": pts},
        "layer": [
            {"mark": {"type": "line", "color": SIDE_COLOURS[0], "point": {"size": 12}},
             "encoding": {"x": {"field": "decision", "type": "quantitative",
                                "title": "decision (player turn)"},
                          "y": {"field": "value", "type": "quantitative", "title": "X's value",
                                "scale": {"domain": [0, 1]}, "axis": {"format": ".0%"}},
                          "tooltip": [{"field": "decision"}, {"field": "turn", "title": "game turn"},
                                      {"field": "value", "format": ".1%"}]}},
            {"transform": [{"filter": "datum.marked"}],
             "mark": {"type": "point", "size": 140, "color": "#d9822b", "strokeWidth": 2.5},
             "encoding": {"x": {"field": "decision", "type": "quantitative"},
                          "y": {"field": "value", "type": "quantitative"}}},
        ],
        "config": {"view": {"stroke": None}},
    }  # fmt: skip


_INTEGERS = ("sample", "seating", "pairing", "game", "seed", "game_turns", "decision", "event",
             "turn")  # fmt: skip


def _chosen(info) -> list[dict]:
    """games.csv's rows as written: its integers whole (a seed has 19 digits: never a
    float), an empty field None."""
    import pandas as pd

    df = pd.read_csv(info.path / "games.csv", dtype=str, keep_default_na=False)
    out = []
    for r in df.to_dict("records"):
        row = {k: (None if v == "" else v) for k, v in r.items()}
        for k in _INTEGERS:
            if row.get(k) is not None:
                row[k] = int(float(row[k])) if k != "seed" else int(row[k])
        for k in ("x_result", "before", "after", "swing"):
            if row.get(k) is not None:
                row[k] = float(row[k])
        row["missing"] = row.get("missing") == "True"
        out.append(row)
    return out


def _games(info, names) -> list[dict]:
    """The chosen games, each with its replay address at the marked decision and the value
    along it."""
    values = _records(info, "game_values")
    out = []
    for g in _chosen(info) if "games" in SF.tables(info.path) else []:
        if g["missing"]:
            out.append(g | {"href": None, "chart": None})
            continue
        mine = [v for v in values if v["role"] == g["role"]]
        href = mark = None
        if has_replay(str(info.game)):
            href = replay_href(info, g["pairing"], g["game"], g["label"])
            if g.get("event") is not None:
                nxt = [v["event"] for v in mine if v["decision"] == g["decision"] + 1]
                last = int(nxt[0]) - 1 if nxt and nxt[0] is not None else int(g["event"])
                mark = f"{int(g['event'])}-{max(last, int(g['event']))}"
                href += "&" + urlencode({"event": int(g["event"]), "mark": mark})
        x_seat = "a" if int(g["seating"]) == 0 else "b"
        chart = value_spec(mine, g.get("decision"), x_seat) if mine else None
        out.append(g | {"href": href, "mark": mark, "chart": chart})
    return out


def why_result(request: Request) -> Response:
    info = open_kind(request, "why", "a why study")
    if info.status not in (SF.COMPLETE, SF.INTERRUPTED) or "contributions" not in SF.tables(
            info.path):  # fmt: skip
        raise UsageError(f"--dir: {info.rel!r} is {info.status}: a why study writes its tables "
                         "when its samples end (resume it from the jobs page)")  # fmt: skip
    from manoeuvre_sim.analyses.common.why_chart import rows

    m = info.manifest
    names = [str(s["name"]) if isinstance(s, dict) else str(s) for s in m.get("sides") or []]
    c, t = SF.read_table(info.path, "contributions"), SF.read_table(info.path, "totals")
    spec = waterfall_spec(rows(c, t), names)
    order = c.reindex(c["contribution"].abs().sort_values(ascending=False, kind="stable").index)
    contributions = [r for r in order.to_dict("records")]
    totals = {r["quantity"]: r for r in t.to_dict("records")}
    return page(
        "why_result.html", title=f"Why {info.rel}", version=__version__, info=info, m=m,
        names=names, waterfall=spec, contributions=contributions, totals=totals,
        games=_games(info, names), model=m.get("value_model") or "",
    )  # fmt: skip


ROUTES = [Route("/why/result", why_result, name="why_result")]
