"""``manoeuvre-sim hex whatif``: Maneuver's what-if (issue 25 part 5): the base scenario and
a variant of it on the same seeds, the paired change in the win and draw rates."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import study_options
from manoeuvre_sim.cli.hexgame._options import (
    policies_option,
    run_hex,
    scenario_option,
    turns_option,
)
from manoeuvre_sim.hexgame import GAME_TITLE

HELP = f"""{GAME_TITLE}: what-if. Plays the base scenario and a variant of it on the same
seeds (game i of each pairing seeded alike in both), every ordered pairing of --policies,
and gives per pairing and pooled blue's, red's and the first player's win rate and the draw
rate in both, the paired change with its 95% interval from the per-game differences, and
how many games changed outcome. An identical variant gives exactly zero.

\b
The variant: --variant FILE (an edited copy of the scenario), or one --set per edit of the
base scenario (repeatable), SIDE/UNIT/FIELD=VALUE:
  SIDE   blue, red or both
  UNIT   an entry of the side's units by its name (Infantry), its type (infantry: every
         entry of that type) or its position #N (1-based)
  FIELD  strength, attack, defence (VALUE F: the front side; F:R both sides), ma, count
or SIDE/quality=Q (SIDE blue or red, Q front, back or K): the variant's army quality of
that side (rule [13] 2; the base keeps --quality), as hex fix prints it.
\b
Example: manoeuvre-sim hex whatif --out reports/hex-whatif
  --set blue/infantry/strength=5 --games-per-pairing 2000

Rule options (one value each, both scenarios): --border, --quality BLUE:RED,
--step-losses, --step-replacements. Writes DIR/games.parquet/ (base and variant, the label
column; --resume finishes an interrupted run), whatif.csv, manifest.json, summary.txt,
hex_whatif.pdf and, for --set, variant_scenario.toml."""


@click.command(help=HELP, short_help="What-if: a scenario edit's paired change in win and draw "
               "rates, common dice.")  # fmt: skip
@click.option("--variant", type=click.Path(dir_okay=False), help="The variant scenario file.")
@click.option("--set", "edits", multiple=True, metavar="SIDE/UNIT/FIELD=VALUE",
              help="An edit of the base scenario (repeatable).")  # fmt: skip
@scenario_option("The base scenario file (default: the built-in reconstruction).")
@click.option("--border", default="basic", show_default=True, help="A border of the scenario.")
@click.option("--quality", default="front:front", show_default=True, metavar="BLUE:RED",
              help="Army quality (rule [13] 2): front, back or K, per side.")  # fmt: skip
@click.option("--step-losses", is_flag=True, help="Rule [13] 3.")
@click.option("--step-replacements", is_flag=True, help="Rule [13] 4.")
@policies_option
@click.option("--games-per-pairing", type=int, default=2000, show_default=True,
              help="Games per ordered pairing, in each scenario.")  # fmt: skip
@turns_option
@study_options(out="reports/hex-whatif", out_help="Directory for games.parquet/, whatif.csv, "
               "hex_whatif.pdf, summary.txt, manifest.json.")  # fmt: skip
def whatif(**kw) -> None:
    run_hex("whatif", kw)
