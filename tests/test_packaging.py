"""The installed package holds every subpackage of the sources: pyproject's explicit
``packages`` list (the repository maps cli/ and analyses/ under manoeuvre_sim) must name
each folder with an ``__init__.py``, or a wheel (not the editable install the suite runs
on) would ship without it."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_source_package_is_listed_in_pyproject():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    dirs = cfg["setuptools"]["package-dir"]  # installed name -> folder
    listed = set(cfg["setuptools"]["packages"])
    found = set()
    for name, folder in dirs.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            if "__pycache__" in rel:
                continue
            found.add(".".join((name, *rel)))
    missing = sorted(found - listed)
    assert not missing, f"pyproject.toml [tool.setuptools] packages lacks {missing}"
