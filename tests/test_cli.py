"""The command line: instant help, readable output, exit codes."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli


def test_help_is_lazy_and_never_imports_numba():
    code = (
        "import sys; from manoeuvre_sim.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "assert 'numba' not in sys.modules, 'numba imported by --help'\n"
        "assert 'pandas' not in sys.modules, 'pandas imported by --help'\n"
        "assert 'manoeuvre_sim.cli.armies' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "armies" in proc.stdout and "maps" in proc.stdout


def test_version():
    res = CliRunner().invoke(cli, ["--version"])
    assert res.exit_code == 0
    assert res.output.startswith("manoeuvre-sim 0.1.0 (rules ")


def test_armies_list_table():
    res = CliRunner().invoke(cli, ["armies", "list"])
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert lines[0].split()[:3] == ["army", "units", "cavalry"]
    france = next(ln for ln in lines if ln.startswith("France"))
    # 2 cavalry, 6.625 / 3.750 average strengths (DATA_NOTES: player-reported averages), 6 leaders
    assert france.split()[1:7] == ["8", "2", "6.625", "3.750", "6", "60"]


def test_armies_show_whole_deck():
    res = CliRunner().invoke(cli, ["armies", "show", "great_britain"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Great Britain" in out and "1st Foot Guards" in out
    assert "Lord Wellington" in out and "Royal Engineers" in out
    # every unit card is listed: 40 card lines mention a unit name
    unit_names = ["1st Foot Guards", "4th Regiment of Foot", "32nd Regiment of Foot"]
    assert sum(out.count(n) for n in unit_names) >= 15


def test_palafox_and_napoleon_shown():
    spain = CliRunner().invoke(cli, ["armies", "show", "Spain"]).output
    assert "1/5" in spain and "auto" in spain
    france = CliRunner().invoke(cli, ["armies", "show", "France"]).output
    assert "Grand Battery 2d10" in france and "Imperial Guard" in france


def test_maps_show_rotation():
    res = CliRunner().invoke(cli, ["maps", "show", "20", "--rotate", "1"])
    assert res.exit_code == 0
    # section 20 is HHTC / CCCC / CCCC / CCCC; a quarter turn clockwise puts the top row on
    # the right-hand column.
    grid = [ln.replace(" ", "") for ln in res.output.splitlines()[1:5]]
    assert grid == ["CCCH", "CCCH", "CCCT", "CCCC"]


def test_maps_list_marks_unverified():
    res = CliRunner().invoke(cli, ["maps", "list"])
    assert res.exit_code == 0
    rows = {ln.split()[0]: ln.split()[1] for ln in res.output.splitlines()[2:]}
    assert rows["2"] == rows["3"] == rows["4"] == "NO"
    assert rows["1"] == "yes" and len(rows) == 24


def test_export_to_file_is_atomic(tmp_path):
    out = tmp_path / "sub" / "cards.csv"
    res = CliRunner().invoke(cli, ["armies", "export", "France", "--out", str(out)])
    assert res.exit_code == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 61
    assert not list(out.parent.glob("*.part"))


def test_output_files_have_normal_permissions(tmp_path):
    """Atomic writes go through a temporary file; the result must not stay owner-only."""
    import os

    import pandas as pd

    from manoeuvre_sim.core.fileio import _umask, atomic_write
    from manoeuvre_sim.core.results import write

    want = 0o666 & ~_umask()
    write(pd.DataFrame({"x": [1]}), tmp_path / "r.csv", {"seed": 1})
    with atomic_write(tmp_path / "t.txt") as f:
        f.write("x\n")
    for name in ("r.csv", "t.txt"):
        assert os.stat(tmp_path / name).st_mode & 0o777 == want, name
    assert not list(tmp_path.glob(".*.part"))
