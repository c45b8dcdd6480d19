"""The balance fixer before and after a speed change: the command's time, the same answer.

    python -m benchmarks fix-speed --base ../base [--rounds 2]
    python -m benchmarks fix-speed --quick       # this checkout against itself, a small fix

Issue 41: the designer waits on the fixer, whose every candidate is a what-if. An untouched
checkout (``--base``, with its own .venv) against this one, alternating run by run so that
other work on the machine falls on both alike, each run a fresh process on the checkout's
warm numba cache: the whole command as a designer types it,

    manoeuvre-sim fix --edit France --edit Spain --target 0.45:0.55 --budget 2
        --games-per-look 100 --max-games 400 --confirm-games 200 --threads 2 --seed 1

(the 8 base armies; France's and Spain's single edits and their pairs searched on paired
seeds in looks of 100 games per pairing, then confirmed on fresh ones): its wall and CPU
seconds, the best of ``--rounds`` runs per checkout. Every run must give the same answer:
its tables (errata, trail, frontier, moved, targets, both matrices) and its stores' games
(``check_study_identity.store_hash``) hashed; a row says whether they were.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from benchmarks.bench_search_speed import _run, checkouts
from benchmarks.check_study_identity import store_hash
from benchmarks.common import ROOT, Parser, Run, git_commit, load, progress

NEEDS = "an untouched checkout with its .venv (--base DIR)"

FULL = ["--edit", "France", "--edit", "Spain", "--target", "0.45:0.55", "--budget", "2",
        "--games-per-look", "100", "--max-games", "400", "--confirm-games", "200"]  # fmt: skip
QUICK = ["--armies", "France,Russia,Austria", "--edit", "Austria", "--target", "0.45:0.55",
         "--budget", "1", "--games-per-look", "50", "--max-games", "100",
         "--confirm-games", "100"]  # fmt: skip


def answer_hash(out: Path) -> str:
    """The fix's answer: its tables' bytes and its stores' games (not their timings)."""
    h = hashlib.sha256()
    for f in sorted(out.rglob("*.csv")):
        h.update(f.relative_to(out).as_posix().encode() + f.read_bytes())
    for store in sorted(out.rglob("games.parquet")):
        h.update(store.relative_to(out).as_posix().encode() + store_hash(store)[0].encode())
    return h.hexdigest()[:16]


def fix_rows(trees: dict, tmp: Path, args) -> tuple[list[dict], list[float]]:
    wall = {k: [] for k in trees}
    cpu = {k: [] for k in trees}
    answers, loads = set(), []
    for r in range(args.rounds):
        for k, tree in trees.items():
            progress(f"{k}: the fix, round {r + 1} of {args.rounds}")
            out = tmp / f"fix-{k}-{r}"
            cmd = [str(tree / ".venv" / "bin" / "manoeuvre-sim"), "fix", *args.fix,
                   "--threads", str(args.threads), "--seed", "1", "--out", str(out)]  # fmt: skip
            _, w, c = _run(tree, cmd)
            wall[k].append(w)
            cpu[k].append(c)
            loads.append(load())
            answers.add(answer_hash(out))
    same = len(answers) == 1
    return [
        {"what": "the fix's wall time (s)", "best": {k: min(v) for k, v in wall.items()},
         "runs": wall, "same": same},
        {"what": "its CPU time (s)", "best": {k: min(v) for k, v in cpu.items()}, "runs": cpu,
         "same": same},
    ], loads  # fmt: skip


def report(rows: list[dict], loads: list[float], args) -> list[str]:
    L = ["| | before | after | before / after | every run's seconds (before; after) | same answer |",
         "|---|---:|---:|---:|---|---|"]  # fmt: skip
    for row in rows:
        b, a = row["best"]["before"], row["best"]["after"]
        runs = "; ".join(", ".join(f"{x:.0f}" for x in row["runs"][k]) for k in ("before", "after"))
        L.append(f"| {row['what']} | {b:,.0f} | {a:,.0f} | **{b / a:.2f}x** | {runs} | "
                 f"{'yes' if row['same'] else '**NO**'} |")  # fmt: skip
    L += [
        "",
        f"The command: `manoeuvre-sim fix {' '.join(args.fix)} --threads {args.threads} --seed 1`"
        f"; the best of {args.rounds} run(s) per checkout, the checkouts alternating; before / "
        "after is the speed-up. CPU time: the process's, both threads'. The 1-minute load "
        f"average after each run: {min(loads):.1f} to {max(loads):.1f}.",
    ]
    return L


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.add_argument("--base", type=Path, help="the untouched checkout (--quick: this one)")
    ap.size("--rounds", 2, 1, "runs per checkout (the best kept)")
    ap.size("--threads", 2, 2, "the fix's --threads")
    args = ap.parse_args(argv)
    args.fix = QUICK if args.quick else FULL
    trees = checkouts(ap, args)
    base = trees["before"]
    run = Run(args, ap.name)
    with tempfile.TemporaryDirectory(prefix="bench-fix-speed-") as tmp:
        rows, loads = fix_rows(trees, Path(tmp), args)
    lines = run.header("The balance fixer before and after: the command's time", extra=[
        f"before = {git_commit(base)} ({os.path.relpath(base, ROOT)}), after = "
        f"{git_commit(ROOT)}; the checkouts alternate run by run, each run a fresh process on "
        "its warm numba cache; only the ratios, measured in this one run, compare"])  # fmt: skip
    run.write(lines + report(rows, loads, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
