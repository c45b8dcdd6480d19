"""``manoeuvre-sim hex setup``: where the Capital stands (issue 25 part 4), written to a
directory as the study store, a CSV table, a manifest, a summary and a PDF map."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import run_study, study_options
from manoeuvre_sim.cli.hexgame._options import scenario_option, turns_option
from manoeuvre_sim.hexgame import GAME_TITLE

HELP = f"""{GAME_TITLE}: where the Capital stands. Rule [3]: the first player sets up its
Capital first. Plays --games games of one pairing (--policy-a blue, --policy-b red; default
capital on both sides) under one variant of the rules, and groups them by the hex the first
player's Capital stood on: per hex the games, the first player's win rate with its 95%
Wilson interval, and the draw rate; the same for the second player's Capital. It also says
how concentrated the players' choices are (scripted players may use few hexes);
--capital random draws both Capitals uniformly among the legal hexes instead (a study
device, not a rule), so that the map covers every legal hex.

\b
Example: manoeuvre-sim hex setup --out reports/hex-setup --games 40000 --seed 1

Writes DIR/games.parquet/ (the store; --resume finishes an interrupted study),
capital_hexes.csv, manifest.json, summary.txt and hex_setup.pdf (the map coloured by win
rate, the count in each hex)."""


@click.command(
    help=HELP, short_help="Where the Capital stands: win rate by the Capital's hex, a map."
)
@click.option("--games", type=int, default=20000, show_default=True)
@click.option("--policy-a", default="capital", show_default=True, help="Blue's player.")
@click.option("--policy-b", default="capital", show_default=True, help="Red's player.")
@click.option("--border", default="basic", show_default=True, help="Rules [2], [13] 1.")
@click.option("--quality", metavar="BLUE:RED", help="Army quality (rule [13] 2), as hex balance.")
@click.option("--step-losses", metavar="off|on", help="Rule [13] 3 (default: off).")
@click.option("--step-replacements", metavar="off|on", help="Rule [13] 4 (default: off).")
@click.option("--capital", type=click.Choice(["player", "random"]), default="player",
              show_default=True, help="random: a study device, not a rule: both Capitals are "
              "drawn uniformly among the hexes rule [3] allows (the players play the rest), so "
              "the map covers every legal hex.")  # fmt: skip
@turns_option
@scenario_option()
@study_options(
    out="reports/hex-setup",
    out_help="Directory for games.parquet/, capital_hexes.csv, hex_setup.pdf, summary.txt, "
    "manifest.json.",
    block=2000,
)
def setup(**kw) -> None:
    from manoeuvre_sim.analyses.hexgame.setup import SetupFiles
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
    from manoeuvre_sim.hexgame.studies import setup as HS

    run_study(HS.command_spec, HS.run_spec, kw, kinds=HEX_KINDS, files=SetupFiles)
