"""The Dask backend against local threads on one balance study, and a 64-core estimate.

The same balance study (default 200,000 games: the 8 base armies, 3,125 games per ordered
pairing) on the local backend (this process, all numba threads) and on a 2-worker Dask
``LocalCluster`` (worker processes, one thread each), through the same code as
``manoeuvre-sim balance --backend local|dask``. Reports games/s, the overhead of the
cluster in per cent, checks the records are identical, and estimates from the measured
rate per core the wall time of a 10-million-game study on 64 cores. Needs the ``dask``
extra.

    python -m benchmarks dask [--quick] [--games-per-pairing 3125] [--block 1000]
        [--workers 2] [--repeats 2]
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from benchmarks.common import Parser, Run


def timed_runs(spec, warm, args, tmp: Path) -> dict:
    """Each backend ``--repeats`` times, alternated (local, dask, dask, local, ...) on a
    shared machine; the seconds of every run and each backend's last result."""
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
    from manoeuvre_sim.core.backend import DaskBackend, LocalBackend
    from manoeuvre_sim.studies import balance as B

    def timed(backend, name: str):
        d = tmp / name
        prepare_out_dir(d, force=True)
        t = time.perf_counter()
        res = B.run_spec(spec, out_dir=d, boot=0, backend=backend)
        return time.perf_counter() - t, res, d

    out: dict = {"local": [], "dask": []}
    t = time.perf_counter()
    with DaskBackend(workers=args.workers) as dask:
        out["start_s"] = time.perf_counter() - t
        t = time.perf_counter()
        B.run_spec(warm, boot=0, backend=dask)  # each worker loads the kernels once
        out["first_s"] = time.perf_counter() - t
        out["workers"] = dask.total_threads()
        for r in range(args.repeats):
            for name in ("local", "dask") if r % 2 == 0 else ("dask", "local"):
                sec, res, d = timed(LocalBackend(0) if name == "local" else dask, name)
                out[name].append(sec)
                out[name + "_res"], out[name + "_dir"] = res, d
                print(f"{name}: {sec:.1f} s", flush=True)
    return out


def report(o: dict, same: bool, part_kib: float, args) -> list[str]:
    local, games, workers = o["local_res"], o["local_res"].manifest["games"], o["workers"]
    local_s, dask_s = min(o["local"]), min(o["dask"])
    local_rate, dask_rate = games / local_s, games / dask_s
    per_core = dask_rate / workers
    est_s = 10_000_000 / (per_core * 64)
    return [
        f"## {games:,} games: local threads against a {workers}-worker LocalCluster",
        "",
        f"Each backend ran {args.repeats} times, alternated (local, dask, dask, local, ...); "
        "the table gives the best run of each (all runs' seconds in the last column).",
        "",
        "| backend | workers × threads | seconds (best) | games/s | every run (s) |",
        "|---|---|---:|---:|---|",
        f"| local | 1 process × {local.manifest['threads']} numba threads | {local_s:.1f} | "
        f"{local_rate:,.0f} | {', '.join(f'{x:.1f}' for x in o['local'])} |",
        f"| dask (LocalCluster) | {workers} processes × 1 thread | {dask_s:.1f} | "
        f"{dask_rate:,.0f} | {', '.join(f'{x:.1f}' for x in o['dask'])} |",
        "",
        f"Overhead of the Dask backend over local threads: **{100 * (dask_s / local_s - 1):+.1f} "
        f"%** (goal: under 10 %). Records identical: **{'yes' if same else 'NO'}** (every part "
        "file's rows, and the win-rate matrix).",
        "",
        f"Not in those seconds: starting the cluster ({o['start_s']:.1f} s) and the workers' "
        f"first tasks, when each loads the compiled kernels from numba's on-disk cache "
        f"({o['first_s']:.1f} s for a 64-game warm-up study).",
        "",
        "## Paper estimate: 10 million games on 64 cores",
        "",
        f"Measured rate per core on the cluster: {dask_rate:,.0f} games/s / {workers} "
        f"workers = **{per_core:,.0f} games/s per core**. A 10,000,000-game study (e.g. "
        "156,250 games per ordered pairing of the 8 armies) on 64 worker processes of one "
        f"thread each, at that rate per core: 10,000,000 / ({per_core:,.0f} × 64) = "
        f"**{est_s:,.0f} s (about {est_s / 60:.1f} minutes)**, plus the cluster's start "
        "and one kernel load per worker (seconds, from a shared numba cache). This assumes "
        "the cores of the cluster are as fast as these and scale linearly (each task is "
        "independent and small: a pairing index and a game range in, its records out — "
        f"{part_kib:.0f} KiB a task as Parquet — so at {args.block:,}-game tasks the "
        f"scheduler sees {per_core * 64 / args.block:,.0f} tasks/s across the cluster, far "
        "from its limits). The rate was measured on a shared machine (load averages above): "
        "on idle cores it is higher and the estimate shorter.",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games-per-pairing", 3125, 50, "games per ordered pairing")
    ap.size("--block", 1000, 25, "games per task")
    ap.size("--repeats", 2, 1, "runs of each backend, alternated")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    import pandas as pd

    from manoeuvre_sim.analyses.common.study_dir import STORE
    from manoeuvre_sim.core.store import read_store
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.studies import balance as B

    run = Run(args, ap.name)
    armies = tuple(load_builtin_armies())
    tmp = Path(tempfile.mkdtemp(prefix="bench-dask-"))
    n = args.games_per_pairing
    spec = B.BalanceSpec("manoeuvre", armies, games_per_pairing=n, block=args.block)
    warm = B.BalanceSpec("manoeuvre", armies[:2], games_per_pairing=16, block=4)
    B.run_spec(warm, boot=0)  # compile, or load numba's on-disk cache, outside the timings
    o = timed_runs(spec, warm, args, tmp)
    local_dir, dask_dir = o["local_dir"], o["dask_dir"]
    same = read_store(local_dir / STORE).equals(read_store(dask_dir / STORE))
    parts = list((dask_dir / STORE).glob("*.parquet"))
    part_kib = sum(f.stat().st_size for f in parts) / len(parts) / 1024
    pd.testing.assert_frame_equal(o["local_res"].matrix, o["dask_res"].matrix)
    tasks = -(-n // args.block) * 64
    lines = run.header(
        "Dask backend benchmark", data_hash=o["local_res"].manifest.get("data_hash"),
        modules=("dask",),
        extra=[f"the 8 base armies, every ordered pairing (64), {n:,} games each, policy "
               f"`{DEFAULT_POLICY}`, seed 1, tasks of {args.block:,} games ({tasks} tasks, "
               "one Parquet file each), records to the study store and the count tables, as "
               "`manoeuvre-sim balance` plays them (the ratings' bootstrap, CSVs and PDF not "
               "timed); compilation not timed"],
    )  # fmt: skip
    run.write(lines + report(o, same, part_kib, args))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
