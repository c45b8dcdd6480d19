"""``manoeuvre-sim KEY balance|whatif|tournament|simulate``: the shared studies as commands of
every registered game without hand-written commands of its own (a game joins the registry
by an entry point or ``MANOEUVRE_SIM_GAMES``, docs/games.md; Manoeuvre's commands are the
top-level ones and Maneuver's the ``hex`` group: the games built into the package,
``games.BUILT_IN``, have commands written by hand).

Each command is built from its study module (``studies.find(key, kind)``: its
``command_spec`` and ``run_spec``) and the game's interface alone: the sides as
``--sides A,B,C`` (each read by the game's ``load_side``), its players (``POLICIES``,
``DEFAULT_POLICY``), the options every study takes (``common.py``), and one option per field
of the game's ``Options`` dataclass (``--flips 7`` for the coin game of the tests), typed
from the field and checked by the ``Options`` itself, its error naming the option. The
top-level group lists such a game by its ``TITLE`` without building its commands (no study
module, no numba: ``--help`` stays instant).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import click

from manoeuvre_sim.cli import common
from manoeuvre_sim.core.errors import UsageError

KINDS_HELP = {
    "balance": "Every ordered pairing of --sides, both seats: win rates, ratings, endings.",
    "whatif": "A changed side or rule option against the base, paired games.",
    "tournament": "Every pair of players on each side against itself, both seatings.",
    "simulate": "Play many games of one pairing, one row per game.",
}
_TYPES = {int: click.INT, float: click.FLOAT, str: click.STRING, bool: click.BOOL}


def registered_games(taken) -> list[str]:
    """The keys of the registry's games that get the shared studies as commands: those
    without hand-written commands whose key is not a command's name already (``taken``)."""
    from manoeuvre_sim.core.games import BUILT_IN, keys

    return [k for k in keys() if k not in BUILT_IN and k not in taken]


def game_help(key: str) -> str:
    from manoeuvre_sim.core import games

    return f"{games.title(key)}: its balance study, what-if, tournament and simulate."


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


def _sides_option(help: str = "") -> Callable:
    return click.option("--sides", required=True, metavar="A,B,...",
                        help=help or "Comma-separated sides, each as the game reads one.")  # fmt: skip


def _players(g) -> Callable:
    return common.stack(
        click.option("--policy", default=g.DEFAULT_POLICY, show_default=True,
                     help=f"Both seats' player: {' | '.join(g.POLICIES)}."),
        click.option("--policy-a", help="Seat a's player (default: --policy)."),
        click.option("--policy-b", help="Seat b's player (default: --policy)."),
    )  # fmt: skip


def check_players(g, kw: dict) -> None:
    """``--policy``, ``--policy-a``, ``--policy-b`` in ``kw`` each a player of the game's
    ``POLICIES`` (or not given), else one line naming the option."""
    for name in ("policy", "policy_a", "policy_b"):
        if kw.get(name) is not None and kw[name] not in g.POLICIES:
            raise UsageError(f"--{name.replace('_', '-')} {kw[name]!r}: not a player of "
                             f"{g.KEY} ({', '.join(g.POLICIES)})")  # fmt: skip


def _kinds(g) -> tuple[str, ...]:
    from manoeuvre_sim.core.games import hook

    return tuple(hook(g, "WARMUP"))


def balance_command(g) -> click.Command:
    from manoeuvre_sim.studies import find

    B = find(g.KEY, "balance")

    @click.command(
        "balance", short_help=KINDS_HELP["balance"], help=f"{g.TITLE}. {KINDS_HELP['balance']}"
    )
    @_sides_option()
    @_players(g)
    @click.option("--games-per-pairing", type=int, default=B.default_games(g.KEY),
                  show_default=True, help="Games per ordered pairing.")  # fmt: skip
    @click.option("--precision", type=float,
                  help="Instead of a fixed N: add games per pairing until every cell's 95% "
                  "interval is at most ±P (e.g. 0.02), or --max-games.")  # fmt: skip
    @click.option("--max-games", type=int, default=20000, show_default=True,
                  help="With --precision: the most games per ordered pairing.")  # fmt: skip
    @options_of(g)
    @common.study_options(out=f"reports/{g.KEY}-balance",
                          out_help="Directory for games.parquet/, the CSV tables, summary.txt, "
                          "manifest.json.", block=B.DEFAULT_BLOCK)  # fmt: skip
    def balance(**kw) -> None:
        check_players(g, kw)
        kw["options"] = pop_options(g, kw)
        kw["armies"] = kw.pop("sides")  # the balance study's name of its sides
        common.run_kind(g.KEY, "balance", kw, kinds=_kinds(g))

    return balance


def whatif_command(g) -> click.Command:
    from manoeuvre_sim.studies import find

    W = find(g.KEY, "whatif")

    @click.command("whatif", short_help=KINDS_HELP["whatif"], help=f"{g.TITLE}. {KINDS_HELP['whatif']} A side's variant: "
                   "--variant NAME=SIDE (read as --sides are) or --set edits of the game's "
                   "(if it has any); a rule option's: --variant-OPTION.")  # fmt: skip
    @_sides_option()
    @click.option("--variant", "variants", multiple=True, metavar="NAME=SIDE",
                  help="A side of --sides by its name, and its variant (repeatable).")  # fmt: skip
    @click.option("--set", "edits", multiple=True, metavar="EDIT",
                  help="An edit of a side in the game's what-if language (repeatable).")  # fmt: skip
    @_players(g)
    @click.option("--games-per-pairing", type=int, default=W.DEFAULT_GAMES, show_default=True,
                  help="Games per ordered pairing, in the base and in the variant.")  # fmt: skip
    @options_of(g)
    @options_of(g, prefix="variant-", what="The variant's value of the ")
    @common.study_options(out=f"reports/{g.KEY}-whatif",
                          out_help="Directory for games.parquet/, whatif.csv, summary.txt, "
                          "manifest.json.", block=W.DEFAULT_BLOCK)  # fmt: skip
    def whatif(**kw) -> None:
        check_players(g, kw)
        kw["options"] = pop_options(g, kw)
        kw["variant_options"] = pop_options(g, kw, prefix="variant-", base=kw["options"])
        variant_sides = kw["variant_sides"] = {}
        for item in kw.pop("variants"):
            name, sep, side = item.partition("=")
            if not sep or not name.strip() or not side.strip():
                raise UsageError(f"--variant {item!r}: expected NAME=SIDE")
            variant_sides[name.strip()] = side.strip()
        kw["edits"] = list(kw["edits"])
        if not variant_sides and not kw["edits"] and kw["variant_options"] is None:
            raise UsageError("--variant: expected a side's variant, a --set edit or a "
                             "--variant-OPTION")  # fmt: skip
        kw["sides"] = [s.strip() for s in kw["sides"].split(",") if s.strip()]
        common.run_kind(g.KEY, "whatif", kw, kinds=_kinds(g), done_key="paired_games")

    return whatif


def tournament_command(g) -> click.Command:
    from manoeuvre_sim.studies import find

    T = find(g.KEY, "tournament")

    @click.command("tournament", short_help=KINDS_HELP["tournament"], help=f"{g.TITLE}. {KINDS_HELP['tournament']} Each pair's "
                   "score (a win 1, a draw 1/2) with its 95% Wilson interval.")  # fmt: skip
    @_sides_option("Comma-separated sides the pairs meet on, each against itself.")
    @click.option("--policies", default=",".join(g.POLICIES), show_default=True,
                  help="Comma-separated players; every pair of them is played.")  # fmt: skip
    @click.option("--games", type=int, default=1000, show_default=True, help="Games per pair.")
    @common.tournament_options
    @options_of(g)
    def tournament(policies, games, seed, threads, out, as_json, quiet, sides, **kw) -> None:
        import json
        import sys

        be = common.pop_backend(kw)
        spec = T.command_spec(g.KEY, policies=policies, games=games, seed=seed, sides=sides,
                              threads=threads, options=pop_options(g, kw), out=out,
                              resume=be["resume"])  # fmt: skip
        res = common.play_to_file(T, be, spec, out, quiet=quiet or as_json, kinds=_kinds(g))
        pairs = [{"a": p.a, "b": p.b, "games": p.games, "a_score": p.win_rate_a,
                  "draws": p.draws} for p in res.pairs]  # fmt: skip
        if as_json:
            click.echo(json.dumps({"pairs": pairs, "manifest": res.manifest}, indent=2))
        else:
            click.echo(common.pairs_table(res.pairs))
        if res.interrupted:
            click.echo("interrupted: the finished pairs are reported", err=True)
            sys.exit(130)

    return tournament


def simulate_command(g) -> click.Command:
    @click.command(
        "simulate", short_help=KINDS_HELP["simulate"], help=f"{g.TITLE}. {KINDS_HELP['simulate']}"
    )
    @click.option("--side-a", required=True, help="Seat a's side, as the game reads one.")
    @click.option("--side-b", required=True, help="Seat b's side, as the game reads one.")
    @click.option("--policy-a", default=g.DEFAULT_POLICY, show_default=True,
                  help=f"Seat a's player: {' | '.join(g.POLICIES)}.")  # fmt: skip
    @click.option("--policy-b", default=g.DEFAULT_POLICY, show_default=True,
                  help="As --policy-a.")  # fmt: skip
    @common.one_file_options
    @options_of(g)
    def simulate(out, quiet, **kw) -> None:
        from manoeuvre_sim.studies import find

        be = common.pop_backend(kw)
        check_players(g, kw)
        options = pop_options(g, kw)
        spec = find(g.KEY, "simulate").command_spec(g.KEY, **kw, options=options, out=out,
                                                    resume=be["resume"])  # fmt: skip

        def summary(res) -> str:
            m = res.manifest
            return (f"{len(res.frame)} games {spec.side_a} (a) vs {spec.side_b} (b), seed "
                    f"{spec.seed}: {common.wins_text(res.frame)}; "
                    f"{common.ran_text(m['seconds'], m['threads'], m['backend'])}; "
                    f"wrote {out}")  # fmt: skip

        common.play_one_file(be, spec, out, quiet=quiet, kinds=_kinds(g), summary=summary)

    return simulate


def game_group(key: str) -> click.Group:
    """The group of the registered game ``key``: its shared studies as commands."""
    from manoeuvre_sim.core.games import get_game

    g = get_game(key)
    group = click.Group(key, help=game_help(key))
    for make in (balance_command, whatif_command, tournament_command, simulate_command):
        group.add_command(make(g))
    return group
