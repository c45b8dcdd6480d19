"""Training positions for the learned value (issue 26): self-play games' features at the
start of every player turn, each labelled with how the game ended for that seat.

``positions(armies, games, policy, seed)`` plays ``games`` games on every ordered pairing of
``armies`` (both seats played by ``policy``, or ``policy_b`` in seat b), on the balance
study's pairing seeds (``study.pairing_seed``), and returns one row per (player turn, seat):
``pairing`` (``army_a/army_b``), ``game`` (the game's index in its pairing), ``gid`` (a
game id unique across pairings: split train and test by it, never by row), ``seat``,
``mover`` (the seat to move), ``game_turn``, the features (``engine/players/features.py`` ``FEATURE_NAMES``) and
``result``: 1 if that seat won, 1/2 a draw, 0 a loss. Game i of a pairing is seeded from
(pairing seed, i) alone: any thread count or chunk size gives the same rows.
``write_positions`` stores them as Parquet (under reports/, never committed) with their
provenance in the file's metadata.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.manoeuvre.engine.players.features import FEATURE_NAMES, NFEAT


def _chunk(kernel, seed, first, args, lo, hi):
    """``kernel(seed, first, lo, hi, *args)``: one thread's range of a chunk."""
    return kernel(seed, first, lo, hi, *args)


def _pairing(army_a, army_b, games, policy_a, policy_b, seed, threads, chunk):
    """The rows of one ordered pairing (the module docstring) and its data hash."""
    import numba

    from manoeuvre_sim.core.study import pairing_seed
    from manoeuvre_sim.manoeuvre.engine.batch import NREC, R_WINNER, _split
    from manoeuvre_sim.manoeuvre.engine.options import rule_options
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays, search_config
    from manoeuvre_sim.manoeuvre.engine.positions import MAX_ROWS, play_range_positions

    _, _, P = load_packed(army_a, army_b)
    pol, params = policy_arrays(policy_a, policy_b)
    scfg = search_config(policy_a, policy_b)
    opt = rule_options()
    numba.set_num_threads(min(threads or numba.config.NUMBA_NUM_THREADS,
                              numba.config.NUMBA_NUM_THREADS))  # fmt: skip
    pseed = pairing_seed(seed, army_a, army_b)
    frames = []
    for first in range(0, games, chunk):
        n = min(chunk, games - first)
        out = np.zeros((n, NREC), dtype=np.int32)
        x = np.zeros((n, MAX_ROWS, NFEAT), dtype=np.float64)
        meta = np.zeros((n, MAX_ROWS, 3), dtype=np.int32)
        nrows = np.zeros(n, dtype=np.int64)
        args = (P.tables, pol, params, scfg, opt, out, x, meta, nrows)
        _split(n, partial(_chunk, play_range_positions, pseed, first, args))
        keep = np.arange(MAX_ROWS)[None, :] < nrows[:, None]
        game = np.broadcast_to(np.arange(first, first + n)[:, None], keep.shape)[keep]
        m = meta[keep]
        winner = out[:, R_WINNER][game - first]
        result = np.where(winner == m[:, 0], 1.0, np.where(winner < 0, 0.5, 0.0))
        df = pd.DataFrame(x[keep].astype(np.float32), columns=list(FEATURE_NAMES))
        df.insert(0, "game_turn", m[:, 2])
        df.insert(0, "mover", m[:, 1])
        df.insert(0, "seat", m[:, 0])
        df.insert(0, "game", game)
        df["result"] = result
        frames.append(df)
    return pd.concat(frames, ignore_index=True), P.data_hash


def positions(
    armies: Sequence[str],
    games: int,
    policy: str = "tuned",
    seed: int = 1,
    *,
    policy_b: str | None = None,
    threads: int | None = None,
    chunk: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[pd.DataFrame, dict]:
    """(rows, provenance) of ``games`` games on every ordered pairing of ``armies`` (the
    module docstring). The provenance names the seed, policies, rules version and a hash
    of the armies' data and of the rows."""
    import numba

    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.engine.players import parse_policy

    policy_b = policy_b or policy
    parse_policy(policy, "policy")
    parse_policy(policy_b, "policy_b")
    pairs = [(a, b) for a in armies for b in armies]
    frames, hashes = [], []
    for i, (a, b) in enumerate(pairs):
        df, h = _pairing(a, b, games, policy, policy_b, seed, threads, chunk)
        df.insert(0, "pairing", f"{a}/{b}")
        frames.append(df)
        hashes.append(h)
        if progress:
            progress(i + 1, len(pairs))
    rows = pd.concat(frames, ignore_index=True)
    rows["pairing"] = rows["pairing"].astype("category")
    codes = rows["pairing"].cat.codes.to_numpy().astype(np.int64)
    rows.insert(2, "gid", codes * (games + 1) + rows["game"].to_numpy())
    digest = hashlib.sha256(pd.util.hash_pandas_object(rows, index=False).to_numpy().tobytes())
    prov = {
        "armies": list(armies),
        "games_per_pairing": games,
        "policy_a": policy,
        "policy_b": policy_b,
        "seed": seed,
        "rules_version": RULES_VERSION,
        "data_hash": hashlib.sha256("".join(hashes).encode()).hexdigest()[:16],
        "rows_hash": digest.hexdigest()[:16],
        "rows": len(rows),
        "numba": numba.__version__,
    }
    return rows, prov


def write_positions(rows: pd.DataFrame, prov: dict, path: Path) -> None:
    """Store ``rows`` as Parquet at ``path`` (atomically) with ``prov`` in its metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from manoeuvre_sim.core.fileio import atomic_write

    table = pa.Table.from_pandas(rows, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[b"manoeuvre_value"] = json.dumps(prov, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, mode="wb") as f:
        pq.write_table(table, f)


def read_positions(path: Path) -> tuple[pd.DataFrame, dict]:
    """``(rows, provenance)`` written by ``write_positions``."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    prov = json.loads(table.schema.metadata.get(b"manoeuvre_value", b"{}"))
    return table.to_pandas(), prov
