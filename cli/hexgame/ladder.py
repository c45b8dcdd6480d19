"""``manoeuvre-sim hex ladder``: Maneuver's handicap ladder (issue 25 part 3), written to a
directory as the study store, ladder.csv, fit.json, a manifest, a summary and a PDF."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import run_study, study_options
from manoeuvre_sim.cli.hexgame._options import scenario_option, turns_option
from manoeuvre_sim.hexgame import GAME_TITLE, POLICIES

HELP = f"""{GAME_TITLE}: the handicap ladder, army quality (rule [13] 2) as a balancing
tool, like komi in Go. For one variant, rung k puts k of the favoured side's combat units
(its first k in scenario order, or in the order of --order's unit types) on their weak
side, k = 0..n; every rung plays the same
seeds. A fractional logit of the favoured side's points (win 1, draw 1/2, loss 0) on k
(statsmodels GLM, covariance clustered on the game) gives the handicap k* at which its score
is 1/2, with a 95% interval (delta method), and the nearest whole handicaps.

\b
Which asymmetry? With the basic border and --first random, blue and red are the same
game (the first player is a fair coin per game), so there is nothing to handicap: ladder
an asymmetric variant instead,
  --border large_blue    the large side of rule [13] 1 (blue favoured), or
  --first blue           blue always moves first (the first-player advantage).
--favoured auto (default) plays k = 0 first and handicaps the side with the higher
score; --favoured blue|red names it.

\b
Example: manoeuvre-sim hex ladder --border large_blue --games 2000 --out reports/hex-ladder

Writes DIR/games.parquet/ (the store; --resume finishes an interrupted ladder),
ladder.csv, fit.json, manifest.json, summary.txt and hex_ladder.pdf."""


@click.command(help=HELP, short_help="The handicap ladder: the army-quality handicap that makes "
               "a variant even.")  # fmt: skip
@click.option("--border", default="basic", show_default=True, help="Border line (rule [13] 1).")
@click.option("--first", type=click.Choice(["random", "blue", "red"]), default="random",
              show_default=True, help="Who moves first (rule [3]).")  # fmt: skip
@click.option("--step-losses", is_flag=True, help="Rule [13] 3 on every rung.")
@click.option("--step-replacements", is_flag=True, help="Rule [13] 4 on every rung.")
@click.option("--favoured", type=click.Choice(["auto", "blue", "red"]), default="auto",
              show_default=True, help="The side handicapped; auto: the better at k = 0.")  # fmt: skip
@click.option("--max-k", type=int, help="The top rung (default: every combat unit).")
@click.option("--order", metavar="TYPE1,TYPE2", help="The order in which units are weakened, "
              "by type (e.g. cavalry,artillery,infantry; each type's units in scenario order, "
              "types not named last); default: scenario order.")  # fmt: skip
@click.option("--policies", default="capital", show_default=True,
              help=f"Players ({' | '.join(POLICIES)}, search[:B[:S]]); every ordered "
              "pairing is played on every rung and pooled.")  # fmt: skip
@click.option("--games", type=int, default=2000, show_default=True,
              help="Games per rung and ordered pairing.")  # fmt: skip
@turns_option
@scenario_option("A scenario TOML file.")
@study_options(out="reports/hex-ladder", out_help="Directory for every output.")
def ladder(**kw) -> None:
    from manoeuvre_sim.analyses.hexgame.ladder import LadderFiles
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
    from manoeuvre_sim.hexgame.studies import ladder as HL

    run_study(HL.command_spec, HL.run_spec, kw, kinds=HEX_KINDS, files=LadderFiles)
