"""How the engine is compiled (``manoeuvre_sim/jit.py``, issue 13): the rules reach the
players through a function pointer, and kernels link each other's twins without entry
points for Python. Compiled in a fresh numba cache in a child process, so the machine code
is built here rather than loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

# compile checks.decide (Python calls it) for the game context a Python caller builds
DECIDE_SNIPPET = """
import json, numba, numpy as np
from manoeuvre_sim.engine import checks, game, state as S
from manoeuvre_sim.engine.pack import load_packed
from manoeuvre_sim.engine.players import policy_arrays
from manoeuvre_sim.rng import new_state
_, _, P = load_packed("France", "Russia")
pol, params = policy_arrays("balanced", "balanced")
g = game.python_context(P.tables, pol, params, new_state(1), np.zeros((0, 6), np.int32),
                        np.zeros(1, np.int32))
st = np.zeros(S.STATE_SIZE, np.int32)
sig = tuple(numba.typeof(a) for a in (st, g, 0, 0, 0))
checks.decide.compile(sig)
ir = checks.decide.inspect_llvm(sig)
print(json.dumps({
    "links_players": any(x in ir for x in ("choose_heuristic", "_position_value", "_score")),
    "links_fog_copy": "fog_copy" in ir,
    "fog_copy_twin": len(checks.fog_copy._inner.overloads),
    "fog_copy_for_python": len(checks.fog_copy.overloads),
}))
"""


def test_the_rules_compile_without_the_players_and_link_the_twins(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", DECIDE_SNIPPET], capture_output=True, text=True, env=env,
        timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    # decide calls the players through Context.player: none of their code is in it ...
    assert not got["links_players"]
    # ... while the rules kernels it calls are (the check of the check)
    assert got["links_fog_copy"]
    # and it links fog_copy's twin, which has no entry points for Python
    assert got["fog_copy_twin"] == 1
    assert got["fog_copy_for_python"] == 0
