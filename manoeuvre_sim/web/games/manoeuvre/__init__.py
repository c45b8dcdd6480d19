"""Manoeuvre in the workbench (its adapter's ``WEB_MODULE``): what only Manoeuvre shows,
under the names ``web.game_parts`` documents. Its odds pages (``odds.py``: ``/odds/manoeuvre``),
its board (``board.py``), its replay (``replay.py``), its job forms (``forms.py``) and its
study pages (``views.py``, their charts ``charts.py``: the balance study, the card-value
study, the what-if), whose
parts are gathered here (``web.game_parts.parts_of``), not listed again.
"""

from __future__ import annotations

from manoeuvre_sim.web.game_parts import PARTS, parts_of
from manoeuvre_sim.web.games.manoeuvre import forms, odds, replay, views
from manoeuvre_sim.web.studies.views import WhatifPage

ODDS_HOME = {  # its odds page, for the menu and the front page
    "href": "/odds/manoeuvre", "nav": "Odds · Manoeuvre", "title": "Manoeuvre odds",
    "blurb": "Assault, bombardment, volley, ambush, pursuit, rally, withdraw, rockets, and named units: the exact distribution as you type.",
}  # fmt: skip
JOB_LINKS = {"balance": ("/jobs/new", "New balance study"),
             "whatif": ("/whatif/new", "New what-if")}  # the jobs page's buttons  # fmt: skip
WHATIF_KIND = "whatif"  # the job kind of its what-if form (``web.jobs.kinds``)


def _rankings(path):
    from manoeuvre_sim.analyses.manoeuvre.whatif import rankings

    return rankings(path)


# how its what-if reads on /whatif/changed: armies as sides, every army ranked before and after
WHATIF_PAGES = {"whatif": WhatifPage(rankings=_rankings)}

# its forms, odds pages, replay and study pages: the parts those modules define
globals().update(parts_of(forms, odds, replay, views))
__all__ = [name for name in PARTS if name in globals()]
