"""Run import-linter's contracts (pyproject.toml, ``[tool.importlinter]``) over the whole
library as it is installed: ``manoeuvre_sim`` with ``cli/`` and ``analyses/`` under it.

import-linter (grimp) finds a package by walking its directory, and the installed
``manoeuvre_sim.cli`` and ``manoeuvre_sim.analyses`` live in the top-level folders ``cli/``
and ``analyses/`` (pyproject's ``package-dir``; DESIGN.md, "The layout"), which a walk of
``manoeuvre_sim/`` never reaches. So this script lays the installed tree out once more, as
links to the real files, under ``build/import-tree/`` (each ``package-dir`` entry at its
import name), and runs ``lint-imports`` with that tree first on the path. Nothing is copied:
an edit shows at once. ``make lint`` (and so ``make test``) runs it::

    python scripts/lint_imports.py            # every contract
    python scripts/lint_imports.py --verbose  # lint-imports' own options pass through
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "import-tree"


def package_dirs() -> dict[str, Path]:
    """Import name -> folder, as pyproject's ``package-dir`` maps them (Python packages only:
    a folder with an ``__init__.py``)."""
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = cfg["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / d for name, d in dirs.items() if (ROOT / d / "__init__.py").is_file()}


def build_tree() -> Path:
    """``build/import-tree/`` afresh: every ``.py`` file of every mapped folder linked at the
    path its import name gives it (a folder mapped elsewhere is left to its own entry)."""
    if TREE.exists():
        shutil.rmtree(TREE)
    dirs = package_dirs()
    for name, src in dirs.items():
        dest = TREE.joinpath(*name.split("."))
        for f in src.rglob("*.py"):
            rel = f.relative_to(src)
            if any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
                continue
            if f"{name}.{rel.parts[0]}" in dirs and len(rel.parts) > 1:
                continue  # e.g. a folder of manoeuvre_sim/ mapped on its own
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(f)
    return TREE


def main(argv: list[str]) -> int:
    tree = build_tree()
    # run from the tree: lint-imports puts its working directory first on the path, so the
    # tree's manoeuvre_sim is the one found (before the editable install's finder)
    exe = Path(sys.executable).with_name("lint-imports")
    cmd = [str(exe) if exe.exists() else "lint-imports", str(ROOT / "pyproject.toml"), *argv]
    return subprocess.run(cmd, cwd=tree, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
