"""``manoeuvre-sim balance``: the army balance study (win-rate matrix, ratings, seats,
victory types), written to a directory as tables, a PDF and the game records."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import run_study
from manoeuvre_sim.cli.manoeuvre_options import (
    army_option,
    army_study_options,
    engine_kernels,
    pop_game_options,
)


@click.command(short_help="Army balance: win-rate matrix, ratings, seats, victory types, PDF.")
@army_study_options(
    out="reports/balance",
    out_help="Directory for games.parquet/, the CSV tables, balance.pdf, summary.txt, "
    "manifest.json.",
    block=1000,
)
@click.option(
    "--policies",
    help="Comma-separated styles: run the study under each (both seats alike) and compare "
    "the armies' standing between them (play-style sensitivity).",
)
@click.option(
    "--precision",
    type=float,
    help="Instead of a fixed N: add games per pairing until every cell's 95% interval is "
    "at most ±P (e.g. 0.02), or --max-games.",
)
@click.option(
    "--max-games",
    type=int,
    default=20000,
    show_default=True,
    help="With --precision: the most games per ordered pairing.",
)
@click.option(
    "--first-game",
    type=int,
    default=0,
    show_default=True,
    help="Play games K .. K+N-1 of each pairing (one part of a study split over machines: "
    "docs/long-studies.md).",
)
def balance(**kw) -> None:
    """Every ordered pairing of the armies, both seats, mirrors included: each army's win
    rate against each opponent (95% Wilson intervals, draws count half), its win rate
    against the field, Bradley-Terry ratings and ranks with intervals, first-player
    advantage, and how games end."""
    from manoeuvre_sim.studies import balance as B

    kw["options"] = pop_game_options(kw)

    def spec_of(**spec_kw):
        # every option is checked, and every army loaded, before the first game
        with army_option({"--armies": spec_kw["armies"]}):
            return B.command_spec("manoeuvre", **spec_kw)

    run_study(spec_of, B.run_spec, kw, kinds=lambda spec: engine_kernels(
        [x for p in spec.policies for x in (p.policy_a, p.policy_b)]))  # fmt: skip
