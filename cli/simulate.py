"""``manoeuvre-sim simulate``: many games between two armies, one row per game (a front end
over ``studies/simulate.py``: its command spec and run, Manoeuvre's ``simulate_plan``)."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import one_file_options, play_one_file, pop_backend, ran_text
from manoeuvre_sim.cli.manoeuvre_options import (
    army_option,
    army_options,
    engine_kernels,
    policy_options,
    pop_game_options,
    rule_options,
)


@click.command(short_help="Play many games, one row per game.")
@army_options
@one_file_options
@policy_options
@click.option(
    "--card-bits", is_flag=True, help="Also record which card copies were drawn and played."
)
@rule_options
def simulate(out: str, card_bits: bool, quiet: bool, block: int, **kw) -> None:
    """Play --games games of --army-a against --army-b and write one row per game."""
    from manoeuvre_sim.cli.common import wins_text
    from manoeuvre_sim.studies import simulate as study

    be = pop_backend(kw)
    options = pop_game_options(kw)  # the one parser of the game options (manoeuvre_options)
    with army_option({"--army-a": kw["army_a"], "--army-b": kw["army_b"]}):
        spec = study.command_spec(
            "manoeuvre", side_a=kw["army_a"], side_b=kw["army_b"], policy_a=kw["policy_a"],
            policy_b=kw["policy_b"], games=kw["games"], seed=kw["seed"],
            first_game=kw["first_game"], block=block, threads=kw["threads"], options=options,
            relax=kw["relax"], flags={"card_bits": card_bits}, out=out, resume=be["resume"],
        )  # fmt: skip

    def summary(res) -> str:
        m = res.manifest
        return (f"{m['games_done']} games {m['army_a']} (a) vs {m['army_b']} (b), seed "
                f"{spec.seed}: {wins_text(res.frame)}; "
                f"{ran_text(m['seconds'], m['threads'], m['backend'])}; wrote {out}")  # fmt: skip

    play_one_file(be, spec, out, quiet=quiet, summary=summary,
                  kinds=engine_kernels((spec.policy_a, spec.policy_b)))  # fmt: skip
