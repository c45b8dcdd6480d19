"""``manoeuvre-sim hex replay``: one game of Maneuver as a text log or a PDF of hex maps."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import paper_option, seed_option, trace_format_option
from manoeuvre_sim.cli.hexgame._options import game_options, load_game
from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    help=f"{GAME_TITLE}. Replay game --game of --seed (the same game as in `hex simulate`): the events and the board at the start of every turn, as text or a PDF of hex maps."
)
@game_options
@seed_option
@click.option("--game", "game_index", type=int, default=0, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="FILE.txt (the log with a text board per turn), FILE.pdf (a hex map page per "
    "turn) or FILE.jsonl (the trace, as --format jsonl); default: the text on stdout.",
)
@trace_format_option("the game's")
@paper_option
def replay(seed, game_index, out, paper, fmt, **kw):
    """Replay game --game of --seed (the same game as in `hex simulate`): the events and
    the board at the start of every turn."""
    from pathlib import Path

    from manoeuvre_sim.cli.common import check_format, write_text
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.replay import build, render

    if seed < 0 or game_index < 0:
        raise UsageError("--seed and --game: expected numbers >= 0")
    suffix = Path(out).suffix.lower() if out else ""
    if out and suffix not in (".txt", ".pdf", ".jsonl"):
        raise UsageError(f"--out: expected a file name ending in .txt, .pdf or .jsonl, got {out!r}")
    fmt = check_format(fmt, suffix, None)  # (--turns is the game's length here)
    sc, _, packed, options, pol, params, policies = load_game(kw)
    st, trace = batch.play_one(seed, game_index, packed, options.array(), pol, params)
    if fmt == "jsonl":
        from manoeuvre_sim.hexgame.jsonl import jsonl

        text = jsonl(trace, packed, sc, options, seed, game_index, policies)
        write_text(out, text, f"{GAME_TITLE}: game {game_index} of seed {seed}")
        return
    rep = build(trace, packed, sc, options.describe(), seed, game_index, policies, st)
    if suffix == ".pdf":
        from manoeuvre_sim.analyses.hexgame.replay_pdf import write_hex_replay_pdf

        pages = write_hex_replay_pdf(out, rep, packed.hexes, paper)
        click.echo(f"wrote {out} ({pages} pages)", err=True)
    else:
        write_text(out, render(rep), rep.result)
