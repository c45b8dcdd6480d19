"""The games the study layer plays, by short key, and what a game provides to it.

The study layer (``study.py``: pairings, tasks, the store, resume and merge, manifests;
``backend.py``: local and Dask) is written for no game in particular: it asks a *game* to
prepare its data and to play blocks of games into records, and does everything else itself.
A game is a module (OpenSpiel's and pgx's registries by short name are the model; our
contract is a block of games, not a step, so no Python runs per move)::

    from manoeuvre_sim.core.games import get_game
    game = get_game("manoeuvre")       # imported on first use: no numba at import

The registry maps a key to a module path; a module is imported only when asked for, so
``--help`` and the generic modules import no game. :class:`Game` lists what a game module
defines (``manoeuvre/adapter.py`` is the reference; ``tests/studies/coin_game.py`` a toy one in pure
Python).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Iterable
from typing import Any, Protocol, runtime_checkable

from manoeuvre_sim.core.errors import UsageError

# a study's pairing (``core.study.Pairing``: the two sides, the two players, the seed); named
# here by an alias, not imported, since the study layer imports this registry
Pairing = Any

# key -> (module, full title). The key is what users type and what a manifest records
# (``"game"``); Maneuver (the rules folder's 001 hex wargame) is ``hex``, never named after
# itself, as it differs from Manoeuvre by one letter.
GAMES: dict[str, tuple[str, str]] = {
    "manoeuvre": ("manoeuvre_sim.manoeuvre.adapter", "Manoeuvre (GMT Games)"),
    "hex": ("manoeuvre_sim.hexgame.adapter", "Maneuver (the introductory hex wargame, rules 001)"),
}
DEFAULT_GAME = "manoeuvre"  # what a study plays, and a store without a "game" field holds


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
    Report (optional: a game without them has no part in ``manoeuvre-sim report``)
        ``STUDY_KINDS`` (tuple[str, ...], the ``study`` of the manifests its study commands
        write, in report order); ``REPORT_MODULE`` (str, the module of ``analyses/`` that
        reads those directories back and lays out the game's report section: imported by
        the report alone, by name, so the library never imports it).
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


def get_game(key: str) -> Game:
    """The game of ``key`` (a key of :data:`GAMES`), its module imported on first use; a
    UsageError of one line for a key that names no game or a game that is not installed."""
    if key not in GAMES:
        raise UsageError(f"game {key!r}: expected one of {', '.join(GAMES)}")
    path, title = GAMES[key]
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as e:
        if e.name != path:  # the module is there; something it imports is not
            raise
        raise UsageError(
            f"game {key!r} ({title}): its module {path} is not in this installation"
        ) from None
    return checked(module, key)


def load_game(module_name: str) -> Game:
    """A game by its module's name (how a task names its game to a worker process: any
    importable module satisfying :class:`Game`, registered or not, e.g. a test's toy game)."""
    return checked(importlib.import_module(module_name))


def checked(module: Any, key: str | None = None) -> Game:
    """``module`` if it defines every member of :class:`Game` (and ``KEY == key``), else a
    UsageError of one line naming what is missing."""
    missing = [m for m in MEMBERS if not hasattr(module, m)]
    name = getattr(module, "__name__", repr(module))
    if missing:
        raise UsageError(f"game {name}: does not define {', '.join(missing)} (games.Game)")
    if key is not None and key != module.KEY:
        raise UsageError(f"game {name}: its KEY is {module.KEY!r}, registered as {key!r}")
    return module


def study_kinds() -> dict[str, str]:
    """Every study kind a report can read, ``kind -> game key``, in registry order (each
    game's ``STUDY_KINDS``; its module imported, no numba)."""
    return {kind: key for key in GAMES for kind in getattr(get_game(key), "STUDY_KINDS", ())}


def resolve(game: Game | str | None) -> Game:
    """A game given by key, as a module, or None (the default game)."""
    if game is None:
        return get_game(DEFAULT_GAME)
    if isinstance(game, str):
        return get_game(game)
    return checked(game)
