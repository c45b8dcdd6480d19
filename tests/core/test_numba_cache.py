"""numba's cache keyed on each game's engine sources (``manoeuvre_sim/core/numba_cache.py``): an
edit to any module a game's kernels are compiled from moves that game's cache to a fresh
directory, an edit elsewhere (another game's engine among it) does not, a child process
keeps its parent's directories, old ones are pruned."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from manoeuvre_sim.core import numba_cache as NC


@pytest.fixture
def package(tmp_path):
    """A copy of the package's sources (no caches) to edit."""
    root = tmp_path / "manoeuvre_sim"
    shutil.copytree(NC.PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _append(path, text="\n# an edit\n"):
    with open(path, "a") as f:
        f.write(text)


@pytest.mark.parametrize(
    "edited",
    [
        "manoeuvre/engine/players/moves.py",  # a kernel two modules below the batch kernels
        "manoeuvre/engine/state.py",  # constants the kernels freeze into their code
        "manoeuvre/combat.py",
        "core/rng.py",
        "core/jit.py",
    ],
)
def test_an_edit_to_an_engine_source_changes_the_key(package, edited):
    before = NC.source_key(package)
    _append(package / edited)
    assert NC.source_key(package) != before


HEX = "hex-"


@pytest.mark.parametrize(
    ("edited", "manoeuvre", "hexgame"),
    [
        ("hexgame/combat.py", False, True),  # Maneuver's engine: its key only
        ("hexgame/state.py", False, True),
        ("manoeuvre/engine/state.py", True, False),  # Manoeuvre's engine: its key only
        ("manoeuvre/combat.py", True, False),
        ("core/jit.py", True, True),  # shared by both engines
        ("core/rng.py", True, True),
    ],
)
def test_each_game_has_its_own_key(package, edited, manoeuvre, hexgame):
    before = (NC.source_key(package), NC.source_key(package, HEX))
    _append(package / edited)
    after = (NC.source_key(package), NC.source_key(package, HEX))
    assert (before[0] != after[0], before[1] != after[1]) == (manoeuvre, hexgame)


def test_the_caches_are_the_registered_games_own_declarations():
    """The registry is the one list of games: each built-in game's cache is what its
    adapter declares (NUMBA_CACHE, ENGINE_SOURCES), read without importing it."""
    from manoeuvre_sim.core.games import BUILT_IN, get_game, hook

    want = tuple(
        (*get_game(key).NUMBA_CACHE, get_game(key).ENGINE_SOURCES)
        for key in BUILT_IN
        if hook(get_game(key), "NUMBA_CACHE") is not None
    )
    assert NC.GAME_CACHES == want == NC.game_caches()
    assert [p for p, _, _ in want] == [NC.PREFIX, HEX]


HEX_KERNEL_SNIPPET = """
import os
from manoeuvre_sim.hexgame.crt import crt_result
from manoeuvre_sim.core.rng import new_state
crt_result(3)
new_state(1, 2)
print(os.environ["NUMBA_CACHE_DIR"])
"""


def test_hex_kernels_are_cached_under_the_hex_key(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", HEX_KERNEL_SNIPPET], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(tmp_path / NC.source_key())
    hex_dir = tmp_path / NC.source_key(prefix=HEX)
    engine_dir = tmp_path / NC.source_key()
    assert list(hex_dir.rglob("crt.crt_result*.nbi")), "the hex kernel is not in its own cache"
    assert not list(engine_dir.rglob("crt.*")), "a hex kernel in Manoeuvre's cache"
    assert list(engine_dir.rglob("rng.*.nbi")), "the shared rng kernels go to NUMBA_CACHE_DIR"


def test_an_edit_outside_the_engine_keeps_the_key(package):
    before = NC.source_key(package)
    _append(package / "core" / "study.py")
    _append(package / "core" / "numba_cache.py")
    assert NC.source_key(package) == before


def test_every_module_with_a_kernel_is_an_engine_source():
    engine = set(NC.engine_files())
    compiles = re.compile(r"@kernel|njit|@intrinsic|@overload|@cfunc|@vectorize")
    with_kernels = {
        p
        for p in NC.PACKAGE.rglob("*.py")
        if compiles.search(p.read_text()) and p.name != "numba_cache.py"
    }
    assert with_kernels, "the scan found no kernel at all"
    missing = sorted(str(p.relative_to(NC.PACKAGE)) for p in with_kernels - engine)
    assert not missing, f"kernels outside numba_cache.ENGINE_SOURCES: {missing}"


def test_the_cache_directory_is_keyed_kept_for_children_and_pruned(package, tmp_path, monkeypatch):
    import numba

    base = tmp_path / "cache"
    key = NC.source_key(package)
    olds = []
    for i in range(NC.KEEP + 2):  # older engines, the oldest first
        d = base / f"{NC.PREFIX}{i:016x}"
        d.mkdir(parents=True)
        os.utime(d, (time.time() - 1000 + i, time.time() - 1000 + i))
        olds.append(d)
    (base / "unrelated").mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base))
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    path = NC.configure(package)
    assert path == base / key and path.is_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(path)
    assert str(path) == numba.config.CACHE_DIR
    # the KEEP most recently used stay: this one and the newest KEEP - 1 others (and the
    # other game's directory)
    kept = sorted(p.name for p in base.iterdir())
    hex_key = NC.source_key(package, HEX)
    assert kept == sorted([key, hex_key, "unrelated", *(d.name for d in olds[-(NC.KEEP - 1) :])])
    # a process started from this one (the variable already keyed) uses the same directory
    assert NC.configure(package) == path
    _append(package / "manoeuvre" / "engine" / "game.py")
    assert NC.configure(package) == base / NC.source_key(package)  # a sibling, not nested


def test_importing_the_package_points_numba_at_the_keyed_directory(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    code = "import os, numba, manoeuvre_sim; print(os.environ['NUMBA_CACHE_DIR'], numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    expected = str(tmp_path / NC.source_key())
    assert out.stdout.split() == [expected, expected]
