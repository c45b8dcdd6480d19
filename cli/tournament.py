"""``manoeuvre-sim tournament``: every pair of policies, mirrored armies, swapped seats (a
front end over ``studies/tournament.py``, Manoeuvre's ``tournament_plan`` seating them)."""

from __future__ import annotations

import json
import sys

import click

from manoeuvre_sim.cli.common import pop_backend, tournament_options
from manoeuvre_sim.cli.manoeuvre_options import army_option, engine_kernels, game_options

DEFAULT_POLICIES = "random,simple,attritional,territorial,balanced,tuned"


@click.command(short_help="Policies against each other: mirrored armies, swapped seats, 95% CIs.")
@click.option(
    "--policies",
    default=DEFAULT_POLICIES,
    show_default=True,
    help="Comma-separated policies (built-in names or styles from --styles).",
)
@click.option("--games", type=int, default=2000, show_default=True, help="Games per pair.")
@click.option(
    "--styles",
    "styles_file",
    type=click.Path(dir_okay=False),
    help="TOML file of style variants ([styles.NAME] base = ..., parameter = value).",
)
@click.option("--armies", help="Comma-separated armies to mirror (default: all 8 base armies).")
@tournament_options
@game_options
def tournament(
    policies: str,
    games: int,
    seed: int,
    styles_file: str | None,
    armies: str | None,
    threads: int,
    out: str | None,
    as_json: bool,
    quiet: bool,
    **be,
) -> None:
    """Play every pair of --policies on each army against itself, both seatings, and report
    each pair's win rate (policy a's, draws count half) with a 95% Wilson interval, and per
    policy the victory mix, game length, combats, eliminations and cards played per turn."""
    from manoeuvre_sim.cli.common import play_to_file
    from manoeuvre_sim.cli.manoeuvre_options import pop_game_options
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.manoeuvre.styles import load_styles
    from manoeuvre_sim.studies import tournament as study

    options = pop_game_options(be)  # every game option, checked before any game
    be = pop_backend(be)
    styles = load_styles(styles_file) if styles_file else {}
    # a style by its name, else a built-in policy's (or a search player's) spec
    players = [styles.get(p.strip(), p.strip()) for p in policies.split(",") if p.strip()]
    with army_option({"--armies": armies}):
        spec = study.command_spec(
            "manoeuvre", policies=players, games=games, seed=seed, sides=armies,
            threads=threads, options=options, out=out, resume=be["resume"],
        )  # fmt: skip
    _say_rounding(games, len(spec.sides) if spec.sides else len(load_builtin_armies()))
    kinds = engine_kernels([p if isinstance(p, str) else p.base for p in spec.players])
    res = play_to_file(study, be, spec, out, quiet=quiet or as_json, kinds=kinds)
    _print_result(res, seed, as_json)
    if res.interrupted:
        click.echo("interrupted: the finished pairs are reported", err=True)
        sys.exit(130)


def _say_rounding(games: int, n_armies: int) -> None:
    """One line when --games is rounded up to whole rounds of the armies and seats."""
    from manoeuvre_sim.manoeuvre.styles import games_per_pair

    per = games_per_pair(games, n_armies)
    if per != games:
        click.echo(
            f"--games {games} rounded up to {per:,} per pair: each pair plays each of the "
            f"{n_armies} armies in both seats equally often, so its games come in multiples "
            f"of {2 * n_armies} ({per // (2 * n_armies):,} per army and seat)",
            err=True,
        )


def _print_result(res, seed: int, as_json: bool) -> None:
    """Each pair's score with its interval, then per policy the means over its games (or
    the pairs and the manifest as JSON)."""
    from manoeuvre_sim.analyses.manoeuvre import tournament as T
    from manoeuvre_sim.cli.common import format_table

    doc = T.pairs_json(res)
    if as_json:
        click.echo(json.dumps(doc | {"manifest": res.manifest}, indent=2))
        return
    rows = [
        (
            p["a"], p["b"], f"{p['games']:,}", f"{p['win_rate_a']:.3f}",
            f"[{p['ci_low']:.3f}, {p['ci_high']:.3f}]", str(p["draws"]),
        )
        for p in doc["pairs"]
    ]  # fmt: skip
    m = res.manifest
    click.echo(
        f"tournament: seed {seed}, {m['games_per_pair']:,} games per pair, armies mirrored: "
        f"{', '.join(m['armies'])}; rules {m['rules_version']}"
        + (f"; {m['setup_text']}" if m["setup_text"] else "")
    )
    click.echo(format_table(["a", "b", "games", "win rate a", "95% CI", "draws"], rows))
    if len(res.frame):
        st = T.policy_stats(res.frame)
        srows = [
            [str(r[0]), f"{r[1]:,}"] + [f"{x:.3f}" for x in r[2:]]
            for r in st.itertuples(index=False)
        ]
        click.echo("\nper policy (means over its games):")
        click.echo(format_table(list(st.columns), srows))
