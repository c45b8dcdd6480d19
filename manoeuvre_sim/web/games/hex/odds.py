"""The workbench's Maneuver odds page, ``/odds/hex``: what ``manoeuvre-sim hex odds combat``
prints (each result of the table with its exact, at-least and at-most chance, what it does
to every unit, an optional Monte Carlo check), with the units of the scenario a click away,
and ``/odds/hex/chart.pdf``, the printable chart of ``hex odds chart``.

Every figure comes from :mod:`manoeuvre_sim.hexgame.odds_query` (rules [8], [9], [11],
[13].3), the functions the command line calls.
"""

from __future__ import annotations

import functools

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from manoeuvre_sim.web.games.hex.odds_forms import HEX_FORMS
from manoeuvre_sim.web.odds import forms, views
from manoeuvre_sim.web.odds.http import csv_response, pdf_response, query_of, respond
from manoeuvre_sim.web.params import Params

BASE = "/odds/hex"
HERE = "games/hex"  # its templates (templates/games/hex/)
EXAMPLE = "attack=4%2C3&defend=4"
NOTE = (
    "The results are ordered in the attacker's favour, AE < AR < NE < DR < DE: 'at least DR' "
    "is the chance the defender retreats or is eliminated. Each side adds one d6 to its "
    "strength (rule [8]); an unsupplied unit fights at strength - 2, not below 0 (rule [9]); "
    "the Capital and the units in its hex ignore AE, AR and DR (rule [11])."
)


@functools.cache
def scenario_units() -> dict[str, list[dict]]:
    """Per side of the default scenario, its kinds of unit with the tokens of
    :func:`~manoeuvre_sim.hexgame.odds.parse_units` for attacking and defending, full and
    reduced (rule [5]: artillery and the Capital attack and defend at different strengths)."""
    from manoeuvre_sim.hexgame.scenario import load_scenario

    sc = load_scenario()
    out: dict[str, list[dict]] = {}
    for side in ("blue", "red"):
        rows = []
        for u in getattr(sc.sides, side).units:
            af, df, ar, dr = u.values()
            cap = u.type == "capital"
            rows.append({
                "name": u.name, "type": u.type, "count": u.count,
                "attack": f"{af}{'c' if cap else ''}", "defend": f"{df}{'c' if cap else ''}",
                "attack_reduced": None if cap else f"{ar}r",
                "defend_reduced": None if cap else f"{dr}r",
                "values": (af, df, ar, dr),
            })  # fmt: skip
        out[side] = rows
    return out


def result(params: Params, query: str) -> dict:
    """The result fragment's context from the request's parameters."""
    from manoeuvre_sim.hexgame import odds as o
    from manoeuvre_sim.hexgame import odds_query as q
    from manoeuvre_sim.hexgame.crt import RESULT_MEANING, RESULT_NAMES

    args = forms.read(params, HEX_FORMS["combat"], extra=("view",))
    view = params.choice("view", forms.VIEWS, "exactly")
    res, est = q.combat(**args)
    v = q.views(res)
    labels = [f"{n}" for n in RESULT_NAMES]
    table = views.rows(RESULT_NAMES, v["exactly"], v["at_least"], v["at_most"], est, labels)
    for r, row in enumerate(table):
        att, dfn = res.effects(r)
        row["meaning"] = RESULT_MEANING[r]
        row["rolls"] = res.rolls_of_36[r]
        row["attackers"] = _effect_text(res.attackers, att)
        row["defenders"] = _effect_text(res.defenders, dfn)
    fates = []
    for who, units in (("attacker", res.attackers), ("defender", res.defenders)):
        for u, f in zip(units, res.fates(who == "attacker"), strict=True):
            fates.append({"side": who, "unit": u.label, "at": u.effective,
                          "p": [float(x) for x in f]})  # fmt: skip
    title = (
        f"Attack {'+'.join(u.label for u in res.attackers)} = {res.attack_strength} vs defence "
        f"{'+'.join(u.label for u in res.defenders)} = {res.defence_strength}: difference "
        f"{res.difference:+d}"
    )
    return {
        "result_template": f"{HERE}/odds_result.html",
        "title_line": title,
        "table": table,
        "view": view,
        "spec": views.bar_spec(table, view),
        "fates": fates,
        "fate_names": o.FATE_NAMES,
        "estimate": est,
        "res": res,
        "note": NOTE,
        "query": query,
        "base": BASE,
    }


def _effect_text(units, fates) -> str:
    """What one result does to a side: ``'all eliminated'`` or per unit."""
    from manoeuvre_sim.hexgame.odds import FATE_NAMES

    names = [FATE_NAMES[f] for f in fates]
    if len(set(names)) == 1:
        return names[0] if len(names) == 1 else f"all {names[0]}"
    return ", ".join(f"{u.label} {n}" for u, n in zip(units, names, strict=True))


def _form_ctx(kind: str, params: Params) -> dict:
    from manoeuvre_sim import __version__
    from manoeuvre_sim.hexgame import GAME_TITLE

    fields = HEX_FORMS[kind]
    tabs = [{"key": k, "title": t, "href": f"{BASE}/{k}" if k != "combat" else BASE,
             "current": k == kind} for k, t in (("combat", "Combat"), ("chart", "Chart (PDF)"))]  # fmt: skip
    return {
        "title": f"Odds · Maneuver · {kind}",
        "heading": f"{GAME_TITLE}: combat odds",
        "tabs": tabs,
        "action": BASE if kind == "combat" else f"{BASE}/chart",
        "groups": [
            ("Attacker", [f for f in fields if f.group == "attacker"]),
            ("Defender", [f for f in fields if f.group == "defender"]),
            ("Monte Carlo check", [f for f in fields if f.group == "check"]),
            ("Chart", [f for f in fields if f.group == "grid"]),
        ],  # fmt: skip
        "values": forms.values(params, fields),
        "view_value": params.raw("view") or "exactly",
        "armies": (),
        "terrains": (),
        "max_repeat": forms.MAX_REPEAT,
        "kind": kind,
        "scenario": scenario_units() if kind == "combat" else None,
        "more_fields": f"{HERE}/odds_units.html" if kind == "combat" else None,
        "version": __version__,
    }


def hex_page(request: Request) -> Response:
    """``/odds/hex``: the combat page, or with htmx its result fragment."""

    if not request.url.query:
        return RedirectResponse(f"{BASE}?{EXAMPLE}", status_code=303)
    params = Params(request.query_params)
    return respond(request, lambda: result(params, query_of(request)),
                   _form_ctx("combat", params), "odds_page.html")  # fmt: skip


def chart_page(request: Request) -> Response:
    """``/odds/hex/chart``: the chart's options and its PDF link."""
    from manoeuvre_sim.hexgame import odds_query as q

    if not request.url.query:
        return RedirectResponse(f"{BASE}/chart?differences=-8..8", status_code=303)
    params = Params(request.query_params)

    def compute():
        args = forms.read(params, HEX_FORMS["chart"], extra=("view",))
        q.parse_differences(args["differences"])
        return {"result_template": "odds_chart.html", "chart_about": f"{HERE}/odds_chart_about.html", "args": args,
                "query": query_of(request), "base": BASE}  # fmt: skip

    return respond(request, compute, _form_ctx("chart", params), "odds_page.html")


def combat_json(request: Request) -> Response:
    """``/odds/hex/combat.json``: the object ``hex odds combat --json`` prints."""
    from manoeuvre_sim.hexgame import odds_query as q

    args = forms.read(Params(request.query_params), HEX_FORMS["combat"], extra=("view",))
    return JSONResponse(q.combat_dict(*q.combat(**args)))


def combat_csv(request: Request) -> Response:
    """``/odds/hex/combat.csv``: each result's exact, at-least, at-most (and simulated)."""

    ctx = result(Params(request.query_params), "")
    return csv_response(views.csv_text(ctx["table"]), "hex-odds-combat.csv")


def chart_pdf(request: Request) -> Response:
    """``/odds/hex/chart.pdf``: the printable chart of ``hex odds chart``."""
    from manoeuvre_sim.hexgame import odds_query as q

    args = forms.read(Params(request.query_params), HEX_FORMS["chart"], extra=("view",))
    diffs = q.parse_differences(args["differences"])

    def write(path):
        from manoeuvre_sim.analyses.hexgame.odds_chart import write_hex_odds_chart

        write_hex_odds_chart(path, differences=diffs, paper=args["paper"])

    return pdf_response(write, "hex-odds-chart.pdf")


ROUTES = [
    Route(f"{BASE}/chart.pdf", chart_pdf),
    Route(f"{BASE}/combat.json", combat_json),
    Route(f"{BASE}/combat.csv", combat_csv),
    Route(f"{BASE}/chart", chart_page),
    Route(BASE, hex_page),
]
