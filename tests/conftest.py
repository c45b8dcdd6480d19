"""Shared fixtures. The reference facts are the copy in tests/fixtures/reference/ (see its
README.md); nothing here reads a path outside the checkout."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "tests" / "fixtures" / "reference"


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """The project's transcription of the printed components (tests/fixtures/reference)."""
    if not (REFERENCE / "manoeuvre_cards.csv").is_file():
        pytest.fail(f"the reference facts are missing from {REFERENCE} (part of the repository)")
    return REFERENCE


@pytest.fixture(scope="session")
def armies():
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    return {a.name: a for a in load_builtin_armies()}


class CliRun(NamedTuple):
    """One run of the command line: its exit status and its stdout + stderr."""

    exit_code: int
    output: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run the real entry point (user errors exit 2) and capture stdout + stderr:
    ``code, text = cli("tune", "--generations", "0")`` or ``cli(...).exit_code``. The
    process's arguments are the command's, as when typed (a manifest records them)."""
    from manoeuvre_sim.cli.main import main

    def run(*args) -> CliRun:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["manoeuvre-sim", *map(str, args)])
        code = 0
        try:
            main(list(args))
        except SystemExit as e:
            code = e.code
        out = capsys.readouterr()
        return CliRun(code, out.out + out.err)

    return run
