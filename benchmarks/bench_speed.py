"""Manoeuvre before and after a speed change: the cold compile per kernel, the first make run, games/s.

    git worktree add ../base f1a194b && make -C ../base setup   # the "before" checkout
    python -m benchmarks speed --base ../base [--games 20000] [--rounds 3]
    python -m benchmarks speed --quick      # this checkout against itself, warm caches
    python -m benchmarks speed --base ../base --note "what was tried, measured how"

Issue 13, in one run: the cold compile (where it goes, per kernel), the first ``make run``
and games per second (random and the default player, 1 and 2 threads) of an untouched
checkout (``--base``, with its own .venv) against this one.

Each checkout compiles into a fresh numba cache directory of its own (``NUMBA_CACHE_DIR``),
so both compiles are cold and neither touches the other's cache; the games-per-second rows
alternate between the two checkouts so that other work on the machine falls on both alike,
and each row checks that both played the same games (equal records). A ``--quick`` run
compares this checkout with itself on their usual (warm) numba caches, so its "cold
compile" row is a load from the cache, not a compile. Each ``--note`` adds a bullet to the
file's head: what the run compares, and what was tried and measured on the way (gains and
non-gains).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, Parser, Run, git_commit
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

HERE = ROOT
NEEDS = "an untouched checkout with its .venv (--base DIR)"

# a cold compile of the engine and the default player, as the first run of a command does,
# with numba's compile events (numba.core.event) timed per kernel: "exclusive" is a
# kernel's own compile time (typing, lowering, and optimising and emitting the machine code
# of everything linked into it), without the kernels it compiled on the way
COMPILE_SNIPPET = r"""
import collections, json, time
from numba.core import event as ev
t0 = time.perf_counter()
with ev.install_recorder("numba:compile") as rec:
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
    simulate(SimConfig("France", "Russia", games=2, seed=1, threads=2))
total = time.perf_counter() - t0
stack, excl, count = [], collections.defaultdict(float), collections.Counter()
for ts, e in rec.buffer:
    f = e.data["dispatcher"].py_func
    name = f"{f.__module__.rsplit('.', 1)[-1]}.{f.__name__}"
    if e.is_start:
        stack.append([name, ts, 0.0])
    else:
        nm, t1, child = stack.pop()
        excl[nm] += ts - t1 - child
        count[nm] += 1
        if stack:
            stack[-1][2] += ts - t1
top = sorted(excl.items(), key=lambda kv: -kv[1])[:12]
print(json.dumps({"seconds": total, "compiles": sum(count.values()),
                  "top": [[n, x, count[n]] for n, x in top]}))
"""

GPS_SNIPPET = r"""
import hashlib, json, sys, time
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
pol, threads, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
simulate(SimConfig("France", "Russia", games=64, seed=1, policy_a=pol, policy_b=pol))
cfg = SimConfig("France", "Russia", games=games, seed=2, policy_a=pol, policy_b=pol,
                threads=threads, chunk=4096)
t, c = time.perf_counter(), time.process_time()
res = simulate(cfg)
dt, dc = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"gps": games / dt, "cpu_gps": games / dc,
                  "turns": float(res.records[:, 3].mean()),
                  "hash": hashlib.sha256(res.records.tobytes()).hexdigest()}))
"""


def _python(tree: Path) -> str:
    return str(tree / ".venv" / "bin" / "python")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(tree: Path, argv: list[str], cache: Path | None) -> tuple[str, float, float]:
    """stdout, wall seconds and CPU seconds of ``argv`` run in ``tree`` (numba's cache in
    ``cache``; None: the tree's own)."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    env.pop("NUMBA_DISABLE_JIT", None)
    t, c = time.perf_counter(), _cpu()
    out = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    dt, dc = time.perf_counter() - t, _cpu() - c
    if out.returncode != 0:
        sys.exit(f"bench_speed: {' '.join(argv[:3])} in {tree} failed:\n{out.stderr[-3000:]}")
    return out.stdout, dt, dc


def _rev(tree: Path) -> str:
    return git_commit(tree)


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "–"


def compile_and_first_run(trees: dict, caches: dict, tmp: Path, args) -> tuple[dict, dict]:
    """Per checkout: the cold compile (seconds, compiles, the top kernels, CPU) and the
    first ``make run`` (the compile, then the set-up step and the balance job)."""
    compiled, first_run = {}, {}
    for k, tree in trees.items():
        print(f"{k}: cold compile ...", file=sys.stderr, flush=True)
        out, _, cpu = _run(tree, [_python(tree), "-c", COMPILE_SNIPPET], caches[k])
        compiled[k] = json.loads(out.strip().splitlines()[-1]) | {"cpu": cpu}
        # make run's main job on the now-warm cache (after: with its set-up step, which finds
        # the engine compiled); the first make run is the cold compile plus this
        print(f"{k}: make run's job ...", file=sys.stderr, flush=True)
        job = 0.0
        for where in ("manoeuvre_sim/core", "manoeuvre_sim/manoeuvre/engine",
                      "manoeuvre_sim/engine"):  # today's, then older homes  # fmt: skip
            if (tree / where / "warmup.py").exists():
                module = where.replace("/", ".") + ".warmup"
                job += _run(tree, [_python(tree), "-m", module, "games"], caches[k])[1]
                break
        cmd = [str(tree / ".venv" / "bin" / "manoeuvre-sim"), "balance", "--quiet", "--force",
               "--out", str(tmp / f"balance-{k}")]  # fmt: skip
        if args.balance_games:
            cmd += ["--games-per-pairing", str(args.balance_games)]
        job += _run(tree, cmd, caches[k])[1]
        first_run[k] = (compiled[k]["seconds"], job)
    return compiled, first_run


def games_rows(trees: dict, caches: dict, args) -> list[tuple]:
    """Games per second of random and the default player on 1 and 2 threads, the
    checkouts alternating run by run; the best of each and whether all played alike."""
    rows = []
    for pol in ("random", DEFAULT_POLICY):
        for threads in (1, 2):
            got = {k: [] for k in trees}
            for r in range(args.rounds):
                for k, tree in trees.items():
                    print(f"{k}: {pol} on {threads} thread(s), round {r + 1} ...",
                          file=sys.stderr, flush=True)  # fmt: skip
                    argv = [_python(tree), "-c", GPS_SNIPPET, pol, str(threads), str(args.games)]
                    out = _run(tree, argv, caches[k])[0].strip().splitlines()[-1]
                    got[k].append(json.loads(out))
            hashes = {g["hash"] for k in trees for g in got[k]}
            best = {k: max(got[k], key=lambda g: g["gps"]) for k in trees}
            cpu = {k: max(g["cpu_gps"] for g in got[k]) for k in trees}
            rows.append((pol, threads, best["before"] | {"cpu_gps": cpu["before"]},
                         best["after"] | {"cpu_gps": cpu["after"]}, len(hashes) == 1))  # fmt: skip
    return rows


def report(compiled: dict, first_run: dict, rows: list, args) -> list[str]:
    cb, ca = compiled["before"], compiled["after"]
    L = [
        "| | before | after | after / before |",
        "|---|---:|---:|---:|",
        f"| cold compile, engine and default player (s) | {cb['seconds']:.0f} | "
        f"{ca['seconds']:.0f} | {ratio(ca['seconds'], cb['seconds'])} |",
        f"| its CPU time (s): less sensitive to the other work | {cb['cpu']:.0f} | "
        f"{ca['cpu']:.0f} | {ratio(ca['cpu'], cb['cpu'])} |",
        f"| kernel compilations in it | {cb['compiles']} | {ca['compiles']} | "
        f"{ratio(ca['compiles'], cb['compiles'])} |",
    ]
    (b0, b1), (a0, a1) = first_run["before"], first_run["after"]
    L.append(f"| first `make run` after set-up: compile + the balance job (s) | "
             f"{b0:.0f} + {b1:.0f} = {b0 + b1:.0f} | {a0:.0f} + {a1:.0f} = {a0 + a1:.0f} | "
             f"{ratio(a0 + a1, b0 + b1)} |")  # fmt: skip
    for pol, threads, b, a, _same in rows:
        L.append(f"| {pol} vs {pol}, {threads} thread(s), games/s | {b['gps']:,.0f} | "
                 f"{a['gps']:,.0f} | {ratio(a['gps'], b['gps'])} |")  # fmt: skip
        L.append(f"| {pol} vs {pol}, {threads} thread(s), games per CPU second | "
                 f"{b['cpu_gps']:,.0f} | {a['cpu_gps']:,.0f} | "
                 f"{ratio(a['cpu_gps'], b['cpu_gps'])} |")  # fmt: skip
    same = all(r[4] for r in rows)
    L += [
        "",
        f"Games per second: France vs Russia, {args.games:,} games per row (seed 2), warm "
        f"cache, the best of {args.rounds} runs per checkout, the checkouts alternating run "
        "by run (the best is the run least slowed by the other work). Per CPU second: the "
        "games over the process's CPU time (on 2 threads both threads' time, so it shows the "
        "work, not the wait for the cores), the best of the same runs. The same games before "
        "and after (equal records) in every run: "
        + ("**yes**." if same else "**NO** — "
           + ", ".join(f"{r[0]}/{r[1]}" for r in rows if not r[4]) + " differ."),
        "",
        "Where the cold compile goes: the kernels with the most exclusive compile time "
        "(their own typing, lowering and the optimisation and machine code of everything "
        "linked into them, without the kernels compiled on the way), and how many times each "
        "was compiled:",
        "",
        "| before: kernel | s | times | after: kernel | s | times |",
        "|---|---:|---:|---|---:|---:|",
    ]  # fmt: skip
    for i in range(max(len(cb["top"]), len(ca["top"]))):
        cells = []
        for c in (cb, ca):
            if i < len(c["top"]):
                n, x, k = c["top"][i]
                cells += [f"`{n}`", f"{x:.1f}", str(k)]
            else:
                cells += ["", "", ""]
        L.append("| " + " | ".join(cells) + " |")
    return L


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("--base", type=Path, help="the untouched checkout (--quick: this one)")
    ap.size("--games", 20000, 2000, "games per games/s row")
    ap.size("--rounds", 3, 1, "runs per row and checkout (the best kept)")
    ap.size("--balance-games", 0, 10, "games per pairing of the make run job (0: its default)")
    ap.add_argument("--note", action="append", default=[],
                    help="a line on what the run compares or what was tried (repeatable)")  # fmt: skip
    args = ap.parse_args(argv)
    if args.base is None and not args.quick:
        ap.error("--base DIR is needed (or --quick: this checkout against itself)")
    base = (args.base or HERE).resolve()
    if not Path(_python(base)).exists():
        ap.error(f"--base {base}: no .venv there (run make setup in it first)")
    run = Run(args, ap.name)
    trees = {"before": base, "after": HERE}
    tmp = Path(tempfile.mkdtemp(prefix="bench-speed-"))
    # each checkout compiles cold into a cache of its own; a quick run keeps the usual ones
    caches = {k: None if args.quick else tmp / f"numba-{k}" for k in trees}
    compiled, first_run = compile_and_first_run(trees, caches, tmp, args)
    rows = games_rows(trees, caches, args)
    cold = (
        "on the usual (warm) numba caches" if args.quick else "cold into a numba cache of its own"
    )
    lines = run.header("Before and after: the compile and the speed", extra=[
        f"before = {_rev(base)} ({os.path.relpath(base, HERE)}), after = {_rev(HERE)}; each checkout compiled {cold}; "
        "only the ratios, measured in this one run, compare", *args.note])  # fmt: skip
    run.write(lines + report(compiled, first_run, rows, args))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
