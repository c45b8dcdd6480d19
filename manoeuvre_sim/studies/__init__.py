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
:data:`SHARED_KINDS`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game, hook

# the study kinds every game has: kind -> its module (each declares KIND, the kind's name)
SHARED_KINDS: dict[str, str] = {
    "balance": "manoeuvre_sim.studies.balance",
    "whatif": "manoeuvre_sim.studies.whatif",
    "tournament": "manoeuvre_sim.studies.tournament",
    "simulate": "manoeuvre_sim.studies.simulate",
    "fix": "manoeuvre_sim.studies.fix",
    "why": "manoeuvre_sim.studies.why",
}


def kinds(game_key: str) -> dict[str, str]:
    """Every study kind of the game of ``game_key``, kind -> module: the shared kinds, then
    its own (``OWN_STUDIES``; a UsageError of one line for an own kind that takes a shared
    kind's name)."""
    g = get_game(game_key)
    own = hook(g, "OWN_STUDIES")
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
