"""``manoeuvre-sim simulate``: many games between two armies, one row per game."""

from __future__ import annotations

import sys

import click

from manoeuvre_sim.cli._common import (
    army_options,
    engine_kernels,
    parse_setup,
    policy_options,
    rule_options,
    start_description,
)


@click.command()
@army_options
@click.option("--games", type=int, default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False), help="FILE.parquet or FILE.csv"
)
@policy_options
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option(
    "--card-bits", is_flag=True, help="Also record which card copies were drawn and played."
)
@rule_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(out: str, card_bits: bool, quiet: bool, **kw) -> None:
    """Play --games games of --army-a against --army-b and write one row per game."""
    from manoeuvre_sim.results import check_output_path, to_frame, write
    from manoeuvre_sim.runner import SimConfig, check_map_pool
    from manoeuvre_sim.runner import simulate as run

    config = SimConfig(**parse_setup(kw))
    check_map_pool(config)
    check_output_path(out, (".parquet", ".csv"))  # before any game is played
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(total=config.games, unit="game", file=sys.stderr, leave=False)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            if bar.desc != "playing":
                bar.set_description("playing")
            bar.n = done
            bar.refresh()

    if bar is not None:
        bar.set_description(start_description(engine_kernels((config.policy_a, config.policy_b))))
    res = run(config, progress)
    if bar is not None:
        bar.close()
    if len(res.records) == 0:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)
    df = to_frame(res.records, res.manifest, card_bits=card_bits)
    write(df, out, res.manifest)
    m = res.manifest
    wins = df["winner"].value_counts()
    click.echo(
        f"{m['games_done']} games {m['army_a']} (a) vs {m['army_b']} (b), seed {config.seed}: "
        f"a won {wins.get('a', 0)}, b won {wins.get('b', 0)}, draws {wins.get('draw', 0)}; "
        f"{m['seconds']:.1f} s on {m['threads']} thread(s); wrote {out}",
        err=True,
    )
    if res.interrupted:
        click.echo("interrupted: the finished games were written", err=True)
        sys.exit(130)
