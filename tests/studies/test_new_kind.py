"""A new study kind is one module (issue 39): the toy kind of ``toy_kind.py``, living in
tests/, registered by a test alone (``studies.SHARED_KINDS``, or the coin game's
``OWN_STUDIES``), is a command of the command line for every game it is a kind of (the
coin game's ``coin seats``, Manoeuvre's top-level ``seats``, ``hex seats``), built from its
``COMMAND``, listed by ``--help`` without importing it; it runs; and the workbench offers
it as a job kind, which runs too. No file outside tests/ is edited for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from manoeuvre_sim import studies
from manoeuvre_sim.cli.main import cli
from manoeuvre_sim.core import games as G
from tests.main_run import run
from tests.studies import coin_game, toy_kind

ROOT = Path(__file__).parents[2]
TOY = toy_kind.__name__


@pytest.fixture
def shared(monkeypatch, coin):
    """The toy kind as a shared kind: every game has it."""
    monkeypatch.setitem(studies.SHARED_KINDS, "seats", TOY)


def listed(args) -> dict[str, str]:
    """The commands a group's ``--help`` lists, name -> its help line's first words."""
    res = CliRunner().invoke(cli, [*args, "--help"])
    assert res.exit_code == 0, res.output
    rows = res.output.split("Commands:\n", 1)[1].splitlines()
    return {r.split()[0]: " ".join(r.split()[1:]) for r in rows if r.startswith("  ") and
            not r.startswith("   ")}  # fmt: skip


def test_a_shared_kind_is_a_command_of_every_games_group(shared):
    line = toy_kind.COMMAND.help.split()[0]
    for group in ([], ["hex"], ["coin"]):
        assert listed(group)["seats"].startswith(line), group
    # Manoeuvre's: its options, its game's Options fields, no coin-only option
    top = CliRunner().invoke(cli, ["seats", "--help"]).output
    assert top.startswith("Usage: cli seats [OPTIONS]") or "seats [OPTIONS]" in top
    assert "Manoeuvre (GMT Games). Seat a's score" in " ".join(top.split())
    assert "--games-per-pairing" in top and "--note" not in top and "--block" in top
    coin_help = CliRunner().invoke(cli, ["coin", "seats", "--help"]).output
    assert "--note" in coin_help and "--flips" in coin_help and "fair | lucky" in coin_help


def test_the_coin_games_command_runs_it(shared, tmp_path, capsys):
    out = tmp_path / "seats"
    code, stdout, err = run(["coin", "seats", "--sides", "heavy:70,fair", "--games-per-pairing",
                             "30", "--flips", "3", "--block", "7", "--threads", "1", "--quiet",
                             "--note", "hi", "--out", out], capsys)  # fmt: skip
    assert code == 0, err
    m = json.loads((out / "manifest.json").read_text())
    assert (m["study"], m["game"], m["games"], m["note"], m["seed"]) == ("seats", "coin", 60,
                                                                          "hi", 1)  # fmt: skip
    assert m["rules_version"] == coin_game.RULES_VERSION and m["data_hash"]
    assert (out / "seats.csv").read_text().startswith("a,b,games,a_score\nheavy,fair,30,")
    assert "heavy (a) vs fair (b): a scored" in stdout
    assert (out / "games.parquet").is_dir()
    # the study directory's options come from the face: --resume goes on, --force replaces
    code, _, err = run(["coin", "seats", "--sides", "heavy:70,fair", "--out", out, "--quiet"],
                       capsys)  # fmt: skip
    assert code == 2 and "--force" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sides", "fair"], "error: --sides: expected at least two sides"),
        (["--sides", "fair,light:30", "--policy", "cheat"],
         "error: --policy 'cheat': not a player of coin (fair, lucky)"),
        (["--sides", "fair,light:30", "--flips", "0"],
         "error: --flips: expected a positive number, got 0"),
    ],
)  # fmt: skip
def test_its_bad_options_are_one_line(shared, tmp_path, capsys, args, message):
    code, _, err = run(["coin", "seats", *args, "--out", tmp_path / "x"], capsys)
    assert code == 2 and err == message + "\n"


def test_it_is_a_job_kind_of_every_game_and_a_job_runs(shared, tmp_path):
    from manoeuvre_sim.web.jobs import kinds as K
    from manoeuvre_sim.web.jobs.manager import JobManager

    offered = K.job_kinds()
    assert {"seats", "hex seats", "coin seats"} <= set(offered)
    assert offered["coin seats"].done_key == "games" and not offered["coin seats"].edits
    jm = JobManager(tmp_path)
    job = jm.submit("coin seats", {"sides": "heavy:70,fair,light:30", "games_per_pairing": 20,
                                   "seed": 3})  # fmt: skip
    assert job.total == 6 * 20
    jm.start()
    try:
        deadline = time.monotonic() + 120
        while job.state in ("queued", "running"):
            assert time.monotonic() < deadline, job
            time.sleep(0.1)
    finally:
        jm.stop()
    assert job.state == "done", job.message
    m = json.loads((tmp_path / job.dir / "manifest.json").read_text())
    assert (m["study"], m["games"], m["seed"]) == ("seats", 120, 3)
    assert job.command.startswith("manoeuvre-sim coin seats ")


def test_an_own_kind_of_the_coin_game_is_its_command_alone(monkeypatch, coin, tmp_path, capsys):
    monkeypatch.setattr(coin_game, "OWN_STUDIES", {"seats": TOY}, raising=False)
    assert "seats" in listed(["coin"])
    assert "seats" not in listed([]) and "seats" not in listed(["hex"])
    code, _, err = run(["coin", "seats", "--sides", "fair,lucky", "--games-per-pairing", "5",
                        "--threads", "1", "--quiet", "--out", tmp_path / "s"], capsys)  # fmt: skip
    assert code == 0, err
    from manoeuvre_sim.web.jobs import kinds as K

    assert "coin seats" in K.job_kinds() and "seats" not in K.job_kinds()


def test_help_lists_it_without_importing_it_or_numba():
    code = (
        "import sys\n"
        "from manoeuvre_sim import studies\n"
        f"studies.SHARED_KINDS['seats'] = {TOY!r}\n"
        "from manoeuvre_sim.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "assert 'numba' not in sys.modules, 'numba imported by --help'\n"
        "assert 'pandas' not in sys.modules, 'pandas imported by --help'\n"
        f"assert {TOY!r} not in sys.modules, 'the study module imported by --help'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert any(ln.split()[:1] == ["seats"] for ln in proc.stdout.splitlines())


def test_a_kind_whose_hooks_a_game_lacks_is_refused_in_one_line(monkeypatch, coin, capsys):
    """``fix`` requires the fixer's hooks: the coin game without them has no ``fix`` (not
    listed; asked for, one line naming the game); with them it still has none, as ``fix``'s
    command is each game's own (``face="own"``)."""
    assert "fix" not in listed(["coin"])
    code, _, err = run(["coin", "fix"], capsys)
    assert code == 2 and err.startswith("error: fix: the game 'coin'") and err.count("\n") == 1
    for name in ("FIX_EDIT_KINDS", "fix_edits", "apply_side_edits"):
        monkeypatch.delattr(coin_game, name)
    code, _, err = run(["coin", "fix"], capsys)
    assert code == 2
    assert err.startswith("error: fix: the game 'coin' (Coin flips (a test game)) has no "
                          "FIX_EDIT_KINDS") and err.count("\n") == 1  # fmt: skip
    # Maneuver lists fix only with the fixer's hooks and a fix command of its own
    from manoeuvre_sim.cli.game_commands import own_command
    from manoeuvre_sim.core.study_command import defines

    hex_fix = defines(G.GAMES["hex"][0], "FIX_EDIT_KINDS") and own_command(
        "manoeuvre_sim.cli.hexgame", "fix") is not None  # fmt: skip
    assert ("fix" in listed(["hex"])) == hex_fix
