"""``manoeuvre-sim fix``: the errata of least cost that brings the armies' field win rates
into a band, searched on paired seeds with a sequential test and confirmed on fresh seeds
(``studies/fix.py``; docs/fix.md)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click

from manoeuvre_sim.cli.common import (
    backend_options,
    invoked_command,
    pop_backend,
    start_description,
)
from manoeuvre_sim.cli.manoeuvre_options import (
    DEFAULT_POLICY,
    POLICY_HELP,
    armies_option,
    army_option,
    engine_kernels,
    pop_game_options,
    rule_options,
)


@click.command()
@armies_option
@click.option("--edit", "editable", multiple=True, metavar="ARMY",
              help="An army the errata may change (repeatable; default: every army).")  # fmt: skip
@click.option("--army", "targets", multiple=True, metavar="ARMY",
              help="An army whose field win rate must reach the band (repeatable; default: "
              "every army).")  # fmt: skip
@click.option("--target", "band", default="0.45:0.55", show_default=True, metavar="LO:HI",
              help="The band of the field win rates (fractions).")  # fmt: skip
@click.option("--budget", type=int, default=6, show_default=True,
              help="The errata's total cost at most.")  # fmt: skip
@click.option("--edits", "edits_file", type=click.Path(dir_okay=False),
              help="A TOML file of the edit kinds allowed, [kind] with cost and range "
              "(default: strength, command, hq, die, each cost 1, range 1).")  # fmt: skip
@click.option("--policy", default=DEFAULT_POLICY, show_default=True,
              help=f"Both seats' player: {POLICY_HELP}")  # fmt: skip
@click.option("--games-per-look", type=int, default=200, show_default=True,
              help="Games per pairing between two looks of the sequential test.")  # fmt: skip
@click.option("--max-games", type=int, default=2000, show_default=True,
              help="A candidate's most games per pairing (then: inconclusive).")  # fmt: skip
@click.option("--confirm-games", type=int, default=2000, show_default=True,
              help="Games per pairing of the confirmation on fresh seeds.")  # fmt: skip
@click.option("--confirm-with", metavar="POLICY",
              help="Confirm the answer again under this (stronger) player on the same fresh "
              "seed, e.g. search:16:tuned:v2, and say whether the fix holds.")  # fmt: skip
@click.option("--confirm-with-games", type=int, default=200, show_default=True,
              help="Games per pairing of the --confirm-with confirmation.")  # fmt: skip
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="The sequential test's error rates (alpha = beta).")  # fmt: skip
@click.option("--min-gain", type=float, default=0.005, show_default=True,
              help="A candidate whose gain in distance from the band is surely below this "
              "(a fraction: 0.005 is half a point) is negligible, stopped.")  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True, help="The search's seed.")
@click.option("--confirm-seed", type=int,
              help="The confirmation's seed (default: --seed + 1000003; never --seed).")  # fmt: skip
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option("--out", type=click.Path(file_okay=False), default="reports/fix",
              show_default=True, help="Directory for errata.csv, trail.csv, the matrices, "
              "moved.csv, summary.txt, manifest.json and the games.")  # fmt: skip
@click.option("--force", is_flag=True, help="Replace the games of an earlier fix in --out.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
@backend_options
@rule_options
def fix(**kw) -> None:
    """Find the errata of least cost (fewest printed changes first) that brings the armies'
    field win rates into the --target band: single edits, then combinations of the helpful
    ones, each tested on the base's seeds by an always-valid sequential test; the answer
    confirmed on fresh seeds with paired intervals per pairing (Holm over the pairings)."""
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
    from manoeuvre_sim.core.backend import make_backend
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.studies import fix as F

    out, quiet, force = kw.pop("out"), kw.pop("quiet"), kw.pop("force")
    be = pop_backend(kw)
    relax = kw.pop("relax")
    options = pop_game_options(kw)
    F.parse_band(kw["band"])  # the cheap checks first: before any army is read
    strong = {"confirm_with": kw.pop("confirm_with"),
              "confirm_with_games": kw.pop("confirm_with_games")}  # fmt: skip
    if strong["confirm_with"] is not None:
        from manoeuvre_sim.core.errors import UsageError
        from manoeuvre_sim.manoeuvre.runner import check_policy

        check_policy(strong["confirm_with"], "--confirm-with")
        if strong["confirm_with_games"] < 2:
            raise UsageError(f"--confirm-with-games: expected at least 2 games, got "
                                   f"{strong['confirm_with_games']}")  # fmt: skip
    armies = kw.pop("armies")
    names = [a.strip() for a in armies.split(",")] if armies else [
        a.name for a in load_builtin_armies()]  # fmt: skip
    if relax:
        from manoeuvre_sim.manoeuvre.adapter import load_side

        names = [load_side(n, relax=True) for n in names]
    with army_option({"--armies": armies}):
        spec_kw = {
            "editable": kw.pop("editable") or None,
            "targets": kw.pop("targets") or None,
            "band": kw.pop("band"),
            "edits": kw.pop("edits_file"),
            "options": options,
        }
        spec_kw |= kw
        F.command_spec("manoeuvre", names, **spec_kw)  # every option checked before a game
    resume = be.pop("resume", False)
    out_dir = prepare_out_dir(out, force=force, resume=resume)
    if force:
        shutil.rmtree(Path(out_dir) / "confirm", ignore_errors=True)
        shutil.rmtree(Path(out_dir) / "confirm-strong", ignore_errors=True)

    def say(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    players = [spec_kw["policy"]] + ([strong["confirm_with"]] if strong["confirm_with"] else [])
    say(start_description(engine_kernels(players)))
    with make_backend(threads=spec_kw["threads"], **be) as engine:
        res = F.run("manoeuvre", names, out_dir=out_dir, backend=engine, resume=resume,
                    say=say, **strong, **spec_kw)  # fmt: skip
    if res.interrupted:
        click.echo(f"interrupted: {res.manifest.get('search_games', 0):,} games kept in "
                   f"{out_dir}; run again with --resume to go on", err=True)  # fmt: skip
        sys.exit(130)
    command = invoked_command()
    if command:
        res.manifest["command"] = command
    written = res.write(out_dir)
    click.echo("\n".join(res.summary()))
    m = res.manifest
    click.echo(f"\n{m['games']:,} games in {m['seconds']:.1f} s; wrote "
               f"{', '.join(p.name for p in written)} in {out_dir}", err=True)  # fmt: skip
