"""The ``manoeuvre-sim`` command line.

Each subcommand group lives in its own module and is imported only when it is invoked, so
``--help`` is instant and never compiles a numba kernel. Besides :data:`SUBCOMMANDS`
(Manoeuvre's commands and the ``hex`` group of Maneuver's), every registered game without
commands of its own is a group of the shared studies (``game_commands.py``), listed by its
title.
"""

from __future__ import annotations

import importlib
import sys

import click

from manoeuvre_sim import __version__
from manoeuvre_sim.manoeuvre import RULES_VERSION

# name -> (module, attribute, one-line help shown by --help without importing the module)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "armies": ("manoeuvre_sim.cli.armies", "armies", "List, show, validate and export armies."),
    "maps": ("manoeuvre_sim.cli.maps", "maps", "List and show the map sections."),
    "simulate": ("manoeuvre_sim.cli.simulate", "simulate", "Play many games, one row per game."),
    "odds": ("manoeuvre_sim.cli.odds", "odds", "Combat odds: exact, simulated, tables, charts."),
    "tournament": (
        "manoeuvre_sim.cli.tournament",
        "tournament",
        "Policies against each other: mirrored armies, swapped seats, 95% CIs.",
    ),
    "replay": ("manoeuvre_sim.cli.replay", "replay", "One game turn by turn, as text or PDF."),
    "report": (
        "manoeuvre_sim.cli.report",
        "report",
        "One printable PDF of the whole analysis, from study directories.",
    ),
    "balance": (
        "manoeuvre_sim.cli.balance",
        "balance",
        "Army balance: win-rate matrix, ratings, seats, victory types, PDF.",
    ),
    "cards": (
        "manoeuvre_sim.cli.cards",
        "cards",
        "Card value for one army: observed in play and by ablation, PDF.",
    ),
    "tune": (
        "manoeuvre_sim.cli.tune",
        "tune",
        "A style tuned by self-play (CMA-ES), evaluated on held-out seeds.",
    ),
    "hex": (
        "manoeuvre_sim.cli.hexgame",
        "hex_group",
        "Maneuver (the introductory hex wargame, rules 001): a second game, its own commands.",
    ),
    "fix": (
        "manoeuvre_sim.cli.fix",
        "fix",
        "The least-cost errata that evens the armies: paired, sequential, confirmed.",
    ),
    "compare": ("manoeuvre_sim.cli.compare", "compare", "Two studies of one game side by side."),
    "site": ("manoeuvre_sim.cli.site", "site", "A static copy of the workbench's study pages."),
    "ui": (
        "manoeuvre_sim.cli.ui",
        "ui",
        "The browser workbench: odds, studies and replays in a local web page.",
    ),
    "why": (
        "manoeuvre_sim.cli.why",
        "why",
        "Why one army scores what it does against another: Shapley shares of the gap.",
    ),
    "whatif": (
        "manoeuvre_sim.cli.whatif",
        "whatif",
        "A changed army or card against the base data, paired games, PDF.",
    ),
}


class LazyGroup(click.Group):
    """A group whose subcommands (``subcommands``: name -> (module, attribute, help)) are
    imported only when invoked; ``--help`` lists them from the table alone."""

    subcommands: dict[str, tuple[str, str, str]] = SUBCOMMANDS

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.subcommands)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.subcommands:
            return None
        module, attr, _ = self.subcommands[name]
        return getattr(importlib.import_module(module), attr)

    def command_help(self, name: str) -> str:
        return self.subcommands[name][2]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.command_help(name)) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class TopLevelGroup(LazyGroup):
    """The top-level group: :data:`SUBCOMMANDS`, and a group per registered game without
    hand-written commands (``game_commands.py``: the shared studies as its commands, listed
    by the game's title alone)."""

    def _games(self) -> list[str]:
        from manoeuvre_sim.cli.game_commands import registered_games

        return registered_games(self.subcommands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*self.subcommands, *self._games()])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.subcommands:
            return super().get_command(ctx, name)
        if name not in self._games():
            return None
        from manoeuvre_sim.cli.game_commands import game_group

        return game_group(name)

    def command_help(self, name: str) -> str:
        if name in self.subcommands:
            return super().command_help(name)
        from manoeuvre_sim.cli.game_commands import game_help

        return game_help(name)


@click.group(cls=TopLevelGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, prog_name="manoeuvre-sim", message=f"%(prog)s %(version)s (rules {RULES_VERSION})"
)
def cli() -> None:
    """Rules engine, combat odds and balance analysis for Manoeuvre (GMT Games)."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors print one clear message and exit with status 2."""
    from manoeuvre_sim.core.errors import ManoeuvreError

    try:
        cli.main(args=argv, prog_name="manoeuvre-sim", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except ManoeuvreError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
