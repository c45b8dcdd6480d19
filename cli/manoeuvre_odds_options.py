"""What Manoeuvre's ``odds`` commands (``odds.py``) share: their options (``--simulate``, ``--seed``,
``--json``, the defense total's) and the printing of exact odds beside a Monte Carlo
estimate as a table or JSON; what they compute is in
:mod:`manoeuvre_sim.manoeuvre.odds_query`, which the workbench's odds pages call too.

Heavy modules are imported inside the functions, as in the commands, so that
``manoeuvre-sim --help`` stays instant.
"""

from __future__ import annotations

import json

import click

from manoeuvre_sim.cli.common import format_table, percent, stack

json_report_option = click.option(
    "--json", "as_json", is_flag=True, help="One JSON object on stdout."
)

# the options of every odds query: a Monte Carlo check of the exact odds, its seed, JSON
query_options = stack(
    click.option(
        "--simulate",
        "simulate",
        type=int,
        default=0,
        metavar="N",
        help="Also run N Monte Carlo resolutions with the engine's kernel and show the "
        "estimate and its 95% Wilson interval beside the exact odds.",
    ),
    click.option("--seed", type=int, default=1, show_default=True, help="Monte Carlo seed."),
    json_report_option,
)


def print_report(rep, as_json: bool) -> None:
    """Print an :class:`~manoeuvre_sim.manoeuvre.odds_query.OddsReport` (exact probabilities
    and a Monte Carlo estimate) as a table or JSON."""
    if as_json:
        click.echo(json.dumps(rep.to_dict(), indent=None))
        return
    est = rep.estimate
    click.echo(rep.title)
    headers = ["result", "exact"]
    rows = [[n, percent(p, 6)] for n, p in zip(rep.names, rep.probs, strict=True)]
    if est is not None:
        lo, hi = est.interval
        headers += ["simulated", "95% interval"]
        for r, p, a, b in zip(rows, est.p, lo, hi, strict=True):
            r += [percent(p, 6), f"{percent(a)} .. {percent(b)}"]
    click.echo(format_table(headers, rows, align="lr" + "rr" * (est is not None)))
    if est is not None:
        click.echo(f"simulated: {est.n:,} resolutions, seed {est.seed}")


# the defense total: whole, or built of the defender's strength, terrain and redoubt
defense_options = stack(
    click.option("--defense", type=int, default=None, help="The whole defense total."),
    click.option(
        "--defender-strength", type=int, default=None, help="Build the defense total instead."
    ),
    click.option("--terrain", default=None, help="Defender's terrain: clear, hill, woods, ..."),
    click.option("--redoubt", is_flag=True, help="A redoubt on the defender's square (+3)."),
)

strengths_option = click.option(
    "--strengths", default="0..12", show_default=True, help="Attacker bases."
)
