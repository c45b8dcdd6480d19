"""``manoeuvre-sim why``: why one army scores what it does against another: the gap from 50 %
shared out among the two armies' units, leaders, HQ cards and tie-break places by their
Shapley values on paired seeds (``studies/why.py``; docs/why.md)."""

from __future__ import annotations

import sys

import click

from manoeuvre_sim.cli.common import invoked_command, pop_backend, progress_bar, why_options
from manoeuvre_sim.cli.manoeuvre_options import (
    DEFAULT_POLICY,
    POLICY_HELP,
    army_option,
    engine_kernels,
    pop_game_options,
    rule_options,
)
from manoeuvre_sim.core.errors import UsageError


@click.command(
    short_help="Why one army scores what it does against another: Shapley shares of the gap."
)
@click.option("--armies", metavar="X,Y",
              help="The two armies of the pairing (names or .toml files); the contributions "
              "are to X's score.")  # fmt: skip
@click.option("--army", metavar="X", help="With --field: the army to explain against the field.")
@click.option("--field", is_flag=True,
              help="X (--army) against every other base army, each pairing in both seatings, "
              "pooled: X's parts and each opponent army share the gap.")  # fmt: skip
@click.option("--policy", default=DEFAULT_POLICY, show_default=True,
              help=f"Both seats' player: {POLICY_HELP}")  # fmt: skip
@why_options("reports/why")
@rule_options
def why(**kw) -> None:
    """Share the gap between X's score against Y and 50 % out among the parts of both armies:
    each unit with its cards, each leader, the HQ cards by type, the tie-break place. A
    part switched off is its neutral reference (the median infantry unit of the base
    armies; a blank card; no tie-break place), the same for both armies, so with every part
    off the pairing is even; each part's Shapley value, with its 95 % interval, is played
    on the same seeds as the pairing, and the values add up to the measured gap. With
    --army X --field: X against every other base army, pooled; the parts are X's and each
    opponent army whole (switched off: every part of it at the reference)."""
    from manoeuvre_sim.manoeuvre.adapter import load_side
    from manoeuvre_sim.studies import why as W

    out, quiet, force, paper = kw.pop("out"), kw.pop("quiet"), kw.pop("force"), kw.pop("paper")
    be = pop_backend(kw)
    relax = kw.pop("relax")
    options = pop_game_options(kw)
    armies, army, field = kw.pop("armies"), kw.pop("army"), kw.pop("field")
    if field or army is not None:
        spec = _field_spec(army, field, armies, relax, options, kw)
    else:
        if armies is None:
            raise UsageError("--armies: expected X,Y, the two armies of the pairing (or "
                             "--army X --field: X against every other base army)")  # fmt: skip
        names = [a.strip() for a in armies.split(",") if a.strip()]
        with army_option({"--armies": armies}):
            # by name (the manifest's sources), as loaded only when --relax lifts the deck rules
            sides = [load_side(n, relax=True) for n in names] if relax else names
            spec = W.command_spec("manoeuvre", sides, options=options, **kw)  # every check
    play_and_write(
        "manoeuvre",
        spec,
        be,
        out=out,
        quiet=quiet,
        force=force,
        paper=paper,
        kinds=engine_kernels([kw["policy"]]),
    )


def _field_spec(army, field: bool, armies, relax: bool, options, kw: dict):
    """``--army X --field``: X against every other base army (``studies/why_field.py``),
    every option checked before any game."""
    from manoeuvre_sim.manoeuvre.adapter import load_side
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.studies import why_field

    if not field:
        raise UsageError("--army: only with --field (X against every other base army); a "
                         "pairing is --armies X,Y")  # fmt: skip
    if army is None or not army.strip():
        raise UsageError("--field: expected --army X, the army to explain against the field")
    if armies is not None:
        raise UsageError("--armies: not with --field (the field is every other base army)")
    with army_option({"--army": army}):
        x = load_side(army.strip(), relax=relax)
        field_names = [a.name for a in load_builtin_armies() if a.name != x.name]
        side = x if relax else army.strip()
        return why_field.command_spec("manoeuvre", side, field_names, options=options, **kw)


def play_and_write(game: str, spec, be: dict, *, out, quiet: bool, force: bool, paper: str,
                   kinds) -> None:  # fmt: skip
    """Play the why study ``spec`` of ``game`` (every option checked before) with the backend
    ``be`` (``pop_backend``'s), write its tables and pages in ``out`` and print its summary:
    the body of ``why`` and of ``hex why``; ``kinds``: the kernels, for the progress bar."""
    from manoeuvre_sim.analyses.common import why_chart
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
    from manoeuvre_sim.core.backend import make_backend
    from manoeuvre_sim.core.games import get_game
    from manoeuvre_sim.studies import why as W
    from manoeuvre_sim.studies import why_field

    run_spec = why_field.run_spec if isinstance(spec, why_field.FieldSpec) else W.run_spec
    resume = be.pop("resume", False)
    out_dir = prepare_out_dir(out, force=force, resume=resume)
    if not quiet:
        click.echo(f"why: {spec.n} parts, {spec.method}; {spec.samples} samples of "
                   f"{spec.games_per_sample():,} games", err=True)  # fmt: skip
    bar, tick = progress_bar(quiet, "game", kinds)
    try:
        with make_backend(threads=spec.balance.threads, **be) as engine:
            res = run_spec(get_game(game), spec, out_dir=out_dir, backend=engine,
                             resume=resume, progress=tick, command=invoked_command())  # fmt: skip
    finally:
        if bar is not None:
            bar.close()
    if res.manifest["tasks_resumed"]:
        click.echo(f"resumed: {res.manifest['tasks_resumed']:,} blocks read back from "
                   f"{out_dir}", err=True)  # fmt: skip
    if res.interrupted:
        click.echo(f"interrupted after {res.manifest['samples_done']} samples; the games are "
                   f"kept in {out_dir}: run again with --resume to go on", err=True)  # fmt: skip
        sys.exit(130)
    written = res.write(out_dir) + why_chart.write_pages(res, out_dir, paper)
    click.echo("\n".join(res.summary()))
    m = res.manifest
    click.echo(f"\n{m['games']:,} games in {m['seconds']:.1f} s; wrote "
               f"{', '.join(p.name for p in written)} in {out_dir}", err=True)  # fmt: skip
