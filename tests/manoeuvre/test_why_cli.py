"""``manoeuvre-sim why`` on the command line: the files it writes (the waterfall page among
them), a resumed run that plays nothing, and bad options refused with one line before a
game is played."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from manoeuvre_sim.cli.main import main

TINY = ["--samples", "2", "--block", "1", "--quiet"]


def _run(args, capsys):
    try:
        main(args)
        code = 0
    except SystemExit as ex:
        code = ex.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_why_writes_the_tables_the_waterfall_and_the_manifest(tmp_path, capsys):
    out = tmp_path / "why"
    code, text, err = _run(["why", "--armies", "France,United States", *TINY, "--out",
                            str(out)], capsys)  # fmt: skip
    assert code == 0, err
    for name in ("contributions.csv", "totals.csv", "samples.csv", "summary.txt",
                 "manifest.json", "waterfall.png", "why.pdf"):  # fmt: skip
        assert (out / name).is_file(), name
    c = pd.read_csv(out / "contributions.csv")
    assert list(c.columns) == ["part", "side", "kind", "contribution", "se", "lo", "hi"]
    assert len(c) == 42 and set(c["side"]) == {"France", "United States"}
    m = json.loads((out / "manifest.json").read_text())
    assert m["study"] == "why" and m["games"] == 2 * 84 * 2 and m["seed"] == 1
    assert m["rules_version"] and m["data_hash"] and m["reference_hash"]
    assert abs(c["contribution"].sum() - m["gap"]) < 1e-12
    assert "gap shared out" in text
    from pypdf import PdfReader

    assert len(PdfReader(out / "why.pdf").pages) >= 2
    # resumed: every block read back, the same contributions
    code, _, err = _run(["why", "--armies", "France,United States", *TINY, "--out", str(out),
                         "--resume"], capsys)  # fmt: skip
    assert code == 0 and "resumed: 336 blocks read back" in err
    assert pd.read_csv(out / "contributions.csv").equals(c)


@pytest.mark.parametrize("args, expected", [
    (["--armies", "France"], "--armies: expected the two sides of the pairing to explain"),
    (["--armies", "France,Frnace"], "--armies 'Frnace': unknown army; did you mean 'France'?"),
    (["--armies", "France,Spain", "--samples", "1"], "--samples: expected at least 2"),
    (["--armies", "France,Spain", "--method", "exact"], "--method exact: 40 parts would play 2**40"),
    (["--armies", "France,tests/fixtures/distant_lands/india.toml"], "follows the Distant Lands"),
    ([], "--armies: expected X,Y, the two armies of the pairing (or --army X --field"),
    (["--army", "France"], "--army: only with --field"),
    (["--field"], "--field: expected --army X"),
    (["--army", "France", "--field", "--armies", "France,Spain"], "--armies: not with --field"),
    (["--army", "Frnace", "--field"], "--army 'Frnace': unknown army; did you mean 'France'?"),
])  # fmt: skip
def test_bad_options_are_one_line_before_any_game(args, expected, tmp_path, capsys):
    code, _, err = _run(["why", *args, "--out", str(tmp_path / "x")], capsys)
    assert code == 2 and expected in err, err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_one_army_against_the_field(tmp_path, capsys):
    """``--army X --field``: X against the seven other base armies, pooled; X's parts and
    one part per opponent army."""
    out = tmp_path / "field"
    code, text, err = _run(["why", "--army", "Spain", "--field", *TINY, "--out", str(out)],
                           capsys)  # fmt: skip
    assert code == 0, err
    c = pd.read_csv(out / "contributions.csv")
    armies = c[c["kind"] == "army"]
    assert len(armies) == 7 and "Spain" not in set(armies["side"])
    assert list(armies["part"]) == [f"army {s}" for s in armies["side"]]
    m = json.loads((out / "manifest.json").read_text())
    n = len(c)
    assert m["games"] == 2 * 7 * 2 * (2 * n) and len(m["why"]["field"]) == 7
    assert abs(c["contribution"].sum() - m["gap"]) < 1e-5  # the CSV's digits
    assert "why Spain scores what it does against the field (7 armies:" in text
    assert (out / "waterfall.png").is_file() and (out / "why.pdf").is_file()
