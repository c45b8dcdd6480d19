"""``manoeuvre-sim whatif``: a paired experiment between the base data and a variant."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import run_kind
from manoeuvre_sim.cli.manoeuvre_options import army_study_options, engine_kernels, pop_game_options


@click.command(short_help="A changed army or card against the base data, paired games, PDF.")
@army_study_options(
    out="reports/whatif",
    out_help="Directory for games.parquet/, whatif.csv, whatif_field.csv, whatif.pdf, summary.txt.",
)
@click.option(
    "--variant",
    "variant_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="An army .toml file that replaces the base army of the same name (repeatable).",
)
@click.option(
    "--set",
    "edits",
    multiple=True,
    metavar="ARMY/PATH=VALUE",
    help="An inline edit (repeatable): 'France/Garde Imperial/full=8', "
    "'France/Garde Imperial/card2/attack=2d8', 'France/leaders/Napoleon/command=5', "
    "'Russia/cards/Supply=3' (docs/whatif.md).",
)
@click.option(
    "--base-study",
    type=click.Path(file_okay=False),
    help="A balance study's directory (the base's armies, player, seed) whose games are the "
    "base's: read, not played again; only the variant's games and any base games it lacks "
    "are played (the same records as without it).",
)
def whatif(**kw) -> None:
    """Play the balance study on the base data and, on the same seeds, every pairing of a
    changed army with the variant data; report each pairing's change of win rate with a
    paired 95% interval, the changed army's field win rate and rating, and the share of
    games whose outcome changed."""
    kw["options"] = pop_game_options(kw)
    base_study = kw.pop("base_study")
    # every option checked, every army loaded, first
    run_kind("manoeuvre", "whatif", kw, done_key="paired_games", base_study=base_study,
             kinds=lambda spec: engine_kernels([x for p in spec.policies for x in p]))  # fmt: skip
