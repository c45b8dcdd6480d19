"""`python -m benchmarks strong-balance` (benchmarks/bench_strong_balance.py) on tiny
hand-made balance study directories: the figures it states (tau, the first player's paired and unpaired difference, the endings) and
its plain verdicts, and one line on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchmarks import bench_strong_balance as bench

ROOT = Path(__file__).resolve().parents[2]
ARMIES = ["Austria", "France", "Prussia"]
STRONG = "search:16:tuned:v2"


def _study(path: Path, label: str, strength: dict, first_wins: int, attrition: int) -> None:
    """A study of ``label``: every ordered pairing of ARMIES, 4 games each (seed = pairing
    and game number, first player a, b, a, b); seat a wins if its army is the stronger
    (mirrors: seat a wins), except that the first player also wins the first
    ``first_wins`` games of each pairing (game numbers); ``attrition`` games end by
    attrition, the rest at nightfall after 10 game turns."""
    rows = []
    for i, a in enumerate(ARMIES):
        for j, b in enumerate(ARMIES):
            for k in range(4):
                fp = "ab"[k % 2]
                w = "a" if strength[a] >= strength[b] else "b"
                if k < first_wins:
                    w = fp
                rows.append({
                    "game": k, "seed": 100 * (3 * i + j) + k, "army_a": a, "army_b": b,
                    "first_player": fp, "winner": w, "game_turns": 10, "turn_limit": False,
                    "victory": "attrition" if len(rows) < attrition else "nightfall",
                    "eliminated_a": 1, "eliminated_b": 2, "label": label,
                })  # fmt: skip
    g = pd.DataFrame(rows)
    (path / "games.parquet").mkdir(parents=True)
    g.to_parquet(path / "games.parquet" / "part-0.parquet")
    order = sorted(ARMIES, key=lambda x: -strength[x])
    field = {x: (len(ARMIES) - 1 - order.index(x)) / (len(ARMIES) - 1) for x in ARMIES}
    pd.DataFrame([
        {"policy": label, "army": x, "games": 16, "field_win_rate": field[x],
         "ci_low": field[x] - 0.05, "ci_high": field[x] + 0.05, "rank": order.index(x) + 1,
         "rank_low": order.index(x) + 1, "rank_high": order.index(x) + 1}
        for x in ARMIES
    ]).to_csv(path / "armies.csv", index=False)  # fmt: skip
    manifest = {"rules_version": "R1", "data_hash": "abc", "seed": 5, "games_per_pairing": 4,
                "policies": [{"label": label}], "games": len(g), "seconds": 1.0,
                "threads": 1}  # fmt: skip
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_same_order_holds_and_the_first_player_moves(tmp_path):
    ref, strong, out = tmp_path / "ref", tmp_path / "strong", tmp_path / "r.md"
    _study(ref, "tuned", {"France": 3, "Prussia": 2, "Austria": 1}, 0, 0)
    _study(strong, STRONG, {"France": 3, "Prussia": 2, "Austria": 1}, 2, 9)
    assert bench.main([str(ref), str(strong), "--boot", "20", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    cmd = f"manoeuvre-sim balance --games-per-pairing 4 --policy {STRONG} --seed 5"
    assert cmd in text and "rules version R1, data hash abc" in text
    assert "value model `tuned` (file SHA-256" in text
    assert "Kendall's tau between the two orderings: **1.00** [" in text
    assert "- **The ranking holds**" in text
    # first player under the reference: games 0-3 of each pairing, a wins in every pairing
    # whose a is the stronger or a mirror; strong: games 0-1 the first player wins
    fs = bench.first_scores
    r = pd.read_parquet(ref / "games.parquet")
    s = pd.read_parquet(strong / "games.parquet")
    d = fs(s).mean() - fs(r).mean()
    assert d > 0
    assert f"{100 * d:+.1f} [" in text and "paired (36 games started from the same seed" in text
    assert "- **The first player's score moves**" in text
    assert "Moving first is neither (its interval holds 50 %) under `tuned`, an advantage" in text
    # 9 attrition endings of 36 under the strong player, none under the reference
    assert "| `search:16:tuned:v2` | " in text and " 25.0 [" in text
    assert not list(tmp_path.glob(".*part"))


def test_a_reversed_order_moves(tmp_path):
    ref, strong, out = tmp_path / "ref", tmp_path / "strong", tmp_path / "r.md"
    _study(ref, "tuned", {"France": 3, "Prussia": 2, "Austria": 1}, 0, 0)
    _study(strong, STRONG, {"France": 1, "Prussia": 2, "Austria": 3}, 0, 0)
    assert bench.main([str(ref), str(strong), "--boot", "20", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "**-1.00** [-1.00, -1.00]" in text and "- **The ranking moves**" in text
    assert "France -100.0 [" in text  # a field win rate whose interval is clear of 0


@pytest.mark.parametrize("what", ["missing", "rules"])
def test_bad_input_is_one_line(tmp_path, capsys, what):
    ref, strong, out = tmp_path / "ref", tmp_path / "strong", tmp_path / "r.md"
    _study(ref, "tuned", {"France": 3, "Prussia": 2, "Austria": 1}, 0, 0)
    if what == "rules":
        _study(strong, STRONG, {"France": 3, "Prussia": 2, "Austria": 1}, 0, 0)
        m = json.loads((strong / "manifest.json").read_text(encoding="utf-8"))
        m["rules_version"] = "R2"
        (strong / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    assert bench.main([str(ref), str(strong), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(strong) in err[0]
    assert ("no manifest.json" if what == "missing" else "rules_version") in err[0]
    assert not out.exists()


def test_paired_difference_is_over_the_same_seeds():
    g = pd.DataFrame({"army_a": ["A"] * 4, "army_b": ["B"] * 4, "game": [0, 1, 2, 3],
                      "seed": [1, 2, 3, 4], "first_player": list("abab"),
                      "winner": list("aabb")})  # fmt: skip
    h = g.assign(winner=list("abab"), seed=[1, 2, 3, 9])  # game 3: another seed, not paired
    n, (d, lo, hi) = bench.paired({"games": g}, {"games": h})
    # first-player scores: g 1, 0, 0, 1; h 1, 1, 1, 1 -> over games 0-2: +0, +1, +1
    assert n == 3 and d == pytest.approx(2 / 3)
    assert lo < d < hi
    assert np.isfinite(lo)


def test_the_methods_page_cites_the_results_file_and_its_figures():
    """The report's methods paragraph "Under stronger play" quotes figures of
    benchmarks/RESULTS-strong-balance.md: each must be there."""
    import re

    from manoeuvre_sim.analyses.manoeuvre import report

    items = report.methods_items([])
    assert ("h2", "Under stronger play") in items
    text = report.STRONG_PLAY
    results = (ROOT / "benchmarks" / "RESULTS-strong-balance.md").read_text(encoding="utf-8")
    assert "RESULTS-strong-balance.md" in text
    for fig in (
        "1.00 [1.00, 1.00]",
        "-5.4 [-6.5, -4.3]",
        "1.00 [0.93, 1.00]",
        "-7.3 [-8.4, -6.3]",
        "+3.9",
        "+2.2",
        "-3.3",
        "15.9",
        "13.5",
    ):
        assert fig in text and fig in results, fig
    for pct in re.findall(r"(\d+\.\d) % of games|scores (\d+\.\d) % against (\d+\.\d)", text):
        for x in filter(None, pct):
            assert f"{x} [" in results, x
