"""``manoeuvre-sim simulate``: many games between two armies, one row per game."""

from __future__ import annotations

import sys

import click

from manoeuvre_sim.cli._common import (
    army_option,
    army_options,
    backend_options,
    engine_kernels,
    policy_options,
    pop_backend,
    pop_game_options,
    rule_options,
    run_range_options,
)

DEFAULT_BLOCK = 5000


@click.command()
@army_options
@run_range_options
@policy_options
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option(
    "--block",
    type=int,
    default=DEFAULT_BLOCK,
    show_default=True,
    help="Games per task (one Parquet file each in FILE.store/ while the run goes).",
)
@click.option(
    "--card-bits", is_flag=True, help="Also record which card copies were drawn and played."
)
@rule_options
@backend_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(out: str, card_bits: bool, quiet: bool, block: int, **kw) -> None:
    """Play --games games of --army-a against --army-b and write one row per game."""
    import shutil

    from manoeuvre_sim.cli._common import play_into_store
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.core.results import check_output_path, write
    from manoeuvre_sim.manoeuvre.adapter import simulate_manifest, simulate_plan
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare
    from manoeuvre_sim.studies import simulate as study

    be = pop_backend(kw)
    options = pop_game_options(kw)  # the one parser of the game options (cli/_common.py)
    config = SimConfig(**kw, **options.sim_fields())
    if block < 1:
        raise UsageError(f"--block: expected a positive number of games, got {block}")
    check_output_path(out, (".parquet", ".csv"))  # before any game is played
    with army_option({"--army-a": config.army_a, "--army-b": config.army_b}):
        prepared = prepare(config)  # armies loaded, a fixed map checked against the pool
    # the tasks go to FILE.store/ as they finish: a --resume run reads them back
    plan = simulate_plan(config, prepared, block=block, card_bits=card_bits)
    store, (df, outcome) = play_into_store(
        out, be, threads=config.threads, quiet=quiet,
        kinds=engine_kernels((config.policy_a, config.policy_b)),
        play=lambda **run: study.run("manoeuvre", plan, block=block, threads=config.threads,
                                     resume=be["resume"], **run),
    )  # fmt: skip
    manifest = simulate_manifest(config, prepared, df, outcome, block=block)
    interrupted = outcome.interrupted
    if len(df) == 0:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)
    write(df, out, manifest)
    if not interrupted:
        shutil.rmtree(store, ignore_errors=True)
    m = manifest
    wins = df["winner"].value_counts()
    click.echo(
        f"{m['games_done']} games {m['army_a']} (a) vs {m['army_b']} (b), seed {config.seed}: "
        f"a won {wins.get('a', 0)}, b won {wins.get('b', 0)}, draws {wins.get('draw', 0)}; "
        f"{m['seconds']:.1f} s on {m['threads']} thread(s)"
        + (" of a Dask cluster" if m["backend"] == "dask" else "")
        + f"; wrote {out}",
        err=True,
    )
    if interrupted:
        click.echo(
            f"interrupted: the finished games were written; --resume goes on from {store}",
            err=True,
        )
        sys.exit(130)
