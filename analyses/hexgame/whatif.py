"""Maneuver's what-if read back (``manoeuvre-sim hex whatif``; the study itself, its spec, run
and table, is ``studies/whatif.py`` with Maneuver's hooks in ``hexgame/whatif_variant.py``):
its summary and PDF (``WHATIF_PAGES`` of the adapter) and the paired games of its store.

Python API::

    from manoeuvre_sim.studies import whatif
    res = whatif.run("hex", edits=["blue/infantry/strength=5"], games_per_pairing=2000,
                     seed=1, out_dir="reports/hex-whatif")
    res.whatif         # per pairing and pooled: base, variant, change, interval
    res.write("reports/hex-whatif")
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.analyses.hexgame.rows import OUTCOMES, pair_name
from manoeuvre_sim.hexgame import GAME_TITLE


def write_pages(res, out_dir: Path, paper: str = "a4") -> list[Path]:
    """``hex_whatif.pdf``: the change of each rate per pairing."""
    from manoeuvre_sim.analyses.hexgame.whatif_pdf import write_whatif_pdf

    return [write_whatif_pdf(Path(out_dir) / "hex_whatif.pdf", res, paper=paper)]


def paired_games(games: pd.DataFrame) -> pd.DataFrame:
    """One row per game played in both runs: ``winner_base``, ``winner_variant``, ...
    (games only one run finished, after an interruption, are left out)."""
    key = ["policy_a", "policy_b", "game"]
    cols = key + ["seed", "first_player", "winner"]
    b = games.loc[games["label"] == "base", cols]
    v = games.loc[games["label"] == "variant", cols]
    return b.merge(v, on=key, suffixes=("_base", "_variant"), validate="one_to_one")


def _pc(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}"


def _pp(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:+.1f}"


def summary_lines(res) -> list[str]:
    """The summary (``summary.txt``) of a Maneuver what-if (``studies.whatif.WhatIfResult``)."""
    m, spec = res.manifest, res.spec
    out = [
        f"{GAME_TITLE}: what-if",
        f"base {m['base_scenario_file']} (sha256 {m['base_scenario_sha256'][:16]})",
        f"variant {m['variant_scenario_file']} (sha256 {m['variant_scenario_sha256'][:16]})"
        + (" — identical to the base" if m["identical"] else ""),
        *(["edits: " + "; ".join(spec.edits)] if spec.edits else []),
        f"rules {m['rules_version']}; {m['rules']['name']}; {m['turns']} turns; seed {m['seed']}; "
        f"{spec.games_per_pairing:,} games per pairing and scenario, the same seeds in both",
        "rates in %; change = variant - base in points, 95 % paired interval from the "
        "per-game differences",
    ]
    if res.interrupted:
        out.append("INTERRUPTED: the table covers the games both runs finished")
    for stem, name in OUTCOMES:
        out += ["", f"{name}:"]
        out.append(f"  {'blue v red':<24} {'games':>6} {'base':>6} {'variant':>8} "
                   f"{'change':>7}  95 % interval")  # fmt: skip
        for r in res.whatif.itertuples(index=False):
            pair = pair_name(r)
            lo, hi = getattr(r, f"{stem}_change_ci_low"), getattr(r, f"{stem}_change_ci_high")
            out.append(
                f"  {pair:<24} {r.games:>6} {100 * getattr(r, f'{stem}_rate_base'):>6.1f} "
                f"{100 * getattr(r, f'{stem}_rate_variant'):>8.1f} "
                f"{_pp(getattr(r, f'{stem}_change')):>7}  [{_pp(lo)}, {_pp(hi)}]"
            )
    out += ["", "games whose outcome (the winner, or a draw) changed:"]
    for r in res.whatif.itertuples(index=False):
        pair = pair_name(r)
        out.append(f"  {pair:<24} {r.changed_games:>6,} of {r.games:,} ({_pc(r.changed_share)} %)")
    return out


__all__ = ["OUTCOMES", "paired_games", "summary_lines", "write_pages"]
