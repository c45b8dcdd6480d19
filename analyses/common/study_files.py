"""Study directories read back for browsing: which directories under a folder are studies,
each one's provenance and state, its tables, and one pairing's games.

Nothing here changes a study or recomputes its tables: the CSV files are the study
command's own; a pairing's summary (:func:`pairing_outcomes`) counts that pairing's game
records with the conventions of the balance study (``analyses/manoeuvre/tally.py``: a win
scores 1, a draw 1/2; 95 % Wilson intervals from ``core.stats``). Every read is bounded:
the folder scan stops at :data:`MAX_STUDIES` directories and :data:`MAX_DEPTH` levels, a
page of games holds at most the ``limit`` rows asked for.

Python API::

    from manoeuvre_sim.analyses.common import study_files as SF
    for info in SF.scan_studies("reports"):
        print(info.rel, info.kind, info.status)
    index = SF.pairing_index("reports/balance")
    games = SF.pairing_records("reports/balance", pairing=3, label="tuned")
    page = SF.page_of(games, offset=0, limit=50)
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.core import stats
from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import game_of

MAX_STUDIES = 500  # directories listed at most (a folder of studies, not a disk)
SAFE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")  # a table's name, as served
MAX_DEPTH = 4  # levels under the folder searched for study directories
COMPLETE, INTERRUPTED, WRITING, UNREADABLE = (
    "complete",
    "interrupted",
    "being written",
    "unreadable",
)


@dataclass
class StudyInfo:
    """One study directory as the list shows it.

    ``status``: ``complete`` (a manifest, not interrupted), ``interrupted`` (its manifest
    says the run stopped early: the tables cover the games finished before the stop),
    ``being written`` (games on disk but no manifest yet, or a part still being written),
    ``unreadable`` (a manifest that is not a JSON object; ``problem`` says why).
    """

    path: Path
    rel: str
    manifest: dict = field(default_factory=dict)
    status: str = COMPLETE
    problem: str = ""
    parts: int = 0

    @property
    def game(self) -> str:
        return str(game_of(self.manifest)) if self.manifest else "?"  # study.LEGACY_GAME

    @property
    def game_title(self) -> str:
        """The game's name as pages show it (the registry's title before its parenthesis:
        ``Manoeuvre``, ``Maneuver``); the key when the registry lacks it."""
        from manoeuvre_sim.core.games import GAMES, title

        return title(self.game).split(" (")[0] if self.game in GAMES else self.game

    @property
    def kind(self) -> str:
        return str(self.manifest.get("study", "?")) if self.manifest else "?"

    @property
    def when(self) -> str:
        m = self.manifest
        return str(m.get("finished") or m.get("started") or "")

    @property
    def players(self) -> str:
        """The players (policies) of the study, as its manifest names them."""
        m = self.manifest
        pols = m.get("policies")
        if isinstance(pols, list):
            names = []
            for p in pols:
                if isinstance(p, dict):
                    a, b = p.get("policy_a"), p.get("policy_b")
                    names.append(str(p.get("label") or (a if a == b else f"{a} v {b}")))
                else:
                    names.append(str(p))
            return ", ".join(names)
        for key in ("policy", "policy_a"):
            if key in m:
                b = m.get("policy_b")
                return f"{m[key]} v {b}" if b and b != m[key] else str(m[key])
        return ""

    @property
    def data_hash(self) -> str:
        m = self.manifest
        for key in ("data_hash", "scenario_sha256", "base_scenario_sha256"):
            if m.get(key):
                return str(m[key])[:16]
        return ""


def _parts(store: Path) -> tuple[int, bool]:
    """How many finished parts a study store holds, and whether one is being written (a
    temporary file beginning with '.')."""
    if not store.is_dir():
        return 0, False
    done, writing = 0, False
    for entry in os.scandir(store):
        if entry.name.endswith(".parquet") and not entry.name.startswith("."):
            done += 1
        elif entry.name.startswith("."):
            writing = True
    return done, writing


def read_info(path: str | Path, rel: str = "") -> StudyInfo:
    """One study directory's provenance and state; never raises for a broken study (its
    ``status`` and ``problem`` say what is wrong)."""
    path = Path(path)
    info = StudyInfo(path=path, rel=rel or path.name)
    info.parts, writing = _parts(path / STORE)
    man = path / "manifest.json"
    if not man.is_file():
        info.status = WRITING
        info.problem = "no manifest.json yet: the study is being written, or stopped before it"
        return info
    try:
        manifest = json.loads(man.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        info.status, info.problem = UNREADABLE, f"manifest.json: not readable JSON ({e})"
        return info
    if not isinstance(manifest, dict):
        info.status, info.problem = UNREADABLE, "manifest.json: expected a JSON object"
        return info
    info.manifest = manifest
    if manifest.get("interrupted"):
        info.status = INTERRUPTED
        info.problem = (
            "the run was interrupted: its tables cover the games finished before the stop "
            f"({manifest.get('games', 0):,} of {manifest.get('games_planned', '?')} planned)"
        )
    elif writing:
        info.status = WRITING
        info.problem = "a part of its games is being written (a run is adding to it)"
    return info


def _is_study(path: Path) -> bool:
    return (path / "manifest.json").is_file() or (path / STORE).is_dir()


def scan_studies(root: str | Path) -> list[StudyInfo]:
    """Every study directory under ``root`` (``root`` itself included), at most
    :data:`MAX_DEPTH` levels down and :data:`MAX_STUDIES` of them, sorted by path. Links
    are not followed; a study's own sub-folders (its store) are not searched."""
    root = Path(root)
    if not root.is_dir():
        return []
    found: list[StudyInfo] = []
    stack = [(root, 0)]
    while stack and len(found) < MAX_STUDIES:
        here, depth = stack.pop()
        if _is_study(here):
            rel = here.relative_to(root).as_posix()
            found.append(read_info(here, "." if rel == "." else rel))
            continue
        if depth >= MAX_DEPTH:
            continue
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False) and not e.name.startswith("."):
                stack.append((Path(e.path), depth + 1))
    return sorted(found, key=lambda s: s.rel)


def tables(path: str | Path) -> list[str]:
    """The names of the CSV tables a study directory holds (``matrix`` for matrix.csv): plain
    files (not links) named with letters, digits, ``_``, ``-`` and ``.`` only."""
    path = Path(path)
    return sorted(
        p.stem
        for p in path.glob("*.csv")
        if p.is_file() and not p.is_symlink() and SAFE_NAME.fullmatch(p.stem)
    )


def text_columns(game: str | None, name: str) -> dict[str, type]:
    """The columns of the table ``name`` of a study of ``game`` read as text (its
    ``TEXT_COLUMNS``; a game not installed, or None: none), as ``pd.read_csv``'s dtype."""
    from manoeuvre_sim.core.games import get_game, hook

    try:
        cols = hook(get_game(game), "TEXT_COLUMNS").get(name, ()) if game else ()
    except UsageError:
        cols = ()
    return dict.fromkeys(cols, str)


def read_table(path: str | Path, name: str, game: str | None = None) -> pd.DataFrame:
    """One of the study's CSV tables as written, the columns its ``game`` says are text read
    as text (:func:`text_columns`; a table of no rows and no columns, as a fix with no
    candidate writes its trail: an empty frame); a DataError when it cannot be read."""
    f = Path(path) / f"{name}.csv"
    try:
        return pd.read_csv(f, dtype=text_columns(game, name) or None)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (OSError, ValueError) as e:
        raise DataError(f.name, [("", f"cannot read it as a CSV table ({e})")]) from None


# ------------------------------------------------------------------- a study's game records


def _store_files(path: Path) -> list[Path]:
    store = Path(path) / STORE
    if not store.is_dir():
        return []
    return sorted(p for p in store.glob("*.parquet") if not p.name.startswith("."))


def _read(files: list[Path], columns=None, filters=None) -> pd.DataFrame:
    from manoeuvre_sim.core.store import read_parts

    try:
        df = read_parts(files, columns, filters)
    except (OSError, ValueError) as e:  # pyarrow's errors are ValueErrors (ArrowInvalid)
        bad = _unreadable(files)
        raise DataError(f"{STORE}/{bad}: cannot read the game records ({e})") from None
    return df if len(df) else pd.DataFrame(columns=columns)


def _unreadable(files: list[Path]) -> str:
    """The name of the first part pyarrow cannot open (the error's file), else the first."""
    import pyarrow.parquet as pq

    for f in files:
        try:
            pq.read_schema(f)
        except (OSError, ValueError):
            return f.name
    return files[0].name if files else ""


INDEX_COLUMNS = ["label", "pairing", "army_a", "army_b", "policy_a", "policy_b"]


def pairing_index(path: str | Path) -> pd.DataFrame:
    """The study's pairings as its records hold them: one row per (label, pairing) with the
    sides and players of each seat (columns the records lack are left out) and ``games``.
    Read once per state of the store (its parts' names, sizes and times), then remembered."""
    files = _store_files(Path(path))
    key = tuple((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in files)
    return _index(str(Path(path).resolve()), key).copy()


@functools.lru_cache(maxsize=16)
def _index(path: str, key: tuple) -> pd.DataFrame:
    df = _read([Path(path) / STORE / name for name, _, _ in key], columns=INDEX_COLUMNS)
    if df.empty or "pairing" not in df:
        return pd.DataFrame(columns=["label", "pairing", "games"])
    if "label" not in df:
        df["label"] = ""
    keys = [c for c in INDEX_COLUMNS if c in df.columns]
    out = df.groupby(keys, dropna=False, observed=True).size().rename("games").reset_index()
    return out.sort_values(["label", "pairing"], kind="stable").reset_index(drop=True)


def pairing_records(path: str | Path, pairing: int, label: str | None = None) -> pd.DataFrame:
    """Every game record of one pairing (of one label), in game order."""
    filters = [("pairing", "==", int(pairing))]
    if label is not None:
        filters.append(("label", "==", label))
    df = _read(_store_files(Path(path)), filters=filters)
    if "game" in df:
        df = df.sort_values("game", kind="stable").reset_index(drop=True)
    return df


def _share(k: float, n: int, name: str = "win_rate") -> dict:
    lo, hi = stats.wilson_interval(k, n) if n else (np.nan, np.nan)
    return {name: k / n if n else np.nan, f"{name}_ci_low": float(lo),
            f"{name}_ci_high": float(hi)}  # fmt: skip


def pairing_outcomes(games: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """One pairing's games summed up: ``seats`` (each seat's side, player, games, wins,
    draws, losses and win rate with its 95 % Wilson interval, draws counting half, as the
    balance matrix counts them), ``first`` (the same for the first and second player),
    ``victory`` (how the games ended: count and share with interval, when the records say)
    and ``lengths`` (games by length in turns, when the records hold it)."""
    n = len(games)
    rows = []
    for seat, other in (("a", "b"), ("b", "a")):
        w = int((games["winner"] == seat).sum())
        d = int((games["winner"] == "draw").sum())
        rec = {"seat": seat}
        for col in ("army", "policy"):
            if f"{col}_{seat}" in games:
                rec[col] = str(games[f"{col}_{seat}"].iloc[0]) if n else ""
        rec |= {"games": n, "wins": w, "draws": d, "losses": int((games["winner"] == other).sum())}
        rows.append(rec | _share(w + 0.5 * d, n))
    out = {"seats": pd.DataFrame(rows)}
    if "first_player" in games:
        first = []
        for who, same in (("first", True), ("second", False)):
            mover = games["winner"] == games["first_player"]
            other = (games["winner"] != "draw") & ~mover
            w = int(mover.sum() if same else other.sum())
            d = int((games["winner"] == "draw").sum())
            first.append(
                {"player": who, "games": n, "wins": w, "draws": d} | _share(w + 0.5 * d, n)
            )
        out["first"] = pd.DataFrame(first)
    how = next((c for c in ("victory", "ending", "end") if c in games), None)
    if how is not None:
        counts = games[how].astype(str).value_counts().sort_index()
        out["victory"] = pd.DataFrame(
            [
                {"victory": k, "games": int(c)} | _share(int(c), n, "share")
                for k, c in counts.items()
            ]
        )
    turns = next((c for c in ("game_turns", "turns", "turn") if c in games), None)
    if turns is not None:
        counts = games[turns].astype(int).value_counts().sort_index()
        out["lengths"] = pd.DataFrame({"turns": counts.index.astype(int), "games": counts.values})
    return out


def page_of(df: pd.DataFrame, offset: int, limit: int) -> pd.DataFrame:
    """Rows ``offset .. offset+limit-1`` of ``df``."""
    return df.iloc[offset : offset + limit]
