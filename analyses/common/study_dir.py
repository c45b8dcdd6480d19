"""A study's output directory (balance, card value, what-if, the report's work directory):
checked before the first game, and its tables and texts written atomically."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.results import write_csv as write_csv
from manoeuvre_sim.core.results import write_text as write_text
from manoeuvre_sim.core.store import STORE as STORE


def write_study_files(
    out_dir: str | Path,
    *,
    tables: dict[str, pd.DataFrame],
    manifest: dict,
    summary: list[str],
    pdf: tuple[str, Callable[[Path], Path]] | None = None,
    json_files: dict[str, dict] | None = None,
) -> list[Path]:
    """A study's files into ``out_dir``, each atomically: ``<name>.csv`` per table, each
    extra ``<name>.json``, ``manifest.json``, ``summary.txt`` (its lines), then the PDF
    (``(file name, writer of that path)``, if any); returns the paths in that order."""
    from manoeuvre_sim.core.results import write_json

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = [write_csv(df, out / f"{name}.csv") for name, df in tables.items()]
    written += [write_json(out / f"{name}.json", doc) for name, doc in (json_files or {}).items()]
    written.append(write_json(out / "manifest.json", manifest))
    written.append(write_text(out / "summary.txt", "\n".join(summary) + "\n"))
    if pdf is not None:
        name, write_pdf = pdf
        written.append(write_pdf(out / name))
    return written


def prepare_out_dir(out_dir: str | Path, *, force: bool = False, resume: bool = False) -> Path:
    """Check (before any game) that ``out_dir`` can take a new study: create it, refuse one
    that already holds a study's games unless ``force`` (then remove them) or ``resume``
    (then keep them: the run checks they are of the same study and skips them)."""
    out = Path(out_dir)
    if force and resume:
        raise UsageError(
            "--resume and --force: choose one (keep the games on disk or replace them)"
        )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    store = out / STORE
    if store.exists() and any(store.glob("*.parquet")) and not resume:
        if not force:
            raise UsageError(
                f"--out {out}: already holds a study's games ({store}); choose another "
                "directory, add --resume to finish that study or --force to replace it"
            )
        shutil.rmtree(store)
        for stats_dir in _stats_dirs():
            shutil.rmtree(out / stats_dir, ignore_errors=True)
    try:
        store.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write there ({e.strerror})") from None
    return out


class StudyFiles:
    """A study's result (what its study module's ``run_spec`` returns) with what its command
    writes of it: a subclass in ``analyses/`` gives ``summary()`` and ``write(out_dir,
    paper)``; every other name reads through to the result (``manifest``, ``interrupted``,
    its tables), so the command's shared end (``cli/common.run_and_write``) takes it as it
    takes a result."""

    def __init__(self, result) -> None:
        self.result = result

    def __getattr__(self, name: str):
        if name == "result":  # not set yet (a copy being built): no endless lookup
            raise AttributeError(name)
        return getattr(self.result, name)


def _stats_dirs() -> list[str]:
    """Every registered game's per-game statistics directory (its ``STATS_DIR``), replaced
    with the store it sits beside."""
    from manoeuvre_sim.core.games import installed

    return [g.STATS_DIR for g in installed().values()]
