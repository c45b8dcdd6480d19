"""Two studies compared (analyses/common/compare.py) over real tiny studies
(tests/web/compare_fixtures.py) and synthetic records: the rates are the balance study's own,
a study against itself changes nothing, a paired cell's interval is scipy's t interval of
the per-game differences, an independent one statsmodels' Wald interval of two proportions,
tau is scipy's between the studies' own tables, and what cannot be compared is refused in
one line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from manoeuvre_sim.analyses.common import compare as C
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import z_value
from tests.web.compare_fixtures import compare_root  # noqa: F401 (a fixture)
from tests.web.study_fixtures import HOSTILE


def test_a_study_against_itself_is_paired_and_changes_nothing(compare_root):  # noqa: F811
    cmp = C.compare(compare_root / "random", compare_root / "random")
    assert cmp.paired and "same" in cmp.pairing_reason
    for df in (cmp.table, cmp.cells):
        assert (df["diff"] == 0).all()
        assert (df["diff_low"] == 0).all() and (df["diff_high"] == 0).all()
        assert not df["moved"].any()
    assert cmp.tau == 1.0 and cmp.moved == []
    assert set(cmp.table["army"]) == {"France", "Russia", HOSTILE}


def test_the_rates_are_the_balance_study_s_field_win_rates(compare_root):  # noqa: F811
    cmp = C.compare(compare_root / "random", compare_root / "seed2")
    for side, d in (("a", "random"), ("b", "seed2")):
        armies = pd.read_csv(compare_root / d / "armies.csv").set_index("army")
        t = cmp.table.set_index("army")
        for mine, theirs in (("", "field_win_rate"), ("_low", "ci_low"), ("_high", "ci_high")):
            got, want = t[f"rate_{side}{mine}"], armies.loc[t.index, theirs]
            np.testing.assert_allclose(got, want, atol=1e-6)  # the CSV's six decimals
    a = pd.read_csv(compare_root / "random/armies.csv").set_index("army")["field_win_rate"]
    b = pd.read_csv(compare_root / "seed2/armies.csv").set_index("army")["field_win_rate"]
    res = st.kendalltau(a.to_numpy(), b.reindex(a.index).to_numpy())
    assert cmp.tau == pytest.approx(res.statistic) and cmp.tau_p_value == pytest.approx(res.pvalue)


def _games(path) -> pd.DataFrame:
    from manoeuvre_sim.core.store import read_store

    g = read_store(path / "games.parquet")
    g["s"] = np.where(g["winner"] == "a", 1.0, np.where(g["winner"] == "b", 0.0, 0.5))
    return g[g["army_a"] != g["army_b"]]


def test_same_seed_under_another_player_is_paired_game_by_game(compare_root):  # noqa: F811
    cmp = C.compare(compare_root / "random", compare_root / "simple")
    assert cmp.paired
    ga, gb = _games(compare_root / "random"), _games(compare_root / "simple")
    m = ga.merge(gb, on=["army_a", "army_b", "game", "seed"], suffixes=("_a", "_b"))
    assert len(m) == len(ga) == len(gb)
    checked = 0
    for r in cmp.cells.to_dict("records"):
        fwd = m[(m["army_a"] == r["row"]) & (m["army_b"] == r["col"])]
        rev = m[(m["army_a"] == r["col"]) & (m["army_b"] == r["row"])]
        d = np.concatenate([fwd["s_b"] - fwd["s_a"], (1 - rev["s_b"]) - (1 - rev["s_a"])])
        assert r["diff"] == pytest.approx(d.mean())
        assert r["changed_games"] == (d != 0).sum()
        if d.std() > 0:
            ci = st.ttest_1samp(d, 0).confidence_interval()
            assert (r["diff_low"], r["diff_high"]) == pytest.approx((ci.low, ci.high))
            checked += 1
        else:
            assert r["diff_low"] == r["diff_high"] == r["diff"]
    assert checked >= 3
    t = cmp.table
    np.testing.assert_allclose(t["diff"], t["rate_b"] - t["rate_a"], atol=1e-12)


def _records(wins_a: int, n: int, seed: int, draws: int = 0) -> pd.DataFrame:
    w = ["a"] * wins_a + ["draw"] * draws + ["b"] * (n - wins_a - draws)
    return pd.DataFrame({"label": "x", "army_a": "X", "army_b": "Y", "policy_a": "p",
                         "policy_b": "p", "game": range(n), "seed": seed, "winner": w})  # fmt: skip


def _study(df: pd.DataFrame, seed: int) -> C.Study:
    m = {"game": "manoeuvre", "study": "balance", "seed": seed, "policies": []}
    return C.Study(None, f"s{seed}", m, "x", C.perspective(df, False, "x"))


def test_independent_cells_take_the_wald_interval_of_two_proportions():
    from statsmodels.stats.proportion import confint_proportions_2indep

    a, b = _study(_records(31, 60, 1), 1), _study(_records(18, 50, 2), 2)
    cmp = C.compare_studies(a, b)
    assert not cmp.paired and "seeds differ" in cmp.pairing_reason
    cell = cmp.cells.set_index(["row", "col"]).loc[("X", "Y")]
    lo, hi = confint_proportions_2indep(18, 50, 31, 60, method="wald", compare="diff")
    assert cell["diff"] == pytest.approx(18 / 50 - 31 / 60)
    assert (cell["diff_low"], cell["diff_high"]) == pytest.approx((lo, hi))
    assert cell["moved"] == (hi < 0 or lo > 0)
    # the field of one opponent: the same difference, a normal interval of the same se
    row = cmp.table.set_index("army").loc["X"]
    se = np.hypot(np.sqrt(31 / 60 * 29 / 60 / 60), np.sqrt(18 / 50 * 32 / 50 / 50))
    assert row["diff_high"] - row["diff"] == pytest.approx(z_value() * se)


def test_draws_count_half_and_paired_differences_match_scipy():
    base = _records(20, 40, 1, draws=6)
    var = base.copy()
    var.loc[:9, "winner"] = "b"  # ten of the base's wins and draws lost
    cmp = C.compare_studies(_study(base, 1), _study(var, 1))
    assert cmp.paired
    s = lambda w: np.where(w == "a", 1.0, np.where(w == "b", 0.0, 0.5))  # noqa: E731
    d = s(var["winner"].to_numpy()) - s(base["winner"].to_numpy())
    cell = cmp.cells.set_index(["row", "col"]).loc[("X", "Y")]
    ci = st.ttest_1samp(d, 0).confidence_interval()
    assert cell["rate_a"] == pytest.approx(23 / 40)
    assert (cell["diff"], cell["diff_low"], cell["diff_high"]) == pytest.approx(
        (d.mean(), ci.low, ci.high)
    )
    assert cell["moved"] and cell["changed_games"] == 10


def test_a_variant_study_compares_its_variants(compare_root):  # noqa: F811
    same = C.compare(compare_root / "hex", compare_root / "hex")
    assert same.unit == "variant" and same.paired and (same.table["diff"] == 0).all()
    other = C.compare(compare_root / "hex", compare_root / "hex2")
    assert not other.paired and len(other.table) == 2
    v = pd.read_csv(compare_root / "hex/variants.csv")
    pooled = v[v["policy_blue"] == "all"].set_index("variant")
    t = other.table.set_index("variant")
    blue = pooled["blue_win_rate"] + pooled["draw_rate"] / 2
    np.testing.assert_allclose(t["rate_a"], blue.loc[t.index], atol=1e-6)


@pytest.mark.parametrize(("a", "b", "words"), [
    ("random", "hex", "compare two studies of the same game"),
    ("random", "cards", "compare reads balance studies"),
    ("random", "interrupted", "B: interrupted is not a finished study (its run was interrupted)"),
    ("writing", "random", "A: writing is not a finished study (no manifest.json"),
    ("random", "nowhere", "B: "),
])  # fmt: skip
def test_what_cannot_be_compared_is_refused_in_one_line(compare_root, a, b, words):  # noqa: F811
    with pytest.raises(UsageError) as e:
        C.compare(compare_root / a, compare_root / b)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_study_a_run_is_adding_to_is_refused(compare_root, tmp_path):  # noqa: F811
    import shutil

    busy = tmp_path / "busy"
    shutil.copytree(compare_root / "random", busy)
    (busy / "games.parquet" / ".part-9.parquet.tmp").write_bytes(b"")
    with pytest.raises(UsageError, match="B: busy is not a finished study .a part of its games"):
        C.compare(compare_root / "random", busy)


def test_a_study_of_two_players_is_compared_under_the_label_chosen(compare_root):  # noqa: F811
    first = C.compare(compare_root / "both", compare_root / "random")
    assert first.a["label"] == "random" and first.a["labels"] == ["random", "simple"]
    assert first.paired and (first.table["diff"] == 0).all() and first.tau == 1.0
    other = C.compare(compare_root / "both", compare_root / "simple", label_a="simple")
    assert other.paired and (other.cells["diff"] == 0).all()
    mixed = C.compare(compare_root / "both", compare_root / "both", label_b="simple")
    want = C.compare(compare_root / "random", compare_root / "simple")
    pd.testing.assert_frame_equal(mixed.table, want.table)


def test_a_label_that_is_not_the_study_s_is_refused(compare_root):  # noqa: F811
    with pytest.raises(UsageError, match="--label-b: 'tuned' is not one of 'random'"):
        C.compare(compare_root / "simple", compare_root / "random", label_b="tuned")


def test_the_command_prints_the_table_and_writes_it(compare_root, tmp_path):  # noqa: F811
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    out = tmp_path / "cmp"
    r = CliRunner().invoke(cli, ["compare", str(compare_root / "random"),
                                 str(compare_root / "simple"), "--out", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "paired: the same" in r.output and "Kendall's tau" in r.output
    written = pd.read_csv(out / "comparison.csv")
    cmp = C.compare(compare_root / "random", compare_root / "simple")
    np.testing.assert_allclose(written["diff"], cmp.table["diff"], atol=1e-6)


def test_the_command_refuses_in_one_line(compare_root, capsys):  # noqa: F811
    from manoeuvre_sim.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(["compare", str(compare_root / "random"), str(compare_root / "hex")])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: compare: A (random)") and err.endswith("of the same game")


class _Ones:
    """An rng whose every resample is the games themselves (each weight 1)."""

    def multinomial(self, n, p):
        return np.ones(n, dtype=np.int64)


def test_tau_s_bootstrap_interval(compare_root):  # noqa: F811
    same = C.compare(compare_root / "random", compare_root / "random")
    assert (same.tau_low, same.tau_high) == pytest.approx((1.0, 1.0))
    cmp = C.compare(compare_root / "random", compare_root / "seed2")
    again = C.compare(compare_root / "random", compare_root / "seed2")
    assert (cmp.tau_low, cmp.tau_high) == (again.tau_low, again.tau_high)  # seeded
    assert -1 <= cmp.tau_low <= cmp.tau_high <= 1
    none = C.compare(compare_root / "random", compare_root / "seed2", boot=0)
    assert np.isnan(none.tau_low) and none.tau == cmp.tau
    # a resample that keeps every game once gives the table's rates
    study = C.load(compare_root / "random")
    rows = [str(x) for x in cmp.table["army"]]
    (rates,) = C._Resampler(study.games, ["s"], rows).rates(_Ones())
    np.testing.assert_allclose(rates, cmp.table["rate_a"])


def test_what_a_row_is_comes_from_each_games_adapter(coin):
    """No list of kinds in compare: each game's ``BALANCE_STUDY``, ``BALANCE_ROWS`` and
    ``BALANCE_SIDES`` say what its balance study's rows are, the toy game's by default."""
    assert C.rows_of("manoeuvre") == C.Rows("balance", "army", False)
    assert C.rows_of("hex") == C.Rows("hex balance", "variant", True)
    assert C.rows_of("coin") == C.Rows("balance", "side", False)
    assert C.compared_kinds() == ("balance", "hex balance")
