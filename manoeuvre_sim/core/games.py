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
import inspect
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from manoeuvre_sim.core.errors import UsageError

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
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


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


_NONE: Mapping[str, Any] = MappingProxyType({})  # the default of a table a game may define


def _scripted_seat(spec: str) -> float:
    """``policy_cost``'s default: every seat half a game of the scripted players."""
    return 0.5


def _is(types: type | tuple[type, ...], what: str) -> Callable[[Any], str | None]:
    return lambda v: None if isinstance(v, types) else what


def _function(v: Any) -> str | None:
    return None if callable(v) else "a function"


def _module_path(v: Any) -> str | None:
    ok = isinstance(v, str) and _MODULE.fullmatch(v)
    return None if ok else "a module's dotted name (str), e.g. my_game.report"


def _strings(v: Any) -> str | None:
    ok = isinstance(v, tuple) and all(isinstance(x, str) for x in v)
    return None if ok else "a tuple of str"


def _mapping(value_ok: Callable[[Any], bool], what: str) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        ok = isinstance(v, Mapping) and all(
            isinstance(k, str) and value_ok(x) for k, x in v.items()
        )
        return None if ok else what

    return check


def _numba_cache(v: Any) -> str | None:
    ok = (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str)
          and (v[1] is None or isinstance(v[1], str)))  # fmt: skip
    return None if ok else "a (prefix, folder or None) tuple of str"


def _edit_kind(x: Any) -> bool:
    return (isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], int)
            and isinstance(x[1], int) and isinstance(x[2], str))  # fmt: skip


def _writes_nothing(result: Any, out_dir: Any) -> list:
    """``whatif_write``'s default: no files of the game's own."""
    return []


def _positive(v: Any) -> str | None:
    ok = isinstance(v, int) and not isinstance(v, bool) and v > 0
    return None if ok else "a positive int"


_SIDE_WORDS = {"flag": str, "one": str, "least": int, "fewer": str}


def _side_words(v: Any) -> str | None:
    ok = isinstance(v, Mapping) and all(
        k in _SIDE_WORDS and isinstance(x, _SIDE_WORDS[k]) for k, x in v.items()
    )
    return None if ok else "a dict of flag, one, fewer (str) and least (int)"


def _function_of(*params: str) -> Callable[[Any], str | None]:
    """The check of a function that must take the keywords ``params`` (by name, or through
    ``**kw``): a hook of one signature for every game."""
    want = f"a function taking the keywords {', '.join(params)}"

    def check(v: Any) -> str | None:
        if not callable(v):
            return want
        try:
            taken = inspect.signature(v).parameters
        except (TypeError, ValueError):  # a builtin without a signature: taken on trust
            return None
        if any(p.kind is p.VAR_KEYWORD for p in taken.values()):
            return None
        named = {n for n, p in taken.items() if p.kind is not p.POSITIONAL_ONLY}
        return None if set(params) <= named else want

    return check


@dataclass(frozen=True)
class Hook:
    """An optional member of a game module: its one ``name``, how it is written
    (``form``: the signature of a function, the type of a constant), what it is for and
    must return (``meaning``), what a game without it gets (``default``; None where the
    caller's own way is the default, named in ``meaning``) and the check a loaded game's
    value must pass (``check(value)``: None, or what was expected)."""

    name: str
    form: str
    meaning: str
    default: Any
    check: Callable[[Any], str | None]


def _hooks(*hooks: Hook) -> dict[str, Hook]:
    return {h.name: h for h in hooks}


# Every optional hook of a game, in one table (docs/games.md "The optional hooks"): the one
# place each is described (the study modules that read them name them, never restate them).
HOOKS: dict[str, Hook] = _hooks(
    Hook("policy_cost", "policy_cost(spec: str) -> float",
         "one seat's share of a game's cost with the player spec, in games of the scripted "
         "players (a scripted seat: 0.5); the workbench bounds a job by it; a bad spec "
         "raises a UsageError", _scripted_seat, _function),
    # --- the balance study (studies/balance.py)
    Hook("balance_command", "balance_command(**options) -> dict",
         "the balance command's own options (Python names, the command's defaults: "
         "Manoeuvre's armies, policies; Maneuver's borders, quality ...) -> the BalanceSpec "
         "fields sides, policies, options, sources, settings, each bad option one UsageError "
         "line (None: studies.balance.default_command, --armies read by load_side)", None,
         _function),
    Hook("balance_check", "balance_check(spec: BalanceSpec) -> None",
         "the game's own checks of a balance spec (its players, its scenario), a UsageError "
         "of one line (None: the common checks alone)", None, _function),
    Hook("balance_pairings",
         "balance_pairings(spec: BalanceSpec) -> tuple[list[Pairing], list[tuple[options, "
         "Sequence[int]]]]",
         "the pairings of a balance study and the rule options each plays under, as "
         "(options, pairing indices) groups (None: studies.balance.side_pairings, every "
         "ordered pairing of the sides under spec.options)", None, _function),
    Hook("balance_manifest", "balance_manifest(spec: BalanceSpec) -> dict",
         "what describes a balance study in its manifest beside the common fields (None: "
         "studies.balance.describe_sides)", None, _function),
    Hook("balance_cells", "balance_cells(pairings: Sequence[Pairing]) -> list[Cell]",
         "the cells a balance study reads its intervals for (None: studies.rounds."
         "side_cells, a pair of sides with both seatings pooled)", None, _function),
    Hook("BALANCE_SIDES", "BALANCE_SIDES: dict[str, str | int]",
         "the words of the sides in the balance checks' errors, any of flag (the option), "
         "one (a side), least (the fewest a study compares), fewer (the error of fewer); "
         "each missing one studies.balance.SIDE_WORDS'", _NONE, _side_words),
    Hook("BALANCE_PLAYERS", "BALANCE_PLAYERS: tuple",
         "the players of a balance spec that names none (None: DEFAULT_POLICY in both "
         "seats)", None, _is(tuple, "a tuple")),
    Hook("BALANCE_GAMES", "BALANCE_GAMES: int",
         "the balance command's games per pairing when none are asked for (None: "
         "studies.balance.DEFAULT_GAMES)", None, _positive),
    Hook("BALANCE_STUDY", "BALANCE_STUDY: str",
         "the balance manifests' study (None: studies.balance.KIND, balance)", None,
         _is(str, "a str")),
    Hook("BALANCE_TABLES", "BALANCE_TABLES: str",
         "the module of analyses/ that counts a balance study's games and lays out the "
         "game's tables: counter(spec, *, keep), build(spec, count, manifest, played, *, "
         "boot), summary(result), pdf(result, path, *, paper) and, if it writes a PDF, "
         "PDF_NAME; imported by pages_module (None: studies.balance's own counter and "
         "build, the tables every game has)", None, _module_path),
    # --- the paired what-if (studies/whatif.py)
    Hook("whatif_command", "whatif_command(*args, **options) -> dict",
         "the what-if command's options (Python names, the command's defaults) -> the "
         "WhatIfSpec fields but game: the sides loaded, the variant made (its files read, "
         "its --set edits applied), each bad option one UsageError line (None: "
         "studies.whatif.spec_of's keywords)", None, _function),
    Hook("whatif_pairings", "whatif_pairings(spec: WhatIfSpec) -> list[Pairing]",
         "the what-if's base pairings, label base (None: every ordered pairing of the sides "
         "under each pair of players, seeded from (seed, side a's name, side b's name))",
         None, _function),
    Hook("whatif_variant_options",
         "whatif_variant_options(spec: WhatIfSpec, where: Path) -> options",
         "the variant's rule options, made just before play (where: the study's directory, "
         "or a scratch one; None: spec.variant_options, else the base's)", None, _function),
    Hook("whatif_manifest",
         "whatif_manifest(spec: WhatIfSpec, variant_options, where: Path) -> dict",
         "what decides a what-if's games, every part of its store carries it (None: the "
         "balance study's manifest of the base with the changes and the variant's data "
         "hash)", None, _function),
    Hook("whatif_tables", "whatif_tables(result: WhatIfResult) -> dict[str, DataFrame]",
         "the tables a what-if writes, name -> <name>.csv (None: studies.whatif_tables."
         "side_tables)", None, _function),
    Hook("whatif_write", "whatif_write(result: WhatIfResult, out_dir: Path) -> list[Path]",
         "the game's own files of a what-if's variant, written before its tables "
         "(Manoeuvre: each changed army's data; default: none)", _writes_nothing, _function),
    Hook("WHATIF_PAGES", "WHATIF_PAGES: str",
         "the module of analyses/ with summary_lines(result) and write_pages(result, "
         "out_dir, paper) -> list[Path] (a what-if's summary and PDF), imported by "
         "pages_module (None: studies.whatif_tables.summary_lines, no PDF)", None,
         _module_path),
    # --- the tournament and simulate (studies/tournament.py, studies/simulate.py)
    Hook("tournament_plan",
         "tournament_plan(players: list, games: int, seed: int, *, sides=None, "
         "options=None) -> TournamentPlan",
         "the seats of a tournament of players (core.study.TournamentPlan), on sides (specs "
         "load_side reads; None: the game's choice) under options (None: the defaults); a "
         "bad player or side raises a UsageError (None: studies.tournament.mirror_plan)",
         None, _function_of("sides", "options")),
    Hook("simulate_plan",
         "simulate_plan(side_a: str, side_b: str, *, policy_a=None, policy_b=None, "
         "params_a=None, params_b=None, seed=1, first=0, games=1000, block=5000, "
         "threads=0, options=None, relax=False, flags=None) -> SimulatePlan",
         "what simulate plays of one pairing (core.study.SimulatePlan: the pairing, its "
         "options, what decides its games, what its output records); flags: play_block's "
         "keywords (None: studies.simulate.pairing_plan)", None,
         _function_of("policy_a", "policy_b", "params_a", "params_b", "seed", "first",
                      "games", "block", "threads", "options", "relax", "flags")),
    # --- the balance fixer (studies/fix*.py)
    Hook("FIX_EDIT_KINDS", "FIX_EDIT_KINDS: dict[str, tuple[int, int, str]]",
         "the balance fixer's edit kinds: kind -> (default cost of a step, default range, "
         "what a step is); with fix_edits and apply_side_edits, or none of the three",
         _NONE, _mapping(_edit_kind, "a dict of str -> (int, int, str)")),
    Hook("fix_edits",
         "fix_edits(side, costs: Mapping[str, tuple[int, int]]) -> list[tuple[str, str, int]]",
         "the fixer's candidate edits of a side: (edit text, kind, steps)", None, _function),
    Hook("apply_side_edits",
         "apply_side_edits(side, edits: Sequence[str], *, relax=False) -> tuple[side, "
         "list[str]]",
         "the side with the edit texts applied in order, and the printed changes in words "
         "(relax: load_side's leniency); a bad edit raises a UsageError", None,
         _function_of("relax")),
    # --- the machinery: warm-up, numba cache, traces
    Hook("WARMUP", "WARMUP: dict[str, float]",
         "the warm-up kinds of core.warmup: kind -> about how many seconds it compiles "
         "cold; with warmup_kernel", _NONE, _mapping(
             lambda x: isinstance(x, int | float), "a dict of str -> seconds")),
    Hook("warmup_kernel", "warmup_kernel(kind: str) -> tuple[Dispatcher, tuple]",
         "the batch kernel of a WARMUP kind and the arguments of two games", None, _function),
    Hook("NUMBA_CACHE", "NUMBA_CACHE: tuple[str, str | None]",
         "the prefix of the game's numba cache directories and its kernels' folder under "
         "manoeuvre_sim/ (None: every kernel outside another game's folder); read from the "
         "adapter's source by core.numba_cache (None: no cache of its own)", None,
         _numba_cache),
    Hook("COMMAND_GROUP", "COMMAND_GROUP: str",
         "the word the game's commands follow on the command line and in a job's name "
         "(``hex`` for ``manoeuvre-sim hex balance``; \"\" for commands at the top, as "
         "Manoeuvre's); default: the game's key", None, _is(str, "a str")),
    Hook("rebuild_trace", "rebuild_trace(header: dict, events: list[dict]) -> dict",
         "the final position of a JSONL trace of the game, rebuilt from its events alone "
         "(core.trace_reader.rebuild; a contradiction raises trace_reader.TraceError; None: "
         "its traces are read, not rebuilt)", None, _function),
    # --- what the faces find: study kinds, report, workbench
    Hook("STUDY_KINDS", "STUDY_KINDS: tuple[str, ...]",
         "the study of the manifests its study commands write, in report order (a game "
         "without them has no part in manoeuvre-sim report but the generic one)", (),
         _strings),
    Hook("OWN_STUDIES", "OWN_STUDIES: dict[str, str]",
         "the game's own study kinds: kind -> the study module's dotted name "
         "(studies.find); the shared kinds are studies.SHARED_KINDS", _NONE,
         _mapping(lambda x: _module_path(x) is None, "a dict of kind -> module name")),
    Hook("REPORT_MODULE", "REPORT_MODULE: str",
         "the module of analyses/ that reads the game's studies back and lays out its "
         "report section, imported by the report alone, by name (None: the generic part)",
         None, _module_path),
    Hook("WEB_MODULE", "WEB_MODULE: str",
         "the module of the game's parts of the workbench (its odds forms and pages, board "
         "drawing, replay, what-if form), imported by the web alone, by name (None: none)",
         None, _module_path),
)  # fmt: skip

# hooks a game defines together or not at all
TOGETHER = (("FIX_EDIT_KINDS", "fix_edits", "apply_side_edits"), ("WARMUP", "warmup_kernel"))


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
    if HOOKS.get(name) is None or HOOKS[name].check is not _module_path:
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
