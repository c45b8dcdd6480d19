"""The same records before and after a restructuring of the study layer (issue 25).

Runs small studies through the command line and the Python API and prints one hash per
output: the game records (the study store read back, sorted; hashed on their values and
column types, not the Parquet bytes, whose metadata holds the manifest with its times) and
every CSV table (their bytes). Run it on the old code, keep the JSON, run it on the new code
and compare::

    python -m benchmarks.check_study_identity --work /tmp/before > before.json
    python -m benchmarks.check_study_identity --work /tmp/after --old-store /tmp/before \
        > after.json
    diff before.json after.json

(from the repository root; on an older checkout without the package, the same script by
its path: ``python benchmarks/check_study_identity.py ...``).

``--old-store DIR``: also resume, with this code, the interrupted balance store the old code
left in ``DIR/balance-stopped`` (a store written before the change must resume as before).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

ARMIES = "France,Russia,Austria"


def frame_hash(df: pd.DataFrame) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([(c, str(t)) for c, t in df.dtypes.items()]).encode())
    h.update(pd.util.hash_pandas_object(df, index=False).values.tobytes())
    return h.hexdigest()[:16]


def store_hash(store: Path) -> tuple[str, int]:
    from manoeuvre_sim.core.store import read_store

    df = read_store(store)
    return frame_hash(df), len(df)


def tables(out: Path, name: str, hashes: dict) -> None:
    for f in sorted(out.glob("*.csv")):
        hashes[f"{name}/{f.name}"] = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
    if (out / "games.parquet").is_dir():
        h, n = store_hash(out / "games.parquet")
        hashes[f"{name}/games.parquet ({n} records)"] = h
    for f in sorted((out / "card_stats").glob("*.npz")) if (out / "card_stats").is_dir() else []:
        import numpy as np

        hashes[f"{name}/card_stats/{f.name}"] = hashlib.sha256(
            np.load(f)["cs"].tobytes()
        ).hexdigest()[:16]


def cli(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "manoeuvre_sim.cli", *args], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip


def balance_spec():
    from manoeuvre_sim.studies import balance as B

    return B.command_spec("manoeuvre", armies=ARMIES, games_per_pairing=50, seed=7, block=20,
                          threads=2)  # fmt: skip


def stop_after(k: int):
    """A progress callback that stops a study (Ctrl-C) at its ``k``-th call, after the
    first k - 1 tasks finished."""
    n = {"calls": 0}

    def stop(done: int, total: int) -> None:
        n["calls"] += 1
        if n["calls"] == k:
            raise KeyboardInterrupt

    return stop


def hex_runs(work: Path, hashes: dict) -> None:
    """Maneuver's studies (issue 31): the variant study with a fixed N and with
    --precision, stopped and resumed; the what-if; simulate; the tournament's games."""
    common = ["--seed", "7", "--threads", "2"]
    cli("hex", "balance", "--borders", "basic,large_blue", "--games-per-pairing", "100",
        "--block", "40", *common, "--quiet", "--out", str(work / "hex-balance"))  # fmt: skip
    tables(work / "hex-balance", "hex-balance", hashes)
    cli("hex", "balance", "--step-losses", "both", "--games-per-pairing", "60", "--block", "30",
        "--precision", "0.1", "--max-games", "300", *common, "--quiet",
        "--out", str(work / "hex-balance-precision"))  # fmt: skip
    tables(work / "hex-balance-precision", "hex-balance-precision", hashes)

    from manoeuvre_sim.studies import balance as B

    stop = stop_after(3)

    spec = B.command_spec("hex", borders="basic,large_red", games_per_pairing=90, seed=7,
                          block=30, threads=2)  # fmt: skip
    stopped = work / "hex-balance-stopped"
    assert B.run_spec(spec, out_dir=stopped, progress=stop).interrupted
    res = B.run_spec(spec, out_dir=stopped, resume=True)
    assert not res.interrupted
    hashes["hex-balance-resumed/games.parquet"] = store_hash(stopped / "games.parquet")[0]
    cli("hex", "whatif", "--set", "blue/infantry/strength=5", "--games-per-pairing", "60",
        "--block", "25", *common, "--quiet", "--out", str(work / "hex-whatif"))  # fmt: skip
    tables(work / "hex-whatif", "hex-whatif", hashes)
    out = work / "hex-simulate.parquet"
    cli("hex", "simulate", "--games", "120", "--block", "50", "--step-losses", *common,
        "--quiet", "--out", str(out))  # fmt: skip
    hashes["hex-simulate.parquet"] = frame_hash(pd.read_parquet(out))
    out = work / "hex-tournament.parquet"
    cli("hex", "tournament", "--policies", "random,capital,attrition", "--games", "40",
        *common, "--out", str(out))  # fmt: skip
    hashes["hex-tournament.parquet"] = frame_hash(pd.read_parquet(out))
    # Maneuver's own kinds (issue 39): the handicap ladder and the set-up map
    cli("hex", "ladder", "--games", "40", "--max-k", "2", "--block", "20", *common, "--quiet",
        "--out", str(work / "hex-ladder"))  # fmt: skip
    tables(work / "hex-ladder", "hex-ladder", hashes)
    cli("hex", "setup", "--games", "200", "--block", "70", *common, "--quiet",
        "--out", str(work / "hex-setup"))  # fmt: skip
    tables(work / "hex-setup", "hex-setup", hashes)


def more_runs(work: Path, hashes: dict, default_run: bool) -> None:
    """Issue 39: the fixer's tables and its two stores, the card study's neglect pages'
    tables, and (``--default-run``) the records of the README's default study."""
    common = ["--seed", "7", "--threads", "2", "--quiet"]
    cli("fix", "--armies", "France,Russia,Austria", "--edit", "Austria", "--army", "Austria",
        "--target", "0.45:0.55", "--budget", "1", "--games-per-look", "40", "--max-games",
        "80", "--confirm-games", "60", *common, "--out", str(work / "fix"))  # fmt: skip
    for f in sorted((work / "fix").rglob("*.csv")):
        hashes[f"fix/{f.relative_to(work / 'fix')}"] = hashlib.sha256(
            f.read_bytes()).hexdigest()[:16]  # fmt: skip
    for store in sorted((work / "fix").rglob("games.parquet")):
        h, n = store_hash(store)
        hashes[f"fix/{store.relative_to(work / 'fix')} ({n} records)"] = h
    if default_run:
        cli("balance", "--out", str(work / "default"), "--force", "--quiet")
        tables(work / "default", "default", hashes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.check_study_identity",
                                 description=__doc__.splitlines()[0])  # fmt: skip
    ap.add_argument("--work", required=True, type=Path, help="a scratch directory (emptied)")
    ap.add_argument("--old-store", type=Path,
                    help="the --work of a run of the old code: resume its stopped store")  # fmt: skip
    ap.add_argument("--default-run", action="store_true",
                    help="also the README's default balance study (64,000 games)")  # fmt: skip
    a = ap.parse_args(argv)
    work = a.work
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    hashes: dict[str, str] = {}

    # balance: 3 armies, 50 games a pairing in tasks of 20, two threads
    common = ["--seed", "7", "--threads", "2", "--quiet"]
    cli("balance", "--armies", ARMIES, "--games-per-pairing", "50", "--block", "20",
        *common, "--out", str(work / "balance"))  # fmt: skip
    tables(work / "balance", "balance", hashes)

    # the same study stopped after 4 tasks (kept for --old-store), then resumed
    from manoeuvre_sim.studies import balance as B

    stop = stop_after(4)

    stopped = work / "balance-stopped"
    assert B.run_spec(balance_spec(), out_dir=stopped, boot=0, progress=stop).interrupted
    shutil.copytree(stopped, work / "balance-resumed")
    res = B.run_spec(balance_spec(), out_dir=work / "balance-resumed", boot=0, resume=True)
    assert not res.interrupted
    hashes["balance-resumed/games.parquet"] = store_hash(work / "balance-resumed/games.parquet")[0]
    if a.old_store is not None:
        shutil.copytree(a.old_store / "balance-stopped", work / "balance-old-resumed")
        res = B.run_spec(balance_spec(), out_dir=work / "balance-old-resumed", boot=0,
                         resume=True)  # fmt: skip
        assert not res.interrupted
        h = store_hash(work / "balance-old-resumed/games.parquet")[0]
        print(f"old store resumed by this code: {h}", file=sys.stderr)

    # what-if: one edit, paired with the base games
    cli("whatif", "--armies", ARMIES, "--games-per-pairing", "30",
        "--set", "France/Garde Imperial/full=6", *common, "--out", str(work / "whatif"))  # fmt: skip
    tables(work / "whatif", "whatif", hashes)

    # cards: observed (card statistics beside the store) and an ablation
    cli("cards", "--army", "France", "--against", "Russia", "--games-per-variant", "20", "--mode", "both",
        "--block", "7", "--replace", "Supply=blank", *common, "--out", str(work / "cards"))  # fmt: skip
    tables(work / "cards", "cards", hashes)

    # simulate through tasks, with the card bits
    out = work / "simulate.parquet"
    cli("simulate", "--army-a", "Russia", "--army-b", "Austria", "--games", "30", "--seed", "9",
        "--block", "8", "--threads", "2", "--card-bits", "--quiet", "--out", str(out))  # fmt: skip
    hashes["simulate.parquet"] = frame_hash(pd.read_parquet(out))

    # a tournament (style parameter vectors in the pairings) through the same tasks
    from manoeuvre_sim.manoeuvre import styles as T
    from manoeuvre_sim.studies import tournament

    styles = {"cautious": T.Policy("cautious", "balanced", tuple(
        x * 1.5 for x in T.builtin_policies()["balanced"].params))}  # fmt: skip
    res = tournament.run("manoeuvre", T.resolve(["balanced", "cautious"], styles), 16, 2,
                         sides=["France"], threads=2)  # fmt: skip
    hashes["tournament frame"] = frame_hash(res.frame)

    # balance with --precision: rounds of tasks until the cells' intervals are narrow enough
    cli("balance", "--armies", ARMIES, "--games-per-pairing", "40", "--block", "20",
        "--precision", "0.12", "--max-games", "160", *common,
        "--out", str(work / "balance-precision"))  # fmt: skip
    tables(work / "balance-precision", "balance-precision", hashes)

    hex_runs(work, hashes)
    more_runs(work, hashes, a.default_run)
    json.dump(hashes, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
