"""Maneuver's combat odds: the exact odds against the engine's own roll, and rolls per second.

Measures, in one run (rules 001):

1. agreement of the exact odds (:func:`manoeuvre_sim.hexgame.odds.result_fractions`) with
   the engine's own roll (:func:`manoeuvre_sim.hexgame.crt.roll_combat`, through
   :func:`manoeuvre_sim.hexgame.odds.simulate`) for every difference of the printed chart,
   -8..+8, as the largest deviation in standard errors;
2. simulated combats per second (one thread: the simulator runs its RNG streams one after
   the other, so the counts depend on the seed alone), and exact odds per second.

The exact odds are sums of 1/36ths, so a chart or a command never needs the simulator; it
is the check that the engine rolls what the odds say.

    python -m benchmarks hex-odds [--quick] [--per-difference N] [--speed-rolls N]

A benchmark, not a test: the figures depend on the machine and are recorded, not asserted.
"""

from __future__ import annotations

import math

from benchmarks.common import Parser, Run, best_of
from manoeuvre_sim.hexgame import GAME_TITLE
from manoeuvre_sim.hexgame import odds as O
from manoeuvre_sim.hexgame.crt import RESULT_NAMES

DIFFERENCES = range(-8, 9)
DEFENCE = 8  # each difference is played as (8 + difference) against 8
SEED = 2026


def agreement(per_diff: int) -> tuple[list[str], tuple[float, str]]:
    """The table rows (exact % / simulated % per result) and the largest deviation in
    standard errors with its cell."""
    O.simulate(O.combat_odds([4], [4]), 10, SEED)  # compile (or load) the kernel first
    rows, worst = [], (0.0, "")
    for i, diff in enumerate(DIFFERENCES):
        res = O.combat_odds([DEFENCE + diff], [DEFENCE])
        est = O.simulate(res, per_diff, SEED + i)  # independent rolls per row
        cells = []
        for r, p in enumerate(res.exact):
            p = float(p)
            sd = math.sqrt(p * (1 - p) / per_diff)
            if sd == 0:  # a certain or impossible result: rolled always, or never
                z = 0.0 if est.p[r] == p else math.inf
            else:
                z = (est.p[r] - p) / sd
            if abs(z) > abs(worst[0]):
                worst = (z, f"{diff:+d} {RESULT_NAMES[r]}")
            cells.append(f"{100 * p:.3f} / {100 * est.p[r]:.3f}")
        rows.append(f"| {diff:+d} | " + " | ".join(cells) + " |")
    return rows, worst


def speed_lines(speed_n: int) -> list[str]:
    res = O.combat_odds([6], [4])
    t_sim = best_of(lambda: O.simulate(res, speed_n, SEED), 3)
    n_exact = 20_000
    t_exact = best_of(lambda: [O.result_fractions(d % 21 - 10) for d in range(n_exact)], 3)
    t_combat = best_of(lambda: [O.combat_odds("4,3r", "5,1c", step_losses=True)
                                for _ in range(2_000)], 3)  # fmt: skip
    return [
        "## Speed",
        "",
        "| what | per second |",
        "|---|---:|",
        f"| simulated combats (`odds.simulate`, one thread, {speed_n:,} rolls, best of 3) | "
        f"{speed_n / t_sim / 1e6:,.0f} M |",
        f"| exact results of a difference (`result_fractions`, Fractions) | "
        f"{n_exact / t_exact:,.0f} |",
        f"| exact odds of an attack with its units' fates (`combat_odds`, 2 + 2 units, step "
        f"losses) | {2_000 / t_combat:,.0f} |",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--per-difference", 1_000_000, 100_000, "combats rolled per difference")
    ap.size("--speed-rolls", 20_000_000, 2_000_000, "rolls per speed timing")
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    rows, worst = agreement(args.per_difference)
    lines = run.header("Maneuver combat-odds benchmark", extra=[GAME_TITLE]) + [
        "## Exact odds against the engine's roll",
        "",
        f"Each difference played as ({DEFENCE} + difference) against {DEFENCE}: "
        f"{args.per_difference:,} combats rolled with `crt.roll_combat` (seed {SEED} for -8, "
        "one more per row) beside the exact odds. Cells: exact % / simulated %.",
        "",
        "| difference | " + " | ".join(RESULT_NAMES) + " |",
        "|---:|" + "---:|" * len(RESULT_NAMES),
        *rows,
        "",
        f"Largest deviation: {worst[0]:+.2f} standard errors ({worst[1]}) over "
        f"{len(DIFFERENCES) * len(RESULT_NAMES)} cells; a result the exact odds call "
        "impossible was never rolled, and a certain one always rolled (either failing would "
        "read inf).",
        "",
    ]
    run.write(lines + speed_lines(args.speed_rolls))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
