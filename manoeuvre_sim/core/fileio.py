"""Output files: written beside their destination and renamed into place (never
half-written), with the permissions a normally created file would have."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def temp_beside(path: str | Path) -> str:
    """A new empty temporary file in ``path``'s directory (created if missing), readable as
    any new file would be (``mkstemp`` alone makes it private to the owner). The caller
    writes it, then ``os.replace``s it onto ``path`` or unlinks it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())
    return tmp


@contextmanager
def atomic_write(path: str | Path, mode: str = "w", **kw) -> Iterator:
    """Write to a temporary file beside ``path`` and rename it into place on success, so an
    interrupted run never leaves a half-written output file."""
    path = Path(path)
    tmp = temp_beside(path)
    try:
        with open(tmp, mode, **kw) as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
