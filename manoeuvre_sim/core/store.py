"""The study store's files, for every game: one Parquet file per task with the study's
manifest in its metadata, written atomically, and the whole directory read back as one table.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from manoeuvre_sim.core.fileio import temp_beside

STORE = "games.parquet"  # the study store's directory name inside a study's output directory

__all__ = ["read_store", "write_part"]


def write_part(df: pd.DataFrame, path: str | Path, manifest: dict) -> Path:
    """Write one block of a study store: Parquet with ``manifest`` in its metadata,
    atomically (a temporary name beginning with '.', which dataset readers skip)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    tmp = temp_beside(path)
    try:
        table = pa.Table.from_pandas(df, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[b"manoeuvre_sim"] = json.dumps(manifest, default=str).encode()
        pq.write_table(table.replace_schema_metadata(meta), tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_store(path: str | Path) -> pd.DataFrame:
    """Every game of a study store directory (``games.parquet/``), sorted by label,
    pairing and game."""
    path = Path(path)
    files = sorted(p for p in path.glob("*.parquet") if not p.name.startswith("."))
    if not files:
        return pd.DataFrame()
    df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    return df.sort_values(["label", "pairing", "game"], kind="stable").reset_index(drop=True)
