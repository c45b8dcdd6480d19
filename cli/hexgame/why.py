"""``manoeuvre-sim hex why``: why blue scores what it does against red in a variant of
Maneuver: the gap from 50 % shared out among each side's unit types, army quality and
territory by their Shapley values on paired seeds (``studies/why.py``,
``hexgame/why_parts.py``; docs/why.md, "Maneuver")."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import pop_backend, why_options
from manoeuvre_sim.cli.hexgame._options import POLICY_HELP, scenario_option, turns_option
from manoeuvre_sim.hexgame import GAME_TITLE

HELP = f"""{GAME_TITLE}: why blue scores what it does against red. Shares the gap between
blue's score (a win 1, a draw 1/2) and 50 % out among each side's parts: its infantry, its
cavalry, its artillery, its Capital (each type with its counts and values), its army
quality (rule [13] 2) and its territory (the hexes the border gives it beyond the half
line, rule [13] 1). A part switched off is its neutral reference, the same for both sides:
the built-in scenario's units of that type, front, the half line; with every part off the
two sides are one army on a halved map. Each coalition is played on the pairing's seeds in
both seatings (the second with the map turned half round, blue's side in red's seat), so
the seat (who moves first, --first) cancels.

\b
The variant: --scenario, --border, --quality BLUE:RED, the step rules, and --set edits of
either side in hex whatif's language (SIDE/UNIT/FIELD=VALUE or SIDE/quality=Q).
\b
Example: manoeuvre-sim hex why --border large_blue --set blue/Infantry/count=5
  --set blue/Artillery/count=1 --out reports/hex-why"""


@click.command(help=HELP, short_help="Why blue scores what it does against red: Shapley "
               "shares of the gap.")  # fmt: skip
@scenario_option()
@click.option("--border", default="basic", show_default=True, help="A border of the scenario.")
@click.option("--quality", default="front:front", show_default=True, metavar="BLUE:RED",
              help="Army quality (rule [13] 2): front, back or K, per side.")  # fmt: skip
@click.option("--step-losses", is_flag=True, help="Rule [13] 3.")
@click.option("--step-replacements", is_flag=True, help="Rule [13] 4.")
@click.option("--set", "edits", multiple=True, metavar="SIDE/UNIT/FIELD=VALUE",
              help="An edit of blue's or red's units or quality (repeatable).")  # fmt: skip
@click.option("--first", type=click.Choice(["random", "blue", "red"]), default="random",
              show_default=True, help="Who moves first (rule [3]): the seat's, it cancels "
              "over the two seatings.")  # fmt: skip
@turns_option
@click.option("--policy", default="capital", show_default=True,
              help=f"Both seats' player: {POLICY_HELP}")  # fmt: skip
@why_options("reports/hex-why")
def why(**kw) -> None:
    from dataclasses import replace

    from manoeuvre_sim.cli.why import play_and_write
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS, why_sides
    from manoeuvre_sim.hexgame.variants import one_variant
    from manoeuvre_sim.studies import why as W

    out, quiet, force, paper = kw.pop("out"), kw.pop("quiet"), kw.pop("force"), kw.pop("paper")
    be = pop_backend(kw)
    rules = one_variant(kw.pop("border"), kw.pop("quality"), kw.pop("step_losses"),
                        kw.pop("step_replacements"))  # fmt: skip
    options = replace(rules.options(kw.pop("turns"), kw.pop("scenario")), first=kw.pop("first"))
    sides = why_sides(options, kw.pop("edits"))
    spec = W.command_spec("hex", sides, options=options, flag="--set", **kw)  # every check
    play_and_write(
        "hex", spec, be, out=out, quiet=quiet, force=force, paper=paper, kinds=WARMUP_KINDS
    )
