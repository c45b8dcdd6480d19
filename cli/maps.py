"""``manoeuvre-sim maps``: the printed map sections."""

from __future__ import annotations

import click

# One glyph per terrain letter for the small picture (monospace, two characters a square).
GLYPH = {"C": "  ", "F": "::", "H": "/\\", "L": "~~", "M": ",,", "T": "[]", "W": "^^"}


@click.group()
def maps() -> None:
    """List and show the 24 map sections (data/maps/sections.toml)."""


@maps.command("list")
def list_sections() -> None:
    """Every section with its terrain counts; unverified ones are marked."""
    from collections import Counter

    from manoeuvre_sim.cli.common import format_table
    from manoeuvre_sim.manoeuvre.model import load_sections, load_terrain

    terrain = load_terrain()
    letters = terrain.letters
    rows = []
    for s in load_sections(terrain=terrain):
        cnt = Counter("".join(s.rows))
        rows.append((s.number, "yes" if s.verified else "NO", *(cnt.get(ch, 0) for ch in letters)))
    names = [terrain.terrain[ch].name.lower() for ch in letters]
    click.echo(format_table(["section", "verified", *names], rows))


@maps.command("show")
@click.argument("number", type=int)
@click.option("--rotate", type=click.IntRange(0, 3), default=0, help="Quarter turns clockwise.")
@click.option("--picture", is_flag=True, help="Draw a small picture instead of letters.")
def show(number: int, rotate: int, picture: bool) -> None:
    """Section NUMBER as a 4x4 letter grid (or a small picture), with its legend."""
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.model import load_sections, load_terrain

    terrain = load_terrain()
    sections = {s.number: s for s in load_sections(terrain=terrain)}
    if number not in sections:
        raise UsageError(
            f"map section {number}: no such section; expected one of "
            f"{min(sections)}..{max(sections)}"
        )
    s = sections[number]
    rows = s.rotated(rotate)
    title = f"section {s.number}" + (f", rotated {90 * rotate} degrees" if rotate else "")
    if not s.verified:
        title += "  (UNVERIFIED: the printed layout is not known; see MAP_NOTES)"
    click.echo(title)
    if picture:
        bar = "+" + "--+" * 4
        click.echo(bar)
        for r in rows:
            click.echo("|" + "|".join(GLYPH.get(ch, ch * 2) for ch in r) + "|")
            click.echo(bar)
    else:
        for r in rows:
            click.echo(" ".join(r))
    used = sorted(set("".join(rows)))
    click.echo(
        "legend: "
        + ", ".join(
            f"{ch}{' ' + GLYPH[ch] if picture and ch in GLYPH else ''} = {terrain.terrain[ch].name}"
            for ch in used
        )
    )
