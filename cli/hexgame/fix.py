"""``manoeuvre-sim hex fix``: Maneuver's balance fixer, the errata of least cost (edits of the
scenario's units and army quality, in ``hex whatif --set``'s words) that brings blue's and
red's win rates under a variant's rules into a band (``studies/fix.py``; docs/fix.md,
"Maneuver"). The fixer's options and run are ``fix``'s (``cli/fix.py``)."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.fix import fix_options, pop_fix, run_fix
from manoeuvre_sim.cli.hexgame._options import POLICY_HELP, scenario_option, turns_option
from manoeuvre_sim.hexgame import GAME_TITLE

HELP = f"""{GAME_TITLE}: the balance fixer. Under one variant's rules (--border, --quality,
--first, the step rules), finds the errata of least cost (fewest printed changes first)
that brings blue's (or red's, --side) win rate against the other into the --target band:
single edits of the scenario's units and army quality, then combinations of the helpful
ones, each played on the base's seeds and judged by an always-valid sequential test; the
answer confirmed on fresh seeds with its paired interval.

\b
The edits (--edits FILE: [kind] with cost and range; default every kind, cost 1, range 1):
  strength  a unit's strength, attack or defence, front or reduced, 1 point
            (blue/Infantry/strength=5, blue/Artillery/attack=5:2)
  movement  a unit's movement allowance, 1 hex (red/Cavalry/ma=6)
  count     a unit entry's counters, 1 (red/Infantry/count=7)
  quality   army quality (rule [13] 2), one combat unit more or fewer weak (blue/quality=2)
Each is hex whatif --set's and replays there: the errata's whatif_set column.

\b
Example: manoeuvre-sim hex fix --border large_blue --side blue --edit blue --out reports/hex-fix

Writes DIR/errata.csv, trail.csv, frontier.csv, the matrices, moved.csv, targets.csv,
summary.txt, manifest.json and the games (DIR/games.parquet/, --resume goes on)."""


@click.command(
    help=HELP,
    short_help="The balance fixer: the least-cost scenario errata that evens a variant.",
)
@fix_options(side="side", flag="--side", kinds="strength, movement, count, quality",
             policy_default="capital", policy_help=POLICY_HELP)  # fmt: skip
@scenario_option()
@click.option("--border", default="basic", show_default=True,
              help="A border line of the scenario (rule [2]; rule [13] 1: large_blue, "
              "large_red in the default scenario).")  # fmt: skip
@click.option("--quality", default="front:front", show_default=True, metavar="BLUE:RED",
              help="The base's army quality (rule [13] 2): front, back or K, per side.")  # fmt: skip
@click.option("--first", type=click.Choice(["random", "blue", "red"]), default="random",
              show_default=True, help="Who moves first (rule [3]); random: drawn per game.")  # fmt: skip
@click.option("--step-losses", is_flag=True, help="Rule [13] 3.")
@click.option("--step-replacements", is_flag=True, help="Rule [13] 4.")
@turns_option
def fix(**kw) -> None:
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS, Options, scenario_sides
    from manoeuvre_sim.hexgame.variants import parse_quality
    from manoeuvre_sim.studies import fix as F

    spec_kw, run = pop_fix(kw)
    F.parse_band(spec_kw["band"])  # the cheap checks first: before the scenario is read
    qb, qr = parse_quality(kw.pop("quality"))
    options = Options(border=kw.pop("border"), turns=kw.pop("turns"), first=kw.pop("first"),
                      quality_blue=qb, quality_red=qr, step_losses=kw.pop("step_losses"),
                      step_replacements=kw.pop("step_replacements"),
                      scenario=kw.pop("scenario"))  # fmt: skip
    spec_kw |= {"options": options, "target_flag": "--side"}
    sides = scenario_sides(options)
    F.command_spec("hex", sides, **spec_kw)  # every option checked before a game
    run_fix("hex", sides, spec_kw, run, WARMUP_KINDS)
