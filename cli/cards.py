"""``manoeuvre-sim cards``: what each card of one army is worth, observed and by ablation."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import pop_output, run_and_write, study_options
from manoeuvre_sim.cli.manoeuvre_options import (
    army_option,
    engine_kernels,
    policy_option,
    pop_game_options,
    rule_options,
)

DEFAULT_GAMES = 14000


@click.command(short_help="Card value for one army: observed in play and by ablation, PDF.")
@click.option(
    "--army", required=True, help="The army whose cards are valued: a name or .toml file."
)
@click.option("--against", default="all", show_default=True,
              help="'all' (every other base army) or comma-separated armies (names or .toml "
              "files).")  # fmt: skip
@click.option(
    "--mode",
    type=click.Choice(["observed", "ablation", "both"]),
    default="both",
    show_default=True,
    help="observed: win rates when drawn/played, how cards are used; ablation: the win rate "
    "lost when a card is replaced by a blank, on the same seeds.",
)
@click.option(
    "--games-per-variant",
    type=int,
    help="Games of the base army, and again of each card variant, against the field (split "
    "evenly over opponents and seats): the whole deck's ablation plays about 40 times this "
    "(the total is said before play). About 0.2 x 3.84 / w^2 games give a ±w interval per "
    "card (the summary gives the figure measured for ±1 point).  "
    f"[default: {DEFAULT_GAMES}]",
)
@click.option(
    "--games",
    "games_deprecated",
    type=int,
    hidden=True,
    help="Deprecated: --games-per-variant.",
)
@policy_option
@click.option(
    "--replace",
    "replace_",
    multiple=True,
    metavar="CARD=OTHER",
    help="Instead of blanking every card: replace every copy of CARD by OTHER (a card of "
    "the army, or 'blank'), e.g. 'Forced March=Supply' (repeatable).",
)
@click.option("--one-copy", is_flag=True, help="Ablate one copy of each card, not every copy.")
@study_options(
    out="reports/cards",
    out_help="Directory for cards.csv/.parquet, card_copies.csv/.parquet, cards.pdf, summary.txt.",
)
@rule_options
def cards(**kw) -> None:
    """Card value for one army: observed in its games against the field (17lands-style win
    rates when drawn, in the opening hand, played, never drawn; how each card was used),
    and by controlled ablation (every copy of a card replaced by a blank, the same seeds
    replayed; paired 95% intervals)."""
    from manoeuvre_sim.analyses.manoeuvre.cards import CardFiles
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.studies import cards as C

    output = pop_output(kw)
    options = pop_game_options(kw)
    games = kw.pop("games_per_variant")
    old = kw.pop("games_deprecated")
    if old is not None:
        if games is not None:
            raise UsageError("--games: the old name of --games-per-variant; give one of them")
        click.echo(
            f"warning: --games is deprecated: it counts games per variant (the base and each "
            f"card), not in all; say --games-per-variant {old}",
            err=True,
        )
        games = old
    games = DEFAULT_GAMES if games is None else games
    with army_option({"--army": kw["army"], "--against": kw["against"]}):
        spec = C.command_spec(
            kw.pop("army"), replace=kw.pop("replace_"), games_per_variant=games,
            options=options, **kw,
        )  # fmt: skip
    if not output["quiet"]:
        click.echo(spec.total_text(), err=True)

    def run(**run_kw):
        return CardFiles(C.run_spec(spec, **run_kw))

    run_and_write(
        run, **output, threads=spec.threads,
        kinds=engine_kernels((spec.policy.policy_a, spec.policy.policy_b), cards=True),
    )  # fmt: skip
