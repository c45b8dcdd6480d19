"""Maneuver's golden transcripts: three seeded games' replays, committed and diffed. If a
difference is intended (a rule, player or wording change), regenerate them with
``python scripts/regen_hex_golden.py`` and review the diff."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "regen_hex_golden.py"
_spec = importlib.util.spec_from_file_location("regen_hex_golden", SCRIPT)
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("game", regen.GAMES, ids=lambda g: regen.golden_path(g).stem)
def test_hex_transcript_matches_golden_file(game):
    path = regen.golden_path(game)
    assert path.exists(), f"{path} is missing: run `python scripts/regen_hex_golden.py`"
    want = path.read_text(encoding="utf-8")
    got = regen.render(game)
    if got != want:
        diff = difflib.unified_diff(want.splitlines(), got.splitlines(), lineterm="")
        pytest.fail(
            "the replay changed; if intended, run `python scripts/regen_hex_golden.py` and "
            "review the diff:\n" + "\n".join(list(diff)[:60]),
            pytrace=False,
        )


def test_hex_golden_files_are_the_listed_games():
    listed = {regen.golden_path(g).name for g in regen.GAMES}
    assert {p.name for p in regen.GOLDEN_DIR.glob("*.txt")} == listed
