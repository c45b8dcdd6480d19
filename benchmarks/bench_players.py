"""Manoeuvre's players: the tournament, degenerate loops, the styles' parameters.

    python -m benchmarks players [--quick] [--games-per-pair 2000] [--loop-games 200]

Measures (issue 5), re-run after changing a policy:

1. the tournament of every pair of policies on mirrored armies and swapped seats (the
   figures of ``manoeuvre-sim tournament``) and the per-policy shape of the games;
2. back-and-forth moves and fights per turn in traced games (degenerate loops);
3. the styles' parameter vectors.

Speed is another benchmark's (issue 41): games per second of the default player and of
random play on 1 and 2 threads, and where a game's time goes by phase and decision kind,
are ``python -m benchmarks profile`` (RESULTS-profile.md). The search player plays about a
game a second: ``python -m benchmarks search`` measures it. How the ``tuned`` vector was
made: docs/tuning.md.
"""

from __future__ import annotations

import sys
import time

from benchmarks.common import Parser, Run


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
    ap.size("--loop-games", 200, 20, "traced Austria-Prussia games per policy")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
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
    L = run.header("Players: tournament, loops, parameters")
    L += tournament_lines(res, t_tour, args) + loops_lines(lp, args.loop_games)
    L += [
        "",
        "Games per second and where a game's time goes: `python -m benchmarks profile` "
        "([RESULTS-profile.md](RESULTS-profile.md)).",
        "",
    ]
    L += params_lines(names)
    run.write(L)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
