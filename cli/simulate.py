"""``manoeuvre-sim simulate``: many games between two armies, one row per game (a front end
over ``studies/simulate.py``: its command spec and run, Manoeuvre's ``simulate_plan``)."""

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


@click.command()
@army_options
@run_range_options
@policy_options
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option(
    "--block",
    type=int,
    default=5000,
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
    from manoeuvre_sim.cli._common import play_with_progress
    from manoeuvre_sim.studies import simulate as study

    be = pop_backend(kw)
    options = pop_game_options(kw)  # the one parser of the game options (cli/_common.py)
    with army_option({"--army-a": kw["army_a"], "--army-b": kw["army_b"]}):
        spec = study.command_spec(
            "manoeuvre", side_a=kw["army_a"], side_b=kw["army_b"], policy_a=kw["policy_a"],
            policy_b=kw["policy_b"], games=kw["games"], seed=kw["seed"],
            first_game=kw["first_game"], block=block, threads=kw["threads"], options=options,
            relax=kw["relax"], flags={"card_bits": card_bits}, out=out, resume=be["resume"],
        )  # fmt: skip
    res = play_with_progress(
        be, threads=spec.threads, quiet=quiet,
        kinds=engine_kernels((spec.policy_a, spec.policy_b)),
        play=lambda **run: study.run_spec(spec, out, resume=be["resume"], **run),
    )  # fmt: skip
    if len(res.frame) == 0:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)
    m, df = res.manifest, res.frame
    wins = df["winner"].value_counts()
    click.echo(
        f"{m['games_done']} games {m['army_a']} (a) vs {m['army_b']} (b), seed {spec.seed}: "
        f"a won {wins.get('a', 0)}, b won {wins.get('b', 0)}, draws {wins.get('draw', 0)}; "
        f"{m['seconds']:.1f} s on {m['threads']} thread(s)"
        + (" of a Dask cluster" if m["backend"] == "dask" else "")
        + f"; wrote {out}",
        err=True,
    )
    if res.interrupted:
        click.echo(
            f"interrupted: the finished games were written; --resume goes on from {res.store}",
            err=True,
        )
        sys.exit(130)
