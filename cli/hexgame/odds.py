"""``manoeuvre-sim hex odds``: Maneuver's exact (and optionally simulated) combat odds, and
its printable results-table chart. Heavy modules are imported inside the commands, so
``--help`` stays instant."""

from __future__ import annotations

import json

import click

from manoeuvre_sim.cli.common import format_table, paper_option, percent
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import GAME_TITLE

UNIT_HELP = (
    "comma-separated, each a combat strength then any of r (reduced side), u (unsupplied: "
    "-2, not below 0), h (in its Capital's hex), c (the Capital)"
)


def _effect_text(units, fates) -> str:
    """``'all eliminated'``, or per unit ``'4 reduced, 3r eliminated'``."""
    from manoeuvre_sim.hexgame.odds import FATE_NAMES

    names = [FATE_NAMES[f] for f in fates]
    if len(set(names)) == 1:
        return names[0] if len(names) == 1 else f"all {names[0]}"
    return ", ".join(f"{u.label} {n}" for u, n in zip(units, names, strict=True))


def _title(res) -> str:
    def side(units):
        return "+".join(u.label for u in units)

    notes = [text for on, text in ((res.step_losses, "step losses [13].3"),
                                   (res.capital_attacking, "attacking from the Capital's hex [11]"),
                                   (res.capital_defending, "the Capital's hex defends [11]")) if on]  # fmt: skip
    return (
        f"{GAME_TITLE}\n"
        f"Attack {side(res.attackers)} = {res.attack_strength} vs defence "
        f"{side(res.defenders)} = {res.defence_strength}: difference {res.difference:+d}, "
        f"each side adds one d6 (rule [8])" + (f"; {', '.join(notes)}" if notes else "")
    )


@click.group(
    name="odds",
    help=f"{GAME_TITLE}: exact and simulated combat odds (rules [8], [9], [11], [13].3) and "
    "the printable results-table chart.",
)
def odds() -> None:
    pass


COMBAT_HELP = f"""{GAME_TITLE}: the odds of one attack, each result of the table (rule [8])
and what it does to every unit.

\b
Examples:
  manoeuvre-sim hex odds combat --attack 4,3 --defend 4
  manoeuvre-sim hex odds combat --attack 4,2u --defend 3,1c --step-losses
  manoeuvre-sim hex odds combat --attack 3h,2c,4 --defend 5 --simulate 100000
"""


@odds.command(help=COMBAT_HELP, short_help="The odds of one attack: each result, each unit's fate.")
@click.option(
    "--attack",
    "attack",
    required=True,
    metavar="UNITS",
    help=f"Attacking units: {UNIT_HELP}; e.g. 4,3r.",
)
@click.option("--defend", "defend", required=True, metavar="UNITS", help=f"Defending units (one hex): {UNIT_HELP}; a c among them makes it the Capital's hex.")  # fmt: skip
@click.option(
    "--step-losses",
    is_flag=True,
    help="Advanced rule [13].3: AE and DE flip full-strength units, eliminate reduced ones.",
)
@click.option(
    "--simulate",
    "simulate",
    type=int,
    default=0,
    metavar="N",
    help="Also roll N combats with the engine's kernel and show the estimate and its 95% "
    "Wilson interval beside the exact odds.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Monte Carlo seed.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
def combat(attack, defend, step_losses, simulate, seed, as_json) -> None:
    from manoeuvre_sim.hexgame import RULES_VERSION
    from manoeuvre_sim.hexgame import odds as o
    from manoeuvre_sim.hexgame import odds_query as q
    from manoeuvre_sim.hexgame.crt import RESULT_MEANING, RESULT_NAMES

    res, est = q.combat(attack, defend, step_losses, simulate, seed)
    if as_json:
        click.echo(json.dumps(q.combat_dict(res, est)))
        return
    click.echo(_title(res))
    cum = [None, *res.cumulative.values()]
    headers = ["result", "meaning", "rolls", "exact", "at least", "attackers", "defenders"]
    rows = []
    for r, name in enumerate(RESULT_NAMES):
        att, dfn = res.effects(r)
        p = res.exact[r]
        rows.append([name, RESULT_MEANING[r], f"{res.rolls_of_36[r]}/36", percent(float(p)),
                     percent(float(cum[r])) if r else "", _effect_text(res.attackers, att),
                     _effect_text(res.defenders, dfn)])  # fmt: skip
    align = "llrrrll"
    if est is not None:
        lo, hi = est.interval
        headers[5:5] = ["simulated", "95% interval"]
        align = "llrrrrrll"
        for row, p, a, b in zip(rows, est.p, lo, hi, strict=True):
            row[5:5] = [percent(p), f"{percent(a)} .. {percent(b)}"]
    click.echo(format_table(headers, rows, align=align))
    click.echo("\nWhat happens to each unit (exact):")
    fate_rows = []
    for who, units in (("attacker", res.attackers), ("defender", res.defenders)):
        for u, fates in zip(units, res.fates(who == "attacker"), strict=True):
            fate_rows.append([who, u.label, u.effective] + [percent(float(p)) for p in fates])
    click.echo(
        format_table(["side", "unit", "fights at", *o.FATE_NAMES], fate_rows, align="llrrrrrr")
    )
    if est is not None:
        click.echo(f"\nsimulated: {est.n:,} combats, seed {est.seed}")
    click.echo(f"rules {RULES_VERSION}; bands of the table: DE +4 or more, DR +2/+3, NE 0/+1, "
               "AR -1/-2, AE -3 or less")  # fmt: skip


@odds.command(
    short_help="A printable one-page chart of the results table (PDF).",
    help=f"{GAME_TITLE}: a printable one-page chart (PDF, greyscale) of the results table by "
    "difference, the exact chance of AE, AR, NE, DR and DE, with the Capital, supply and "
    "step-loss notes.",
)
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="PDF file to write.")
@paper_option
@click.option(
    "--differences",
    default="-8..8",
    show_default=True,
    help="Attack strength minus defence strength, as LO..HI (at most 21 columns).",
)
def chart(out, paper, differences) -> None:
    if not str(out).lower().endswith(".pdf"):
        raise UsageError(f"--out: expected a .pdf file name, got {out!r}")
    from manoeuvre_sim.analyses.hexgame.odds_chart import write_hex_odds_chart
    from manoeuvre_sim.hexgame.odds_query import parse_differences

    diffs = parse_differences(differences)

    write_hex_odds_chart(out, differences=diffs, paper=paper)
    click.echo(f"wrote {out} (1 page, {paper})", err=True)
