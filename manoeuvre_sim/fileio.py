"""Output files: written beside their destination and renamed into place (never
half-written), with the permissions a normally created file would have."""

from __future__ import annotations

import os
import tempfile
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
