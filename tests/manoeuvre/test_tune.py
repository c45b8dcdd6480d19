"""``manoeuvre-sim tune``: the search space, common random numbers, reproducibility,
interruption, held-out seeds and bad options (issue #16, item 2)."""

from __future__ import annotations

import csv
import json
import sys
import tomllib

import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre import tune as T
from manoeuvre_sim.manoeuvre import tune_io as IO
from manoeuvre_sim.manoeuvre.engine.players import NPARAM, PARAM_NAMES, POLICY_PARAMS
from manoeuvre_sim.manoeuvre.styles import builtin_policies, load_styles

STYLES = ("attritional", "territorial", "balanced")


def tiny(**kw) -> T.TuneSpec:
    """A run of a few hundred games: one army, one pool style."""
    opts = dict(
        pool="attritional", armies="Prussia", games_per_eval=8, generations=2, popsize=3,
        seed=5, against="balanced", eval_games=8, threads=1,
    )  # fmt: skip
    opts.update(kw)
    return IO.spec_from_options(**opts)


# --- the space -------------------------------------------------------------------------------
def test_space_searches_every_bounded_parameter_and_holds_flags_and_the_unit():
    sp = T.search_space(POLICY_PARAMS["balanced"])
    held = set(sp.held)
    assert held == {"switch", "hit"}
    assert {PARAM_NAMES[i] for i in sp.free} == set(PARAM_NAMES) - held
    assert sp.dim == NPARAM - 2
    # the named styles lie inside the bounds, and the space maps them back exactly
    for s in (*STYLES, "tuned"):
        p = POLICY_PARAMS[s]
        sp = T.search_space(p)
        assert np.allclose(sp.to_params(sp.to_x(p)), p)
        assert ((sp.to_x(p) >= 0) & (sp.to_x(p) <= T.SCALE)).all()
    # points outside 0..SCALE are clipped into the bounds
    lo = sp.to_params(np.full(sp.dim, -5.0))
    assert np.allclose(lo[list(sp.free)], sp.lo)
    assert lo[PARAM_NAMES.index("switch")] == p[PARAM_NAMES.index("switch")]


def test_a_parameter_without_bounds_is_held_until_given_some(monkeypatch):
    """A parameter appended to the engine after this module (no entry in BOUNDS) is not
    searched blindly: it is held, and --bounds brings it in."""
    bounds = dict(T.BOUNDS)
    del bounds["churn"]
    monkeypatch.setattr(T, "BOUNDS", bounds)
    sp = T.search_space(POLICY_PARAMS["balanced"])
    assert "churn" in sp.held and "no bounds" in sp.held["churn"]
    sp = T.search_space(POLICY_PARAMS["balanced"], bounds={"churn": (0.0, 4.0)})
    assert "churn" not in sp.held


# --- the games ---------------------------------------------------------------------------------
def test_plans_pair_the_seats_change_per_generation_and_never_touch_the_heldout_stream():
    pairs = [("France", "France"), ("Russia", "Russia")]
    g0 = T.tuning_plan(3, 0, ["balanced", "attritional"], pairs, 4)
    assert g0 == T.tuning_plan(3, 0, ["balanced", "attritional"], pairs, 4)
    assert len(g0) == 2 * 2 * 2
    for a, b in zip(g0[::2], g0[1::2], strict=True):  # both seatings of one block seed
        assert (a.seat, b.seat) == (0, 1) and a.seed == b.seed and a.opponent == b.opponent
    # a pool style's games do not depend on the rest of the pool
    only = T.tuning_plan(3, 0, ["attritional"], pairs, 4)
    assert only == [b for b in g0 if b.opponent == "attritional"]
    tuning = {b.seed for g in range(200) for b in T.tuning_plan(3, g, STYLES, pairs, 4)}
    assert len(tuning) == 200 * 3 * 2  # a new block seed per generation, style and army
    held = {b.seed for b in T.heldout_plan(3, ["balanced", *STYLES], pairs, 4)}
    assert not tuning & held


def test_fitness_is_a_direct_simulate_of_the_same_games():
    """The arena's score of a vector is what simulate() gives for the plan's games, with the
    candidate in the block's seat."""
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    spec = tiny(armies="Prussia,Spain", pool="attritional,territorial")
    rng = np.random.default_rng(0)
    sp = spec.space()
    vec = sp.to_params(rng.uniform(0, 10, sp.dim))
    plan = T.tuning_plan(spec.seed, 4, ["attritional", "territorial"], spec.pairs(), 6)
    arena = T.Arena({a.name: a for a in spec.armies}, builtin_policies(), threads=1)
    got = arena.score(vec, plan)
    wins = draws = games = 0
    for blk in plan:
        opp = blk.opponent
        cand = {"policy": "balanced", "params": tuple(vec)}
        other = {"policy": opp, "params": None}
        a, b = (cand, other) if blk.seat == 0 else (other, cand)
        cfg = SimConfig(
            blk.army_a, blk.army_b, games=blk.games, seed=blk.seed, policy_a=a["policy"],
            policy_b=b["policy"], params_a=a["params"], params_b=b["params"], threads=2,
        )  # fmt: skip
        res = simulate(cfg)
        df = to_frame(res.records, res.manifest)
        wins += int((df["winner"] == "ab"[blk.seat]).sum())
        draws += int((df["winner"] == "draw").sum())
        games += len(df)
    assert (got.games, got.wins, got.draws) == (games, wins, draws)
    assert games == 2 * 2 * 2 * 6 and 0 < wins < games


def test_every_candidate_of_a_generation_plays_the_same_games(monkeypatch, tmp_path):
    calls = []
    real = T.Arena.score

    def spy(self, params, blocks, progress=None):
        calls.append((tuple(np.round(params, 12)), tuple(blocks)))
        return real(self, params, blocks, progress)

    monkeypatch.setattr(T.Arena, "score", spy)
    res = T.run(tiny(generations=2, popsize=3, eval_games=0))
    assert len(calls) == 2 * (3 + 1)  # 3 candidates and the centre, per generation
    gen0, gen1 = calls[:4], calls[4:]
    assert len({c[1] for c in gen0}) == 1 and len({c[1] for c in gen1}) == 1
    assert gen0[0][1] != gen1[0][1]  # each generation plays new games
    assert len({c[0] for c in gen0[:3]}) == 3  # ... with different candidates
    # the centre of generation 1 is the base; its logged score is its score on those games
    assert np.allclose(gen0[3][0], res.spec.base.params)
    arena = T.Arena({a.name: a for a in res.spec.armies}, builtin_policies(), threads=1)
    assert res.log[0]["fitness_centre"] == real(arena, gen0[3][0], gen0[3][1]).rate


# --- the run -----------------------------------------------------------------------------------
def test_a_run_is_reproducible_for_its_seed_and_differs_for_another(tmp_path):
    a = T.run(tiny(threads=1), checkpoint=IO.checkpoint(tmp_path / "a"))
    b = T.run(tiny(threads=2), checkpoint=IO.checkpoint(tmp_path / "b"))
    c = T.run(tiny(seed=6), checkpoint=IO.checkpoint(tmp_path / "c"))
    assert not a.interrupted and len(a.log) == 2
    assert np.array_equal(a.params, b.params)
    assert a.log == [r | {"seconds": x["seconds"]} for r, x in zip(b.log, a.log, strict=True)]
    assert a.heldout == b.heldout
    for name in (IO.STYLES_FILE, IO.LOG_FILE, IO.HELDOUT_FILE):
        ta, tb = ((d / name).read_text() for d in (tmp_path / "a", tmp_path / "b"))
        if name == IO.LOG_FILE:  # the seconds column is the only difference
            ta, tb = (
                [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(t.splitlines())]
                for t in (ta, tb)
            )  # fmt: skip
        assert ta == tb, name
    assert not np.array_equal(a.params, c.params)
    # the result moved from the base, and only in the searched parameters
    moved = {PARAM_NAMES[i] for i in np.flatnonzero(a.params != a.spec.base.params)}
    assert moved and moved <= {PARAM_NAMES[i] for i in a.space.free}


def test_outputs_are_a_usable_style_a_log_and_a_manifest(tmp_path):
    from statsmodels.stats.proportion import proportion_confint

    res = T.run(tiny(name="mine"), checkpoint=IO.checkpoint(tmp_path))
    styles = load_styles(tmp_path / IO.STYLES_FILE)
    assert list(styles) == ["mine"] and styles["mine"].base == "balanced"
    assert np.array_equal(styles["mine"].params, res.params)
    rows = list(csv.DictReader((tmp_path / IO.LOG_FILE).open()))
    assert [int(r["generation"]) for r in rows] == [0, 1]
    assert {"fitness_mean", "fitness_best", "fitness_centre", "sigma", "centre_keep",
            "best_keep"} <= set(rows[0])  # fmt: skip
    m = json.loads((tmp_path / IO.MANIFEST_FILE).read_text())
    assert m["seed"] == 5 and m["rules_version"] and m["data_hash"]
    assert m["status"] == "finished" and m["generations_done"] == 2
    assert m["result"] == {n: float(v) for n, v in zip(PARAM_NAMES, res.params, strict=True)}
    (h,) = list(csv.DictReader((tmp_path / IO.HELDOUT_FILE).open()))
    assert h["opponent"] == "balanced" and int(h["games"]) == 8
    points = int(h["wins"]) + 0.5 * int(h["draws"])
    lo, hi = proportion_confint(points, int(h["games"]), method="wilson")
    assert float(h["win_rate"]) == pytest.approx(points / 8)
    assert (float(h["ci_low"]), float(h["ci_high"])) == pytest.approx((lo, hi))
    assert "held-out" in (tmp_path / IO.SUMMARY_FILE).read_text()
    assert not list(tmp_path.glob(".*part"))


def test_generations_zero_evaluates_the_base_as_it_is(tmp_path):
    res = T.run(tiny(generations=0, against="balanced,random", eval_games=16))
    assert np.array_equal(res.params, res.spec.base.params) and not res.log
    bal, rnd = res.heldout
    # balanced against itself: the seats see the same seeds, so the two seatings mirror
    assert bal["opponent"] == "balanced" and bal["games"] == 16
    assert bal["win_rate_seat_a"] + bal["win_rate_seat_b"] == pytest.approx(1.0)
    assert rnd["win_rate"] > 0.9


def test_interruption_keeps_the_last_finished_generation(monkeypatch, tmp_path):
    real = T.Arena.play
    seen = {"n": 0}

    def play(self, params, blk):
        seen["n"] += 1
        if seen["n"] > 8 + 3:  # in generation 2 (8 blocks each: 3 candidates + centre, 2 seats)
            raise KeyboardInterrupt
        return real(self, params, blk)

    spec = tiny(games_per_eval=4, popsize=3, generations=5)
    first = T.run(tiny(games_per_eval=4, popsize=3, generations=1, eval_games=0))
    monkeypatch.setattr(T.Arena, "play", play)
    res = T.run(spec, checkpoint=IO.checkpoint(tmp_path))
    assert res.interrupted and len(res.log) == 1 and not res.heldout
    assert np.array_equal(res.params, first.params)
    styles = load_styles(tmp_path / IO.STYLES_FILE)  # complete and loadable
    assert np.array_equal(styles["tuned_new"].params, first.params)
    m = json.loads((tmp_path / IO.MANIFEST_FILE).read_text())
    assert m["status"] == "interrupted" and m["generations_done"] == 1
    assert len(list(csv.DictReader((tmp_path / IO.LOG_FILE).open()))) == 1
    assert not (tmp_path / IO.HELDOUT_FILE).exists()
    assert not list(tmp_path.glob(".*part"))


# --- the command -------------------------------------------------------------------------------
def test_tune_command_end_to_end(cli, tmp_path):
    out = tmp_path / "t"
    code, text = cli(
        "tune", "--pool", "attritional", "--armies", "Prussia", "--games-per-eval", "8",
        "--generations", "1", "--popsize", "2", "--seed", "3", "--against", "balanced",
        "--eval-games", "8", "--threads", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, text
    assert "held-out" in text and "tuned_new" in text
    m = json.loads((out / IO.MANIFEST_FILE).read_text())
    assert m["command"].startswith("manoeuvre-sim ") and m["status"] == "finished"
    code, text = cli(
        "tournament", "--policies", "balanced,tuned_new", "--styles", str(out / IO.STYLES_FILE),
        "--games", "4", "--armies", "Prussia", "--quiet", "--threads", "1",
    )  # fmt: skip
    assert code == 0, text
    # a second run refuses to overwrite the first without --force
    code, text = cli("tune", "--generations", "0", "--eval-games", "0", "--out", str(out))
    assert code == 2 and "--force" in text


def test_interrupted_command_exits_130(cli, tmp_path, monkeypatch):
    def play(self, params, blk):
        raise KeyboardInterrupt

    monkeypatch.setattr(T.Arena, "play", play)
    code, text = cli(
        "tune", "--armies", "Prussia", "--generations", "1", "--out", str(tmp_path), "--quiet"
    )
    assert code == 130 and "interrupted" in text
    assert (
        load_styles(tmp_path / IO.STYLES_FILE)["tuned_new"].params
        == builtin_policies()["balanced"].params
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--base", "random"], "--base: expected a heuristic style"),
        (["--base", "genius"], "--base: unknown policy 'genius'"),
        (["--pool", "balanced,genius"], "--pool: unknown policy 'genius'"),
        (["--pool", ","], "--pool: expected a comma-separated list"),
        (["--pool", "balanced,balanced"], "--pool: a name is given twice"),
        (["--against", "nobody"], "--against: unknown policy 'nobody'"),
        (["--armies", "Atlantis"], "Atlantis: army: unknown army"),
        (["--games-per-eval", "0"], "--games-per-eval: expected a positive number"),
        (["--generations", "-1"], "--generations: expected 0"),
        (["--popsize", "1"], "--popsize: expected 2 or more"),
        (["--sigma", "0"], "--sigma: expected a step size"),
        (["--sigma", "nan"], "--sigma: expected a step size"),
        (["--seed", "-3"], "--seed: expected an integer"),
        (["--eval-games", "-1"], "--eval-games: expected 0"),
        (["--threads", "-1"], "--threads: expected 0"),
        (["--name", "balanced"], "--name: 'balanced' is a built-in policy"),
        (["--name", "a b"], "--name: expected a style name"),
        (["--fix", "bravery"], "--fix: unknown parameter 'bravery'"),
        (["--bounds", "keep"], "--bounds 'keep': expected NAME=LO:HI"),
        (["--bounds", "bravery=1:2"], "unknown parameter 'bravery'"),
        (["--bounds", "keep=5:1"], "--bounds 'keep=5:1': expected finite LO < HI"),
        (["--bounds", "keep=a:b"], "--bounds 'keep=a:b': expected numbers"),
        (["--bounds", "switch=0:1"], "switch is a 0/1 switch"),
        (["--bounds", "keep=5:8"], "--bounds: the base value of keep (4.5) lies outside 5..8"),
        (["--pairings", "all"], "--pairings"),
    ],
)
def test_bad_options_get_one_line(cli, tmp_path, args, needle):
    # (no games even if a check were missing: the later option wins)
    code, text = cli(
        "tune", "--out", str(tmp_path / "o"), "--generations", "0", "--eval-games", "0", *args
    )
    assert code == 2, text
    assert needle in text and "Traceback" not in text
    if not needle.startswith("--pairings"):  # (click reports a bad choice with its usage)
        assert len(text.strip().splitlines()) == 1, text
    assert not (tmp_path / "o").exists()


def test_bad_out_and_styles(cli, tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    code, text = cli("tune", "--out", str(f))
    assert code == 2 and "'--out'" in text and "is a file" in text
    s = tmp_path / "s.toml"
    s.write_text('[styles.x]\nbase = "balanced"\nkeep = "high"\n')
    code, text = cli("tune", "--styles", str(s), "--out", str(tmp_path / "o"))
    assert code == 2 and "styles.x.keep: expected a number" in text


def test_missing_cma_names_the_extra(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cma", None)  # import cma now raises ImportError
    with pytest.raises(UsageError, match=r"manoeuvre-sim\[tune\]"):
        T.require_cma()
    code, text = cli("tune", "--out", str(tmp_path / "o"))
    assert code == 2 and "manoeuvre-sim[tune]" in text and "Traceback" not in text


def test_styles_toml_round_trips_every_parameter():
    spec = tiny()
    sp = spec.space()
    vec = sp.to_params(np.linspace(0, 10, sp.dim)).round(4)
    man = {"rules_version": "x", "generations_done": 0, "popsize": 3,
           "games_per_candidate": 8, "status": "finished"}  # fmt: skip
    doc = tomllib.loads(IO.styles_toml(spec, sp, vec, man))
    got = doc["styles"]["tuned_new"]
    assert [got[n] for n in PARAM_NAMES] == pytest.approx(list(vec))


# --- the built-in tuned style ------------------------------------------------------------------
def test_tuned_is_a_built_in_heuristic_style_after_the_others():
    from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES, POLICY_TUNED, params_for
    from manoeuvre_sim.manoeuvre.engine.players.params import BALANCED, TUNED
    from manoeuvre_sim.manoeuvre.runner import POLICIES

    assert POLICY_NAMES.index("tuned") == POLICY_TUNED == 5  # the older ids keep their numbers
    assert POLICY_NAMES[:5] == ("random", "simple", "attritional", "territorial", "balanced")
    assert "tuned" in POLICIES
    assert len(TUNED) == NPARAM and not np.array_equal(TUNED, BALANCED)
    assert TUNED[PARAM_NAMES.index("switch")] == 1.0
    assert np.array_equal(params_for("tuned", "balanced")[0], TUNED)


def test_tuned_is_playable_by_name(cli, tmp_path):
    code, text = cli(
        "simulate", "--army-a", "France", "--army-b", "Russia", "--policy-a", "tuned",
        "--games", "8", "--seed", "1", "--threads", "1", "--out", str(tmp_path / "g.csv"),
        "--quiet",
    )  # fmt: skip
    assert code == 0, text
    m = json.loads((tmp_path / "g.csv.manifest.json").read_text())
    assert m["config"]["policy_a"] == "tuned"
    assert m["policy_params"]["a"] == pytest.approx(list(POLICY_PARAMS["tuned"]))
    code, text = cli(
        "tournament", "--policies", "tuned,balanced", "--games", "16", "--armies", "Prussia",
        "--json", "--threads", "1",
    )  # fmt: skip
    assert code == 0, text
    assert json.loads(text)["pairs"][0]["a"] == "tuned"
    code, text = cli(
        "balance", "--armies", "France,Russia", "--policy", "tuned", "--games-per-pairing", "4",
        "--threads", "1", "--out", str(tmp_path / "b"), "--quiet",
    )  # fmt: skip
    assert code == 0, text
    assert (tmp_path / "b" / "matrix.csv").read_text().count("tuned") == 4
    # and as a base to tune from, or a style file's base
    assert T.run(tiny(base="tuned", generations=1, eval_games=0)).log
    p = tmp_path / "s.toml"
    p.write_text('[styles.x]\nbase = "tuned"\nkeep = 4\n', encoding="utf-8")
    i = PARAM_NAMES.index("advance")
    assert load_styles(p)["x"].params[i] == POLICY_PARAMS["tuned"][i]
