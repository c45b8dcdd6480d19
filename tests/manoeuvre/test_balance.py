"""The balance study and what-if experiments: seeding, reproducibility, the tables against
hand counts over the raw records, paired differences, the store on disk."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from manoeuvre_sim.analyses.manoeuvre import tally as T
from manoeuvre_sim.analyses.manoeuvre.balance import incomplete_armies
from manoeuvre_sim.analyses.manoeuvre.balance_text import interrupted_status
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import pairing_seed
from manoeuvre_sim.manoeuvre.balance_setup import policy_specs, resolve_armies
from manoeuvre_sim.studies import balance as B
from manoeuvre_sim.studies import whatif as W
from manoeuvre_sim.studies import whatif_tables as WT

FIELD3 = ["France", "Russia", "Spain"]
GAME_COLS = ["label", "pairing", "game", "seed", "army_a", "army_b", "first_player", "winner",
             "victory", "tiebreak", "game_turns", "vp_a", "vp_b", "map_nw", "rot_se"]  # fmt: skip


def _spec(armies=FIELD3, **kw):
    loaded, sources = resolve_armies(armies)
    kw.setdefault("games_per_pairing", 60)
    kw.setdefault("seed", 7)
    return B.BalanceSpec("manoeuvre", tuple(loaded), sources=tuple(sources), **kw)


@pytest.fixture(scope="module")
def study():
    return B.run_spec(_spec(block=40, threads=1), boot=30)


def test_records_independent_of_threads_and_block_size(study):
    other = B.run_spec(_spec(block=17, threads=2), boot=30)
    a = study.games[GAME_COLS].reset_index(drop=True)
    b = other.games[GAME_COLS].reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(study.matrix, other.matrix)
    pd.testing.assert_frame_equal(study.armies, other.armies)


def test_a_study_game_is_the_simulate_game_of_its_pairing_seed(study):
    """The seed column makes any game replayable with `simulate`/`replay --seed --game`."""
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    g = study.games
    pair = g[(g["army_a"] == "Russia") & (g["army_b"] == "France")]
    seed = pairing_seed(7, "Russia", "France")
    assert (pair["seed"] == seed).all()
    res = simulate(SimConfig("Russia", "France", games=60, seed=seed, threads=1))
    ref = to_frame(res.records, res.manifest)
    cols = [c for c in ref.columns if c in pair.columns]
    pd.testing.assert_frame_equal(pair[cols].reset_index(drop=True), ref[cols])


def test_adding_an_army_changes_no_other_pairing():
    two = B.run_spec(_spec(["France", "Russia"], games_per_pairing=30), boot=0).games
    three = B.run_spec(_spec(["France", "Russia", "Spain"], games_per_pairing=30), boot=0).games
    cols = [c for c in GAME_COLS if c != "pairing"]
    sub = three[
        three["army_a"].isin(["France", "Russia"]) & three["army_b"].isin(["France", "Russia"])
    ]
    pd.testing.assert_frame_equal(
        two[cols].reset_index(drop=True), sub[cols].reset_index(drop=True)
    )


def test_precision_run_equals_fixed_runs_of_its_final_sizes():
    prec = B.run_spec(_spec(precision=0.09, block=40, max_games=200, games_per_pairing=40), boot=0)
    reached = prec.games_per_pairing
    assert set(reached.values()) - {40}, "the precision run should have grown some pairings"
    assert prec.manifest["precision_reached"] <= 0.09 or max(reached.values()) == 200
    fixed = B.run_spec(_spec(games_per_pairing=max(reached.values()), block=40), boot=0).games
    pg = prec.games
    for p, n in reached.items():
        a = pg[pg["pairing"] == p][GAME_COLS].reset_index(drop=True)
        b = fixed[(fixed["pairing"] == p) & (fixed["game"] < n)][GAME_COLS].reset_index(drop=True)
        assert len(a) == n
        pd.testing.assert_frame_equal(a, b)


def test_precision_rounds_ask_for_the_games_of_the_goal():
    """The precision mode's second round: after a first round of 40 games per pairing, each
    cell still wider than the goal gets the games its rate asks for, n = z^2 p (1 - p) / h^2
    (statsmodels' samplesize_confint_proportion, the normal approximation), the rate p being
    the cell's after the first round (clipped to [0.02, 0.98]); a cell of two pairings (an
    army in each seat) splits n over them, a mirror pairing (rated by the first player's
    score) takes all of it; then 2 % more, in whole blocks, at least one block more and at
    most max_games. Read off the progress total when the round starts."""
    from statsmodels.stats.proportion import proportion_confint, samplesize_confint_proportion

    h, block, first = 0.07, 10, 40
    totals = []
    res = B.run_spec(
        _spec(["France", "Russia"], precision=h, block=block, max_games=400,
              games_per_pairing=first, threads=1),
        progress=lambda done, total: totals.append(total) if total not in totals else None,
        boot=0,
    )  # fmt: skip
    assert totals[0] == 4 * first
    g = res.games[res.games["game"] < first]

    def target(p, n_cell, split):
        lo, hi = proportion_confint(p * n_cell, n_cell, method="wilson")
        if (hi - lo) / 2 <= h:
            return first  # already within the goal: no more games
        need = math.ceil(samplesize_confint_proportion(min(max(p, 0.02), 0.98), h))
        need = -(-need // split)
        need = -(-int(need * 1.02) // block) * block
        return min(400, max(first + block, need))

    def score(df, seat):
        return ((df["winner"] == seat) + 0.5 * (df["winner"] == "draw")).sum()

    fr = g[(g["army_a"] == "France") & (g["army_b"] == "Russia")]
    rf = g[(g["army_a"] == "Russia") & (g["army_b"] == "France")]
    p_fr = (score(fr, "a") + score(rf, "b")) / (len(fr) + len(rf))
    want = {("France", "Russia"): target(p_fr, len(fr) + len(rf), 2)}
    want[("Russia", "France")] = want[("France", "Russia")]
    for x in ("France", "Russia"):
        m = g[(g["army_a"] == x) & (g["army_b"] == x)]
        fw = ((m["winner"] == m["first_player"]) + 0.5 * (m["winner"] == "draw")).sum()
        want[(x, x)] = target(fw / len(m), len(m), 1)
    assert all(n > first + block for n in want.values()), want  # every cell asks for more
    assert len(totals) >= 2, "the goal should take a second round"
    assert totals[1] - totals[0] == sum(n - first for n in want.values()), (totals, want)


def _score(df, army):
    """Hand count: the army's score (win 1, draw 1/2) in every game it played."""
    s = []
    for side in ("a", "b"):
        d = df[df[f"army_{side}"] == army]
        s.append((d["winner"] == side) + 0.5 * (d["winner"] == "draw"))
    return pd.concat(s)


def test_tables_equal_hand_counts_over_the_records(study):
    from statsmodels.stats.proportion import proportion_confint

    g = study.games
    m = study.matrix.set_index(["army", "opponent"])
    fr = g[(g["army_a"] == "France") & (g["army_b"] == "Russia")]
    rf = g[(g["army_a"] == "Russia") & (g["army_b"] == "France")]
    sc = pd.concat([(fr["winner"] == "a") + 0.5 * (fr["winner"] == "draw"),
                    (rf["winner"] == "b") + 0.5 * (rf["winner"] == "draw")])  # fmt: skip
    row = m.loc[("France", "Russia")]
    assert row["games"] == 120
    assert row["win_rate"] == pytest.approx(sc.mean())
    lo, hi = proportion_confint(sc.sum(), len(sc), method="wilson")
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))
    assert row["win_rate_seat_b"] == pytest.approx(
        ((rf["winner"] == "b") + 0.5 * (rf["winner"] == "draw")).mean()
    )
    # moving first: France moved first in fr games with first_player a, rf games with b
    first = pd.concat([fr[fr["first_player"] == "a"], rf[rf["first_player"] == "b"]])
    assert row["games_first"] == len(first)
    # the mirror: the first player's win rate
    mm = g[(g["army_a"] == "Spain") & (g["army_b"] == "Spain")]
    mirror = m.loc[("Spain", "Spain")]
    assert mirror["games"] == 60 and mirror["win_rate"] == 0.5
    fw = (mm["winner"] == mm["first_player"]) + 0.5 * (mm["winner"] == "draw")
    assert mirror["win_rate_first"] == pytest.approx(fw.mean())
    # field win rate: mean over the two opponents, its interval normal with the standard
    # error of a mean of two independent cells, sqrt(var_R / n_R + var_S / n_S) / 2, from
    # the per-game scores (population variances)
    fa = study.armies.set_index("army").loc["France"]
    fs = g[(g["army_a"] == "France") & (g["army_b"] == "Spain")]
    sf = g[(g["army_a"] == "Spain") & (g["army_b"] == "France")]
    sc_s = pd.concat([(fs["winner"] == "a") + 0.5 * (fs["winner"] == "draw"),
                      (sf["winner"] == "b") + 0.5 * (sf["winner"] == "draw")])  # fmt: skip
    field = (sc.mean() + sc_s.mean()) / 2
    assert fa["field_win_rate"] == pytest.approx(field)
    assert fa["field_win_rate"] == pytest.approx(
        (m.loc[("France", "Russia"), "win_rate"] + m.loc[("France", "Spain"), "win_rate"]) / 2
    )
    half = norm.ppf(0.975) * np.sqrt(sc.var(ddof=0) / len(sc) + sc_s.var(ddof=0) / len(sc_s)) / 2
    assert (fa["ci_low"], fa["ci_high"]) == pytest.approx((field - half, field + half))
    # first player over all games, victory mix of one pairing
    allg = study.first_player.set_index("army").loc[T.ALL_GAMES]
    assert allg["win_rate_first"] == pytest.approx(
        ((g["winner"] == g["first_player"]) + 0.5 * (g["winner"] == "draw")).mean()
    )
    v = study.victory.set_index(["army_a", "army_b"]).loc[("France", "Russia")]
    assert v["attrition"] == pytest.approx((fr["victory"] == "attrition").mean())
    assert v["nightfall_squares"] == pytest.approx((fr["tiebreak"] == "squares").mean())
    assert v["mean_turns"] == pytest.approx(fr["game_turns"].mean())
    vba = study.victory_by_army.set_index("army").loc["Russia"]
    assert vba[["win_attrition", "win_nightfall", "loss_attrition", "loss_nightfall",
                "draw"]].sum() == pytest.approx(1.0)  # fmt: skip
    assert vba["win_nightfall"] + vba["win_attrition"] + vba["draw"] / 2 == pytest.approx(
        _score(g, "Russia").mean()
    )


def test_ratings_order_and_intervals(study):
    """The ratings and their Wald intervals against statsmodels fitting every game on its
    own: a binomial GLM of army A's score (1, 1/2, 0) on the sum-to-zero rating columns
    and who moved first (+1 A, -1 B), mirror games included; the last army's rating and its
    error from the fit's contrast (minus the sum of the others). Ranks follow the ratings."""
    import statsmodels.api as sm

    a = study.armies.set_index("army").loc[FIELD3]
    g = study.games
    pos = {x: k for k, x in enumerate(FIELD3)}
    T = np.vstack([np.eye(2), -np.ones((1, 2))])
    X = T[g["army_a"].map(pos).to_numpy()] - T[g["army_b"].map(pos).to_numpy()]
    X = np.column_stack([X, np.where(g["first_player"] == "a", 1.0, -1.0)])
    y = ((g["winner"] == "a") + 0.5 * (g["winner"] == "draw")).to_numpy(dtype=float)
    ref = sm.GLM(y, X, family=sm.families.Binomial()).fit()
    e = 400 / np.log(10)
    last = ref.t_test(np.array([[-1.0, -1.0, 0.0]]))
    want = np.array([ref.params[0], ref.params[1], float(last.effect[0])]) * e
    se = np.array([ref.bse[0], ref.bse[1], float(last.sd[0, 0])]) * e
    np.testing.assert_allclose(a["rating"], want, atol=1e-3)
    z = norm.ppf(0.975)
    np.testing.assert_allclose(a["rating_high"] - a["rating_low"], 2 * z * se, rtol=1e-4)
    np.testing.assert_allclose((a["rating_high"] + a["rating_low"]) / 2, want, atol=1e-3)
    assert list(a["rank"]) == list(pd.Series(-want).rank(method="min").astype(int))
    assert ((a["rank_low"] <= a["rank"]) & (a["rank"] <= a["rank_high"])).all()


def test_tally_equals_groupby_of_all_records_and_stays_small():
    rng = np.random.default_rng(3)
    tally = T.Tally()
    blocks = []
    for _ in range(150):
        n = 500
        df = pd.DataFrame(
            {
                "label": "x",
                "army_a": rng.choice(["A", "B"], n),
                "army_b": rng.choice(["A", "B"], n),
                "first_player": rng.choice(["a", "b"], n),
                "winner": rng.choice(["a", "b", "draw"], n),
                "victory": rng.choice(["attrition", "nightfall"], n),
                "tiebreak": rng.choice(["", "squares"], n),
                "turn_limit": rng.random(n) < 0.01,
                "game_turns": rng.integers(5, 30, n),
            }
        )
        tally.add(df)
        blocks.append(df)
    t = tally.table
    assert len(t) <= 2 * 2 * 2 * 3 * 2 * 2 * 2  # bounded by the keys, not by the games
    allg = pd.concat(blocks)
    assert t["games"].sum() == len(allg)
    assert t["turns_sum"].sum() == allg["game_turns"].sum()
    assert t["turns_sq"].sum() == (allg["game_turns"].astype(np.int64) ** 2).sum()
    ref = allg.groupby(T.KEYS, observed=True).size()
    got = t.set_index(T.KEYS)["games"]
    pd.testing.assert_series_equal(
        got.sort_index(), ref.sort_index().rename("games"), check_names=False
    )


def test_style_sensitivity_tables():
    res = B.run_spec(
        _spec(policies=policy_specs(policies=["territorial", "balanced"]), games_per_pairing=40),
        boot=0,
    )
    assert list(pd.unique(res.armies["policy"])) == ["territorial", "balanced"]  # as given
    assert list(pd.unique(res.matrix["policy"])) == ["territorial", "balanced"]
    assert res.style_tau[["policy_x", "policy_y"]].values.tolist() == [["territorial", "balanced"]]
    assert list(res.style_tau.columns) == ["policy_x", "policy_y", "tau", "p_value"]
    # Kendall's tau of the two styles' orderings by field win rate, counted by hand from the
    # records: (concordant - discordant pairs) / 3 for three armies without ties
    fw = {}
    for label, gl in res.games.groupby("label"):
        fw[label] = []
        for x in FIELD3:
            rates = []
            for y in FIELD3:
                if y != x:
                    xy = gl[(gl["army_a"] == x) & (gl["army_b"] == y)]
                    yx = gl[(gl["army_a"] == y) & (gl["army_b"] == x)]
                    s = pd.concat([(xy["winner"] == "a") + 0.5 * (xy["winner"] == "draw"),
                                   (yx["winner"] == "b") + 0.5 * (yx["winner"] == "draw")])  # fmt: skip
                    rates.append(s.mean())
            fw[label].append(np.mean(rates))
    t, b = fw["territorial"], fw["balanced"]
    pairs = [(i, j) for i in range(3) for j in range(i + 1, 3)]
    assert all(t[i] != t[j] and b[i] != b[j] for i, j in pairs), (t, b)
    tau = sum(np.sign(t[i] - t[j]) * np.sign(b[i] - b[j]) for i, j in pairs) / len(pairs)
    assert len(res.style_tau) == 1 and res.style_tau["tau"].iloc[0] == pytest.approx(tau)
    # the same seeds serve both styles: same maps, different play
    g = res.games
    bal = g[g["label"] == "balanced"].reset_index(drop=True)
    ter = g[g["label"] == "territorial"].reset_index(drop=True)
    assert (bal["seed"] == ter["seed"]).all() and (bal["map_nw"] == ter["map_nw"]).all()


# --- what-if ---------------------------------------------------------------------------------


def test_identical_variant_is_exactly_zero(study):
    res = W.run("manoeuvre", FIELD3, edits=["France/Garde Imperial/full=8"],
                games_per_pairing=60, seed=7, block=40, boot=30)  # fmt: skip
    assert res.identical
    wi = res.whatif
    assert len(wi) == 3  # France vs Russia, vs Spain, vs the field
    for col in ("delta", "delta_low", "delta_high", "changed_games"):
        assert (wi[col] == 0.0).all(), col
    f = res.field.iloc[0]
    assert (f["rating_delta"], f["rating_delta_low"], f["rating_delta_high"]) == (0.0, 0.0, 0.0)
    assert any("identical" in line for line in res.summary())
    # the base games are the balance study's games (same seeds)
    g = res.games[res.games["label"] == W.BASE]
    won = g.groupby(["army_a", "army_b", "first_player", "winner"], observed=True).size()
    t = study.counts.groupby(["army_a", "army_b", "first_player", "winner"], observed=True)
    assert won.to_dict() == t["games"].sum().to_dict()


def test_a_strong_card_raises_and_weak_units_lower_the_win_rate():
    # one card: Palafox (Spain's weakest leader, 1/5) made a 20-point combat leader
    strong = W.run("manoeuvre", FIELD3, edits=["Spain/leaders/Palafox/combat=20"],
                   games_per_pairing=150, seed=3)  # fmt: skip
    f = strong.field.iloc[0]
    assert f["army"] == "Spain"
    assert f["delta"] > 0 and f["delta_low"] > 0, f
    assert f["rating_delta_low"] > 0
    weak = W.run(
        "manoeuvre",
        FIELD3,
        edits=["Russia/Russian Guard/full=2", "Russia/Russian Guard/reduced=1",
               "Russia/Kexholm Regiment/full=2", "Russia/Kexholm Regiment/reduced=1"],
        games_per_pairing=150, seed=3,
    )  # fmt: skip
    f = weak.field.iloc[0]
    assert f["army"] == "Russia"
    assert f["delta"] < 0 and f["delta_high"] < 0, f
    # only the pairings with the changed army were replayed
    assert weak.manifest["games"] == 9 * 150 + 5 * 150


def test_whatif_paired_interval_matches_per_game_differences(tmp_path):
    from scipy.stats import ttest_1samp

    res = W.run("manoeuvre", FIELD3, edits=["Spain/cards/Supply=0"], games_per_pairing=80, seed=5,
                out_dir=tmp_path)  # fmt: skip
    g = pd.read_parquet(tmp_path / STORE)
    base = g[g["label"] == "base"].set_index(["army_a", "army_b", "game"])
    var = g[g["label"] == "variant"].set_index(["army_a", "army_b", "game"])

    def diffs(opp):
        d = []
        for (a, b), seat in ((("Spain", opp), "a"), ((opp, "Spain"), "b")):
            vb = base.loc[(a, b)]["winner"]
            vv = var.loc[(a, b)]["winner"]
            sb = (vb == seat) + 0.5 * (vb == "draw")
            sv = (vv == seat) + 0.5 * (vv == "draw")
            d.append(sv - sb)
        return pd.concat(d).to_numpy(dtype=float)

    d = diffs("France")
    rows = res.whatif.set_index(["army", "opponent"])
    row = rows.loc[("Spain", "France")]
    ci = ttest_1samp(d, 0.0).confidence_interval()
    assert row["delta"] == pytest.approx(d.mean())
    assert (row["delta_low"], row["delta_high"]) == pytest.approx((ci.low, ci.high))
    assert row["changed_games"] == pytest.approx((d != 0).mean())
    # the "field" row: the mean of the two opponents' mean differences, its normal interval
    # with the standard error of a mean of two independent cells,
    # sqrt(var_F / n_F + var_R / n_R) / 2 (population variances of the differences)
    d_r = diffs("Russia")
    assert d.std() > 0 and d_r.std() > 0
    delta = (d.mean() + d_r.mean()) / 2
    half = norm.ppf(0.975) * np.sqrt(d.var() / len(d) + d_r.var() / len(d_r)) / 2
    for f in (rows.loc[("Spain", WT.FIELD)], res.field.set_index("army").loc["Spain"]):
        assert f["delta"] == pytest.approx(delta)
        assert (f["delta_low"], f["delta_high"]) == pytest.approx((delta - half, delta + half))
    assert rows.loc[("Spain", WT.FIELD), "changed_games"] == pytest.approx(
        np.concatenate([d, d_r]).astype(bool).mean()
    )


def test_interrupted_study_keeps_finished_blocks(tmp_path, monkeypatch):
    import manoeuvre_sim.core.store as R  # the study store's files (results.py before issue 25)

    real = R.write_part
    calls = {"n": 0}

    def flaky(df, path, manifest):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(df, path, manifest)

    monkeypatch.setattr(R, "write_part", flaky)
    res = B.run_spec(_spec(block=30), out_dir=tmp_path, boot=0)
    assert res.interrupted
    store = tmp_path / STORE
    assert len(list(store.glob("*.parquet"))) == 3
    assert not [p for p in store.iterdir() if p.name.startswith(".")]  # no half-written file
    assert res.manifest["games"] == 90
    assert int(res.matrix.query("army != opponent")["games"].sum()) > 0


def test_an_interrupted_study_says_so_in_its_titles_and_marks_incomplete_pairings(
    tmp_path, monkeypatch, capsys
):
    """Issue 30 item 4: the summary and every PDF page title say INTERRUPTED with the games
    played of those planned, the armies of an incomplete pairing are marked, and --resume
    says how many games it read back."""
    import pypdf

    import manoeuvre_sim.core.store as R

    real = R.write_part
    calls = {"n": 0}

    def flaky(df, path, manifest):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(df, path, manifest)

    monkeypatch.setattr(R, "write_part", flaky)
    spec = _spec(block=30)
    res = B.run_spec(spec, out_dir=tmp_path, boot=0)
    assert res.interrupted
    # 3 blocks of 30 of 9 pairings x 60 games: pairings 0-2 (France against each) have 30
    assert res.manifest["games_planned"] == 540
    assert interrupted_status(res.manifest) == "INTERRUPTED: 90 of 540 games"
    assert res.manifest["incomplete_armies"] == {"tuned": ["France", "Russia", "Spain"]}
    lines = res.summary()
    assert lines[1].startswith("INTERRUPTED: 90 of 540 games:")
    assert any("France *" in line for line in lines)
    pdf = res.to_pdf(tmp_path / "balance.pdf")
    pages = [p.extract_text() for p in pypdf.PdfReader(pdf).pages]
    for text in pages[:3]:  # the chart pages
        assert "INTERRUPTED: 90 of 540 games" in text
        assert "France *" in text

    monkeypatch.setattr(R, "write_part", real)
    capsys.readouterr()
    done = B.run_spec(spec, out_dir=tmp_path, boot=0, resume=True)
    assert f"resumed: 90 of 540 games read back from {tmp_path}" in capsys.readouterr().err
    assert not done.interrupted and interrupted_status(done.manifest) == ""
    assert done.manifest["incomplete_armies"] == {"tuned": []}
    assert not any("*" in line for line in done.summary())


def test_incomplete_armies_only_when_a_pairing_lags():
    spec = _spec(["France", "Russia", "Spain"])
    pairings = spec.pairings()
    full = {k: 60 for k in range(len(pairings))}
    assert incomplete_armies(pairings, full) == {"tuned": []}
    lag = full | {5: 30}  # Russia (seat a) against Spain (seat b)
    assert incomplete_armies(pairings, lag) == {"tuned": ["Russia", "Spain"]}
