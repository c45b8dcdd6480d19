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
