"""Replays: the board rebuilt from the trace equals the engine's, the text and PDF outputs of
``manoeuvre-sim replay``, and bad input -> exit 2 with a message naming the option."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.trace import play_traced
from manoeuvre_sim.manoeuvre.replay import (
    ReplayError,
    build_replay,
    match_info,
    parse_turns,
    replay_game,
    square_name,
    verify,
)
from tests.main_run import run

ARMIES = ("France", "Russia", "Austria", "Prussia", "Great Britain", "Spain", "United States",
          "Ottoman Empire")  # fmt: skip
FR_RU = ["--army-a", "France", "--army-b", "Russia", "--seed", "1", "--policy-a", "random",
         "--policy-b", "random"]  # fmt: skip


def test_square_names():
    assert square_name(56) == "a1"  # bottom left: army A's edge
    assert square_name(7) == "h8"
    assert square_name(8 * 6 + 2) == "c2"


@pytest.mark.parametrize("policies", [("random", "random"), ("simple", "simple")])
def test_rebuilt_board_equals_engine_final_state(policies):
    """~50 seeds per policy pair over all the armies: every unit's square and step, the
    redoubts, the terrain and the eliminations rebuilt from the trace alone equal the
    engine's final state."""
    infos = {}
    for seed in range(50):
        a, b = ARMIES[seed % 8], ARMIES[(3 * seed + 1) % 8]
        if (a, b) not in infos:
            infos[a, b] = match_info(a, b, seed=seed, policies=policies)
        st, tr = play_traced(a, b, seed=seed, game=seed % 4, policies=policies)
        rep = build_replay(tr, infos[a, b])
        bd = rep.board
        assert bd.square == st[S.U_SQ : S.U_SQ + S.NUNITS].tolist(), (seed, a, b)
        assert bd.step == st[S.U_STEP : S.U_STEP + S.NUNITS].tolist(), (seed, a, b)
        assert bd.occ == st[S.OCC : S.OCC + 64].tolist()
        assert bd.redoubt == {sq for sq in range(64) if st[S.REDOUBT + sq]}
        assert bd.eliminated == st[S.ELIM : S.ELIM + 2].tolist()
        assert rep.result.winner == st[S.WINNER] and rep.game_turns == st[S.TURN]
        verify(rep, st)  # terrain, result, control points too
        # player turns alternate, first player first, and every game turn has both (but
        # the last, when an attrition victory ends it in the first player's turn)
        first = int(st[S.FIRST])
        seats = [sec.player for sec in rep.turns]
        want = [first, 1 - first] * rep.game_turns
        assert seats == want[: len(seats)] and len(want) - len(seats) in (0, 1)


def test_a_corrupted_trace_is_caught():
    info = match_info("Austria", "Prussia", policies=("random", "random"))
    st, tr = play_traced("Austria", "Prussia", seed=2, game=3, policies=("random", "random"))
    verify(build_replay(tr, info), st)
    hits = np.flatnonzero(tr[:, 0] == R.EV_HIT)
    assert len(hits) > 0
    with pytest.raises(ReplayError):  # a later restoration, or the final board, disagrees
        verify(build_replay(np.delete(tr, hits[0], axis=0), info), st)
    with pytest.raises(ReplayError, match="disagrees with the engine"):
        verify(build_replay(np.delete(tr, hits[-1], axis=0), info), st)
    moves = np.flatnonzero(tr[:, 0] == R.EV_MOVE)
    bad = tr.copy()
    bad[moves[0], 3] = (bad[moves[0], 3] + 1) % 64  # a move from the wrong square
    with pytest.raises(ReplayError, match="moves from"):
        build_replay(bad, info)


def test_replay_is_the_simulated_game():
    """Game g of `simulate --seed s` and the replay of (s, g) are the same game."""
    from manoeuvre_sim.manoeuvre.engine import batch as B
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    cfg = SimConfig("Prussia", "Spain", games=4, seed=11, policy_a="random", policy_b="simple",
                    threads=1)  # fmt: skip
    rec = simulate(cfg).records
    for g in range(4):
        rep = replay_game("Prussia", "Spain", seed=11, game=g, policies=("random", "simple"))
        r = rec[g]
        assert rep.result.winner == r[B.R_WINNER]
        assert rep.game_turns == r[B.R_TURNS]
        assert rep.board.eliminated == [r[B.R_ELIM_A], r[B.R_ELIM_B]]
        maps = [e[2] for e in rep.setup.events if e[0] == R.EV_MAP]
        assert maps == r[B.R_MAP : B.R_MAP + 4].tolist()


@pytest.mark.parametrize(
    ("text", "want"),
    [("3:7", (3, 7)), ("5", (5, 5)), (" 2 : 4 ", (2, 4)), ("3:", (3, 10**9)), (":7", (1, 7)),
     (None, None)],
)  # fmt: skip
def test_parse_turns(text, want):
    assert parse_turns(text) == want


def test_cli_text(capsys):
    code, out, err = run(["replay", *FR_RU], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Manoeuvre replay: France (A) vs Russia (B)"
    assert lines[1].startswith("seed 1, game 0, rules ") and "A random, B random" in lines[1]
    assert lines[2].startswith("Result: ")
    assert "== Set-up ==" in lines and "== End of the game ==" in lines
    assert "== Game turn 1: France (A) ==" in lines
    assert "France (A): sets up A1 1st Cuirassiers at d2" in lines
    assert any(re.fullmatch(r"France \(A\): moves A\d .+ [a-h][1-8] -> [a-h][1-8].*", ln)
               for ln in lines)  # fmt: skip
    boards = [i for i, ln in enumerate(lines) if ln.startswith("  8 |")]
    turns = [ln for ln in lines if ln.startswith("== Game turn ")]
    assert len(boards) == len(turns) + 1  # after the set-up and after each player turn
    assert lines[boards[0] + 7].startswith("  1 |") and lines[boards[0] + 7].endswith("| 1")

    # --turns: only those game turns, no set-up; the end only when the range reaches it
    code, part, err = run(["replay", *FR_RU, "--turns", "2:3"], capsys)
    assert code == 0, err
    heads = [ln for ln in part.splitlines() if ln.startswith("== ")]
    assert heads == ["== Game turn 2: France (A) ==", "== Game turn 2: Russia (B) ==",
                     "== Game turn 3: France (A) ==", "== Game turn 3: Russia (B) =="]  # fmt: skip


def test_cli_text_file(tmp_path, capsys):
    f = tmp_path / "sub" / "game.txt"
    code, out, err = run(["replay", *FR_RU, "--out", str(f)], capsys)
    assert code == 0, err
    assert out == "" and f"wrote {f}" in err
    code, stdout, _ = run(["replay", *FR_RU], capsys)
    assert f.read_text(encoding="utf-8") == stdout
    assert not list(f.parent.glob(".*part"))


def test_cli_pdf_one_page_per_player_turn(tmp_path, capsys):
    f = tmp_path / "game.pdf"
    code, out, err = run(["replay", *FR_RU, "--turns", "1:2", "--out", str(f)], capsys)
    assert code == 0, err
    data = f.read_bytes()
    assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    assert pages == 4 and b"/Count 4" in data  # 2 game turns x 2 players
    assert "(4 pages)" in err
    assert not list(tmp_path.glob(".*part"))


BAD = [
    (["--army-a", "Narnia", "--army-b", "Russia"], ["--army-a", "unknown army", "France"]),
    (["--army-a", "France", "--army-b", "Atlantis"], ["--army-b", "unknown army"]),
    (["--army-a", "France", "--army-b", "Russia", "--policy-a", "clever"],
     ["--policy-a", "unknown policy 'clever'", "random"]),
    (["--army-a", "France", "--army-b", "Russia", "--policy-b", "x"], ["--policy-b"]),
    (["--army-a", "France", "--army-b", "Russia", "--turns", "5:2"], ["--turns", "FROM <= TO"]),
    (["--army-a", "France", "--army-b", "Russia", "--turns", "two"], ["--turns", "FROM:TO"]),
    (["--army-a", "France", "--army-b", "Russia", "--turns", "0"], ["--turns", "1 <= FROM"]),
    (["--army-a", "France", "--army-b", "Russia", "--turns", "900:", "--policy-a", "random",
      "--policy-b", "random"], ["--turns", "the game has", "expected FROM in 1.."]),
    (["--army-a", "France", "--army-b", "Russia", "--out", "game.png"],
     ["--out", ".txt, .pdf or .jsonl"]),
    (["--army-a", "France", "--army-b", "Russia", "--format", "jsonl", "--out", "game.pdf"],
     ["--format jsonl", ".jsonl"]),
    (["--army-a", "France", "--army-b", "Russia", "--format", "jsonl", "--turns", "3"],
     ["--turns", "whole game"]),
    (["--army-a", "France", "--army-b", "Russia", "--format", "text", "--out", "g.jsonl"],
     ["--format text", "--format jsonl"]),
    (["--army-a", "France", "--army-b", "Russia", "--format", "xml"], ["--format", "xml"]),
    (["--army-a", "France", "--army-b", "Russia", "--game", "-2"], ["--game", ">= 0"]),
    (["--army-a", "France", "--army-b", "Russia", "--seed", "-1"], ["--seed", "0..2**63-1"]),
    (["--army-a", "France"], ["--army-b"]),
]  # fmt: skip


@pytest.mark.parametrize(("args", "needles"), BAD, ids=[" ".join(a[4:6]) or a[1] for a, _ in BAD])
def test_bad_input_exit_2_no_traceback(args, needles, capsys, tmp_path):
    code, out, err = run(["replay", *args], capsys)
    assert code == 2, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    for n in needles:
        assert n in err, err


def test_replay_help_is_lazy():
    code = (
        "import sys; from manoeuvre_sim.cli.main import main\n"
        "for a in (['--help'], ['replay', '--help']):\n"
        "    try:\n        main(a)\n    except SystemExit:\n        pass\n"
        "assert 'numba' not in sys.modules, 'numba imported by --help'\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported by --help'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "--turns" in proc.stdout and "replay" in proc.stdout


def test_the_pdf_reads_replays_through_the_public_api_only():
    """``analyses/manoeuvre/replay_pdf.py`` imports nothing of the engine: it reads the replay model."""
    import ast
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "analyses" / "manoeuvre" / "replay_pdf.py"
    names = []
    for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
            names += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names]
    assert "manoeuvre_sim.manoeuvre.replay" in names
    assert not [n for n in names if n.startswith("manoeuvre_sim.manoeuvre.engine")]


def test_the_replay_model_holds_lines_and_moves_as_data():
    """Each line is data the text renders one to one; a section's moves are its move,
    retreat and advance lines; the squares they name are the board's."""
    from manoeuvre_sim.manoeuvre.replay import section_lines

    rep = replay_game("France", "Russia", seed=1)  # the default players: they fight
    for sec in [rep.setup, *rep.turns, rep.end]:
        assert len(section_lines(rep, sec)) == len(sec.lines)
        moved = [(ln.kind, ln.values["unit"], ln.values["fr"], ln.values["to"])
                 for ln in sec.lines if ln.kind in ("move", "retreat", "advance")
                 and ln.values["to"] >= 0]  # fmt: skip
        assert [(m.kind, m.unit, m.fr, m.to) for m in sec.moves] == moved
        for m in sec.moves:
            assert m.side == (0 if rep.info.unit_of(m.unit)[0] == 0 else 1)
    last = {}
    for sec in rep.turns:
        for m in sec.moves:
            last[m.unit] = m.to
    for u, sq in last.items():  # a unit's last move ends where the final board has it
        assert rep.board.square[u] in (sq, -1)
    kinds = {ln.kind for sec in rep.turns for ln in sec.lines}
    assert {"draw", "move", "play", "roll", "combat"} <= kinds


def test_supporting_units_show_in_the_replay(tmp_path):
    """Rule 6.4: a unit that joins an attack under a leader's command plays no card of its
    own; the replay names it (its square, the defender, the leader) between the leader's
    command and the dice, in the text and on the PDF page of that turn."""
    from pypdf import PdfReader

    from manoeuvre_sim.analyses.manoeuvre.replay_pdf import write_replay_pdf
    from manoeuvre_sim.manoeuvre.replay import render_text, section_lines

    rep = replay_game("France", "Russia", seed=4, game=1, policies=("balanced", "balanced"))
    found = 0
    for sec in rep.turns:
        kinds = [ln.kind for ln in sec.lines]
        for i, ln in enumerate(sec.lines):
            if ln.kind != "support":
                continue
            found += 1
            v = ln.values
            # after the leader played for its command value, before the combat's result
            before = [x for x in sec.lines[:i] if x.kind == "play"]
            assert before[-1].values["purpose"] == "leader_command" or kinds[i - 1] == "support"
            assert "combat" in kinds[i:]
            assert rep.info.unit_of(v["unit"])[0] == ln.player != rep.info.unit_of(v["target"])[0]
            r, c = divmod(v["unit_sq"], 8)
            combat = next(x for x in sec.lines[:i] if x.kind == "play"
                          and x.values["purpose"] == "initiate")  # fmt: skip
            tr, tc = divmod(combat.values["target_sq"], 8)
            assert abs(r - tr) + abs(c - tc) == 1  # adjacent to the defender (rule 6.4)
            line = section_lines(rep, sec)[i]
            name = rep.info.unit(v["unit"])
            assert f"{name} at " in line and "supports the attack on" in line, line
            assert "led by Joachim Murat" in line or "led by Jean Lannes" in line, line
    assert found == 2
    text = render_text(rep)
    assert (
        "France (A): A2 2nd Regiment Legere at a2 supports the attack on B2 Black Sea "
        "Cossacks, led by Joachim Murat: +6 strength (rule 6.4)" in text
    )
    turn = next(sec for sec in rep.turns if any(ln.kind == "support" for ln in sec.lines))
    pdf = tmp_path / "support.pdf"
    write_replay_pdf(pdf, rep, turns=(turn.game_turn, turn.game_turn))
    page = next(p.extract_text() for p in PdfReader(pdf).pages if "supports" in p.extract_text())
    assert "A2 2nd Regiment Legere at a2 supports the attack on B2" in " ".join(page.split())
