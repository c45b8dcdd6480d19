"""Compiling the engine ahead of a run (``engine/warmup.py``, ``make setup``): it knows
whether numba's cache holds a batch kernel, says so, and refuses an unknown kernel."""

from __future__ import annotations

import os
import subprocess
import sys

from manoeuvre_sim.engine import warmup
from manoeuvre_sim.runner import SimConfig, simulate

EMPTY_CACHE_SNIPPET = """
from manoeuvre_sim.cli._common import start_description
from manoeuvre_sim.engine.warmup import is_compiled
print(is_compiled("games"), is_compiled("cards"))
print(start_description(("games", "cards")))
print(start_description(()))
"""


def _run(code_or_args, cache_dir, module=False):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    env.pop("NUMBA_DISABLE_JIT", None)
    argv = ["-m", *code_or_args] if module else ["-c", code_or_args]
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, env=env, timeout=300
    )


def test_an_empty_cache_is_seen_and_the_bar_says_it_compiles(tmp_path):
    out = _run(EMPTY_CACHE_SNIPPET, tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "False False"
    secs = warmup.COMPILE_SECONDS["games"] + warmup.COMPILE_SECONDS["cards"]
    assert lines[1] == f"compiling the game engine, once, about {secs} s"
    assert lines[2] == "playing"
    assert not list(tmp_path.rglob("*.nbi")), "asking compiled something"


def test_a_played_kernel_is_seen_as_compiled():
    simulate(SimConfig("France", "Russia", games=2, seed=1))
    assert warmup.is_compiled("games")


def test_an_unknown_kernel_is_refused_with_one_line(tmp_path):
    out = _run(["manoeuvre_sim.engine.warmup", "games", "nope"], tmp_path, module=True)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "warmup: unknown kernel 'nope'; expected one of games, cards, search"
    )
    assert not list(tmp_path.rglob("*.nbi")), "a refused warm-up compiled something"
