"""A third game plugs in untouched (issue 31): what "adding a game" means.

The toy game of ``tests/studies/coin_game.py`` (pure Python, a page: each side a coin, more heads wins)
registers itself in the games registry from this test and runs, through the code users run
and with no edit to the core, the studies or either game: the balance study with a
precision goal, the paired what-if, the tournament of players, ``simulate`` into a store
stopped and resumed and on the Dask backend, and the report's part for a game with no report
module of its own. The toy's answers are known, so each figure is checked, not only run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pypdf
import pytest

from manoeuvre_sim.core import games as G
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.studies import balance, simulate, tournament, whatif
from manoeuvre_sim.studies.whatif_tables import FIELD
from tests.studies import coin_game

SIDES = ["heavy:70", "fair", "light:30"]


@pytest.fixture
def coin(monkeypatch):
    """The toy game in the registry under ``coin`` (its module found by name, as a worker
    process finds it: ``tests.studies.coin_game``, from the repository's root on the path)."""
    monkeypatch.setitem(G.GAMES, "coin", (coin_game.__name__, coin_game.TITLE))
    path = [str(Path(__file__).parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    return "coin"


def test_the_toy_game_satisfies_the_interface(coin):
    assert G.get_game(coin) is coin_game


def test_balance_with_a_precision_goal(coin, tmp_path):
    """Rounds until every cell's interval is within 4 points: the coins rank by their
    chance of heads, the mirrors sit near one half, and the run records what it reached."""
    res = balance.run(coin, SIDES, games_per_pairing=100, precision=0.04, max_games=3000,
                      block=50, seed=3, out_dir=tmp_path / "b")  # fmt: skip
    m = res.manifest
    assert not res.interrupted and m["game"] == "coin" and m["rules_version"] == "coin-1"
    assert m["precision_reached"] <= 0.04
    reached = m["games_per_pairing_reached"]
    assert reached["min"] < reached["max"]  # the games went where the intervals were wide
    assert list(res.sides.sort_values("rank")["side"]) == ["heavy", "fair", "light"]
    heavy = res.sides.set_index("side").loc["heavy"]
    assert heavy.score_ci_low > 0.5
    mirrors = res.pairings[res.pairings["side_a"] == res.pairings["side_b"]]
    assert ((mirrors["first_score_ci_low"] < 0.5) & (mirrors["first_score_ci_high"] > 0.5)).all()
    written = {p.name for p in res.write(tmp_path / "b")}
    assert {"pairings.csv", "sides.csv", "manifest.json", "summary.txt"} <= written
    # the same study resumed from its store plays nothing and gives the same tables
    again = balance.run(coin, SIDES, games_per_pairing=100, precision=0.04, max_games=3000,
                        block=50, seed=3, out_dir=tmp_path / "b", resume=True)  # fmt: skip
    pd.testing.assert_frame_equal(again.pairings, res.pairings)


def test_whatif_an_identical_variant_is_exactly_zero_and_a_stronger_coin_wins_more(coin):
    same = whatif.run(coin, SIDES, variant_sides={"heavy": "heavy:70"}, games_per_pairing=300,
                      block=100, seed=5)  # fmt: skip
    assert len(same.pairing_table(pooled=False)) == 5  # every pairing with heavy, mirror once
    t = same.whatif
    assert list(t["opponent"]) == ["fair", "light", FIELD]
    assert (t["delta"] == 0).all() and (t["delta_low"] == 0).all()
    assert (t["delta_high"] == 0).all() and (t["changed_games"] == 0).all()
    assert (same.field["rating_delta"] == 0).all()
    better = whatif.run(coin, SIDES, variant_sides={"light": "light:90"}, games_per_pairing=300,
                        block=100, seed=5)  # fmt: skip
    t = better.whatif
    assert list(t["army"]) == ["light"] * 3 and (t["delta_low"] > 0.2).all()
    t = better.pairing_table(pooled=False)
    light_a = t[(t["side_a"] == "light") & (t["side_b"] != "light")]
    assert len(light_a) == 2 and (light_a["a_win_change_ci_low"] > 0.2).all()
    assert better.manifest["paired_games"] == 5 * 300


def test_tournament_of_players_both_seats(coin, tmp_path):
    """A lucky player beats a fair one on every coin; the tournament seats each side
    against itself, both seatings, and keeps a store."""
    res = tournament.run(coin, ["fair", "lucky"], 120, 2, sides=SIDES, store=tmp_path / "t")
    (pair,) = res.pairs
    assert (pair.a, pair.b, pair.games) == ("fair", "lucky", 120)
    from manoeuvre_sim.core.stats import wilson_interval

    assert float(wilson_interval(pair.wins_a, pair.games)[1]) < 0.5
    assert set(res.frame["side"]) == {"heavy", "fair", "light"}
    assert any((tmp_path / "t").glob("*.parquet"))
    with pytest.raises(UsageError, match="not a player of coin"):
        tournament.run(coin, ["fair", "cheat"], 12, 2, sides=SIDES)


def test_simulate_stopped_resumed_and_on_dask_equals_one_run(coin, tmp_path):
    plan = simulate.plan(coin, "heavy:70", "light:30", seed=9, games=60)
    whole, out = simulate.run(coin, plan, block=60)
    assert len(whole) == 60 and not out.interrupted

    def stop(done: int, total: int) -> None:
        if done >= 25:
            raise KeyboardInterrupt

    store = tmp_path / "s"
    part, out = simulate.run(coin, plan, block=25, store=store, progress=stop)
    assert out.interrupted and len(part) == 25
    resumed, out = simulate.run(coin, plan, block=25, store=store, resume=True)
    assert not out.interrupted and out.tasks_resumed == 1
    pd.testing.assert_frame_equal(resumed, whole)
    pytest.importorskip("dask.distributed")
    from manoeuvre_sim.core.backend import DaskBackend

    with DaskBackend(workers=1) as backend:
        on_dask, out = simulate.run(coin, plan, block=25, backend=backend)
    assert out.backend == "dask"
    pd.testing.assert_frame_equal(on_dask, whole)


def test_the_report_has_a_part_for_a_game_without_its_own(coin, tmp_path):
    from manoeuvre_sim.analyses.common import report

    balance.run(coin, SIDES, games_per_pairing=60, block=30, seed=1).write(tmp_path / "b")
    whatif.run(coin, SIDES, variant_sides={"fair": "fair:55"}, games_per_pairing=60,
               block=30, seed=1).write(tmp_path / "w")  # fmt: skip
    studies = report.load_studies([tmp_path / "w", tmp_path / "b"])
    assert [s.kind for s in studies] == ["balance", "whatif"]
    pdf, pages = report.write_report(tmp_path / "r.pdf", studies, paper="a4")
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages)
    assert len(pypdf.PdfReader(pdf).pages) == pages
    assert "Coin flips" in text and "coin-1" in text
    assert "Balance study — 3 sides" in text and "What-if — fair:" in text
    assert "heavy" in text and "Table sides" in text
