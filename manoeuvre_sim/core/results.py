"""Records -> Parquet or CSV, always with a manifest, for any game.

A file never appears half-written: it is written beside its destination and renamed into
place. The manifest (seed, rules version, data hash, sides, players, options) goes into
the Parquet schema metadata and, for every format, a ``<file>.manifest.json`` beside it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.fileio import temp_beside


def check_output_path(path: str | Path, suffixes: tuple[str, ...] = (".parquet", ".csv")) -> Path:
    """Refuse, before any work, an output file a run could not write: a wrong suffix, a
    directory, a parent that cannot be created or written."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise UsageError(f"--out {path}: expected a file name ending in {' or '.join(suffixes)}")
    if path.is_dir():
        raise UsageError(f"--out {path}: is a directory, expected a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {path}: cannot create {path.parent} ({e.strerror})") from None
    if not os.access(path.parent, os.W_OK):
        raise UsageError(f"--out {path}: {path.parent} is not writable")
    return path


def write(df: pd.DataFrame, path: str | Path, manifest: dict) -> Path:
    """Write ``df`` as Parquet (.parquet) or CSV (.csv) plus ``<path>.manifest.json``,
    atomically."""
    path = Path(path)
    ext = path.suffix.lower()
    if ext not in (".parquet", ".csv"):
        raise UsageError(f"--out {path}: expected a file name ending in .parquet or .csv")
    tmp = temp_beside(path)
    try:
        if ext == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(df, preserve_index=False)
            meta = dict(table.schema.metadata or {})
            meta[b"manoeuvre_sim"] = json.dumps(manifest).encode()
            pq.write_table(table.replace_schema_metadata(meta), tmp)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    mpath = path.with_name(path.name + ".manifest.json")
    mtmp = mpath.with_name(mpath.name + ".part")
    mtmp.write_text(json.dumps(manifest, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(mtmp, mpath)
    return path


def write_json(path: str | Path, doc: dict) -> Path:
    """A JSON file, written atomically."""
    path = Path(path)
    tmp = temp_beside(path)
    try:
        Path(tmp).write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_csv(df: pd.DataFrame, path: str | Path) -> Path:
    """A study's table as CSV (floats to 6 significant digits), written atomically."""
    from manoeuvre_sim.core.fileio import atomic_write

    path = Path(path)
    with atomic_write(path, "w", newline="", encoding="utf-8") as f:
        df.to_csv(f, index=False, float_format="%.6g")
    return path


def write_text(path: str | Path, text: str) -> Path:
    """A text file (a study's summary), written atomically."""
    from manoeuvre_sim.core.fileio import atomic_write

    path = Path(path)
    with atomic_write(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path
