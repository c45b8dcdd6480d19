"""The games the study layer plays, by short key, and what a game provides to it.

The study layer (``study.py``: pairings, tasks, the store, resume and merge, manifests;
``backend.py``: local and Dask) is written for no game in particular: it asks a *game* to
prepare its data and to play blocks of games into records, and does everything else itself.
A game is a module (OpenSpiel's and pgx's registries by short name are the model; our
contract is a block of games, not a step, so no Python runs per move)::

    from manoeuvre_sim.core.games import get_game, hook
    game = get_game("manoeuvre")       # imported on first use: no numba at import
    cost = hook(game, "policy_cost")   # an optional hook, or its declared default

The registry (:data:`GAMES`) maps a key to a module path; a module is imported only when
asked for, so ``--help`` and the generic modules import no game. :class:`Game` lists what
a game module must define (``manoeuvre/adapter.py`` is the reference;
``tests/studies/coin_game.py`` a toy one in pure Python), :data:`HOOKS` what it may define
(each optional hook's one name, signature, what it returns and its default); both are
checked when a game is loaded (:func:`checked`), and shared code reads an optional hook
through :func:`hook` alone.

Registering a game without editing the library: besides the two built-in games, the
registry reads

- the entry points of the group ``manoeuvre_sim.games`` (``importlib.metadata``) of the
  installed distributions: the name is the key, the value the game's module, e.g. in a
  plug-in's ``pyproject.toml``::

      [project.entry-points."manoeuvre_sim.games"]
      coin = "my_coin_game.adapter"

- the environment variable ``MANOEUVRE_SIM_GAMES``: ``KEY=MODULE`` items separated by
  commas, e.g. ``MANOEUVRE_SIM_GAMES="coin=tests.studies.coin_game"``.

A registered game's title is its module's ``TITLE``, read when it is first loaded. A bad
entry (not ``KEY=MODULE``, a key that is not a short lower-case name or is already taken,
a module name that is not a dotted Python name, an entry point naming an attribute) is
refused in one line (a UsageError), raised by every use of the registry (:data:`GAMES` is
read on first use, not at import, so the package still imports and ``--help`` pays nothing
for the entry points).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Collection, Iterable, Mapping, MutableMapping
from typing import Any, Protocol, runtime_checkable

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.game_hooks import HOOKS, MODULE_NAME, TOGETHER, module_path

# a study's pairing (``core.study.Pairing``: the two sides, the two players, the seed); named
# here by an alias, not imported, since the study layer imports this registry
Pairing = Any

# key -> (module, full title). The key is what users type and what a manifest records
# (``"game"``); Maneuver (the rules folder's 001 hex wargame) is ``hex``, never named after
# itself, as it differs from Manoeuvre by one letter. The built-in games, then those
# registered from outside (:func:`_registered`); a registered game's title is None until
# its module is loaded (:func:`title`).
BUILT_IN: dict[str, tuple[str, str]] = {
    "manoeuvre": ("manoeuvre_sim.manoeuvre.adapter", "Manoeuvre (GMT Games)"),
    "hex": ("manoeuvre_sim.hexgame.adapter", "Maneuver (the introductory hex wargame, rules 001)"),
}
ENTRY_POINTS = "manoeuvre_sim.games"  # the entry-point group a plug-in game registers in
ENV = "MANOEUVRE_SIM_GAMES"  # KEY=MODULE[,KEY=MODULE...]: games registered for a process
_KEY = re.compile(r"[a-z][a-z0-9_-]*")
_MODULE = MODULE_NAME


def _registered(env: str | None, entry_points: Iterable[Any]) -> tuple[dict, str | None]:
    """The games registered from outside the library, ``key -> (module, None)``, from the
    entry points (``name``, ``value``) and then ``env`` (a later one of a key is an error),
    and the first bad entry's one-line message (None if all are good)."""
    out: dict[str, tuple[str, None]] = {}

    def add(key: str, module: str, where: str) -> str | None:
        if not _KEY.fullmatch(key):
            return f"{where}: the key {key!r} is not a short lower-case name (e.g. coin)"
        if not _MODULE.fullmatch(module):
            return f"{where}: {module!r} is not a module name (e.g. my_game.adapter)"
        if key in BUILT_IN or key in out:
            return f"{where}: the game {key!r} is registered already"
        out[key] = (module, None)
        return None

    for ep in entry_points:
        where = f"entry point {ep.name} = {ep.value!r} ({ENTRY_POINTS})"
        if ":" in ep.value:
            return out, f"{where}: expected a module, not an attribute of one"
        if bad := add(ep.name, ep.value.strip(), where):
            return out, bad
    for item in filter(None, (x.strip() for x in (env or "").split(","))):
        key, eq, module = (x.strip() for x in item.partition("="))
        where = f"{ENV} {item!r}"
        if not eq:
            return out, f"{where}: expected KEY=MODULE, e.g. coin=tests.studies.coin_game"
        if bad := add(key, module, where):
            return out, bad
    return out, None


def _entry_points() -> Iterable[Any]:
    from importlib.metadata import entry_points

    return entry_points(group=ENTRY_POINTS)


class Registry(MutableMapping):
    """``key -> (module, title)``: the built-in games, then the games registered from
    outside (entry points, :data:`ENV`), read on the registry's first use (not at import:
    reading the installed distributions' entry points takes a tenth of a second, which
    ``--help`` and every worker process would pay). A bad registration raises its
    UsageError on every use until it is mended."""

    def __init__(self, built_in: Mapping[str, tuple[str, str]]) -> None:
        self._games: dict[str, tuple[str, str | None]] = dict(built_in)
        self._read = False

    def _all(self) -> dict[str, tuple[str, str | None]]:
        if not self._read:
            plugins, bad = _registered(os.environ.get(ENV), _entry_points())
            if bad is not None:
                raise UsageError(bad)
            for key, entry in plugins.items():
                self._games.setdefault(key, entry)
            self._read = True
        return self._games

    def __getitem__(self, key: str) -> tuple[str, str | None]:
        return self._all()[key]

    def __setitem__(self, key: str, entry: tuple[str, str | None]) -> None:
        self._all()[key] = entry

    def __delitem__(self, key: str) -> None:
        del self._all()[key]

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"Registry({self._games!r}{'' if self._read else ', registrations unread'})"


GAMES = Registry(BUILT_IN)


@runtime_checkable
class Game(Protocol):
    """What a game module defines (module-level names; a module satisfies this protocol).

    Identity
        ``KEY`` (str, a key of :data:`GAMES`), ``TITLE`` (str, the full title for pages and
        ``--help``), ``RULES_VERSION`` (str, bumped when the engine's reading of the rules
        changes; part of every manifest), ``POLICIES`` (tuple[str, ...], the player names),
        ``DEFAULT_POLICY`` (str), ``ENGINE_SOURCES`` (tuple[str, ...], the files under
        ``manoeuvre_sim/`` its kernels are compiled from: the numba cache's key).
    Options
        ``Options``: a frozen dataclass of the game's rule switches, all fields defaulted,
        checked in ``__post_init__``, with ``describe() -> str`` (the non-default set-up in
        words, ``""`` for the default).
    Sides (what plays: an army, an order of battle; anything picklable with a ``name``)
        ``load_side(spec, relax=False)`` a name or a file -> a validated side;
        ``side_hash(side) -> str`` (16 hex digits of its data);
        ``data_hash(sides, options) -> str`` (every side plus the game's shared data).
    Playing
        ``prepare(pairings, options) -> dict``: the packed data the pairings need, picklable
        (scattered once to a cluster), keyed as ``play_block`` looks it up.
        ``play_block(prepared, pairing, first, count, threads, *, stats=False, **flags)
        -> (frame, stats)``: games ``first .. first + count - 1`` of ``pairing``, game ``i``
        seeded from ``(pairing.seed, i)`` alone (so a block's records do not depend on the
        block size, the thread count or the machine); ``frame``: one row per game, the
        :data:`CORE_COLUMNS` and the game's ``EXTRA_COLUMNS``; ``stats``: with ``stats``
        set, a per-game array (``shape[0] == count``) the study keeps beside its store in
        ``STATS_DIR``, else None. ``flags``: the game's optional record columns. A
        KeyboardInterrupt propagates (the block is discarded).
        ``read_stats(array) -> array``: a kept array as this engine reads it (an older
        engine's arrays brought up to date).
    Records
        ``VICTORY_KINDS`` (tuple[str, ...], the ``victory`` column's values),
        ``EXTRA_COLUMNS`` (tuple[str, ...], the game's columns after the core ones),
        ``STATS_DIR`` (str, the directory beside the store for the per-game arrays).
    Optional hooks
        :data:`HOOKS`: each with one signature and a default; read through :func:`hook`.
    """

    KEY: str
    TITLE: str
    RULES_VERSION: str
    POLICIES: tuple[str, ...]
    DEFAULT_POLICY: str
    ENGINE_SOURCES: tuple[str, ...]
    Options: type
    VICTORY_KINDS: tuple[str, ...]
    EXTRA_COLUMNS: tuple[str, ...]
    STATS_DIR: str

    def load_side(self, spec: str, relax: bool = False) -> Any: ...

    def side_hash(self, side: Any) -> str: ...

    def data_hash(self, sides: Iterable[Any], options: Any) -> str: ...

    def prepare(self, pairings: Collection[Pairing], options: Any) -> dict: ...

    def play_block(
        self, prepared: dict, pairing: Pairing, first: int, count: int, threads: int, **kw: Any
    ) -> tuple[Any, Any]: ...  # (a pandas DataFrame of the records, the statistics)

    def read_stats(self, array: Any) -> Any: ...


# The record columns every game writes (users script against them; the game's own columns,
# EXTRA_COLUMNS, may come between them: Manoeuvre's tiebreak precedes game_turns).
CORE_COLUMNS = (
    "game", "seed", "army_a", "army_b", "policy_a", "policy_b", "first_player", "winner",
    "victory", "game_turns",
)  # fmt: skip

# every name of :class:`Game` (checked when a game is loaded: a clear error, not a late one)
MEMBERS = (
    "KEY", "TITLE", "RULES_VERSION", "POLICIES", "DEFAULT_POLICY", "ENGINE_SOURCES", "Options",
    "VICTORY_KINDS", "EXTRA_COLUMNS", "STATS_DIR", "load_side", "side_hash", "data_hash",
    "prepare", "play_block", "read_stats",
)  # fmt: skip


def hook(game: Game, name: str) -> Any:
    """The game's hook ``name`` (a key of :data:`HOOKS`), or its declared default: how
    shared code reads an optional member of a game."""
    if name not in HOOKS:
        raise ValueError(f"{name!r} is not a hook of games.HOOKS")
    return getattr(game, name, HOOKS[name].default)


def command_group(key: str) -> str:
    """The word the commands of the game of ``key`` follow (its ``COMMAND_GROUP``, default its
    key): ``""`` for Manoeuvre's top-level commands, ``hex`` for Maneuver's."""
    group = hook(get_game(key), "COMMAND_GROUP")
    return key if group is None else group


def pages_module(game: Game, name: str) -> Any:
    """The module of ``analyses/`` the game names by its hook ``name`` (``BALANCE_TABLES``,
    ``WHATIF_PAGES``: a dotted name, never imported by the game), imported, or None when the
    game names none.

    A study calls up into ``analyses/`` here, and only here, so that every face gets the
    same written study from one call: ``result.write(out_dir)`` is what the command line,
    the workbench's jobs and the Python API all call, and it writes the game's tables,
    summary and PDF without each face knowing which game's pages to import (the lead kept
    this mechanism for now, issue 39; a game package may not import analyses/ itself)."""
    if HOOKS.get(name) is None or HOOKS[name].check is not module_path:
        raise ValueError(f"{name!r} is not a hook of games.HOOKS naming a module")
    path = hook(game, name)
    return importlib.import_module(path) if path else None


def options_fields(game: Game) -> list[tuple[Any, Any, bool]]:
    """The fields of the game's ``Options`` dataclass, each ``(field, type, optional)``
    (``X | None`` read as ``X``, optional): what the faces offer as a game's own options (the
    command line's ``--flips``, the workbench's generic form)."""
    import dataclasses
    import typing

    hints = typing.get_type_hints(game.Options)
    out = []
    for f in dataclasses.fields(game.Options):
        t = hints.get(f.name, str)
        args = [a for a in typing.get_args(t) if a is not type(None)]
        optional = len(args) == 1 and len(typing.get_args(t)) == 2
        out.append((f, args[0] if optional else t, optional))
    return out


def keys() -> tuple[str, ...]:
    """Every registered game's key, in registry order (a bad registration: UsageError)."""
    return tuple(GAMES)


def installed() -> dict[str, Game]:
    """Every registered game that is installed, by key, in registry order (a game whose
    module is not in this installation left out)."""
    out = {}
    for key in GAMES:
        try:
            out[key] = get_game(key)
        except UsageError:  # registered but not installed
            continue
    return out


def get_game(key: str) -> Game:
    """The game of ``key`` (a key of :data:`GAMES`), its module imported on first use; a
    UsageError of one line for a key that names no game or a game that is not installed
    (and for a bad registration of any game: :data:`ENV`, :data:`ENTRY_POINTS`)."""
    if key not in GAMES:
        raise UsageError(f"game {key!r}: expected one of {', '.join(GAMES)}")
    path, title = GAMES[key]
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as e:
        if e.name != path:  # the module is there; something it imports is not
            raise
        named = f"{key!r} ({title})" if title else repr(key)
        raise UsageError(f"game {named}: its module {path} is not in this installation") from None
    game = checked(module, key)
    if title is None:  # a registered game: its title is its module's
        GAMES[key] = (path, game.TITLE)
    return game


def title(key: str) -> str:
    """The full title of the game of ``key`` (a registered game's module is loaded)."""
    entry = GAMES.get(key)
    if entry is not None and entry[1] is not None:
        return entry[1]
    return get_game(key).TITLE


def load_game(module_name: str) -> Game:
    """A game by its module's name (how a task names its game to a worker process: any
    importable module satisfying :class:`Game`, registered or not, e.g. a test's toy game)."""
    return checked(importlib.import_module(module_name))


def checked(module: Any, key: str | None = None) -> Game:
    """``module`` if it defines every member of :class:`Game` (and ``KEY == key``) and every
    hook of :data:`HOOKS` it defines is of its declared form, else a UsageError of one line
    naming the game and what is missing or wrong."""
    missing = [m for m in MEMBERS if not hasattr(module, m)]
    name = getattr(module, "__name__", repr(module))
    if missing:
        raise UsageError(f"game {name}: does not define {', '.join(missing)} (games.Game)")
    if key is not None and key != module.KEY:
        raise UsageError(f"game {name}: its KEY is {module.KEY!r}, registered as {key!r}")
    for h in HOOKS.values():
        if hasattr(module, h.name) and (want := h.check(getattr(module, h.name))):
            got = type(getattr(module, h.name)).__name__
            raise UsageError(f"game {name}: its hook {h.name}: expected {want}, got {got} "
                             f"(games.HOOKS: {h.form})")  # fmt: skip
    for group in TOGETHER:
        has = [n for n in group if hasattr(module, n)]
        if has and len(has) != len(group):
            lacks = ", ".join(n for n in group if n not in has)
            raise UsageError(f"game {name}: defines {', '.join(has)} but not {lacks} "
                             "(games.TOGETHER: all of them or none)")  # fmt: skip
    return module


def study_kinds() -> dict[str, str]:
    """Every study kind a report can read, ``kind -> game key``, in registry order (each
    game's ``STUDY_KINDS``; its module imported, no numba)."""
    return {kind: key for key in keys() for kind in hook(get_game(key), "STUDY_KINDS")}


def resolve(game: Game | str) -> Game:
    """A game given by key or as a module (a study always names its game: no default)."""
    if game is None:
        raise UsageError("a study names its game: expected a key of the registry or a game")
    if isinstance(game, str):
        return get_game(game)
    return checked(game)
