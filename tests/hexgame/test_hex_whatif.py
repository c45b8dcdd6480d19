"""Maneuver's what-if (``studies/whatif.py`` with Maneuver's hooks, ``hexgame/whatif_variant.py``;
``manoeuvre-sim hex whatif``): an
identical variant gives exactly zero, a clearly stronger red infantry raises red's win rate
with an interval clear of zero, the paired intervals are scipy's on the per-game
differences, base and variant play the same seeds, bad edits are refused in one line, and
the command writes every file."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from manoeuvre_sim.analyses.hexgame import whatif as HW
from manoeuvre_sim.cli.main import cli, main
from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame import whatif_variant as HV
from manoeuvre_sim.hexgame.scenario import default_path, load_scenario
from manoeuvre_sim.studies import whatif as W

KW = {"block": 100, "threads": 2}
STEMS = ("blue_win", "red_win", "first_win", "draw")


@pytest.fixture(scope="module")
def stronger_red(tmp_path_factory):
    out = tmp_path_factory.mktemp("whatif")
    return W.run("hex", edits=("red/infantry/strength=8:4",), policies="capital",
                 games_per_pairing=200, seed=5, out_dir=out, **KW)  # fmt: skip


def test_an_identical_variant_changes_exactly_nothing():
    res = W.run("hex", variant=str(default_path()), games_per_pairing=60, seed=2, **KW)
    assert res.manifest["identical"]
    t = res.whatif
    assert len(t) == 5  # four ordered pairings and the pooled row
    for s in STEMS:
        assert (t[f"{s}_change"] == 0.0).all()
        assert (t[f"{s}_change_ci_low"] == 0.0).all() and (t[f"{s}_change_ci_high"] == 0.0).all()
        assert (t[f"{s}_rate_base"] == t[f"{s}_rate_variant"]).all()
    assert (t["changed_games"] == 0).all()


def test_a_stronger_red_infantry_wins_more_for_red(stronger_red):
    row = stronger_red.whatif.iloc[0]
    assert row["games"] == 200
    assert row["red_win_change"] > 0 and row["red_win_change_ci_low"] > 0
    assert row["changed_games"] > 0


def test_base_and_variant_play_the_same_seeds(stronger_red):
    g = stronger_red.games
    b, v = (g[g["label"] == lab].sort_values("game") for lab in (W.BASE, W.VARIANT))
    assert len(b) == len(v) == 200
    assert (b["seed"].to_numpy() == v["seed"].to_numpy()).all()
    assert (b["first_player"].to_numpy() == v["first_player"].to_numpy()).all()


def test_the_intervals_are_scipys_on_the_per_game_differences(stronger_red):
    from scipy import stats as st

    pg = HW.paired_games(stronger_red.games)
    row = stronger_red.whatif.iloc[0]
    for s, who in (("blue_win", "a"), ("red_win", "b"), ("draw", "draw")):
        d = (pg["winner_variant"] == who).astype(float) - (pg["winner_base"] == who)
        ci = st.ttest_1samp(d.to_numpy(), 0.0).confidence_interval(0.95)
        assert row[f"{s}_change"] == pytest.approx(d.mean(), abs=1e-12)
        assert row[f"{s}_change_ci_low"] == pytest.approx(ci.low, abs=1e-9)
        assert row[f"{s}_change_ci_high"] == pytest.approx(ci.high, abs=1e-9)
    first = pg["first_player_base"]
    d = (pg["winner_variant"] == first).astype(float) - (pg["winner_base"] == first)
    ci = st.ttest_1samp(d.to_numpy(), 0.0).confidence_interval(0.95)
    assert row["first_win_change_ci_low"] == pytest.approx(ci.low, abs=1e-9)
    assert row["changed_games"] == int((pg["winner_variant"] != pg["winner_base"]).sum())


def test_an_edit_reaches_the_written_scenario(stronger_red, tmp_path):
    raw = HV.apply_edits(HV.load_raw(None), ["both/Cavalry/ma=6", "blue/#4/count=1"])
    path = tmp_path / "v.toml"
    path.write_text(HV.to_toml(raw))
    sc = load_scenario(path)
    assert sc.sha256 == HV.load_scenario_from(raw).sha256
    for side in ("blue", "red"):
        cav = [u for u in getattr(sc.sides, side).units if u.type == "cavalry"]
        assert [u.ma for u in cav] == [6]
    assert sc.sides.blue.units[3].count == 1 and sc.sides.red.units[3].count == 2
    inf = [u for u in sc.sides.red.units if u.type == "infantry"]
    assert inf[0].strength == (4, 2)  # the base, unchanged by the fixture's copy
    m = stronger_red.manifest
    assert m["base_scenario_sha256"] != m["variant_scenario_sha256"]
    assert m["edits"] == ["red/infantry/strength=8:4"]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ("blue/infantry/strength", "expected SIDE/UNIT/FIELD=VALUE"),
        ("green/infantry/strength=5", "expected the side blue, red or both, got 'green'"),
        ("blue/tanks/strength=5", "no blue unit named or of type 'tanks'"),
        ("blue/infantry/speed=5", "expected a field strength, attack, defence, ma, count"),
        ("blue/infantry/strength=five", "blue/infantry/strength: expected an integer"),
        ("red/artillery/strength=5", "has no strength (it has attack, defence)"),
        ("blue/#12/ma=2", "blue has units #1..#4, got #12"),
    ],
)
def test_a_bad_edit_is_refused_in_one_line(edit, message):
    with pytest.raises(UsageError) as e:
        HV.apply_edits(HV.load_raw(None), [edit])
    assert message in str(e.value) and "\n" not in str(e.value)


def test_an_edit_the_rules_forbid_names_the_field():
    with pytest.raises(DataError) as e:
        HV.apply_edits(HV.load_raw(None), ["blue/infantry/strength=25"])
    assert "strength" in str(e.value) and "--set" in str(e.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "expected the variant as either --variant FILE or --set edits"),
        (["--set", "blue/infantry/ma=0"], "ma"),
        (["--set", "blue/infantry/ma=4", "--border", "huge"], "--border: 'huge' is not"),
        (["--set", "blue/infantry/ma=4", "--quality", "back"], "--quality: expected BLUE:RED"),
    ],
)
def test_a_bad_command_is_one_line(args, message, capsys, tmp_path):
    try:
        main(["hex", "whatif", "--out", str(tmp_path / "x"), "--quiet", *args])
        code = 0
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and message in err and err.count("\n") == 1


def test_the_command_writes_every_file(tmp_path):
    out = tmp_path / "w"
    args = ["hex", "whatif", "--out", str(out), "--set", "blue/infantry/strength=5",
            "--games-per-pairing", "30", "--block", "15", "--policies", "capital", "--quiet",
            "--threads", "2", "--seed", "4"]  # fmt: skip
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, (r.output, r.exception)
    for name in ("whatif.csv", "manifest.json", "summary.txt", "hex_whatif.pdf",
                 "variant_scenario.toml"):  # fmt: skip
        assert (out / name).stat().st_size > 0, name
    assert len(list((out / "games.parquet").glob("*.parquet"))) == 4
    m = json.loads((out / "manifest.json").read_text())
    assert m["seed"] == 4 and m["rules_version"] == RULES_VERSION and m["game"] == "hex"
    assert len(m["base_scenario_sha256"]) == 64 and len(m["variant_scenario_sha256"]) == 64
    assert m["edits"] == ["blue/infantry/strength=5"] and m["games"] == 60
    table = pd.read_csv(out / "whatif.csv")
    assert list(table["policy_blue"]) == ["capital"]
    assert np.all(table["blue_win_change_ci_low"] <= table["blue_win_change"])
    from pypdf import PdfReader

    pdf = PdfReader(out / "hex_whatif.pdf")
    assert len(pdf.pages) == 1
    text = " ".join(pdf.pages[0].extract_text().split())
    assert GAME_TITLE in text and RULES_VERSION in text
    assert m["variant_scenario_sha256"][:12] in text
    # the written variant given back as --variant plays the same games
    out2 = tmp_path / "w2"
    args2 = [a if a != str(out) else str(out2) for a in args]
    i = args2.index("--set")
    args2[i : i + 2] = ["--variant", str(out / "variant_scenario.toml")]
    r = CliRunner().invoke(cli, args2)
    assert r.exit_code == 0, (r.output, r.exception)
    assert pd.read_csv(out2 / "whatif.csv").equals(table)
    # a finished run is not replaced silently; --resume reads it back and plays nothing
    assert CliRunner().invoke(cli, args).exit_code != 0
    r = CliRunner().invoke(cli, [*args, "--resume"])
    assert r.exit_code == 0, (r.output, r.exception)
    assert pd.read_csv(out / "whatif.csv").equals(table)
