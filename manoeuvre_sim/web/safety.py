"""What the server may read: only files under the studies folder.

Every path a page takes (a study directory, a trace) is relative to the studies folder the
server was started over. :func:`confine` refuses an absolute path, a ``..`` part (however it
was encoded: the server sees parameters decoded), a NUL byte, and a symlink that resolves
outside the folder; the refusal is a :class:`~manoeuvre_sim.core.errors.UsageError` that the
page shows as a 400 with its reason.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from manoeuvre_sim.core.errors import UsageError


def confine(root: Path, relative: str, what: str = "--study") -> Path:
    """``root / relative`` resolved, when it stays under ``root``; else a UsageError.

    Parameters
    ----------
    root : Path
        The studies folder (need not exist yet: nothing under it is then served).
    relative : str
        The path as the page received it, ``/``-separated, relative to ``root``.
    what : str
        The parameter's name for the error line.
    """
    text = str(relative)
    if "\x00" in text or "\\" in text:
        raise UsageError(f"{what}: {text!r} is not a path under the studies folder")
    pure = PurePosixPath(text)
    if pure.is_absolute() or text.startswith("~"):
        raise UsageError(
            f"{what}: {text!r} is an absolute path; give a path under the studies folder"
        )
    if any(part == ".." for part in pure.parts):
        raise UsageError(f"{what}: {text!r} leaves the studies folder ('..' is refused)")
    base = Path(root).resolve()
    target = (base / pure).resolve()
    if target != base and base not in target.parents:
        raise UsageError(f"{what}: {text!r} leaves the studies folder (a link outside it)")
    return target


def relative_name(root: Path, path: Path) -> str:
    """``path`` as the ``/``-separated name pages use for it under ``root``."""
    return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
