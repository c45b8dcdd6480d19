"""Shared fixtures. Tests may read ../shared/ (the reference facts); the package never does."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

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


class CliRun(NamedTuple):
    """One run of the command line: its exit status and its stdout + stderr."""

    exit_code: int
    output: str


@pytest.fixture
def cli(capsys):
    """Run the real entry point (user errors exit 2) and capture stdout + stderr:
    ``code, text = cli("tune", "--generations", "0")`` or ``cli(...).exit_code``."""
    from manoeuvre_sim.cli.main import main

    def run(*args) -> CliRun:
        capsys.readouterr()
        code = 0
        try:
            main(list(args))
        except SystemExit as e:
            code = e.code
        out = capsys.readouterr()
        return CliRun(code, out.out + out.err)

    return run
