"""Which policy decides: the policy ids and names, each policy's parameter vector, and
``choose``, the one entry point the rules call at every decision.

A policy is named by a spec string: a policy name (``POLICY_NAMES``), or for the search
player ``search``, ``search:BUDGET`` or ``search:BUDGET:STYLE`` (rollouts per decision, and
the style it plays its rollouts and its other decisions with; ``engine/search.py``), and
after them any of the search options (issue 26), each a letter and its value:

- ``vH``: cut each rollout short after H player turns (1..50) and score it by the learned
  position value (``engine/players/value.py``) instead of playing to the end;
- ``mM``: weigh the style's M best first moves (1..64; default ``SEARCH_MOVES``);
- ``wMODEL``: the value model, data/value/MODEL.npz (default ``VALUE_MODEL``), with ``vH``.

``search:256:tuned:v2:m10`` is the value search of docs/players.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba.core import types

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.jit import EntryPoint, entry_point, kernel
from manoeuvre_sim.core.rng import keep_best, uniform_below
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine.options import POL_FLAGS, POL_ROLLOUT, POL_SIZE
from manoeuvre_sim.manoeuvre.engine.players.battlefield import choose_battlefield
from manoeuvre_sim.manoeuvre.engine.players.heuristic import choose_heuristic
from manoeuvre_sim.manoeuvre.engine.players.params import (
    ATTRITIONAL,
    BALANCED,
    NPARAM,
    TERRITORIAL,
    TUNED,
)
from manoeuvre_sim.manoeuvre.engine.players.simple import SIMPLE_PARAMS, _score
from manoeuvre_sim.manoeuvre.engine.policy_ids import (  # the ids and names: a leaf module
    NSC,
    POLICY_ATTRITIONAL,
    POLICY_NAMES,
    POLICY_RANDOM,
    POLICY_SEARCH,
    SC_BUDGET,
    SC_HORIZON,
    SC_MOVES,
    SC_VALUE,
    SEARCH_BUDGET,
    SEARCH_MAX_BUDGET,
    SEARCH_MOVES,
    SEARCH_ROLLOUT,
    VALUE_MODEL,
    is_search,
)

# each policy's parameter vector (random ignores it)
POLICY_PARAMS = {
    "random": np.zeros(NPARAM),
    "simple": SIMPLE_PARAMS,
    "attritional": ATTRITIONAL,
    "territorial": TERRITORIAL,
    "balanced": BALANCED,
    "tuned": TUNED,
    "search": BALANCED,  # its rollout style's (SEARCH_ROLLOUT) unless the spec names one
}
DEFAULT_PARAMS = np.array([SIMPLE_PARAMS, SIMPLE_PARAMS])


def parse_policy(spec: str, where: str = "policy") -> tuple[str, int, str]:
    """``(name, budget, rollout style)`` of a policy spec (the module docstring); budget and
    rollout style are 0 and ``""`` unless the policy is ``search``. A bad spec raises a
    UsageError naming ``where``."""
    parts = str(spec).split(":")
    name = parts[0]
    if name not in POLICY_NAMES:
        raise UsageError(
            f"{where}: unknown policy {spec!r}; expected one of {', '.join(POLICY_NAMES)}"
            " (search also as search:BUDGET or search:BUDGET:STYLE[:vH][:mM][:wMODEL])"
        )
    if name != "search":
        if len(parts) > 1:
            raise UsageError(f"{where}: {spec!r}: only search takes :BUDGET:STYLE")
        return name, 0, ""
    search_options(spec, where)  # the options after the style, checked
    budget = SEARCH_BUDGET
    if len(parts) > 1:
        try:
            budget = int(parts[1])
        except ValueError:
            budget = -1
        if not (1 <= budget <= SEARCH_MAX_BUDGET):
            raise UsageError(
                f"{where}: {spec!r}: the budget must be a whole number of rollouts in "
                f"1..{SEARCH_MAX_BUDGET}, got {parts[1]!r}"
            )
    rollout = parts[2] if len(parts) > 2 and parts[2] else SEARCH_ROLLOUT
    if rollout not in POLICY_NAMES or rollout == "search":
        styles = ", ".join(x for x in POLICY_NAMES if x != "search")
        raise UsageError(f"{where}: {spec!r}: the rollout style must be one of {styles}")
    return name, budget, rollout


_RANGES = {"v": ("horizon in player turns", 1, 50), "m": ("first moves weighed", 1, 64)}


def search_options(spec: str, where: str = "policy") -> tuple[int, int, str]:
    """``(horizon, first moves weighed, value model)`` of a search spec's options after its
    style (the module docstring): ``(0, SEARCH_MOVES, "")`` when it gives none. A bad option
    raises a UsageError naming ``where``."""
    parts = str(spec).split(":")
    horizon, moves, model = 0, SEARCH_MOVES, ""
    seen = set()
    for part in parts[3:]:
        key, val = part[:1], part[1:]
        if key not in ("v", "m", "w") or key in seen or not val:
            raise UsageError(
                f"{where}: {spec!r}: expected search:BUDGET:STYLE and then any of vH (value "
                f"after H player turns), mM (first moves weighed), wMODEL (value model), once "
                f"each; got {part!r}"
            )
        seen.add(key)
        if key == "w":
            if not all(ch.isalnum() or ch in "_-." for ch in val):
                raise UsageError(f"{where}: {spec!r}: wMODEL: a model name, got {val!r}")
            model = val
            continue
        what, lo, hi = _RANGES[key]
        try:
            num = int(val)
        except ValueError:
            num = lo - 1
        if not (lo <= num <= hi):
            raise UsageError(f"{where}: {spec!r}: {key}: the {what} must be in {lo}..{hi}, "
                             f"got {val!r}")  # fmt: skip
        if key == "v":
            horizon = num
        else:
            moves = num
    if model and not horizon:
        raise UsageError(f"{where}: {spec!r}: wMODEL names the value of vH: give vH too")
    return horizon, moves, (model or VALUE_MODEL) if horizon else ""


def value_record(spec: str) -> dict:
    """What a manifest records of a policy spec's value model: ``{}`` without one, else its
    name and the SHA-256 of its file (``engine/players/value.py``), so a study names the exact
    arrays its search played with."""
    import hashlib

    from manoeuvre_sim.manoeuvre.engine.players.value import value_path

    model = search_options(spec)[2] if is_search(spec) else ""
    if not model:
        return {}
    digest = hashlib.sha256(value_path(model).read_bytes()).hexdigest()[:16]
    return {"value_model": model, "value_sha256": digest}


def params_for(policy_a: str, policy_b: str) -> np.ndarray:
    """The ``(2, NPARAM)`` parameter array for two policy specs (a search player: its
    rollout style's)."""
    return np.array([_params_of(policy_a), _params_of(policy_b)], dtype=np.float64)


def _params_of(spec: str) -> np.ndarray:
    name, _, rollout = parse_policy(spec)
    return POLICY_PARAMS[rollout if name == "search" else name]


def search_config(policy_a: str, policy_b: str) -> np.ndarray:
    """``scfg``, ndarray(float64, (2, NSC)) of ``engine/search.py``: per seat, the search
    player's rollouts per decision (0: the seat does not search), its horizon, the first
    moves it weighs and its packed value model (``policy_ids.SC_*``; the model is loaded
    from its file, a bad one raising a one-line DataError)."""
    from manoeuvre_sim.manoeuvre.engine.players.value import load_value, pack_value

    out = np.zeros((2, NSC), dtype=np.float64)
    for seat, spec in enumerate((policy_a, policy_b)):
        out[seat, SC_BUDGET] = parse_policy(spec)[1]
        out[seat, SC_MOVES] = SEARCH_MOVES
        if is_search(spec):
            horizon, moves, model = search_options(spec)
            out[seat, SC_HORIZON] = horizon
            out[seat, SC_MOVES] = moves
            if horizon:
                out[seat, SC_VALUE:] = pack_value(load_value(model))
    return out


def policy_arrays(
    policy_a: str,
    policy_b: str,
    *,
    fair_play: int = 0,
    params_a: Sequence[float] | None = None,
    params_b: Sequence[float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``pol`` array (``options.POL_*``: both policy ids, the fair-play flags
    ``options.FLAG_*``, no planned decision, a search player's rollout policy) and the
    ``(2, NPARAM)`` parameters for two policy specs, each optionally overridden."""
    pol = np.zeros(POL_SIZE, dtype=np.int32)
    for seat, spec in enumerate((policy_a, policy_b)):
        name, _, rollout = parse_policy(spec)
        pol[seat] = POLICY_NAMES.index(name)
        pol[POL_ROLLOUT + seat] = POLICY_NAMES.index(rollout or name)
    pol[POL_FLAGS] = int(fair_play)
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


@kernel
def choose(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n):
    """Index of the option ``seat``'s policy picks among ``opts[:n]`` at decision ``dk``."""
    if n == 1:
        return 0
    kind = pol[seat]
    if kind == POLICY_SEARCH:  # a decision the search player leaves to its rollout style
        kind = pol[POL_ROLLOUT + seat]
    if kind == POLICY_RANDOM:
        return uniform_below(rng, n)
    if dk == D.D_MAP_SECTION or dk == D.D_EDGE:  # rule 3 set-up choices (battlefield.py)
        return choose_battlefield(st, units, cards, tprops, rng, opts, seat, dk, n)
    if kind >= POLICY_ATTRITIONAL:
        return choose_heuristic(st, units, cards, tprops, params[seat], rng, opts, cb, seat, dk, n)
    best = -1e18
    bi = 0
    ties = 0
    for i in range(n):
        v = _score(st, units, cards, tprops, seat, params, opts, i, dk, cb)
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-12, rng)  # ties: uniform
    return bi


# ``choose`` as the rules call it: through a function pointer (``jit.entry_point``), so the
# rules kernels compile without the players (issue 13: each of the about 20 kernels that
# decide used to compile and link every style's call tree). The game
# context carries the pointer (``game.Context.player``): ``game.new_context`` takes it
# with ``choose_entry()``, Python-built contexts get ``CHOOSE``. One signature, so the
# arrays must be C-contiguous and writable, as the engine allocates them.
_I32_1 = types.int32[::1]
_I32_2 = types.int32[:, ::1]
CHOOSE_SIG = types.int64(
    _I32_1,  # st
    _I32_2,  # units
    types.int32[:, :, ::1],  # cards
    _I32_2,  # tprops
    _I32_1,  # uowner
    _I32_1,  # pol
    types.float64[:, ::1],  # params
    types.uint64[::1],  # rng
    _I32_2,  # opts
    _I32_1,  # cb
    types.int64,  # seat
    types.int64,  # dk
    types.int64,  # n
)
choose_entry = entry_point(choose, CHOOSE_SIG)
CHOOSE = EntryPoint(choose, CHOOSE_SIG)
