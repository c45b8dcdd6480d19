"""Maneuver's engine benchmark (issue 24): a million random games with the invariants
checked, games per second per player on 1 and 2 threads, and the ladder of the players.
Writes benchmarks/RESULTS-hex-engine.md (keeping its "Before and after" section).

    .venv/bin/python benchmarks/bench_hex.py [--invariant-games N] [--games N] [--ladder N]
    .venv/bin/python benchmarks/bench_hex.py --speed-only [--games N]  # the games/s table only

    # before and after a speed change, in one run (writes the section "Before and after"):
    mkdir /tmp/base && git archive <commit> manoeuvre_sim | tar -x -C /tmp/base
    .venv/bin/python benchmarks/bench_hex.py --base /tmp/base --base-rev <commit> [--reps N]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_search import replace_section  # the one way to rewrite a results section

from manoeuvre_sim.core.fileio import atomic_write

PAIRS = (
    ("random", "random"),
    ("capital", "capital"),
    ("attrition", "attrition"),
    ("capital", "random"),
    ("capital", "attrition"),
)
KEEP_SECTIONS = ("Before and after",)
RESULTS = Path(__file__).with_name("RESULTS-hex-engine.md")
SEED = 20261124

COLD = """
import time
t = time.perf_counter()
from manoeuvre_sim.hexgame import batch as BT, scenario as SC, state as S
from manoeuvre_sim.hexgame.players import policy_arrays
pol, params = policy_arrays("capital", "capital")
BT.play_games(1, 0, 4, SC.pack(SC.load_scenario()), S.default_options(), pol, params, 1)
print(time.perf_counter() - t)
"""


def cold_compile() -> float:
    """Seconds to import and compile the engine and the players into an empty cache."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d, PYTHONWARNINGS="ignore")
        out = subprocess.run(
            [sys.executable, "-c", COLD], capture_output=True, text=True, env=env, check=True
        )
    return float(out.stdout.strip().splitlines()[-1])


def speed(sc, games, reps=3):
    """``[(blue, red, threads, best games/s, mean game turns, 1-minute load average), ...]``
    (the load average read after the row's runs)."""
    from manoeuvre_sim.hexgame import batch as BT
    from manoeuvre_sim.hexgame import scenario as SC
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.players import policy_arrays

    packed = SC.pack(sc)
    opt = S.default_options()
    rows = []
    for a, b in PAIRS:
        pol, params = policy_arrays(a, b)
        BT.play_games(1, 0, 64, packed, opt, pol, params, 2)  # compiled and warm
        for threads in (1, 2):
            best, turns = 0.0, 0.0
            for _ in range(reps):
                t = time.perf_counter()
                r = BT.play_games(2, 0, games, packed, opt, pol, params, threads)
                best = max(best, games / (time.perf_counter() - t))
                turns = float(r[:, BT.R_TURNS].mean())
            rows.append((a, b, threads, best, turns, os.getloadavg()[0]))
    return rows


def invariants(sc, n_per):
    from manoeuvre_sim.hexgame import batch as BT
    from manoeuvre_sim.hexgame import state as S

    t = time.perf_counter()
    runs = BT.invariant_run(sc, SEED, n_per, threads=2)
    secs = time.perf_counter() - t
    rows = []
    for border, kw, r in runs:
        won = r[:, BT.R_WINNER] < 2
        end_bad = np.where(
            won,
            (r[:, BT.R_VICTORY] != S.VIC_CAPITAL) | (r[:, BT.R_TURNS] > 10),
            (r[:, BT.R_VICTORY] != S.VIC_DRAW) | (r[:, BT.R_TURNS] != 10),
        )
        opts = ", ".join(f"{k}={v}" for k, v in kw.items()) or "basic rules"
        rows.append(
            (border, opts, len(r), int((r[:, BT.R_VIOLATIONS] != 0).sum()), int(end_bad.sum()),
             int(won.sum()), int(r[:, BT.R_ELIM:BT.R_ELIM + 2].sum()),
             int(r[:, BT.R_REPL:BT.R_REPL + 2].sum()))
        )  # fmt: skip
    return rows, secs


def ladder(games):
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    res = CliRunner().invoke(
        cli, ["hex", "tournament", "--games", str(games), "--seed", "1", "--threads", "2",
              "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout[res.stdout.index("{") :])["pairs"]


SPEED_SNIPPET = """
import hashlib, json, sys, time
from manoeuvre_sim.hexgame import batch as BT, scenario as SC, state as S
from manoeuvre_sim.hexgame.players import policy_arrays
packed = SC.pack(SC.load_scenario())
opt = S.default_options()
out = {}
for a, b in (("capital", "capital"), ("random", "random"), ("attrition", "attrition")):
    pol, params = policy_arrays(a, b)
    BT.play_games(1, 0, 64, packed, opt, pol, params, 2)
    for th in (1, 2):
        t = time.perf_counter()
        r = BT.play_games(2, 0, GAMES, packed, opt, pol, params, th)
        out[f"{a} vs {b}, {th} thread(s)"] = [GAMES / (time.perf_counter() - t),
                                               hashlib.sha256(r.tobytes()).hexdigest()]
print(__import__("manoeuvre_sim").__file__)
print(json.dumps(out))
"""


def before_after(base: str, games: int, reps: int = 3) -> list[str]:
    """Games per second of the package in ``base`` (a source tree holding the "before"
    ``manoeuvre_sim``, e.g. ``git archive <commit> manoeuvre_sim | tar -x -C DIR``) and of
    this one, the two alternating run by run; the best of ``reps`` each, and whether both
    played the same games (equal records)."""
    here = str(Path(__file__).resolve().parents[1])
    best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    same = True
    for _ in range(reps):
        runs = {}
        for label, tree in (("before", base), ("after", here)):
            env = dict(os.environ, PYTHONPATH=tree, PYTHONWARNINGS="ignore")
            res = subprocess.run(
                [sys.executable, "-c", SPEED_SNIPPET.replace("GAMES", str(games))],
                capture_output=True, text=True, env=env, check=True, cwd=tree,
            )  # fmt: skip
            where, doc = res.stdout.strip().splitlines()[-2:]
            assert where.startswith(tree), (label, where)
            runs[label] = json.loads(doc)
            for k, (gps, _) in runs[label].items():
                best[label][k] = max(best[label].get(k, 0.0), gps)
        same &= all(runs["before"][k][1] == runs["after"][k][1] for k in runs["after"])
    lines = [
        "| | before | after | after / before |",
        "|---|---:|---:|---:|",
    ]
    for k, after in best["after"].items():
        b = best["before"][k]
        lines.append(f"| {k}, games/s | {b:,.0f} | {after:,.0f} | {after / b:.2f} |")
    lines += ["", f"The same games before and after (equal records) in every run: "
              f"**{'yes' if same else 'NO'}**."]  # fmt: skip
    return lines


def write_before_after(args) -> None:
    """``--base``: only the section "Before and after" of the results file."""
    load0 = os.getloadavg()[0]
    table = before_after(args.base, args.games, args.reps)
    load1 = os.getloadavg()[0]
    rev = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    section = [
        f"Written by `.venv/bin/python benchmarks/bench_hex.py --base {args.base} --games "
        f"{args.games} --reps {args.reps}` on {datetime.date.today()}: before = {args.base_rev or args.base}, "
        f"after = {rev}; {os.cpu_count()} logical CPUs, SHARED with other work during the run "
        f"(1-minute load average {load0:.2f} at the start, {load1:.2f} at the end), so only the "
        f"ratios, measured in this one run, compare. Basic border and rules, {args.games:,} "
        f"games per row (seed 2), warm caches, the best of {args.reps} runs per checkout, the "
        "checkouts "
        "alternating run by run.",
        "",
        *table,
    ]
    replace_section(RESULTS, "Before and after (issue 24)", "\n".join(section))
    print("\n".join(section))


def speed_section(sp, games, t_speed, cold) -> list[str]:
    """The section "Games per second per player" (ending with an empty line)."""
    lines = [
        "## Games per second per player",
        "",
        f"Basic border, basic rules, no trace, no checks; {games:,} games per run (seed "
        "2), the best of 3 runs per row (the run least slowed by the other work), the "
        f"1-minute load average after the row; {t_speed:.0f} s for the table."
        + (
            f" Cold compile (import, then compile the engine and the capital player into an "
            f"empty numba cache, one process): {cold:.0f} s."
            if cold is not None
            else ""
        ),
        "",
        "| blue | red | threads | games/s | mean game turns | load |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for a, b, th, gps, turns, load in sp:
        lines.append(f"| {a} | {b} | {th} | {gps:,.0f} | {turns:.2f} | {load:.2f} |")
    cap = {th: g for a, b, th, g, _, _ in sp if a == b == "capital"}
    lines += [
        "",
        f"Goal (issue 24): the default scripted player (capital vs capital) at 20,000 games/s "
        f"on 2 threads — measured {cap[2]:,.0f} ({cap[2] / 20_000:.0%} of it; "
        f"{cap[1]:,.0f} on 1 thread): " + ("**met**." if cap[2] >= 20_000 else "**not met**."),
        "",
    ]
    return lines


def write_speed_only(args) -> None:
    """``--speed-only``: the section "Games per second per player" of the results file
    measured again, the other sections kept."""
    from manoeuvre_sim.hexgame import scenario as SC

    cold = None if args.skip_cold else cold_compile()
    t = time.perf_counter()
    sp = speed(SC.load_scenario(), args.games)
    section = speed_section(sp, args.games, time.perf_counter() - t, cold)
    rev = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    note = (
        f"(Section measured again by `.venv/bin/python benchmarks/bench_hex.py --speed-only "
        f"--games {args.games}` on {datetime.date.today()} at commit {rev}, "
        f"{os.cpu_count()} logical CPUs shared with other work.)"
    )
    replace_section(RESULTS, section[0].removeprefix("## "), "\n".join([note, "", *section[2:]]))
    print("\n".join(section))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--invariant-games", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=10_000, help="games per speed row and run")
    ap.add_argument("--ladder", type=int, default=2_000, help="games per pair and seating")
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--base", help="a source tree of the 'before' package: compare speeds only")
    ap.add_argument("--base-rev", default="", help="the commit --base was exported from")
    ap.add_argument("--reps", type=int, default=3, help="--base: runs per checkout")
    ap.add_argument(
        "--speed-only", action="store_true", help="measure the games/s section only, keep the rest"
    )
    args = ap.parse_args()
    if args.base:
        write_before_after(args)
        return
    if args.speed_only:
        write_speed_only(args)
        return
    import numba

    from manoeuvre_sim import __version__
    from manoeuvre_sim.hexgame import RULES_VERSION
    from manoeuvre_sim.hexgame import batch as BT
    from manoeuvre_sim.hexgame import scenario as SC

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    sc = SC.load_scenario()
    load0 = os.getloadavg()[0]
    cold = None if args.skip_cold else cold_compile()
    t_speed = time.perf_counter()
    sp = speed(sc, args.games)
    t_speed = time.perf_counter() - t_speed
    n_per = args.invariant_games // len(BT.INVARIANT_SPREAD)
    inv, inv_secs = invariants(sc, n_per)
    lad = ladder(args.ladder)
    load1 = os.getloadavg()[0]
    cmd = (
        f"`.venv/bin/python benchmarks/bench_hex.py --invariant-games {args.invariant_games} "
        f"--games {args.games} --ladder {args.ladder}`"
    )
    lines = [
        "# Maneuver engine benchmark",
        "",
        f"Written by {cmd} on {datetime.date.today()} at commit {commit}: manoeuvre-sim "
        f"{__version__} (Maneuver rules {RULES_VERSION}), numba {numba.__version__}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"scenario {sc.name} (sha256 {sc.sha256[:16]}...). The machine was SHARED with other "
        f"work during the run (1-minute load average {load0:.2f} at the start, {load1:.2f} at "
        "the end): the absolute figures are slower than on an idle machine, and only figures "
        "measured in this one run compare (as ratios).",
        "",
        "## Invariants over random games",
        "",
        f"Random players on both seats, {n_per * len(inv):,} games ({n_per:,} per row, master "
        f"seed {SEED}; row k plays game indices k x {n_per:,} ..., so a violating game can be "
        "replayed alone with `batch.play_one`), 2 threads, `default_options(check=1)`: after "
        "every phase and at the end (`hexgame/checks.py`) the stacking limit (rule [6]), no "
        "hex holding units of both sides (a captured Capital aside), the Capital on its set-up "
        "hex (rule [11]), unit conservation (every unit on the map or in the dead pile, the "
        "dead pile = eliminations - returns, rule [10]), and the end by rule [12]; the "
        "records checked again (a Capital victory within 10 game turns or a draw after the "
        f"10th). {n_per * len(inv):,} games in {inv_secs:.0f} s "
        f"({n_per * len(inv) / inv_secs:,.0f} games/s with the checks).",
        "",
        "| border | options | games | games with a violation | ends not by the rules "
        "| capital victories | units eliminated | replacements |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for border, opts, n, bad, endbad, won, elim, repl in inv:
        lines.append(
            f"| {border} | {opts} | {n:,} | {bad} | {endbad} | {won:,} | {elim:,} | {repl:,} |"
        )
    total_bad = sum(r[3] + r[4] for r in inv)
    lines += [
        "",
        f"Violations in all: **{total_bad}**.",
        "",
        *speed_section(sp, args.games, t_speed, cold),
        "## The ladder",
        "",
        f"`manoeuvre-sim hex tournament --games {args.ladder} --seed 1 --threads 2` (basic "
        "border and rules): each pair of players, each player once blue and once red "
        f"({args.ladder:,} games each), a's score (a win 1, a draw 1/2) with its 95% Wilson "
        "interval.",
        "",
        "| a | b | games | a won | b won | draws | a score | 95% interval |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for p in lad:
        lo, hi = p["ci95"]
        lines.append(
            f"| {p['a']} | {p['b']} | {p['games']:,} | {p['a_wins']:,} | {p['b_wins']:,} | "
            f"{p['draws']:,} | {p['a_score']:.3f} | {lo:.3f}-{hi:.3f} |"
        )
    kept = ""
    if RESULTS.exists():
        old = RESULTS.read_text(encoding="utf-8")
        i = old.find("\n## ")
        while i >= 0 and not old[i + 4 :].startswith(KEEP_SECTIONS):
            i = old.find("\n## ", i + 1)
        kept = old[i:] if i >= 0 else ""
    with atomic_write(RESULTS, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n" + kept)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
