"""Manoeuvre (GMT Games, 2008): the card-driven Napoleonic battle game, the toolkit's first
game: its army and map model (``model``), the numba engine and players (``engine``), the
combat odds (``dice``, ``combat``, ``combat_totals``, ``odds``, ``matchup``), replays
(``replay``), the runner and records (``runner``, ``results``), tuning (``tune*``), the
learned value (``value_*``) and its adapter to the games registry (``adapter``).
"""

# Bumped whenever the engine's reading of the rules changes, so that every result file can
# say which rules produced it (docs/RULE_INTERPRETATIONS.md lists the choices).
RULES_VERSION = "2026.11-5"

# The policy every command and analysis plays unless told otherwise (docs/players.md), in one
# place free of numba so --help stays instant. tuned: it beats balanced held out (issue #16's
# rule), and a card study under it sees an absurdly strong unit card
# (tests/manoeuvre/test_cards.py test_an_absurdly_strong_card_ranks_first plays the default).
DEFAULT_POLICY = "tuned"
