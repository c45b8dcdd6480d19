"""``manoeuvre-sim compare A B``: two studies of the same game side by side (issue 33), the
same table as the workbench's /compare page: each army's (or variant's) rate in A and B,
B - A with its 95 % interval (paired when the two played the same seeds), what moved beyond
its interval, and Kendall's tau between the two rankings."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("a", type=click.Path(file_okay=False, path_type=Path))
@click.argument("b", type=click.Path(file_okay=False, path_type=Path))
@click.option("--label-a", help="A's players, by its tables' label (a study of several "
              "--policies; default: its first).")  # fmt: skip
@click.option("--label-b", help="B's players, by its tables' label (default: its first).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write comparison.csv, cells.csv, manifest.json and summary.txt here.")  # fmt: skip
def compare(a: Path, b: Path, label_a: str | None, label_b: str | None, out: Path | None) -> None:
    """Compare the finished study directories A and B (two balance studies of one game, or
    two hex balance studies)."""
    from manoeuvre_sim.analyses.common import compare as C

    cmp = C.compare(a, b, label_a=label_a, label_b=label_b)
    click.echo("\n".join(cmp.summary()))
    if out is not None:
        for p in cmp.write(out):
            click.echo(f"wrote {p}", err=True)
