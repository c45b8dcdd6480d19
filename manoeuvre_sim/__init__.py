"""manoeuvre-sim: a rules engine and balance-analysis toolkit for Manoeuvre (GMT Games).

The library never imports the command line, pandas plotting or matplotlib; see the README's
architecture section for the one-way data flow.
"""

__version__ = "0.1.0"

# Bumped whenever the engine's reading of the rules changes, so that every result file can
# say which rules produced it (docs/RULE_INTERPRETATIONS.md lists the choices).
RULES_VERSION = "2026.11-4"
