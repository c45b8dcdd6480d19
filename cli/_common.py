"""Small helpers shared by the subcommand modules (formatting, atomic file output)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> str:
    """A plain-text table; ``align`` gives 'l' or 'r' per column (default: numbers right)."""
    cells = [[str(h) for h in headers]] + [["" if v is None else str(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if not align:
        align = "".join(
            "r" if rows and all(isinstance(r[i], int | float) for r in rows) else "l"
            for i in range(len(headers))
        )
    out = []
    for n, r in enumerate(cells):
        line = "  ".join(
            c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(r, widths, align, strict=True)
        )
        out.append(line.rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


@contextmanager
def atomic_write(path: str | Path, mode: str = "w", **kw) -> Iterator:
    """Write to a temporary file beside ``path`` and rename it into place on success, so an
    interrupted run never leaves a half-written output file."""
    from manoeuvre_sim.fileio import temp_beside

    path = Path(path)
    tmp = temp_beside(path)
    try:
        with open(tmp, mode, **kw) as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
