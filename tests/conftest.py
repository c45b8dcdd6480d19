"""Shared fixtures. Tests may read ../shared/ (the reference facts); the package never does."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    ref = SHARED / "reference"
    if not ref.is_dir():
        pytest.fail(f"the reference facts are expected at {ref} (shared/ beside the checkout)")
    return ref


@pytest.fixture(scope="session")
def armies():
    from manoeuvre_sim.model import load_builtin_armies

    return {a.name: a for a in load_builtin_armies()}
