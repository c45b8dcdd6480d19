"""``manoeuvre-sim hex tournament``: every pair of Maneuver players, both seatings (a front
end over ``studies/tournament.py``, Maneuver's ``tournament_plan`` seating them)."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.common import tournament_options
from manoeuvre_sim.cli.hexgame._options import game_options, hex_options, load_game
from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    short_help="Every pair of Maneuver players, both seatings: scores with intervals.",
    help=f"{GAME_TITLE}. Play every pair of --policies, each player once blue and once red (--games each), and give each pair's score (a win 1, a draw 1/2) with its 95% Wilson interval. The games are study tasks: with --out they go to OUT.store/ as they finish, so an interrupted tournament goes on with --resume, and --backend dask plays them on a cluster.",
)
@click.option("--policies", default="random,capital,attrition", show_default=True,
              help="Comma-separated players: random, capital, attrition, "
              "search[:BUDGET[:STYLE[:SCOPE]]].")  # fmt: skip
@click.option(
    "--games", type=int, default=1000, show_default=True, help="Games per pair and seating."
)
@tournament_options
@game_options
def tournament(policies, games, seed, threads, out, as_json, quiet, **kw):
    """Play every pair of --policies, each player once blue and once red (--games each),
    and give each pair's score (a win 1, a draw 1/2) with its 95% Wilson interval."""
    import sys

    from manoeuvre_sim.cli.common import play_to_file, pop_backend, ran_text
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.hexgame import adapter as HX
    from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
    from manoeuvre_sim.studies import tournament as study

    be = pop_backend(kw)
    if kw.get("params_a") or kw.get("params_b"):
        raise UsageError("--params-a/--params-b: a tournament plays each player's defaults")
    kw["policy_a"] = kw["policy_b"] = HX.DEFAULT_POLICY  # the players are --policies
    sc, source, _, options, _, _, _ = load_game(kw)
    spec = study.command_spec(
        HX.KEY, policies=policies, games=games, seed=seed, threads=threads,
        options=hex_options(options, source), out=out, resume=be["resume"],
    )  # fmt: skip
    res = play_to_file(study, be, spec, out, quiet=quiet or as_json, kinds=HEX_KINDS)
    _print_pairs(res, sc, options, seed, as_json)
    m = res.manifest
    resumed = m.get("tasks_resumed", 0)
    click.echo(
        f"{len(res.frame)} games in {ran_text(m['seconds'], m['threads'], m['backend'])}"
        + (f" ({resumed} task(s) read back from {res.store})" if resumed else ""),
        err=True,
    )
    if res.interrupted:
        click.echo("interrupted: the finished pairs are reported"
                   + (f"; --resume goes on from {res.store}" if out else ""), err=True)  # fmt: skip
        sys.exit(130)


def _print_pairs(res, sc, options, seed: int, as_json: bool) -> None:
    """Each pair's games, wins, draws and score with its 95 % Wilson interval, and the seats'
    win rates over all games (or the pairs as JSON)."""
    import json

    import pandas as pd

    from manoeuvre_sim.cli.common import format_table
    from manoeuvre_sim.core.stats import wilson_interval

    rows, doc = [], []
    for pr in res.pairs:
        n = pr.games
        lo, hi = wilson_interval(pr.wins_a, n)
        wa = int(round(pr.wins_a - pr.draws / 2))
        rows.append([pr.a, pr.b, n, wa, n - wa - pr.draws, pr.draws, f"{pr.wins_a / n:.3f}",
                     f"{float(lo):.3f}-{float(hi):.3f}"])  # fmt: skip
        doc.append({"a": pr.a, "b": pr.b, "games": n, "a_wins": wa, "b_wins": n - wa - pr.draws,
                    "draws": pr.draws, "a_score": pr.wins_a / n,
                    "ci95": [float(lo), float(hi)]})  # fmt: skip
    if as_json:
        click.echo(json.dumps({"pairs": doc, "scenario_sha256": sc.sha256}, indent=2))
        return
    click.echo(
        f"Maneuver tournament, seed {seed}, {options.describe()}, scenario {sc.name} "
        f"(sha256 {sc.sha256[:16]}...)"
    )
    click.echo(format_table(["a", "b", "games", "a won", "b won", "draws", "a score", "95% CI"],
                            rows))  # fmt: skip
    allg = res.frame if len(res.frame) else pd.DataFrame(columns=["winner"])
    if len(allg):
        blue_rate = (allg["winner"] == "a").mean()
        red_rate = (allg["winner"] == "b").mean()
        click.echo(f"seats over all games: blue won {blue_rate:.3f}, red won {red_rate:.3f}")
