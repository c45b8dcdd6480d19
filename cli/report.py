"""``manoeuvre-sim report``: one printable PDF of the whole analysis (issue 11), assembled
from the directories the study commands wrote."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.option(
    "--from",
    "sources",
    multiple=True,
    metavar="DIR",
    help="A study directory to include: the --out of balance, cards or whatif (repeatable).",
)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option(
    "--out",
    default="reports/manoeuvre-report.pdf",
    show_default=True,
    help="The PDF to write (replaced atomically).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def report(sources, paper, out, quiet) -> None:
    """One PDF with the whole analysis: a cover with the provenance of every study, a table
    of contents, the balance study's pages, a card-value section per card study, the
    what-ifs, and a methods page. Nothing is recomputed: each study is read back from the
    files its command wrote, and its pages are the ones that command draws."""
    from manoeuvre_sim.analyses import report as R
    from manoeuvre_sim.errors import UsageError

    out_path = Path(out)
    if out_path.suffix.lower() != ".pdf":
        raise UsageError(f"--out {out}: expected a file name ending in .pdf")
    if out_path.is_dir():
        raise UsageError(f"--out {out}: is a directory; expected a .pdf file name")
    if not sources:
        raise UsageError(
            "--from: expected at least one study directory (the --out of balance, cards or whatif)"
        )
    studies = R.load_studies(sources)  # every directory is checked before any page is drawn
    bar = None
    progress = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(total=1, unit="page", file=sys.stderr, leave=False, desc="drawing")

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

    try:
        path, pages = R.write_report(out_path, studies, paper=paper, progress=progress)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write there ({e.strerror})") from None
    finally:
        if bar is not None:
            bar.close()
    kinds = ", ".join(f"{s.kind} {s.path}" for s in studies)
    click.echo(f"wrote {path}: {pages} pages from {kinds}")
