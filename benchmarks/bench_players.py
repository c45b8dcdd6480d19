"""Manoeuvre's players: the tournament, degenerate loops, games per second, where the time goes.

    python -m benchmarks players [--quick] [--games-per-pair 2000] [--speed-games 20000]
        [--profile-games 4000] [--loop-games 200]

Measures (issue 5), re-run after changing a policy:

1. the tournament of every pair of policies on mirrored armies and swapped seats (the
   figures of ``manoeuvre-sim tournament``) and the per-policy shape of the games;
2. back-and-forth moves and fights per turn in traced games (degenerate loops);
3. full games per second for each policy on 1 and 2 threads;
4. a profile by phase of the default style: the turn loop of ``engine/game.py`` replayed
   here phase by phase with the CPU's cycle counter read around each phase (an LLVM
   intrinsic, a few cycles per read), for the default style and for random play (the cost
   of the rules alone);
5. the styles' parameter vectors.

The search player plays about a game a second: ``python -m benchmarks search`` measures it.
How the ``tuned`` vector was made: docs/tuning.md.
"""

from __future__ import annotations

import sys
import time

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from benchmarks.common import Parser, Run


@intrinsic
def _cycles(typingctx):
    sig = types.uint64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen


PHASES = ("set-up", "discard", "draw + Scout/Spy", "movement", "combat", "restoration", "end")


def _profile_kernel():
    from manoeuvre_sim.core.rng import roll_die, seed_state
    from manoeuvre_sim.manoeuvre.engine import game as G
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine.rules import draw_to_five

    @nb.njit
    def run(seed, n, tables, pol, params, opt, acc, seen):
        """Play n games as game.play_game does, adding each phase's cycles to acc and each
        game's (game turns, winner) to ``seen`` (checked against the engine's records)."""
        units, cards, dsize, rank, tprops, sections, section_numbers = tables
        for k in range(n):
            st = np.empty(S.STATE_SIZE, dtype=np.int32)
            S.clear_state(st)
            rng = np.zeros(4, dtype=np.uint64)
            seed_state(np.uint64(seed), np.uint64(k), rng)
            tr = np.zeros((0, 6), dtype=np.int32)
            trn = np.zeros(1, dtype=np.int32)
            g = G.new_context(tables, pol, params, rng, tr, trn)  # with the players' pointer
            t0 = _cycles()
            while True:
                r0 = roll_die(rng, 10)
                r1 = roll_die(rng, 10)
                if r0 != r1:
                    break
            first = 0 if r0 > r1 else 1
            st[S.FIRST] = first
            G.build_map(st, sections, section_numbers, rng, tr, trn)
            for p in range(2):
                G.deal(st, g, p, opt[G.OPT_TOURNAMENT_HAND])
            G.place_units(st, g, first)
            G.place_units(st, g, 1 - first)
            t1 = _cycles()
            acc[0] += t1 - t0
            turn = 1
            while st[S.OVER] == 0:
                st[S.TURN] = turn
                for kk in range(2):
                    p = first if kk == 0 else 1 - first
                    st[S.ACTIVE] = p
                    a = _cycles()
                    G.discard_phase(st, g, p)
                    b = _cycles()
                    draw_to_five(st, p, rng, tr, trn)
                    G.spy_step(st, g, p)
                    c = _cycles()
                    G.movement_phase(st, g, opt, p)
                    d = _cycles()
                    G.combat_phase(st, g, p)
                    e = _cycles()
                    over = G.check_attrition(st, p)
                    if not over:
                        G.restoration_phase(st, g, p)
                        st[S.REVEALED + p] = 0
                    f = _cycles()
                    acc[1] += b - a
                    acc[2] += c - b
                    acc[3] += d - c
                    acc[4] += e - d
                    acc[5] += f - e
                    if over:
                        break
                if st[S.OVER] == 1:
                    break
                a = _cycles()
                if st[S.FIRST_DECK_DONE] == 1 and st[S.FIRST_DECK_DONE + 1] == 1:
                    G.score_nightfall(st, units, g.uowner, rank, tr, trn)
                elif turn >= opt[G.OPT_MAX_TURNS]:
                    st[S.TURN_LIMIT_HIT] = 1
                    G.score_nightfall(st, units, g.uowner, rank, tr, trn)
                acc[6] += _cycles() - a
                turn += 1
            acc[7] += st[S.TURN]  # the game turns played, as the records count them
            seen[k, 0] = st[S.TURN]
            seen[k, 1] = st[S.WINNER]

    return run


def profile(policy: str, games: int) -> tuple[np.ndarray, float, float]:
    """Cycles per phase summed over ``games`` France-Russia games, the wall time, and the
    mean game turns."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options

    cfg = SimConfig("France", "Russia", games=games, seed=3, policy_a=policy, policy_b=policy)
    _, _, P = prepare(cfg)
    pol, params = policy_arrays(cfg)
    opt = rule_options(cfg)
    run = _profile_kernel()
    acc = np.zeros(8, dtype=np.uint64)
    seen = np.zeros((games, 2), dtype=np.int32)
    run(3, 4, P.tables, pol, params, opt, acc, seen)  # compile
    acc[:] = 0
    t = time.perf_counter()
    run(3, games, P.tables, pol, params, opt, acc, seen)
    wall = time.perf_counter() - t
    # the profile is a copy of the engine's turn loop with clocks in it: it must play the
    # engine's games exactly, or its figures describe some other program
    from manoeuvre_sim.manoeuvre.engine.batch import R_TURNS, R_WINNER
    from manoeuvre_sim.manoeuvre.runner import simulate

    rec = simulate(cfg).records
    if not (
        np.array_equal(seen[:, 0], rec[:, R_TURNS]) and np.array_equal(seen[:, 1], rec[:, R_WINNER])
    ):
        raise SystemExit(
            "bench_players: the profile's copy of the turn loop no longer plays the engine's "
            "games (game turns or winners differ): update _profile_kernel from engine/game.py"
        )
    return acc.astype(np.float64), wall, float(acc[7]) / games


def games_per_second(policies, games: int):
    import numba

    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    rows = []
    for pol in policies:
        simulate(SimConfig("France", "Russia", games=64, seed=1, policy_a=pol, policy_b=pol))
        for threads in (1, 2):
            if threads > numba.config.NUMBA_NUM_THREADS:
                continue
            cfg = SimConfig(
                "France", "Russia", games=games, seed=2, policy_a=pol, policy_b=pol,
                threads=threads, chunk=4096,
            )  # fmt: skip
            t = time.perf_counter()
            res = simulate(cfg)
            dt = time.perf_counter() - t
            rows.append((pol, threads, games / dt, float(res.records[:, 3].mean())))
            print(f"  {pol} {threads} thread(s): {games / dt:,.0f} games/s", file=sys.stderr)
    return rows


def loops(policy: str, games: int) -> dict:
    """Back-and-forth moves (a unit returning to the square it left on its previous move)
    and combats per player turn, from traced games."""
    from manoeuvre_sim.manoeuvre.engine.rules import EV_COMBAT, EV_MOVE, EV_TURN
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    moves = back = combats = turns = 0
    longest_quiet = 0
    for gi in range(games):
        _, tr = play_traced("Austria", "Prussia", seed=21, game=gi, policies=(policy, policy))
        last = {}
        quiet = 0
        for ev, _p, a, b, c, _d in tr.tolist():
            if ev == EV_MOVE:
                moves += 1
                if last.get(a) == (c, b):  # now moving c -> b after moving b -> c
                    back += 1
                last[a] = (b, c)
            elif ev == EV_COMBAT:
                combats += 1
                quiet = 0
            elif ev == EV_TURN:
                turns += 1
                quiet += 1
                longest_quiet = max(longest_quiet, quiet)
    return {
        "games": games,
        "moves": moves,
        "back_and_forth": back / max(moves, 1),
        "combats_per_game_turn": combats / max(turns, 1),
        "longest_quiet": longest_quiet,
    }


def tournament_lines(res, t_tour: float, args) -> list[str]:
    from manoeuvre_sim.analyses.manoeuvre import tournament as T

    L = ["## Tournament", ""]
    L.append(
        f"`manoeuvre-sim tournament --games {args.games_per_pair} --seed {args.seed}`: every "
        f"pair on each of the 8 armies against itself, both seatings with the same seed "
        f"({res.manifest['games_per_pair']:,} games per pair, {t_tour:.0f} s). Win rate of "
        f"policy a, draws counted half, 95% Wilson interval.\n"
    )
    L.append("| a | b | games | win rate a | 95% CI | draws |")
    L.append("|---|---|---:|---:|---|---:|")
    for p in T.pairs_json(res)["pairs"]:
        L.append(
            f"| {p['a']} | {p['b']} | {p['games']:,} | {p['win_rate_a']:.3f} | "
            f"[{p['ci_low']:.3f}, {p['ci_high']:.3f}] | {p['draws']} |"
        )
    stats = T.policy_stats(res.frame)
    L.append("\nPer policy, over all its tournament games (means):\n")
    cols = list(stats.columns)
    L.append("| " + " | ".join(cols) + " |")
    L.append("|---|" + "---:|" * (len(cols) - 1))
    for r in stats.itertuples(index=False):
        L.append(f"| {r[0]} | {r[1]:,} | " + " | ".join(f"{x:.3f}" for x in r[2:]) + " |")
    return L


def loops_lines(lp: dict, games: int) -> list[str]:
    L = ["\n## Degenerate loops\n"]
    L.append(
        f"{games} traced Austria-Prussia games per policy against itself: the share of moves "
        "that take a unit straight back to the square it left on its previous move, combats "
        "per game turn, and the longest run of game turns without a combat.\n"
    )
    L.append("| policy | moves | back-and-forth | combats per game turn | longest quiet run |")
    L.append("|---|---:|---:|---:|---:|")
    for p, d in lp.items():
        L.append(
            f"| {p} | {d['moves']:,} | {d['back_and_forth']:.3f} | "
            f"{d['combats_per_game_turn']:.3f} | {d['longest_quiet']} |"
        )
    return L


def speed_lines(speed, prof, dflt: str, args) -> list[str]:
    L = ["\n## Games per second\n"]
    L.append(
        f"France vs Russia, {args.speed_games:,} games, the same policy on both seats, "
        f"compile time excluded.\n"
    )
    L.append("| policy | threads | games/s | mean game turns |")
    L.append("|---|---:|---:|---:|")
    for pol, th, gps, turns in speed:
        L.append(f"| {pol} | {th} | {gps:,.0f} | {turns:.1f} |")
    L.append(f"\n## Where the time goes (the default style, {dflt}, 1 thread)\n")
    L.append(
        f"{args.profile_games:,} France-Russia games played phase by phase with the cycle "
        "counter read around each phase; the share of each phase, and microseconds per "
        "game (cycles scaled to the measured wall time).\n"
    )
    L.append(f"| phase | {dflt}: share | {dflt}: µs/game | random: share | random: µs/game |")
    L.append("|---|---:|---:|---:|---:|")
    shares = {}
    for p, (acc, wall, _turns) in prof.items():
        tot = acc[:7].sum()
        shares[p] = (acc[:7] / tot, acc[:7] / tot * wall / args.profile_games * 1e6)
    for i, name in enumerate(PHASES):
        b, r = shares[dflt], shares["random"]
        L.append(f"| {name} | {b[0][i]:.1%} | {b[1][i]:.1f} | {r[0][i]:.1%} | {r[1][i]:.1f} |")
    bt, rt = prof[dflt][2], prof["random"][2]
    bw = prof[dflt][1] / args.profile_games * 1e6
    rw = prof["random"][1] / args.profile_games * 1e6
    L.append(
        f"| total | | {bw:.1f} ({bt:.1f} game turns, {bw / (2 * bt):.1f} µs per player turn) "
        f"| | {rw:.1f} ({rt:.1f} game turns, {rw / (2 * rt):.1f} µs per player turn) |"
    )
    bal = {th: g for p, th, g, _ in speed if p == dflt}
    return L + goal_lines(bal, bw / (2 * bt), rw / (2 * rt), bt)


def goal_lines(bal: dict, per_bal: float, per_rules: float, bt: float) -> list[str]:
    """Issue 5's goal, 10,000 games/s on 2 threads, and what bounds it if not met."""
    two, one = bal.get(2, float("nan")), bal.get(1, float("nan"))
    L = ["\n## The goal: 10,000 games/s on 2 threads\n"]
    L.append(
        f"Measured: {two:,.0f} games/s on 2 threads, {one:,.0f} on 1 (a million-game study "
        f"takes {1e6 / two / 60:.1f} minutes). "
        + ("The goal is met.\n" if two >= 10000 else "The goal is not met. What bounds it:\n")
    )
    if two >= 10000:
        return L
    scaling = two / one
    t_game = 1e6 / one  # µs per game per thread
    rules = t_game * per_rules / per_bal
    t_need = 1e6 * scaling / 10000
    if t_need > rules:
        need = (f"At the measured 2-thread scaling ({scaling:.2f}x) the goal needs the "
                f"decisions {(t_game - rules) / (t_need - rules):.1f}x cheaper.")  # fmt: skip
    else:
        need = "Even free decisions would not reach it at the measured scaling."
    L.append(
        f"- A player turn of the default style costs {per_bal:.1f} µs, of which the rules "
        f"themselves (the same phases under random play, which decides in a few "
        f"nanoseconds) take about {per_rules:.1f} µs: the decisions are "
        f"{1 - per_rules / per_bal:.0%} of the time.\n"
        f"- Movement is the largest share: each movement decision values every legal "
        f"move (typically 15-35) by the moved unit's position against the enemy units "
        f"in reach, and the Supply and Forced March decisions do it again; combat "
        f"decisions value every declarable combat with exact band probabilities and, "
        f"in step 5, convolve the dice on the table.\n"
        f"- With free decisions the rules alone would allow about "
        f"{1e6 / (per_rules * 2 * bt):,.0f} games/s per thread at this game length. {need}\n"
    )
    return L


def params_lines(policy_names) -> list[str]:
    from manoeuvre_sim.manoeuvre.engine.players import PARAM_NAMES, POLICY_PARAMS

    styles = [p for p in policy_names if p not in ("random", "simple", "search")]
    L = ["## The styles' parameters\n"]
    L.append("| parameter | " + " | ".join(styles) + " |")
    L.append("|---|" + "---:|" * len(styles))
    for i, name in enumerate(PARAM_NAMES):
        L.append(f"| {name} | " + " | ".join(f"{POLICY_PARAMS[p][i]:g}" for p in styles) + " |")
    return L


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games-per-pair", 2000, 100, "tournament games per pair of policies")
    ap.size("--speed-games", 20000, 1000, "France-Russia games per games/s row")
    ap.size("--profile-games", 4000, 200, "France-Russia games profiled per policy")
    ap.size("--loop-games", 200, 20, "traced Austria-Prussia games per policy")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
    from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES
    from manoeuvre_sim.studies import tournament

    run = Run(args, ap.name)
    # the search player plays about a game a second: bench_search.py measures it
    names = tuple(p for p in POLICY_NAMES if p != "search")
    print("tournament ...", file=sys.stderr)
    t = time.perf_counter()
    res = tournament.run("manoeuvre", list(names), args.games_per_pair, args.seed)
    t_tour = time.perf_counter() - t
    print("loops ...", file=sys.stderr)
    lp = {p: loops(p, args.loop_games) for p in names}
    print("speed ...", file=sys.stderr)
    speed = games_per_second(names, args.speed_games)
    print("profile ...", file=sys.stderr)
    prof = {p: profile(p, args.profile_games) for p in (DEFAULT_POLICY, "random")}
    L = run.header("Players: tournament, speed, profile")
    L += tournament_lines(res, t_tour, args) + loops_lines(lp, args.loop_games)
    L += speed_lines(speed, prof, DEFAULT_POLICY, args) + params_lines(names)
    run.write(L)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
