"""``manoeuvre-sim hex scenario``: check a Maneuver scenario file and show what it holds."""

from __future__ import annotations

import click

from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    help=f"{GAME_TITLE}. Validate a scenario file (default: the built-in reconstruction) and "
    "print its hash, its orders of battle and each border line drawn on the hex map."
)
@click.option("--scenario", type=click.Path(dir_okay=False), default=None)
@click.option("--border", default=None, help="Draw only this border line.")
def scenario(scenario, border):
    from manoeuvre_sim.cli.common import format_table
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.hexgame.scenario import (
        H_CAPITAL_OK,
        H_SETUP,
        H_SIDE,
        SIDES,
        TYPE_NAMES,
        default_path,
        hex_table,
        load_scenario,
    )

    source = scenario or default_path()
    sc = load_scenario(source)
    if border is not None and border not in sc.borders:
        raise UsageError(f"--border: expected one of {', '.join(sc.borders)}, got {border!r}")
    click.echo(f"{source}: scenario {sc.name}, sha256 {sc.sha256}")
    click.echo(sc.note)
    click.echo(f"{sc.columns} columns x {sc.rows} rows, layout {sc.layout}\n")
    for s, side in enumerate(SIDES):
        rows = [
            [name, TYPE_NAMES[t], f"{v[0]}/{v[1]}", f"{v[2]}/{v[3]}", ma]
            for name, t, v, ma in sc.units(s)
        ]
        click.echo(f"{side}:")
        click.echo(format_table(["unit", "type", "att/def", "reduced", "MA"], rows, "llllr"))
        click.echo("")
    g = sc.grid
    for name in [border] if border else list(sc.borders):
        tab = hex_table(sc, name)
        click.echo(f"border {name}: {sc.borders[name].note}")
        click.echo("  upper case blue, lower case red; K: the Capital (and any unit) may set up")
        click.echo("  there, S: other units only, X: no set-up (beside the border, rule [3])")
        for r in range(g.rows):
            for parity in (0, 1):
                line = " " * (2 * parity)
                for c in range(parity, g.columns, 2):
                    h = g.hex_id(c, r)
                    side = tab[h, H_SIDE]
                    ch = "K" if tab[h, H_CAPITAL_OK] else ("S" if tab[h, H_SETUP] else "X")
                    ch = ch if side == 0 else ch.lower()
                    line += ch.ljust(4)
                click.echo("  " + line.rstrip())
        click.echo("")
