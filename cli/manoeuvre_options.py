"""Manoeuvre's own options of its commands (the top-level ``simulate``, ``balance``,
``whatif``, ``cards``, ``tournament``, ``replay``, ``tune``, ``fix``, ``report``): the
armies and their players, the set-up and the rule options (one definition, one parser into
``manoeuvre.adapter.RuleOptions``: :data:`GAME_OPTION_NAMES`), ``--relax``, the batch
kernels a run compiles, and an unknown army's error naming its option. What every game's
commands share is in ``common.py``."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import contextmanager

import click

from manoeuvre_sim.cli.common import stack, study_options
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

POLICY_HELP = (
    "random | simple | attritional | territorial | balanced | tuned | "
    "search[:BUDGET[:STYLE[:vH[:mM][:wMODEL]]]] (docs/players.md)"
)


armies_option = click.option(
    "--armies",
    help="Comma-separated army names or army .toml files (default: the 8 base armies).",
)

army_options = stack(
    click.option("--army-a", required=True, help="Army A (player 0): a name or a .toml file."),
    click.option("--army-b", required=True, help="Army B (player 1): a name or a .toml file."),
)
army_options.__doc__ = "``--army-a`` / ``--army-b``, as every command that plays games takes them."

policy_option = click.option("--policy", default=DEFAULT_POLICY, show_default=True,
                             help=f"Both seats' player: {POLICY_HELP}")  # fmt: skip
policy_option.__doc__ = "``--policy``: both seats' player (a study of one pair of players)."

policy_options = stack(
    click.option(
        "--policy-a",
        default=DEFAULT_POLICY,
        show_default=True,
        help=f"Army A's player: {POLICY_HELP}",
    ),
    click.option("--policy-b", default=DEFAULT_POLICY, show_default=True, help="As --policy-a."),
)
policy_options.__doc__ = "``--policy-a`` / ``--policy-b``: the players of armies A and B."

_SETUP = click.option("--setup", type=click.Choice(["random", "rules"]), default="random",
                      show_default=True, help="Rule 3 set-up: random (sections, rotations "
                      "drawn; army A at the bottom) or rules (the first player lays the map, "
                      "the second chooses its edge).")  # fmt: skip
# ``--setup`` and the fixed map ``--map`` / ``--rot`` (rule 3 set-up), as every command that
# plays games takes them; :func:`parse_setup` turns them into the config's fields
setup_options = stack(
    _SETUP,
    click.option(
        "--map",
        "fixed_map",
        metavar="NW,NE,SW,SE",
        help="A fixed battlefield: 4 section numbers, e.g. 5,9,12,18 (with --setup "
        "rules, the second player still chooses its edge).",
    ),
    click.option(
        "--rot",
        "fixed_rot",
        metavar="R,R,R,R",
        help="The --map sections' quarter turns clockwise, 0-3 each (default 0,0,0,0).",
    ),
)


def sections_option(f):
    """``--sections FILE``: a designer's map sections joining the built-in pool."""
    return click.option("--sections", "sections_file", type=click.Path(dir_okay=False),
                        metavar="FILE", help="A map sections file (as data/maps/sections.toml; "
                        "e.g. the Distant Lands sections) whose sections join the built-in "
                        "pool. See docs/authoring.md.")(f)  # fmt: skip


def parse_setup(kw: dict) -> dict:
    """``kw``'s ``fixed_map`` / ``fixed_rot`` strings as tuples of ints, checked (a bad value
    exits 2 with one line naming ``--map`` or ``--rot``); returns ``kw``."""
    from manoeuvre_sim.manoeuvre.engine.options import parse_fixed_map

    kw["fixed_map"], kw["fixed_rot"] = parse_fixed_map(kw.get("fixed_map"), kw.get("fixed_rot"))
    return kw


# The options that change how a game plays: ONE definition, taken by every command that
# plays games (tests/manoeuvre/test_cli_game_options.py fails when a command lacks one), and ONE
# parser into the config (:func:`pop_game_options`), so a game replayed with the options it
# was simulated with is the same game. Each is a field of ``manoeuvre.adapter.RuleOptions`` (and of
# ``runner.SimConfig``) of the same name.
GAME_OPTION_NAMES = (
    "setup", "fixed_map", "fixed_rot", "sections_file", "tournament_hand",
    "advance_to_contact", "digging_in", "dl_forced_march", "max_turns",
)  # fmt: skip
DEFAULT_MAX_TURNS = 200


# Every option that changes a game: the set-up (:data:`setup_options`), ``--sections`` and
# the rule options; :func:`pop_game_options` parses them into a ``RuleOptions``
game_options = stack(
    setup_options,
    sections_option,
    click.option(
        "--tournament-hand",
        is_flag=True,
        help="Rule 3 option: choose the 5 starting cards.",
    ),
    click.option("--advance-to-contact", is_flag=True, help="Distant Lands: 3, 2, then 1 moves."),
    click.option("--digging-in", is_flag=True, help="Distant Lands: a player may skip its move."),
    click.option(
        "--dl-forced-march",
        is_flag=True,
        help="Distant Lands 9.2 wording: only a move that begins in a Field or Marsh "
        "may not be Forced Marched (base: begins or ends).",
    ),
    click.option(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        show_default=True,
        help="Safety turn limit.",
    ),
)


def pop_game_options(kw: dict):
    """The :func:`game_options` out of ``kw`` as a checked ``manoeuvre.adapter.RuleOptions`` (a bad
    ``--map``, ``--rot``, ``--sections`` or ``--max-turns`` exits 2 with one line)."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions

    parse_setup(kw)
    return RuleOptions(**{k: kw.pop(k) for k in GAME_OPTION_NAMES})


def given_game_options(kw: dict) -> list[str]:
    """The ``--options`` of :func:`game_options` in ``kw`` that differ from their defaults
    (for a command that refuses them in some case)."""
    defaults = {"setup": "random", "max_turns": DEFAULT_MAX_TURNS}
    return [
        "--"
        + {"fixed_map": "map", "fixed_rot": "rot", "sections_file": "sections"}.get(
            k, k.replace("_", "-")
        )
        for k in GAME_OPTION_NAMES
        if kw.get(k) != defaults.get(k) and not (k not in defaults and not kw.get(k))
    ]


def relax_option(f):
    return click.option(
        "--relax", is_flag=True, help="Accept armies that break the deck-composition rules."
    )(f)


def rule_options(f):
    """The options of the commands that play games between given armies (``simulate``,
    ``balance``, ``whatif``, ``cards``, ``replay``): :func:`game_options` and ``--relax``
    for armies that break the deck-composition counts."""
    return relax_option(game_options(f))


def army_study_options(*, out: str, out_help: str, block: int | None = None):
    """Manoeuvre's options of ``balance`` and ``whatif``: the field, the players, the games,
    the game options, and every study's (``common.study_options``)."""
    return stack(
        armies_option,
        click.option(
            "--games-per-pairing",
            type=int,
            default=1000,
            show_default=True,
            help="Games per ordered pairing (army A in seat a, army B in seat b).",
        ),
        policy_option,
        click.option("--policy-a", help="Seat a's player (default: --policy)."),
        click.option("--policy-b", help="Seat b's player (default: --policy)."),
        study_options(out=out, out_help=out_help, block=block),
        rule_options,
    )


def engine_kernels(policies: Sequence[str] = (), cards: bool = False) -> tuple[str, ...]:
    """The batch kernels (``core/warmup.py``) a run of ``policies`` plays with: the search
    player's if one searches, else the plain one; ``cards``: also the card-statistics one."""
    from manoeuvre_sim.manoeuvre.runner import is_search

    kinds = ("search",) if any(is_search(p) for p in policies) else ("games",)
    return kinds + (("cards",) if cards else ())


@contextmanager
def army_option(flags: dict[str, object]):
    """Name the option in an unknown-army error raised inside: ``flags`` maps each option
    (``--army-a``) to the value typed (a name, or several for ``--armies``); the error of a
    value becomes ``--army-a 'Frnace': unknown army; did you mean 'France'? ...``."""
    from manoeuvre_sim.core.errors import DataError, UsageError

    try:
        yield
    except DataError as e:
        if len(e.problems) != 1 or e.problems[0][0] != "army":
            raise
        typed = e.source
        flag = next(
            (f for f, v in flags.items() if typed == v or typed in str(v or "").split(",")),
            "/".join(flags),
        )
        raise UsageError(f"{flag} {typed!r}: {e.problems[0][1]}") from None
