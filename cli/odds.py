"""``manoeuvre-sim odds``: exact (and optionally simulated) combat odds, tables and charts.

Heavy modules (numpy, numba kernels, matplotlib) are imported inside the commands so that
``manoeuvre-sim --help`` stays instant. The options, parsing and printing the commands share
are in ``manoeuvre_odds_options.py``.
"""

from __future__ import annotations

import json

import click

from manoeuvre_sim.cli.common import format_table, paper_option, percent, write_text
from manoeuvre_sim.cli.manoeuvre_odds_options import (
    defense_options,
    json_report_option,
    print_report,
    query_options,
    strengths_option,
)
from manoeuvre_sim.core.errors import UsageError


@click.group()
def odds() -> None:
    """Exact and simulated combat odds (rules 6.1-6.6, 7, 8), tables and printable charts."""


def mixes_option(rest: str):
    """``--mix`` (repeatable) of the grid commands: ``rest`` ends its help."""
    return click.option("--mix", "mixes", multiple=True, help=f"Attack dice mix (repeatable){rest}")


def defenses_option(default: str):
    """``--defenses LO..HI`` of the grid commands."""
    return click.option("--defenses", default=default, show_default=True, help="Defense totals.")


@odds.command()
@click.option("--strength", type=int, default=0, show_default=True,
              help="Attacker's base: unit strength plus leader/hill bonuses.")  # fmt: skip
@click.option("--dice", multiple=True, help="Attack dice of a card played (repeatable), e.g. 2d8.")
@click.option(
    "--support",
    multiple=True,
    metavar="S[:DICE]",
    help="A supporting unit (rule 6.4): strength, optionally ':' and its cards' dice, "
    "e.g. 6:2d6 or 5:1d8+1d6. Repeatable.",
)
@click.option("--leader-combat", type=int, default=0, help="Attacking leader's Combat value.")
@click.option(
    "--leader-command",
    type=int,
    default=None,
    help="Attacking leader's Command value (limits --support to Command - 1).",
)
@click.option("--committed", type=int, default=0, help="Committed Attack cards (+2d6 each).")
@click.option("--hill", is_flag=True, help="Attacker on a hill, defender not: +2.")
@click.option("--ambush", is_flag=True, help="An Ambush: no attacker strength, +1d10.")
@click.option(
    "--japanese-leader",
    is_flag=True,
    help="Distant Lands: a Japanese leader played for the unit it names adds 1d6 (it may "
    "start the Assault alone).",
)
@click.option(
    "--maharaja",
    is_flag=True,
    help="Distant Lands: a Maharaja played with the leader gives it Command 4 (up to 3 --support).",
)
@defense_options
@click.option("--sappers", is_flag=True, help="Sappers/Engineers cancel the redoubt.")
@click.option(
    "--defense-card",
    "defense_cards",
    type=int,
    multiple=True,
    help="Defense value of a defender's unit card played (repeatable).",
)
@click.option(
    "--defender-leader-combat", type=int, default=0, help="Defending leader's Combat value."
)
@query_options
def assault(
    strength,
    dice,
    support,
    leader_combat,
    leader_command,
    committed,
    hill,
    ambush,
    japanese_leader,
    maharaja,
    defense,
    defender_strength,
    terrain,
    redoubt,
    sappers,
    defense_cards,
    defender_leader_combat,
    simulate,
    seed,
    as_json,
) -> None:
    """Odds of an Assault or Ambush (rule 6.1): the six result bands, exclusive."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    rep = q.assault(
        strength, dice, support, leader_combat, leader_command, committed, hill, ambush,
        japanese_leader, maharaja, defense, defender_strength, terrain, redoubt, sappers,
        defense_cards, defender_leader_combat, simulate, seed,
    )  # fmt: skip
    print_report(rep, as_json)


def _fire(kind, dice, defense, defender_strength, terrain, redoubt, hill, simulate, seed,
          as_json, grand_battery=False) -> None:  # fmt: skip
    from manoeuvre_sim.manoeuvre import odds_query as q

    rep = q.fire(kind, dice, defense, defender_strength, terrain, redoubt, hill, simulate, seed,
                 grand_battery)  # fmt: skip
    print_report(rep, as_json)


@odds.command()
@click.option("--dice", multiple=True, help="Bombard dice of the card, e.g. 2d6.")
@click.option("--grand-battery", is_flag=True, help="Napoleon's Grand Battery: 2d10 (rule 9.1).")
@defense_options
@click.option("--hill", is_flag=True, help="Firing unit on a hill, target not: +2.")
@query_options
def bombard(
    dice, grand_battery, defense, defender_strength, terrain, redoubt, hill, simulate, seed, as_json
) -> None:
    """Odds of a Bombardment (rule 6.2): P(dice + hill > defense)."""
    _fire("Bombardment", dice, defense, defender_strength, terrain, redoubt, hill, simulate,
          seed, as_json, grand_battery)  # fmt: skip


@odds.command()
@click.option("--dice", multiple=True, help="Volley dice of the card, e.g. 2d8.")
@defense_options
@click.option("--hill", is_flag=True, help="Firing unit on a hill, target not: +2.")
@query_options
def volley(
    dice, defense, defender_strength, terrain, redoubt, hill, simulate, seed, as_json
) -> None:
    """Odds of a Volley (rule 6.2): P(dice + hill > defense)."""
    _fire(
        "Volley", dice, defense, defender_strength, terrain, redoubt, hill, simulate, seed, as_json
    )


@odds.command()
@click.option(
    "--card",
    "cards",
    type=int,
    multiple=True,
    help="Pursuit value of a card the pursuing cavalry played (repeatable), e.g. 4.",
)
@click.option("--leader-mod", type=int, default=0, help="Leader's pursuit modifier, e.g. -1.")
@query_options
def pursuit(cards, leader_mod, simulate, seed, as_json) -> None:
    """Distribution of pursuit hits (rule 6.6): one d6 per card, hit if d6 + mod <= value."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    print_report(q.pursuit(cards, leader_mod, simulate, seed), as_json)


@odds.command()
@click.argument("rally")
@query_options
def rally(rally, simulate, seed, as_json) -> None:
    """Leader rally in the Restoration Phase (rule 7): RALLY is 1..6 or 'auto'."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    print_report(q.rally(rally, simulate, seed), as_json)


@odds.command()
@click.argument("withdraw_max", type=int)
@query_options
def withdraw(withdraw_max, simulate, seed, as_json) -> None:
    """A US unit card's withdraw attempt (rule 8): d6 within 1..WITHDRAW_MAX."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    print_report(q.withdraw(withdraw_max, simulate, seed), as_json)


@odds.command()
@query_options
def rockets(simulate, seed, as_json) -> None:
    """A rocket attack (Distant Lands 6.3): d10 1-4 no effect, 5-8 retreat, 9-10 both."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    print_report(q.rockets(simulate, seed), as_json)


@odds.command()
@click.option("--attacker-army", required=True, help="Army name or army .toml file.")
@click.option("--attacker", required=True, help="Attacking unit's name.")
@click.option("--defender-army", required=True, help="Army name or army .toml file.")
@click.option("--defender", required=True, help="Defending unit's name.")
@click.option("--attacker-reduced", is_flag=True)
@click.option("--defender-reduced", is_flag=True)
@click.option("--attacker-terrain", default=None, help="clear, hill, woods, town, field.")
@click.option("--defender-terrain", default=None, help="clear, hill, woods, town, marsh, field.")
@click.option("--redoubt", is_flag=True)
@click.option("--sappers", is_flag=True)
@click.option("--committed", type=int, default=0)
@click.option("--attacker-leader", default=None, help="Leader used for Combat (name).")
@click.option("--defender-leader", default=None, help="Leader used for Combat (name).")
@click.option(
    "--attack-cards", type=int, default=1, show_default=True, help="Attack cards played together."
)
@click.option(
    "--defender-cards",
    type=int,
    default=1,
    show_default=True,
    help="Cards the defender holds and plays.",
)
@json_report_option
def matchup(
    attacker_army,
    attacker,
    defender_army,
    defender,
    attacker_reduced,
    defender_reduced,
    attacker_terrain,
    defender_terrain,
    redoubt,
    sappers,
    committed,
    attacker_leader,
    defender_leader,
    attack_cards,
    defender_cards,
    as_json,
) -> None:
    """Odds of a real unit assaulting a real unit, for every card choice (rule 6.1)."""
    from manoeuvre_sim.manoeuvre.combat import BAND_NAMES
    from manoeuvre_sim.manoeuvre.matchup import matchup as named_matchup

    m = named_matchup(
        attacker_army,
        attacker,
        defender_army,
        defender,
        attacker_reduced=attacker_reduced,
        defender_reduced=defender_reduced,
        attacker_terrain=attacker_terrain,
        defender_terrain=defender_terrain,
        redoubt=redoubt,
        sappers=sappers,
        committed=committed,
        attacker_leader=attacker_leader,
        defender_leader=defender_leader,
        attack_cards=attack_cards,
        defender_cards=defender_cards,
    )
    if as_json:
        click.echo(json.dumps(m.to_dict()))
        return
    click.echo(m.title)
    for n in m.notes:
        click.echo(f"  {n}")
    click.echo(
        f"attack base {m.attack_base}, defense before cards {m.defense_base}; bands are exclusive\n"
    )
    short = ["att.hit", "none", "def.ch", "att.ch", "hit+ret", "elim"]
    headers = ["attack", "defense cards", "D"] + short
    rows = [
        [r.attack + f" ({r.attack_cards}x)", f"{r.defense} ({r.defense_cards}x)", r.defense_total]
        + [percent(p, 6) for p in r.odds.probs]
        for r in m.rows
    ]
    for label, p in m.held_mixture.items():
        rows.append([label, "random held", ""] + [percent(x, 6) for x in p])
    rows.append(["any", "random held", ""] + [percent(x, 6) for x in m.overall])
    for label, p in m.hand_mixture.items():
        rows.append([label, "random hand", ""] + [percent(x, 6) for x in p])
    rows.append(["any", "random hand", ""] + [percent(x, 6) for x in m.hand_overall])
    click.echo(format_table(headers, rows, align="llr" + "r" * len(BAND_NAMES)))
    click.echo(
        "\n(Nx): physical card combinations giving that choice; 'random held': the "
        f"defender plays {defender_cards} card(s) drawn at random from its unit's cards;\n"
        "'random hand': the defender's hand is 5 random cards of its deck and it plays every "
        "card of the unit it holds; it holds "
        + ", ".join(f"{k}: {percent(p)}" for k, p in enumerate(m.hand_cards))
        + " of them"
    )


@odds.command()
@mixes_option(", e.g. 2d8 or 2d8+1d6. Default: the printed dice.")
@strengths_option
@defenses_option("1..20")
@click.option("--committed", type=int, default=0, help="Committed Attacks added to every mix.")
@click.option(
    "--out", type=click.Path(dir_okay=False), default=None, help="CSV file (default stdout)."
)
def table(mixes, strengths, defenses, committed, out) -> None:
    """The assault odds grid as CSV: mix x attacker base x defense total -> six bands."""
    from manoeuvre_sim.manoeuvre import odds_query as q

    text, n = q.table_csv(mixes, strengths, defenses, committed)
    write_text(out, text, f"{n} rows")


@odds.command()
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="PDF file to write.")
@paper_option
@mixes_option(". Default: 1d6 1d8 1d10 2d6 2d8 2d10.")
@strengths_option
@defenses_option("3..16")
@click.option(
    "--fire/--no-fire",
    default=True,
    show_default=True,
    help="Add the bombardment / volley (and rockets) page.",
)
def chart(out, paper, mixes, strengths, defenses, fire) -> None:
    """Printable combat odds charts (PDF, greyscale): one assault / ambush page per dice
    mix, then bombardment, volley and rockets."""
    if not str(out).lower().endswith(".pdf"):
        raise UsageError(f"--out: expected a .pdf file name, got {out!r}")
    from manoeuvre_sim.analyses.manoeuvre.odds_chart import write_odds_chart
    from manoeuvre_sim.manoeuvre import odds_query as q

    s, d = q.chart_ranges(strengths, defenses)
    n = write_odds_chart(out, mixes=mixes or None, strengths=s, defenses=d, paper=paper, fire=fire)
    click.echo(f"wrote {out} ({n} pages, {paper})", err=True)
