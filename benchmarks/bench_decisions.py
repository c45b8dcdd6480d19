"""Where the default player's time goes, decision kind by decision kind (Manoeuvre, issue 13).

Every decision of ``--games`` France-Russia games of the default player is recorded
(state, options, combat, RNG) by playing them as plain Python (``NUMBA_DISABLE_JIT=1``, a
subprocess), then each kind's recorded decisions are decided again by the compiled
``choose`` and timed (CPU time, less sensitive to other work on the machine than the wall
clock). Each re-decision must give the recorded choice (the run fails otherwise).

    python -m benchmarks decisions [--quick] [--games 100] [--reps 50]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.common import Parser, Run
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

RECORD_SNIPPET = r"""
import sys
import numpy as np
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.players import dispatch
from manoeuvre_sim.manoeuvre.engine.game import play_game
from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare, rule_options
n_games, out = int(sys.argv[1]), sys.argv[2]
rec = {"st": [], "opts": [], "cb": [], "rng": [], "meta": []}
choose = dispatch.choose
def spy(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n):
    o = np.zeros((512, 4), np.int32)
    o[:n] = opts[:n]
    rec["st"].append(st.copy()); rec["opts"].append(o); rec["cb"].append(cb.copy())
    rec["rng"].append(rng.copy())
    k = choose(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n)
    rec["meta"].append((seat, dk, n, k))
    return k
G.choose_entry = lambda: spy  # the player new_context puts in the game context, as plain Python
cfg = SimConfig("France", "Russia", games=1, seed=2)
_, _, P = prepare(cfg)
pol, params = policy_arrays(cfg)
opt = rule_options(cfg)
tr = np.zeros((0, 6), dtype=np.int32)
for g in range(n_games):
    st = S.new_state()
    play_game(st, P.tables, pol, params, new_state(2, g), opt, tr, np.zeros(1, np.int32))
np.savez(out, **{k: np.array(v) for k, v in rec.items()})
"""


def record(games: int) -> dict:
    """The decisions of ``games`` games, recorded as plain Python (a subprocess)."""
    with tempfile.TemporaryDirectory(prefix="bench-decisions-") as d:
        path = Path(d) / "decisions.npz"
        env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
        subprocess.run([sys.executable, "-c", RECORD_SNIPPET, str(games), str(path)],
                       env=env, check=True)  # fmt: skip
        with np.load(path) as z:
            return {k: z[k] for k in z.files}


def redecider():
    """A compiled loop deciding recorded decisions again (``call``) or only copying their
    inputs (``not call``: the copies' time, subtracted)."""
    import numba as nb

    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine.players import choose
    from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare

    cfg = SimConfig("France", "Russia", games=1, seed=2)
    _, _, P = prepare(cfg)
    pol, params = policy_arrays(cfg)
    units, cards, tprops = P.tables.units, P.tables.cards, P.tables.tprops
    uowner = (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)

    @nb.njit
    def redecide(sts, optss, cbs, rngs, meta, idx, reps, got, call):
        opts = np.zeros((512, 4), np.int32)
        for _ in range(reps):
            for j in range(idx.shape[0]):
                i = idx[j]
                st = sts[i].copy()
                n = meta[i, 2]
                opts[:n] = optss[i, :n]
                cb = cbs[i].copy()
                rng = rngs[i].copy()
                if call:
                    got[j] = choose(st, units, cards, tprops, uowner, pol, params, rng, opts,
                                    cb, meta[i, 0], meta[i, 1], n)  # fmt: skip

    return redecide


def time_kinds(z: dict, games: int, reps: int) -> tuple[list[tuple], int]:
    """Per decision kind: (name, per game, mean options, µs per decision, µs per game); and
    the re-decisions that differ from the recorded choice."""
    from manoeuvre_sim.manoeuvre.engine import decisions as D

    meta = z["meta"].astype(np.int64)
    redecide = redecider()
    data = (z["st"], z["opts"], z["cb"], z["rng"], meta)
    for call in (True, False):
        redecide(*data, np.arange(2), 1, np.zeros(2, np.int64), call)  # compile
    names = {
        getattr(D, k): k for k in dir(D) if k.startswith("D_") and isinstance(getattr(D, k), int)
    }
    rows, wrong = [], 0
    for dk in sorted(set(meta[:, 1].tolist())):
        idx = np.nonzero(meta[:, 1] == dk)[0]
        got = np.zeros(len(idx), np.int64)
        secs = []
        for call in (True, False):  # the copies alone, subtracted
            t = time.process_time()
            redecide(*data, idx, reps, got, call)
            secs.append(time.process_time() - t)
        wrong += int((got != meta[idx, 3]).sum())
        us = max(secs[0] - secs[1], 0.0) / reps * 1e6
        rows.append((names.get(dk, str(dk)), len(idx) / games, meta[idx, 2].mean(),
                     us / len(idx), us / games))  # fmt: skip
    return rows, wrong


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 100, 5, "France-Russia games whose decisions are recorded")
    ap.size("--reps", 50, 5, "re-decisions of each recorded decision")
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    rows, wrong = time_kinds(record(args.games), args.games, args.reps)
    total = sum(r[4] for r in rows)
    L = run.header("Decisions of the default player") + [
        f"Every decision of {args.games} France-Russia games of the default player "
        f"({DEFAULT_POLICY}, seed 2), recorded as plain Python and decided again by the "
        f"compiled `choose` {args.reps} times; CPU time. Re-decisions that differ from the "
        f"recorded choice: **{wrong}**.",
        "",
        "| decision | per game | options (mean) | µs per decision | µs per game | share |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, per_game, nopt, us_dec, us_game in sorted(rows, key=lambda r: -r[4]):
        L.append(f"| {name} | {per_game:.1f} | {nopt:.1f} | {us_dec:.2f} | {us_game:.1f} | "
                 f"{us_game / total:.0%} |")  # fmt: skip
    L.append(f"| total | | | | {total:.1f} | |")
    run.write(L)
    if wrong:
        print(f"decisions: {wrong} re-decisions differ from the recorded choices", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
