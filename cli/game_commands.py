"""The study commands of every game, built from the study modules (issue 39): a command
group's commands are the kinds of its game (``studies.kinds``: the shared ``SHARED_KINDS``
and the game's ``OWN_STUDIES``), each found as the group's own command for the kind (a
module ``<package>.<kind>`` of the group's package with a click command named ``<kind>``:
Manoeuvre's ``cli/balance.py``, Maneuver's ``cli/hexgame/balance.py``, where a game has many
options of its own) or built here from the kind's ``COMMAND`` (``core/study_command.py``):
its declared options, one option per field of the game's ``Options`` dataclass
(``--flips 7`` for the coin game of the tests: typed from the field, checked by the
``Options`` itself, its error naming the option), and the options and ending of its face
(:data:`FACES`: a study directory, a table of pairs, one file of games). No kind is named
here: a new kind is a command of every game with no edit in ``cli/``.

A registered game without commands of its own (an entry point or ``MANOEUVRE_SIM_GAMES``,
docs/games.md) is a group of its key whose commands are all built so (:func:`game_group`);
the top-level group lists it by its ``TITLE`` and every group lists its kinds' help lines
read from the modules' sources (``studies.commands``: no study module, no numba, so
``--help`` stays instant).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Callable

import click

from manoeuvre_sim.cli import common
from manoeuvre_sim.core.errors import UsageError

_TYPES = {int: click.INT, float: click.FLOAT, str: click.STRING, bool: click.BOOL}


def registered_games(taken) -> list[str]:
    """The keys of the registry's games that get the shared studies as commands: those
    without hand-written commands whose key is not a command's name already (``taken``)."""
    from manoeuvre_sim.core.games import BUILT_IN, keys

    return [k for k in keys() if k not in BUILT_IN and k not in taken]


def game_help(key: str) -> str:
    from manoeuvre_sim.core import games

    return f"{games.title(key)}: its studies: {', '.join(study_commands(key, None))}."


# ------------------------------------------------------------------ the game's Options


def _fields(g) -> list[tuple[dataclasses.Field, type]]:
    """The fields of ``g.Options`` with their types (``X | None`` as ``X``; a type the
    command line cannot read is given as text, for the ``Options`` to check)."""
    from manoeuvre_sim.core.games import options_fields

    return [(f, t if t in _TYPES else str) for f, t, _ in options_fields(g)]


def _flag(name: str, prefix: str = "") -> str:
    return f"--{prefix}{name.replace('_', '-')}"


def _default(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def options_of(g, *, prefix: str = "", what: str = "") -> Callable:
    """One click option per field of ``g.Options`` (``prefix``: ``variant-`` for a
    what-if's variant, whose options default to the base's)."""
    opts = []
    for f, t in _fields(g):
        name = f"{prefix.replace('-', '_')}{f.name}"
        default = None if prefix else _default(f)
        help = f"{what or 'The '}game's option {f.name} (a field of its Options)."
        if t is bool:
            opts.append(click.option(f"{_flag(f.name, prefix)}/--no-{prefix}{f.name.replace('_', '-')}",
                                     name, default=default, show_default=not prefix, help=help))  # fmt: skip
        else:
            opts.append(click.option(_flag(f.name, prefix), name, type=_TYPES[t], default=default,
                                     show_default=not prefix, help=help))  # fmt: skip
    return common.stack(*opts)


def pop_options(g, kw: dict, *, prefix: str = "", base=None):
    """The ``Options`` of the fields' options in ``kw`` (taken out); with ``prefix``, those
    given over ``base`` (None when none is given). The ``Options``' own check is one line
    naming the option (``--flips: expected a positive number, got 0``)."""
    key = prefix.replace("-", "_")
    values = {f.name: kw.pop(f"{key}{f.name}") for f, _ in _fields(g)}
    if prefix:
        values = {k: v for k, v in values.items() if v is not None}
        if not values:
            return None
    try:
        return dataclasses.replace(base, **values) if prefix else g.Options(**values)
    except UsageError as e:
        text = str(e)
        for name in values:
            if text.startswith(f"{name}:"):
                raise UsageError(_flag(name, prefix) + text[len(name) :]) from None
        raise


# ------------------------------------------------------------------------ the commands


def _kinds(g) -> tuple[str, ...]:
    from manoeuvre_sim.core.games import hook

    return tuple(hook(g, "WARMUP"))


def check_players(g, kw: dict, names=("policy", "policy_a", "policy_b")) -> None:
    """The players' options ``names`` in ``kw`` each a player of the game's ``POLICIES`` (or
    not given), else one line naming the option."""
    for name in names:
        if kw.get(name) is not None and kw[name] not in g.POLICIES:
            raise UsageError(f"--{name.replace('_', '-')} {kw[name]!r}: not a player of "
                             f"{g.KEY} ({', '.join(g.POLICIES)})")  # fmt: skip


def _study(g, kind, module, form, kw, backend) -> None:
    common.run_kind(g.KEY, kind, kw, kinds=_kinds(g), done_key=form.done_key)


def _tournament(g, kind, module, form, kw, backend) -> None:
    import json
    import sys

    out, as_json, quiet = kw.pop("out"), kw.pop("as_json"), kw.pop("quiet")
    spec = module.command_spec(g.KEY, **kw, out=out, resume=backend["resume"])
    res = common.play_to_file(module, backend, spec, out, quiet=quiet or as_json,
                              kinds=_kinds(g))  # fmt: skip
    pairs = [{"a": p.a, "b": p.b, "games": p.games, "a_score": p.win_rate_a,
              "draws": p.draws} for p in res.pairs]  # fmt: skip
    if as_json:
        click.echo(json.dumps({"pairs": pairs, "manifest": res.manifest}, indent=2))
    else:
        click.echo(common.pairs_table(res.pairs))
    if res.interrupted:
        click.echo("interrupted: the finished pairs are reported", err=True)
        sys.exit(130)


def _simulate(g, kind, module, form, kw, backend) -> None:
    out, quiet = kw.pop("out"), kw.pop("quiet")
    spec = module.command_spec(g.KEY, **kw, out=out, resume=backend["resume"])

    def summary(res) -> str:
        m = res.manifest
        return (f"{len(res.frame)} games {spec.side_a} (a) vs {spec.side_b} (b), seed "
                f"{spec.seed}: {common.wins_text(res.frame)}; "
                f"{common.ran_text(m['seconds'], m['threads'], m['backend'])}; "
                f"wrote {out}")  # fmt: skip

    common.play_one_file(backend, spec, out, quiet=quiet, kinds=_kinds(g), summary=summary)


def _study_options(form, key: str, kind: str) -> Callable:
    block = form.block(key) if callable(form.block) else form.block
    return common.study_options(out=form.out.format(key=key, kind=kind),
                                out_help=form.out_help, block=block)  # fmt: skip


# face -> (its options, whether the game's options come before them, its ending); the
# backend's options are taken out first by the one-file faces, as their commands did
FACES = {
    "study": (_study_options, True, _study),
    "tournament": (lambda form, key, kind: common.tournament_options, False, _tournament),
    "simulate": (lambda form, key, kind: common.one_file_options, False, _simulate),
}
_CLICK_TYPES = {"text": click.STRING, "int": click.INT, "float": click.FLOAT,
                "path": click.Path(dir_okay=False), "player": click.STRING}  # fmt: skip


def _option(o, g) -> Callable:
    """The click option of a declared one (``core.study_command.Option``) for the game."""
    default = o.default_of(g)
    if o.type == "flag":
        return click.option(o.flag, o.key, is_flag=True, help=o.help_of(g))
    return click.option(o.flag, o.key, type=_CLICK_TYPES[o.type], default=default,
                        show_default=default is not None, required=o.required,
                        multiple=o.multiple, metavar=o.metavar, help=o.help_of(g))  # fmt: skip


def _prefix_what(prefix: str) -> str:
    return f"The {prefix.rstrip('-')}'s value of the " if prefix else ""


def built_command(key: str, kind: str) -> click.Command:
    """The command of the study kind ``kind`` for the game of ``key``, built from the kind's
    ``COMMAND``; a UsageError of one line naming the game when the kind asks for a command
    of the game's own (``face="own"``) or for hooks the game lacks."""
    from manoeuvre_sim.core.games import get_game
    from manoeuvre_sim.studies import command

    g = get_game(key)
    form, module = command(key, kind)
    if form.face == "own":
        raise UsageError(f"{kind}: the game {key!r} ({g.TITLE}) has no {kind} command (a "
                         "study kind whose command each game writes)")  # fmt: skip
    face_options, game_first, end = FACES[form.face]
    players = [o.key for o in form.options if o.type == "player" and o.for_game(key)]
    own = [_option(o, g) for o in form.options if o.for_game(key)]
    game = [options_of(g, prefix=p, what=_prefix_what(p)) for p in form.game_options]
    face = face_options(form, key, kind)
    stacked = (*own, *game, face) if game_first else (*own, face, *game)

    def body(**kw) -> None:
        backend = None if form.face == "study" else common.pop_backend(kw)
        check_players(g, kw, players)
        for p in form.game_options:
            name = f"{p.replace('-', '_')}options"
            kw[name] = pop_options(g, kw, prefix=p, base=kw.get("options"))
        if form.prepare is not None:
            form.prepare(g, kw)
        end(g, kind, module, form, kw, backend)

    help_text = f"{g.TITLE}. {form.help}" + (f" {form.details}" if form.details else "")
    return click.command(kind, short_help=form.help, help=help_text)(common.stack(*stacked)(body))


def own_command(package: str | None, kind: str) -> click.Command | None:
    """A command group's own command for the kind: the click command ``kind`` of the module
    ``<package>.<kind>`` (None: the group has none, or no package)."""
    if package is None or importlib.util.find_spec(f"{package}.{kind}") is None:
        return None
    command = getattr(importlib.import_module(f"{package}.{kind}"), kind, None)
    return command if isinstance(command, click.Command) else None


def study_commands(key: str, package: str | None) -> dict[str, str]:
    """The study kinds of the game of ``key`` that are commands of its group, kind -> the
    help line ``--help`` lists (its own command's ``short_help``, else the kind's), read
    without importing a study or the game (``studies.commands``)."""
    from manoeuvre_sim.studies import commands, has_hooks

    out = {}
    for kind, (help_line, face, requires) in commands(key).items():
        own = own_command(package, kind)
        if own is None and (face == "own" or not has_hooks(key, requires)):
            continue  # no command of its own to build from COMMAND, or hooks it lacks
        out[kind] = own.short_help if own is not None and own.short_help else help_line
    return out


def kind_command(key: str, name: str, package: str | None) -> click.Command | None:
    """The command ``name`` of the group of the game of ``key``: its own command for the
    kind (``package``), else one built from the kind's ``COMMAND``; None when the game has
    no study kind of that name."""
    from manoeuvre_sim.studies import kinds

    if name not in kinds(key, imported=False):
        return None
    return own_command(package, name) or built_command(key, name)


class LazyGroup(click.Group):
    """A group whose subcommands (``subcommands``: name -> (module, attribute, help)) are
    imported only when invoked, and whose ``game``'s study kinds are commands too
    (``game_commands.py``: the group's own command for a kind in ``package``, else one built
    from the kind's ``COMMAND``); ``--help`` lists them from the table and the modules'
    sources alone."""

    subcommands: dict[str, tuple[str, str, str]] = {}
    game: str | None = None  # the key of the game whose study kinds are commands here
    package: str | None = None  # where the group's own commands for a kind are

    def __init__(self, *args, game: str | None = None, package: str | None = None,
                 subcommands: dict | None = None, **kw) -> None:  # fmt: skip
        super().__init__(*args, **kw)
        self.game = game or self.game
        self.package = package or self.package
        self.subcommands = self.subcommands if subcommands is None else subcommands

    def studies(self) -> dict[str, str]:
        """The game's study kinds that are commands here, kind -> help line."""
        if self.game is None:
            return {}
        kinds = study_commands(self.game, self.package)
        return {k: v for k, v in kinds.items() if k not in self.subcommands}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*self.subcommands, *self.studies()])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.subcommands:
            module, attr, _ = self.subcommands[name]
            return getattr(importlib.import_module(module), attr)
        if self.game is None:
            return None
        return kind_command(self.game, name, self.package)

    def command_help(self, name: str, studies: dict[str, str]) -> str:
        return self.subcommands[name][2] if name in self.subcommands else studies[name]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        studies = self.studies()
        rows = [(name, self.command_help(name, studies)) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def game_group(key: str) -> click.Group:
    """The group of the registered game ``key``: its study kinds as commands."""
    return LazyGroup(key, help=game_help(key), game=key, subcommands={})
