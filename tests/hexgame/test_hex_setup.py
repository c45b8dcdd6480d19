"""Maneuver's set-up study (``hex setup``): the Capital's hex in the records, the table by
hex against a hand count, and the command's files."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint

from manoeuvre_sim.cli.main import cli, main
from manoeuvre_sim.hexgame import RULES_VERSION
from manoeuvre_sim.hexgame import batch as BT
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.grid import Grid
from manoeuvre_sim.hexgame.players import policy_arrays
from manoeuvre_sim.hexgame.records import HexOptions, manifest, to_frame
from manoeuvre_sim.hexgame.studies import setup as HS


def rule3_capital_hexes(sc, border):
    """Rule [3] counted from the grid alone: the side's hexes not adjacent to the border, not
    an edge hex, at least two hexes from every corner hex."""
    g = Grid(sc.columns, sc.rows)
    cut = sc.borders[border].blue_rows
    side = {h: int(g.col_row(h)[1] >= cut[g.col_row(h)[0]]) for h in range(g.n)}
    corners = [g.cube(c) for c in g.corner_hexes()]
    out = {0: set(), 1: set()}
    for h in range(g.n):
        nbs = [k for k in g.neighbours()[h] if k >= 0]
        far = all(max(abs(a - b) for a, b in zip(g.cube(h), c, strict=True)) >= 2 for c in corners)
        if len(nbs) == 6 and far and all(side[k] == side[h] for k in nbs):
            out[side[h]].add(g.label(h))
    return out


@pytest.mark.parametrize("border", ["basic", "large_blue"])
def test_the_records_name_a_legal_capital_hex_for_each_side(border):
    sc = SC.load_scenario()
    legal = rule3_capital_hexes(sc, border)
    opt = HexOptions(border=border)
    for pols in (("random", "random"), ("capital", "attrition")):
        pol, params = policy_arrays(*pols)
        rec = BT.play_games(5, 0, 300, SC.pack(sc, border), opt.array(), pol, params, 1)
        man = manifest(sc, "x", opt, 5, 0, 300, pols, params)
        df = to_frame(rec, man)
        assert set(df["capital_hex_a"]) <= legal[0]
        assert set(df["capital_hex_b"]) <= legal[1]
        if pols[0] == "random":  # uniform choices reach many hexes
            assert df["capital_hex_a"].nunique() > 10


def test_the_capital_hex_is_where_the_replay_places_it():
    sc = SC.load_scenario()
    pol, params = policy_arrays("random", "capital")
    packed = SC.pack(sc, "basic")
    opt = HexOptions().array()
    rec = BT.play_games(9, 0, 20, packed, opt, pol, params, 1)
    for i in (0, 7, 19):
        st, _ = BT.play_one(9, i, packed, opt, pol, params)
        for s in (0, 1):
            home = st[S.POS + s * SC.MAXU]
            assert f"{rec[i, BT.R_CAP_HEX + s]:04d}" == sc.grid.label(int(home))


def _games():
    # first player a (blue) on 0302 twice (one win, one draw), b (red) on 0313 three times
    return pd.DataFrame(
        {
            "game": range(6),
            "seed": 1,
            "first_player": ["a", "a", "b", "b", "b", "a"],
            "winner": ["a", "draw", "b", "a", "b", "b"],
            "capital_hex_a": ["0302", "0302", "0402", "0402", "0302", "0502"],
            "capital_hex_b": ["0313", "0413", "0313", "0313", "0313", "0313"],
        }
    )


def test_the_table_by_hex_against_a_hand_count():
    legal = {0: ["0302", "0402", "0502"], 1: ["0313", "0413"]}
    t = HS.capital_table(_games(), legal).set_index(["capital", "side", "hex"])
    assert len(t) == 10  # every legal hex of each side, for each Capital
    # the first player's Capital
    assert t.loc[("first", "blue", "0302"), ["games", "first_win", "draw"]].tolist() == [2, 1, 1]
    assert t.loc[("first", "blue", "0502"), ["games", "first_win", "draw"]].tolist() == [1, 0, 0]
    assert t.loc[("first", "red", "0313"), ["games", "first_win", "draw"]].tolist() == [3, 2, 0]
    assert t.loc[("first", "blue", "0402"), "games"] == 0
    # the second player's: blue 0402 twice (the first player red won once), 0302 once
    assert t.loc[("second", "blue", "0402"), ["games", "first_win"]].tolist() == [2, 1]
    assert t.loc[("second", "blue", "0302"), ["games", "first_win"]].tolist() == [1, 1]
    assert t.loc[("second", "red", "0313"), ["games", "first_win", "draw"]].tolist() == [2, 1, 0]
    assert t.loc[("second", "red", "0413"), ["games", "draw"]].tolist() == [1, 1]
    assert t["games"].groupby(level=0).sum().tolist() == [6, 6]
    r = t.loc[("first", "red", "0313")]
    lo, hi = proportion_confint(2, 3, alpha=0.05, method="wilson")
    assert r["first_win_rate"] == pytest.approx(2 / 3)
    assert (r["first_win_rate_ci_low"], r["first_win_rate_ci_high"]) == pytest.approx((lo, hi))
    c = HS.concentration(HS.capital_table(_games(), legal), "first")
    assert (c["legal_hexes"], c["hexes_chosen"], c["top_hex"]) == (5, 3, "red 0313")


def test_the_command_writes_every_file(tmp_path, capsys):
    out = tmp_path / "s"
    args = ["hex", "setup", "--out", str(out), "--games", "300", "--block", "100", "--quiet",
            "--seed", "4", "--policy-b", "random"]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    for f in ("capital_hexes.csv", "manifest.json", "summary.txt", "hex_setup.pdf"):
        assert (out / f).stat().st_size > 0, f
    assert any((out / "games.parquet").iterdir())
    m = json.loads((out / "manifest.json").read_text())
    assert (m["seed"], m["rules_version"], m["games"]) == (4, RULES_VERSION, 300)
    assert m["scenario_sha256"] == SC.load_scenario().sha256
    t = pd.read_csv(out / "capital_hexes.csv", dtype={"hex": str})
    assert t.groupby("capital")["games"].sum().tolist() == [300, 300]
    assert (out / "hex_setup.pdf").read_bytes().startswith(b"%PDF")
    # bad input: one line, no game played
    with pytest.raises(SystemExit) as e:
        main(["hex", "setup", "--out", str(tmp_path / "b"), "--border", "x"])
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and "--border" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "b" / "games.parquet").exists()
    assert np.isfinite(m["overall"]["first_win_rate"])


def test_capital_random_draws_legal_hexes_and_is_inert_when_off():
    """The study device (a fifth player parameter): on, every Capital hex rule [3] allows is
    reached, and only legal ones; a fifth parameter of 0 plays the default games exactly."""
    sc = SC.load_scenario()
    legal = rule3_capital_hexes(sc, "basic")
    packed, opt = SC.pack(sc, "basic"), HexOptions().array()
    base = (1.0, 1.0, 0.0, 100.0)
    pol, params = policy_arrays("capital", "capital")
    want = BT.play_games(3, 0, 200, packed, opt, pol, params, 1)
    pol, off = policy_arrays("capital", "capital", (*base, 0.0), (*base, 0.0))
    assert off.shape == (2, 5)
    np.testing.assert_array_equal(BT.play_games(3, 0, 200, packed, opt, pol, off, 1), want)
    pol, on = policy_arrays("capital", "capital", (*base, 1.0), (*base, 1.0))
    got = BT.play_games(3, 0, 1500, packed, opt, pol, on, 1)
    hexes = [{f"{v:04d}" for v in got[:, BT.R_CAP_HEX + s]} for s in (0, 1)]
    assert hexes == [legal[0], legal[1]]
