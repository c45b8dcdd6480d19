"""Maneuver's options of the ``manoeuvre-sim hex`` commands that play games: the scenario,
the rule options, the players (one definition each); what every game's commands share is
in ``cli/common.py``."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import stack
from manoeuvre_sim.hexgame import POLICIES, POLICY_SPECS

POLICY_HELP = " | ".join(POLICY_SPECS)

turns_option = click.option("--turns", type=int, default=10, show_default=True, help="Rule [12].")
SCENARIO_HELP = "A scenario TOML file (default: the built-in reconstruction)."


def scenario_option(help: str = SCENARIO_HELP):
    return click.option("--scenario", type=click.Path(dir_okay=False), help=help)


# the variant study's and the what-if's players: every ordered pairing of them is played
policies_option = click.option(
    "--policies",
    default="capital,attrition",
    show_default=True,
    help=f"Comma-separated players ({' | '.join(POLICIES)}); every ordered pairing is played.",
)


def hex_options(options, source):
    """The game's ``Options`` of a command's rule options and its scenario file ``source``
    (what a study of Maneuver takes)."""
    from dataclasses import asdict

    from manoeuvre_sim.hexgame.adapter import Options

    return Options(**asdict(options), scenario=str(source))


# scenario, border, rule options [3], [12], [13] and the two players
game_options = stack(
    scenario_option(
        "A scenario TOML file (default: the built-in reconstruction, data/hexgame/default.toml)."
    ),
    click.option(
        "--border",
        default="basic",
        show_default=True,
        help="A border line of the scenario (rule [2]; rule [13] 1: large_blue, "
        "large_red in the default scenario).",
    ),
    turns_option,
    click.option(
        "--first",
        type=click.Choice(["random", "blue", "red"]),
        default="random",
        show_default=True,
        help="Who moves first (rule [3]); random: drawn per game.",
    ),
    click.option(
        "--quality-blue",
        default="front",
        show_default=True,
        help="Rule [13] 2, army quality: blue's units on their front or back side, or "
        "a number K: a mixture, its first K combat units (scenario order) back.",
    ),
    click.option("--quality-red", default="front", show_default=True, help="As --quality-blue."),
    click.option("--step-losses", is_flag=True, help="Rule [13] 3."),
    click.option("--step-replacements", is_flag=True, help="Rule [13] 4: one step per turn."),
    click.option(
        "--captured-capital-zoc",
        is_flag=True,
        help="Interpretation H6's other reading: a captured Capital keeps its ZOC.",
    ),
    click.option(
        "--retreat-apart",
        is_flag=True,
        help="Interpretation H11's earlier reading: a retreating unit may not enter a "
        "hex holding a friend that retreats in the same combat.",
    ),
    click.option(
        "--policy-a",
        default="capital",
        show_default=True,
        help=f"Blue's player: {POLICY_HELP}",
    ),
    click.option("--policy-b", default="capital", show_default=True, help="Red's player, as -a."),
    click.option(
        "--params-a",
        metavar="W,T,S,R",
        help="Blue's scripted player's parameters (docs: Maneuver players): weight on "
        "the distance to its target, the estimated difference from which it attacks "
        "voluntarily, weight on staying home, cost of a fatal retreat.",
    ),
    click.option("--params-b", metavar="W,T,S,R", help="Red's, as --params-a."),
)


def load_game(kw: dict):
    """``(scenario, source, packed, options, pol, params, policies)`` from the options
    (``manoeuvre_sim.hexgame.replay_steps.load_game``, which the workbench uses too)."""
    from manoeuvre_sim.hexgame.replay_steps import load_game as load

    return load(kw)


def run_hex(kind: str, kw: dict):
    """The body of a ``hex`` study command of the shared kind ``kind`` (``common.run_kind``
    with Maneuver's kernels for the progress bar)."""
    from manoeuvre_sim.cli.common import run_kind
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS

    return run_kind("hex", kind, kw, kinds=WARMUP_KINDS)
