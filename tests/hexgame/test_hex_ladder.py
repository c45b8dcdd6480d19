"""Maneuver's handicap ladder (``hexgame/studies/ladder.py``, ``manoeuvre-sim hex ladder``): the
even point recovered from synthetic records with a known answer, its interval's width
checked against the spread of replicate fits, the ladder's table, common random numbers
across rungs, and the command writing every file."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli, main
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame.studies import ladder as HL


def synthetic(b0: float, b1: float, games: int, rng, top: int = 8, draw: float = 0.3):
    """Per-game points whose mean at rung k is logistic(b0 + b1 k): a draw with chance
    ``draw``, else a win with the chance that makes the mean right."""
    k = np.repeat(np.arange(top + 1), games)
    p = 1.0 / (1.0 + np.exp(-(b0 + b1 * k)))
    u = rng.random(len(k))
    win = p - draw / 2  # P(win) + P(draw)/2 = p
    pts = np.where(u < win, 1.0, np.where(u < win + draw, 0.5, 0.0))
    return k, pts


def test_the_even_point_is_recovered_from_synthetic_records():
    rng = np.random.default_rng(7)
    k, pts = synthetic(1.2, -0.3, 4000, rng)  # k* = 4
    fit = HL.fit_even_point(k, pts)
    assert abs(fit["k_star"] - 4.0) < 0.15
    assert fit["k_star_ci_low"] < 4.0 < fit["k_star_ci_high"]
    assert fit["k_star_ci_high"] - fit["k_star_ci_low"] < 0.5
    assert abs(fit["slope"] + 0.3) < 0.02 and abs(fit["intercept"] - 1.2) < 0.06
    assert HL.nearest_whole(fit, 8) == [3, 4] or HL.nearest_whole(fit, 8) == [4, 5]
    # a ladder on which the score does not move has no even point
    flat = HL.fit_even_point(k, rng.choice([0.0, 0.5, 1.0], len(k)))
    assert flat["k_star"] is None and "slope" in flat["note"]


def test_the_delta_interval_matches_the_spread_of_replicate_fits():
    """The delta method's standard error of k* against the standard deviation of k* over
    replicate synthetic ladders with the same known answer (k* = 2.5)."""
    rng = np.random.default_rng(11)
    fits = [HL.fit_even_point(*synthetic(0.75, -0.3, 600, rng, top=6)) for _ in range(120)]
    ks = np.array([f["k_star"] for f in fits])
    se = np.median([f["k_star_se"] for f in fits])
    assert abs(ks.mean() - 2.5) < 3 * ks.std() / np.sqrt(len(ks))
    assert 0.8 < se / ks.std() < 1.25
    cover = np.mean([f["k_star_ci_low"] < 2.5 < f["k_star_ci_high"] for f in fits])
    assert 0.88 <= cover <= 0.99


def test_the_ladder_table_counts_points():
    k = np.array([0, 0, 0, 0, 1, 1])
    pts = np.array([1.0, 1.0, 0.5, 0.0, 0.0, 0.5])
    t = HL.ladder_table(k, pts)
    assert t[["k", "games", "wins", "draws", "losses"]].values.tolist() == [
        [0, 4, 2, 1, 1],
        [1, 2, 0, 1, 1],
    ]
    assert t["score"].tolist() == [0.625, 0.25]
    assert (t["score_ci_low"] < t["score"]).all() and (t["score"] < t["score_ci_high"]).all()


def test_every_rung_plays_the_same_games_of_the_same_seeds():
    """Common random numbers: every rung plays the same seeds, and a rung's records do not
    depend on which other rungs are played."""
    spec = HL.LadderSpec(border="large_blue", favoured="blue", max_k=3, games=40, block=20,
                         seed=5, threads=2)  # fmt: skip
    res = HL.run_spec(spec)
    g = res.games
    seeds = g.groupby("label")["seed"].apply(lambda s: tuple(sorted(set(s))))
    assert len(set(seeds)) == 1
    short = HL.run_spec(HL.LadderSpec(border="large_blue", favoured="blue", max_k=1, games=40,
                                      block=20, seed=5, threads=2))  # fmt: skip
    cols = ["game", "seed", "first_player", "winner", "game_turns"]
    for rung in ("k=0", "k=1"):
        a = g[g["label"] == rung][cols].reset_index(drop=True)
        b = short.games[short.games["label"] == rung][cols].reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)
    # the handicap changes the games: the top rung is not rung 0 replayed
    assert (
        not g[g["label"] == "k=3"]["winner"]
        .reset_index(drop=True)
        .equals(g[g["label"] == "k=0"]["winner"].reset_index(drop=True))
    )


def test_the_command_writes_every_file(tmp_path):
    out = tmp_path / "ladder"
    args = ["hex", "ladder", "--out", str(out), "--games", "30", "--block", "15", "--max-k",
            "3", "--border", "large_blue", "--quiet", "--threads", "2", "--seed", "4"]  # fmt: skip
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, (r.output, r.exception)
    for name in ("ladder.csv", "fit.json", "manifest.json", "summary.txt", "hex_ladder.pdf"):
        assert (out / name).stat().st_size > 0, name
    assert len(list((out / "games.parquet").glob("*.parquet"))) == 8
    m = json.loads((out / "manifest.json").read_text())
    assert m["seed"] == 4 and m["rules_version"] == RULES_VERSION and m["game"] == "hex"
    assert len(m["scenario_sha256"]) == 64 and m["games"] == 120
    assert m["favoured"] == "blue" and m["favoured_measured"]["games"] == 30
    fit = json.loads((out / "fit.json").read_text())
    assert fit["seed"] == 4 and fit["rules_version"] == RULES_VERSION
    assert {"intercept", "slope", "k_star", "k_star_ci_low", "method"} <= set(fit)
    t = pd.read_csv(out / "ladder.csv")
    assert t["k"].tolist() == [0, 1, 2, 3] and (t["games"] == 30).all()
    from pypdf import PdfReader

    text = " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(out / "hex_ladder.pdf").pages
    )
    assert GAME_TITLE in text and RULES_VERSION in text and m["scenario_sha256"][:16] in text
    r = CliRunner().invoke(cli, [*args, "--resume"])
    assert r.exit_code == 0, (r.output, r.exception)
    assert pd.read_csv(out / "ladder.csv").equals(t)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-k", "99"], "--max-k: expected 1..10"),
        (["--border", "huge"], "--border: 'huge' is not a border"),
        (["--policies", "capital,nobody"], "--policies: unknown policy 'nobody'"),
    ],
)
def test_a_bad_value_is_one_line(args, message, capsys, tmp_path):
    try:
        main(["hex", "ladder", "--out", str(tmp_path / "x"), "--quiet", *args])
        code = 0
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and message in err and err.count("\n") == 1


def test_the_units_chosen_are_the_units_set_up_weak():
    """quality units:1,2,3 (the O_WEAK mask) plays the same games as K = 3 (the first three
    in scenario order); the two cavalry chosen play other games than two infantry."""
    from manoeuvre_sim.hexgame import variants as HV
    from manoeuvre_sim.studies import balance

    vs = [HV.Variant(quality_blue=q, name=q) for q in ("3", "units:1,2,3", "2", "units:7,8")]
    spec = balance.BalanceSpec(
        "hex",
        tuple(vs),
        policies=("capital",),
        games_per_pairing=60,
        seed=2,
        threads=2,
        block=30,
        settings=HV.VariantSettings(),
    )
    g = balance.run_spec(spec).games
    cols = ["game", "seed", "winner", "game_turns", "capital_fell_turn_a", "capital_fell_turn_b"]
    rung = {
        q: g[g["label"] == q][cols].reset_index(drop=True)
        for q in ("3", "units:1,2,3", "2", "units:7,8")
    }
    pd.testing.assert_frame_equal(rung["3"], rung["units:1,2,3"])
    assert not rung["2"].equals(rung["units:7,8"])


def test_the_designer_picks_the_order_of_the_unit_types():
    spec = HL.LadderSpec(order="cavalry,artillery", favoured="red")
    order = [n for _, n in spec.weak_order(1)]
    assert order[:4] == ["Cavalry 1", "Cavalry 2", "Artillery 1", "Artillery 2"]
    assert order[4:] == [f"Infantry {i}" for i in range(1, 7)]
    assert spec.quality(0, 1) == "front" and spec.quality(3, 1) == "units:7,8,9"
    assert HL.LadderSpec().quality(3, 0) == "3"  # scenario order: the existing option K
    rungs = spec.rungs("red")
    assert rungs[2].quality_red == "units:7,8" and rungs[2].quality_blue == "front"
    with pytest.raises(Exception) as e:
        HL.LadderSpec(order="cavalry,dragoons")
    assert "--order" in str(e.value) and "\n" not in str(e.value)
