"""``manoeuvre-sim odds``: the JSON contract, readable tables, CSV, PDF, bad input -> exit 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from statsmodels.stats.proportion import proportion_confint

from manoeuvre_sim.manoeuvre.combat import BAND_NAMES
from tests.main_run import run


def test_assault_json_contract(capsys):
    code, out, err = run(["odds", "assault", "--strength", "8", "--dice", "2d8", "--defense", "12",
                          "--json"], capsys)  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert set(BAND_NAMES) <= set(d)
    assert d["attacker_hit"] == pytest.approx(3 / 64) and d["attacker_choice"] == pytest.approx(
        1 / 64
    )
    assert sum(d[b] for b in BAND_NAMES) == pytest.approx(1.0)
    assert d["attack_total_mean"] == 17.0 and d["defense_total"] == 12 and d["bands_exclusive"]
    # cumulative, by hand: 8 + 2d8 > 12 unless 2d8 <= 4 (6 of the 64 rolls: 2, 3, 4 made
    # 1, 2, 3 ways); >= 24 only on 16 (1 roll); 36 and 48 out of reach
    assert d["cumulative"] == {"A>D": 58 / 64, "A>=2D": 1 / 64, "A>=3D": 0.0, "A>=4D": 0.0}


def test_assault_json_cumulative_odds_by_hand(capsys):
    """2 + 2d6 against 3, every threshold reachable (counts of the 36 rolls of 2d6): A > 3
    always; A >= 6 unless 2d6 <= 3 (3 rolls): 33; A >= 9 when 2d6 >= 7: 21; A >= 12 when
    2d6 >= 10: 6. The cumulative odds are those sums of the exclusive bands."""
    code, out, err = run(["odds", "assault", "--strength", "2", "--dice", "2d6", "--defense", "3",
                          "--json"], capsys)  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    want = {"A>D": 36 / 36, "A>=2D": 33 / 36, "A>=3D": 21 / 36, "A>=4D": 6 / 36}
    assert d["cumulative"] == pytest.approx(want, abs=1e-12)
    assert d["eliminated"] == pytest.approx(6 / 36) and d["defender_choice"] == pytest.approx(
        3 / 36
    )


def test_assault_components_and_simulate(capsys):
    code, out, err = run(["odds", "assault", "--strength", "6", "--dice", "2d8", "--dice", "1d6",
                          "--support", "5:1d8", "--leader-command", "3", "--committed", "1",
                          "--defender-strength", "8", "--terrain", "woods", "--redoubt",
                          "--sappers", "--defense-card", "5", "--defender-leader-combat", "2",
                          "--simulate", "100000", "--seed", "3", "--json"], capsys)  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert d["attack_base"] == 11 and d["committed_attacks"] == 1
    assert d["defense_total"] == 8 + 2 + 5 + 2
    sim = d["simulation"]
    assert sim["n"] == 100000
    for b in BAND_NAMES:
        e = sim["estimates"][b]
        lo, hi = proportion_confint(round(e["p"] * sim["n"]), sim["n"], method="wilson")
        assert (e["lo"], e["hi"]) == pytest.approx((lo, hi), abs=1e-9), b
        assert abs(e["p"] - d[b]) < 0.01


def test_distant_lands_leaders_in_an_assault(capsys):
    """Distant Lands 9.1: a Japanese leader's 1d6 is an attack die like a unit card's (alone
    it may start the Assault), and a Maharaja's leader brings up to 3 supporting units
    (Command 4), exactly as a leader of Command 4 does."""

    def bands(*args):
        code, out, err = run(["odds", "assault", "--json", *args], capsys)
        assert code == 0, err
        d = json.loads(out)
        return [d[b] for b in BAND_NAMES], d

    alone, d = bands("--japanese-leader", "--strength", "5", "--defense", "8")
    assert alone == bands("--dice", "1d6", "--strength", "5", "--defense", "8")[0]
    assert d["attack_total_mean"] == 8.5
    joined, _ = bands("--dice", "2d8", "--japanese-leader", "--strength", "5", "--defense", "8")
    assert joined == bands("--dice", "2d8", "--dice", "1d6", "--strength", "5", "--defense", "8")[0]
    support = ["--support", "4", "--support", "4:1d6", "--support", "3"]
    maharaja, d = bands(
        "--dice", "2d8", "--strength", "5", "--maharaja", *support, "--defense", "12"
    )
    assert d["attack_total_mean"] == pytest.approx(16 + 9 + 3.5, abs=1e-9)  # a float sum
    assert (
        maharaja
        == bands(
            "--dice", "2d8", "--strength", "5", "--leader-command", "4", *support, "--defense", "12"
        )[0]
    )


def test_assault_readable_table(capsys):
    code, out, _ = run(["odds", "assault", "--strength", "8", "--dice", "2d8", "--defense", "12",
                        "--simulate", "20000"], capsys)  # fmt: skip
    assert code == 0
    assert "exclusive" in out and "attacker_hit" in out and "95% interval" in out
    assert "4.69%" in out


@pytest.mark.parametrize("cmd", ["bombard", "volley"])
def test_fire_json_contract(cmd, capsys):
    code, out, err = run(["odds", cmd, "--dice", "2d6", "--defense", "6", "--hill", "--json"],
                         capsys)  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert d["hit"] == pytest.approx(30 / 36) and d["no_effect"] == pytest.approx(6 / 36)


def test_grand_battery_and_pursuit_and_small_rolls(capsys):
    code, out, _ = run(["odds", "bombard", "--grand-battery", "--defense", "10", "--json"], capsys)
    assert code == 0 and json.loads(out)["hit"] == pytest.approx(0.55)
    code, out, _ = run(["odds", "pursuit", "--card", "4", "--card", "3", "--leader-mod", "-1",
                        "--simulate", "50000", "--json"], capsys)  # fmt: skip
    d = json.loads(out)
    assert code == 0 and d["2_hits"] == pytest.approx(5 / 6 * 4 / 6)
    for args, key, p in [(["rally", "3"], "success", 0.5), (["rally", "auto"], "success", 1.0),
                         (["withdraw", "2"], "success", 1 / 3),
                         (["rockets"], "retreat_and_hit", 0.2)]:  # fmt: skip
        code, out, _ = run(["odds", *args, "--json"], capsys)
        assert code == 0 and json.loads(out)[key] == pytest.approx(p)


def test_matchup_table_and_json(capsys):
    args = [
        "odds",
        "matchup",
        "--attacker-army",
        "France",
        "--attacker",
        "Garde Imperial",
        "--defender-army",
        "Russia",
        "--defender",
        "Russian Guard",
        "--defender-terrain",
        "hill",
    ]
    code, out, err = run(args, capsys)
    assert code == 0, err
    assert "Garde Imperial" in out and "random held" in out and "+7 (1x)" in out
    code, out, _ = run([*args, "--json"], capsys)
    d = json.loads(out)
    assert d["defense_base"] == 10 and len(d["rows"]) == 3


def test_table_csv(tmp_path, capsys):
    code, out, _ = run(["odds", "table", "--mix", "2d8", "--mix", "1d10+1d6", "--strengths",
                        "0..4", "--defenses", "3,6"], capsys)  # fmt: skip
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 2 * 5 * 2 and rows[0]["dice"] == "2d8"
    assert sum(float(rows[0][b]) for b in BAND_NAMES) == pytest.approx(1.0, abs=1e-5)
    f = tmp_path / "grid.csv"
    code, _, err = run(["odds", "table", "--out", str(f)], capsys)
    assert code == 0 and f.read_text().startswith("dice,strength,defense,attacker_hit")
    assert "wrote" in err


def test_chart_pdf(tmp_path, capsys):
    f = tmp_path / "odds.pdf"
    code, _, err = run(["odds", "chart", "--out", str(f), "--paper", "letter", "--mix", "2d8",
                        "--strengths", "0..5", "--defenses", "3..6"], capsys)  # fmt: skip
    assert code == 0, err
    data = f.read_bytes()
    # the 2d8 assault page, then bombardment / volley / rockets
    assert data.startswith(b"%PDF") and b"/Count 2" in data
    assert not list(tmp_path.glob(".*part"))
    code, _, err = run(["odds", "chart", "--out", str(f), "--mix", "2d8", "--no-fire"], capsys)
    assert code == 0 and b"/Count 1" in f.read_bytes(), err


BAD = [
    (["odds", "assault", "--strength", "8", "--dice", "3x7", "--defense", "12"], ["3x7", "NdS"]),
    (["odds", "assault", "--strength", "8", "--dice", "2d8", "--defense", "-3"], ["--defense", ">= 0"]),
    (["odds", "assault", "--strength", "8", "--defense", "12"], ["rule 6.1 step 1"]),
    (["odds", "assault", "--strength", "8", "--dice", "2d8"], ["--defense"]),
    (["odds", "assault", "--strength", "8", "--dice", "2d8", "--defense", "5",
      "--defender-strength", "5"], ["not both"]),
    (["odds", "assault", "--dice", "2d8", "--defender-strength", "5", "--terrain", "sea"],
     ["unknown terrain 'sea'"]),
    (["odds", "assault", "--dice", "2d8", "--defense", "5", "--simulate", "-4"],
     ["number of simulations"]),
    (["odds", "assault", "--dice", "2d8", "--defense", "5", "--support", "x:2d6"], ["STRENGTH"]),
    (["odds", "bombard", "--dice", "2d40", "--defense", "5"], ["S in 4..20", "2d40"]),
    (["odds", "volley", "--defense", "5"], ["--dice"]),
    (["odds", "pursuit", "--card", "9"], ["pursuit value", "<= 6"]),
    (["odds", "rally", "often"], ["'auto'"]),
    (["odds", "rally", "0"], ["rally: expected 1..6 or 'auto', got 0"]),
    (["odds", "withdraw", "7"], ["withdraw: expected 1..6, got 7"]),
    (["odds", "matchup", "--attacker-army", "France", "--attacker", "Old Guard",
      "--defender-army", "Russia", "--defender", "Russian Guard"], ["unknown unit 'Old Guard'",
                                                                    "Garde Imperial"]),
    (["odds", "matchup", "--attacker-army", "Narnia", "--attacker", "x",
      "--defender-army", "Russia", "--defender", "Russian Guard"], ["unknown army"]),
    (["odds", "table", "--strengths", "5..2"], ["--strengths"]),
    (["odds", "assault", "--ambush", "--japanese-leader", "--defense", "5"],
     ["Japanese leader", "Ambush has no attacking unit"]),
    (["odds", "assault", "--japanese-leader", "--strength", "5", "--support", "4",
      "--defense", "8"], ["cannot combine units", "Distant Lands 9.1"]),
    (["odds", "assault", "--dice", "2d8", "--maharaja", "--leader-command", "3",
      "--defense", "8"], ["Command 4", "not both"]),
    (["odds", "assault", "--dice", "2d8", "--maharaja", "--support", "4", "--support", "4",
      "--support", "3", "--support", "2", "--defense", "8"], ["Command allows 3"]),
    (["odds", "chart", "--out", "x.png"], [".pdf"]),
]  # fmt: skip


@pytest.mark.parametrize(("args", "needles"), BAD, ids=[" ".join(a[1:3]) for a, _ in BAD])
def test_bad_input_exit_2_no_traceback(args, needles, capsys):
    code, out, err = run(args, capsys)
    assert code == 2, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    for n in needles:
        assert n in err, err


def test_odds_help_is_lazy():
    code = (
        "import sys; from manoeuvre_sim.cli.main import main\n"
        "for a in (['--help'], ['odds', '--help'], ['odds', 'assault', '--help']):\n"
        "    try:\n        main(a)\n    except SystemExit:\n        pass\n"
        "assert 'numba' not in sys.modules, 'numba imported by --help'\n"
        "assert 'numpy' not in sys.modules, 'numpy imported by --help'\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported by --help'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "odds" in proc.stdout and "--committed" in proc.stdout


def test_library_never_imports_matplotlib():
    code = (
        "import sys, manoeuvre_sim.manoeuvre.odds, manoeuvre_sim.manoeuvre.combat, manoeuvre_sim.core.stats\n"
        "assert 'matplotlib' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
