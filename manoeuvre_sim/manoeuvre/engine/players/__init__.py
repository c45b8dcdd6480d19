"""Player policies: given the legal options of a decision, choose one.

A policy sees only what its seat may see: the board, its own hand, counts, and the
opponent's hand only while a Scout/Spy it played this turn is in effect (``REVEALED``).
The policies read nothing else of the state.

Policies (``POLICY_*``), each driven by a parameter vector ``params[seat]``:

* ``random``: uniform over the legal options at every decision (the rules' reference player).
* ``simple``: a sensible one-ply heuristic (``simple.py``; the engine issue's baseline).
* ``attritional``, ``territorial``, ``balanced`` (the default), ``tuned`` (by self-play,
  ``manoeuvre-sim tune``): the styles of the heuristic policy (``heuristic.py``), one
  parameter vector each (``params.py``, ``POLICY_PARAMS``).
* ``search`` (``search:BUDGET:STYLE``): the search player. Its discard, first move and combat
  are chosen by the driver in ``engine/search.py``, which plays games forward and sets them
  as planned decisions (``options.POL_PLAN_*``); here it takes its other decisions by its
  rollout style (``pol[POL_ROLLOUT + seat]``, with that style's parameters).

The modules, from the bottom up: ``params`` (the parameter vector), ``odds`` (exact combat
odds from the dice tables), ``cards`` (what a card in hand is worth; the posture switch),
``moves``, ``combat``, ``heuristic`` (the heuristic policy's decisions), ``simple``,
``battlefield`` (the rule 3 set-up choices of ``--setup rules``: the first player's sections,
the second player's edge, for ``simple`` and the styles alike), and ``dispatch``
(``choose``, the entry point the rules call, and the parsing of policy specs). The policy
ids and names are in ``engine/policy_ids.py``, a leaf the search driver reads too.
"""

from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
from manoeuvre_sim.manoeuvre.engine.players.dispatch import (
    DEFAULT_PARAMS,
    POLICY_PARAMS,
    choose,
    params_for,
    parse_policy,
    policy_arrays,
    search_config,
)
from manoeuvre_sim.manoeuvre.engine.players.params import NPARAM, PARAM_NAMES
from manoeuvre_sim.manoeuvre.engine.policy_ids import (
    POLICY_ATTRITIONAL,
    POLICY_BALANCED,
    POLICY_NAMES,
    POLICY_RANDOM,
    POLICY_SEARCH,
    POLICY_SIMPLE,
    POLICY_TERRITORIAL,
    POLICY_TUNED,
)

__all__ = [
    "DEFAULT_PARAMS",
    "DEFAULT_POLICY",
    "NPARAM",
    "PARAM_NAMES",
    "POLICY_ATTRITIONAL",
    "POLICY_BALANCED",
    "POLICY_NAMES",
    "POLICY_PARAMS",
    "POLICY_RANDOM",
    "POLICY_SEARCH",
    "POLICY_SIMPLE",
    "POLICY_TERRITORIAL",
    "POLICY_TUNED",
    "choose",
    "params_for",
    "parse_policy",
    "policy_arrays",
    "search_config",
]
