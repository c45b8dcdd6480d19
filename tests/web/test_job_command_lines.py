"""A job's command line (``web.jobs.kinds.command_line``) is one the command line takes: for
a job of every kind of every game (the coin game registered by the environment alone),
the command it records is parsed by the real ``manoeuvre-sim`` command (click, no game
played), each option landing on the keyword the job gave it. Its words come from each
kind's declared options and each game's own (``COMMAND_FLAGS``), with no list of option
names in the web."""

from __future__ import annotations

import shlex

import click
import pytest

# a job of each kind, as its form builds it (checked by web.jobs.kinds.build first)
JOBS = {
    "balance": {"armies": "France,Russia", "policy": "simple", "games_per_pairing": 10,
                "seed": 2, "precision": None, "block": 50},
    "whatif": {"armies": "France,Russia", "policy": "simple", "games_per_pairing": 10,
               "edits": ["France/Garde/strength=7", "Russia/Cossacks/strength=3"]},
    "fix": {"armies": "France,Russia,Austria", "editable": ["France", "Austria"],
            "targets": ["Russia"], "edits": {"strength": {"cost": 1, "range": 2}},
            "band": "0.45:0.55", "budget": 2, "games_per_look": 50, "seed": 3},
    "hex balance": {"policies": "capital,attrition", "borders": "basic,large_blue",
                    "step_losses": "both", "games_per_pairing": 10},
    "hex whatif": {"policies": "capital,attrition", "border": "basic", "step_losses": True,
                   "edits": ["blue/infantry/strength=5"], "games_per_pairing": 10},
    "hex fix": {"editable": ["blue"], "targets": ["red"], "edits": {"strength": {}},
                "budget": 1, "games_per_look": 50},
    "coin balance": {"armies": "heavy:70,fair", "policy": "lucky", "games_per_pairing": 10,
                     "options": {"flips": 7}},
    "coin whatif": {"sides": ["heavy:70", "fair"], "variant_sides": {"heavy": "heavy:60"},
                    "edits": ["heavy/heads=65"], "options": {"flips": 3},
                    "variant_options": {"flips": 5}, "games_per_pairing": 10},
}  # fmt: skip


def parsed(command: str) -> tuple[click.Command, dict]:
    """The command ``command`` names and its parameters as click parses them."""
    from manoeuvre_sim.cli.main import cli

    words = shlex.split(command)
    assert words[0] == "manoeuvre-sim"
    group, args, ctx = cli, words[1:], None
    while isinstance(group, click.Group):
        ctx = click.Context(group, parent=ctx, info_name=group.name)
        group = group.get_command(ctx, args[0])
        assert group is not None, f"{command}: no command {args[0]!r}"
        args = args[1:]
    return group, group.make_context(group.name, args, parent=ctx).params


@pytest.mark.parametrize("kind", sorted(JOBS))
def test_a_jobs_command_line_is_one_the_command_line_takes(kind, coin_registered, tmp_path):
    from manoeuvre_sim.web.jobs.kinds import command_line, job_kinds

    assert kind in job_kinds()
    opts = JOBS[kind]
    line = command_line(kind, opts, "studies/x")
    cmd, params = parsed(line)
    assert params["out"] == "studies/x", line
    for name, value in opts.items():
        if value is None or name.endswith("options") or name == "edits" and kind.endswith("fix"):
            continue
        got = params.get(name, params.get("variants"))
        if isinstance(value, dict):
            value = [f"{k}={v}" for k, v in value.items()]
        if isinstance(value, list) and not isinstance(got, tuple):
            value = ",".join(value)
        assert got == (tuple(value) if isinstance(value, list) else value), (name, line)
    for key in ("options", "variant_options"):
        for name, value in (opts.get(key) or {}).items():
            prefix = "variant_" if key == "variant_options" else ""
            assert params[prefix + name] == value, (name, line)
    if kind.endswith("fix"):
        assert "--edits studies/x/edits.toml" in line  # the costs the study writes


def test_a_kinds_declared_flag_is_what_the_line_says(coin_registered):
    """The words are the declared ones: the fixer's ``--edit`` and ``--army`` repeated,
    Maneuver's targets its own ``--side``, Manoeuvre's sides ``--armies``, the coin's (built
    from the balance study's declaration) ``--sides``."""
    from manoeuvre_sim.web.jobs.kinds import command_line

    fix = command_line("fix", JOBS["fix"], "o")
    assert "--edit France --edit Austria --army Russia --target 0.45:0.55" in fix
    assert "--side red" in command_line("hex fix", JOBS["hex fix"], "o")
    assert command_line("balance", JOBS["balance"], "o").startswith(
        "manoeuvre-sim balance --armies France,Russia --policy simple --games-per-pairing 10"
    )
    assert command_line("coin balance", JOBS["coin balance"], "o").startswith(
        "manoeuvre-sim coin balance --sides heavy:70,fair --policy lucky"
    )
    whatif = command_line("coin whatif", JOBS["coin whatif"], "o")
    assert "--variant heavy=heavy:60 --set heavy/heads=65" in whatif
    assert "--flips 3 --variant-flips 5" in whatif
