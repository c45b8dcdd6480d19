"""The policies' ids and names and the search player's configuration layout: constants only.

A leaf of the engine's import graph (it imports nothing of the package): the players
(``players/dispatch.py``), the search driver (``search.py``), the rules and the runner all
read these, so none of them has to import another for a number (an import-linter contract, pyproject.toml).
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
SEARCH_MOVES = 6  # first moves weighed: the rollout style's best six (``search:...:mM``)

# the search player with a learned value (issue 26, ``search:BUDGET:STYLE:vH[:mM][:wMODEL]``):
# the model data/value/<MODEL>.npz unless the spec names one, and the first moves it weighs
VALUE_MODEL = "tuned"
VALUE_NFEAT = 25  # the features' count (engine/players/features.py NFEAT, which checks it)

# --- the search configuration ``scfg``: ndarray(float64, (2, NSC)), one row per seat ---------
SC_BUDGET = 0  # rollouts per decision (0: the seat does not search)
SC_HORIZON = 1  # player turns a rollout plays before the value scores it (0: to the end)
SC_MOVES = 2  # first moves weighed (SEARCH_MOVES unless the spec says)
SC_VALUE = 3  # the value model, packed (engine/players/value.py pack_value): 3 * VALUE_NFEAT + 1
NSC = SC_VALUE + 3 * VALUE_NFEAT + 1


def is_search(spec: str) -> bool:
    """True if the policy spec names the search player (``search``, ``search:BUDGET...``)."""
    return str(spec).split(":")[0] == "search"
