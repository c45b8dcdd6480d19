"""Manoeuvre's odds pages (issue 32): ``/odds/manoeuvre/<kind>`` for every kind of
``manoeuvre-sim odds`` (Maneuver's, ``/odds/hex``, are in its own web module).

Each page is a form whose fields are the command's options; typing redraws the result
fragment through htmx and the address bar holds the whole input, so a link reproduces the
result (rendered on the server: no JavaScript needed to read it). ``<kind>.json`` is the
object the command's ``--json`` prints, ``<kind>.csv`` the table, ``chart.pdf`` the
printable chart of ``odds chart``. Every figure comes from
:mod:`manoeuvre_sim.manoeuvre.odds_query` and :mod:`manoeuvre_sim.manoeuvre.matchup`, the
functions the command line calls; a malformed input is a 400 with the command line's message.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.games.manoeuvre import odds_forms as forms
from manoeuvre_sim.web.odds import views
from manoeuvre_sim.web.odds.forms import MAX_REPEAT, VIEWS, values
from manoeuvre_sim.web.odds.http import csv_response, pdf_response, query_of, respond
from manoeuvre_sim.web.params import Params

BASE = "/odds/manoeuvre"
HERE = "games/manoeuvre"  # its templates (templates/games/manoeuvre/)
TITLES = {
    "assault": "Assault · Ambush",
    "bombard": "Bombard",
    "volley": "Volley",
    "pursuit": "Pursuit",
    "rally": "Rally",
    "withdraw": "Withdraw",
    "rockets": "Rockets",
    "matchup": "Named units",
    "table": "Table",
    "chart": "Chart (PDF)",
}
EXAMPLES = {
    "assault": "strength=4&dice=2d8&defense=6",
    "bombard": "dice=2d6&defense=5",
    "volley": "dice=2d8&defense=5",
    "pursuit": "card=4&card=3",
    "rally": "rally=3",
    "withdraw": "withdraw_max=3",
    "rockets": "simulate=0",
    "table": "strengths=0..6&defenses=3..8",
    "chart": "paper=a4",
}
NOTES = {
    "assault": "The six bands are exclusive and ordered by the attack total A they need "
    "against the defense D: A < D, A = D, A > D, A ≥ 2D, A ≥ 3D, A ≥ 4D (rule 6.1 step 7). "
    "So 'at least' reads the Results Table's printed thresholds (at least defender choice "
    "= P(A > D)), and 'at most' is the chance of that band or a weaker one. In the title, "
    "the attack's number is the attacker base (the attacking unit's strength, rule 6.1 "
    "step 6) with its fixed bonuses (the leader's Combat, the hill, the supports' "
    "strength), then its dice; each +CA is a Committed Attack card (+2d6, and a hit on an "
    "attacking or supporting unit afterwards).",
    "bombard": "Hit or no effect: a hit iff dice + hill bonus > defense (rule 6.2).",
    "volley": "Hit or no effect: a hit iff dice + hill bonus > defense (rule 6.2).",
    "pursuit": "Hits are ordered: one d6 per card, a hit when d6 + leader modifier ≤ the "
    "card's value; two hits eliminate a full-strength unit (rule 6.6).",
    "rally": "One d6 within 1..value, or always with 'auto' (rule 7).",
    "withdraw": "One d6 within 1..N (rule 8).",
    "rockets": "One d10: 1-4 no effect, 5-8 retreat, 9-10 retreat and hit (Distant Lands 6.3); "
    "ordered by severity.",
}
MAX_TABLE_ROWS = 50_000  # rows of one ``table`` request (8 mixes x 201 x 201 otherwise)
PREVIEW_ROWS = 60


def _matchup_example() -> str:
    by_name = {a.name: a for a in forms.armies()}
    a, d = by_name["France"], by_name["Austria"]
    return urlencode(
        {"attacker_army": a.name, "attacker": a.units[0].name,
         "defender_army": d.name, "defender": d.units[0].name}
    )  # fmt: skip


# ----------------------------------------------------------------------------------------
# What each kind computes (all through the library)
# ----------------------------------------------------------------------------------------


def report(kind: str, args: dict):
    """The :class:`~manoeuvre_sim.manoeuvre.odds_query.OddsReport` of one of
    :data:`~manoeuvre_sim.manoeuvre.odds_query.KINDS`, from the form's arguments."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    if kind == "assault":
        return q.assault(**args)
    if kind in ("bombard", "volley"):
        return q.fire("Bombardment" if kind == "bombard" else "Volley", **args)
    return getattr(q, kind)(**args)


def matchup(args: dict):
    """The :class:`~manoeuvre_sim.manoeuvre.matchup.Matchup` of the form; a side's unit
    defaults to the first of its army."""
    from manoeuvre_sim.manoeuvre.matchup import matchup as named

    by_name = {a.name: a for a in forms.armies()}
    for side in ("attacker", "defender"):
        if not args.get(f"{side}_unit"):
            args[f"{side}_unit"] = by_name[args[f"{side}_army"]].units[0].name
    return named(**args)


def _table(args: dict) -> tuple[str, int]:
    from manoeuvre_sim.manoeuvre import odds as o
    from manoeuvre_sim.manoeuvre import odds_query as q

    n = len(args["mixes"] or o.DEFAULT_MIXES)
    n *= len(q.parse_range(args["strengths"], "--strengths"))
    n *= len(q.parse_range(args["defenses"], "--defenses"))
    if n > MAX_TABLE_ROWS:
        raise UsageError(f"the table would have {n:,} rows; this page makes at most "
                         f"{MAX_TABLE_ROWS:,} (use manoeuvre-sim odds table for more)")  # fmt: skip
    return q.table_csv(**args)


def _distribution(kind: str, args: dict, view: str) -> dict:
    rep = report(kind, args)
    ordered = rep.ordered
    if not ordered:
        view = "exactly"
    table = views.rows(
        rep.names,
        rep.probs,
        rep.at_least() if ordered else None,
        rep.at_most() if ordered else None,
        rep.estimate,
    )
    facts = [
        (k.replace("_", " "), ", ".join(map(str, v)) if isinstance(v, list) else v)
        for k, v in rep.extra.items()
        if not isinstance(v, dict | bool)
    ]
    return {
        "result_template": f"{HERE}/odds_result.html",
        "title_line": rep.title,
        "table": table,
        "ordered": ordered,
        "view": view,
        "spec": views.bar_spec(table, view),
        "facts": facts,
        "estimate": rep.estimate,
        "note": NOTES[kind],
    }


def result(kind: str, params: Params, query: str = "") -> dict:
    """The result fragment's context for ``kind`` from the request's parameters; ``query``
    is the request's query for the download links."""
    args = forms.read(params, forms.FORMS[kind], extra=("view",))
    view = params.choice("view", VIEWS, "exactly")
    ctx: dict = {"kind": kind, "query": query, "base": BASE}
    if kind == "matchup":
        m = matchup(args)
        ctx.update(result_template=f"{HERE}/odds_matchup.html", m=m, bands=_band_labels())
        ctx["spec"] = _matchup_spec(m)
    elif kind == "table":
        text, n = _table(args)
        lines = text.splitlines()
        ctx.update(result_template=f"{HERE}/odds_table.html", header=lines[0].split(","),
                   preview=[ln.split(",") for ln in lines[1 : PREVIEW_ROWS + 1]], n=n)  # fmt: skip
    elif kind == "chart":
        _chart_args(args)
        ctx.update(result_template="odds_chart.html", chart_about=f"{HERE}/odds_chart_about.html",
                   args=args)  # fmt: skip
    else:
        ctx.update(_distribution(kind, args, view))
    return ctx


def _band_labels() -> list[str]:
    from manoeuvre_sim.manoeuvre.combat import BAND_NAMES

    return [views.outcome_label(b) for b in BAND_NAMES]


def _matchup_spec(m) -> dict:
    """The overall bands (the attacker's choice at random, the defender's held card or
    hand at random) as one chart, from the matchup's own mixtures."""
    labels = _band_labels()
    table = views.rows(labels, m.overall, labels=labels)
    return views.bar_spec(table, "exactly", "any attack; the defender plays a card it holds")


def _chart_args(args: dict) -> tuple[list[int], list[int]]:
    from manoeuvre_sim.manoeuvre import odds as o
    from manoeuvre_sim.manoeuvre import odds_query as q

    for mix in args["mixes"]:
        o.parse_mix(mix)
    return q.chart_ranges(args["strengths"], args["defenses"])


# ----------------------------------------------------------------------------------------
# Routes
# ----------------------------------------------------------------------------------------


def _kind(request: Request, allowed) -> str:
    kind = request.path_params.get("kind", "assault")
    if kind not in allowed:
        raise HTTPException(404)
    return kind


def _tabs(kind: str) -> list[dict]:
    return [{"key": k, "title": t, "href": f"{BASE}/{k}", "current": k == kind}
            for k, t in TITLES.items()]  # fmt: skip


def odds_page(request: Request) -> Response:
    """``/odds/manoeuvre/<kind>``: the whole page, or with htmx the result fragment."""
    kind = _kind(request, TITLES)
    if not request.url.query:
        example = _matchup_example() if kind == "matchup" else EXAMPLES[kind]
        return RedirectResponse(f"{BASE}/{kind}?{example}", status_code=303)
    params = Params(request.query_params)
    return respond(request, lambda: result(kind, params, query_of(request)),
                   _form_ctx(kind, params), "odds_page.html")  # fmt: skip


def _form_ctx(kind: str, params: Params) -> dict:
    fields = forms.FORMS[kind]
    return {
        "title": f"Odds · Manoeuvre · {TITLES[kind]}",
        "heading": "Manoeuvre: combat odds",
        "tabs": _tabs(kind),
        "action": f"{BASE}/{kind}",
        "groups": _groups(fields),
        "values": values(params, fields),
        "view_value": params.raw("view") or "exactly",
        "armies": forms.armies(),
        "terrains": forms.terrain_names(),
        "max_repeat": MAX_REPEAT,
        "kind": kind,
        "more_fields": None,
    }


GROUP_TITLES = {"attacker": "Attacker", "defender": "Defender", "check": "Monte Carlo check",
                "grid": "Grid"}  # fmt: skip


def _groups(fields) -> list[tuple[str, list]]:
    out: dict[str, list] = {}
    for f in fields:
        out.setdefault(GROUP_TITLES[f.group], []).append(f)
    return list(out.items())


def odds_json(request: Request) -> Response:
    """``<kind>.json``: the object ``manoeuvre-sim odds <kind> --json`` prints."""
    kind = _kind(request, (*TITLES.keys() - {"table", "chart"},))
    params = Params(request.query_params)
    args = forms.read(params, forms.FORMS[kind], extra=("view",))
    obj = matchup(args).to_dict() if kind == "matchup" else report(kind, args).to_dict()
    return JSONResponse(obj)


def odds_csv(request: Request) -> Response:
    """``<kind>.csv``: the distribution table (the grid of ``odds table`` for ``table``)."""
    kind = _kind(request, (*TITLES.keys() - {"chart"},))
    params = Params(request.query_params)
    args = forms.read(params, forms.FORMS[kind], extra=("view",))
    if kind == "table":
        text = _table(args)[0]
    elif kind == "matchup":
        text = _matchup_csv(matchup(args))
    else:
        rep = report(kind, args)
        ordered = rep.ordered
        text = views.csv_text(views.rows(rep.names, rep.probs, rep.at_least() if ordered else None,
                                         rep.at_most() if ordered else None, rep.estimate))  # fmt: skip
    return csv_response(text, f"odds-{kind}.csv")


def _matchup_csv(m) -> str:
    import csv
    import io

    from manoeuvre_sim.manoeuvre.combat import BAND_NAMES

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["attack", "attack_cards", "defense", "defense_cards", "defense_total",
                *BAND_NAMES])  # fmt: skip
    for r in m.rows:
        w.writerow([r.attack, r.attack_cards, r.defense, r.defense_cards, r.defense_total,
                    *(f"{x:.6f}" for x in r.odds.probs)])  # fmt: skip
    return buf.getvalue()


def chart_pdf(request: Request) -> Response:
    """``chart.pdf``: the printable odds chart of ``manoeuvre-sim odds chart``."""
    params = Params(request.query_params)
    args = forms.read(params, forms.FORMS["chart"], extra=("view",))
    s, d = _chart_args(args)

    def write(path):
        from manoeuvre_sim.analyses.manoeuvre.odds_chart import write_odds_chart

        write_odds_chart(path, mixes=args["mixes"] or None, strengths=s, defenses=d,
                         paper=args["paper"], fire=args["fire"] == "on")  # fmt: skip

    return pdf_response(write, "manoeuvre-odds-chart.pdf")


ROUTES: list = [
    Route(f"{BASE}/chart.pdf", chart_pdf),
    Route(f"{BASE}/{{kind}}.json", odds_json),
    Route(f"{BASE}/{{kind}}.csv", odds_csv),
    Route(BASE, odds_page),
    Route(f"{BASE}/{{kind}}", odds_page),
]
