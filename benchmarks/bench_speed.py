"""Issue 13 before and after, in one run: the cold compile (where it goes, per kernel), the
first ``make run`` and games per second (random and the default player, 1 and 2 threads)
of an untouched checkout (``--base``, with its own .venv) against this one. Writes the
section "Before and after" of benchmarks/RESULTS-engine.md.

    git worktree add ../base f1a194b && make -C ../base setup   # the "before" checkout
    .venv/bin/python benchmarks/bench_speed.py --base ../base [--games 20000]

Each checkout compiles into a fresh numba cache directory of its own (``NUMBA_CACHE_DIR``),
so both compiles are cold and neither touches the other's cache; the games-per-second rows
alternate between the two checkouts so that other work on the machine falls on both alike,
and each row checks that both played the same games (equal records).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

HERE = Path(__file__).resolve().parents[1]
SECTION = "## Before and after (issue 13)"

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
t = time.perf_counter()
res = simulate(cfg)
dt = time.perf_counter() - t
print(json.dumps({"gps": games / dt, "turns": float(res.records[:, 3].mean()),
                  "hash": hashlib.sha256(res.records.tobytes()).hexdigest()}))
"""


def _python(tree: Path) -> str:
    return str(tree / ".venv" / "bin" / "python")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(tree: Path, argv: list[str], cache: Path) -> tuple[str, float, float]:
    """stdout, wall seconds and CPU seconds of ``argv`` run in ``tree``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONWARNINGS="ignore")
    env.pop("NUMBA_DISABLE_JIT", None)
    t, c = time.perf_counter(), _cpu()
    out = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    dt, dc = time.perf_counter() - t, _cpu() - c
    if out.returncode != 0:
        sys.exit(f"bench_speed: {' '.join(argv[:3])} in {tree} failed:\n{out.stderr[-3000:]}")
    return out.stdout, dt, dc


def _rev(tree: Path) -> str:
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True,
                         text=True).stdout.strip()  # fmt: skip
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=tree,
                           capture_output=True, text=True).stdout.split()[1::2]  # fmt: skip
    return rev + (f" + uncommitted changes to {', '.join(dirty)}" if dirty else "")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, type=Path, help="the untouched checkout")
    ap.add_argument("--games", type=int, default=20000, help="games per games/s row")
    ap.add_argument("--rounds", type=int, default=3, help="runs per row and checkout (best)")
    args = ap.parse_args()
    base = args.base.resolve()
    if not Path(_python(base)).exists():
        sys.exit(f"--base {base}: no .venv there (run make setup in it first)")
    trees = {"before": base, "after": HERE}
    load0 = os.getloadavg()[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-speed-"))
    caches = {k: tmp / f"numba-{k}" for k in trees}
    compiled, first_run = {}, {}
    for k, tree in trees.items():
        print(f"{k}: cold compile ...", file=sys.stderr, flush=True)
        out, _, cpu = _run(tree, [_python(tree), "-c", COMPILE_SNIPPET], caches[k])
        compiled[k] = json.loads(out.strip().splitlines()[-1]) | {"cpu": cpu}
        # make run's main job on the now-warm cache (after: with its set-up step, which finds
        # the engine compiled); the first make run is the cold compile plus this
        print(f"{k}: make run's job ...", file=sys.stderr, flush=True)
        job = 0.0
        for where in ("manoeuvre_sim/manoeuvre/engine", "manoeuvre_sim/engine"):  # new, old
            if (tree / where / "warmup.py").exists():
                module = where.replace("/", ".") + ".warmup"
                job += _run(tree, [_python(tree), "-m", module, "games"], caches[k])[1]
                break
        cmd = [str(tree / ".venv" / "bin" / "manoeuvre-sim"), "balance", "--quiet", "--force",
               "--out", str(tmp / f"balance-{k}")]  # fmt: skip
        job += _run(tree, cmd, caches[k])[1]
        first_run[k] = (compiled[k]["seconds"], job)
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
            rows.append((pol, threads, best["before"], best["after"], len(hashes) == 1))
    load1 = os.getloadavg()[0]

    L = [
        SECTION,
        "",
        f"Written by `benchmarks/bench_speed.py` on {datetime.date.today()}: before = "
        f"{_rev(base)}, after = {_rev(HERE)}; {platform.machine()}, {os.cpu_count()} logical "
        f"CPUs, SHARED with other work during the run (1-minute load average {load0:.2f} at "
        f"the start, {load1:.2f} at the end), so the absolute figures are slower than on an "
        "idle machine and only the ratios, measured in this one run, compare. Each checkout "
        "compiled cold into a numba cache of its own.",
        "",
        "| | before | after | after / before |",
        "|---|---:|---:|---:|",
    ]
    cb, ca = compiled["before"], compiled["after"]
    L.append(f"| cold compile, engine and default player (s) | {cb['seconds']:.0f} | "
             f"{ca['seconds']:.0f} | {ca['seconds'] / cb['seconds']:.2f} |")  # fmt: skip
    L.append(f"| its CPU time (s): less sensitive to the other work | {cb['cpu']:.0f} | "
             f"{ca['cpu']:.0f} | {ca['cpu'] / cb['cpu']:.2f} |")  # fmt: skip
    L.append(f"| kernel compilations in it | {cb['compiles']} | {ca['compiles']} | "
             f"{ca['compiles'] / cb['compiles']:.2f} |")  # fmt: skip
    fb, fa = sum(first_run["before"]), sum(first_run["after"])
    L.append(f"| first `make run` after set-up: compile + the balance job (s) | "
             f"{first_run['before'][0]:.0f} + {first_run['before'][1]:.0f} = {fb:.0f} | "
             f"{first_run['after'][0]:.0f} + {first_run['after'][1]:.0f} = {fa:.0f} | "
             f"{fa / fb:.2f} |")  # fmt: skip
    for pol, threads, b, a, _same in rows:
        L.append(f"| {pol} vs {pol}, {threads} thread(s), games/s | {b['gps']:,.0f} | "
                 f"{a['gps']:,.0f} | {a['gps'] / b['gps']:.2f} |")  # fmt: skip
    L += [
        "",
        f"Games per second: France vs Russia, {args.games:,} games per row (seed 2), warm "
        f"cache, the best of {args.rounds} runs per checkout, the checkouts alternating run "
        "by run (the best is the run least slowed by the other work). The same games before "
        "and after (equal records) in every run: "
        + ("**yes**." if all(r[4] for r in rows) else "**NO** — "
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
    text = "\n".join(L) + "\n"
    print(text)
    path = HERE / "benchmarks" / "RESULTS-engine.md"
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_search import replace_section  # one way to keep a results section

    replace_section(path, SECTION.removeprefix("## "), text.removeprefix(SECTION))


if __name__ == "__main__":
    main()
