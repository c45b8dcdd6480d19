"""The same games before and after a change to the engines: one hash per run of both games.

Issue 30 (new trace events): the records, the card statistics and the old events of every
trace unchanged.

Plays a fixed set of games of both games through their batch functions and their traced
paths, and prints one hash per run: the records (and Manoeuvre's card statistics, which
scan a trace), and each traced game's events of the kinds that existed before issue 30
(the events added since are filtered out, so the hash says that only traces grew). Run it
before and after a change to the engines and compare::

    python -m benchmarks.check_trace_identity > before.json
    python -m benchmarks.check_trace_identity > after.json
    diff before.json after.json

(from the repository root; on an older checkout without the package, the same script by
its path: ``python benchmarks/check_trace_identity.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

# the event kinds each game's trace had before issue 30 (engine/rules.py, hexgame/state.py)
MANOEUVRE_OLD_KINDS = range(1, 27)
HEX_OLD_KINDS = range(1, 18)

MANOEUVRE_RUNS = (
    ("France", "Russia", "tuned", "tuned", {}),
    ("France", "Russia", "random", "simple", {"setup": "rules"}),
    ("Austria", "Prussia", "balanced", "simple", {"tournament_hand": True}),
    ("Spain", "Ottoman Empire", "territorial", "attritional", {"advance_to_contact": True}),
    ("Great Britain", "United States", "tuned", "random", {"digging_in": True}),
    ("Russia", "Austria", "simple", "tuned", {"dl_forced_march": True}),
)
HEX_RUNS = (
    ("capital", "attrition", "basic", {}),
    ("random", "random", "large_blue", {"step_losses": True}),
    ("attrition", "capital", "large_red", {"step_replacements": True}),
    ("capital", "random", "basic", {"quality_blue": "back", "captured_capital_zoc": True}),
    ("search:8", "capital", "basic", {}),
    ("capital", "search:4:capital:all", "basic", {"quality_red": "3"}),
    ("attrition", "random", "large_blue", {"retreat_apart": True, "quality_blue": "units:1,4"}),
)


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def old_events(trace: np.ndarray, kinds) -> np.ndarray:
    return trace[np.isin(trace[:, 0], list(kinds))]


def old_hex_events(trace: np.ndarray) -> np.ndarray:
    """Maneuver's pre-issue-30 events, EV_PLACE's last column zeroed: it was always 0 and
    now holds the unit's set-up side (reduced under army quality, rule [13] 2)."""
    out = old_events(trace, HEX_OLD_KINDS).copy()
    out[out[:, 0] == 1, 5] = 0
    return out


def manoeuvre() -> dict:
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate, traced_game

    out = {}
    for a, b, pa, pb, kw in MANOEUVRE_RUNS:
        name = f"manoeuvre {a}-{b} {pa}-{pb} {sorted(kw.items())}"
        config = SimConfig(army_a=a, army_b=b, games=200, seed=7, policy_a=pa, policy_b=pb,
                           threads=1, **kw)  # fmt: skip
        res = simulate(config, card_stats=True)
        out[name + " records"] = digest(res.records, res.card_stats)
        traces = [old_events(traced_game(config, g)[1], MANOEUVRE_OLD_KINDS) for g in range(4)]
        out[name + " traces"] = digest(*traces)
    config = SimConfig(army_a="France", army_b="Russia", games=2, seed=3,
                       policy_a="search:4:tuned:v2", policy_b="tuned", threads=1)  # fmt: skip
    res = simulate(config)
    out["manoeuvre search records"] = digest(res.records)
    out["manoeuvre search traces"] = digest(
        old_events(traced_game(config, 0)[1], MANOEUVRE_OLD_KINDS)
    )
    return out


def hexgame() -> dict:
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import HexOptions
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario, pack

    sc = load_scenario(default_path())
    out = {}
    for pa, pb, border, kw in HEX_RUNS:
        name = f"hex {pa}-{pb} {border} {sorted(kw.items())}"
        options = HexOptions(border=border, **kw)
        packed = pack(sc, border)
        pol, params = policy_arrays(pa, pb)
        n = 40 if "search" in pa + pb else 2000
        rec = batch.play_games(5, 0, n, packed, options.array(), pol, params, threads=1)
        out[name + " records"] = digest(rec)
        traces = [
            old_hex_events(batch.play_one(5, g, packed, options.array(), pol, params)[1])
            for g in range(6)
        ]
        out[name + " traces"] = digest(*traces)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.check_trace_identity",
                                 description=__doc__.splitlines()[0])  # fmt: skip
    ap.parse_args(argv)
    print(json.dumps(manoeuvre() | hexgame(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
