"""The hex commands as a user runs them: with their progress bars (the other tests pass
--quiet), each command ends with its output written and exit status 0."""

from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli


def test_hex_simulate_with_its_progress_bar(tmp_path):
    out = tmp_path / "games.csv"
    res = CliRunner().invoke(cli, ["hex", "simulate", "--games", "50", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert len(pd.read_csv(out)) == 50
