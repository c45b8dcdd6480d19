"""Maneuver, the introductory hex-and-counter wargame (rules 001): the toolkit's second game.

*Maneuver* and *Manoeuvre* differ by one letter, so nothing of this game is named after it:
its package is ``hexgame``, its command group ``manoeuvre-sim hex``, and every page and
``--help`` gives its full title (:data:`GAME_TITLE`). The engine is its own (a 10 x 14 hex
map, zones of control, supply, a differential results table); it shares no rules code with
Manoeuvre's engine, only the seeded RNG and the study machinery.
"""

from __future__ import annotations

GAME_KEY = "hex"
GAME_TITLE = "Maneuver (the introductory hex wargame, rules 001)"
# the players (``players.py``), named here so that ``--help`` imports no numba
POLICIES = ("random", "capital", "attrition")

# Maneuver's rules version: changes whenever an interpretation (docs/RULE_INTERPRETATIONS.md,
# entries H1..) or the engine's reading of a rule changes, so records of two versions are
# never mixed silently.
RULES_VERSION = "hex-2026.11-1"
