"""numba's cache, keyed on each game's engine sources.

numba checks a cached kernel against its own source file only: after an edit to a kernel in
another module that it calls, it would load the stale machine code. So the package points
numba's cache at directories named by a hash of the sources the kernels are compiled from,
one per game (``GAME_CACHES``, from each registered game's adapter: ``NUMBA_CACHE``,
``ENGINE_SOURCES``): Manoeuvre's engine (``engine/`` and the shared modules) in
``<base>/engine-<hash>`` (``NUMBA_CACHE_DIR``, where every kernel outside another game's
folder goes), Maneuver's (``hexgame/`` and the shared modules) in ``<base>/hex-<hash>``
(numba finds it through ``install_locator``). An edit to one game's engine starts a fresh
cache for that game only, compiled once; the other game's kernels are found again, and so
are those of an unchanged engine.

``<base>`` is the ``NUMBA_CACHE_DIR`` the process was started with, else
``manoeuvre_sim/__pycache__/numba`` beside the sources (where numba would have put its files),
else, if that cannot be written, ``$XDG_CACHE_HOME/manoeuvre-sim`` (``~/.cache``). The
``KEEP`` most recently used directories of each game stay, older ones are removed. Nothing
here imports numba at import: ``configure`` runs when the package is imported, before any
kernel exists, and ``install_locator`` when ``jit.py`` (which every kernel module imports)
is.
"""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # manoeuvre_sim/
PREFIX = "engine-"  # Manoeuvre's directories: the one NUMBA_CACHE_DIR names


def _declared(path: Path) -> dict:
    """The constants a game's adapter declares for its cache (``NUMBA_CACHE``,
    ``ENGINE_SOURCES``), read from its source, not imported: the cache is configured when
    the package is imported, before any module of a game is."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            name = getattr(node.targets[0], "id", None)
            if name in ("NUMBA_CACHE", "ENGINE_SOURCES"):
                out[name] = ast.literal_eval(node.value)
    return out


def game_caches() -> tuple[tuple[str, str | None, tuple[str, ...]], ...]:
    """Each built-in game's kernels (``core.games.BUILT_IN``: the games of the package; a
    game registered from outside it, or one that declares no ``NUMBA_CACHE``, has none): the
    prefix of its cache directories, the folder of its own kernels (None: every kernel not
    in another game's folder) and what they are compiled from, relative to the package (a
    directory stands for every ``*.py`` under it; tests/core/test_numba_cache.py checks that
    every module with a kernel is some game's source)."""
    from manoeuvre_sim.core.games import BUILT_IN

    out = []
    for module, _ in BUILT_IN.values():
        parts = module.split(".")
        path = PACKAGE.joinpath(*parts[1:]).with_suffix(".py")
        if parts[0] != PACKAGE.name or not path.is_file():
            continue
        d = _declared(path)
        if "NUMBA_CACHE" in d:
            prefix, folder = d["NUMBA_CACHE"]
            out.append((prefix, folder, tuple(d["ENGINE_SOURCES"])))
    return tuple(out)


GAME_CACHES = game_caches()
ENGINE_SOURCES = tuple(sorted({name for _, _, names in GAME_CACHES for name in names}))
KEEP = 3  # engine versions kept per game and base directory (36 MB each, 2026-11)
# a game's kernel folder (absolute, with a trailing separator) -> its cache directory
_FOLDER_DIRS: dict[str, str] = {}


def _sources(prefix: str | None) -> tuple[str, ...]:
    if prefix is None:
        return ENGINE_SOURCES
    for p, _, names in GAME_CACHES:
        if p == prefix:
            return names
    raise ValueError(f"no game's cache has the prefix {prefix!r}")


def engine_files(root: Path = PACKAGE, prefix: str | None = None) -> list[Path]:
    """The source files of the game whose directories start with ``prefix`` (every game's
    when None) under ``root``, in path order."""
    files = set()
    for name in _sources(prefix):
        p = root / name
        files.update(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return sorted(files)


def source_key(root: Path = PACKAGE, prefix: str = PREFIX) -> str:
    """``prefix`` and 16 hex digits of the SHA-256 of that game's sources under ``root``
    (each file's relative path and contents, in path order): Manoeuvre's by default."""
    h = hashlib.sha256()
    for path in engine_files(root, prefix):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return prefix + h.hexdigest()[:16]


def _default_base() -> Path:
    pycache = PACKAGE / "__pycache__"
    try:
        pycache.mkdir(exist_ok=True)
        if os.access(pycache, os.W_OK):
            return pycache / "numba"
    except OSError:
        pass
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "manoeuvre-sim"


def configure(root: Path = PACKAGE) -> Path:
    """Point numba's cache at ``<base>/<source_key(root)>`` (the module docstring), and each
    other game's kernels at ``<base>/<its key>``, for this process and the processes it
    starts; returns Manoeuvre's directory. A ``NUMBA_CACHE_DIR`` that ends in a key already
    (set by the process that started this one) stands for its base."""
    current = Path(os.environ.get("NUMBA_CACHE_DIR", ""))
    if current.name.startswith(PREFIX):  # keyed already, by the process that started this one
        current = current.parent
    base = current if current.name else _default_base()
    path = base
    for prefix, folder, _ in GAME_CACHES:
        key = source_key(root, prefix)
        d = base / key
        try:
            d.mkdir(parents=True, exist_ok=True)
            os.utime(d)  # most recently used
            _prune(base, prefix, key)
        except OSError:
            pass  # numba says so itself if it cannot write its cache there
        if folder is None:
            path = d
        else:
            _FOLDER_DIRS[os.path.join(str(root / folder), "")] = str(d)
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    if "numba" in sys.modules:  # imported before us: it read the variable already
        sys.modules["numba"].config.CACHE_DIR = str(path)
    return path


def game_cache_dir(py_file: str) -> str | None:
    """The cache directory of the game whose kernel folder holds ``py_file`` (None: the
    file's kernels go to ``NUMBA_CACHE_DIR``)."""
    path = os.path.abspath(py_file)
    for folder, d in _FOLDER_DIRS.items():
        if path.startswith(folder):
            return d
    return None


def install_locator() -> None:
    """Have numba cache the kernels of a game's own folder in that game's directory
    (``configure``): a cache locator consulted before numba's own, once per process."""
    from numba.core import caching

    if any(getattr(c, "game_keyed", False) for c in caching.CacheImpl._locator_classes):
        return

    class GameCacheLocator(caching.UserProvidedCacheLocator):
        """numba's locator for ``NUMBA_CACHE_DIR``, with the game's directory instead."""

        game_keyed = True

        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            sub = self.get_suitable_cache_subpath(py_file)
            self._cache_path = os.path.join(game_cache_dir(py_file), sub)

        @classmethod
        def from_function(cls, py_func, py_file):
            if game_cache_dir(py_file) is None:
                return None
            return super().from_function(py_func, py_file)

    caching.CacheImpl._locator_classes.insert(0, GameCacheLocator)


def _prune(base: Path, prefix: str, key: str) -> None:
    """Remove all but the ``KEEP`` most recently used ``prefix`` directories under ``base``."""
    olds = [p for p in base.glob(prefix + "*") if p.is_dir() and p.name != key]
    olds.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for p in olds[KEEP - 1 :]:
        shutil.rmtree(p, ignore_errors=True)
