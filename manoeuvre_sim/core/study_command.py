"""What a study kind declares for its command and its job, as data (issue 39): its options
(:class:`Option`), its one help line, how its command ends (``face``), the count a finished
manifest must hold (``done_key``) and whether the workbench runs it as a job
(:class:`StudyCommand`, a study module's ``COMMAND``).

The faces build from it and list no kind of their own: the command line
(``cli/game_commands.py``: ``manoeuvre-sim <kind>`` for Manoeuvre, ``hex <kind>``,
``<key> <kind>`` for a registered game, every kind of ``studies.kinds(game)``) and the
workbench's job kinds (``web/jobs/kinds.py``). A game's own command for a kind, where it
has many options of its own (Manoeuvre's balance), stays in its command group's package
(``cli/<kind>.py``, ``cli/hexgame/<kind>.py``) and is found there by the kind's name; the
declared options build every other game's command.

Nothing here imports more than the standard library: ``manoeuvre-sim --help`` lists the
kinds' help lines read from the study modules' sources (:func:`declared`), importing no
study (pandas) and no game (numba).
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# the types an option's value may take on the command line
TYPES = ("text", "int", "float", "flag", "path", "player")
# how a study's command ends: a directory of tables (``study``), a table of pairs
# (``tournament``), one file of games (``simulate``), cli/game_commands.py writing each once
# (``simulate``); ``own``: only a game with its own command for the kind has it
FACES = ("study", "tournament", "simulate", "own")


@dataclass(frozen=True)
class Option:
    """One option of a study's command, as data: ``flag`` as typed (``--games-per-pairing``),
    ``name`` the Python keyword its value goes to (default: the flag's words joined by
    ``_``), ``type`` one of :data:`TYPES` (``flag``: on when given; ``player``: a name of the
    game's ``POLICIES``, checked in one line naming the option), ``default`` a value or a
    function of the game module (its ``DEFAULT_POLICY``), ``help`` a text that may name
    ``{policies}``, ``{default_policy}``, ``{title}`` and ``{key}`` of the game, ``games``
    the keys of the games whose command takes it (empty: every game's); ``file``, the file
    of the study's directory that holds the option's value when a job gives it as a table
    (the fixer's costs, ``--edits``: ``edits.toml``), which a job's command line names."""

    flag: str
    help: str = ""
    type: str = "text"
    default: Any = None
    name: str | None = None
    metavar: str | None = None
    multiple: bool = False
    required: bool = False
    games: tuple[str, ...] = ()
    file: str | None = None

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"option {self.flag}: type {self.type!r} is not one of {TYPES}")
        if not self.flag.startswith("--"):
            raise ValueError(f"option {self.flag!r}: a flag starts with --")

    @property
    def key(self) -> str:
        return self.name or self.flag[2:].replace("-", "_")

    def default_of(self, game) -> Any:
        return self.default(game) if callable(self.default) else self.default

    def help_of(self, game) -> str:
        return self.help.format(policies=" | ".join(game.POLICIES), title=game.TITLE,
                                default_policy=game.DEFAULT_POLICY, key=game.KEY)  # fmt: skip

    def for_game(self, key: str) -> bool:
        return not self.games or key in self.games


@dataclass(frozen=True)
class StudyCommand:
    """A study kind's command and job (a study module's ``COMMAND``).

    ``help``: its one line (``--help``'s list; a literal string, read from the module's
    source); ``details``: sentences after it in the command's own help; ``options``: its own
    options (:class:`Option`), before those every study of its ``face`` takes
    (``cli/game_commands.py``: ``study`` the seed, block, threads, paper, out, force, quiet
    and backend; ``tournament`` the seed, threads, out, json, quiet and backend;
    ``simulate`` the range of games, the file and the backend); ``game_options``: the
    prefixes of the game's ``Options`` fields' options (``""``: ``--flips``; ``variant-``:
    ``--variant-flips``, None when not given); ``out``: ``--out``'s default (``{key}``: the
    game's key) and ``out_help``; ``block``: ``--block``'s default (a function of the game's
    key, or None: no ``--block``).

    ``prepare(game, kw)``: turns the options' values into the keywords of the study's
    ``command_spec(game, **kw)`` (in place; one line naming the option for a bad value);
    ``requires``: the hooks a game must define to have the kind (the fixer's
    ``FIX_EDIT_KINDS``): a game without them is refused in one line naming it.

    ``done_key``: the manifest's count of the games a finished study played (a job, or a
    command, is done only once it is written and not zero); ``job``: the workbench offers
    it as a job (built by the module's ``command_spec_of(game)``, played by its
    ``run_spec``); ``edits``: a job of it needs at least one ``--set``."""

    help: str
    options: tuple[Option, ...] = ()
    face: str = "study"
    details: str = ""
    game_options: tuple[str, ...] = ("",)
    out: str = "reports/{key}-{kind}"
    out_help: str = "Directory for games.parquet/, the CSV tables, summary.txt, manifest.json."
    block: Callable[[str], int] | int | None = 1000
    prepare: Callable[[Any, dict], None] | None = None
    requires: tuple[str, ...] = ()
    done_key: str = "games"
    job: bool = False
    edits: bool = False

    def __post_init__(self) -> None:
        if self.face not in FACES:
            raise ValueError(f"COMMAND: face {self.face!r} is not one of {FACES}")
        if "\n" in self.help or not self.help:
            raise ValueError("COMMAND: help is one line")


def command_of(module) -> StudyCommand | None:
    """A study module's declared command (None: the kind has no command, as Manoeuvre's
    neglect study, which a benchmark runs); a ``COMMAND`` of another type is an error."""
    cmd = getattr(module, "COMMAND", None)
    if cmd is not None and not isinstance(cmd, StudyCommand):
        raise TypeError(f"{module.__name__}.COMMAND: expected a StudyCommand, got {cmd!r}")
    return cmd


# ------------------------------------------------------- read from a source, not imported


def _source(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    return Path(origin) if origin and origin.endswith(".py") else None


def declared(module: str, name: str, keyword: str | None = None) -> Any:
    """The literal value the module of dotted name ``module`` assigns to ``name`` at its top
    (with ``keyword``: that keyword's literal in the call assigned, ``COMMAND =
    StudyCommand(help="...")``), read from its source without importing it; ``...`` when it
    assigns none (or the keyword is not given); the module imported and its attribute read
    when the value is no literal, or the module is already imported or has no source."""
    if module in sys.modules or (path := _source(module)) is None:
        return _imported(module, name, keyword)
    found = _assigned(str(path), path.stat().st_mtime_ns, name)
    if found is None:
        return ...
    value = found.get("" if keyword is None else keyword, found.get(None, ...))
    if keyword is not None and found == {"": None}:  # NAME = None: no call, no keyword
        return ...
    return _imported(module, name, keyword) if value is _NOT_LITERAL else value


_NOT_LITERAL = object()


@functools.lru_cache(maxsize=256)
def _assigned(path: str, mtime_ns: int, name: str) -> dict | None:
    """What the source ``path`` assigns to ``name`` at its top: ``{"": value}``, and for a
    call the literal of each keyword (a value that is no literal: ``_NOT_LITERAL``; under
    the key None, what a keyword not written is: ``...``, or ``_NOT_LITERAL`` after a
    ``**``); None
    when it assigns none. The statement is parsed alone, from its first line to the next
    line that starts a statement (``--help`` reads a few short statements of long modules,
    whose whole parse cost a tenth of a second), else the whole module is."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith((f"{name} =", f"{name}:"))]
    nodes: list[ast.stmt] = []
    for i in starts:
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j][:1] not in ("", " ", "#", ")", "]", "}")), len(lines))  # fmt: skip
        try:
            nodes += ast.parse("\n".join(lines[i:end])).body[:1]
        except SyntaxError:
            nodes = ast.parse("\n".join(lines)).body
            break
    for node in nodes:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if getattr(target, "id", None) != name or node.value is None:
            continue
        if isinstance(node.value, ast.Call):  # the call itself is no literal
            out = {k.arg: _literal(k.value) for k in node.value.keywords if k.arg}
            hidden = any(k.arg is None for k in node.value.keywords)  # **options
            return out | {"": _NOT_LITERAL, None: _NOT_LITERAL if hidden else ...}
        return {"": _literal(node.value)}
    return None


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _NOT_LITERAL


def _imported(module: str, name: str, keyword: str | None) -> Any:
    value = getattr(importlib.import_module(module), name, ...)
    if keyword is None or value is ... or value is None:
        return ... if value is None and keyword is not None else value
    return getattr(value, keyword, ...)


def defines(module: str, name: str) -> bool:
    """Whether the module of dotted name ``module`` defines ``name`` at its top (assigned a
    value other than None, imported, or a function), read from its source without importing
    it."""
    if module in sys.modules or (path := _source(module)) is None:
        return getattr(importlib.import_module(module), name, None) is not None
    return name in _top_names(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _top_names(path: str, mtime_ns: int) -> frozenset[str]:
    names = set()
    for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                names |= {getattr(t, "id", None) for t in node.targets}
        elif isinstance(node, ast.AnnAssign):
            names.add(getattr(node.target, "id", None))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
    return frozenset(names - {None})


# the options several kinds declare alike (one definition each)
def sides_option(help: str = "Comma-separated sides, each as the game reads one.",
                 name: str | None = None) -> Option:  # fmt: skip
    """``--sides A,B,...``: the sides a study compares (``name``: the builder's keyword)."""
    return Option("--sides", help, name=name, required=True, metavar="A,B,...")


PLAYERS = (
    Option("--policy", "Both seats' player: {policies}.", "player",
           default=lambda g: g.DEFAULT_POLICY),
    Option("--policy-a", "Seat a's player (default: --policy).", "player"),
    Option("--policy-b", "Seat b's player (default: --policy).", "player"),
)  # fmt: skip
