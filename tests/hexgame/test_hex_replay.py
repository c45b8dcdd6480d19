"""``hex replay``: one game's events and boards, consistent with its record."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli
from manoeuvre_sim.hexgame import batch as BT
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.players import policy_arrays
from tests.hexgame.hex_boards import Board


def test_replay_log_and_final_board_match_the_record(tmp_path):
    out = tmp_path / "g.txt"
    res = CliRunner().invoke(
        cli, ["hex", "replay", "--seed", "3", "--game", "5", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert "== game turn 1 ==" in text and "set-up: blue Capital" in text
    packed = SC.pack(SC.load_scenario())
    pol, params = policy_arrays("capital", "capital")
    rec = BT.play_games(3, 5, 1, packed, S.default_options(), pol, params, 1)[0]
    assert text.count("== game turn") == rec[BT.R_TURNS]
    final = text.split("== end ==\n")[1].split("\n\n")[0]
    b = Board(final)  # the replay draws boards as the tests do
    st, _ = BT.play_one(3, 5, packed, S.default_options(), pol, params)
    drawn = sorted(
        (b.grid.label(int(b.st[S.POS + u])), u // 16, int(packed.units[u, 0]))
        for u in range(S.NU)
        if b.st[S.POS + u] >= 0
    )
    real = sorted(
        (b.grid.label(int(st[S.POS + u])), u // 16, int(packed.units[u, 0]))
        for u in range(S.NU)
        if st[S.POS + u] >= 0
    )
    assert drawn == real  # every unit where the game left it
    on_map = [sum(1 for u in b.at.values() for v in u if v // 16 == s and v % 16) for s in (0, 1)]
    assert on_map == [rec[BT.R_UNITS], rec[BT.R_UNITS + 1]]
    captured = ["X" in final, "x" in final]
    assert captured == [bool(rec[BT.R_CAPTURED]), bool(rec[BT.R_CAPTURED + 1])]
    assert np.sum(rec[BT.R_ELIM : BT.R_ELIM + 2]) == text.count(" eliminated in ")


def test_tournament_plays_both_seatings_of_every_pair(tmp_path):
    import json

    import pandas as pd

    out = tmp_path / "t.csv"
    res = CliRunner().invoke(
        cli,
        ["hex", "tournament", "--policies", "random,capital", "--games", "30", "--json",
         "--out", str(out), "--threads", "1"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output[res.output.index("{") : res.output.rindex("}") + 1])
    (pair,) = doc["pairs"]
    assert pair["games"] == 60 and pair["a_wins"] + pair["b_wins"] + pair["draws"] == 60
    df = pd.read_csv(out)
    assert sorted(set(zip(df["policy_a"], df["policy_b"], strict=True))) == [
        ("capital", "random"),
        ("random", "capital"),
    ]
    assert (
        pair["a_wins"]
        == ((df["policy_a"] == "random") & (df["winner"] == "a")).sum()
        + ((df["policy_b"] == "random") & (df["winner"] == "b")).sum()
    )


def test_replay_pdf_has_a_page_per_turn_and_the_end(tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "g.pdf"
    res = CliRunner().invoke(
        cli, ["hex", "replay", "--seed", "3", "--game", "5", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    packed = SC.pack(SC.load_scenario())
    pol, params = policy_arrays("capital", "capital")
    rec = BT.play_games(3, 5, 1, packed, S.default_options(), pol, params, 1)[0]
    pages = PdfReader(str(out)).pages
    assert len(pages) == rec[BT.R_TURNS] + 1
    assert "game turn 1" in pages[0].extract_text()
    assert "0101" in pages[0].extract_text()  # hex names on the map


HELP_SNIPPET = """
import sys
from manoeuvre_sim.cli.main import main
for cmd in ("simulate", "replay", "tournament"):
    try:
        main(["hex", cmd, "--help"])
    except SystemExit:
        pass
print("NUMBA" if "numba" in sys.modules else "NO-NUMBA")
"""


def test_every_hex_command_names_the_game_and_help_compiles_nothing():
    import subprocess
    import sys

    from manoeuvre_sim.hexgame import GAME_TITLE

    res = subprocess.run(
        [sys.executable, "-c", HELP_SNIPPET], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("Maneuver (the introductory hex wargame") == 3, GAME_TITLE
    assert res.stdout.strip().endswith("NO-NUMBA")
