"""Where a game's time goes: µs per game by phase and decision kind, default and random play, 1 and 2 threads.

    python -m benchmarks profile [--quick] [--games 8000] [--speed-games 20000] [--repeat 3]

Issue 41's profile, the one the engine's speed-up reads. France v Russia, the same player in
both seats. Three measures, taken alternately in one run (repeat by repeat: each player on
1 thread, then on 2), so the machine's load falls on all of them alike:

1. **Games per second, whole process**: ``runner.simulate`` (the engine's own batch
   kernels, compile excluded) of the default player and of random play.
2. **Per phase**: the engine's turn loop (``engine/turns.py``'s own phase kernels, called in
   its order) with the CPU's time-stamp counter read around each phase (an LLVM intrinsic,
   a few tens of cycles a read). It must play the engine's games exactly (first player,
   winner, victory, turns and VP of every game are compared with ``simulate``'s records),
   or the run stops: the figures would describe another program.
3. **Per decision kind**: in the same games, every decision goes through a player that
   reads the counter around the engine's own ``players.choose`` (the rules call players
   through a function pointer, ``game.Context.player``: the profile hands them this one),
   adding the cycles to (phase, decision kind). The rest of a phase's time is the rules'
   (enumerating options, applying them, dice).

Limits, said in the results file too: the counter measures elapsed time on a thread, so a
thread preempted by other work would charge the wait to the phase it was in: each game's
elapsed time is compared with its thread's CPU time (``clock_gettime``), and only the games
not preempted count (scaled to the mean game length); what remains of the load (shared
caches, memory) is why the run alternates and repeats, and why only ratios within one file
compare; the clock reads and the extra call per decision cost
something (measured: the profiled games' wall time against the engine's on the same games,
and the cycles of an empty timed region); on 2 threads each thread plays a contiguous half
of the games as the engine's batch does, so a thread's µs per game include the cost of
sharing the cores (memory, turbo, the other helpers' work). Counters compiled into the
engine would avoid the copy of the turn loop but change the engine's code; this profile
changes nothing of it and cannot change a record.
"""

from __future__ import annotations

import ctypes
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from benchmarks.common import Parser, Run, load, progress

PHASES = ("set-up", "discard", "draw + Scout/Spy", "movement", "combat", "restoration",
          "end of game turn")  # fmt: skip
NPH = len(PHASES)
ARMIES = ("France", "Russia")
SEED = 41
# a profiled game counts when its elapsed time is at most its thread's CPU time times CLEAN
# plus CLEAN_SLACK_NS (the clocks' reads): a game its thread was preempted in is left out
CLEAN, CLEAN_SLACK_NS = 1.05, 2000.0


@intrinsic
def _cycles(typingctx):
    sig = types.uint64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen


_libc = ctypes.CDLL(None)
_clock_gettime = _libc.clock_gettime
_clock_gettime.argtypes = [ctypes.c_int, ctypes.c_void_p]
_clock_gettime.restype = ctypes.c_int
CLOCK_THREAD_CPUTIME_ID = 3  # Linux


@nb.njit(nogil=True)
def _thread_cpu_ns(ts):
    """The calling thread's CPU time in ns (``clock_gettime``), ``ts`` an int64 scratch pair."""
    _clock_gettime(CLOCK_THREAD_CPUTIME_ID, ts.ctypes.data)
    return ts[0] * 1_000_000_000 + ts[1]


@intrinsic
def _pointer(typingctx, addr):
    """An int64 address as a pointer to int64 (the counters' buffer, allocated in Python)."""
    sig = types.CPointer(types.int64)(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))

    return sig, codegen


def _layout():
    from manoeuvre_sim.manoeuvre.engine.decisions import N_DECISIONS

    # one buffer per thread: [0] the phase now, then cycles and calls per (phase, kind),
    # then the depth of nested decisions and the calls made nested
    nd = N_DECISIONS
    return nd, 1 + 2 * NPH * nd + 2


def _profiled_player(addr: int):
    """A player of ``CHOOSE_SIG`` that times the engine's ``choose`` into the buffer at
    ``addr`` (one per thread: the address is compiled in)."""
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import CHOOSE_SIG, choose_entry

    nd, row = _layout()
    cyc0, calls0, depth_at = 1, 1 + NPH * nd, row - 2

    @nb.njit(nogil=True)
    def player(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n):
        buf = nb.carray(_pointer(addr), (row,))
        depth = buf[depth_at]
        buf[depth_at] = depth + 1
        choose = choose_entry()
        a = _cycles()
        k = choose(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n)
        b = _cycles()
        buf[depth_at] = depth
        if depth == 0:
            ph = buf[0]
            buf[cyc0 + ph * nd + dk] += np.int64(b - a)
            buf[calls0 + ph * nd + dk] += 1
        else:
            buf[depth_at + 1] += 1
        return k

    player.compile(CHOOSE_SIG)
    from manoeuvre_sim.core.jit import EntryPoint

    return EntryPoint(player, CHOOSE_SIG)


def _kernel():
    from manoeuvre_sim.core.rng import seed_state
    from manoeuvre_sim.manoeuvre.engine import decisions as D
    from manoeuvre_sim.manoeuvre.engine import game as G
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine import turns as T
    from manoeuvre_sim.manoeuvre.engine.rules import draw_to_five

    @nb.njit(nogil=True)
    def run(seed, lo, hi, tables, pol, params, opt, player, buf, acc, seen, decg, clock):
        """Games lo .. hi - 1 as ``game.play_game`` plays them (``turns.run_turns``'s order),
        each phase's cycles into ``acc[k]``, the phase now into ``buf[0]`` for the player,
        each game's record fields into ``seen[k]``, its decisions' cycles and calls (the
        player's buffer) into ``decg[k]``, its elapsed cycles and thread CPU ns into
        ``clock[k]``."""
        units, cards, dsize, rank, tprops, sections, section_numbers = tables
        nd2 = decg.shape[1]
        ts = np.zeros(2, dtype=np.int64)
        for k in range(lo, hi):
            buf[1 : 1 + nd2] = 0
            cpu0 = _thread_cpu_ns(ts)
            g0 = _cycles()
            st = np.empty(S.STATE_SIZE, dtype=np.int32)
            S.clear_state(st)
            rng = np.zeros(4, dtype=np.uint64)
            seed_state(np.uint64(seed), np.uint64(k), rng)
            tr = np.zeros((0, 6), dtype=np.int32)
            trn = np.zeros(1, dtype=np.int32)
            uowner = np.empty(S.NUNITS, dtype=np.int32)
            for u in range(S.NUNITS):
                uowner[u] = u // S.MAXU_SIDE
            opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
            cb = np.zeros(D.CB_SIZE, dtype=np.int32)
            cb[D.CB_LEADER] = -1
            cb[D.CB_DLEADER] = -1
            g = G.Context(units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb,
                          tr, trn, player)  # fmt: skip
            buf[0] = 0
            t0 = _cycles()
            T.set_up_game(st, g, tables, opt)
            acc[k, 0] += _cycles() - t0
            first = st[S.FIRST]
            turn = 1
            while st[S.OVER] == 0:
                st[S.TURN] = turn
                over = False
                for kk in range(2):
                    p = first if kk == 0 else 1 - first
                    st[S.ACTIVE] = p
                    buf[0] = 1
                    a = _cycles()
                    T.discard_phase(st, g, p)
                    buf[0] = 2
                    b = _cycles()
                    draw_to_five(st, p, rng, tr, trn)
                    T.spy_step(st, g, p)
                    buf[0] = 3
                    c = _cycles()
                    G.movement_phase(st, g, opt, p)
                    buf[0] = 4
                    d = _cycles()
                    G.combat_phase(st, g, p)
                    buf[0] = 5
                    e = _cycles()
                    over = T.after_combat(st, g, opt, p)
                    f = _cycles()
                    acc[k, 1] += b - a
                    acc[k, 2] += c - b
                    acc[k, 3] += d - c
                    acc[k, 4] += e - d
                    acc[k, 5] += f - e
                    if over:
                        break
                if over:
                    break
                buf[0] = 6
                a = _cycles()
                end = T.end_game_turn(st, g, opt, rank, turn)
                acc[k, 6] += _cycles() - a
                if end:
                    break
                turn += 1
            seen[k, 0] = st[S.FIRST]
            seen[k, 1] = st[S.WINNER]
            seen[k, 2] = st[S.VICTORY]
            seen[k, 3] = st[S.TURN]
            seen[k, 4] = st[S.VP]
            seen[k, 5] = st[S.VP + 1]
            clock[k, 0] = np.int64(_cycles() - g0)
            clock[k, 1] = _thread_cpu_ns(ts) - cpu0
            decg[k, :] = buf[1 : 1 + nd2]

    return run


@nb.njit
def _empty_regions(n):
    """Cycles of ``n`` empty timed regions (two clock reads back to back), summed."""
    s = np.uint64(0)
    for _ in range(n):
        a = _cycles()
        b = _cycles()
        s += b - a
    return s


@nb.njit
def _now():
    return _cycles()


def tsc_hz(seconds: float = 0.3) -> float:
    """The time-stamp counter's rate, against ``time.perf_counter``."""
    _now()
    c0, t0 = _now(), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        pass
    return (_now() - c0) / (time.perf_counter() - t0)


class Profiler:
    """The profiled games of one player (both seats), on any number of threads."""

    def __init__(self, policy: str, games: int, threads_max: int, hz: float) -> None:
        from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options

        self.policy, self.games, self.hz = policy, games, hz
        self.cfg = SimConfig(*ARMIES, games=games, seed=SEED, policy_a=policy, policy_b=policy)
        _, _, P = prepare(self.cfg)
        self.tables = P.tables
        self.pol, self.params = policy_arrays(self.cfg)
        self.opt = rule_options(self.cfg)
        nd, row = _layout()
        self.bufs = [np.zeros(row, dtype=np.int64) for _ in range(threads_max)]
        self.players = [_profiled_player(b.ctypes.data) for b in self.bufs]

    def play(self, run, threads: int) -> dict:
        """One profiled run: the phases' and decisions' cycles per game, the wall time."""
        n = self.games
        nd, row = _layout()
        acc = np.zeros((n, NPH), dtype=np.uint64)
        seen = np.zeros((n, 6), dtype=np.int32)
        decg = np.zeros((n, 2 * NPH * nd), dtype=np.int64)
        clock = np.zeros((n, 2), dtype=np.int64)
        for b in self.bufs:
            b[:] = 0
        bounds = np.linspace(0, n, threads + 1).astype(int)

        def part(i: int) -> None:
            run(SEED, bounds[i], bounds[i + 1], self.tables, self.pol, self.params, self.opt,
                self.players[i], self.bufs[i], acc, seen, decg, clock)  # fmt: skip

        l0 = load()
        t = time.perf_counter()
        with ThreadPoolExecutor(threads) as ex:
            list(ex.map(part, range(threads)))
        wall = time.perf_counter() - t
        # a game is clean when its elapsed time is its thread's CPU time (no preemption):
        # the figures are those of the clean games, scaled to the mean game length
        elapsed_ns = clock[:, 0] / self.hz * 1e9
        clean = elapsed_ns <= CLEAN * clock[:, 1] + CLEAN_SLACK_NS
        scale = seen[:, 3].mean() / max(seen[clean, 3].mean(), 1e-9) / max(clean.sum(), 1)
        d = decg[clean].sum(axis=0).astype(np.float64) * scale
        return {"phase": acc[clean].sum(axis=0).astype(np.float64) * scale, "wall": wall,
                "seen": seen, "dec": d[: NPH * nd].reshape(NPH, nd),
                "calls": d[NPH * nd :].reshape(NPH, nd), "clean": float(clean.mean()),
                "nested": int(sum(b[row - 1] for b in self.bufs[:threads])), "load": l0,
                "turns": float(seen[:, 3].mean())}  # fmt: skip

    def check(self, seen: np.ndarray) -> None:
        """The profiled games are the engine's games, or the run stops."""
        from manoeuvre_sim.manoeuvre.engine import batch as BT
        from manoeuvre_sim.manoeuvre.runner import simulate

        rec = simulate(self.cfg).records
        cols = [BT.R_FIRST, BT.R_WINNER, BT.R_VICTORY, BT.R_TURNS, BT.R_VP_A, BT.R_VP_B]
        if not np.array_equal(seen, rec[:, cols]):
            bad = int(np.argmax((seen != rec[:, cols]).any(axis=1)))
            raise SystemExit(
                f"bench_profile: the profiled turn loop no longer plays the engine's games "
                f"({self.policy}, game {bad} differs): update _kernel from engine/turns.py"
            )


def whole_process(policy: str, games: int, threads: int) -> float:
    """Games per second of ``runner.simulate`` (the engine's batch), compile excluded."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    cfg = SimConfig(*ARMIES, games=games, seed=SEED + 1, policy_a=policy, policy_b=policy,
                    threads=threads, chunk=4096)  # fmt: skip
    t = time.perf_counter()
    simulate(cfg)
    return games / (time.perf_counter() - t)


def med(xs):
    return statistics.median(xs)


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 8000, 400, "France-Russia games profiled per player and thread count")
    ap.size("--speed-games", 20000, 1000, "games of each whole-process games/s measure")
    ap.size("--repeat", 3, 1, "alternating repeats (medians reported)")
    args = ap.parse_args(argv)
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
    from manoeuvre_sim.manoeuvre.engine.decisions import DECISION_NAMES
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    run = Run(args, ap.name)
    threads = [t for t in (1, 2) if t <= nb.config.NUMBA_NUM_THREADS]
    policies = (DEFAULT_POLICY, "random")
    progress("compiling the profiled turn loop (a minute or two) ...")
    kernel = _kernel()
    hz = tsc_hz()
    profs = {p: Profiler(p, args.games, max(threads), hz) for p in policies}
    for p in policies:
        simulate(SimConfig(*ARMIES, games=64, seed=1, policy_a=p, policy_b=p))  # compiled
        first = profs[p].play(kernel, 1)  # compiles on the first call
        profs[p].check(profs[p].play(kernel, max(threads))["seen"])
        del first
    empty = float(_empty_regions(10**6)) / 10**6
    res: dict = {}  # (policy, threads) -> list of runs
    speed: dict = {}
    for r in range(args.repeat):
        for th in threads:
            for p in policies:
                progress(f"repeat {r + 1}/{args.repeat}: {p} on {th} thread(s), load {load():.1f}")
                nb.set_num_threads(th)
                speed.setdefault((p, th), []).append(whole_process(p, args.speed_games, th))
                res.setdefault((p, th), []).append(profs[p].play(kernel, th))
    lines = run.header(
        "Engine profile: per phase and per decision kind",
        extra=[f"France v Russia, the same player in both seats (the default `{DEFAULT_POLICY}` "
               f"and `random`); {args.games:,} profiled games and {args.speed_games:,} "
               f"whole-process games per measure, {args.repeat} alternating repeats (medians; "
               f"ranges in brackets); time-stamp counter {hz / 1e9:.2f} GHz",
               "**the figures are under load** (the machine is shared with other work, see "
               "the load column): compare them within this file, as ratios"],
    )  # fmt: skip
    lines += speed_lines(speed, threads, policies)
    lines += phase_lines(res, threads, policies, hz, args.games)
    lines += decision_lines(res, threads, policies, hz, args.games, DECISION_NAMES)
    lines += overhead_lines(res, speed, threads, policies, empty, hz, args.games)
    run.write(lines)
    return 0


def _us(cycles: float, hz: float, games: int) -> float:
    return cycles / hz / games * 1e6


def speed_lines(speed, threads, policies) -> list[str]:
    L = ["## Games per second, whole process", "",
         "`runner.simulate` (the engine's batch kernels), compile excluded; the 1-minute load "
         "average when each measure began is in the per-phase table's runs.", "",
         "| player | threads | games/s | range | x 1 thread |", "|---|---:|---:|---|---:|"]  # fmt: skip
    for p in policies:
        for th in threads:
            xs = speed[(p, th)]
            ratio = med(xs) / med(speed[(p, 1)])
            L.append(f"| {p} | {th} | {med(xs):,.0f} | {min(xs):,.0f}-{max(xs):,.0f} | "
                     f"{ratio:.2f} |")  # fmt: skip
    d, r = policies
    for th in threads:
        L.append("")
        L.append(f"On {th} thread(s) the default player plays "
                 f"{med(speed[(d, th)]) / med(speed[(r, th)]):.2f} of random play's games/s.")  # fmt: skip
    return L + [""]


def phase_lines(res, threads, policies, hz, games) -> list[str]:
    L = ["## Per phase, µs per game (a thread's elapsed time)", "",
         "Each phase's time, and of it the time inside the players' decisions (the rest is "
         "the rules'); medians of the repeats.", ""]  # fmt: skip
    head = "| phase |"
    rule = "|---|"
    for p in policies:
        for th in threads:
            head += f" {p} {th}T: total | decisions |"
            rule += "---:|---:|"
    L += [head, rule]
    for i, name in enumerate([*PHASES, "total"]):
        row = f"| {name} |"
        for p in policies:
            for th in threads:
                runs = res[(p, th)]
                if name == "total":
                    tot = med([_us(x["phase"].sum(), hz, 1) for x in runs])
                    dec = med([_us(x["dec"].sum(), hz, 1) for x in runs])
                else:
                    tot = med([_us(x["phase"][i], hz, 1) for x in runs])
                    dec = med([_us(x["dec"][i].sum(), hz, 1) for x in runs])
                row += f" {tot:,.1f} | {dec:,.1f} |"
        L.append(row)
    L.append("")
    L.append("The runs (µs per game in all phases; the load when the run began):")
    L.append("")
    for p in policies:
        for th in threads:
            runs = res[(p, th)]
            shown = ", ".join(f"{_us(x['phase'].sum(), hz, 1):,.0f} (load {x['load']:.1f}, "
                              f"{x['clean']:.0%} of the games clean)" for x in runs)  # fmt: skip
            L.append(f"- {p}, {th} thread(s): {shown}")
    d, r = policies
    for th in threads:
        dt = med([_us(x["phase"].sum(), hz, 1) for x in res[(d, th)]])
        dd = med([_us(x["dec"].sum(), hz, 1) for x in res[(d, th)]])
        rt = med([_us(x["phase"].sum(), hz, 1) for x in res[(r, th)]])
        L.append("")
        td, tr = res[(d, th)][0]["turns"], res[(r, th)][0]["turns"]
        L.append(f"On {th} thread(s): the default player's decisions are {dd / dt:.0%} of its "
                 f"game's time; the rest, the rules, {dt - dd:,.1f} µs a game of {td:.1f} game "
                 f"turns ({(dt - dd) / td:.2f} µs a game turn), against random play's whole "
                 f"game, {rt:,.1f} µs for {tr:.1f} game turns ({rt / tr:.2f} µs a game turn): "
                 f"the default player's turns cost the rules "
                 f"{(dt - dd) / td / (rt / tr):.1f}x random play's (more combats, more "
                 f"cards played).")  # fmt: skip
    return L + [""]


def decision_lines(res, threads, policies, hz, games, names) -> list[str]:
    L = ["## Per decision kind, µs per game", "",
         "Summed over the phases; calls per game and ns per call; only kinds that occur.", ""]  # fmt: skip
    head = "| decision |"
    rule = "|---|"
    for p in policies:
        for th in threads:
            head += f" {p} {th}T: µs/game | calls/game | ns/call |"
            rule += "---:|---:|---:|"
    L += [head, rule]
    d = policies[0]
    order = np.argsort(-med_arr([x["dec"].sum(axis=0) for x in res[(d, 1)]]))
    for k in order:
        if all(med([x["calls"][:, k].sum() for x in res[(p, 1)]]) == 0 for p in policies):
            continue
        row = f"| {names[k]} |"
        for p in policies:
            for th in threads:
                runs = res[(p, th)]
                us = med([_us(x["dec"][:, k].sum(), hz, 1) for x in runs])
                calls = med([x["calls"][:, k].sum() for x in runs])
                ns = us * 1000 / calls if calls else 0.0
                row += f" {us:,.2f} | {calls:,.1f} | {ns:,.0f} |"
        L.append(row)
    nested = sum(x["nested"] for runs in res.values() for x in runs)
    L += ["", f"Decisions taken inside another decision (counted apart): {nested}.", ""]
    return L


def med_arr(arrs):
    return np.median(np.stack(arrs), axis=0)


def overhead_lines(res, speed, threads, policies, empty, hz, games) -> list[str]:
    L = ["## What the profile costs, and its limits", ""]
    for p in policies:
        for th in threads:
            prof = med([games / x["wall"] for x in res[(p, th)]])
            calls = med([x["calls"].sum() for x in res[(p, th)]])
            L.append(f"- {p}, {th} thread(s): the profiled games ran at {prof:,.0f} games/s, "
                     f"{prof / med(speed[(p, th)]):.2f} of the engine's; {calls:,.0f} timed "
                     f"decisions a game, each timed region costing about {empty:.0f} cycles "
                     f"({empty * calls / hz * 1e6:.2f} µs a game) in clock reads alone.")  # fmt: skip
    L += [
        f"- The time-stamp counter measures elapsed time: a thread preempted by other work "
        f"(the load above) would charge the wait to the phase or decision it was in. So "
        f"only the clean games count: those whose elapsed time is at most {CLEAN} times "
        f"their thread's CPU time (plus {CLEAN_SLACK_NS / 1000:.0f} µs), scaled to the mean "
        f"game length of all the games (longer games are preempted more often). What is "
        f"left of the load (two threads sharing caches and memory with the other work, a "
        f"virtual machine's stolen time if its CPU clock counts it) is in the figures: "
        f"compare them within this file.",
        "- Decision time is the engine's `players.choose` alone, called through a profiling "
        "player; enumerating the options before it is the rules' (in the phase's remainder).",
        "- Random play decides in a few nanoseconds, so its decision figures are mostly the "
        "clock reads; its phase totals are the rules' cost at its game length.",
        "- The 2-thread rows are per thread: each thread plays half the games, as the "
        "engine's batch does; whole-process scaling is the games/s table's.",
        "",
    ]
    return L


if __name__ == "__main__":
    raise SystemExit(main())
