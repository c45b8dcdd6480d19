"""``manoeuvre-sim hex``: the commands of Maneuver, the introductory hex wargame (rules 001).

A group of its own so that no user mixes the two games up (Maneuver and Manoeuvre differ by
one letter). Subcommands are imported only when invoked, as the top-level ones are; the
study kinds of Maneuver (``studies.kinds("hex")``) are its commands too, each this
package's module of the kind's name.
"""

from __future__ import annotations

import click

from manoeuvre_sim.cli.game_commands import LazyGroup
from manoeuvre_sim.hexgame import GAME_TITLE

# the commands that are no study kind: name -> (module, attribute, one-line help shown by
# --help without importing the module)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "odds": (
        "manoeuvre_sim.cli.hexgame.odds",
        "odds",
        "Exact and simulated combat odds, and the printable results-table chart.",
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
}


class LazyHexGroup(LazyGroup):
    subcommands = SUBCOMMANDS
    game = "hex"  # its study kinds (studies.kinds) are commands too: this package's own
    package = __name__  # cli/hexgame/<kind>.py, else built from the kind's COMMAND


@click.group(cls=LazyHexGroup, name="hex", help=f"{GAME_TITLE}: a second game, not Manoeuvre.")
def hex_group() -> None:
    pass
