"""``manoeuvre-sim hex odds``: Maneuver's combat odds as text and JSON, the simulated check,
one-line errors, and the one-page results-table chart (PDF)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
from manoeuvre_sim.hexgame.crt import RESULT_NAMES
from tests.main_run import run


def invoke(*args):
    r = CliRunner().invoke(cli, ["hex", "odds", *args])
    assert r.exit_code == 0, (r.output, r.exception)
    return r.output


def test_json_contract():
    d = json.loads(invoke("combat", "--attack", "4,3", "--defend", "4", "--json"))
    assert d["game"] == "hex" and d["title"] == GAME_TITLE
    assert d["rules_version"] == RULES_VERSION and RULES_VERSION.startswith("hex-")
    assert [d[n] for n in RESULT_NAMES] == pytest.approx([0, 3 / 36, 7 / 36, 11 / 36, 15 / 36])
    assert d["exact"] == {"AE": "0", "AR": "1/12", "NE": "7/36", "DR": "11/36", "DE": "5/12"}
    assert d["rolls_of_36"] == {"AE": 0, "AR": 3, "NE": 7, "DR": 11, "DE": 15}
    assert d["cumulative"][">=DR"] == pytest.approx(26 / 36)
    assert (d["attack_strength"], d["defence_strength"], d["difference"]) == (7, 4, 3)
    assert d["effects"]["AR"] == {"attackers": ["retreats"] * 2, "defenders": ["unaffected"]}
    assert [u["unit"] for u in d["attackers"]] == ["4", "3"]
    assert d["defenders"][0]["fates"]["eliminated"] == pytest.approx(15 / 36)
    assert "simulation" not in d


def test_json_capital_step_losses_and_simulation():
    d = json.loads(invoke("combat", "--attack", "3h,2c,4", "--defend", "5,1c,2r", "--step-losses",
                          "--simulate", "100000", "--seed", "5", "--json"))  # fmt: skip
    assert d["capital_attacking"] and d["capital_defending"] and d["step_losses"]
    assert d["effects"]["AE"]["attackers"] == ["unaffected", "unaffected", "reduced"]
    assert d["effects"]["DE"]["defenders"] == ["eliminated", "captured", "eliminated"]
    assert d["effects"]["DR"]["defenders"] == ["unaffected"] * 3
    sim = d["simulation"]
    assert sim["n"] == 100_000 and sim["seed"] == 5 and sim["interval"] == "wilson"
    for n in RESULT_NAMES:
        e = sim["estimates"][n]
        assert e["lo"] <= d[n] <= e["hi"] or abs(e["p"] - d[n]) < 0.005


def test_text_table_names_the_game_and_the_fates():
    out = invoke("combat", "--attack", "6", "--defend", "2c", "--simulate", "20000")
    assert out.startswith(GAME_TITLE)
    assert "difference +4" in out and "the Capital's hex defends [11]" in out
    de_row = next(line for line in out.splitlines() if line.startswith("DE "))
    assert "21/36" in de_row and "58.33%" in de_row and "captured" in de_row
    dr_row = next(line for line in out.splitlines() if line.startswith("DR "))
    assert dr_row.rstrip().endswith("unaffected")  # rule [11]: DR is no effect for the Capital
    assert "simulated: 20,000 combats, seed 1" in out and "95% interval" in out
    assert f"rules {RULES_VERSION};" in out  # Maneuver's rules version, not Manoeuvre's


def test_help_gives_the_full_title():
    for args in (["--help"], ["combat", "--help"], ["chart", "--help"]):
        r = CliRunner().invoke(cli, ["hex", "odds", *args])
        assert r.exit_code == 0
        text = " ".join(r.output.split())
        assert GAME_TITLE in text, args
    assert GAME_TITLE in " ".join(CliRunner().invoke(cli, ["hex", "--help"]).output.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--attack", "4,x", "--defend", "4"], "--attack: expected units"),
        (["--attack", "4", "--defend", "4h"], "--defend: 'h' marks an attacker"),
        (["--attack", "2uc", "--defend", "4"], "--attack: a unit in its Capital's hex"),
        (["--attack", "4", "--defend", "4", "--simulate", "-1"], "--simulate"),
        (["--attack", "4", "--defend", "4", "--simulate", "5", "--seed", "-2"], "--seed"),
    ],
)
def test_bad_input_one_line_error(args, message, capsys):
    code, out, err = run(["hex", "odds", "combat", *args], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_chart_writes_one_page_pdf(tmp_path, capsys):
    pypdf = pytest.importorskip("pypdf")
    out = tmp_path / "hex.pdf"
    code, _, err = run(["hex", "odds", "chart", "--out", str(out), "--paper", "letter"], capsys)
    assert code == 0, err
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # US Letter
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Maneuver (the introductory hex wargame, rules 001)" in text
    assert "97.2" in text and "58.3" in text  # DE at +8, AE at -3
    assert "exact odds (no simulation, no seed)" in text
    assert f"rules {RULES_VERSION} (Maneuver" in text  # Maneuver's rules version (issue 30)
    assert reader.metadata.title.startswith("Maneuver")
    assert [p.name for p in tmp_path.iterdir()] == ["hex.pdf"]  # no temporary file left


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "x.png"], "--out: expected a .pdf"),
        (["--out", "x.pdf", "--differences", "8..-8"], "--differences"),
        (["--out", "x.pdf", "--differences", "-20..20"], "at most 21 columns"),
        (["--out", "x.pdf", "--differences", "a"], "--differences: expected a range"),
    ],
)
def test_chart_bad_input(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["hex", "odds", "chart", *args], capsys)
    assert code == 2 and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_help_is_lazy():
    """``--help`` of the hex odds commands imports neither numba nor numpy nor matplotlib."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom manoeuvre_sim.cli.main import main\n"
        "for args in (['hex', 'odds', '--help'], ['hex', 'odds', 'combat', '--help'],"
        " ['hex', 'odds', 'chart', '--help']):\n"
        "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
        "heavy = [m for m in ('numba', 'numpy', 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
