"""manoeuvre-sim: a rules engine and balance-analysis toolkit for Manoeuvre (GMT Games).

The library never imports the command line, pandas plotting or matplotlib; see
docs/architecture.md for the one-way data flow.
"""

from manoeuvre_sim.numba_cache import configure as _configure_numba_cache

__version__ = "0.1.0"

# numba's cache keyed on the engine's sources (numba_cache.py), before any kernel exists
_configure_numba_cache()

# Bumped whenever the engine's reading of the rules changes, so that every result file can
# say which rules produced it (docs/RULE_INTERPRETATIONS.md lists the choices).
RULES_VERSION = "2026.11-5"

# The policy every command and analysis plays unless told otherwise (docs/players.md), in one
# place free of numba so --help stays instant. tuned: it beats balanced held out (issue #16's
# rule), and a card study under it sees an absurdly strong unit card
# (tests/test_cards.py test_an_absurdly_strong_card_ranks_first plays the default).
DEFAULT_POLICY = "tuned"
