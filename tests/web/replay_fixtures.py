"""Tiny studies for the replay pages' tests: a Manoeuvre balance study of two armies, one
game per pairing, written by the library as ``manoeuvre-sim balance --out`` writes it."""

from __future__ import annotations

from pathlib import Path

GAME = "army_a=France&army_b=Russia&seed=1&game=0"
HEX_GAME = "seed=1&game=0"


def balance_study(root: Path, name: str = "bal") -> Path:
    """``root/name``: France and Russia, 1 game per pairing (4 games, a few seconds)."""
    from manoeuvre_sim.studies.balance import run

    out = root / name
    result = run("manoeuvre", ["France", "Russia"], out_dir=out, games_per_pairing=1, block=1,
                 threads=1)  # fmt: skip
    result.write(out)
    return out


def hex_study(root: Path, name: str = "hexbal") -> Path:
    """``root/name``: a Maneuver variant study (``hex balance``), borders basic and
    large_red, players capital and random, 1 game per pairing (8 games)."""
    import json

    from manoeuvre_sim.studies.balance import run

    out = root / name
    result = run("hex", borders="basic,large_red", policies="capital,random",
                 games_per_pairing=1, seed=4, out_dir=out, threads=1)  # fmt: skip
    (out / "manifest.json").write_text(json.dumps(result.manifest, default=str))
    return out
