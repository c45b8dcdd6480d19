"""Real tiny studies for the comparison's tests (issue 33, item 3), made once per session
with the command line in process (tests/web/study_fixtures.py's helpers).

Under ``root``: ``random`` (France, Russia and an army named ``<script>alert(1)</script>``,
12 games per ordered pairing, ``--policy random``, seed 1); ``simple`` (the same armies and
seed under ``--policy simple``: the same seeds, so paired with ``random``); ``seed2`` (as
``random`` on seed 2: independent of it); ``both`` (the same under ``--policies
random,simple``: two labels); ``hex`` (a Maneuver variant study, another game);
``hex2`` (the same on seed 2); ``cards`` (another kind); ``interrupted`` (``random`` with
its manifest marked interrupted) and ``writing`` (records, no manifest).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.study_fixtures import COMMANDS, make_studies

BALANCE = [a for a in COMMANDS["balance"] if a not in ("--policy", "random")]
HEX = COMMANDS["hex/balance"]
MADE = {
    "random": [*BALANCE, "--policy", "random"],
    "simple": [*BALANCE, "--policy", "simple"],
    "seed2": [*BALANCE, "--policy", "random", "--seed", "2"],
    "both": [*BALANCE, "--policies", "random,simple"],
    "hex": HEX,
    "hex2": [*HEX, "--seed", "2"],
    "cards": COMMANDS["cards"],
}
_BUILT: dict[str, Path] = {}


def make(root: Path) -> Path:
    return make_studies(root, MADE, broken_from="random", garbled=False)


@pytest.fixture(scope="session")
def compare_root(tmp_path_factory) -> Path:
    if "root" not in _BUILT:
        _BUILT["root"] = make(tmp_path_factory.mktemp("compare") / "studies")
    return _BUILT["root"]
