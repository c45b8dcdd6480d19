"""``manoeuvre-sim hex balance``: Maneuver's variant study (issue 25 part 2), written to a
directory as the study store, CSV tables, a manifest, a summary and a PDF."""

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

HELP = f"""{GAME_TITLE}: the variant study. Every variant of the rules you list, every
ordered pairing of --policies (each player once blue and once red, mirrors included), and
per variant and pairing the first player's, blue's and red's win rates and the draw rate
with 95% Wilson intervals, how games end (a capture with rule [12]'s margin, a capture the
margin did not let win, a draw after the last turn) and the turn each Capital fell.

\b
Variants: every combination of the lists given, an option not given staying as in the
basic game; none given: the basic game, each advanced rule on its own (quality back:front,
front:back, step losses, step replacements) and the borders large_blue, large_red.
\b
  --borders basic,large_blue        border lines of the scenario (rules [2], [13] 1)
  --quality front:front,back:front  BLUE:RED army quality (rule [13] 2): front, back, or
                                    K = a mix, the side's first K combat units weak
  --step-losses off|on|both         rule [13] 3
  --step-replacements off|on|both   rule [13] 4

\b
Example: manoeuvre-sim hex balance --out reports/hex-balance --borders basic,large_blue
  --step-losses both --policies capital,attrition --games-per-pairing 2000

Every variant plays the same seeds (a pairing's seed comes from --seed and its two
players alone), so the variants differ by their rules only. Writes DIR/games.parquet/ (the
store; --resume finishes an interrupted study), variants.csv, endings.csv,
capital_fell.csv, manifest.json, summary.txt and hex_balance.pdf."""


@click.command(help=HELP, short_help="The variant study: win rates per rule variant and pairing, "
               "endings, Capital falls.")  # fmt: skip
@click.option("--borders", metavar="B1,B2", help="Border lines to compare (default: basic).")
@click.option(
    "--quality", metavar="BLUE:RED,...", help="Army qualities to compare (default: front:front)."
)
@click.option("--step-losses", metavar="off|on|both", help="Rule [13] 3 (default: off).")
@click.option("--step-replacements", metavar="off|on|both", help="Rule [13] 4 (default: off).")
@policies_option
@click.option(
    "--games-per-pairing",
    type=int,
    default=2000,
    show_default=True,
    help="Games per variant and ordered pairing (blue's player, red's player).",
)
@turns_option
@scenario_option()
@click.option(
    "--precision",
    type=float,
    help="Instead of a fixed N: add games until every variant and pairing's first-player "
    "win rate has a 95% interval of at most ±P (e.g. 0.01), or --max-games.",
)
@click.option(
    "--max-games",
    type=int,
    default=20000,
    show_default=True,
    help="With --precision: the most games per variant and pairing.",
)
@click.option(
    "--captured-capital-zoc",
    is_flag=True,
    help="Every variant with interpretation H6's other reading: a captured Capital keeps its ZOC.",
)
@click.option(
    "--retreat-apart",
    is_flag=True,
    help="Every variant with interpretation H11's earlier reading: a retreating unit may not "
    "enter a hex holding a friend that retreats in the same combat.",
)
@study_options(out="reports/hex-balance", out_help="Directory for games.parquet/, the CSV "
               "tables, hex_balance.pdf, summary.txt, manifest.json.")  # fmt: skip
def balance(**kw) -> None:
    run_hex("balance", kw)
