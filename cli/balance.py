"""``manoeuvre-sim balance``: the army balance study (win-rate matrix, ratings, seats,
victory types), written to a directory as tables, a PDF and the game records."""

from __future__ import annotations

from functools import partial

import click

from manoeuvre_sim.cli._common import (
    DEFAULT_POLICY,
    POLICY_HELP,
    army_option,
    backend_options,
    engine_kernels,
    pop_backend,
    pop_game_options,
    rule_options,
    run_and_write,
)


def study_options(f):
    """Options shared by ``balance`` and ``whatif``: the field, the players, the games."""
    opts = (
        click.option(
            "--armies",
            help="Comma-separated army names or army .toml files (default: the 8 base armies).",
        ),
        click.option(
            "--games-per-pairing",
            type=int,
            default=1000,
            show_default=True,
            help="Games per ordered pairing (army A in seat a, army B in seat b).",
        ),
        click.option(
            "--policy",
            default=DEFAULT_POLICY,
            show_default=True,
            help=f"Both seats' player: {POLICY_HELP}",
        ),
        click.option("--policy-a", help="Seat a's player (default: --policy)."),
        click.option("--policy-b", help="Seat b's player (default: --policy)."),
        click.option("--seed", type=int, default=1, show_default=True),
        click.option("--threads", type=int, default=0, show_default=True, help="0: all cores."),
        click.option(
            "--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True
        ),
        click.option(
            "--force", is_flag=True, help="Replace the games of an earlier study in --out."
        ),
        click.option("--quiet", is_flag=True, help="No progress bar."),
    )
    for opt in reversed(opts):
        f = opt(f)
    return backend_options(rule_options(f))


@click.command()
@study_options
@click.option(
    "--policies",
    help="Comma-separated styles: run the study under each (both seats alike) and compare "
    "the armies' standing between them (play-style sensitivity).",
)
@click.option(
    "--precision",
    type=float,
    help="Instead of a fixed N: add games per pairing until every cell's 95% interval is "
    "at most ±P (e.g. 0.02), or --max-games.",
)
@click.option(
    "--max-games",
    type=int,
    default=20000,
    show_default=True,
    help="With --precision: the most games per ordered pairing.",
)
@click.option(
    "--first-game",
    type=int,
    default=0,
    show_default=True,
    help="Play games K .. K+N-1 of each pairing (one part of a study split over machines: "
    "docs/long-studies.md).",
)
@click.option(
    "--block",
    type=int,
    default=1000,
    show_default=True,
    help="Games per task (one Parquet file of the study store each).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="reports/balance",
    show_default=True,
    help="Directory for games.parquet/, the CSV tables, balance.pdf, summary.txt, manifest.json.",
)
def balance(**kw) -> None:
    """Every ordered pairing of the armies, both seats, mirrors included: each army's win
    rate against each opponent (95% Wilson intervals, draws count half), its win rate
    against the field, Bradley-Terry ratings and ranks with intervals, first-player
    advantage, and how games end."""
    from manoeuvre_sim.studies import balance as B

    out, paper, quiet, force = kw.pop("out"), kw.pop("paper"), kw.pop("quiet"), kw.pop("force")
    be = pop_backend(kw)
    kw["options"] = pop_game_options(kw)
    # every option is checked, and every army loaded, before the first game
    with army_option({"--armies": kw["armies"]}):
        spec = B.command_spec("manoeuvre", **kw)
    run_and_write(
        partial(B.run_spec, spec), out, force=force, quiet=quiet, paper=paper, backend=be,
        threads=spec.threads,
        kinds=engine_kernels([x for p in spec.policies for x in (p.policy_a, p.policy_b)]),
    )  # fmt: skip
