"""``manoeuvre-sim armies``: list, show, validate and export army files."""

from __future__ import annotations

import csv
import io
import sys

import click

from manoeuvre_sim.cli.common import format_table
from manoeuvre_sim.core.fileio import atomic_write
from manoeuvre_sim.manoeuvre.model.army import d6_range


@click.group()
def armies() -> None:
    """List, show, validate and export armies (data/armies/*.toml or your own files)."""


@armies.command("list")
def list_armies() -> None:
    """One line per built-in army: units, cavalry, average strengths, leaders."""
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    rows = []
    for a in load_builtin_armies():
        n = len(a.units)
        rows.append(
            (
                a.name,
                n,
                sum(u.is_cavalry for u in a.units),
                f"{sum(u.full for u in a.units) / n:.3f}",
                f"{sum(u.reduced for u in a.units) / n:.3f}",
                len(a.leaders),
                a.deck_size,
                a.tiebreak_rank,
            )
        )
    click.echo(
        format_table(
            ["army", "units", "cavalry", "avg full", "avg reduced", "leaders", "cards",
             "tie-break"],
            rows,
            align="lrrrrrrr",
        )
    )  # fmt: skip


def _given(*items: tuple[object, str]) -> str:
    """``(value, template)`` items: each template filled with its value (``str.format``)
    where the value is set, joined by commas."""
    return ", ".join(template.format(value) for value, template in items if value)


def _dice_cell(c) -> str:
    return _given((c.attack, "attack {}"), (c.bombard, f"bombard {{}} range {c.range}"),
                  (c.volley, f"volley {{}} range {c.range}")) or "-"  # fmt: skip


@armies.command("show")
@click.argument("army")
@click.option("--relax", is_flag=True, help="Allow a deck that breaks the 8/5/20/60 counts.")
def show(army: str, relax: bool) -> None:
    """Units and the whole deck of ARMY (a built-in name or a .toml path)."""
    from manoeuvre_sim.manoeuvre.model import find_army

    a = find_army(army, relax=relax)
    click.echo(f"{a.name}  (tie-break rank {a.tiebreak_rank}, {a.deck_size} cards)")
    if a.relax_deck_rules or relax:
        click.echo("deck-composition rules relaxed: not a legal Manoeuvre army")
    if a.distant_lands:
        click.echo(f"Distant Lands army: {a.distant_lands}")
    click.echo("")
    head, urows = ["unit", "type", "full", "reduced"], []
    for u in a.units:
        urows.append(
            (u.name, u.type, u.full, u.reduced) + ((u.nationality,) if a.distant_lands else ())
        )
    click.echo(format_table(head + (["nationality"] if a.distant_lands else []), urows))
    click.echo("\nUnit cards")
    rows = []
    for u in a.units:
        for c in u.cards:
            extra = c.ability_terms()
            if c.artillery:
                extra.append("artillery")
            if c.secondary:
                extra.append(f"secondary: {c.secondary}")
            rows.append((u.printed_card_name, _dice_cell(c), c.defense, ", ".join(extra)))
    click.echo(format_table(["card", "dice", "defense", "notes"], rows, align="llrl"))
    click.echo("\nLeaders")
    rows = []
    for ld in a.leaders:
        combat = (
            str(ld.combat_attack)
            if ld.combat_attack == ld.combat_defense
            else f"{ld.combat_attack}/{ld.combat_defense}"
        )
        rally = "auto" if ld.rally_auto else d6_range(ld.rally)
        notes = _given((ld.pursuit_mod, "pursuit {:+d}"), (ld.grand_battery, "Grand Battery {}"),
                       (ld.nationality, "only {} units"), (ld.unit, "only {} (assault 1d6)"))  # fmt: skip
        rows.append((ld.name, ld.command, combat, rally, notes))
    click.echo(format_table(["leader", "command", "combat", "rally", "notes"], rows, align="lrrll"))
    click.echo("\nHQ cards")
    click.echo(
        format_table(
            ["card", "type", "copies"],
            [(h.printed_title, h.type, h.count) for h in a.hq],
        )
    )


@armies.command("validate")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--relax", is_flag=True, help="Allow decks that break the 8/5/20/60 counts.")
def validate(paths: tuple[str, ...], relax: bool) -> None:
    """Check army files; print every problem with file, field and what was expected."""
    from manoeuvre_sim.core.errors import DataError
    from manoeuvre_sim.manoeuvre.model import load_army

    bad = 0
    for p in paths:
        try:
            a = load_army(p, relax=relax)
        except DataError as e:
            bad += 1
            click.echo(e.render(), err=True)
        else:
            note = " (deck rules relaxed)" if (a.relax_deck_rules or relax) else ""
            click.echo(f"{p}: ok: {a.name}, {len(a.units)} units, {a.deck_size} cards{note}")
    if bad:
        click.echo(f"{bad} of {len(paths)} file(s) invalid", err=True)
        sys.exit(2)


@armies.command("export")
@click.argument("names", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["csv"]), default="csv", show_default=True)
@click.option("--units", "what", flag_value="units", help="Export the unit table instead.")
@click.option("--cards", "what", flag_value="cards", default=True, help="Export the cards.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write to FILE (default stdout).")
def export(names: tuple[str, ...], fmt: str, what: str, out: str | None) -> None:
    """Cards (or units) of NAMES (default: all built-in armies) in the columns of the
    reference transcription, one row per physical card."""
    from manoeuvre_sim.manoeuvre.model import find_army, load_builtin_armies
    from manoeuvre_sim.manoeuvre.model.export import (
        CARD_COLUMNS,
        UNIT_COLUMNS,
        card_rows,
        unit_rows,
    )

    chosen = [find_army(n) for n in names] if names else load_builtin_armies()
    cols, rowf = (CARD_COLUMNS, card_rows) if what == "cards" else (UNIT_COLUMNS, unit_rows)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    for a in chosen:
        w.writerows(rowf(a))
    if out:
        with atomic_write(out, encoding="utf-8", newline="") as f:
            f.write(buf.getvalue())
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(buf.getvalue(), nl=False)
