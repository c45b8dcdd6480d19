"""``manoeuvre-sim hex simulate``: many games of Maneuver, one row per game, played through
the study layer both games share (``studies/simulate.py`` with ``hexgame/adapter.py``'s ``simulate_plan``: tasks, the store in
``FILE.store/``, ``--resume``, the local and Dask backends), as ``simulate`` plays
Manoeuvre's."""

from __future__ import annotations

import click

from manoeuvre_sim.cli._common import backend_options, run_range_options
from manoeuvre_sim.cli.hexgame._options import game_options, load_game
from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    help=f"{GAME_TITLE}. Play --games games (blue: --policy-a, red: --policy-b), one row per "
    "game, with a manifest (seed, rules version, scenario sha256, options). The finished "
    "blocks go to FILE.store/ as they finish: --resume goes on from there after an "
    "interruption; --backend dask plays them on a Dask cluster (the same records)."
)
@game_options
@run_range_options
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option(
    "--block",
    type=int,
    default=5000,
    show_default=True,
    help="Games per task (one Parquet file each in FILE.store/ while the run goes).",
)
@backend_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(out, games, seed, first_game, threads, block, quiet, **kw):
    """Play --games games of Maneuver (blue: --policy-a, red: --policy-b), one row each."""
    import shutil
    import sys
    from dataclasses import asdict

    from manoeuvre_sim.cli._common import play_into_store, pop_backend
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.core.results import check_output_path, write
    from manoeuvre_sim.hexgame import adapter as HX
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
    from manoeuvre_sim.hexgame.records import manifest
    from manoeuvre_sim.studies import simulate as study

    be = pop_backend(kw)
    for flag, value, least in (("--games", games, 1), ("--block", block, 1),
                               ("--seed", seed, 0), ("--first-game", first_game, 0)):  # fmt: skip
        if value < least:
            what = "a positive number" if least else "0 or more"
            raise UsageError(f"{flag}: expected {what}, got {value}")
    if threads < 0:
        raise UsageError(f"--threads: expected 0 (all cores) or more, got {threads}")
    check_output_path(out, (".parquet", ".csv"))
    sc, source, _, options, _, params, policies = load_game(kw)
    man = manifest(sc, source, options, seed, first_game, games, policies, params)
    study_options = HX.Options(**asdict(options), scenario=str(source))
    # the tasks go to FILE.store/ as they finish: a --resume run reads them back
    store, (df, run) = play_into_store(
        out, be, threads=threads, quiet=quiet, kinds=HEX_KINDS,
        play=lambda **task_args: study.run(
            HX.KEY, HX.simulate_plan(man, study_options, block=block), block=block,
            threads=threads, resume=be["resume"], **task_args,
        ),
    )  # fmt: skip
    if len(df) == 0:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)
    man.update(threads=run.threads, seconds=run.seconds, games_done=len(df),
               backend=run.backend, block=block, interrupted=run.interrupted)  # fmt: skip
    write(df, out, man)
    if not run.interrupted:
        shutil.rmtree(store, ignore_errors=True)
    wins = df["winner"].value_counts()
    click.echo(
        f"{len(df)} games of Maneuver, blue ({policies[0]}) vs red ({policies[1]}), seed {seed}, "
        f"{options.describe()}: blue won {wins.get('a', 0)}, red won {wins.get('b', 0)}, "
        f"draws {wins.get('draw', 0)}; {run.seconds:.1f} s on {run.threads} thread(s)"
        + (" of a Dask cluster" if run.backend == "dask" else "")
        + (f" ({run.tasks_resumed} task(s) read back from {store})" if run.tasks_resumed else "")
        + f"; wrote {out}",
        err=True,
    )
    if run.interrupted:
        click.echo(
            f"interrupted: the finished games were written; --resume goes on from {store}",
            err=True,
        )
        sys.exit(130)
