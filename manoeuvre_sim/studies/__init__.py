"""The studies, each written once over the game interface (``core/games.py``): a study takes
a game by its key from the registry and never imports a game (an import-linter contract).

- :mod:`.balance`: sides x sides (or a game's variants), a fixed number of games per pairing
  or rounds until every interval is narrow enough (``--precision``), adaptive allocation.
- :mod:`.whatif`: the paired what-if (common random numbers; an identical variant gives
  exactly zero).
- :mod:`.tournament`: every pair of players in both seats.
- :mod:`.simulate`: games of one pairing into a store.
- :mod:`.fix`: the balance fixer (the least-cost errata that brings every pairing into a
  target band).
- :mod:`.why`: a pairing's gap from 50 % shared out among the two sides' parts (Shapley
  values on paired seeds; the game's ``why_parts``, ``why_pairing``).

Each plays through the study layer (``core/study.py``: tasks, the store, ``--resume``, the
local and Dask backends). What differs between games is asked of the game's adapter
through its optional hooks, each declared once, with its default, in ``core.games.HOOKS``
and read through ``games.hook`` (the balance study's ``balance_*``/``BALANCE_*``, the
what-if's ``whatif_*``/``WHATIF_PAGES``, ``tournament_plan``, ``simulate_plan``, the
fixer's). A what-if changes what the game's ``load_side`` reads and its ``Options``; the
edits a game offers on top (Manoeuvre's ``--set``, Maneuver's scenario edits) are its
``whatif_command``'s.

The registry of study kinds: :data:`SHARED_KINDS` (kind -> the module of a kind every game
has) and each game's own kinds (its adapter's ``OWN_STUDIES``, kind -> module, e.g.
Maneuver's ladder); :func:`find` imports and returns the module of a game's kind, and
:func:`kinds` lists a game's. A new shared kind is one module here and one line in
:data:`SHARED_KINDS`: its ``COMMAND`` (``core/study_command.py``: its options, help line,
``done_key``, whether it is a job) is what the command line and the workbench build from
(:func:`commands` lists them without importing a study or a game, for ``--help``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import GAMES, get_game, hook
from manoeuvre_sim.core.study_command import declared, defines

# the study kinds every game has: kind -> its module (each declares KIND, the kind's name)
SHARED_KINDS: dict[str, str] = {
    "balance": "manoeuvre_sim.studies.balance",
    "whatif": "manoeuvre_sim.studies.whatif",
    "tournament": "manoeuvre_sim.studies.tournament",
    "simulate": "manoeuvre_sim.studies.simulate",
    "fix": "manoeuvre_sim.studies.fix",
    "why": "manoeuvre_sim.studies.why",
}


def kinds(game_key: str, *, imported: bool = True) -> dict[str, str]:
    """Every study kind of the game of ``game_key``, kind -> module: the shared kinds, then
    its own (``OWN_STUDIES``; a UsageError of one line for an own kind that takes a shared
    kind's name). ``imported=False``: its ``OWN_STUDIES`` read from the game module's source
    where it is a literal, the game not imported (``--help``)."""
    if imported:
        own = hook(get_game(game_key), "OWN_STUDIES")
    else:
        if game_key not in GAMES:
            get_game(game_key)  # the registry's one line
        own = declared(GAMES[game_key][0], "OWN_STUDIES")
        own = {} if own is ... or own is None else own
    if taken := sorted(set(own) & set(SHARED_KINDS)):
        raise UsageError(f"game {game_key!r}: its own study kind {taken[0]!r} (OWN_STUDIES) "
                         "is a shared kind's name (studies.SHARED_KINDS)")  # fmt: skip
    return {**SHARED_KINDS, **own}


def find(game_key: str, kind: str) -> ModuleType:
    """The study module of ``kind`` for the game of ``game_key`` (a shared kind, or one of
    the game's ``OWN_STUDIES``), imported; a UsageError of one line for a kind the game does
    not have."""
    every = kinds(game_key)
    if kind not in every:
        raise UsageError(f"study kind {kind!r}: the game {game_key!r} has "
                         f"{', '.join(every)}")  # fmt: skip
    return importlib.import_module(every[kind])


def commands(game_key: str) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """The study kinds of the game of ``game_key`` that are commands, kind -> its one help
    line, its face (``study`` where it names none) and the hooks it ``requires`` of a game
    (the ``COMMAND`` each module declares, ``core/study_command.py``; :func:`has_hooks`),
    read from the study modules' sources without importing them (so ``--help`` imports no
    study and no game); a kind without a ``COMMAND`` (Manoeuvre's neglect) is none."""
    out = {}
    for kind, module in kinds(game_key, imported=False).items():
        help_line = declared(module, "COMMAND", "help")
        if help_line is ...:
            continue
        face = declared(module, "COMMAND", "face")
        requires = declared(module, "COMMAND", "requires")
        out[kind] = (help_line, "study" if face is ... else face,
                     () if requires is ... else tuple(requires))  # fmt: skip
    return out


def has_hooks(game_key: str, hooks) -> bool:
    """Whether the game of ``game_key`` defines every hook of ``hooks``, read from its
    module's source without importing it."""
    module = GAMES[game_key][0]
    return all(defines(module, h) for h in hooks)


def command(game_key: str, kind: str):
    """The ``COMMAND`` (``core.study_command.StudyCommand``) of the game's kind and its
    module; a UsageError of one line naming the game when it lacks a hook the kind requires
    (the fixer's ``FIX_EDIT_KINDS``), or the kind has no command."""
    from manoeuvre_sim.core.study_command import command_of

    module = find(game_key, kind)
    cmd = command_of(module)
    if cmd is None:
        raise UsageError(f"study kind {kind!r}: it has no command (the game {game_key!r})")
    g = get_game(game_key)
    if missing := [h for h in cmd.requires if hook(g, h) in (None, {}, ())]:
        raise UsageError(f"{kind}: the game {game_key!r} ({g.TITLE}) has no {missing[0]} "
                         f"(the hooks {kind} needs, docs/games.md)")  # fmt: skip
    return cmd, module
