"""Maneuver on the study layer both games share (issue 25 part 1): ``hexgame/adapter.py`` plays
the same games as ``hex simulate``, through the same tasks, store, resume and backends as
Manoeuvre's studies, with no copy of that machinery; a resumed and a Dask run equal one
local run record for record, and a Maneuver store is never resumed as Manoeuvre's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import manoeuvre_sim.core.study as S
from manoeuvre_sim.core import games as G
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.store import read_store
from manoeuvre_sim.core.study import Pairing, blocks, play
from manoeuvre_sim.hexgame import batch as BT
from manoeuvre_sim.hexgame import records as R
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame.players import policy_arrays

HEX = G.get_game("hex")
BLUE, RED = HEX.load_side("blue"), HEX.load_side("red")
OPTIONS = HEX.Options(border="large_blue", step_losses=True)
# each player once blue and once red ("both seats")
PAIRINGS = [
    Pairing(BLUE, RED, pa, pb, S.pairing_seed(5, pa, pb), "ladder")
    for pa, pb in (("capital", "random"), ("random", "capital"), ("attrition", "capital"))
]
MANIFEST = {"study": "hex-test", "seed": 5, "rules_version": HEX.RULES_VERSION}
GAMES = 120


def tasks(block, stop=GAMES):
    return [t for k in range(len(PAIRINGS)) for t in blocks(k, 0, stop, block)]


def run(block=GAMES, **kw):
    frames = []
    kw.setdefault("manifest", MANIFEST)
    out = play(PAIRINGS, tasks(block), game="hex", options=OPTIONS, threads=2,
               on_frame=lambda t, df, cs: frames.append(df), **kw)  # fmt: skip
    return out, (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame())


@pytest.fixture(scope="module")
def one_run():
    out, df = run()
    assert not out.interrupted and len(df) == len(PAIRINGS) * GAMES
    return df


def _sorted(df):
    return df.sort_values(["pairing", "game"], kind="stable").reset_index(drop=True)


def test_the_adapter_is_a_game_and_its_records_have_the_core_columns(one_run):
    assert G.checked(HEX, "hex") is HEX and HEX.TITLE.startswith("Maneuver")
    cols = list(one_run.columns)
    assert cols[: len(G.CORE_COLUMNS)] == list(G.CORE_COLUMNS)
    assert set(HEX.EXTRA_COLUMNS) <= set(cols)
    assert set(one_run["victory"]) <= set(HEX.VICTORY_KINDS)
    assert (one_run["army_a"] == "blue").all() and (one_run["border"] == "large_blue").all()


def test_a_study_plays_the_games_hex_simulate_plays(one_run):
    """Pairing k's game i is game i of its seed in ``hex simulate`` (batch.play_games)."""
    packed = SC.pack(SC.load_scenario(), OPTIONS.border)
    for k, p in enumerate(PAIRINGS):
        pol, params = policy_arrays(p.policy_a, p.policy_b)
        rec = BT.play_games(p.seed, 0, GAMES, packed, OPTIONS.array(), pol, params, 1)
        man = {"army_a": "blue", "army_b": "red", "options": R.asdict(OPTIONS),
               "config": {"seed": p.seed, "policy_a": p.policy_a, "policy_b": p.policy_b}}  # fmt: skip
        want = R.to_frame(rec, man)
        got = one_run[one_run["pairing"] == k].drop(columns=["pairing", "label"])
        pd.testing.assert_frame_equal(got.reset_index(drop=True), want)


def test_blocks_resume_and_dask_equal_one_local_run(one_run, tmp_path):
    # other block sizes: the same records
    _, df = run(block=25)
    pd.testing.assert_frame_equal(_sorted(df), _sorted(one_run))
    # interrupted after 4 tasks, then resumed from the store
    store = tmp_path / "games.parquet"
    n = {"tasks": 0}

    def stop(_):
        n["tasks"] += 1
        if n["tasks"] == 4:
            raise KeyboardInterrupt

    out, _ = run(block=40, store=store, progress=stop)
    assert out.interrupted and len(list(store.glob("*.parquet"))) == 4
    out, df = run(block=40, store=store, resume=True)
    assert not out.interrupted and out.tasks_resumed == 4
    pd.testing.assert_frame_equal(_sorted(df), _sorted(one_run))
    whole = read_store(store)
    assert len(whole) == len(one_run)
    assert np.array_equal(
        whole.sort_values(["pairing", "game"])["winner"].to_numpy(),
        _sorted(one_run)["winner"].to_numpy(),
    )
    # a Maneuver store is never resumed as Manoeuvre's
    with pytest.raises(UsageError) as e:
        play(PAIRINGS, tasks(40), game="manoeuvre", store=store, manifest=MANIFEST,
             resume=True)  # fmt: skip
    assert "'hex', not 'manoeuvre'" in str(e.value) and "\n" not in str(e.value)


def test_dask_equals_local(one_run):
    pytest.importorskip("dask.distributed")
    from manoeuvre_sim.core.backend import DaskBackend

    with DaskBackend(workers=1) as backend:
        out, df = run(block=60, backend=backend)
    assert out.backend == "dask" and not out.interrupted
    pd.testing.assert_frame_equal(_sorted(df), _sorted(one_run))


def test_a_pairing_must_keep_blue_in_seat_a():
    bad = [Pairing(RED, BLUE, "capital", "capital", 1)]
    with pytest.raises(UsageError) as e:
        play(bad, [S.Task(0, 0, 4)], game="hex", options=OPTIONS)
    assert "side a is blue" in str(e.value)


def _invoke_stopped_at(monkeypatch, n: int, args: list[str]):
    """The command ``args`` run with its ``n``-th task interrupted as it starts (Ctrl-C):
    the tasks before it are finished and kept."""
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    calls = {"n": 0}
    run_task = S.run_task

    def stop(shared, item):
        calls["n"] += 1
        if calls["n"] == n:
            raise KeyboardInterrupt
        return run_task(shared, item)

    with monkeypatch.context() as m:
        m.setattr(S, "run_task", stop)
        return CliRunner().invoke(cli, args)


def test_hex_simulate_resume_and_dask_equal_one_local_run(tmp_path, monkeypatch):
    """`hex simulate` plays through the shared study layer: a run stopped part way keeps its
    finished blocks in FILE.store/, `--resume` plays only the rest, and `--backend dask`
    writes the file one local run writes, record for record (games 10..69 of the seed, as
    batch.play_games plays them)."""
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    base = ["hex", "simulate", "--games", "60", "--first-game", "10", "--seed", "3",
            "--policy-b", "attrition", "--border", "large_red", "--block", "16", "--quiet",
            "--threads", "1"]  # fmt: skip
    local = tmp_path / "local.parquet"
    r = CliRunner().invoke(cli, [*base, "--out", str(local)])
    assert r.exit_code == 0, r.output
    want = pd.read_parquet(local)
    opts = HEX.Options(border="large_red")
    pol, params = policy_arrays("capital", "attrition")
    rec = BT.play_games(3, 10, 60, SC.pack(SC.load_scenario(), "large_red"), opts.array(), pol,
                        params, 1)  # fmt: skip
    man = {"army_a": "blue", "army_b": "red", "options": R.asdict(opts),
           "config": {"seed": 3, "policy_a": "capital", "policy_b": "attrition"}}  # fmt: skip
    pd.testing.assert_frame_equal(want, R.to_frame(rec, man, 10))
    assert not (tmp_path / "local.parquet.store").exists()  # removed once the run finished

    # stopped after its second task: the finished blocks are written and kept in the store
    out = tmp_path / "stopped.parquet"
    r = _invoke_stopped_at(monkeypatch, 3, [*base, "--out", str(out)])
    assert r.exit_code == 130 and "--resume goes on" in r.output, r.output
    store = tmp_path / "stopped.parquet.store"
    assert len(list(store.glob("*.parquet"))) == 2 and len(pd.read_parquet(out)) < 60
    r = CliRunner().invoke(cli, [*base, "--out", str(out), "--resume"])
    assert r.exit_code == 0 and "2 task(s) read back" in r.output, r.output
    pd.testing.assert_frame_equal(pd.read_parquet(out), want)
    # the store of another run (red played by another player) is refused in one line
    assert _invoke_stopped_at(monkeypatch, 3, [*base, "--out", str(out)]).exit_code == 130
    other = [a if a != "attrition" else "random" for a in base]
    r = CliRunner().invoke(cli, [*other, "--out", str(out), "--resume"])
    msg = str(r.exception)
    assert isinstance(r.exception, UsageError) and "\n" not in msg, r.output
    assert msg.startswith("--resume") and "another study" in msg and "config.p" in msg

    pytest.importorskip("dask.distributed")
    dask = tmp_path / "dask.parquet"
    r = CliRunner().invoke(cli, [*base, "--out", str(dask), "--backend", "dask", "--workers", "1"])
    assert r.exit_code == 0 and "Dask cluster" in r.output, r.output
    pd.testing.assert_frame_equal(pd.read_parquet(dask), want)


def test_hex_tournament_resume_and_dask_equal_one_local_run(tmp_path, monkeypatch):
    """`hex tournament` plays through the shared tournament (studies/tournament.py, issue
    31): every seating's games are batch.play_games' games of that pairing's seed, a run
    stopped part way keeps its finished seatings in OUT.store/, `--resume` plays only the
    rest, and `--backend dask` writes what one local run writes."""
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli
    from manoeuvre_sim.hexgame.adapter import seat_seed

    base = ["hex", "tournament", "--policies", "random,capital,attrition", "--games", "12",
            "--seed", "5", "--border", "large_blue", "--quiet", "--threads", "1"]  # fmt: skip
    local = tmp_path / "local.parquet"
    r = CliRunner().invoke(cli, [*base, "--out", str(local)])
    assert r.exit_code == 0, r.output
    want = pd.read_parquet(local)
    packed, opts = SC.pack(SC.load_scenario(), "large_blue"), HEX.Options(border="large_blue")
    frames = []
    for x, y in (("random", "capital"), ("random", "attrition"), ("capital", "attrition")):
        for blue, red in ((x, y), (y, x)):
            pol, params = policy_arrays(blue, red)
            s = seat_seed(5, blue, red)
            rec = BT.play_games(s, 0, 12, packed, opts.array(), pol, params, 1)
            man = {"army_a": "blue", "army_b": "red", "options": R.asdict(opts),
                   "config": {"seed": s, "policy_a": blue, "policy_b": red}}  # fmt: skip
            frames.append(R.to_frame(rec, man))
    pd.testing.assert_frame_equal(want, pd.concat(frames, ignore_index=True))
    assert not (tmp_path / "local.parquet.store").exists()  # removed once the run finished

    out = tmp_path / "stopped.parquet"
    r = _invoke_stopped_at(monkeypatch, 4, [*base, "--out", str(out)])
    assert r.exit_code == 130 and "--resume goes on" in r.output, r.output
    assert len(list((tmp_path / "stopped.parquet.store").glob("*.parquet"))) == 3
    assert len(pd.read_parquet(out)) == 24  # the one whole pair: both its seatings
    r = CliRunner().invoke(cli, [*base, "--out", str(out), "--resume"])
    assert r.exit_code == 0 and "3 task(s) read back" in r.output, r.output
    pd.testing.assert_frame_equal(pd.read_parquet(out), want)
    r = CliRunner().invoke(cli, [*base, "--resume"])
    assert isinstance(r.exception, UsageError) and "--resume: needs --out" in str(r.exception)

    pytest.importorskip("dask.distributed")
    dask = tmp_path / "dask.parquet"
    r = CliRunner().invoke(cli, [*base, "--out", str(dask), "--backend", "dask", "--workers", "1"])
    assert r.exit_code == 0 and "Dask cluster" in r.output, r.output
    pd.testing.assert_frame_equal(pd.read_parquet(dask), want)
