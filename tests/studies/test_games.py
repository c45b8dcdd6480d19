"""The games registry and the generic study layer (issue 25): a toy game (``coin_game.py``,
pure Python, nothing of Manoeuvre) played through the same tasks, store, resume, merge and
backends as Manoeuvre gives the same records however it is run; a store of one game is never
resumed or merged as another's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import manoeuvre_sim.core.study as S
from manoeuvre_sim.core import games as G
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.store import read_store, write_part
from manoeuvre_sim.core.study import Pairing, Task, blocks, pairing_seed, part_name, play
from tests.studies import coin_game

COINS = [coin_game.load_side(s) for s in ("heavy:70", "fair", "light:30")]
PAIRINGS = [
    Pairing(a, b, "fair", "fair", pairing_seed(3, a.name, b.name), "coins")
    for a in COINS
    for b in COINS
    if a != b
]
MANIFEST = {"study": "coins", "seed": 3, "rules_version": coin_game.RULES_VERSION}
GAMES = 40


def tasks(block: int, start: int = 0, stop: int = GAMES) -> list[Task]:
    return [t for k in range(len(PAIRINGS)) for t in blocks(k, start, stop, block)]


def run(block: int = 40, *, start: int = 0, stop: int = GAMES, **kw):
    frames, stats = [], []

    def keep(task, df, cs):
        frames.append(df)
        stats.append(cs)

    kw.setdefault("manifest", MANIFEST)
    out = play(PAIRINGS, tasks(block, start, stop), game=coin_game, on_frame=keep, **kw)
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return out, df, stats


@pytest.fixture(scope="module")
def one_run():
    out, df, stats = run(40, stats=True)
    assert not out.interrupted and len(df) == len(PAIRINGS) * GAMES
    return df, stats


def _sorted(df: pd.DataFrame) -> pd.DataFrame:
    return df.sort_values(["label", "pairing", "game"], kind="stable").reset_index(drop=True)


# --- the registry --------------------------------------------------------------------------


def test_an_unknown_key_is_one_line_naming_the_games():
    with pytest.raises(UsageError) as e:
        G.get_game("chess")
    msg = str(e.value)
    assert "\n" not in msg and "'chess'" in msg and "manoeuvre" in msg, msg


def test_a_registered_game_not_installed_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(G.GAMES, "ghost", ("manoeuvre_sim.core.games.ghost", "Ghost (none)"))
    with pytest.raises(UsageError) as e:
        G.get_game("ghost")
    msg = str(e.value)
    assert "\n" not in msg and "Ghost (none)" in msg and "not in this installation" in msg


def test_the_installed_games_leave_out_a_registered_game_not_installed(monkeypatch):
    """``installed()``, what the workbench's lists and the statistics directories read: every
    registered game that is installed, in registry order, a missing one left out."""
    monkeypatch.setitem(G.GAMES, "ghost", ("manoeuvre_sim.core.games.ghost", "Ghost (none)"))
    monkeypatch.setitem(G.GAMES, "coin", (coin_game.__name__, coin_game.TITLE))
    games = G.installed()
    assert list(games) == [k for k in G.GAMES if k != "ghost"] and "coin" in games
    assert games["coin"] is coin_game and games["manoeuvre"] is G.get_game("manoeuvre")
    from manoeuvre_sim.web.jobs.forms import balance_games
    from manoeuvre_sim.web.jobs.kinds import job_kinds

    assert "ghost" not in balance_games() and "coin" in balance_games()
    assert {k.split()[0] for k in job_kinds() if " " in k} >= {"hex", "coin"}
    assert not any(k.startswith("ghost") for k in job_kinds())


def test_a_module_missing_part_of_the_interface_is_refused(monkeypatch):
    import types

    half = types.ModuleType("half_game")
    for name in G.MEMBERS:
        setattr(half, name, getattr(coin_game, name))
    assert G.checked(half) is half
    del half.play_block
    with pytest.raises(UsageError, match="half_game: does not define play_block"):
        G.checked(half)


def test_the_games_satisfy_the_interface():
    manoeuvre = G.get_game("manoeuvre")
    for game in (manoeuvre, coin_game):
        assert isinstance(game, G.Game)
        assert set(game.VICTORY_KINDS) and game.Options().describe() == ""
    assert manoeuvre.KEY == "manoeuvre" and G.resolve("manoeuvre") is manoeuvre


def test_manoeuvre_records_have_the_core_and_its_extra_columns():
    import numpy as np

    from manoeuvre_sim.manoeuvre.engine.batch import NREC
    from manoeuvre_sim.manoeuvre.results import to_frame

    m = G.get_game("manoeuvre")
    man = {"army_a": "France", "army_b": "Russia",
           "config": {"seed": 1, "policy_a": "simple", "policy_b": "simple"}}  # fmt: skip
    df = to_frame(np.zeros((2, NREC), np.int32), man)
    assert set(df.columns) == {*G.CORE_COLUMNS, *m.EXTRA_COLUMNS}
    bits = to_frame(np.zeros((2, NREC), np.int32), man, card_bits=True)
    assert set(bits.columns) - set(df.columns) == set(m.CARD_BIT_COLUMNS)


def test_the_registry_and_the_manoeuvre_adapter_import_no_numba():
    code = (
        "import sys; from manoeuvre_sim.core import games, study, backend; "
        "g = games.get_game('manoeuvre'); "
        "print(any(m.split('.')[0] == 'numba' for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- the toy game through the study layer ----------------------------------------------------


def test_core_columns_first_and_records_do_not_depend_on_the_block(one_run):
    df, _ = one_run
    assert tuple(df.columns[: len(G.CORE_COLUMNS)]) == G.CORE_COLUMNS
    assert {"pairing", "label", "heads_a", "heads_b"} <= set(df.columns)
    assert set(df["victory"]) <= set(coin_game.VICTORY_KINDS)
    # the heavy coin wins more often than the light one: the sides reach the game
    assert (df["heads_a"] - df["heads_b"]).groupby(df["army_a"]).mean().idxmax() == "heavy"
    _, small, _ = run(7, threads=1)
    pd.testing.assert_frame_equal(_sorted(small), _sorted(df))
    # games 13..39 alone are the same rows (game i from (seed, i) alone)
    _, tail, _ = run(9, start=13)
    want = _sorted(df)
    pd.testing.assert_frame_equal(_sorted(tail), want[want["game"] >= 13].reset_index(drop=True))


def test_flags_reach_play_block():
    _, df, _ = run(40, flags={"flips_column": True})
    assert (df["flips"] == 5).all()


def test_interrupted_then_resumed_equals_one_run(one_run, tmp_path, monkeypatch):
    whole, whole_stats = one_run
    store = tmp_path / "games.parquet"
    n = {"tasks": 0}

    def stop(k: int) -> None:
        n["tasks"] += 1
        if n["tasks"] == 7:
            raise KeyboardInterrupt

    out, _, _ = run(10, store=store, progress=stop, stats=True)
    assert out.interrupted and out.tasks_done == 7
    assert len(list(store.glob("*.parquet"))) == 7
    assert len(list((tmp_path / coin_game.STATS_DIR).glob("*.npz"))) == 7
    real, played = S.run_task, []

    def counted(shared, item):
        played.append(item[:3])
        return real(shared, item)

    monkeypatch.setattr(S, "run_task", counted)
    out, df, stats = run(10, store=store, stats=True, resume=True)
    assert not out.interrupted and out.tasks_resumed == 7
    assert len(played) == len(tasks(10)) - 7
    pd.testing.assert_frame_equal(_sorted(df), _sorted(whole))
    pd.testing.assert_frame_equal(read_store(store), _sorted(whole))
    # the per-game statistics, read back with their blocks, are those of the one run
    heads = pd.concat([pd.DataFrame(s) for s in stats], ignore_index=True)
    assert heads.values.tolist() == whole[["heads_a", "heads_b"]].values.tolist()
    assert sum(len(s) for s in whole_stats) == len(heads)


needs_two_threads = pytest.mark.skipif(
    __import__("numba").config.NUMBA_NUM_THREADS < 2, reason="one numba thread: one task at a time"
)


@needs_two_threads
def test_many_tasks_play_at_once_on_the_local_backend(one_run, monkeypatch):
    # two tasks must be playing together to pass the barrier: one after the other, the
    # first waits alone and the barrier breaks
    import threading

    from manoeuvre_sim.core.backend import LocalBackend

    barrier, real, threads = threading.Barrier(2, timeout=20), S.run_task, []

    def task(shared, item):
        threads.append(item[4])
        if item[0] == 0 and item[1] in (0, 10) and item[2] == 10:  # the first run's first two
            barrier.wait()
        return real(shared, item)

    monkeypatch.setattr(S, "run_task", task)
    backend = LocalBackend(2)
    _, df, _ = run(10, backend=backend)
    assert backend.at_once == 2 and set(threads) == {1}  # each task on one thread
    pd.testing.assert_frame_equal(_sorted(df), _sorted(one_run[0]))
    # a study of few tasks plays them one after the other, each on every thread
    backend = LocalBackend(2)
    threads.clear()
    run(40, stop=20, backend=backend)
    assert backend.at_once == 1 and set(threads) == {2}


def test_two_disjoint_runs_merged_equal_one_run(one_run, tmp_path, monkeypatch):
    whole, _ = one_run
    run(10, stop=20, store=tmp_path / "a")
    run(10, start=20, store=tmp_path / "b")
    merged = tmp_path / "all"
    merged.mkdir()
    for part in ("a", "b"):
        for f in (tmp_path / part).glob("*.parquet"):
            shutil.copy(f, merged / f.name)
    monkeypatch.setattr(S, "run_task", None)  # any game played would fail
    out, df, _ = run(10, store=merged, resume=True)
    assert out.tasks_resumed == len(tasks(10))
    pd.testing.assert_frame_equal(_sorted(df), _sorted(whole))


def test_dask_equals_local(one_run, monkeypatch):
    pytest.importorskip("dask.distributed")
    from manoeuvre_sim.core.backend import DaskBackend

    whole, _ = one_run
    _, local, _ = run(10)
    # the worker processes import the toy game by its module name, tests.studies.coin_game,
    # from the repository root
    path = [str(Path(__file__).resolve().parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    with DaskBackend(workers=1) as backend:
        out, df, _ = run(10, backend=backend)
    assert out.backend == "dask" and not out.interrupted
    pd.testing.assert_frame_equal(df, local)  # the same frames, in task order
    pd.testing.assert_frame_equal(_sorted(df), _sorted(whole))


# --- a store of one game is never another's -------------------------------------------------


def _one_line(e) -> str:
    msg = str(e.value)
    assert "\n" not in msg, msg
    return msg


def test_a_store_of_one_game_is_not_resumed_as_another(tmp_path):
    store = tmp_path / "games.parquet"
    run(40, stop=8, store=store)
    with pytest.raises(UsageError) as e:
        play(PAIRINGS, tasks(8, stop=8), game="manoeuvre", store=store, manifest=MANIFEST,
             resume=True)  # fmt: skip
    msg = _one_line(e)
    assert msg.startswith("--resume") and "'coin', not 'manoeuvre'" in msg, msg
    assert "--out" in msg


def test_a_part_of_another_game_merged_in_is_refused(tmp_path):
    """A part written before games had keys (no "game" in its manifest) holds Manoeuvre's
    games: copied into a store of the toy game, the resume refuses it."""
    store = tmp_path / "games.parquet"
    run(40, stop=8, store=store)
    task = Task(0, 8, 8)
    old = dict(MANIFEST, task=S.task_meta(PAIRINGS[0], task))  # no "game": Manoeuvre's
    assert "game" not in old
    write_part(pd.DataFrame({"game": range(8, 16)}), store / part_name("coins", task), old)
    with pytest.raises(UsageError) as e:
        run(8, stop=16, store=store, resume=True)
    assert "'manoeuvre', not 'coin'" in _one_line(e)


def test_a_study_cannot_name_one_game_and_play_another():
    with pytest.raises(UsageError, match="'manoeuvre' cannot play the game 'coin'"):
        run(40, manifest=dict(MANIFEST, game="manoeuvre"))


def test_an_old_store_of_manoeuvre_still_reads_as_manoeuvre():
    """The identity of a manifest without "game" (written before this change) is that of
    the same manifest naming Manoeuvre, so such a store resumes as before."""
    assert S.identity({"seed": 1}) == S.identity({"seed": 1, "game": "manoeuvre"})
    assert S.identity({"seed": 1}) != S.identity({"seed": 1, "game": "coin"})
