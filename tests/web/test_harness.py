"""The browser tests' harness: without Chromium, ``make test`` leaves the browser tests out
and says so in one line with how to get them, whether the suite runs in one process or on
every core (pytest-xdist's workers deselect them; the controller, which collects nothing,
prints their count); with it, a failed request fails a test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BROWSER_FILE = "tests/web/test_odds_browser.py"  # every test in it drives Chromium
OTHER = "tests/web/test_app.py::test_home_and_vendored_scripts"


@pytest.mark.parametrize("workers", [["-n", "2"], ["-p", "no:xdist"]], ids=["xdist", "one"])
def test_no_chromium_says_so_in_one_line(workers):
    env = dict(os.environ, MANOEUVRE_SIM_CHROMIUM="/nonexistent/chromium")
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers,
         BROWSER_FILE, OTHER],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:]
    lines = [x for x in out.stdout.splitlines() if "browser tests skipped" in x]
    n = len(re.findall(r"^def test_", (REPO / BROWSER_FILE).read_text(), re.M))
    assert lines == [
        f"{n} browser tests skipped: no Chromium at /nonexistent/chromium "
        "(apt-get install chromium fonts-dejavu-core, as .ci/run does)"
    ]
    assert "1 passed" in out.stdout


def test_a_missing_file_is_still_a_problem(browser, tmp_path):
    """The harness's own check (``watch_requests``, which lets pass the requests a test's
    navigation cuts short): a page asking for a file that is not there fails a test."""
    from tests.web.chromium import watch_requests

    (tmp_path / "a.html").write_text('<img src="missing.png"><p>a</p>', encoding="utf-8")
    context = browser.new_context()
    pg = context.new_page()
    problems: list[str] = []
    watch_requests(pg, problems)
    pg.goto((tmp_path / "a.html").as_uri())
    pg.wait_for_load_state("load")
    context.close()
    assert len(problems) == 1 and "missing.png (net::ERR_FILE_NOT_FOUND)" in problems[0]
