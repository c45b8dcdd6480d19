"""``manoeuvre-sim hex simulate``: many games of Maneuver, one row per game: a front end over
the one ``simulate`` study (``studies/simulate.py``, with ``hexgame/adapter.py``'s
``simulate_plan``: tasks, the store in ``FILE.store/``, ``--resume``, the local and Dask
backends), as ``simulate`` is for Manoeuvre's."""

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
    import sys
    from dataclasses import asdict

    from manoeuvre_sim.cli._common import play_with_progress, pop_backend
    from manoeuvre_sim.hexgame import adapter as HX
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
    from manoeuvre_sim.studies import simulate as study

    be = pop_backend(kw)
    _, source, _, options, _, params, policies = load_game(kw)
    spec = study.command_spec(
        HX.KEY, side_a="blue", side_b="red", policy_a=policies[0], policy_b=policies[1],
        params_a=params[0], params_b=params[1], games=games, seed=seed,
        first_game=first_game, block=block, threads=threads,
        options=HX.Options(**asdict(options), scenario=str(source)), out=out,
        resume=be["resume"],
    )  # fmt: skip
    # the tasks go to FILE.store/ as they finish: a --resume run reads them back
    res = play_with_progress(
        be, threads=threads, quiet=quiet, kinds=HEX_KINDS,
        play=lambda **run: study.run_spec(spec, out, resume=be["resume"], **run),
    )  # fmt: skip
    if len(res.frame) == 0:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)
    df, run = res.frame, res.outcome
    wins = df["winner"].value_counts()
    click.echo(
        f"{len(df)} games of Maneuver, blue ({policies[0]}) vs red ({policies[1]}), seed {seed}, "
        f"{options.describe()}: blue won {wins.get('a', 0)}, red won {wins.get('b', 0)}, "
        f"draws {wins.get('draw', 0)}; {run.seconds:.1f} s on {run.threads} thread(s)"
        + (" of a Dask cluster" if run.backend == "dask" else "")
        + (f" ({run.tasks_resumed} task(s) read back from {res.store})"
           if run.tasks_resumed else "")
        + f"; wrote {out}",
        err=True,
    )  # fmt: skip
    if run.interrupted:
        click.echo(
            f"interrupted: the finished games were written; --resume goes on from {res.store}",
            err=True,
        )
        sys.exit(130)
