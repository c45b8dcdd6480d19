"""How the engine is compiled (``manoeuvre_sim/core/jit.py``, issue 13): the rules reach the
players through a function pointer, and kernels link each other's twins without entry
points for Python. Compiled in a fresh numba cache in a child process, so the machine code
is built here rather than loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

# a child process's set-up: a match-up, a game context as a Python caller builds it, a state
SNIPPET_HEAD = """
import json, re, numba, numpy as np
from manoeuvre_sim.manoeuvre.engine import checks, game, state as S
from manoeuvre_sim.manoeuvre.engine.pack import load_packed
from manoeuvre_sim.manoeuvre.engine.players import heuristic, policy_arrays
from manoeuvre_sim.core.rng import new_state
_, _, P = load_packed("France", "Russia")
pol, params = policy_arrays("{policy}", "{policy}")
g = game.python_context(P.tables, pol, params, new_state(1), np.zeros((0, 6), np.int32),
                        np.zeros(1, np.int32))
st = np.zeros(S.STATE_SIZE, np.int32)
"""

# compile checks.decide (Python calls it) for the game context a Python caller builds
DECIDE_SNIPPET = (
    SNIPPET_HEAD.format(policy="balanced")
    + """
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
)


def _child(snippet, **env_vars):
    """Run ``snippet`` in a child Python with the JIT on and ``env_vars`` set; returns the
    JSON its last line prints."""
    env = dict(os.environ, **env_vars)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, env=env, timeout=900
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_rules_compile_without_the_players_and_link_the_twins(tmp_path):
    got = _child(DECIDE_SNIPPET, NUMBA_CACHE_DIR=str(tmp_path))
    # decide calls the players through Context.player: none of their code is in it ...
    assert not got["links_players"]
    # ... while the rules kernels it calls are (the check of the check)
    assert got["links_fog_copy"]
    # and it links fog_copy's twin, which has no entry points for Python
    assert got["fog_copy_twin"] == 1
    assert got["fog_copy_for_python"] == 0


# compile a decision of the heuristic players and the rules' decide, and read their code
REFCOUNT_SNIPPET = (
    SNIPPET_HEAD.format(policy="tuned")
    + """
t = P.tables
args = (st, t.units, t.cards, t.tprops, params[0], g.rng, g.opts, g.cb, 0, 0, 0)
sig = tuple(numba.typeof(a) for a in args)
heuristic.choose_heuristic.compile(sig)
ir = heuristic.choose_heuristic.inspect_llvm(sig)
sig2 = tuple(numba.typeof(a) for a in (st, g, 0, 0, 0))
checks.decide.compile(sig2)
ir += checks.decide.inspect_llvm(sig2)
out = {}
for m in re.finditer(r'^define [^@]*@"?([^"(]+)"?\\(.*?^}', ir, re.S | re.M):
    name, body = m.group(1), m.group(0)
    if "NRT_incref" in body or "NRT_MemInfo_alloc" in body:
        out[name] = True
    else:
        out.setdefault(name, False)
print(json.dumps(out))
"""
)


def test_decisions_count_no_references_and_allocate_nothing(tmp_path):
    """Issue 13: the players' kernels and the rules' decide are compiled without numba's
    runtime: no reference counts, no allocation (jit.py: ``_nrt=False``, ``stack_empty``)."""
    got = _child(REFCOUNT_SNIPPET, NUMBA_CACHE_DIR=str(tmp_path))
    players = {k: v for k, v in got.items() if "7players" in k and "battlefield" not in k}
    # the check of the check: the players' kernels are in the code read
    assert any("choose_heuristic" in k for k in players)
    assert any("_enemy_table" in k for k in players)
    assert any("_with_step5_card" in k for k in players)
    assert [k for k, v in players.items() if v] == []
    decide = [v for k, v in got.items() if "6checks6decide" in k]
    assert decide and not any(decide)


# play games twice with numba's allocation counters on: what the second run allocates, it
# frees (the fair-play check's copies of the state included)
LEAK_SNIPPET = """
import gc, json
from numba.core.runtime import rtsys
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
def run():
    for pol in ("tuned", "simple", "random"):
        r = simulate(SimConfig("France", "Russia", games=100, seed=3, policy_a=pol,
                               policy_b=pol, check_fair_play=1, threads=1))
        del r
    gc.collect()
run()
s0 = rtsys.get_allocation_stats()
run()
s1 = rtsys.get_allocation_stats()
print(json.dumps({"alloc": s1.alloc - s0.alloc, "free": s1.free - s0.free}))
"""


def test_games_free_all_they_allocate():
    """A kernel compiled without numba's runtime that kept an array a kernel with it made
    (``fair_check``'s copy of the state) would never free it: none is kept."""
    got = _child(LEAK_SNIPPET, NUMBA_NRT_STATS="1")
    assert got["alloc"] > 1000  # the check of the check: the fair-play copies are counted
    assert got["alloc"] == got["free"]
