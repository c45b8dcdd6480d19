"""Maneuver in the workbench (its adapter's ``WEB_MODULE``): what only Maneuver shows, under
the names ``web.game_parts`` documents. Its odds page (``odds.py``: ``/odds/hex``), its map
(``board.py``), its replay (``replay.py``, played by ``hexgame/replay_game.py``), its job
forms (``forms.py``) and its study pages (``views.py``, their charts ``charts.py``: the
variant study, the handicap ladder, the Capital map, the what-if), whose parts are gathered here
(``web.game_parts.parts_of``), not listed again.
"""

from __future__ import annotations

from manoeuvre_sim.web.game_parts import PARTS, parts_of
from manoeuvre_sim.web.games.hex import forms, odds, replay, views
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

# its forms, odds pages, replay and study pages: the parts those modules define
globals().update(parts_of(forms, odds, replay, views))
__all__ = [name for name in PARTS if name in globals()]
