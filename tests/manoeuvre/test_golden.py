"""Golden transcripts: six seeded games' replays (random, simple, the default player and each
style), committed and diffed (DESIGN.md tier 4).

A difference means the games play (or read) differently than when the files were written. If
that is intended, regenerate them with ``python scripts/regen_golden.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "regen_golden.py"
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


@pytest.mark.parametrize("game", regen.GAMES, ids=lambda g: regen.golden_path(g).stem)
def test_the_golden_games_end_the_day_by_rule_2_3(game):
    """Rule 2.3, checked on the golden games' traces by counting draws (not by the engine's
    own flag): "the game ends at the end of the Game Turn when both players have drawn their
    last card from their first Action Deck". Each player's first deck is its whole deck, the
    five opening cards included, so its last card is its ``deck_size``-th draw. A game that
    went to nightfall ends in the game turn of the later of the two players' last draws,
    after both player turns of it (neither earlier, when one deck is still unfinished, nor
    later); an attrition victory (rule 2.1) ends the game no later than that turn."""
    from manoeuvre_sim.manoeuvre.engine import rules as R
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    a, b, seed, g, pa, pb = game
    deck = load_packed(a, b)[2].deck_size
    st, tr = play_traced(a, b, seed=seed, game=g, policies=(pa, pb))
    turn, draws, last_draw, turns_seen, victory = 0, [0, 0], [None, None], [], None
    for e in tr:
        kind, p = int(e[0]), int(e[1])
        if kind == R.EV_TURN:
            turn = int(e[2])
            turns_seen.append(turn)
        elif kind == R.EV_DRAW:
            draws[p] += 1
            if draws[p] == deck[p]:
                last_draw[p] = turn
        elif kind == R.EV_END:
            victory = int(e[3])  # a=winner b=victory
    assert turns_seen == list(range(1, turn + 1))
    assert not st[S.TURN_LIMIT_HIT]
    if victory == S.VICTORY_NIGHTFALL:
        assert None not in last_draw, "nightfall before both first decks were drawn out"
        assert turn == max(last_draw), (last_draw, turn)
        # the game turn was played out: the second player of it drew or moved after the
        # first deck ran out, i.e. the trace's last turn holds both players' turns
        last = tr[np.flatnonzero(tr[:, 0] == R.EV_TURN)[-1] :]
        last = last[last[:, 0] != R.EV_END]
        assert {int(x) for x in last[:, 1] if x >= 0} == {0, 1}
    else:
        assert victory == S.VICTORY_ATTRITION
        assert None in last_draw or turn <= max(last_draw)
