"""Which policy decides: the policy ids and names, each policy's parameter vector, and
``choose``, the one entry point the rules call at every decision.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

from manoeuvre_sim.engine.players.heuristic import choose_heuristic
from manoeuvre_sim.engine.players.params import ATTRITIONAL, BALANCED, NPARAM, TERRITORIAL, TUNED
from manoeuvre_sim.engine.players.simple import SIMPLE_PARAMS, _score
from manoeuvre_sim.errors import UsageError
from manoeuvre_sim.rng import keep_best, uniform_below

POLICY_RANDOM = 0
POLICY_SIMPLE = 1
POLICY_ATTRITIONAL = 2
POLICY_TERRITORIAL = 3
POLICY_BALANCED = 4
POLICY_TUNED = 5  # the heuristic with the tuned vector (new policies go after it)
POLICY_NAMES = ("random", "simple", "attritional", "territorial", "balanced", "tuned")
DEFAULT_POLICY = "balanced"  # what simulate and the analyses play unless told otherwise

# each policy's parameter vector (random ignores it)
POLICY_PARAMS = {
    "random": np.zeros(NPARAM),
    "simple": SIMPLE_PARAMS,
    "attritional": ATTRITIONAL,
    "territorial": TERRITORIAL,
    "balanced": BALANCED,
    "tuned": TUNED,
}
DEFAULT_PARAMS = np.array([SIMPLE_PARAMS, SIMPLE_PARAMS])


def params_for(policy_a: str, policy_b: str) -> np.ndarray:
    """The ``(2, NPARAM)`` parameter array for two named policies."""
    return np.array([POLICY_PARAMS[policy_a], POLICY_PARAMS[policy_b]], dtype=np.float64)


def policy_arrays(
    policy_a: str,
    policy_b: str,
    *,
    fair_play: int = 0,
    params_a: Sequence[float] | None = None,
    params_b: Sequence[float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``pol`` array (both policy ids, then the fair-play flags ``options.FLAG_*``) and
    the ``(2, NPARAM)`` parameters for two named policies, each optionally overridden."""
    pol = np.array(
        [POLICY_NAMES.index(policy_a), POLICY_NAMES.index(policy_b), int(fair_play)],
        dtype=np.int32,
    )
    params = params_for(policy_a, policy_b)
    for side, override in ((0, params_a), (1, params_b)):
        if override is not None:
            if len(override) != params.shape[1]:
                raise UsageError(
                    f"params_{'ab'[side]}: expected {params.shape[1]} parameters, "
                    f"got {len(override)}"
                )
            params[side] = override
    return pol, params


@nb.njit(cache=True)
def choose(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n):
    """Index of the option ``seat``'s policy picks among ``opts[:n]`` at decision ``dk``."""
    if n == 1:
        return 0
    kind = pol[seat]
    if kind == POLICY_RANDOM:
        return uniform_below(rng, n)
    if kind >= POLICY_ATTRITIONAL:
        return choose_heuristic(st, units, cards, tprops, params[seat], rng, opts, cb, seat, dk, n)
    best = -1e18
    bi = 0
    ties = 0
    for i in range(n):
        v = _score(st, units, cards, tprops, seat, params, opts, i, dk, cb)
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-12, rng)  # ties: uniform
    return bi
