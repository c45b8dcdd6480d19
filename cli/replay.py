"""``manoeuvre-sim replay``: one game turn by turn, as text with ASCII boards or as a PDF."""

from __future__ import annotations

from pathlib import Path

import click

from manoeuvre_sim.cli._common import army_options, parse_setup, policy_options, setup_options
from manoeuvre_sim.errors import DataError, UsageError
from manoeuvre_sim.fileio import atomic_write


@click.command()
@army_options
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed (as simulate).")
@click.option(
    "--game", type=int, default=0, show_default=True, help="Game index within the seed's run."
)
@policy_options
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="FILE.txt (the transcript) or FILE.pdf (a page per player turn); default: stdout.",
)
@click.option(
    "--turns",
    default=None,
    metavar="FROM:TO",
    help="Only game turns FROM to TO (e.g. 3:7, 5, 3: or :7).",
)
@setup_options
def replay(
    army_a: str,
    army_b: str,
    seed: int,
    game: int,
    policy_a: str,
    policy_b: str,
    out: str | None,
    turns: str | None,
    **board,
) -> None:
    """Replay game --game of `simulate --seed SEED` event by event, with the board after
    every player turn (rebuilt from the game's events and checked against the engine).
    Give the --setup, --map and --rot the games were simulated with."""
    from manoeuvre_sim.model import find_army
    from manoeuvre_sim.replay import (
        check_turns,
        match_info,
        parse_turns,
        render_text,
        replay_game,
        summary,
    )

    suffix = Path(out).suffix.lower() if out else ""
    if out and suffix not in (".txt", ".pdf"):
        raise UsageError(f"--out: expected a file name ending in .txt or .pdf, got {out!r}")
    span = parse_turns(turns)
    for opt, name in (("--army-a", army_a), ("--army-b", army_b)):
        try:
            find_army(name)
        except DataError as e:
            raise UsageError(f"{opt}: {e}") from None
    info = match_info(
        army_a, army_b, seed=seed, game=game, policies=(policy_a, policy_b), **parse_setup(board)
    )
    rep = replay_game(
        army_a, army_b, seed=seed, game=game, policies=(policy_a, policy_b), info=info
    )
    check_turns(rep, span)
    if suffix == ".pdf":
        from manoeuvre_sim.analyses.replay_pdf import write_replay_pdf

        pages = write_replay_pdf(out, rep, turns=span)
        click.echo(f"{summary(rep)}\nwrote {out} ({pages} pages)", err=True)
        return
    text = render_text(rep, span)
    if out:
        with atomic_write(out, encoding="utf-8") as f:
            f.write(text)
        click.echo(f"{summary(rep)}\nwrote {out}", err=True)
    else:
        click.echo(text, nl=False)
