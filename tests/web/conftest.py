"""Fixtures of the workbench's tests: Starlette's TestClient for routes, and Playwright
driving Debian's Chromium for flows.

Playwright's own browser download does not work here (and is never run): the browser is
``/usr/bin/chromium`` from Debian's ``chromium`` package. Without it every browser test
(each one that asks for the ``browser`` or ``page`` fixture) is deselected and the summary
says so in one line, with how to install it (``.ci/run`` installs it, so CI always runs
them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MANOEUVRE_SIM_CHROMIUM", "/usr/bin/chromium")
# the flags a headless Chromium needs on a closed machine run as root (docs/ui.md)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SKIP_BROWSER = (
    f"browser tests skipped: no Chromium at {CHROMIUM} "
    "(apt-get install chromium fonts-dejavu-core, as .ci/run does)"
)


_SKIPPED: list[str] = []


def pytest_collection_modifyitems(config, items):
    """Without Chromium, leave out the browser tests (one summary line says so)."""
    if Path(CHROMIUM).exists():
        return
    browser_tests = [i for i in items if {"browser", "page"} & set(getattr(i, "fixturenames", ()))]
    if browser_tests:
        config.hook.pytest_deselected(items=browser_tests)
        items[:] = [i for i in items if i not in browser_tests]
        _SKIPPED.extend(i.nodeid for i in browser_tests)


def pytest_terminal_summary(terminalreporter):
    if _SKIPPED:
        terminalreporter.write_line(f"{len(_SKIPPED)} {SKIP_BROWSER}")


@pytest.fixture
def client(tmp_path):
    """A TestClient of a workbench over an empty studies folder (``tmp_path / 'studies'``)."""
    from starlette.testclient import TestClient

    from manoeuvre_sim.web.app import create_app

    root = tmp_path / "studies"
    root.mkdir()
    with TestClient(create_app(root), raise_server_exceptions=False) as c:
        c.studies = root
        yield c


@pytest.fixture(scope="session")
def browser():
    """A headless Debian Chromium driven by Playwright, shared by the session."""
    if not Path(CHROMIUM).exists():
        pytest.skip(SKIP_BROWSER)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh browser page at a laptop's size; a failed request or a JavaScript error in it
    fails the test (``page.problems`` lists them)."""
    context = browser.new_context(viewport={"width": 1366, "height": 820})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"javascript error: {e}"))
    pg.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    pg.problems = problems
    yield pg
    context.close()
