"""Small helpers shared by the subcommand modules (formatting, atomic file output)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import click

# engine/players.py DEFAULT_POLICY (not imported: --help must not load numba)
DEFAULT_POLICY = "balanced"
POLICY_HELP = "random | simple | attritional | territorial | balanced (README: Players)"


def army_options(f):
    """``--army-a`` / ``--army-b``, as every command that plays games takes them."""
    f = click.option("--army-b", required=True, help="Army B (player 1): a name or a .toml file.")(
        f
    )
    return click.option(
        "--army-a", required=True, help="Army A (player 0): a name or a .toml file."
    )(f)


def policy_options(f):
    """``--policy-a`` / ``--policy-b``: the players of armies A and B."""
    f = click.option(
        "--policy-b", default=DEFAULT_POLICY, show_default=True, help="As --policy-a."
    )(f)
    return click.option(
        "--policy-a",
        default=DEFAULT_POLICY,
        show_default=True,
        help=f"Army A's player: {POLICY_HELP}",
    )(f)


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
