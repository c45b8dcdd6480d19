"""The new balance study form of any game (``/jobs/new?game=G``): its web module's
(``balance_form``, ``balance_job``: ``web/games/<key>/forms.py``) or, for a game that has
none (no ``balance_job``, or no web module at all: the toy coin game of the tests), the
generic one, read from the study and the game alone: the options the study's builder takes
(the signature of ``studies.find(game, "balance").command_spec_of(game)``) and the game's
``Options`` dataclass. The generic form shows the sides as text (``--armies``: what the
game's ``load_side`` reads, e.g. ``heavy:70,fair,light:30``), the player (``--policy``: one
of the game's ``POLICIES``), each field of ``Options`` of a plain type (``int``, ``float``,
``str``, ``bool``: ``--flips``), then the shared games per pairing, precision and seed
(``templates/jobs_new.html``, its own fields ``templates/jobs_sides_fields.html``). Its job
is ``<command group> balance`` (``jobs.kinds``), every option then checked by the study's
own builder in the command line's words.

A side is named here, never a file: a side with a path in it is refused before the game
reads it (a game's ``load_side`` may open files; the command line keeps its own paths).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import command_group, get_game, options_fields
from manoeuvre_sim.web.jobs import forms as F
from manoeuvre_sim.web.params import Params

SIDES = "armies"  # the builder's option naming the sides (``studies.balance.default_command``)
PLAYER = "policy"  # the builder's option naming the player of both seats
RULES = "options"  # the builder's option taking the game's ``Options``
OPTION_FIELD = "option_"  # a form field of an ``Options`` field: ``option_flips``
PLAIN = {"int": int, "float": float, "str": str, "bool": bool}
FIELDS_TEMPLATE = "jobs_sides_fields.html"


def kind(game: str) -> str:
    """The job kind of the game's balance study: ``<command group> balance``."""
    return f"{command_group(game)} balance".strip()


def _builder(game: str):
    from manoeuvre_sim.studies import find

    return find(game, "balance").command_spec_of(game)


def takes(game: str) -> set[str]:
    """The options the game's balance study takes (its builder's signature)."""
    import inspect

    return set(inspect.signature(_builder(game)).parameters)


def option_fields(game: str) -> list[dict]:
    """The fields of the game's ``Options`` the form shows: each of a plain type, as
    ``{"name", "field", "type", "default"}`` (none if the study takes no ``options``)."""
    g = get_game(game)
    if RULES not in takes(game) or not dataclasses.is_dataclass(g.Options):
        return []
    out = []
    for f, kind_, optional in options_fields(g):
        if optional or kind_ not in PLAIN.values() or f.default is dataclasses.MISSING:
            continue
        out.append({"name": f.name, "field": OPTION_FIELD + f.name, "type": kind_,
                    "default": f.default})  # fmt: skip
    return out


def _side_hint(game: str) -> str:
    """The first line of the game's ``load_side`` docstring (what a side is), plain."""
    doc = (get_game(game).load_side.__doc__ or "").strip()
    return doc.split("\n")[0].replace("``", "") if doc else ""


def generic_form(game: str) -> dict:
    """The generic form's context: ``defaults`` (what a field left empty runs), the fields it shows,
    its heading and command."""
    from manoeuvre_sim.studies import balance
    from manoeuvre_sim.web.game_parts import short_title

    g = get_game(game)
    options = option_fields(game)
    shown = {f["field"]: F.show(f["default"]) for f in options}
    defaults = {"games_per_pairing": str(balance.default_games(game)),
                "seed": str(F.signature_default(balance.command_spec, "seed")),
                "policy": g.DEFAULT_POLICY} | shown  # fmt: skip
    return {"defaults": defaults, "heading": f"New {short_title(game)} balance study",
            "command": kind(game), "fields_template": FIELDS_TEMPLATE,
            "sides": SIDES in takes(game), "side_hint": _side_hint(game),
            "player": PLAYER in takes(game), "players": tuple(g.POLICIES),
            "options": options}  # fmt: skip


def _sides(p: Params) -> str | None:
    text = p.string(SIDES)
    if text is None:
        return None
    for side in (s.strip() for s in text.split(",")):
        if "/" in side or "\\" in side or side.startswith((".", "~")):
            raise UsageError(
                f"--armies: {side!r}: a side is named here, not a file (the command line "
                f"reads files)"
            )
    return text


def _player(p: Params, game: str) -> str | None:
    name = p.string(PLAYER)
    players = tuple(get_game(game).POLICIES)
    if name is not None and name.split(":")[0] not in players:
        raise UsageError(f"--policy: {name!r} is not a player of {game} (one of "
                         f"{', '.join(players)})")  # fmt: skip
    return name


def _option(p: Params, f: dict):
    """An ``Options`` field's value from its form field (None: left empty), read as the
    command line reads its flag (``--flips``: the error names it)."""
    value = p.string(f["field"])
    if value is None or f["type"] is str:
        return value
    name = f["name"]
    one = Params({name: value})  # the value under the option's own name, for its words
    if f["type"] is int:
        return one.integer(name)
    if f["type"] is bool:
        return one.boolean(name)
    try:
        return float(value)
    except ValueError:
        raise UsageError(f"--{name.replace('_', '-')}: {value!r} is not a valid number") from None


def generic_job(game: str, p: Params, root: Path) -> tuple[str, dict]:
    """The generic form's job: ``("<group> balance", options)``, the ``Options`` fields given as a
    dict of them (``options``: JSON, as a job's options are stored; ``jobs.kinds.build``
    makes the game's ``Options`` of it)."""
    opts = F.common(p)
    if SIDES in takes(game):
        opts[SIDES] = _sides(p)
    if PLAYER in takes(game):
        opts[PLAYER] = _player(p, game)
    rules = {f["name"]: v for f in option_fields(game) if (v := _option(p, f)) is not None}
    if rules:
        opts[RULES] = rules
    return kind(game), opts


def context(game: str) -> dict:
    """The new-study form's context for ``game``: ``defaults``, the game's fields and the
    template that shows them (``fields_template``: its ``games/<key>/balance_fields.html``,
    or the generic form's)."""
    if F.generic_balance_form(game):
        return generic_form(game)
    return {"fields_template": f"games/{game}/balance_fields.html"} | F.part(game, "balance_form")()


def job(p: Params, game: str, root: Path) -> tuple[str, dict]:
    """A new-study form's job: ``(kind, options)`` (the game's ``balance_job``, or the
    generic form's); ``root``: the studies folder, the only place a side's file may come
    from."""
    if F.generic_balance_form(game):
        return generic_job(game, p, root)
    return F.part(game, "balance_job")(p, root)
