"""The study store's files, for every game: one Parquet file per task with the study's
manifest in its metadata, written atomically, and the whole directory read back as one table;
and a study directory read back for one of its games (:func:`read_study`, its manifest;
:func:`study_row`, one game's record), what every game's replay of a study's game reads.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.fileio import temp_beside

STORE = "games.parquet"  # the study store's directory name inside a study's output directory
META = b"manoeuvre_sim"  # the key of a part's manifest in its Parquet schema's metadata

__all__ = ["META", "STORE", "read_parts", "read_store", "read_study", "study_row", "write_part"]


def write_part(df, path: str | Path, manifest: dict) -> Path:
    """Write one block of a study store: Parquet with ``manifest`` in its metadata,
    atomically (a temporary name beginning with '.', which dataset readers skip). ``df``:
    a DataFrame, or a pyarrow Table as a part read back holds it (its pandas metadata kept:
    a what-if's base games read from a study, ``studies.whatif_base``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    tmp = temp_beside(path)
    try:
        table = df if isinstance(df, pa.Table) else pa.Table.from_pandas(df, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[META] = json.dumps(manifest, default=str).encode()
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
    df = read_parts(files)
    return df.sort_values(["label", "pairing", "game"], kind="stable").reset_index(drop=True)


def read_parts(files, columns=None, filters=None) -> pd.DataFrame:
    """The parts ``files`` of a store as one frame, in their order: the frame
    ``pd.concat([pd.read_parquet(f, columns=..., filters=...) for f in files])`` gives,
    some ten times sooner (issue 41). Each part is read by pyarrow on one thread (a part is
    a block of some thousand rows), its manifest left out of the schema (the pandas
    conversion would parse it), and the parts converted to pandas once, together.
    ``columns``: those of them each part has (a part without one lacks it); ``filters``:
    pyarrow's, as ``pd.read_parquet`` takes them. Parts whose columns differ are converted
    one by one and concatenated by pandas, as before."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    expr = pq.filters_to_expression(filters) if filters else None
    tables = []
    for f in files:
        pf = pq.ParquetFile(f)
        names = pf.schema_arrow.names
        cols = [c for c in columns if c in names] if columns else None
        table = pf.read(columns=cols, use_threads=False)
        if expr is not None:
            table = table.filter(expr)
        meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != META}
        tables.append(table.replace_schema_metadata(meta))
    if not tables:
        return pd.DataFrame(columns=columns)
    first = tables[0].schema
    if all(t.schema.equals(first, check_metadata=True) for t in tables[1:]):
        return pa.concat_tables(tables).to_pandas()
    frames = [t.to_pandas() for t in tables if t.num_rows] or [tables[0].to_pandas()]
    return pd.concat(frames, ignore_index=True)


# ------------------------------------------------------------------------------------------
# a game of a study directory (any game's: the replays of a study's game read these)
# ------------------------------------------------------------------------------------------
def read_study(study: Path) -> dict:
    """The manifest of a study directory (``manifest.json``), or a UsageError naming
    ``--study``."""
    path = Path(study) / "manifest.json"
    if not path.is_file():
        raise UsageError(f"--study: {study.name} has no manifest.json (not a study directory)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise UsageError(f"--study: {study.name}/manifest.json is not valid JSON ({e})") from None


def study_row(study: Path, pairing: int, game: int, label: str | None = None,
              store: str = STORE) -> dict:  # fmt: skip
    """The record of game ``game`` of pairing ``pairing`` (and policy label ``label`` when
    the study has several) in ``study/games.parquet`` (or the study's ``store``, a path
    inside it: a fix's confirmation games); a UsageError naming the option."""
    name = store
    store = Path(study) / store
    if not store.is_dir() and not store.is_file():
        raise UsageError(f"--study: {study.name} has no {name} (no games kept)")
    filters = [("pairing", "==", pairing), ("game", "==", game)]
    if label is not None:
        filters.append(("label", "==", label))
    try:
        df = pd.read_parquet(store, filters=filters)
    except Exception as e:  # pyarrow's errors for a store that is not Parquet
        raise UsageError(f"--study: {study.name}/{name} is not readable ({e})") from None
    if len(df) == 0:
        what = f"pairing {pairing}" + (f", label {label!r}" if label is not None else "")
        raise UsageError(f"--game {game}: {study.name} has no such game ({what})")
    if len(df) > 1:
        labels = sorted(set(map(str, df["label"]))) if "label" in df.columns else []
        raise UsageError(f"--label: game {game} of pairing {pairing} is played under several "
                         f"labels ({', '.join(labels)}); give one")  # fmt: skip
    return df.iloc[0].to_dict()
