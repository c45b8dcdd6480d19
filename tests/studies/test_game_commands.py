"""A registered game without commands of its own gets the shared studies as commands
(``cli/game_commands.py``): ``manoeuvre-sim coin balance|whatif|tournament|simulate`` for
the toy game of ``coin_game.py``, registered by ``MANOEUVRE_SIM_GAMES`` in a subprocess (as a
user registers one) and in the registry from the test for click's runner. Its options come
from the study modules and the game's ``Options`` fields (``--flips``), each bad value one
line naming the option; the top-level ``--help`` lists it by its title, without numba."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli
from tests.main_run import run
from tests.studies import coin_game

ROOT = Path(__file__).parents[2]
SIDES = "heavy:70,fair,light:30"


def test_help_lists_a_registered_game_by_its_title_without_numba():
    code = (
        "import sys; from manoeuvre_sim.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "assert 'numba' not in sys.modules, 'numba imported by --help'\n"
        "assert 'pandas' not in sys.modules, 'pandas imported by --help'\n"
        "assert 'manoeuvre_sim.studies.balance' not in sys.modules\n"
    )
    env = {**os.environ, "MANOEUVRE_SIM_GAMES": "coin=tests.studies.coin_game",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.strip().startswith("coin"))
    assert coin_game.TITLE in line
    # the hand-written games keep their commands: no generic group for either
    names = [ln.split()[0] for ln in proc.stdout.splitlines() if ln.startswith("  ")]
    assert "manoeuvre" not in names and names.count("hex") == 1


def test_a_balance_study_of_three_coins_in_a_subprocess(tmp_path):
    env = {**os.environ, "MANOEUVRE_SIM_GAMES": "coin=tests.studies.coin_game",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    out = tmp_path / "balance"
    proc = subprocess.run(
        [sys.executable, "-m", "manoeuvre_sim.cli", "coin", "balance", "--sides", SIDES,
         "--games-per-pairing", "60", "--block", "25", "--threads", "1", "--flips", "7",
         "--quiet", "--out", str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "coin" and manifest["options"] == {"flips": 7}
    assert [s["name"] for s in manifest["sides"]] == ["heavy", "fair", "light"]
    assert (out / "games.parquet").is_dir() and (out / "summary.txt").exists()
    # the strongest coin ranks first
    assert proc.stdout.index("heavy") < proc.stdout.index("light")


def test_a_balance_study_then_its_what_if(coin, tmp_path, capsys):
    code, out, err = run(["coin", "balance", "--sides", SIDES, "--games-per-pairing", "40",
                          "--threads", "1", "--quiet", "--out", tmp_path / "b"], capsys)  # fmt: skip
    assert code == 0, err
    assert "balance study of 3 sides" in out
    code, out, err = run(["coin", "whatif", "--sides", SIDES, "--variant", "light=light:60",
                          "--games-per-pairing", "40", "--threads", "1", "--quiet",
                          "--out", tmp_path / "w"], capsys)  # fmt: skip
    assert code == 0, err
    manifest = json.loads((tmp_path / "w" / "manifest.json").read_text())
    assert manifest["study"] == "whatif" and manifest["changes"][0].startswith("light: ")
    assert (tmp_path / "w" / "whatif.csv").exists()
    # a rule option's what-if: the same sides, more flips in the variant
    code, out, err = run(["coin", "whatif", "--sides", SIDES, "--variant-flips", "9",
                          "--games-per-pairing", "20", "--threads", "1", "--quiet",
                          "--out", tmp_path / "w9"], capsys)  # fmt: skip
    assert code == 0, err
    assert "9 flips" in json.loads((tmp_path / "w9" / "manifest.json").read_text())["changes"][0]


def test_tournament_and_simulate(coin, tmp_path, capsys):
    code, out, err = run(["coin", "tournament", "--sides", "fair", "--games", "20",
                          "--threads", "1", "--quiet", "--json"], capsys)  # fmt: skip
    assert code == 0, err
    pairs = json.loads(out)["pairs"]
    assert [(p["a"], p["b"], p["games"]) for p in pairs] == [("fair", "lucky", 20)]
    target = tmp_path / "coins.parquet"
    code, out, err = run(["coin", "simulate", "--side-a", "heavy:70", "--side-b", "fair",
                          "--games", "30", "--flips", "3", "--threads", "1", "--quiet",
                          "--out", target], capsys)  # fmt: skip
    assert code == 0, err
    assert target.exists() and "30 games heavy:70 (a) vs fair (b)" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["balance", "--sides", SIDES, "--flips", "0"],
         "error: --flips: expected a positive number, got 0"),
        (["balance", "--sides", SIDES, "--policy", "cheat"],
         "error: --policy 'cheat': not a player of coin (fair, lucky)"),
        (["balance", "--sides", "fair,odd:300"], "error: coin odd:300: heads are 0..100 percent"),
        (["whatif", "--sides", SIDES], "error: --variant: expected a side's variant, a --set "
         "edit or a --variant-OPTION"),
        (["whatif", "--sides", SIDES, "--set", "heavy/tails=3"],
         'error: --set "heavy/tails=3": expected heavy/heads=PERCENT'),
        (["whatif", "--sides", SIDES, "--set", "nobody/heads=3"],
         'error: --set "nobody/heads=3": expected heavy/heads=PERCENT'),
        (["whatif", "--sides", SIDES, "--variant", "light"],
         "error: --variant 'light': expected NAME=SIDE"),
        (["whatif", "--sides", SIDES, "--variant-flips", "0"],
         "error: --variant-flips: expected a positive number, got 0"),
        (["balance", "--sides", SIDES, "--workers", "2"],
         "error: --workers: only with --backend dask (the local backend uses --threads)"),
    ],
)  # fmt: skip
def test_a_bad_option_is_one_line(coin, tmp_path, capsys, args, message):
    code, out, err = run(["coin", *args, "--out", tmp_path / "x"], capsys)
    assert code == 2 and err == message + "\n"
    assert not (tmp_path / "x" / "games.parquet").exists()


def test_click_runner_and_a_bad_type(coin):
    res = CliRunner().invoke(cli, ["coin", "balance", "--sides", SIDES, "--flips", "many"])
    assert res.exit_code == 2 and "Invalid value for '--flips'" in res.output
    res = CliRunner().invoke(cli, ["coin", "--help"])
    assert res.exit_code == 0
    for kind in ("balance", "whatif", "tournament", "simulate"):
        assert kind in res.output
    res = CliRunner().invoke(cli, ["coin", "balance", "--help"])
    assert "--flips INTEGER" in res.output and "--sides A,B,..." in res.output
