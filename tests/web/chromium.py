"""Where the browser tests find Chromium, and what they say without it.

The browser is Debian's ``chromium`` package at ``/usr/bin/chromium`` (another path:
``MANOEUVRE_SIM_CHROMIUM``); Playwright's own browser download is never used. Without it
every browser test (each one that asks for the ``browser`` or ``page`` fixture) is
deselected and the summary says so in one line, with how to install it (``.ci/run``
installs it, so CI always runs them).
"""

from __future__ import annotations

import os

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
BROWSER_FIXTURES = {"browser", "page"}


def watch_requests(page, problems: list[str]) -> None:
    """Add each failed request of ``page`` to ``problems``, but one the browser aborted
    (``net::ERR_ABORTED``): that is a request still in flight when the test navigated away
    (the favicon Chromium asks for after a page's load, an htmx poll), which says nothing
    about the page. A missing file (``net::ERR_FILE_NOT_FOUND``) or a refused connection
    is still a problem."""

    def failed(request) -> None:
        if request.failure != "net::ERR_ABORTED":
            problems.append(f"request failed: {request.url} ({request.failure})")

    page.on("requestfailed", failed)
