"""How games end (analyses/manoeuvre/endings.py, `python -m benchmarks endings`): the trace
counts on a hand-made trace whose counts are known, on a recorded game against the engine's
own state, the endings of a few records, and the benchmark end to end on a few games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchmarks import bench_endings
from manoeuvre_sim.analyses.manoeuvre.endings import endings_row, trace_counts
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.decisions import CK_AMBUSH, CK_ASSAULT, CK_BOMBARD

ROOT = Path(__file__).resolve().parents[2]
B0, B1 = S.MAXU_SIDE, S.MAXU_SIDE + 1  # player 1's first two units


def hand_trace() -> np.ndarray:
    """Three game turns, two units a side: five combats, one of each fate for its target."""
    I = R.PURPOSE_INITIATE  # noqa: E741
    rows = [
        (R.EV_SETUP, 0, 0, 8, 0, 0),  # player 0: row 1
        (R.EV_SETUP, 0, 1, 9, 0, 0),
        (R.EV_SETUP, 1, B0, 24, 0, 0),  # player 1: row 3, not next to row 1
        (R.EV_SETUP, 1, B1, 26, 0, 0),
        (R.EV_DRAW, 0, 1, 0, 0, 0),
        (R.EV_DRAW, 0, 2, 0, 0, 0),
        (R.EV_DRAW, 1, 1, 0, 0, 0),
        (R.EV_DRAW, 1, 2, 0, 0, 0),
        # game turn 1: the armies are apart at its start
        (R.EV_TURN, 0, 1, 0, 0, 0),
        (R.EV_DRAW, 0, 3, 0, 0, 0),  # player 0's third draw: its deck of 3 has run out
        (R.EV_MOVE, 0, 0, 8, 16, 0),  # now next to unit B0
        (R.EV_PLAY, 0, 5, I, B0, CK_ASSAULT),  # combat 1: B0 hit
        (R.EV_COMBAT, 0, CK_ASSAULT, 10, 5, 2),
        (R.EV_HIT, 1, B0, 1, 0, 0),
        (R.EV_DISCARD, 1, 4, 0, 0, 0),
        (R.EV_DRAW, 1, 3, 0, 0, 0),
        (R.EV_MOVE, 1, B1, 26, 25, 0),
        (R.EV_PLAY, 1, 6, I, 0, CK_ASSAULT),  # combat 2: repulsed, the attacker B1 hit
        (R.EV_COMBAT, 1, CK_ASSAULT, 4, 9, 0),
        (R.EV_HIT, 1, B1, 1, 0, 0),
        (R.EV_PLAY, 1, 7, R.PURPOSE_RESTORE, B1, 0),
        (R.EV_RESTORE, 1, B1, 1, 0, 0),  # B1 restored
        # game turn 2: in contact at its start
        (R.EV_TURN, 0, 2, 0, 0, 0),
        (R.EV_MOVE, 0, 1, 9, 10, 0),  # the Movement Phase begins with cards 1, 2, 3 in hand
        (R.EV_PLAY, 0, 8, I, B0, CK_ASSAULT),  # combat 3: the reduced B0 retreats
        (R.EV_COMBAT, 0, CK_ASSAULT, 12, 5, 2),
        (R.EV_RETREAT, 1, B0, 24, 32, 0),
        (R.EV_ADVANCE, 0, 0, 16, 24, 0),
        (R.EV_MOVE, 1, B0, 32, 33, 0),
        # game turn 3
        (R.EV_TURN, 0, 3, 0, 0, 0),
        (R.EV_PLAY, 0, 9, I, B0, CK_BOMBARD),  # combat 4: the reduced B0 eliminated
        (R.EV_COMBAT, 0, CK_BOMBARD, 9, 3, 1),
        (R.EV_HIT, 1, B0, 0, 0, 0),
        (R.EV_PLAY, 1, 8, I, 1, CK_AMBUSH),  # combat 5: unit 1 withdraws
        (R.EV_WITHDRAW, 0, 1, 1, 0, 0),
        (R.EV_RETREAT, 0, 1, 9, 1, 0),
        (R.EV_END, 0, 0, S.VICTORY_NIGHTFALL, 3, 1),
    ]
    return np.array(rows, dtype=np.int32)


def test_trace_counts_on_a_hand_made_trace():
    t = trace_counts(hand_trace(), deck_size=3)
    assert t["turns"] == 3
    assert (t["combats"], t["assaults"]) == (5, 4)
    assert (t["eliminations"], t["hits"]) == (1, 2)
    assert t["combats_by_turn"] == [2, 1, 2]
    assert t["elims_by_turn"] == [0, 0, 1]
    assert (t["first_contact"], t["turns_without_contact"], t["first_combat"]) == (2, 1, 1)
    assert t["target"] == {
        "eliminated": 1, "hit": 1, "retreated": 1, "withdrew": 1, "unharmed": 1,
    }  # fmt: skip
    assert (t["reduced_targets"], t["reduced_escaped"]) == (2, 1)
    assert t["reduced_escape_how"]["retreated"] == 1
    assert (t["attacker_hits"], t["attacker_elims"]) == (1, 0)
    assert t["restored"] == [0, 1]
    assert t["kills"] == [1, 0]
    assert t["kills_by_turn"] == [[0, 0, 1], [0, 0, 0]]
    assert t["deck_out"] == [1, 1]
    assert t["discards"] == [0, 1]
    # player 0's turn 2 began with the reduced B0 next to its unit 0 and assaulted it; in
    # turn 3 it bombarded B0 from two squares away (not next to it: not in reach)
    assert (t["reach_turns"], t["reach_attacked"]) == (1, 1)
    assert (t["winner"], t["victory"], t["vp"]) == (0, S.VICTORY_NIGHTFALL, (3, 1))
    # too few enemy units left on the board for a fifth elimination either way
    assert t["hits_short"] == [None, None]
    assert [c["fate"] for c in t["combat_log"]] == [
        "hit", "unharmed", "retreated", "eliminated", "withdrew",
    ]  # fmt: skip


def hand_cards(unit: int) -> np.ndarray:
    """A cards table for the hand-made trace: player 0's card 1 is a unit card with an
    attack value for its unit ``unit``; every other card is a Supply (HQ)."""
    cards = np.zeros((2, 10, S.CF_LUNIT + 1), dtype=np.int32)
    cards[:, :, S.CF_KIND] = S.KIND_HQ
    cards[:, :, S.CF_HQ] = S.HQ_SUPPLY
    cards[0, 1, S.CF_KIND] = S.KIND_UNIT
    cards[0, 1, S.CF_UNIT] = unit
    cards[0, 1, S.CF_ATK_N], cards[0, 1, S.CF_ATK_S] = 2, 6
    return cards


def test_trace_counts_follows_the_hand_to_a_unit_in_reach():
    # game turn 2: player 0 holds cards 1, 2, 3 as it moves; the reduced B0 is next to its
    # unit 0 and three squares from its unit 1
    t = trace_counts(hand_trace(), deck_size=3, cards=hand_cards(0))
    assert (t["reach_armed"], t["reach_armed_attacked"]) == (1, 1)
    assert t["hands"] == [[1, 2, 3], [1, 2, 3]]
    t = trace_counts(hand_trace(), deck_size=3, cards=hand_cards(1))  # unit 1: not next to B0
    assert (t["reach_turns"], t["reach_attacked"]) == (1, 1)
    assert (t["reach_armed"], t["reach_armed_attacked"]) == (0, 0)


def test_trace_counts_agree_with_the_engine_on_a_recorded_game():
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare, traced_game

    cfg = SimConfig("France", "Russia", seed=5)
    st, tr = traced_game(cfg, 3)
    t = trace_counts(tr, cards=prepare(cfg)[2].tables.cards)
    assert t["turns"] == st[S.TURN]
    assert t["kills"] == [st[S.ELIM + 1], st[S.ELIM]]  # a side's kills: the enemy's losses
    assert t["combats"] == st[S.COMBATS] + st[S.COMBATS + 1]
    assert t["assaults"] == st[S.ASSAULTS] + st[S.ASSAULTS + 1]
    assert (t["winner"], t["victory"]) == (st[S.WINNER], st[S.VICTORY])
    assert sum(t["target"].values()) == t["combats"]
    assert 0 <= t["reach_attacked"] <= t["reach_turns"] <= 2 * t["turns"]
    assert t["reach_armed_attacked"] <= t["reach_armed"] <= t["reach_turns"]
    for p in (0, 1):  # the hands followed through the trace end as the engine's
        hand = st[S.HAND + p * S.HMAX : S.HAND + p * S.HMAX + st[S.HAND_N + p]]
        assert t["hands"][p] == sorted(int(x) for x in hand)
    for p in (0, 1):  # the hits short of a fifth elimination, from the engine's final state
        need = 5 - t["kills"][p]
        lo = (1 - p) * S.MAXU_SIDE
        left = sorted(int(x) for x in st[S.U_STEP + lo : S.U_STEP + lo + S.MAXU_SIDE] if x > 0)
        assert t["hits_short"][p] == sum(left[:need])


def test_endings_row_counts():
    games = pd.DataFrame(
        {
            "victory": ["attrition", "nightfall", "nightfall", "nightfall"],
            "turn_limit": [False, False, False, True],
            "winner": ["a", "b", "a", "draw"],
            "game_turns": [10, 14, 16, 200],
            "eliminated_a": [1, 4, 2, 0],
            "eliminated_b": [5, 2, 1, 0],
        }
    )
    e = endings_row(games)
    assert e["games"] == 4
    assert e["attrition"][0] == 0.25 and e["nightfall"][0] == 0.5
    assert e["turn_limit"][0] == 0.25
    assert e["attrition"][1] < 0.25 < e["attrition"][2]
    assert e["turns"][0] == 60.0
    assert e["lost_per_side"] == pytest.approx(15 / 8)
    # a side's kills are the enemy's losses: at nightfall b won having eliminated 4 of a's
    # units against 2, then a won having eliminated 1 against 2 (on squares); one draw
    assert e["nightfall_games"] == 3
    assert e["winner_kills"] == pytest.approx((4 + 1) / 2)
    assert e["loser_kills"] == pytest.approx((2 + 2) / 2)
    assert e["lead_kills"] == pytest.approx([1 / 3, 0, 1 / 3, 0, 1 / 3])
    assert e["one_short"][0] == pytest.approx(1 / 3)


def test_bench_endings_runs_and_records_its_provenance(tmp_path):
    from manoeuvre_sim.manoeuvre import RULES_VERSION

    out = tmp_path / "endings.md"
    argv = [
        "--players", "random@1,tuned@2", "--option-players", "tuned@1", "--armies",
        "France,Russia", "--trace-player", "tuned", "--traces", "2", "--seed", "7",
        "--out", str(out),
    ]  # fmt: skip
    assert bench_endings.main(argv) == 0
    text = out.read_text(encoding="utf-8")
    assert "run complete" in text
    assert "- written by `python -m benchmarks endings --players random@1,tuned@2" in text
    assert "- seed: 7" in text
    assert f"- rules: Manoeuvre `{RULES_VERSION}`" in text
    assert "- data hash: `" in text
    assert "load average" in text and "numba" in text
    assert "| `random` | 1 | 4 |" in text and "| `tuned` | 2 | 8 |" in text
    for label in ("base rules", "tournament hand", "Advance to Contact", "both"):
        assert f"| `tuned` | {label} | 4 |" in text
    assert "2 games of `tuned` against itself" in text
    assert not list(tmp_path.glob(".*part"))  # written atomically, nothing left behind
    # --traces-only replaces the traced games alone, with their own provenance
    tables = text.split("## Traced games")[0]
    argv2 = ["--traces-only", "--trace-player", "random", "--traces", "1", "--armies",
             "France,Russia", "--out", str(out)]  # fmt: skip
    assert bench_endings.main(argv2) == 0
    again = out.read_text(encoding="utf-8")
    assert again.count("## Traced games") == 1 and "1 games of `random`" in again
    title, bullets, body = tables.split("\n\n", 2)
    assert again.startswith(f"{title}\n\n{bullets}\n") and body in again  # a header line added
    assert "- the traced games redone by `python -m benchmarks endings --traces-only" in again


def test_bench_endings_refuses_an_unknown_player(tmp_path, capsys):
    out = tmp_path / "x.md"
    assert bench_endings.main(["--players", "tuned,nosuch@3", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--players" in err[0] and "nosuch" in err[0]
    assert not out.exists()


def test_bench_endings_adds_rows_and_keeps_the_others(tmp_path, capsys):
    import json

    from manoeuvre_sim.manoeuvre import RULES_VERSION

    out = tmp_path / "endings.md"
    base = ["--armies", "France,Russia", "--seed", "7", "--out", str(out)]
    argv = ["--players", "random@1,tuned@2", "--option-players", "tuned@1", "--traces", "0"]
    assert bench_endings.main(argv + base) == 0
    before = out.read_text(encoding="utf-8")
    tuned_row = next(x for x in before.splitlines() if x.startswith("| `tuned` | 2 | 8 |"))
    # a study's records (policy x, 1 game per ordered pairing, 1 attrition ending of 4)
    study = tmp_path / "study"
    (study / "games.parquet").mkdir(parents=True)
    pd.DataFrame({
        "victory": ["attrition"] + ["nightfall"] * 3, "turn_limit": [False] * 4,
        "winner": list("abab"), "game_turns": [10, 12, 14, 16], "eliminated_a": [5, 0, 1, 2],
        "eliminated_b": [0, 1, 1, 4], "label": ["x"] * 4,
    }).to_parquet(study / "games.parquet" / "p.parquet")  # fmt: skip
    manifest = {"seed": 7, "first_game": 0, "games_per_pairing": 1, "policies": [{"label": "x"}],
                "armies": [{"name": "Russia"}, {"name": "France"}], "data_hash": "h1",
                "rules_version": RULES_VERSION}  # fmt: skip
    (study / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    add = ["--add-players", "random@2", "--rows-from", f"{study}@x"]
    assert bench_endings.main(add + base) == 0
    text = out.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert tuned_row in lines  # the other rows are kept
    assert not any(x.startswith("| `random` | 1 |") for x in lines)  # replaced ...
    assert any(x.startswith("| `random` | 2 | 8 |") for x in lines)  # ... by the new one
    assert any(x.startswith("| `x` | 1 | 4 | 25.00 % [") and x.endswith("| — |") for x in lines)
    assert any(x.startswith("| `x` | 3 | ") for x in lines)  # its nightfall games, closeness
    assert "- rows added later by `python -m benchmarks endings --add-players" in text
    assert text.split("## Endings against the rule options")[1] == before.split(
        "## Endings against the rule options")[1]  # fmt: skip
    # a study of another seed is refused in one line, the file untouched
    manifest["seed"] = 8
    (study / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    capsys.readouterr()
    assert bench_endings.main(["--rows-from", f"{study}@x"] + base) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--rows-from" in err[0] and "seed 8" in err[0]
    assert out.read_text(encoding="utf-8") == text
