"""``manoeuvre-sim fix``: the errata of least cost that brings the armies' field win rates
into a band, searched on paired seeds with a sequential test and confirmed on fresh seeds
(``studies/fix.py``; docs/fix.md). Its options and its run are shared with ``hex fix``
(:func:`fix_options`, :func:`run_fix`; ``cli/hexgame/fix.py``)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click

from manoeuvre_sim.cli.common import (
    backend_options,
    invoked_command,
    pop_backend,
    stack,
    start_description,
    threads_option,
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


def fix_options(*, side: str, flag: str, kinds: str, policy_default: str,
                policy_help: str) -> callable:  # fmt: skip
    """The fixer's options of a game's ``fix`` command: the sides edited and targeted
    (``side``: what a side is called, ``flag``: the option naming a target), the band, the
    budget, the edit kinds (``kinds``: the defaults in words), the player, the sequential
    test, the confirmation, the seeds, the output and the backend."""
    a, word = ("an" if side[0] in "aeiou" else "a"), side.upper()
    o = click.option
    return stack(
        o("--edit", "editable", multiple=True, metavar=word,
          help=f"{a.title()} {side} the errata may change (repeatable; default: every {side})."),
        o(flag, "targets", multiple=True, metavar=word,
          help=f"{a.title()} {side} whose field win rate must reach the band (repeatable; "
          f"default: every {side})."),
        o("--target", "band", default="0.45:0.55", show_default=True, metavar="LO:HI",
          help="The band of the field win rates (fractions)."),
        o("--budget", type=int, default=6, show_default=True,
          help="The errata's total cost at most."),
        o("--edits", "edits_file", type=click.Path(dir_okay=False),
          help="A TOML file of the edit kinds allowed, [kind] with cost and range "
          f"(default: {kinds}, each cost 1, range 1)."),
        o("--policy", default=policy_default, show_default=True,
          help=f"Both seats' player: {policy_help}"),
        o("--games-per-look", type=int, default=200, show_default=True,
          help="Games per pairing between two looks of the sequential test."),
        o("--max-games", type=int, default=2000, show_default=True,
          help="A candidate's most games per pairing (then: inconclusive)."),
        o("--confirm-games", type=int,
          help="Games per pairing of the confirmation on fresh seeds (default: from the "
          "band, a half-width at most a fifth of the band's, 200..10,000)."),
        o("--alpha", type=float, default=0.05, show_default=True,
          help="The sequential test's error rates (alpha = beta)."),
        o("--min-gain", type=float, default=0.005, show_default=True,
          help="A candidate whose gain in distance from the band is surely below this "
          "(a fraction: 0.005 is half a point) is negligible, stopped."),
        o("--screen-keep", type=int, default=10, show_default=True,
          help="The screen: after one look of every candidate, only this many of the most "
          "promising undecided ones play on in the sequential test."),
        o("--seed", type=int, default=1, show_default=True, help="The search's seed."),
        o("--confirm-seed", type=int,
          help="The confirmation's seed (default: --seed + 1000003; never --seed)."),
        threads_option,
        o("--out", type=click.Path(file_okay=False), default="reports/fix", show_default=True,
          help="Directory for errata.csv, trail.csv, the matrices, moved.csv, summary.txt, "
          "manifest.json and the games."),
        o("--force", is_flag=True, help="Replace the games of an earlier fix in --out."),
        o("--quiet", is_flag=True, help="No progress lines."),
        backend_options,
    )  # fmt: skip


def pop_fix(kw: dict) -> tuple[dict, dict]:
    """The fixer's own options out of ``kw`` (:func:`fix_options`): ``command_spec``'s
    keywords and the run's (out, quiet, force, the backend)."""
    run = {"out": kw.pop("out"), "quiet": kw.pop("quiet"), "force": kw.pop("force"),
           "backend": pop_backend(kw)}  # fmt: skip
    spec = {"editable": kw.pop("editable") or None, "targets": kw.pop("targets") or None,
            "band": kw.pop("band"), "edits": kw.pop("edits_file")}  # fmt: skip
    for k in ("budget", "policy", "games_per_look", "max_games", "confirm_games", "alpha",
              "min_gain", "screen_keep", "seed", "confirm_seed", "threads"):  # fmt: skip
        spec[k] = kw.pop(k)
    return spec, run


def run_fix(game: str, sides, spec_kw: dict, run: dict, kinds, strong: dict | None = None) -> None:
    """Play the fix of ``sides`` (checked already: ``command_spec``), write its files, print
    its summary; an interrupted fix keeps its games and exits 130. ``kinds``: the batch
    kernels it plays with (the first block's "compiling" line); ``strong``: ``confirm_with``
    and ``confirm_with_games`` (the answer confirmed again under a stronger player)."""
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir
    from manoeuvre_sim.core.backend import make_backend
    from manoeuvre_sim.studies import fix as F
    from manoeuvre_sim.studies.fix_progress import TimeLeft

    be, quiet = run["backend"], run["quiet"]
    resume = be.pop("resume", False)
    out_dir = prepare_out_dir(run["out"], force=run["force"], resume=resume)
    if run["force"]:
        shutil.rmtree(Path(out_dir) / "confirm", ignore_errors=True)
        shutil.rmtree(Path(out_dir) / "confirm-strong", ignore_errors=True)

    def say(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    say(start_description(kinds))
    left = TimeLeft(say)  # a line with the best so far and the time left, every minute
    with make_backend(threads=spec_kw["threads"], **be) as engine:
        res = F.run(game, sides, out_dir=out_dir, backend=engine, resume=resume, say=say,
                    progress=left.progress, status=left.status, **(strong or {}),
                    **spec_kw)  # fmt: skip
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


@click.command(
    short_help="The least-cost errata that evens the armies: paired, sequential, confirmed."
)
@armies_option
@fix_options(side="army", flag="--army", kinds="strength, command, hq, die",
             policy_default=DEFAULT_POLICY, policy_help=POLICY_HELP)  # fmt: skip
@click.option("--confirm-with", metavar="POLICY",
              help="Confirm the answer again under this (stronger) player on the same fresh "
              "seed, e.g. search:16:tuned:v2, and say whether the fix holds.")  # fmt: skip
@click.option("--confirm-with-games", type=int, default=200, show_default=True,
              help="Games per pairing of the --confirm-with confirmation.")  # fmt: skip
@rule_options
def fix(**kw) -> None:
    """Find the errata of least cost (fewest printed changes first) that brings the armies'
    field win rates into the --target band: single edits, then combinations of the helpful
    ones, each tested on the base's seeds by an always-valid sequential test; the answer
    confirmed on fresh seeds with paired intervals per pairing (Holm over the pairings)."""
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.studies import fix as F

    spec_kw, run = pop_fix(kw)
    relax = kw.pop("relax")
    spec_kw["options"] = pop_game_options(kw)
    F.parse_band(spec_kw["band"])  # the cheap checks first: before any army is read
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
        F.command_spec("manoeuvre", names, **spec_kw)  # every option checked before a game
    players = [spec_kw["policy"]] + ([strong["confirm_with"]] if strong["confirm_with"] else [])
    run_fix("manoeuvre", names, spec_kw, run, engine_kernels(players), strong)
