"""What the one-file studies (``simulate``, ``tournament``: games into one ``--out FILE``)
share: how a run goes (:class:`Running`), the checks of their options, the store of their
finished tasks in ``FILE.store/`` while the run goes, the output file and their one
:func:`run_spec`.

A one-file study's spec plays itself (``spec.play(running)``, the study module's part) and
its result holds the games (``frame``), whether the run was stopped (``interrupted``), what
the file records (``file_manifest``) and the store (``store``); :func:`run_spec` is the rest,
written once for both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from manoeuvre_sim.core.errors import UsageError

OUTPUT_SUFFIXES = (".parquet", ".csv")


@dataclass(frozen=True)
class Running:
    """How a study's tasks run, apart from what they play (so never in what decides its
    games): on ``threads`` threads (0: all cores), each finished task a part of ``store``
    (None: none kept), ``resume`` reading the store's finished tasks back, on ``backend``
    (None: local threads), ``progress(done, total)`` told as tasks finish (``study.play``'s
    keywords of the same names)."""

    threads: int = 0
    store: Path | None = None
    backend: Any = None
    resume: bool = False
    progress: Callable[[int, int], None] | None = None


def check_positive(*checks: tuple[str, int, int]) -> None:
    """A UsageError naming the first ``(flag, value, least)`` whose value is below its
    least (1: a positive number; 0: 0 or more)."""
    for flag, value, least in checks:
        if value < least:
            what = "a positive number" if least else "0 or more"
            raise UsageError(f"{flag}: expected {what}, got {value}")


def one_file_store(out: str | Path | None, resume: bool, *, check_only: bool = False):
    """The store of a one-file study's ``--out FILE``: ``FILE.store/``, cleared unless
    ``resume`` (None without ``out``); ``out`` checked first (a .parquet or .csv file that
    can be written) and ``resume`` refused without it. ``check_only``: the checks alone."""
    if out is None:
        if resume:
            raise UsageError("--resume: needs --out (the finished tasks are kept in OUT.store/)")
        return None
    from manoeuvre_sim.core.results import check_output_path

    check_output_path(out, OUTPUT_SUFFIXES)
    if check_only:
        return None
    store = Path(f"{out}.store")
    if store.exists() and not resume:
        import shutil

        shutil.rmtree(store)
    return store


def write_one_file(frame, out, manifest: dict, store: Path | None, interrupted: bool) -> None:
    """``frame`` to ``out`` with ``manifest``; the store removed once the run is whole."""
    import shutil

    from manoeuvre_sim.core.results import write

    write(frame, out, manifest)
    if not interrupted and store is not None:
        shutil.rmtree(store, ignore_errors=True)


def run_spec(
    spec,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
):
    """Play ``spec`` (a one-file study's: ``SimulateSpec``, ``TournamentSpec``) and, with
    ``out`` (a .parquet or .csv file), write its games with the result's ``file_manifest``:
    the finished tasks go to ``OUT.store/`` as they finish (cleared first unless ``resume``,
    which reads them back) and the store is removed once the run is whole. Nothing is
    written when no game finished. Returns the study's result, its ``store`` set."""
    store = one_file_store(out, resume)
    res = spec.play(Running(spec.threads, store, backend, resume, progress))
    res.store = store
    if out is not None and len(res.frame):
        write_one_file(res.frame, out, res.file_manifest, store, res.interrupted)
    return res
