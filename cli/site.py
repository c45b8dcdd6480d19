"""``manoeuvre-sim site``: a static copy of the workbench's pages for some studies, plain
files that open from disk or any static host (docs/ui.md)."""

from __future__ import annotations

import sys
import time

import click

from manoeuvre_sim.core.errors import UsageError


@click.command()
@click.option(
    "--from",
    "sources",
    multiple=True,
    required=True,
    metavar="DIR",
    help="A study directory (written by a study command's --out); repeat for more.",
)
@click.option(
    "--out",
    required=True,
    metavar="DIR",
    help="The site's folder; refused when it holds files, unless --force.",
)
@click.option("--replays", type=int, default=3, show_default=True,
              help="Games replayed per study: the first game of the most lopsided "
              "pairings.")  # fmt: skip
@click.option("--force", is_flag=True, help="Replace what --out holds.")
@click.option("--quiet", is_flag=True, help="No progress on standard error.")
def site(sources: tuple[str, ...], out: str, replays: int, force: bool, quiet: bool) -> None:
    """Write the workbench's pages of the studies --from as a static site in --out: the list
    of studies, each study's page, tables (CSV) and pairings, replays of a sample of games,
    and the comparison of every two studies of the same game. Open --out/index.html in a
    browser: no server, no network."""
    try:
        from manoeuvre_sim.web.site.build import build_site
    except ImportError as e:
        raise UsageError(
            f"site: the static site needs the 'web' extra ({e.name} is missing): "
            "pip install 'manoeuvre-sim[web]'"
        ) from None

    t = time.perf_counter()
    stream = sys.stderr
    result = build_site(list(sources), out, replays=replays, force=force,
                        progress=None if quiet else progress_printer(stream))  # fmt: skip
    if not quiet and stream.isatty():
        stream.write("\n")
    for s in result.skipped:
        click.echo(f"site: left out {s}", err=True)
    size = sum(p.stat().st_size for p in result.out.rglob("*") if p.is_file())
    click.echo(
        f"site: {len(result.files)} files, {size / 1e6:.1f} MB in {result.out}, "
        f"{time.perf_counter() - t:.0f} s (open {result.out}/index.html)"
    )


def progress_printer(stream, every: float = 2.0, clock=time.monotonic):
    """The site's progress on ``stream``: ``site: files 37/120  what``, rewritten in place on
    a terminal; else a line of its own at most every ``every`` seconds and at the last file
    (a log gets lines, never one line rewritten)."""
    tty = bool(getattr(stream, "isatty", lambda: False)())
    last = [float("-inf")]

    def progress(done: int, total: int, what: str) -> None:
        line = f"site: files {done}/{total}  {what}"
        if tty:
            stream.write("\r" + line[:100].ljust(100))
        else:
            now = clock()
            if now - last[0] < every and done < total:
                return
            last[0] = now
            stream.write(line + "\n")
        stream.flush()

    return progress
