"""The ``manoeuvre-sim`` command line.

Each subcommand group lives in its own module and is imported only when it is invoked, so
``--help`` is instant and never compiles a numba kernel. Besides :data:`SUBCOMMANDS` (the
commands that are no study kind, and the ``hex`` group of Maneuver's), the commands are
Manoeuvre's study kinds (``studies.kinds``, found or built by ``game_commands.py``), and
every registered game without commands of its own is a group of its study kinds, listed
by its title.
"""

from __future__ import annotations

import sys

import click

from manoeuvre_sim import __version__
from manoeuvre_sim.cli.game_commands import LazyGroup
from manoeuvre_sim.manoeuvre import RULES_VERSION


def _here(name: str, help: str) -> tuple[str, str, str]:
    """A command of this package: the click object ``name`` of ``manoeuvre_sim.cli.<name>``."""
    return f"manoeuvre_sim.cli.{name}", name, help


# the commands that are no study kind: name -> (module, attribute, one-line help shown by
# --help without importing the module)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "armies": _here("armies", "List, show, validate and export armies."),
    "maps": _here("maps", "List and show the map sections."),
    "odds": _here("odds", "Combat odds: exact, simulated, tables, charts."),
    "replay": _here("replay", "One game turn by turn, as text or PDF."),
    "report": _here("report", "One printable PDF of the whole analysis, from study directories."),
    "tune": _here("tune", "A style tuned by self-play (CMA-ES), evaluated on held-out seeds."),
    "hex": ("manoeuvre_sim.cli.hexgame", "hex_group",
            "Maneuver (the introductory hex wargame, rules 001): a second game, its own commands."),
    "compare": _here("compare", "Two studies of one game side by side."),
    "site": _here("site", "A static copy of the workbench's study pages."),
    "ui": _here("ui", "The browser workbench: odds, studies and replays in a local web page."),
}  # fmt: skip


class TopLevelGroup(LazyGroup):
    """The top-level group: :data:`SUBCOMMANDS`, Manoeuvre's study kinds (its commands are
    the top-level ones: ``games.command_group``), and a group per registered game without
    hand-written commands (``game_commands.py``: its study kinds as its commands, listed by
    the game's title alone)."""

    subcommands = SUBCOMMANDS
    game = "manoeuvre"
    package = "manoeuvre_sim.cli"

    def _games(self) -> list[str]:
        from manoeuvre_sim.cli.game_commands import registered_games

        return registered_games(self.subcommands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self._games()])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.subcommands or name not in self._games():
            return super().get_command(ctx, name)
        from manoeuvre_sim.cli.game_commands import game_group

        return game_group(name)

    def command_help(self, name: str, studies: dict[str, str]) -> str:
        if name in self.subcommands or name in studies:
            return super().command_help(name, studies)
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
