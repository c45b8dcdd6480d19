"""Golden transcripts: six seeded games' replays (random, simple, the default player and each
style), committed and diffed (DESIGN.md tier 4).

A difference means the games play (or read) differently than when the files were written. If
that is intended, regenerate them with ``python scripts/regen_golden.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "regen_golden.py"
_spec = importlib.util.spec_from_file_location("regen_golden", SCRIPT)
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

MAX_DIFF_LINES = 80


@pytest.mark.parametrize("game", regen.GAMES, ids=lambda g: regen.golden_path(g).stem)
def test_transcript_matches_golden_file(game):
    path = regen.golden_path(game)
    if not path.exists():
        pytest.fail(f"{path} is missing: run `python scripts/regen_golden.py` to create it")
    want = path.read_text(encoding="utf-8")
    got = regen.render(game)
    if got == want:
        return
    diff = list(
        difflib.unified_diff(
            want.splitlines(),
            got.splitlines(),
            fromfile=f"{path.name} (committed)",
            tofile=f"{path.name} (this code)",
            lineterm="",
        )
    )
    shown = diff[:MAX_DIFF_LINES]
    if len(diff) > MAX_DIFF_LINES:
        shown.append(f"... {len(diff) - MAX_DIFF_LINES} more diff lines")
    pytest.fail(
        f"the replay of {path.name} changed.\n"
        "If the change is intended (a rule, player, trace or wording change), regenerate the "
        "golden files with `python scripts/regen_golden.py` and review them in the diff.\n\n"
        + "\n".join(shown),
        pytrace=False,
    )


def test_golden_files_are_the_listed_games():
    listed = {regen.golden_path(g).name for g in regen.GAMES}
    present = {p.name for p in regen.GOLDEN_DIR.glob("*.txt")}
    assert present == listed, "tests/golden/ holds files no game in regen_golden.GAMES makes"
