"""``manoeuvre-sim hex replay``: one game of Maneuver as a text log with the board."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.hexgame._options import game_options, load_game


@click.command()
@game_options
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--game", "game_index", type=int, default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), help="FILE.txt (default: stdout).")
def replay(seed, game_index, out, **kw):
    """Replay game --game of --seed (the same game as in `hex simulate`): the events and
    the board at the start of every turn."""
    from manoeuvre_sim.errors import UsageError
    from manoeuvre_sim.fileio import atomic_write
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.replay import render

    if seed < 0 or game_index < 0:
        raise UsageError("--seed and --game: expected numbers >= 0")
    sc, _, packed, options, pol, params, policies = load_game(kw)
    st, trace = batch.play_one(seed, game_index, packed, options.array(), pol, params)
    text = render(trace, packed, sc, options.describe(), seed, game_index, policies, st)
    if out:
        with atomic_write(out) as f:
            f.write(text)
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(text, nl=False)
