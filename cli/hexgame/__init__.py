"""``manoeuvre-sim hex``: the commands of Maneuver, the introductory hex wargame (rules 001).

A group of its own so that no user mixes the two games up (Maneuver and Manoeuvre differ by
one letter). Subcommands are imported only when invoked, as the top-level ones are.
"""

from __future__ import annotations

import click

from manoeuvre_sim.cli.main import LazyGroup
from manoeuvre_sim.hexgame import GAME_TITLE

# name -> (module, attribute, one-line help shown by --help without importing the module)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "balance": (
        "manoeuvre_sim.cli.hexgame.balance",
        "balance",
        "The variant study: win rates per rule variant and pairing, endings, Capital falls.",
    ),
    "fix": (
        "manoeuvre_sim.cli.hexgame.fix",
        "fix",
        "The balance fixer: the least-cost scenario errata that evens a variant.",
    ),
    "ladder": (
        "manoeuvre_sim.cli.hexgame.ladder",
        "ladder",
        "The handicap ladder: the army-quality handicap that makes a variant even.",
    ),
    "odds": (
        "manoeuvre_sim.cli.hexgame.odds",
        "odds",
        "Exact and simulated combat odds, and the printable results-table chart.",
    ),
    "setup": (
        "manoeuvre_sim.cli.hexgame.setup",
        "setup",
        "Where the Capital stands: win rate by the Capital's hex, a map.",
    ),
    "simulate": (
        "manoeuvre_sim.cli.hexgame.simulate",
        "simulate",
        "Play many games of Maneuver, one row per game.",
    ),
    "replay": (
        "manoeuvre_sim.cli.hexgame.replay",
        "replay",
        "One game of Maneuver as text: the events and the board each turn.",
    ),
    "scenario": (
        "manoeuvre_sim.cli.hexgame.scenario",
        "scenario",
        "Check a Maneuver scenario file: its hash, armies and borders on the map.",
    ),
    "whatif": (
        "manoeuvre_sim.cli.hexgame.whatif",
        "whatif",
        "What-if: a scenario edit's paired change in win and draw rates, common dice.",
    ),
    "tournament": (
        "manoeuvre_sim.cli.hexgame.tournament",
        "tournament",
        "Every pair of Maneuver players, both seatings: scores with intervals.",
    ),
}


class LazyHexGroup(LazyGroup):
    subcommands = SUBCOMMANDS


@click.group(cls=LazyHexGroup, name="hex", help=f"{GAME_TITLE}: a second game, not Manoeuvre.")
def hex_group() -> None:
    pass
