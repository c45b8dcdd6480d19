"""``manoeuvre-sim tune``: a heuristic style tuned by self-play (CMA-ES), then evaluated
against each style on held-out seeds."""

from __future__ import annotations

import sys

import click

from manoeuvre_sim.cli.common import (
    force_option,
    invoked_command,
    out_dir_option,
    seed_option,
    threads_option,
)
from manoeuvre_sim.cli.manoeuvre_options import armies_option, game_options


@click.command()
@click.option(
    "--base",
    default="balanced",
    show_default=True,
    help="The style to start from: attritional, territorial, balanced, tuned, or a style "
    "of --styles.",
)
@click.option(
    "--pool",
    default="attritional,territorial,balanced",
    show_default=True,
    help="Comma-separated opponents the fitness is measured against (any policy).",
)
@armies_option
@click.option(
    "--pairings",
    type=click.Choice(["mirror", "field"]),
    default="mirror",
    show_default=True,
    help="mirror: each army against itself; field: every ordered pair of the armies.",
)
@click.option(
    "--games-per-eval",
    type=int,
    default=960,
    show_default=True,
    help="Games per candidate and generation, split over pool x pairings x both seatings "
    "(rounded up to a multiple of that).",
)
@click.option("--generations", type=int, default=30, show_default=True, help="0: no search.")
@click.option(
    "--popsize", type=int, help="Candidates per generation (default: CMA-ES's 4 + 3 ln(dim))."
)
@click.option(
    "--sigma",
    type=float,
    default=2.0,
    show_default=True,
    help="Initial step size; every searched parameter spans 0..10 between its bounds.",
)
@seed_option
@click.option("--fix", default="hit", show_default=True, help="Comma-separated parameters "
              "held at the base value ('' for none; switch always is).")  # fmt: skip
@click.option(
    "--bounds",
    "bounds",
    multiple=True,
    help="NAME=LO:HI: the searched range of a parameter (repeatable; docs/tuning.md).",
)
@click.option("--against", default="random,simple,attritional,territorial,balanced",
              show_default=True, help="Held-out evaluation: the styles the result plays on "
              "seeds never used in tuning.")  # fmt: skip
@click.option(
    "--eval-games",
    type=int,
    default=4400,
    show_default=True,
    help="Held-out games per opponent (4,400: about ±1.5 points at 50%); 0: none.",
)
@click.option(
    "--styles",
    "styles_file",
    type=click.Path(dir_okay=False),
    help="TOML file of style variants usable as --base, --pool or --against.",
)
@click.option(
    "--name",
    default="tuned_new",
    show_default=True,
    help="The result's name in the styles file written.",
)
@threads_option
@out_dir_option(
    "reports/tune",
    "Directory for styles.toml, generations.csv, heldout.csv, summary.txt, manifest.json.",
)
@force_option("an earlier tuning run")
@click.option("--quiet", is_flag=True, help="No progress bar or per-generation lines.")
@game_options
def tune(**kw) -> None:
    """Tune the heuristic style's parameters by CMA-ES against a pool of styles, with common
    random numbers (every candidate of a generation plays the same games), then play the
    result against each style on held-out seeds. Writes the result as a style for
    tournament --styles; Ctrl-C keeps the last finished generation."""
    from pathlib import Path

    from manoeuvre_sim.cli.common import progress_bar
    from manoeuvre_sim.cli.manoeuvre_options import pop_game_options
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre import tune as T
    from manoeuvre_sim.manoeuvre import tune_io as IO

    # every option is checked, and every army loaded, before the first game
    T.require_cma()
    options = pop_game_options(kw)  # the one parser of the game options (cli/manoeuvre_options.py)
    spec = IO.spec_from_options(
        base=kw["base"], pool=kw["pool"], armies=kw["armies"], pairings=kw["pairings"],
        games_per_eval=kw["games_per_eval"], generations=kw["generations"],
        popsize=kw["popsize"], sigma=kw["sigma"], seed=kw["seed"], fix=kw["fix"],
        bounds=kw["bounds"], against=kw["against"], eval_games=kw["eval_games"],
        styles_file=kw["styles_file"], name=kw["name"], threads=kw["threads"],
        command=invoked_command() or "", options=options,
    )  # fmt: skip
    out = Path(kw["out"])
    if (out / IO.MANIFEST_FILE).exists() and not kw["force"]:
        raise UsageError(
            f"--out {out}: already holds a tuning run; choose another directory or add --force"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write there ({e.strerror})") from None
    bar, progress = progress_bar(kw["quiet"])

    def report(line: str) -> None:
        if kw["quiet"]:
            return
        if bar is not None:
            bar.write(line, file=sys.stderr)
        else:
            click.echo(line, err=True)

    res = T.run(spec, checkpoint=IO.checkpoint(out), progress=progress, report=report)
    if bar is not None:
        bar.close()
    click.echo("\n".join(IO.summary_lines(spec, res.space, res.params, res.log, res.heldout,
                                         res.manifest)))  # fmt: skip
    click.echo(f"\nwrote {', '.join(IO.written(out))} in {out}", err=True)
    if res.interrupted:
        click.echo("interrupted: the files hold the last finished generation", err=True)
        sys.exit(130)
