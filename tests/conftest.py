"""Shared fixtures. The reference facts are the copy in tests/fixtures/reference/ (see its
README.md); nothing here reads a path outside the checkout."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.web.chromium import BROWSER_FIXTURES, CHROMIUM, SKIP_BROWSER

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


# --- the browser tests without Chromium ---------------------------------------------------
# Here, not in tests/web/conftest.py: pytest-xdist's controller collects nothing, so it
# loads only this conftest; the workers deselect and report their count to it.
_BROWSER_SKIPPED: list[int] = []


def pytest_collection_modifyitems(config, items):
    """Without Chromium, leave out the browser tests (one summary line says so)."""
    if Path(CHROMIUM).exists():
        return
    browser_tests = [i for i in items if BROWSER_FIXTURES & set(getattr(i, "fixturenames", ()))]
    if browser_tests:
        config.hook.pytest_deselected(items=browser_tests)
        items[:] = [i for i in items if i not in browser_tests]
        _BROWSER_SKIPPED.append(len(browser_tests))


def pytest_sessionfinish(session):
    output = getattr(session.config, "workeroutput", None)  # an xdist worker's
    if output is not None:
        output["browser_tests_skipped"] = sum(_BROWSER_SKIPPED)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist's controller: each worker collected every test, so each counts them all."""
    n = getattr(node, "workeroutput", {}).get("browser_tests_skipped", 0)
    if n and not _BROWSER_SKIPPED:
        _BROWSER_SKIPPED.append(n)


def pytest_terminal_summary(terminalreporter):
    if sum(_BROWSER_SKIPPED):
        terminalreporter.write_line(f"{sum(_BROWSER_SKIPPED)} {SKIP_BROWSER}")
