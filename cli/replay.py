"""``manoeuvre-sim replay``: one game turn by turn, as text with ASCII boards or as a PDF."""

from __future__ import annotations

from pathlib import Path

import click

from manoeuvre_sim.cli.common import check_format, trace_format_option, write_text
from manoeuvre_sim.cli.manoeuvre_options import (
    GAME_OPTION_NAMES,
    policy_options,
    pop_game_options,
    rule_options,
)
from manoeuvre_sim.core.errors import DataError, UsageError

# the options --from FILE takes from the file (its manifest and the game's row): given too,
# each must equal the file's value (a conflict is refused, never silently overridden)
FROM_DECIDES = ("army_a", "army_b", "seed", "policy_a", "policy_b", "relax", *GAME_OPTION_NAMES)


def _flag(name: str) -> str:
    return "--" + {"fixed_map": "map", "fixed_rot": "rot", "sections_file": "sections"}.get(
        name, name.replace("_", "-")
    )


@click.command()
@click.option(
    "--from",
    "from_file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="A simulate output (FILE.parquet or FILE.csv, with its manifest): replay its game "
    "--game with the armies, players, seed and every game option it was simulated with.",
)
@click.option("--army-a", help="Army A (player 0): a name or a .toml file (not with --from).")
@click.option("--army-b", help="Army B (player 1): a name or a .toml file (not with --from).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed (as simulate).")
@click.option(
    "--game", type=int, default=0, show_default=True, help="Game index within the seed's run."
)
@policy_options
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="FILE.txt (the transcript), FILE.pdf (a page per player turn) or FILE.jsonl (the "
    "trace, as --format jsonl); default: stdout.",
)
@trace_format_option("the whole game's")
@click.option(
    "--turns",
    default=None,
    metavar="FROM:TO",
    help="Only game turns FROM to TO (e.g. 3:7, 5, 3: or :7).",
)
@rule_options
@click.pass_context
def replay(
    ctx: click.Context,
    from_file: str | None,
    game: int,
    out: str | None,
    turns: str | None,
    fmt: str | None,
    **kw,
) -> None:
    """Replay game --game of `simulate --seed SEED` event by event, with the board after
    every player turn (rebuilt from the game's events and checked against the engine).
    Give the options the games were simulated with (the set-up, the rule options,
    --sections, --max-turns: every option that changes a game), or --from the simulate
    output, whose manifest gives them all."""
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.replay import (
        check_turns,
        match_info,
        parse_turns,
        render_text,
        replay_game,
        summary,
    )

    suffix = Path(out).suffix.lower() if out else ""
    if out and suffix not in (".txt", ".pdf", ".jsonl"):
        raise UsageError(f"--out: expected a file name ending in .txt, .pdf or .jsonl, got {out!r}")
    fmt = check_format(fmt, suffix, turns)
    span = parse_turns(turns)
    if from_file is not None:
        from manoeuvre_sim.manoeuvre.replay.source import config_from_file

        given = {
            k: kw[k]
            for k in FROM_DECIDES
            if ctx.get_parameter_source(k) == click.core.ParameterSource.COMMANDLINE
        }
        config, record = config_from_file(from_file, game, given=given, flag=_flag)
    else:
        for opt in ("army_a", "army_b"):
            if kw[opt] is None:
                raise UsageError(f"{_flag(opt)}: required (or --from FILE, a simulate output)")
            try:
                find_army(kw[opt], relax=kw["relax"])
            except DataError as e:
                raise UsageError(f"{_flag(opt)}: {e}") from None
        config, record = None, None
        options = pop_game_options(kw)
    if config is None:
        info = match_info(
            kw["army_a"], kw["army_b"], seed=kw["seed"], game=game, relax=kw["relax"],
            policies=(kw["policy_a"], kw["policy_b"]), options=options,
        )  # fmt: skip
    else:
        info = match_info(config.army_a, config.army_b, game=game, config=config)
    rep = replay_game(info.config.army_a, info.config.army_b, seed=info.seed, game=game,
                      info=info)  # fmt: skip
    if record is not None:
        from manoeuvre_sim.manoeuvre.replay.source import check_record

        check_record(rep, record, from_file)
    check_turns(rep, span)
    if fmt == "jsonl":
        from manoeuvre_sim.manoeuvre.replay.jsonl import jsonl

        write_text(out, jsonl(rep), summary(rep))
        return
    if suffix == ".pdf":
        from manoeuvre_sim.analyses.manoeuvre.replay_pdf import write_replay_pdf

        pages = write_replay_pdf(out, rep, turns=span)
        click.echo(f"{summary(rep)}\nwrote {out} ({pages} pages)", err=True)
        return
    write_text(out, render_text(rep, span), summary(rep))
