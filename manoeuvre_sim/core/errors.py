"""Errors the user can act on: each names the file, the field and what was expected."""

from __future__ import annotations


class ManoeuvreError(Exception):
    """Base class of every error the command line reports without a traceback."""


class DataError(ManoeuvreError):
    """An input file (army, map, terrain) is malformed or breaks a rule of the game.

    Parameters
    ----------
    source : str
        The file (or other source) the bad value came from.
    problems : list of (field, message)
        ``field`` is a readable path into the file (``units #3 "4th Regiment" > cards #5 >
        attack``) or ``""`` for the file as a whole.
    """

    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = str(source)
        self.problems = list(problems)
        super().__init__(self.render())

    def render(self) -> str:
        lines = []
        for field, msg in self.problems:
            where = f"{self.source}: {field}" if field else self.source
            lines.append(f"{where}: {msg}")
        return "\n".join(lines)


class UsageError(ManoeuvreError):
    """A bad option or argument value given on the command line or to a public function."""


def did_you_mean(typed: str, known) -> str:
    """``"; did you mean 'France'?"`` when ``typed`` is close to one of ``known`` (difflib,
    case-insensitive), else ``""``."""
    import difflib

    by_key = {str(k).casefold(): str(k) for k in known}
    close = difflib.get_close_matches(str(typed).casefold(), list(by_key), n=1, cutoff=0.75)
    return f"; did you mean {by_key[close[0]]!r}?" if close else ""
