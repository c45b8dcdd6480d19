"""Maneuver's engine: a million checked random games, games/s per player, the cold compile, the ladder.

    python -m benchmarks hex [--quick] [--invariant-games N] [--games N] [--ladder N] [--cold 0]
    python -m benchmarks hex --speed-only [--games N]    # the games/s table alone

    # before and after a speed change, in one run (benchmarks/RESULTS-hex-speed.md):
    mkdir /tmp/base && git archive <commit> manoeuvre_sim | tar -x -C /tmp/base
    python -m benchmarks hex --base /tmp/base --base-rev <commit> [--games N] [--reps N]

Issue 24. Writes benchmarks/RESULTS-hex-engine.md: random players on both seats over every
border line and advanced-rule option with the invariants checked after every phase
(``hexgame/checks.py``: the stacking limit, rule [6]; no hex holding units of both sides, a
captured Capital aside; the Capital on its set-up hex, rule [11]; unit conservation, rule
[10]; the end by rule [12]) and the records checked again; games per second per pair of
players on 1 and 2 threads (the best of 3 runs, the load beside each row) and the cold
compile of the engine and the default player into an empty numba cache; the
``manoeuvre-sim hex tournament`` ladder with 95 % intervals. A part given 0 games (or
``--cold 0``) is left out. Goal (issue 24): the default player (capital vs capital) at
20,000 games/s on 2 threads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from benchmarks.common import BENCH_DIR, ROOT, Parser, Run, git_commit

PAIRS = (
    ("random", "random"),
    ("capital", "capital"),
    ("attrition", "attrition"),
    ("capital", "random"),
    ("capital", "attrition"),
)
RESULTS = BENCH_DIR / "RESULTS-hex-engine.md"
SPEED_RESULTS = BENCH_DIR / "RESULTS-hex-speed.md"
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
    here = str(ROOT)
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


def before_after_lines(args) -> list[str]:
    """``--base``: the games/s of the package in ``--base`` against this one."""
    table = before_after(str(args.base), args.games, args.reps)
    return [
        f"Before = {args.base_rev or args.base}, after = {git_commit()}. Basic border and "
        f"rules, {args.games:,} games per row (seed 2), warm caches, the best of {args.reps} "
        "runs per checkout, the checkouts alternating run by run: only the ratios, measured "
        "in this one run, compare.",
        "",
        *table,
    ]


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


def invariant_lines(sc, n_per: int) -> list[str]:
    inv, inv_secs = invariants(sc, n_per)
    n = n_per * len(inv)
    lines = [
        "## Invariants over random games",
        "",
        f"Random players on both seats, {n:,} games ({n_per:,} per row, master seed {SEED}; "
        f"row k plays game indices k x {n_per:,} ..., so a violating game can be replayed "
        "alone with `batch.play_one`), 2 threads, `default_options(check=1)`: after every "
        "phase and at the end (`hexgame/checks.py`) the stacking limit (rule [6]), no hex "
        "holding units of both sides (a captured Capital aside), the Capital on its set-up "
        "hex (rule [11]), unit conservation (every unit on the map or in the dead pile, the "
        "dead pile = eliminations - returns, rule [10]), and the end by rule [12]; the "
        "records checked again (a Capital victory within 10 game turns or a draw after the "
        f"10th). {n:,} games in {inv_secs:.0f} s ({n / inv_secs:,.0f} games/s with the checks).",
        "",
        "| border | options | games | games with a violation | ends not by the rules "
        "| capital victories | units eliminated | replacements |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for border, opts, k, bad, endbad, won, elim, repl in inv:
        lines.append(
            f"| {border} | {opts} | {k:,} | {bad} | {endbad} | {won:,} | {elim:,} | {repl:,} |"
        )
    total_bad = sum(r[3] + r[4] for r in inv)
    return lines + ["", f"Violations in all: **{total_bad}**.", ""]


def ladder_lines(games: int) -> list[str]:
    lines = [
        "## The ladder",
        "",
        f"`manoeuvre-sim hex tournament --games {games} --seed 1 --threads 2` (basic border "
        "and rules): each pair of players, each player once blue and once red "
        f"({games:,} games each), a's score (a win 1, a draw 1/2) with its 95% Wilson "
        "interval.",
        "",
        "| a | b | games | a won | b won | draws | a score | 95% interval |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for p in ladder(games):
        lo, hi = p["ci95"]
        lines.append(
            f"| {p['a']} | {p['b']} | {p['games']:,} | {p['a_wins']:,} | {p['b_wins']:,} | "
            f"{p['draws']:,} | {p['a_score']:.3f} | {lo:.3f}-{hi:.3f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--invariant-games", 1_000_000, 16_000, "checked random games in all (0: none)")
    ap.size("--games", 10_000, 1_000, "games per speed row and run (0: no speed table)")
    ap.size("--ladder", 2_000, 100, "ladder games per pair and seating (0: no ladder)")
    ap.size("--cold", 1, 0, "1: time a cold compile into an empty numba cache")
    ap.add_argument("--speed-only", action="store_true",
                    help="the games/s table alone (--invariant-games 0 --ladder 0)")  # fmt: skip
    ap.add_argument("--base", help="a source tree of the 'before' package: compare speeds only")
    ap.add_argument("--base-rev", default="", help="the commit --base was exported from")
    ap.add_argument("--reps", type=int, default=3, help="--base: runs per checkout")
    args = ap.parse_args(argv)
    from manoeuvre_sim.hexgame import batch as BT
    from manoeuvre_sim.hexgame import scenario as SC

    run = Run(args, ap.name)
    if args.base:
        lines = run.header("Maneuver before and after: games per second")
        run.write(lines + before_after_lines(args), SPEED_RESULTS)
        return 0
    if args.speed_only:
        args.invariant_games = args.ladder = 0
    sc = SC.load_scenario()
    cold = cold_compile() if args.cold else None
    lines = []
    if args.games:
        t = time.perf_counter()
        sp = speed(sc, args.games)
        lines += speed_section(sp, args.games, time.perf_counter() - t, cold)
    if args.invariant_games:
        lines = invariant_lines(sc, args.invariant_games // len(BT.INVARIANT_SPREAD)) + lines
    if args.ladder:
        lines += ladder_lines(args.ladder)
    head = run.header("Maneuver engine benchmark", extra=[
        f"scenario {sc.name} (sha256 {sc.sha256[:16]}...)"])  # fmt: skip
    run.write(head + lines, RESULTS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
