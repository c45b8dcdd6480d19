"""``manoeuvre-sim balance``: the army balance study (win-rate matrix, ratings, seats,
victory types), written to a directory as tables, a PDF and the game records."""

from __future__ import annotations

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


def parse_armies(armies: str | None) -> list[str]:
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    if armies is None:
        return [a.name for a in load_builtin_armies()]
    names = [a.strip() for a in armies.split(",") if a.strip()]
    if not names:
        raise UsageError("--armies: expected comma-separated army names or .toml files")
    return names


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
    from manoeuvre_sim.analyses.manoeuvre import balance as B

    out, paper, quiet, force = kw.pop("out"), kw.pop("paper"), kw.pop("quiet"), kw.pop("force")
    policies = kw.pop("policies")
    be = pop_backend(kw)
    options = pop_game_options(kw)
    relax = kw.pop("relax")
    # every option is checked, and every army loaded, before the first game
    pols = B.policy_specs(
        kw.pop("policy"),
        kw.pop("policy_a"),
        kw.pop("policy_b"),
        [p.strip() for p in policies.split(",") if p.strip()] if policies else None,
    )
    typed = kw.pop("armies")
    with army_option({"--armies": typed}):
        armies, sources = B.resolve_armies(parse_armies(typed), relax=relax)
    spec = B.BalanceSpec(
        armies=tuple(armies), policies=pols, games_per_pairing=kw.pop("games_per_pairing"),
        seed=kw.pop("seed"), options=options, precision=kw.pop("precision"),
        max_games=kw.pop("max_games"), block=kw.pop("block"), threads=kw.pop("threads"),
        first_game=kw.pop("first_game"),
        sources=tuple(sources),
    )  # fmt: skip
    spec_threads = spec.threads

    def run(out_dir, progress, backend, resume):
        return B.run_spec(spec, out_dir=out_dir, progress=progress, backend=backend, resume=resume)

    run_and_write(
        run, out, force=force, quiet=quiet, paper=paper, backend=be, threads=spec_threads,
        kinds=engine_kernels([x for p in pols for x in (p.policy_a, p.policy_b)]),
    )  # fmt: skip
