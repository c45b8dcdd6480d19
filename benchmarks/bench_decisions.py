"""Where the default player's time goes, decision kind by decision kind: every decision of
``--games`` France-Russia games of the default player is recorded (state, options, combat,
RNG) by playing them as plain Python (``NUMBA_DISABLE_JIT=1``, a subprocess), then each
kind's recorded decisions are decided again by the compiled ``choose`` and timed (CPU
time, less sensitive to other work on the machine than the wall clock). Each re-decision
must give the recorded choice. Writes the section "Decisions of the default player" of
benchmarks/RESULTS-engine.md.

    .venv/bin/python benchmarks/bench_decisions.py [--games 100] [--reps 50]
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

SECTION = "## Decisions of the default player (issue 13)"

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--reps", type=int, default=50)
    args = ap.parse_args()
    import numba as nb

    from manoeuvre_sim.manoeuvre.engine import decisions as D
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine.players import choose
    from manoeuvre_sim.manoeuvre.runner import SimConfig, policy_arrays, prepare

    load0 = os.getloadavg()[0]
    path = Path(tempfile.mkdtemp(prefix="bench-decisions-")) / "decisions.npz"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    subprocess.run([sys.executable, "-c", RECORD_SNIPPET, str(args.games), str(path)],
                   env=env, check=True)  # fmt: skip
    z = np.load(path)
    meta = z["meta"].astype(np.int64)
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

    data = (z["st"], z["opts"], z["cb"], z["rng"], meta)
    first = np.arange(2)
    for call in (True, False):
        redecide(*data, first, 1, np.zeros(2, np.int64), call)  # compile
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
            redecide(*data, idx, args.reps, got, call)
            secs.append(time.process_time() - t)
        wrong += int((got != meta[idx, 3]).sum())
        us = max(secs[0] - secs[1], 0.0) / args.reps * 1e6
        rows.append((names.get(dk, str(dk)), len(idx) / args.games, meta[idx, 2].mean(),
                     us / len(idx), us / args.games))  # fmt: skip
    total = sum(r[4] for r in rows)
    L = [
        SECTION,
        "",
        f"Written by `benchmarks/bench_decisions.py` on {datetime.date.today()}: every "
        f"decision of {args.games} France-Russia games of the default player ({DEFAULT_POLICY}, "
        f"seed 2), recorded as plain Python and decided again by the compiled `choose` "
        f"{args.reps} times; CPU time (1-minute load average {load0:.2f}: the machine was "
        f"shared). Re-decisions that differ from the recorded choice: **{wrong}**.",
        "",
        "| decision | per game | options (mean) | µs per decision | µs per game | share |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, per_game, nopt, us_dec, us_game in sorted(rows, key=lambda r: -r[4]):
        L.append(f"| {name} | {per_game:.1f} | {nopt:.1f} | {us_dec:.2f} | {us_game:.1f} | "
                 f"{us_game / total:.0%} |")  # fmt: skip
    L.append(f"| total | | | | {total:.1f} | |")
    text = "\n".join(L) + "\n"
    print(text)
    out = Path(__file__).with_name("RESULTS-engine.md")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_search import replace_section  # one way to keep a results section

    replace_section(out, SECTION.removeprefix("## "), text.removeprefix(SECTION))
    if wrong:
        sys.exit(f"bench_decisions: {wrong} re-decisions differ from the recorded choices")


if __name__ == "__main__":
    main()
