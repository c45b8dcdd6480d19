"""The value search before and after a speed change: games/s and the strong study's time, same games.

    python -m benchmarks search-speed --base ../base [--games 200] [--rounds 3] [--study-games 4]
    python -m benchmarks search-speed --quick      # this checkout against itself, small counts

Issue 41, in one run: an untouched checkout (``--base``, with its own .venv) against this one,
the two alternating run by run so that other work on the machine falls on both alike, each
run a fresh process on the checkout's usual (warm) numba cache:

- games per second of ``--spec`` (default ``search:16:tuned:v2``, the strong study's player)
  against ``--opponent`` (default ``tuned``), France against Russia, ``--games`` games
  (seed 2) on 1 thread and on 2, whole games, the compile or cache load left out;
- the strong study sliced: ``manoeuvre-sim balance --games-per-pairing N --policies
  tuned,SPEC`` (``--study-games`` N of the study's 200; every ordered pairing of the 8 base
  armies, both policies), the whole command timed as the designer waits on it.

The best run of each checkout is kept (the run least slowed by the other work); each row
says whether every run of both checkouts played the same games: the records' hash (a
study: its games read back from the store, ``check_study_identity.store_hash``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_speed import _cpu, _python
from benchmarks.check_study_identity import store_hash
from benchmarks.common import ROOT, Parser, Run, git_commit, load, progress

NEEDS = "an untouched checkout with its .venv (--base DIR)"

GPS_SNIPPET = r"""
import hashlib, json, sys, time
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
spec, opp, threads, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
simulate(SimConfig("France", "Russia", games=2, seed=1, policy_a=spec, policy_b=opp))
cfg = SimConfig("France", "Russia", games=games, seed=2, policy_a=spec, policy_b=opp,
                threads=threads)
t, c = time.perf_counter(), time.process_time()
res = simulate(cfg)
dt, dc = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"gps": games / dt, "cpu_gps": games / dc,
                  "hash": hashlib.sha256(res.records.tobytes()).hexdigest()}))
"""


def _run(tree: Path, argv: list[str]) -> tuple[str, float, float]:
    """stdout, wall seconds and CPU seconds of ``argv`` run in ``tree``."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    env.pop("NUMBA_DISABLE_JIT", None)
    t, c = time.perf_counter(), _cpu()
    out = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t
    c = _cpu() - c
    if out.returncode != 0:
        sys.exit(f"bench_search_speed: {' '.join(argv[:3])} in {tree} failed:\n"
                 f"{out.stderr[-3000:]}")  # fmt: skip
    return out.stdout, dt, c


def games_rows(trees: dict, threads: int, args) -> list[dict]:
    """Games/s of the spec on ``threads`` threads, the checkouts alternating: by the wall
    clock, and per CPU second of the process."""
    got = {k: [] for k in trees}
    for r in range(args.rounds):
        for k, tree in trees.items():
            progress(f"{k}: {args.spec} vs {args.opponent}, {threads} thread(s), round {r + 1}")
            argv = [_python(tree), "-c", GPS_SNIPPET, args.spec, args.opponent, str(threads),
                    str(args.games)]  # fmt: skip
            got[k].append(
                json.loads(_run(tree, argv)[0].strip().splitlines()[-1]) | {"load": load()}
            )
    same = len({g["hash"] for k in trees for g in got[k]}) == 1
    loads = [g["load"] for k in trees for g in got[k]]
    what = f"`{args.spec}` vs `{args.opponent}`, {threads} thread(s), games"
    return [
        {"what": what + "/s", "best": {k: max(g["gps"] for g in got[k]) for k in trees},
         "loads": loads, "same": same, "higher": True},
        {"what": what + " per CPU second", "loads": loads, "same": same, "higher": True,
         "best": {k: max(g["cpu_gps"] for g in got[k]) for k in trees}},
    ]  # fmt: skip


def study_rows(trees: dict, tmp: Path, args) -> list[dict]:
    """Seconds of the strong study's slice, the checkouts alternating: wall and CPU."""
    got = {k: [] for k in trees}
    cpu = {k: [] for k in trees}
    hashes = set()
    loads = []
    for r in range(args.study_rounds):
        for k, tree in trees.items():
            progress(f"{k}: the strong study, {args.study_games} games per pairing, round {r + 1}")
            out = tmp / f"study-{k}-{r}"
            cmd = [str(tree / ".venv" / "bin" / "manoeuvre-sim"), "balance", "--quiet",
                   "--force", "--games-per-pairing", str(args.study_games), "--policies",
                   f"tuned,{args.spec}", "--seed", "1", "--out", str(out)]  # fmt: skip
            _, wall, c = _run(tree, cmd)
            got[k].append(wall)
            cpu[k].append(c)
            loads.append(load())
            hashes.add(store_hash(out / "games.parquet")[0])
    what = f"`balance --games-per-pairing {args.study_games} --policies tuned,{args.spec}`"
    return [
        {"what": what + " (s)", "best": {k: min(got[k]) for k in trees}, "loads": loads,
         "same": len(hashes) == 1, "higher": False},
        {"what": "its CPU time (s)", "best": {k: min(cpu[k]) for k in trees}, "loads": loads,
         "same": len(hashes) == 1, "higher": False},
    ]  # fmt: skip


def report(rows: list[dict], args) -> list[str]:
    L = ["| | before | after | after / before | same games |", "|---|---:|---:|---:|---|"]
    for row in rows:
        b, a = row["best"]["before"], row["best"]["after"]
        ratio = a / b if row["higher"] else b / a
        fmt = "{:,.1f}" if row["higher"] else "{:,.0f}"
        L.append(f"| {row['what']} | {fmt.format(b)} | {fmt.format(a)} | **{ratio:.2f}x** | "
                 f"{'yes' if row['same'] else '**NO**'} |")  # fmt: skip
    loads = [x for row in rows for x in row["loads"]]
    whole = args.study_games >= 200
    part = "the whole study" if whole else "a slice of the study's 200 per pairing"
    runs = "run" if args.study_rounds == 1 else "runs"
    L += [
        "",
        f"Games per second: France vs Russia, {args.games:,} games per run (seed 2), the best of "
        f"{args.rounds} {'run' if args.rounds == 1 else 'runs'} per checkout; the strong study: its command's wall time, the best "
        f"of {args.study_rounds} {runs} per checkout, {args.study_games} games per ordered "
        f"pairing of the 8 base armies and each of the two policies ({args.study_games * 128:,} "
        f"games, {part}). after / before is the speed-up (for the "
        "study, before's seconds over after's). Per CPU second: the games over the process's "
        "CPU time (on 2 threads both threads' time, so it shows the work, not the wait), less "
        "sensitive than the wall clock to other work on the cores. The 1-minute load average "
        "after each run: "
        f"{min(loads):.1f} to {max(loads):.1f}.",
    ]
    if not whole:
        L += [
            "",
            "The study's slice includes the command's fixed start-up (loading the engine, the "
            "armies and the value model), which weighs more in a slice than in the whole study.",
        ]
    return L


def checkouts(ap: Parser, args) -> dict[str, Path]:
    """``{"before": --base (--quick: this checkout), "after": this checkout}``, the base
    checked to have its .venv (else the parser's one-line error)."""
    if args.base is None and not args.quick:
        ap.error("--base DIR is needed (or --quick: this checkout against itself)")
    base = (args.base or ROOT).resolve()
    if not Path(_python(base)).exists():
        ap.error(f"--base {base}: no .venv there (run make setup in it first)")
    return {"before": base, "after": ROOT}


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("--base", type=Path, help="the untouched checkout (--quick: this one)")
    ap.add_argument("--spec", default="search:16:tuned:v2", help="the search player timed")
    ap.add_argument("--opponent", default="tuned", help="its opponent in the games/s rows")
    ap.size("--games", 200, 8, "games per games/s run")
    ap.size("--rounds", 3, 1, "runs per games/s row and checkout (the best kept)")
    ap.size("--study-games", 4, 1, "games per ordered pairing of the strong study's slice")
    ap.size("--study-rounds", 2, 1, "runs of the study's slice per checkout (the best kept)")
    args = ap.parse_args(argv)
    trees = checkouts(ap, args)
    base = trees["before"]
    run = Run(args, ap.name)
    with tempfile.TemporaryDirectory(prefix="bench-search-speed-") as tmp:
        rows = [*games_rows(trees, 1, args), *games_rows(trees, 2, args),
                *study_rows(trees, Path(tmp), args)]  # fmt: skip
    lines = run.header("The value search before and after: games/s and the strong study", extra=[
        f"before = {git_commit(base)} ({os.path.relpath(base, ROOT)}), after = "
        f"{git_commit(ROOT)}; the checkouts "
        "alternate run by run, each run a fresh process on its warm numba cache; only the "
        "ratios, measured in this one run, compare"])  # fmt: skip
    run.write(lines + report(rows, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
