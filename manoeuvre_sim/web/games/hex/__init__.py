"""Maneuver in the workbench (its adapter's ``WEB_MODULE``): what only Maneuver shows, under
the names ``web.game_parts`` documents. Its odds page (``odds.py``: ``/odds/hex``), its map
(``board.py``), its replay (``replay.py``, played by ``hexgame/replay_game.py``), its job
forms (``forms.py``) and its study pages (``views.py``: the variant study, the handicap
ladder, the Capital map, the what-if).
"""

from __future__ import annotations

from manoeuvre_sim.web.games.hex.forms import (
    balance_form,
    balance_job,
    library_defaults,
    whatif_form,
    whatif_job,
    whatif_start,
)
from manoeuvre_sim.web.games.hex.odds import ROUTES
from manoeuvre_sim.web.games.hex.replay import REPLAY_PARAMS, replay_game
from manoeuvre_sim.web.games.hex.views import STUDY_VIEWS
from manoeuvre_sim.web.studies.views import WhatifPage

ODDS_HOME = {  # its odds page, for the menu and the front page
    "href": "/odds/hex", "nav": "Odds · Maneuver", "title": "Maneuver odds",
    "blurb": "Attacking and defending units of the scenario, supply, the Capital, step losses.",
}  # fmt: skip
JOB_LINKS = {"balance": ("/jobs/new?game=hex", "New Maneuver variant study"),
             "whatif": ("/whatif/new?game=hex", "New Maneuver what-if")}  # the jobs page's buttons  # fmt: skip
WHATIF_KIND = "hex whatif"  # the job kind of its what-if form (``web.jobs.kinds``)

# how its what-if reads on /whatif/changed: players as sides, blue and red; its variant is a
# scenario file, which the replay page does not load (it replays the built-in scenario's)
WHATIF_PAGES = {"hex whatif": WhatifPage(("policy_a", "policy_b"), ("blue", "red"), False)}

__all__ = [
    "JOB_LINKS", "ODDS_HOME", "REPLAY_PARAMS", "ROUTES", "STUDY_VIEWS", "WHATIF_KIND", "WHATIF_PAGES", "balance_form",
    "balance_job", "library_defaults", "replay_game", "whatif_form", "whatif_job", "whatif_start",
]  # fmt: skip
