"""The policies' ids and names and the search player's configuration layout: constants only.

A leaf of the engine's import graph (it imports nothing of the package): the players
(``players/dispatch.py``), the search driver (``search.py``), the rules and the runner all
read these, so none of them has to import another for a number (tests/test_imports.py).
"""

from __future__ import annotations

# --- the policy of a seat: ``pol[seat]`` (options.POL_*) ------------------------------------
POLICY_RANDOM = 0
POLICY_SIMPLE = 1
POLICY_ATTRITIONAL = 2
POLICY_TERRITORIAL = 3
POLICY_BALANCED = 4
POLICY_TUNED = 5  # the heuristic with the tuned vector
POLICY_SEARCH = 6  # new policies go after it
POLICY_NAMES = (
    "random", "simple", "attritional", "territorial", "balanced", "tuned", "search",
)  # fmt: skip

# the search player: rollouts per decision and the style of its rollouts, unless the spec
# names them (``search:BUDGET:STYLE``, players/dispatch.py)
SEARCH_BUDGET = 64
SEARCH_ROLLOUT = "balanced"
SEARCH_MAX_BUDGET = 100_000

# --- the search configuration ``scfg``: ndarray(int32, (2, NSC)), one row per seat -----------
SC_BUDGET = 0  # rollouts per decision (0: the seat does not search)
NSC = 2


def is_search(spec: str) -> bool:
    """True if the policy spec names the search player (``search``, ``search:BUDGET...``)."""
    return str(spec).split(":")[0] == "search"
