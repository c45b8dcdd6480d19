"""Invariant benchmark: millions of random-legal games with every rule invariant checked.

Plays ``--games`` games (default 1,000,000) with both seats on the random-legal policy
(``--policy`` to change it),
spread evenly over every ordered pair of the built-in armies (each army in both seats,
mirror matches included), with ``check_invariants=True`` (``OPT_CHECK``: after set-up and
after every phase of every player turn the engine checks card conservation, hand size,
one unit per square, no unit on a lake, unit/board agreement, no redoubt without its unit,
a hand of at most 5 after drawing; a violation raises). Each game's record is checked too:
the game ended by attrition or nightfall, attrition means 5 losses on one side, at most 8
losses per side, nightfall scores within the 32 squares of a half, draws only in mirror
matches. A chunk that raises is replayed game by game, so every violating game is named by
its seed and index.

Appends (or replaces) the section "Invariant run" of benchmarks/RESULTS-engine.md.

    .venv/bin/python benchmarks/bench_invariants.py [--games N] [--seed S] [--threads T]
        [--max-seconds SECONDS]

``--max-seconds`` stops at the first chunk boundary after that many seconds (the section
then says how many games were played).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import platform
import re
import sys
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).with_name("RESULTS-engine.md")
SECTION = "## Invariant run"


def record_violations(rec: np.ndarray, mirror: bool) -> np.ndarray:
    """Boolean mask of records breaking an end-of-game invariant (rules 2.1-2.3)."""
    from manoeuvre_sim.manoeuvre.engine import batch as B
    from manoeuvre_sim.manoeuvre.engine import state as S

    att = rec[:, B.R_VICTORY] == S.VICTORY_ATTRITION
    night = rec[:, B.R_VICTORY] == S.VICTORY_NIGHTFALL
    ea, eb = rec[:, B.R_ELIM_A], rec[:, B.R_ELIM_B]
    bad = ~(att | night)  # the game ended by the rules
    bad |= att & (np.maximum(ea, eb) < 5)  # attrition: someone lost 5 (pyrrhic included)
    bad |= night & ((ea >= 5) | (eb >= 5))  # nobody had lost 5 at nightfall
    bad |= (ea > 8) | (eb > 8) | (ea < 0) | (eb < 0)
    bad |= night & ((rec[:, B.R_VP_A] > 32) | (rec[:, B.R_VP_B] > 32))
    bad |= rec[:, B.R_TURNS] < 1
    if not mirror:
        bad |= rec[:, B.R_WINNER] == -1  # only identical tie-breaker ranks draw (2.2)
    return bad


def section_title(policy: str, extra: bool = False) -> str:
    """One section per policy: random play by default, a scripted player reaches the
    attrition and pyrrhic-victory paths that random play seldom does; another with extra
    army files (the Distant Lands test armies)."""
    title = SECTION if policy == "random" else f"{SECTION}, {policy} players"
    return title + (", with extra army files" if extra else "")


def write_section(text: str, title: str = SECTION) -> None:
    """Replace the section ``title`` of RESULTS-engine.md (or append it)."""
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Engine benchmark\n"
    pat = re.compile(rf"^{re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pat.search(old):
        new = pat.sub(lambda _: text.rstrip("\n") + "\n\n", old).rstrip("\n") + "\n"
    else:
        new = old.rstrip("\n") + "\n\n" + text.rstrip("\n") + "\n"
    RESULTS.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="games in all (default 1e6)")
    ap.add_argument("--seed", type=int, default=20261121, help="master seed")
    ap.add_argument("--threads", type=int, default=0, help="0: all cores")
    ap.add_argument("--chunk", type=int, default=4096, help="games per parallel batch")
    ap.add_argument("--max-seconds", type=float, default=0, help="stop after this (0: never)")
    ap.add_argument("--policy", default="random", help="both seats' policy (default random)")
    ap.add_argument("--no-write", action="store_true", help="do not update RESULTS-engine.md")
    ap.add_argument(
        "--extra-armies",
        default="",
        help="army files (comma-separated) played with the built-in armies, e.g. the Distant "
        "Lands test armies tests/fixtures/distant_lands/*.toml",
    )
    args = ap.parse_args(argv)
    if args.games < 1 or args.chunk < 1:
        ap.error("--games and --chunk must be positive")

    import numba

    from manoeuvre_sim import __version__
    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.engine import batch as B
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options

    armies = [a.name for a in load_builtin_armies()]
    extra = [x for x in args.extra_armies.split(",") if x]
    armies += extra
    pairs = list(itertools.product(armies, repeat=2))  # both seats, mirrors included
    per_pair = -(-args.games // len(pairs))  # game streams: pair k owns k*per_pair ...
    threads = min(args.threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(threads)

    # compile outside the timing (one tiny checked batch)
    cfg0 = SimConfig(armies[0], armies[1], games=1, policy_a=args.policy,
                     policy_b=args.policy, check_invariants=True)  # fmt: skip
    _, _, P = prepare(cfg0)
    pol, params = policy_arrays(cfg0)
    opt = rule_options(cfg0)
    out = np.zeros((args.chunk, B.NREC), dtype=np.int32)
    t = time.perf_counter()
    B.play_games(args.seed, 0, 2, P.tables, pol, params, opt, out[:2])
    compile_s = time.perf_counter() - t

    load0 = os.getloadavg()[0]
    done = 0
    violations: list[str] = []
    outcomes = np.zeros(3, dtype=np.int64)  # attrition, nightfall, draws
    turns = 0
    turn_limit = 0
    stopped = False
    last_print = -1.0
    t0 = time.perf_counter()
    try:
        for k, (a, b) in enumerate(pairs):
            n_pair = min(per_pair, args.games - k * per_pair)
            if n_pair <= 0:
                break
            cfg = SimConfig(a, b, games=n_pair, seed=args.seed, policy_a=args.policy,
                            policy_b=args.policy, check_invariants=True)  # fmt: skip
            _, _, P = prepare(cfg)
            opt = rule_options(cfg)
            pol, params = policy_arrays(cfg)
            tables = (P.tables, pol, params, opt)
            pd = 0
            while pd < n_pair:
                n = min(args.chunk, n_pair - pd)
                first = k * per_pair + pd
                try:
                    B.play_games(args.seed, first, n, *tables, out[:n])
                except Exception:  # a checked invariant raised: find the game(s)
                    for i in range(n):
                        try:
                            B.play_games(args.seed, first + i, 1, *tables, out[i : i + 1])
                        except Exception as exc:  # noqa: BLE001 - report, keep going
                            out[i] = 0
                            out[i, B.R_VICTORY] = -1
                            violations.append(
                                f"{a} v {b}: seed {args.seed} game {first + i}: {exc}"
                            )
                rec = out[:n]
                played = rec[:, B.R_VICTORY] >= 0
                bad = record_violations(rec, a == b) & played
                for i in np.flatnonzero(bad):
                    violations.append(
                        f"{a} v {b}: seed {args.seed} game {first + i}: record {rec[i].tolist()}"
                    )
                outcomes[0] += int((rec[:, B.R_VICTORY] == S.VICTORY_ATTRITION).sum())
                outcomes[1] += int((rec[:, B.R_VICTORY] == S.VICTORY_NIGHTFALL).sum())
                outcomes[2] += int((rec[played, B.R_WINNER] == -1).sum())
                turns += int(rec[played, B.R_TURNS].sum())
                turn_limit += int(rec[played, B.R_TURN_LIMIT].sum())
                pd += n
                done += n
                el = time.perf_counter() - t0
                if el - last_print >= 1.0 or done >= args.games:
                    last_print = el
                    rate = done / el if el > 0 else 0.0
                    eta = (args.games - done) / rate if rate > 0 else 0.0
                    print(
                        f"\r{done:>11,}/{args.games:,} games  {rate:8,.0f} games/s  "
                        f"{a} v {b:<16} violations {len(violations)}  ETA {eta:5.0f} s ",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )
                if args.max_seconds and el >= args.max_seconds:
                    stopped = True
                    break
            if stopped:
                break
    except KeyboardInterrupt:
        stopped = True
    elapsed = time.perf_counter() - t0
    print(file=sys.stderr)
    load1 = os.getloadavg()[0]
    rate = done / elapsed if elapsed > 0 else 0.0
    for v in violations[:20]:
        print("VIOLATION", v, file=sys.stderr)

    note = ""
    if done and outcomes[0] == 0 and args.policy == "random":
        note += (
            " No game ended by attrition: random-legal play seldom fights (the attrition "
            "and pyrrhic-victory paths are scenario-tested in tests/test_engine_cards.py)."
        )
    if stopped:
        note += (
            f" Stopped at {done:,} of the {args.games:,} games requested "
            f"(time budget {args.max_seconds:g} s or interrupted); the later pairings in the "
            "list were not reached."
        )
    added = (
        ", ".join(Path(x).name for x in extra) + " added to the built-in ones; " if extra else ""
    )
    lines = [
        section_title(args.policy, bool(extra)),
        "",
        f"Written by `benchmarks/bench_invariants.py` on {datetime.date.today()}: "
        f"manoeuvre-sim {__version__} (rules {RULES_VERSION}), numba {numba.__version__}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"{threads} threads. Policy `{args.policy}` on both seats, every ordered pair of the "
        f"{len(armies)} armies ({added}{len(pairs)} pairings: each army in both seats, mirror "
        f"matches included), up to {per_pair:,} games per pairing. Master seed "
        f"{args.seed}; game i of pairing k (in `itertools.product` order of "
        f"`load_builtin_armies()`) is game index k x {per_pair:,} + i of that seed, so a "
        "violation can be replayed alone (`play_traced(a, b, seed=..., game=..., "
        f"policies=('{args.policy}', '{args.policy}'))`). Invariants checked after set-up "
        "and after every phase (`check_invariants=True`: card conservation, hand size, "
        "one unit per square, no unit on a lake, units and board agree, no redoubt "
        "without its unit, hand <= 5 after drawing) and on every game record (ended by "
        "attrition or nightfall; attrition = 5 losses on a side; at most 8 losses; "
        "nightfall VP <= 32; draws only "
        f"in mirror matches). Compilation ({compile_s:.0f} s) not timed; 1-minute load "
        f"average {load0:.2f} at the start, {load1:.2f} at the end.{note}",
        "",
        "| games | seconds | games/s | violations | attrition | nightfall | draws | "
        "mean game turns | turn-limit games |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {done:,} | {elapsed:,.0f} | {rate:,.0f} | {len(violations)} | "
        f"{outcomes[0]:,} | {outcomes[1]:,} | {outcomes[2]:,} | "
        f"{turns / max(done, 1):.1f} | {turn_limit:,} |",
    ]
    if violations:
        lines += ["", "Violations (first 20):", ""] + [f"- {v}" for v in violations[:20]]
    text = "\n".join(lines) + "\n"
    if not args.no_write:
        write_section(text, section_title(args.policy, bool(extra)))
    print(text)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
