"""``manoeuvre-sim hex simulate``: many games of Maneuver, one row per game: a front end over
the one ``simulate`` study (``studies/simulate.py``, with ``hexgame/adapter.py``'s
``simulate_plan``: tasks, the store in ``FILE.store/``, ``--resume``, the local and Dask
backends), as ``simulate`` is for Manoeuvre's."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import one_file_options
from manoeuvre_sim.cli.hexgame._options import game_options, hex_options, load_game
from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    short_help="Play many games of Maneuver, one row per game.",
    help=f"{GAME_TITLE}. Play --games games (blue: --policy-a, red: --policy-b), one row per "
    "game, with a manifest (seed, rules version, scenario sha256, options). The finished "
    "blocks go to FILE.store/ as they finish: --resume goes on from there after an "
    "interruption; --backend dask plays them on a Dask cluster (the same records).",
)
@game_options
@one_file_options
def simulate(out, games, seed, first_game, threads, block, quiet, **kw):
    """Play --games games of Maneuver (blue: --policy-a, red: --policy-b), one row each."""
    from manoeuvre_sim.cli.common import play_one_file, pop_backend, ran_text, wins_text
    from manoeuvre_sim.hexgame import adapter as HX
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
    from manoeuvre_sim.studies import simulate as study

    be = pop_backend(kw)
    _, source, _, options, _, params, policies = load_game(kw)
    spec = study.command_spec(
        HX.KEY, side_a="blue", side_b="red", policy_a=policies[0], policy_b=policies[1],
        params_a=params[0], params_b=params[1], games=games, seed=seed,
        first_game=first_game, block=block, threads=threads,
        options=hex_options(options, source), out=out, resume=be["resume"],
    )  # fmt: skip

    def summary(res) -> str:
        run = res.outcome
        return (f"{len(res.frame)} games of Maneuver, blue ({policies[0]}) vs red "
                f"({policies[1]}), seed {seed}, {options.describe()}: "
                f"{wins_text(res.frame, 'blue', 'red')}; "
                f"{ran_text(run.seconds, run.threads, run.backend)}"
                + (f" ({run.tasks_resumed} task(s) read back from {res.store})"
                   if run.tasks_resumed else "")
                + f"; wrote {out}")  # fmt: skip

    # the tasks go to FILE.store/ as they finish: a --resume run reads them back
    play_one_file(be, spec, out, quiet=quiet, kinds=HEX_KINDS, summary=summary)
