"""Studies past one machine: the study store's resume, and the Dask backend giving the same
records as the local one (a 2-worker LocalCluster shared by the module, tiny studies).

The parent process plays each study locally first, so the numba cache on disk is warm
before the workers (which share this file system) load the kernels from it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from click.testing import CliRunner

from manoeuvre_sim.core.backend import DaskBackend, LocalBackend, make_backend
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.store import STORE, read_store
from manoeuvre_sim.core.study import PolicySpec
from manoeuvre_sim.manoeuvre.balance_setup import resolve_armies
from manoeuvre_sim.manoeuvre.studies import cards as C
from manoeuvre_sim.studies import balance as B

pytest.importorskip("dask.distributed")

FIELD = ["France", "Russia"]


def _spec(armies=FIELD, **kw):
    loaded, sources = resolve_armies(armies)
    kw.setdefault("games_per_pairing", 24)
    kw.setdefault("seed", 11)
    kw.setdefault("block", 8)
    return B.BalanceSpec("manoeuvre", tuple(loaded), sources=tuple(sources), **kw)


def _tables(res) -> dict[str, pd.DataFrame]:
    return {k: v.reset_index(drop=True) for k, v in res.frames().items()}


def _same_tables(a, b) -> None:
    ta, tb = _tables(a), _tables(b)
    assert ta.keys() == tb.keys()
    for k in ta:
        pd.testing.assert_frame_equal(ta[k], tb[k], obj=k)


@pytest.fixture(scope="module")
def local_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("local")
    return B.run_spec(_spec(threads=2), out_dir=out, boot=20), out


@pytest.fixture(scope="module")
def cluster(local_study):
    # local_study first: the kernels are compiled (or loaded) in this process, so the
    # workers find them in numba's on-disk cache
    with DaskBackend(workers=2) as backend:
        yield backend


def test_dask_records_and_tables_equal_local(local_study, cluster, tmp_path):
    local, local_out = local_study
    res = B.run_spec(_spec(), out_dir=tmp_path, boot=20, backend=cluster)
    assert res.manifest["backend"] == "dask" and res.manifest["threads"] == 2
    a = read_store(local_out / STORE)
    b = read_store(tmp_path / STORE)
    assert len(a) == 4 * 24
    pd.testing.assert_frame_equal(a, b)
    _same_tables(local, res)
    # the same part files (names and contents), written by the client
    names = sorted(p.name for p in (tmp_path / STORE).glob("*.parquet"))
    assert names == sorted(p.name for p in (local_out / STORE).glob("*.parquet"))


def test_card_statistics_equal_on_dask(cluster, tmp_path):
    """The observed card study (per-game card statistics back from the workers) and an
    ablation, with a task size that does not divide the games."""
    spec = C.make_spec("France", against=["Russia"], games=20, seed=3, mode="both", block=7,
                       replace=["Supply=blank"])  # fmt: skip
    local = C.run_spec(spec, out_dir=tmp_path / "l")
    dask = C.run_spec(spec, out_dir=tmp_path / "d", backend=cluster)
    pd.testing.assert_frame_equal(local.cards, dask.cards)
    pd.testing.assert_frame_equal(local.copies, dask.copies)


def test_interrupted_then_resumed_equals_uninterrupted(local_study, cluster, tmp_path):
    local, _ = local_study
    seen = {"tasks": 0}

    def stop_after_three(done: int, total: int) -> None:
        seen["tasks"] += 1
        if seen["tasks"] == 3:
            raise KeyboardInterrupt

    part = B.run_spec(_spec(), out_dir=tmp_path, boot=20, progress=stop_after_three,
                      backend=cluster)  # fmt: skip
    assert part.interrupted and part.manifest["games"] == 3 * 8
    assert len(list((tmp_path / STORE).glob("*.parquet"))) == 3
    # resumed locally (a backend is only scheduling): only the 9 missing tasks are played
    import manoeuvre_sim.core.study as S

    real, played = S.run_task, []

    def counted(shared, item):
        played.append(item[:3])
        return real(shared, item)

    S.run_task = counted
    try:
        res = B.run_spec(_spec(), out_dir=tmp_path, boot=20, resume=True)
    finally:
        S.run_task = real
    assert not res.interrupted and len(played) == 9 and res.manifest["games"] == 4 * 24
    _same_tables(local, res)
    pd.testing.assert_frame_equal(read_store(tmp_path / STORE), local.games)


def test_resume_refuses_another_configuration(local_study, tmp_path):
    _, out = local_study
    for change, field in (({"seed": 12}, "seed"), ({"policies": (PolicySpec("simple", "simple"),)}, "policies")):  # fmt: skip
        with pytest.raises(UsageError) as e:
            B.run_spec(_spec(**change), out_dir=out, resume=True)
        msg = str(e.value)
        assert "\n" not in msg and "another study" in msg and field in msg, msg


def test_resume_refuses_changed_army_data(tmp_path):
    """A designer edits an army file between two runs: its data hash changes, the resume is
    refused (the old games are not mixed in)."""
    from manoeuvre_sim.manoeuvre.model import find_army

    fr = find_army("France")
    spec = _spec(games_per_pairing=8)
    B.run_spec(spec, out_dir=tmp_path, boot=0)
    units = list(fr.units)
    units[0] = units[0].model_copy(update={"full": units[0].full - 1})
    changed = fr.model_copy(update={"units": tuple(units)})
    spec2 = B.BalanceSpec("manoeuvre", (changed, spec.sides[1]), games_per_pairing=8, seed=11,
                          block=8)  # fmt: skip
    with pytest.raises(UsageError, match="another study.*data_hash"):
        B.run_spec(spec2, out_dir=tmp_path, resume=True)


@pytest.fixture(scope="module")
def long_study(tmp_path_factory):
    """Tasks long enough to be killed in: 8 of 500 games (a quarter of a second or more)."""
    out = tmp_path_factory.mktemp("long")
    spec = _spec(games_per_pairing=1000, block=500, threads=2)
    return spec, B.run_spec(spec, out_dir=out, boot=0), out


def _main(args, capsys) -> tuple[int, str]:
    from manoeuvre_sim.cli.main import main

    with pytest.raises(SystemExit) as ex:
        main(args)
    return ex.value.code, capsys.readouterr().err


def test_cli_kill_and_resume_equals_one_run(long_study, tmp_path, capsys):
    """A `balance` process killed (SIGKILL) part way loses at most its task in flight;
    `--resume` finishes it and writes the tables of one uninterrupted run."""
    spec, ref, ref_out = long_study
    out = tmp_path / "killed"
    args = ["balance", "--armies", ",".join(FIELD), "--games-per-pairing", "1000",
            "--block", "125", "--seed", "11", "--threads", "1", "--quiet", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "manoeuvre_sim.cli", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    store = out / STORE
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(list(store.glob("*.parquet"))) < 3:
        assert proc.poll() is None, "the run ended before it could be killed"
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = len(list(store.glob("*.parquet")))
    assert 3 <= kept < 32
    from manoeuvre_sim.cli.main import cli

    r = CliRunner().invoke(cli, [*args, "--resume"])
    assert r.exit_code == 0, r.output
    want = ref.matrix.reset_index(drop=True)
    got = pd.read_csv(out / "matrix.csv")[want.columns]
    pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-5)
    pd.testing.assert_frame_equal(read_store(store), ref.games)
    # a changed configuration is refused with one line naming what changed, exit status 2
    args[args.index("--seed") + 1] = "12"
    code, err = _main([*args, "--resume"], capsys)
    line = err.strip()
    assert code == 2 and "\n" not in line, err
    assert line.startswith("error: --resume") and "another study" in line and "seed" in line
    # --resume and --force together are refused too
    code, err = _main([*args, "--resume", "--force"], capsys)
    assert code == 2 and "--resume and --force" in err


def test_a_worker_killed_mid_task_is_survived(long_study, cluster, tmp_path):
    """SIGKILL a worker while it plays a task: the scheduler runs that task again on the
    other worker and the study's records are exactly the local ones."""
    import threading

    spec, ref, ref_out = long_study
    client = cluster.client
    killed = {}

    def killer() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            busy = {w: t for w, t in client.processing().items() if t}
            if busy:
                time.sleep(0.1)  # inside its first task
                w = next(iter(busy))
                pid = client.run(os.getpid, workers=[w])[w]
                killed[w] = client.processing()[w]
                os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.01)

    th = threading.Thread(target=killer)
    th.start()
    res = B.run_spec(_spec(games_per_pairing=1000, block=500), out_dir=tmp_path, boot=0,
                     backend=cluster)  # fmt: skip
    th.join()
    assert killed and list(killed.values())[0], "no worker was killed in a task"
    assert not res.interrupted
    pd.testing.assert_frame_equal(read_store(tmp_path / STORE), read_store(ref_out / STORE))
    _same_tables(ref, res)


def test_backend_choice_is_checked():
    with pytest.raises(UsageError, match="--backend"):
        make_backend("spark")
    with pytest.raises(UsageError, match="--scheduler"):
        make_backend("local", scheduler="tcp://x:1")
    assert isinstance(make_backend("local"), LocalBackend)


def test_local_backend_imports_no_dask():
    code = (
        "import sys; from manoeuvre_sim.analyses.manoeuvre import balance as B; "
        "from manoeuvre_sim.core import backend, study; backend.make_backend('local'); "
        "print(any(m.split('.')[0] in ('dask', 'distributed') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_simulate_through_tasks_equals_one_run(tmp_path):
    """`simulate` plays tasks of --block games; the records equal one runner.simulate call,
    for any block, a first-game offset, and after an interruption and --resume."""
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
    from manoeuvre_sim.studies import simulate as study

    def simulate_tasks(cfg, *, block, store=None, **kw):  # what `simulate` runs
        spec = study.SimulateSpec("manoeuvre", cfg.army_a, cfg.army_b, cfg.policy_a,
                                  cfg.policy_b, seed=cfg.seed, first=cfg.first_game,
                                  games=cfg.games, block=block, threads=cfg.threads)  # fmt: skip
        out = None if store is None else f"{store}.parquet"
        res = study.run_spec(spec, out, **kw)
        return res.frame, res.manifest, res.interrupted

    cfg = SimConfig("France", "Spain", games=40, seed=5, threads=1)
    ref = simulate(cfg)
    want = to_frame(ref.records, ref.manifest)
    df, man, stopped = simulate_tasks(cfg, block=7, store=tmp_path / "s")
    assert not stopped and man["games_done"] == 40 and man["data_hash"] == ref.manifest["data_hash"]
    pd.testing.assert_frame_equal(df, want)
    # games 15..39 alone are the same rows
    cfg2 = SimConfig("France", "Spain", games=25, seed=5, first_game=15, threads=1)
    df2, _, _ = simulate_tasks(cfg2, block=10)
    pd.testing.assert_frame_equal(df2, want.iloc[15:].reset_index(drop=True))

    # stopped after two tasks, then resumed: two tasks read back, the rest played
    def stop(done: int, total: int) -> None:
        if done >= 14:
            raise KeyboardInterrupt

    store = tmp_path / "r"
    part, _, stopped = simulate_tasks(cfg, block=7, store=store, progress=stop)
    assert stopped and len(part) == 14
    assert len(list((tmp_path / "r.parquet.store").glob("*.parquet"))) == 2
    other = SimConfig("France", "Spain", games=40, seed=5, threads=1, policy_b="simple")
    with pytest.raises(UsageError, match="another study.*policy_b"):
        simulate_tasks(other, block=7, store=store, resume=True)
    df3, _, stopped = simulate_tasks(cfg, block=7, store=store, resume=True)
    assert not stopped
    pd.testing.assert_frame_equal(df3, want)


def test_simulate_cli_on_dask_equals_local(cluster, tmp_path):
    """The command line: `simulate --backend dask` (here joining the test cluster by its
    address) writes the file `--backend local` writes."""
    from manoeuvre_sim.cli.main import cli

    base = ["simulate", "--army-a", "Russia", "--army-b", "Austria", "--games", "30",
            "--seed", "9", "--block", "8", "--quiet"]  # fmt: skip
    r = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "l.parquet")])
    assert r.exit_code == 0, r.output
    addr = cluster.client.scheduler.address
    r = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "d.parquet"), "--backend", "dask",
                                 "--scheduler", addr])  # fmt: skip
    assert r.exit_code == 0, r.output
    a = pd.read_parquet(tmp_path / "l.parquet")
    b = pd.read_parquet(tmp_path / "d.parquet")
    pd.testing.assert_frame_equal(a, b)
    assert not (tmp_path / "d.parquet.store").exists()  # the store goes once the file is written


def test_tournament_and_search_player_through_the_task_path(cluster):
    """The tournament (style parameter vectors in the pairings) and the search player (its
    own kernel) go through the same tasks: local and dask records identical."""
    from manoeuvre_sim.manoeuvre import styles as T
    from manoeuvre_sim.studies import tournament

    pols = T.resolve(["search:3:random", "simple"])
    kw = dict(sides=["France"], threads=1)
    local = tournament.run("manoeuvre", pols, 2, 4, **kw)
    dask = tournament.run("manoeuvre", pols, 2, 4, backend=cluster, **kw)
    assert len(local.frame) == 2
    pd.testing.assert_frame_equal(local.frame, dask.frame)
    styles = {"cautious": T.Policy("cautious", "balanced", tuple(
        x * 1.5 for x in T.builtin_policies()["balanced"].params))}  # fmt: skip
    pols = T.resolve(["balanced", "cautious"], styles)
    local = tournament.run("manoeuvre", pols, 16, 2, **kw)
    dask = tournament.run("manoeuvre", pols, 16, 2, backend=cluster, **kw)
    pd.testing.assert_frame_equal(local.frame, dask.frame)
    assert local.pairs[0].wins_a == dask.pairs[0].wins_a


def test_merge_two_disjoint_runs_equals_one_run(local_study, tmp_path):
    """Two runs of games 0..15 and 16..23 per pairing, their parts copied into one store,
    then the whole resumed: nothing is played, and the tables are the one run's."""
    import shutil

    local, _ = local_study
    B.run_spec(_spec(games_per_pairing=16), out_dir=tmp_path / "a", boot=0)
    B.run_spec(_spec(games_per_pairing=8, first_game=16), out_dir=tmp_path / "b", boot=0)
    merged = tmp_path / "all" / STORE
    merged.mkdir(parents=True)
    for part in ("a", "b"):
        for f in (tmp_path / part / STORE).glob("*.parquet"):
            shutil.copy(f, merged / f.name)
    played = {"n": 0}

    def count(done, total):
        played["n"] += 1

    import manoeuvre_sim.core.study as S

    real = S.run_task
    S.run_task = None  # any game played would fail: everything is read back
    try:
        res = B.run_spec(_spec(), out_dir=tmp_path / "all", boot=20, resume=True, progress=count)
    finally:
        S.run_task = real
    assert played["n"] == 12
    _same_tables(local, res)


def test_whatif_interrupted_then_resumed_equals_uninterrupted(tmp_path):
    """A what-if pairs each variant block with its base block: stopped between them and
    resumed, the paired figures are those of one run; another change is refused."""
    from manoeuvre_sim.studies import whatif as W

    def spec(change="France/Garde Imperial/full=6"):
        return W.command_spec("manoeuvre", FIELD, edits=[change], games_per_pairing=16,
                              seed=2, block=8)  # fmt: skip

    whole = W.run_spec(spec(), boot=20)
    stops = {"n": 0}

    def stop(done: int, total: int) -> None:
        stops["n"] += 1
        if stops["n"] == 5:  # after a base block, before its variant
            raise KeyboardInterrupt

    part = W.run_spec(spec(), out_dir=tmp_path, progress=stop, boot=20)
    assert part.interrupted
    res = W.run_spec(spec(), out_dir=tmp_path, resume=True, boot=20)
    assert not res.interrupted
    pd.testing.assert_frame_equal(res.whatif, whole.whatif)
    pd.testing.assert_frame_equal(res.field, whole.field)
    with pytest.raises(UsageError, match="another study.*variant"):
        W.run_spec(spec("France/Garde Imperial/full=7"), out_dir=tmp_path, resume=True)


def test_card_study_resumed_equals_one_run(tmp_path):
    """The observed figures of a resumed card study come from the card statistics kept
    beside the store (DIR/card_stats/), read back with their blocks."""
    spec = C.make_spec("France", against=["Russia"], games=20, seed=4, mode="both", block=5,
                       replace=["Supply=blank"])  # fmt: skip
    whole = C.run_spec(spec)
    n = {"tasks": 0}

    def stop(done: int, total: int) -> None:
        n["tasks"] += 1
        if n["tasks"] == 5:
            raise KeyboardInterrupt

    assert C.run_spec(spec, out_dir=tmp_path, progress=stop).interrupted
    assert len(list((tmp_path / "card_stats").glob("*.npz"))) == 3  # of the 3 base blocks
    res = C.run_spec(spec, out_dir=tmp_path, resume=True)
    pd.testing.assert_frame_equal(res.cards, whole.cards)
    pd.testing.assert_frame_equal(res.copies, whole.copies)
