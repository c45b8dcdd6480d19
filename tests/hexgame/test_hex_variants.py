"""Maneuver's balance study of variants (``studies/balance.py`` with ``hexgame/variants.py``
and ``analyses/hexgame/balance.py``, ``manoeuvre-sim hex balance``):
its tables are hand counts of its records with statsmodels' Wilson intervals, every variant
replays the same seeds (common random numbers), a resumed study equals one run, a precision
run stops at its goal, and the command writes every file (and refuses a bad value in one
line)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from manoeuvre_sim.analyses.hexgame.rows import ALL
from manoeuvre_sim.cli.main import cli, main
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame import variants as HV

POLICIES = ("capital", "attrition")
# the same options under two names: their games must be the same games
VARIANTS = (HV.Variant(), HV.Variant(step_losses=True), HV.Variant(name="basic again"))
GAMES = 80
KW = {"block": 30, "threads": 2}
RECORD = ["game", "seed", "policy_a", "policy_b", "first_player", "winner", "victory",
          "game_turns", "capital_fell_turn_a", "capital_fell_turn_b",
          "captured_without_margin_a", "captured_without_margin_b"]  # fmt: skip


def run_variants(variants, policies, games, seed=1, *, out_dir=None, backend=None,
                 resume=False, progress=None, **kw):  # fmt: skip
    """The balance study of ``variants`` (``studies/balance.py``) played by ``policies``."""
    from manoeuvre_sim.hexgame.variants import VariantSettings
    from manoeuvre_sim.studies import balance

    spec = balance.BalanceSpec("hex", tuple(variants), policies=tuple(policies),
                               games_per_pairing=games, seed=seed, settings=VariantSettings(),
                               **kw)  # fmt: skip
    return balance.run_spec(spec, out_dir, backend=backend, resume=resume, progress=progress)


@pytest.fixture(scope="module")
def study():
    return run_variants(VARIANTS, POLICIES, GAMES, seed=3, **KW)


def _of(res, variant):
    g = res.games[res.games["label"] == variant]
    return g.sort_values(["policy_a", "policy_b", "game"])[RECORD].reset_index(drop=True)


def _wilson(k, n):
    from statsmodels.stats.proportion import proportion_confint

    return proportion_confint(k, n, alpha=0.05, method="wilson")


def test_the_tables_are_hand_counts_with_wilson_intervals(study):
    g = study.games
    assert len(g) == len(VARIANTS) * len(POLICIES) ** 2 * GAMES
    v = study.variants
    assert len(v) == len(VARIANTS) * (len(POLICIES) ** 2 + 1)
    for r in v.itertuples(index=False):
        sub = g[g["label"] == r.variant]
        if r.policy_blue != ALL:
            sub = sub[(sub["policy_a"] == r.policy_blue) & (sub["policy_b"] == r.policy_red)]
        n = len(sub)
        counts = {
            "first_win": int((sub["winner"] == sub["first_player"]).sum()),
            "second_win": int(
                ((sub["winner"] != sub["first_player"]) & (sub["winner"] != "draw")).sum()
            ),
            "blue_win": int((sub["winner"] == "a").sum()),
            "red_win": int((sub["winner"] == "b").sum()),
            "draw": int((sub["winner"] == "draw").sum()),
        }
        assert r.games == n > 0
        assert (r.first_wins, r.second_wins, r.blue_wins, r.red_wins, r.draws) == tuple(
            counts.values()
        )
        for name, k in counts.items():
            lo, hi = _wilson(k, n)
            assert getattr(r, f"{name}_rate") == pytest.approx(k / n, abs=1e-12)
            assert getattr(r, f"{name}_rate_ci_low") == pytest.approx(lo, abs=1e-9)
            assert getattr(r, f"{name}_rate_ci_high") == pytest.approx(hi, abs=1e-9)
        e = study.endings[(study.endings["variant"] == r.variant)
                          & (study.endings["policy_blue"] == r.policy_blue)
                          & (study.endings["policy_red"] == r.policy_red)].iloc[0]  # fmt: skip
        short = (sub["captured_without_margin_a"] + sub["captured_without_margin_b"]) > 0
        draw = sub["victory"] == "draw"
        hand = {"capture_wins": int((sub["victory"] == "capital").sum()),
                "turn_limit_draws": int(draw.sum()), "short_of_margin": int(short.sum()),
                "short_of_margin_draws": int((short & draw).sum())}  # fmt: skip
        for name, k in hand.items():
            lo, hi = _wilson(k, n)
            assert e[name] == k
            assert e[f"{name}_share"] == pytest.approx(k / n, abs=1e-12)
            assert (e[f"{name}_share_ci_low"], e[f"{name}_share_ci_high"]) == pytest.approx(
                (lo, hi), abs=1e-9
            )
        assert hand["capture_wins"] + hand["turn_limit_draws"] == n
        cf = study.capital_fell[(study.capital_fell["variant"] == r.variant)
                                & (study.capital_fell["policy_blue"] == r.policy_blue)
                                & (study.capital_fell["policy_red"] == r.policy_red)]  # fmt: skip
        for side, col in (("blue", "capital_fell_turn_a"), ("red", "capital_fell_turn_b")):
            c = cf[cf["capital"] == side].set_index("turn")["count"]
            assert c.sum() == n
            for t in (0, 1, 2, 3, 5, 10):
                assert c[t] == int((sub[col] == t).sum())


def test_every_variant_replays_the_same_seeds(study):
    """Two variants with the same options play the same games; a variant played alone (or
    beside others) plays the same games; a changed rule changes the games."""
    pd.testing.assert_frame_equal(_of(study, "basic"), _of(study, "basic again"))
    alone = run_variants([HV.Variant(step_losses=True)], POLICIES, GAMES, seed=3, **KW)
    pd.testing.assert_frame_equal(_of(alone, "step losses"), _of(study, "step losses"))
    a, b = _of(study, "basic"), _of(study, "step losses")
    assert (a["seed"] == b["seed"]).all() and not a["winner"].equals(b["winner"])
    # the pairing's seed is hex tournament's: from the master seed and the two players
    from manoeuvre_sim.core.study import pairing_seed

    first = study.games.iloc[0]
    assert first["seed"] == pairing_seed(3, f"hex:{first['policy_a']}@blue",
                                         f"hex:{first['policy_b']}@red")  # fmt: skip


def test_a_resumed_study_equals_one_run(study, tmp_path):
    n = {"calls": 0}

    def stop(done, total):
        n["calls"] += 1
        if n["calls"] == 5:
            raise KeyboardInterrupt

    part = run_variants(VARIANTS, POLICIES, GAMES, seed=3, out_dir=tmp_path, progress=stop, **KW)
    assert part.interrupted and len(part.games) < len(study.games)
    parts = {p: p.stat().st_mtime_ns for p in (tmp_path / "games.parquet").glob("*.parquet")}
    assert len(parts) == 5
    again = run_variants(VARIANTS, POLICIES, GAMES, seed=3, out_dir=tmp_path, resume=True, **KW)
    assert not again.interrupted
    assert all(p.stat().st_mtime_ns == t for p, t in parts.items())  # read back, not replayed
    for name, frame in study.frames().items():
        pd.testing.assert_frame_equal(again.frames()[name], frame, obj=name)


def test_dask_equals_local(study):
    pytest.importorskip("dask.distributed")
    from manoeuvre_sim.core.backend import DaskBackend

    with DaskBackend(workers=1) as backend:
        res = run_variants(VARIANTS, POLICIES, GAMES, seed=3, backend=backend, **KW)
    assert res.manifest["backend"] == "dask"
    for name, frame in study.frames().items():
        pd.testing.assert_frame_equal(res.frames()[name], frame, obj=name)


def test_precision_plays_until_every_first_player_rate_is_narrow_enough():
    res = run_variants([HV.Variant()], ("capital",), 40, seed=2, precision=0.06, max_games=400,
                 block=40, threads=2)  # fmt: skip
    row = res.variants.iloc[0]
    half = (row["first_win_rate_ci_high"] - row["first_win_rate_ci_low"]) / 2
    assert row["games"] > 40 and (half <= 0.06 or row["games"] == 400)
    assert res.manifest["precision_reached"] == pytest.approx(half, abs=1e-6)
    # the games are the seed's first N, as a fixed run of that N plays them
    fixed = run_variants([HV.Variant()], ("capital",), int(row["games"]), seed=2, block=40,
                         threads=2)  # fmt: skip
    pd.testing.assert_frame_equal(_of(res, "basic"), _of(fixed, "basic"))


def test_the_variant_grid():
    assert [v.name for v in HV.variant_grid()] == [v.name for v in HV.default_variants()]
    grid = HV.variant_grid(borders="basic,large_blue", step_losses="both")
    assert [v.name for v in grid] == [
        "basic",
        "step losses",
        "large_blue",
        "large_blue + step losses",
    ]
    q = HV.variant_grid(quality="back:front,2:front")
    assert [(v.quality_blue, v.quality_red) for v in q] == [("back", "front"), ("2", "front")]


def test_the_command_writes_every_file(tmp_path):
    out = tmp_path / "study"
    args = ["hex", "balance", "--out", str(out), "--games-per-pairing", "30", "--block", "15",
            "--policies", "capital", "--borders", "basic,large_red", "--quiet", "--threads", "2",
            "--seed", "4"]  # fmt: skip
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, (r.output, r.exception)
    for name in ("variants.csv", "endings.csv", "capital_fell.csv", "manifest.json",
                 "summary.txt", "hex_balance.pdf"):  # fmt: skip
        assert (out / name).stat().st_size > 0, name
    assert len(list((out / "games.parquet").glob("*.parquet"))) == 4
    m = json.loads((out / "manifest.json").read_text())
    assert m["seed"] == 4 and m["rules_version"] == RULES_VERSION and m["game"] == "hex"
    assert len(m["scenario_sha256"]) == 64 and m["games"] == 60
    assert [v["border"] for v in m["variants"]] == ["basic", "large_red"]
    table = pd.read_csv(out / "variants.csv")
    assert list(table["variant"]) == ["basic", "large_red"]
    assert np.all(table["first_win_rate_ci_low"] <= table["first_win_rate"])
    from pypdf import PdfReader

    pdf = PdfReader(out / "hex_balance.pdf")
    assert len(pdf.pages) == 4
    text = " ".join(" ".join(p.extract_text().split()) for p in pdf.pages[:3])
    assert GAME_TITLE in text and RULES_VERSION in text and m["scenario_sha256"][:16] in text
    # a finished study is not replaced silently; --resume reads it back and plays nothing
    r = CliRunner().invoke(cli, args)
    assert r.exit_code != 0
    r = CliRunner().invoke(cli, [*args, "--resume"])
    assert r.exit_code == 0, (r.output, r.exception)
    assert pd.read_csv(out / "variants.csv").equals(table)
    assert GAME_TITLE in " ".join(
        CliRunner().invoke(cli, ["hex", "balance", "--help"]).output.split()
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--quality", "back"], "--quality: expected BLUE:RED"),
        (["--step-losses", "yes"], "--step-losses: expected off, on or both"),
        (["--borders", "huge"], "--borders: 'huge' is not a border"),
        (["--policies", "capital,nobody"], "--policies: unknown policy 'nobody'"),
        (["--precision", "0.7"], "--precision"),
        (["--borders", "basic,basic"], "--borders: a value is named twice"),
    ],
)
def test_a_bad_value_is_one_line(args, message, capsys, tmp_path):
    try:
        main(["hex", "balance", "--out", str(tmp_path / "x"), "--quiet", *args])
        code = 0
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and message in err and err.count("\n") == 1


def test_the_search_player_takes_part_in_a_variant_study():
    """--policies takes the search player's specs as the hex commands do (a spec the
    search cannot parse is refused in one line, naming it)."""
    res = run_variants([HV.Variant()], ("capital", "search:2"), games=6, seed=3, threads=2)
    t = res.variants
    assert set(t["policy_blue"]) >= {"capital", "search:2"}
    with pytest.raises(UsageError) as e:
        run_variants([HV.Variant()], ("capital", "search:x"), games=6, seed=3)
    assert "search:x" in str(e.value) and "\n" not in str(e.value)
