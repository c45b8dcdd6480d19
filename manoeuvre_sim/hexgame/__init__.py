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
# the search player's spec ``search[:BUDGET[:STYLE[:SCOPE]]]`` (``search.py``): rollouts per
# movement phase, the scripted style of its plans and rollouts, and what it searches:
# ``moves`` (its movement plans; its combat decisions are its style's) or ``all`` (its
# movement plans and its combat decisions). ``moves`` stays the default: at equal time it
# plays better than ``all`` (``python -m benchmarks hex``; docs/hex.md)
SEARCH_BUDGET = 32
SEARCH_STYLE = "capital"
SEARCH_SCOPE = "moves"
SEARCH_SCOPES = ("moves", "all")
SEARCH_MAX_BUDGET = 4096
POLICY_SPECS = (*POLICIES, "search[:BUDGET[:STYLE[:SCOPE]]]")


def search_scope(spec: str) -> str:
    """The SCOPE of a search spec (:data:`SEARCH_SCOPES`; ``moves`` unless given)."""
    parse_policy(spec)
    parts = str(spec).strip().split(":")
    return parts[3] if len(parts) > 3 and parts[3] else SEARCH_SCOPE


def parse_policy(spec: str) -> tuple[str, int, str]:
    """``(name, budget, style)`` of a policy spec: a player of :data:`POLICIES` (budget 0),
    or ``search[:BUDGET[:STYLE[:SCOPE]]]``, STYLE ``capital`` or ``attrition``, SCOPE ``all``
    or ``moves`` (:func:`search_scope`); an empty field takes its default. ValueError
    otherwise."""
    parts = str(spec).strip().split(":")
    if parts[0] in POLICIES and len(parts) == 1:
        return parts[0], 0, parts[0]
    if parts[0] != "search" or len(parts) > 4:
        raise ValueError(f"unknown policy {spec!r}; expected one of: {', '.join(POLICY_SPECS)}")
    budget, style = SEARCH_BUDGET, SEARCH_STYLE
    if len(parts) > 1 and parts[1]:
        if not parts[1].isdigit() or not 1 <= int(parts[1]) <= SEARCH_MAX_BUDGET:
            raise ValueError(
                f"policy {spec!r}: the search budget is 1..{SEARCH_MAX_BUDGET} rollouts"
            )
        budget = int(parts[1])
    if len(parts) > 2 and parts[2]:
        style = parts[2]
        if style not in ("capital", "attrition"):
            raise ValueError(f"policy {spec!r}: the search style is capital or attrition")
    if len(parts) > 3 and parts[3] and parts[3] not in SEARCH_SCOPES:
        raise ValueError(f"policy {spec!r}: the search scope is all or moves")
    return "search", budget, style


# Maneuver's rules version: changes whenever an interpretation (docs/RULE_INTERPRETATIONS.md,
# entries H1..) or the engine's reading of a rule changes, so records of two versions are
# never mixed silently.
RULES_VERSION = "hex-2026.12-1"
