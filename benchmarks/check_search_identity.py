"""The same search games before and after a change to the search player: one hash per run.

Issue 41 (the value search faster, the same games): plays a fixed set of games with the
search player (``engine/search.py``) in many of its forms — the value search of the strong
study (``search:16:tuned:v2``) in either seat and against itself, full rollouts, other
horizons and move counts, rule options, the fair-play check, and the positions the value is
fitted from — and prints one hash per run: the records, and every event of a few traced
games. Run it before and after and compare::

    python -m benchmarks.check_search_identity > before.json
    python -m benchmarks.check_search_identity > after.json
    diff before.json after.json

(from the repository root; on an older checkout, the same script by its path:
``python benchmarks/check_search_identity.py``). ``--quick``: the first runs only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

# (army A, army B, policy A, policy B, games, traced games, SimConfig options)
RUNS = (
    ("France", "Russia", "search:16:tuned:v2", "tuned", 48, 2, {}),
    ("Austria", "Prussia", "tuned", "search:16:tuned:v2", 32, 1, {}),
    ("Spain", "Ottoman Empire", "search:16:tuned:v2", "search:16:tuned:v2", 12, 1, {}),
    ("Great Britain", "United States", "search:16:tuned:v2", "tuned", 16, 0,
     {"tournament_hand": True, "advance_to_contact": True}),
    ("Russia", "France", "search:16:tuned:v2", "balanced", 12, 0,
     {"digging_in": True, "dl_forced_march": True, "setup": "rules"}),
    ("Prussia", "Austria", "search:64:tuned:v2:m10", "tuned", 6, 1, {}),
    ("France", "Spain", "search:8:tuned:v1:m3", "tuned", 12, 0, {}),
    ("Ottoman Empire", "Russia", "search:16:tuned:v3", "tuned", 8, 0, {}),
    ("France", "Russia", "search:4", "balanced", 4, 1, {}),
    ("Austria", "France", "search:4:tuned:v2", "tuned", 4, 0, {"check_fair_play": 1}),
)  # fmt: skip
QUICK = 3


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def runs(quick: bool) -> dict:
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate, traced_game

    out = {}
    for a, b, pa, pb, games, traced, kw in RUNS[:QUICK] if quick else RUNS:
        name = f"{a}-{b} {pa}-{pb} {sorted(kw.items())}"
        config = SimConfig(army_a=a, army_b=b, games=games, seed=41, policy_a=pa, policy_b=pb,
                           threads=2, **kw)  # fmt: skip
        out[name + " records"] = digest(simulate(config).records)
        if traced:
            out[name + " traces"] = digest(*[traced_game(config, g)[1] for g in range(traced)])
        print(name, file=sys.stderr, flush=True)
    if not quick:
        from manoeuvre_sim.manoeuvre.value_data import positions

        rows, _ = positions(["France", "Russia"], 2, "search:8:tuned:v2", 41, policy_b="tuned",
                            threads=2)  # fmt: skip
        out["positions search:8:tuned:v2-tuned"] = hashlib.sha256(
            rows.drop(columns=["pairing"]).to_numpy(dtype=np.float64).tobytes()
        ).hexdigest()[:16]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.check_search_identity",
                                 description=__doc__.splitlines()[0])  # fmt: skip
    ap.add_argument("--quick", action="store_true", help=f"the first {QUICK} runs only")
    args = ap.parse_args(argv)
    print(json.dumps(runs(args.quick), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
