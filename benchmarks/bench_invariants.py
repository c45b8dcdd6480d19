"""Manoeuvre's invariants: a million games with every rule invariant checked, per player.

Each run plays its games with one policy on both seats, spread evenly over every ordered
pair of the armies (each army in both seats, mirror matches included), with
``check_invariants=True`` (``OPT_CHECK``: after set-up and after every phase of every player
turn the engine checks card conservation, hand size, one unit per square, no unit on a
lake, unit/board agreement, no redoubt without its unit, a hand of at most 5 after drawing;
a violation raises). Each game's record is checked too: the game ended by attrition or
nightfall, attrition means 5 losses on one side, at most 8 losses per side, nightfall
scores within the 32 squares of a half, draws only in mirror matches. A chunk that raises
is replayed game by game, so every violating game is named by its seed and index.

The runs (``--runs``): ``POLICY=GAMES`` on the 8 built-in armies, ``POLICY+extra=GAMES``
with the army files of ``--extra-armies`` beside them (by default the Distant Lands test
armies of tests/fixtures/distant_lands/). Random play seldom fights; a scripted player
reaches the attrition and pyrrhic-victory paths (scenario-tested in
tests/test_engine_cards.py).

    python -m benchmarks invariants [--quick] [--runs random=1000000,tuned=200000,...]
        [--extra-armies FILES] [--seed S] [--threads T] [--max-seconds SECONDS]

``--max-seconds`` stops each run at the first chunk boundary after that many seconds (its
section then says how many games were played). The run fails (exit 1) on any violation.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.common import ROOT, Parser, Run

DISTANT_LANDS = ",".join(
    str((ROOT / "tests" / "fixtures" / "distant_lands" / f"{n}.toml").relative_to(ROOT))
    for n in ("india", "china", "japan", "sweden")
)
FULL_RUNS = "random=1000000,tuned=200000,random+extra=200000,tuned+extra=144000"
QUICK_RUNS = "random=20000,tuned=5000,random+extra=5000,tuned+extra=3000"


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


def parse_runs(text: str) -> list[tuple[str, bool, int]]:
    """``random=1000000,tuned+extra=144000`` -> ``[(policy, extra armies?, games), ...]``."""
    out = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        spec, _, n = item.partition("=")
        policy, plus, extra = spec.partition("+")
        if not n.isdigit() or int(n) < 1 or (plus and extra != "extra") or not policy:
            raise SystemExit(f"--runs: {item!r}: expected POLICY=GAMES or POLICY+extra=GAMES")
        out.append((policy, bool(plus), int(n)))
    return out


class Tally:
    """What a run has played so far: games, outcomes, turns and the violations found."""

    def __init__(self) -> None:
        self.done = 0
        self.outcomes = np.zeros(3, dtype=np.int64)  # attrition, nightfall, draws
        self.turns = 0
        self.turn_limit = 0
        self.violations: list[str] = []

    def add(self, rec: np.ndarray, a: str, b: str, seed: int, first: int) -> None:
        from manoeuvre_sim.manoeuvre.engine import batch as B
        from manoeuvre_sim.manoeuvre.engine import state as S

        played = rec[:, B.R_VICTORY] >= 0
        bad = record_violations(rec, a == b) & played
        for i in np.flatnonzero(bad):
            self.violations.append(f"{a} v {b}: seed {seed} game {first + i}: record "
                                   f"{rec[i].tolist()}")  # fmt: skip
        self.outcomes[0] += int((rec[:, B.R_VICTORY] == S.VICTORY_ATTRITION).sum())
        self.outcomes[1] += int((rec[:, B.R_VICTORY] == S.VICTORY_NIGHTFALL).sum())
        self.outcomes[2] += int((rec[played, B.R_WINNER] == -1).sum())
        self.turns += int(rec[played, B.R_TURNS].sum())
        self.turn_limit += int(rec[played, B.R_TURN_LIMIT].sum())
        self.done += len(rec)


def play_chunk(tables, seed: int, first: int, out: np.ndarray, a: str, b: str,
               tally: Tally) -> None:  # fmt: skip
    """Games ``first ..`` into ``out``; a chunk that raises is replayed game by game."""
    from manoeuvre_sim.manoeuvre.engine import batch as B

    n = len(out)
    try:
        B.play_games(seed, first, n, *tables, out)
    except Exception:  # a checked invariant raised: find the game(s)
        for i in range(n):
            try:
                B.play_games(seed, first + i, 1, *tables, out[i : i + 1])
            except Exception as exc:  # noqa: BLE001 - report, keep going
                out[i] = 0
                out[i, B.R_VICTORY] = -1
                tally.violations.append(f"{a} v {b}: seed {seed} game {first + i}: {exc}")
    tally.add(out, a, b, seed, first)


def play_run(policy: str, armies: list[str], games: int, args) -> dict:
    """One run: ``games`` checked games of ``policy`` over every ordered pair of ``armies``."""
    from manoeuvre_sim.manoeuvre.engine import batch as B
    from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options

    pairs = list(itertools.product(armies, repeat=2))  # both seats, mirrors included
    per_pair = -(-games // len(pairs))  # game streams: pair k owns k*per_pair ...
    out = np.zeros((args.chunk, B.NREC), dtype=np.int32)
    tally, stopped, last = Tally(), False, -1.0
    t0 = time.perf_counter()
    try:
        for k, (a, b) in enumerate(pairs):
            n_pair = min(per_pair, games - k * per_pair)
            if n_pair <= 0 or stopped:
                break
            cfg = SimConfig(a, b, games=n_pair, seed=args.seed, policy_a=policy,
                            policy_b=policy, check_invariants=True)  # fmt: skip
            _, _, P = prepare(cfg)
            tables = (P.tables, *policy_arrays(cfg), rule_options(cfg))
            for pd in range(0, n_pair, args.chunk):
                n = min(args.chunk, n_pair - pd)
                play_chunk(tables, args.seed, k * per_pair + pd, out[:n], a, b, tally)
                el = time.perf_counter() - t0
                if el - last >= 1.0 or tally.done >= games:
                    last = el
                    print(f"\r{policy}: {tally.done:>11,}/{games:,} games  "
                          f"{tally.done / max(el, 1e-9):8,.0f} games/s  violations "
                          f"{len(tally.violations)} ", end="", file=sys.stderr, flush=True)  # fmt: skip
                if args.max_seconds and el >= args.max_seconds:
                    stopped = True
                    break
    except KeyboardInterrupt:
        stopped = True
    print(file=sys.stderr)
    return {"tally": tally, "seconds": time.perf_counter() - t0, "stopped": stopped,
            "pairs": len(pairs), "per_pair": per_pair, "games": games}  # fmt: skip


def run_lines(policy: str, extra: list[str], r: dict, n_armies: int, args) -> list[str]:
    t, secs = r["tally"], r["seconds"]
    title = f"## `{policy}` players" + (", with extra army files" if extra else "")
    added = (
        ", ".join(Path(x).name for x in extra) + " added to the built-in ones; " if extra else ""
    )
    note = ""
    if t.done and t.outcomes[0] == 0:
        note += " No game ended by attrition."
    if r["stopped"]:
        note += (f" Stopped at {t.done:,} of the {r['games']:,} games requested (time budget "
                 f"{args.max_seconds:g} s or interrupted): the later pairings were not reached.")  # fmt: skip
    lines = [
        title,
        "",
        f"Every ordered pair of the {n_armies} armies ({added}{r['pairs']} pairings), up to "
        f"{r['per_pair']:,} games per pairing; game i of pairing k (in `itertools.product` "
        f"order) is game index k x {r['per_pair']:,} + i of seed {args.seed}, so a violation "
        f"can be replayed alone (`play_traced(a, b, seed=..., game=..., policies=('{policy}', "
        f"'{policy}'))`).{note}",
        "",
        "| games | seconds | games/s | violations | attrition | nightfall | draws | "
        "mean game turns | turn-limit games |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {t.done:,} | {secs:,.0f} | {t.done / max(secs, 1e-9):,.0f} | {len(t.violations)} | "
        f"{t.outcomes[0]:,} | {t.outcomes[1]:,} | {t.outcomes[2]:,} | "
        f"{t.turns / max(t.done, 1):.1f} | {t.turn_limit:,} |",
    ]
    if t.violations:
        lines += ["", "Violations (first 20):", ""] + [f"- {v}" for v in t.violations[:20]]
    return lines + [""]


def compile_checked(armies: list[str]) -> float:
    """Seconds to compile (or load) the checked kernel: two games, outside the timings."""
    from manoeuvre_sim.manoeuvre.engine import batch as B
    from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options

    cfg = SimConfig(armies[0], armies[1], games=2, check_invariants=True)
    _, _, P = prepare(cfg)
    t = time.perf_counter()
    out = np.zeros((2, B.NREC), dtype=np.int32)
    B.play_games(1, 0, 2, P.tables, *policy_arrays(cfg), rule_options(cfg), out)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--runs", FULL_RUNS, QUICK_RUNS, "POLICY[+extra]=GAMES, comma-separated", type=str)
    ap.add_argument("--extra-armies", default=DISTANT_LANDS,
                    help="army files (comma-separated) of the +extra runs (default the Distant "
                    "Lands test armies)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=20261121, help="master seed")
    ap.add_argument("--threads", type=int, default=0, help="0: all cores")
    ap.add_argument("--chunk", type=int, default=4096, help="games per parallel batch")
    ap.add_argument("--max-seconds", type=float, default=0, help="stop a run after this (0: never)")
    args = ap.parse_args(argv)
    runs = parse_runs(args.runs)
    if args.chunk < 1:
        ap.error("--chunk must be positive")
    import numba

    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    run = Run(args, ap.name)
    threads = min(args.threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(threads)
    builtin = [a.name for a in load_builtin_armies()]
    extra = [x for x in args.extra_armies.split(",") if x]
    compile_s = compile_checked(builtin)
    body, bad = [], 0
    for policy, plus, games in runs:
        armies = builtin + (extra if plus else [])
        r = play_run(policy, armies, games, args)
        bad += len(r["tally"].violations)
        for v in r["tally"].violations[:20]:
            print("VIOLATION", v, file=sys.stderr)
        body += run_lines(policy, extra if plus else [], r, len(armies), args)
    lines = run.header("Invariant runs", extra=[
        f"{threads} threads; compilation ({compile_s:.0f} s) not timed"
    ]) + [
        "Invariants checked after set-up and after every phase (`check_invariants=True`: card "
        "conservation, hand size, one unit per square, no unit on a lake, units and board "
        "agree, no redoubt without its unit, hand <= 5 after drawing) and on every game record "
        "(ended by attrition or nightfall; attrition = 5 losses on a side; at most 8 losses; "
        "nightfall VP <= 32; draws only in mirror matches). The same policy on both seats.",
        "",
        *body,
    ]  # fmt: skip
    run.write(lines)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
