"""Fixtures of the workbench's tests: Starlette's TestClient for routes, and Playwright
driving Debian's Chromium for flows.

Playwright's own browser download does not work here (and is never run): the browser is
``/usr/bin/chromium`` from Debian's ``chromium`` package (``tests/web/chromium.py``).
Without it every browser test is deselected and the summary says so in one line
(``tests/conftest.py``: the hooks must be seen by pytest-xdist's controller too).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web.chromium import CHROMIUM, CHROMIUM_ARGS, SKIP_BROWSER, watch_requests


@pytest.fixture
def client(tmp_path):
    """A TestClient of a workbench over an empty studies folder (``tmp_path / 'studies'``)."""
    from manoeuvre_sim.web.app import create_app
    from tests.web.server import local_client

    root = tmp_path / "studies"
    root.mkdir()
    with local_client(create_app(root), raise_server_exceptions=False) as c:
        c.studies = root
        yield c


COIN = "coin=tests.studies.coin_game"  # the toy game's registration (docs/games.md)


@pytest.fixture
def coin_registered(monkeypatch):
    """The coin game registered by the environment alone: ``MANOEUVRE_SIM_GAMES`` set (and
    the repository on ``PYTHONPATH``, for the processes a test starts), and the registry
    made to read it again (``core.games.GAMES`` reads the variable once, on its first use;
    restored after the test)."""
    from manoeuvre_sim.core import games as G

    monkeypatch.setenv(G.ENV, COIN)
    path = [str(Path(__file__).parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    monkeypatch.setattr(G.GAMES, "_games", dict(G.BUILT_IN))
    monkeypatch.setattr(G.GAMES, "_read", False)
    assert list(G.GAMES) == ["manoeuvre", "hex", "coin"]


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
    """A fresh browser page at a laptop's size; a failed request (``watch_requests``) or a
    JavaScript error in it fails the test (``page.problems`` lists them)."""
    context = browser.new_context(viewport={"width": 1366, "height": 820})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda e: problems.append(f"javascript error: {e}"))
    watch_requests(pg, problems)
    pg.problems = problems
    yield pg
    context.close()
