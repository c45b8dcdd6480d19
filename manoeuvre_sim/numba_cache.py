"""numba's cache, keyed on the engine's sources.

numba checks a cached kernel against its own source file only: after an edit to a kernel in
another module that it calls, it would load the stale machine code. So the package points
numba's cache (``NUMBA_CACHE_DIR``) at a directory named by a hash of the engine's sources
(``ENGINE_SOURCES``: every module with kernels, and the engine's modules of constants),
``<base>/engine-<hash>``: any change to them (a ``git pull``, an edit) starts a fresh cache,
compiled once, and an unchanged engine finds its kernels again.

``<base>`` is the ``NUMBA_CACHE_DIR`` the process was started with, else
``manoeuvre_sim/__pycache__/numba`` beside the sources (where numba would have put its files),
else, if that cannot be written, ``$XDG_CACHE_HOME/manoeuvre-sim`` (``~/.cache``). The
``KEEP`` most recently used engine directories stay, older ones are removed. Nothing here
imports numba: ``configure`` runs when the package is imported, before any kernel exists.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PREFIX = "engine-"
# what the kernels are compiled from, relative to the package: a directory stands for every
# ``*.py`` under it (tests/test_numba_cache.py checks that every module with a kernel is here)
ENGINE_SOURCES = ("engine", "hexgame", "combat.py", "jit.py", "rng.py")
KEEP = 3  # engine versions kept per base directory (36 MB each, 2026-11)


def engine_files(root: Path = PACKAGE) -> list[Path]:
    """The files of ``ENGINE_SOURCES`` under ``root``, in path order."""
    files = []
    for name in ENGINE_SOURCES:
        p = root / name
        files += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return sorted(files)


def source_key(root: Path = PACKAGE) -> str:
    """``engine-`` and 16 hex digits of the SHA-256 of the engine's sources under ``root``
    (each file's relative path and contents, in path order)."""
    h = hashlib.sha256()
    for path in engine_files(root):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return PREFIX + h.hexdigest()[:16]


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
    """Point numba's cache at ``<base>/<source_key(root)>`` (the module docstring), for this
    process and the processes it starts; returns the directory. A ``NUMBA_CACHE_DIR`` that
    ends in a key already (set by the process that started this one) stands for its base."""
    key = source_key(root)
    current = Path(os.environ.get("NUMBA_CACHE_DIR", ""))
    if current.name.startswith(PREFIX):  # keyed already, by the process that started this one
        current = current.parent
    base = current if current.name else _default_base()
    path = base / key
    try:
        path.mkdir(parents=True, exist_ok=True)
        os.utime(path)  # most recently used
        _prune(base, key)
    except OSError:
        pass  # numba says so itself if it cannot write its cache there
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    if "numba" in sys.modules:  # imported before us: it read the variable already
        sys.modules["numba"].config.CACHE_DIR = str(path)
    return path


def _prune(base: Path, key: str) -> None:
    """Remove all but the ``KEEP`` most recently used engine directories under ``base``."""
    olds = [p for p in base.glob(PREFIX + "*") if p.is_dir() and p.name != key]
    olds.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for p in olds[KEEP - 1 :]:
        shutil.rmtree(p, ignore_errors=True)
