"""Replays, the source: the configuration of a recorded game read from a ``simulate`` output
(its manifest and the game's row), and the check that a replay is the recorded game.

``manoeuvre-sim replay --from FILE --game N`` uses both: everything that decides the game
(armies, players and their parameter vectors, seed, set-up, rule options, sections file,
turn limit) comes from the file, so the replay cannot drift from the record.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.replay.model import Replay, ReplayError

# the record columns a replay must reproduce (winner, victory, game turns, control points)
CHECKED = ("winner", "victory", "game_turns", "vp_a", "vp_b")


def read_manifest(path: str | Path) -> dict:
    """The manifest of a simulate output: the Parquet file's metadata, else the
    ``<file>.manifest.json`` beside it; a one-line UsageError naming ``--from`` when there
    is none."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"--from {path}: no such file (expected a simulate output)")
    if path.suffix.lower() not in (".parquet", ".csv"):
        raise UsageError(f"--from {path}: expected a simulate output, FILE.parquet or FILE.csv")
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        try:
            meta = pq.read_schema(path).metadata or {}
        except Exception as e:  # pyarrow's errors for a file that is not Parquet
            raise UsageError(f"--from {path}: not a readable Parquet file ({e})") from None
        if b"manoeuvre_sim" in meta:
            return json.loads(meta[b"manoeuvre_sim"])
    side = path.with_name(path.name + ".manifest.json")
    if not side.is_file():
        raise UsageError(
            f"--from {path}: has no manifest (neither in the Parquet metadata nor {side.name} "
            "beside it); expected a file written by simulate --out"
        )
    try:
        return json.loads(side.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise UsageError(f"--from {side}: not valid JSON ({e.msg}, line {e.lineno})") from None


def config_from_file(
    path: str | Path,
    game: int,
    *,
    given: dict | None = None,
    flag: Callable[[str], str] = lambda k: f"--{k}",
):
    """``(SimConfig, record)``: the configuration game ``game`` of the simulate output
    ``path`` was played with, and its row (a dict). ``given``: options also given on the
    command line (``{config field: value as click parsed it}``); each must equal the
    file's value (one line naming the option otherwise). Refuses a file of another study,
    another rules version or other army / map data (the replay would be another game)."""
    import pandas as pd

    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare

    path = Path(path)
    m = read_manifest(path)
    cfg = m.get("config")
    if m.get("study") or not isinstance(cfg, dict) or "army_a" not in cfg:
        what = f"a {m['study']} output" if m.get("study") else "not a simulate output"
        raise UsageError(
            f"--from {path}: {what}; expected a simulate output (one match-up, one row per "
            "game); replay another study's game with its options and --seed SEED --game N"
        )
    if m.get("rules_version") != RULES_VERSION:
        raise UsageError(
            f"--from {path}: its games were played under rules {m.get('rules_version')}, "
            f"this is rules {RULES_VERSION}: the replay would be another game"
        )
    if game < 0:
        raise UsageError(f"--game: expected a game index >= 0, got {game}")
    df = pd.read_parquet(path) if path.suffix.lower() == ".parquet" else pd.read_csv(path)
    if "game" not in df.columns:
        raise UsageError(f"--from {path}: has no 'game' column; expected a simulate output")
    rows = df[df["game"] == game]
    if len(rows) != 1:
        span = f"games {df['game'].min()}..{df['game'].max()}" if len(df) else "no games"
        raise UsageError(f"--game {game}: {path} has no such game ({span})")
    record = rows.iloc[0].to_dict()
    names = {f.name for f in fields(SimConfig)}
    kw = {k: v for k, v in cfg.items() if k in names}
    for k in ("fixed_map", "fixed_rot", "params_a", "params_b"):
        if kw.get(k) is not None:
            kw[k] = tuple(kw[k])
    kw |= {"games": 1, "first_game": 0, "threads": 1}
    config = SimConfig(**kw)
    _check_given(config, given or {}, path, flag)
    P = prepare(config)[2]
    if m.get("data_hash") not in (None, P.data_hash):
        raise UsageError(
            f"--from {path}: its games were played on other army or map data (data hash "
            f"{m['data_hash']}, now {P.data_hash}): the replay would be another game"
        )
    return config, record


def _check_given(config, given: dict, path: Path, flag) -> None:
    """Refuse an option given with ``--from`` whose value differs from the file's."""
    from manoeuvre_sim.manoeuvre.runner import absolute

    for k, v in given.items():
        want, got = getattr(config, k), v
        if k in ("fixed_map", "fixed_rot"):
            try:
                got = tuple(int(x) for x in str(v).split(","))
            except ValueError:
                raise UsageError(
                    f"{flag(k)}: expected comma-separated integers, got {v!r}"
                ) from None
            if k == "fixed_rot" and want is None:
                want = (0, 0, 0, 0)
        elif k == "sections_file":
            got = absolute(v)
        if got != want:
            shown = ",".join(map(str, want)) if isinstance(want, tuple) else want
            raise UsageError(
                f"{flag(k)}: {v} differs from {path}'s {'none' if want is None else shown}; "
                "--from replays the game as it was played (leave the option out)"
            )


def check_record(rep: Replay, record: dict, path: str | Path) -> None:
    """Raise :class:`ReplayError` unless the replay's winner, victory, game turns and
    control points are the recorded game's (``record``: its row)."""
    res = rep.result
    got = {
        "winner": "draw" if res.winner < 0 else "ab"[res.winner],
        "victory": res.victory,
        "game_turns": res.game_turns,
        "vp_a": res.vp[0],
        "vp_b": res.vp[1],
    }
    diff = [f"{k}: replayed {got[k]}, recorded {record[k]}" for k in CHECKED
            if str(got[k]) != str(record[k])]  # fmt: skip
    if diff:
        raise ReplayError(
            f"the replay of game {rep.info.game} is not the game recorded in {path}: "
            + "; ".join(diff)
        )
