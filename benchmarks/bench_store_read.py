"""Reading a study's store back: read_store, compare's records, the pages' pairing index and study page.

Plays the balance study of the 8 built-in armies (``--games`` per ordered pairing: 64
pairings, mirrors included, one Parquet part per block) once, then times, in a fresh
process of each tree (this one and, with ``--base DIR``, a checkout with its own .venv),
alternated round by round: ``core.store.read_store`` (every record, sorted), compare's
``read_records`` (the columns compared), the workbench's ``study_files.pairing_index`` (its
cache cleared), each the best of ``--repeat``, and the first view of the study's page and of
the studies list in a workbench (Starlette's TestClient, no job worker; a later view is
served from the pages' caches).

    python -m benchmarks store-read [--quick] [--games N] [--rounds N] [--base DIR]

A benchmark, not a test: the figures depend on the machine and are recorded, not asserted.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, Parser, Run, load, progress

# run in each tree's own interpreter, from its directory: the seconds of each read
PROBE = r"""
import json, sys, time
from pathlib import Path
study, repeat = Path(sys.argv[1]), int(sys.argv[2])
from manoeuvre_sim.core.store import read_store
from analyses.common import compare, study_files
from starlette.testclient import TestClient
from manoeuvre_sim.web.app import create_app

def best(fn):
    out = float("inf")
    for _ in range(repeat):
        t = time.perf_counter(); fn(); out = min(out, time.perf_counter() - t)
    return out

def once(fn):  # a page's first view: later ones are served from the pages' caches
    t = time.perf_counter(); fn(); return time.perf_counter() - t

def index():
    study_files._index.cache_clear()
    study_files.pairing_index(study)

def page():
    client = TestClient(create_app(study.parent, run_jobs=False), base_url="http://127.0.0.1")
    assert client.get("/study", params={"dir": study.name}).status_code == 200

def studies():
    client = TestClient(create_app(study.parent, run_jobs=False), base_url="http://127.0.0.1")
    assert client.get("/studies").status_code == 200

print(json.dumps({"read_store": best(lambda: read_store(study / "games.parquet")),
                  "compare": best(lambda: compare.read_records(study, "--a")),
                  "pairing index": best(index), "study page": once(page),
                  "studies list": once(studies)}))
"""
READS = ("read_store", "compare", "pairing index", "study page", "studies list")


def probe(tree: Path, study: Path, repeat: int) -> dict:
    python = tree / ".venv" / "bin" / "python"
    out = subprocess.run([str(python), "-c", PROBE, str(study), str(repeat)], cwd=tree,
                         capture_output=True, text=True)  # fmt: skip
    if out.returncode:
        raise SystemExit(f"{tree}: the probe failed: {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 1000, 50, "games per ordered pairing of the study read")
    ap.size("--rounds", 3, 1, "rounds, the trees alternated")
    ap.size("--repeat", 3, 1, "reads per figure in a round (the best kept)")
    ap.add_argument("--base", type=Path, help="a checkout with its own .venv, timed alike")
    args = ap.parse_args(argv)
    trees = [("this tree", ROOT)]
    if args.base is not None:
        base = args.base.resolve()
        if not (base / ".venv" / "bin" / "python").is_file():
            ap.error(f"--base {args.base}: no .venv there (make setup in it)")
        trees.append((f"--base {base.name}", base))
    run = Run(args, ap.name)
    scratch = Path(tempfile.mkdtemp(prefix="bench-store-read-"))
    got = {name: [] for name, _ in trees}
    rows = []
    try:
        from manoeuvre_sim.studies import balance as B

        progress(f"the study: 8 armies, {args.games} games per ordered pairing ...")
        study = scratch / "balance"
        spec = B.command_spec("manoeuvre", games_per_pairing=args.games, seed=100)
        t = time.perf_counter()
        B.run_spec(spec, out_dir=study).write(study)
        t_study = time.perf_counter() - t
        parts = len(list((study / "games.parquet").glob("*.parquet")))
        for k in range(args.rounds):
            for name, tree in trees if k % 2 == 0 else trees[::-1]:
                progress(f"round {k + 1}/{args.rounds}: {name}")
                l0 = load()
                r = probe(tree, study, args.repeat)
                got[name].append(r)
                rows.append(f"| {k + 1} | {name} | " + " | ".join(f"{r[x]:.3f}" for x in READS)
                            + f" | {l0:.1f} |")  # fmt: skip
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    med = {n: {x: statistics.median(r[x] for r in rs) for x in READS} for n, rs in got.items()}
    lines = run.header(
        "Study store reading benchmark",
        extra=[f"the study: the balance study of the 8 built-in armies, {args.games:,} games "
               f"per ordered pairing (64 pairings, {64 * args.games:,} records in {parts} "
               f"parts), played by this benchmark in {t_study:.0f} s; each read the best "
               f"of {args.repeat} in a fresh process of its tree, each page its first view",
               "**the figures are under load** (the load column): compare the trees within "
               "this file"],
    ) + [
        "Seconds of each read.", "",
        "| round | tree | " + " | ".join(READS) + " | load |",
        "|---|---|" + "---|" * len(READS) + "---|",
        *rows, "",
    ]  # fmt: skip
    if len(trees) == 2:
        (a, _), (b, _) = trees
        lines += ["Medians, this tree against the --base tree: " + "; ".join(
            f"{x} {med[a][x]:.3f} s v {med[b][x]:.3f} s ({med[b][x] / med[a][x]:.1f}x)"
            for x in READS) + "."]  # fmt: skip
    run.write(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
