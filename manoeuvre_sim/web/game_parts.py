"""What each game shows in the workbench, found for the shared pages through the registry
(``core.games.GAMES``): a game's adapter names its web module (``WEB_MODULE``, a module path, as ``REPORT_MODULE``
names its report), imported here by name only, so the shared pages never import a game.

A web module defines any of these names (each optional; a game without a web module, or
without a name, still has its studies listed, opened and run as jobs by the generic pages):

``ROUTES``
    the game's own pages (its odds forms and pages: ``/odds/<key>...``), added to the app.
``ODDS_HOME``
    ``{"href", "nav", "title", "blurb"}`` of its odds page, for the menu and the front page.
``replay_game(params, root) -> web.replay.data.Replayed``; ``REPLAY_PARAMS``
    one game of the game replayed (by the game's own library: the web drives no engine),
    and the parameters a game named by its seed takes (a study's game takes the shared
    ``study``, ``pairing``, ``game``, ``label``); ``replay_form() -> dict``: what the
    ``/replay`` form shows for the game.
``STUDY_VIEWS``
    ``{manifest "study": view(ctx, label) -> web.studies.views.View}``: the game's study
    pages (sections of charts and tables); a study of another kind shows its tables.
``PAIRING_COLUMNS``; ``ended_by(record: dict) -> str``
    the game's record columns a pairing's table of games shows after the shared ones
    (Manoeuvre's victory points and eliminations; the rest: the CSV), and how a game ended
    in words from its record (default: its ``victory`` as it is).
``balance_form() -> dict``, ``balance_job(p, root) -> (kind, options)``
    the new-study form's context (``defaults``, ``heading``, ``command`` and what its fields,
    ``templates/games/<key>/balance_fields.html``, show), and its job (a kind of
    ``web.jobs.kinds``). Without them, a game gets the generic form of ``web.jobs.balance_form``:
    the sides as text, the player, the ``Options`` fields of a plain type.
``whatif_form(p) -> dict``, ``whatif_job(p, root) -> (kind, options)``,
``whatif_start(manifest) -> dict``
    the what-if form's context (``heading_suffix``, ``command``, ``taken_from_study``,
    ``more_example``, ``pick``: it has ``whatif_pick.html``; and what its fields,
    ``templates/games/<key>/whatif_fields.html``, show), the options a what-if takes from
    the study it starts from (``whatif_start``), and its job; ``WHATIF_KIND``, that job's
    kind; ``library_defaults(kind) -> dict``, what a field left empty runs.
``JOB_LINKS``
    ``{"balance" | "whatif": (address, label)}``: its forms' buttons on the jobs page.
``WHATIF_PAGES``
    ``{manifest "study": web.studies.views.WhatifPage}``: its what-ifs, as
    ``/whatif/changed`` reads them (the sides' columns, the seats' names, its rankings).

These names are :data:`PARTS`; a game's web package gathers those its submodules define
(:func:`parts_of`) and exports them, so it lists none of them again.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import GAMES, get_game, hook, installed

# every name a game's web module may define (the module docstring), in its order
PARTS = ("ROUTES", "ODDS_HOME", "replay_game", "REPLAY_PARAMS", "replay_form", "STUDY_VIEWS",
         "PAIRING_COLUMNS", "ended_by", "balance_form", "balance_job", "whatif_form", "whatif_job", "whatif_start",
         "WHATIF_KIND", "library_defaults", "JOB_LINKS", "WHATIF_PAGES")  # fmt: skip


def parts_of(*modules: ModuleType) -> dict[str, Any]:
    """The names of :data:`PARTS` that ``modules`` (a game's web submodules) define, name ->
    value, for its web package to export; a part defined by two of them is an error."""
    out: dict[str, Any] = {}
    for m in modules:
        for name in PARTS:
            if hasattr(m, name):
                if name in out:
                    raise ValueError(f"{m.__name__}: {name} is a web part of another module too")
                out[name] = getattr(m, name)
    return out


@functools.cache
def web_module(key: str) -> ModuleType | None:
    """The web module the game ``key``'s adapter names (``WEB_MODULE``), or None."""
    name = hook(get_game(key), "WEB_MODULE")
    return importlib.import_module(name) if name else None


def web_modules() -> dict[str, ModuleType]:
    """Every registered game's web module, by key, in the registry's order (a game that is
    not installed, or has none, left out)."""
    modules = {key: web_module(key) for key in installed()}
    return {key: m for key, m in modules.items() if m is not None}


def web_part(key: str, name: str, default: Any = None) -> Any:
    """The name ``name`` (one of :data:`PARTS`) of game ``key``'s web module, or ``default``
    (no web module, or the module does not define it; an unknown game too)."""
    if name not in PARTS:
        raise ValueError(f"{name!r} is not a web part of a game (web.game_parts.PARTS)")
    try:
        module = web_module(key)
    except UsageError:
        return default
    return getattr(module, name, default)


def short_title(key: str) -> str:
    """A game's name as the pages show it: the registry's title before its parenthesis."""
    entry = GAMES.get(key)
    return entry[1].split(" (")[0] if entry else key


def has_replay(key: str) -> bool:
    """Whether game ``key`` replays a game on the workbench (its web module's
    ``replay_game``): a game without one has no replay link on its pages, none in a site."""
    return web_part(key, "replay_game") is not None
