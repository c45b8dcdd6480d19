"""Two studies side by side (issue 33, item 3): the page and its CSV download.

Routes::

    /compare?a=REL&b=REL[&label_a=L][&label_b=L]     the page
    /compare.csv?a=REL&b=REL[&label_a=L][&label_b=L] the comparison table, as CSV

Both studies are confined to the studies folder (``safety.confine``); every figure is
:func:`manoeuvre_sim.analyses.common.compare.compare`'s, which ``manoeuvre-sim compare A B``
prints too. The page is rendered once per state of the two studies (``page_cache``); the
heatmap shows at most :data:`MAX_CELLS` cells, the table at most :data:`MAX_ROWS` rows.
"""

from __future__ import annotations

import io
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common import compare as C
from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.page_cache import PageCache, study_state
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import download, page
from manoeuvre_sim.web.safety import confine
from manoeuvre_sim.web.studies.charts import SCHEMA, clean, records

PARAMS = ("a", "b", "label_a", "label_b")
MAX_ROWS = 200  # armies or variants in the table
MAX_CELLS = 2500  # cells in the heatmap of differences
MAX_GAMES = 2_000_000  # game records a study may hold to be compared on a page
PAGES = PageCache(16)


def _study(root, p: Params, key: str):
    """The study directory of parameter ``key`` (``a`` or ``b``), confined."""
    what = key.upper()
    rel = p.string(key)
    if rel is None:
        raise UsageError(f"{what}: expected a study directory under the studies folder "
                         f"(?a=DIR&b=DIR, or tick two on the studies page)")  # fmt: skip
    path = confine(root, rel, what)
    if not path.is_dir():
        raise UsageError(f"{what}: {rel!r} is not a directory under the studies folder")
    return path, SF.read_info(path, rel)


def _comparison(request: Request) -> tuple[C.Comparison, object, object, Params]:
    p = Params(request.query_params)
    p.only(PARAMS)
    root = request.app.state.studies
    (pa, ia), (pb, ib) = _study(root, p, "a"), _study(root, p, "b")
    cmp = C.compare(pa, pb, label_a=p.string("label_a"), label_b=p.string("label_b"),
                    max_games=MAX_GAMES)  # fmt: skip
    cmp.a["study"], cmp.b["study"] = ia.rel, ib.rel
    return cmp, ia, ib, p


def _key(request: Request) -> tuple:
    p = Params(request.query_params)
    p.only(PARAMS)
    root = request.app.state.studies
    states = []
    for k in ("a", "b"):
        path, _ = _study(root, p, k)
        states.append(study_state(path, SF.STORE))
    return (request.url.path, str(request.query_params), *states)


def compare_page(request: Request) -> Response:
    """The page; from the studies list's form (``?study=X&study=Y``), a redirect to it."""
    if "study" in request.query_params:
        p = Params(request.query_params)
        p.only(("study",))
        picked = p.strings("study")
        if len(picked) != 2:
            raise UsageError(f"--study: tick exactly two studies to compare, got {len(picked)}")
        return RedirectResponse("/compare?" + urlencode({"a": picked[0], "b": picked[1]}), 303)
    return PAGES.page(_key(request), lambda: _render(request))


DIFFS = ("diff", "diff_low", "diff_high")
# a difference of two rates in points (the table's unit: +2.3 pts), signed
POINTS = {"type": "quantitative", "format": "+.1f"}


def in_points(df, cols=DIFFS):
    """``df`` with its differences of rates (fractions) in percentage points, the unit the
    page's table writes them in."""
    return df.assign(**{c: 100 * df[c] for c in cols})


def diff_chart(cmp: C.Comparison) -> dict:
    """Each row's difference B - A in points as a dot with its 95 % interval, the moved
    ones marked; rows in A's order of rank."""
    t = cmp.table.sort_values("rank_a").head(MAX_ROWS)
    order = [str(x) for x in t[cmp.unit]]
    data = records(in_points(t).assign(name=t[cmp.unit].astype(str),
                                       status=t["moved"].map({True: "moved", False: "within"})),
                   ["name", "rate_a", "rate_b", "diff", "diff_low", "diff_high", "status"])  # fmt: skip
    y = {"field": "name", "type": "nominal", "sort": order, "title": cmp.unit,
         "axis": {"labelLimit": 180}}  # fmt: skip
    pct = POINTS
    tip = [{"field": "name", "type": "nominal", "title": cmp.unit},
           {"field": "rate_a", "type": "quantitative", "format": ".1%", "title": "A"},
           {"field": "rate_b", "type": "quantitative", "format": ".1%", "title": "B"},
           {"field": "diff", **pct, "title": "B - A (points)"},
           {"field": "diff_low", **pct, "title": "low (points)"},
           {"field": "diff_high", **pct, "title": "high (points)"}]  # fmt: skip
    colour = {"field": "status", "type": "nominal", "title": "beyond its interval?",
              "scale": {"domain": ["moved", "within"], "range": ["#b2182b", "#555"]}}  # fmt: skip
    return {
        "$schema": SCHEMA, "width": 420, "height": {"step": 26}, "data": {"values": data},
        "layer": [
            {"mark": {"type": "rule", "color": "#999", "strokeDash": [4, 3]},
             "encoding": {"x": {"datum": 0}}},
            {"mark": {"type": "rule", "strokeWidth": 2},
             "encoding": {"y": y, "x": {"field": "diff_low", **pct,
                                        "title": "B - A in points, 95% interval"},
                          "x2": {"field": "diff_high"}, "color": colour, "tooltip": tip}},
            {"mark": {"type": "point", "filled": True, "size": 70},
             "encoding": {"y": y, "x": {"field": "diff", **pct}, "color": colour,
                          "tooltip": tip}},
        ],
    }  # fmt: skip


def cell_text(diff: float, moved: bool) -> str:
    """A heatmap cell's words: B - A in whole points (``0``, never ``-0``), starred when it
    moved beyond its interval."""
    if diff != diff:
        return ""
    n = round(100 * diff)
    return (f"{n:+d}" if n else "0") + ("*" if moved else "")


def cells_chart(cmp: C.Comparison) -> dict | None:
    """The matrix of differences B - A cell by cell (blue: B higher), a cell whose interval
    excludes zero outlined and starred."""
    c = cmp.cells.head(MAX_CELLS)
    if c.empty:
        return None
    rows = [str(x) for x in cmp.table.sort_values("rank_a")[cmp.unit]]
    cols = rows if not cmp.by_label else sorted({str(x) for x in c["col"]})
    data = records(in_points(c).assign(row=c["row"].astype(str), col=c["col"].astype(str),
                            text=[cell_text(d, m) for d, m in zip(c["diff"], c["moved"],
                                                                    strict=True)]),
                   ["row", "col", "rate_a", "rate_b", "diff", "diff_low", "diff_high", "moved",
                    "text", "games_a", "games_b"])  # fmt: skip
    lim = max(5.0, 100 * float(c["diff"].abs().max() or 0))  # points
    size = max(30, min(60, 480 // max(len(rows), len(cols), 1)))
    pct = POINTS
    enc = {"x": {"field": "col", "type": "nominal", "sort": cols,
                 "title": "opponent" if not cmp.by_label else "players (blue v red)",
                 "axis": {"labelAngle": -35, "labelLimit": 160}},
           "y": {"field": "row", "type": "nominal", "sort": rows, "title": cmp.unit,
                 "axis": {"labelLimit": 180}}}  # fmt: skip
    tip = [{"field": "row", "type": "nominal", "title": cmp.unit},
           {"field": "col", "type": "nominal", "title": enc["x"]["title"]},
           {"field": "rate_a", "type": "quantitative", "format": ".1%", "title": "A"},
           {"field": "rate_b", "type": "quantitative", "format": ".1%", "title": "B"},
           {"field": "diff", **pct, "title": "B - A (points)"},
           {"field": "diff_low", **pct, "title": "low (points)"},
           {"field": "diff_high", **pct, "title": "high (points)"},
           {"field": "moved", "type": "nominal", "title": "beyond its interval"}]  # fmt: skip
    return {
        "$schema": SCHEMA, "width": size * len(cols), "height": size * len(rows),
        "data": {"values": data},
        "layer": [
            {"mark": {"type": "rect"},
             "encoding": enc | {"tooltip": tip, "color": {
                 "field": "diff", **pct, "title": "B - A (points)",
                 "scale": {"domain": [-lim, 0, lim], "range": ["#b2182b", "#f7f7f7", "#2166ac"]}},
                 "stroke": {"condition": {"test": "datum.moved", "value": "#000"},
                            "value": None}}},
            {"mark": {"type": "text", "fontSize": 11},
             "encoding": enc | {"text": {"field": "text"}, "tooltip": tip, "color": {
                 "condition": {"test": f"abs(datum.diff) > {lim / 2}", "value": "white"},
                 "value": "black"}}},
        ],
    }  # fmt: skip


def swapped(q: dict) -> dict:
    """The query with A and B (and their labels) exchanged."""
    swap = {"a": "b", "b": "a", "label_a": "label_b", "label_b": "label_a"}
    return {swap[k]: v for k, v in q.items()}


def _render(request: Request) -> Response:
    cmp, ia, ib, p = _comparison(request)
    t = cmp.table.sort_values("rank_a")
    rows = [{k: clean(v) for k, v in r.items()} for r in t.head(MAX_ROWS).to_dict("records")]
    q = {k: v for k in PARAMS if (v := p.string(k)) is not None}
    return page(
        "compare.html", title=f"Compare {ia.rel} and {ib.rel}", version=__version__, cmp=cmp,
        rows=rows, more=max(0, len(t) - MAX_ROWS), cells_more=max(0, len(cmp.cells) - MAX_CELLS),
        diff_spec=diff_chart(cmp), cells_spec=cells_chart(cmp),
        csv_href="/compare.csv?" + urlencode(q),
        swap_href="/compare?" + urlencode(swapped(q)),
        study_href=lambda rel: "/study?" + urlencode({"dir": rel}),
    )  # fmt: skip


def compare_csv(request: Request) -> Response:
    cmp, _, _, _ = _comparison(request)
    buf = io.StringIO()
    cmp.table.to_csv(buf, index=False)
    return download(buf.getvalue().encode("utf-8"), "comparison.csv", "text/csv; charset=utf-8")


ROUTES = [
    Route("/compare", compare_page, name="compare"),
    Route("/compare.csv", compare_csv, name="compare_csv"),
]
