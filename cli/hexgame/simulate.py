"""``manoeuvre-sim hex simulate``: many games of Maneuver, one row per game."""

from __future__ import annotations

import click

from manoeuvre_sim.cli._common import run_range_options
from manoeuvre_sim.cli.hexgame._options import game_options, load_game
from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    help=f"{GAME_TITLE}. Play --games games (blue: --policy-a, red: --policy-b), one row per game, with a manifest (seed, rules version, scenario sha256, options)."
)
@game_options
@run_range_options
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option("--block", type=int, default=5000, show_default=True, help="Games per step.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(out, games, seed, first_game, threads, block, quiet, **kw):
    """Play --games games of Maneuver (blue: --policy-a, red: --policy-b), one row each."""
    import time

    import numba
    import numpy as np

    from manoeuvre_sim.cli._common import progress_bar
    from manoeuvre_sim.engine.warmup import HEX_KINDS
    from manoeuvre_sim.errors import UsageError
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.records import manifest, to_frame
    from manoeuvre_sim.results import check_output_path, write

    if games < 1 or block < 1:
        raise UsageError("--games and --block: expected positive numbers")
    if seed < 0 or first_game < 0:
        raise UsageError("--seed and --first-game: expected numbers >= 0")
    if threads < 0:
        raise UsageError(f"--threads: expected 0 (all cores) or more, got {threads}")
    check_output_path(out, (".parquet", ".csv"))
    sc, source, packed, options, pol, params, policies = load_game(kw)
    threads = threads or numba.config.NUMBA_NUM_THREADS
    man = manifest(sc, source, options, seed, first_game, games, policies, params)
    bar, progress = progress_bar(quiet, kinds=HEX_KINDS)
    t0 = time.perf_counter()
    parts = []
    try:
        for lo in range(0, games, block):
            n = min(block, games - lo)
            parts.append(
                batch.play_games(
                    seed, first_game + lo, n, packed, options.array(), pol, params, threads
                )
            )
            progress(lo + n, games)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    man.update(threads=threads, seconds=seconds, games_done=games)
    df = to_frame(np.concatenate(parts), man, first_game)
    write(df, out, man)
    wins = df["winner"].value_counts()
    click.echo(
        f"{games} games of Maneuver, blue ({policies[0]}) vs red ({policies[1]}), seed {seed}, "
        f"{options.describe()}: blue won {wins.get('a', 0)}, red won {wins.get('b', 0)}, "
        f"draws {wins.get('draw', 0)}; {seconds:.1f} s on {threads} thread(s); wrote {out}",
        err=True,
    )
