"""The odds pages over Starlette's TestClient (issue 32): every kind answers, the JSON is the
CLI's ``--json`` for the same options, CSV parses, the charts are PDFs, bad input is a 400
in the CLI's words, the caps hold, and a hostile name is shown as text."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import urlencode

import pytest

from manoeuvre_sim.cli.main import main

HX = {"HX-Request": "true", "HX-Target": "odds-result"}


def cli(capsys, argv: list[str]) -> tuple[int, str, str]:
    """Run ``manoeuvre-sim ARGV``: (exit status, stdout, stderr)."""
    capsys.readouterr()
    try:
        main(argv)
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def error_line(html: str) -> str:
    m = re.search(r'id="error-message">([^<]*)<', html)
    assert m, html[:500]
    import html as h

    return h.unescape(m.group(1)).strip()


KINDS = ["assault", "bombard", "volley", "pursuit", "rally", "withdraw", "rockets", "matchup",
         "table", "chart"]  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_answers(client, kind):
    r = client.get(f"/odds/manoeuvre/{kind}")  # redirects to its example
    assert r.status_code == 200, r.text[:400]
    assert "?" in str(r.url)
    assert 'class="current"' in r.text and 'id="odds-form"' in r.text
    assert 'id="odds-table"' in r.text or 'id="dl-pdf"' in r.text
    assert "Traceback" not in r.text


# (CLI arguments after 'odds', the page's query)
JSON_CASES = [
    (["assault", "--strength", "4", "--dice", "2d8", "--defense", "6"],
     {"strength": 4, "dice": "2d8", "defense": 6}),
    (["assault", "--dice", "2d8", "--support", "5:1d6", "--leader-command", "3",
      "--committed", "1", "--hill", "--defender-strength", "6", "--terrain", "woods",
      "--defense-card", "2", "--defender-leader-combat", "1", "--simulate", "3000",
      "--seed", "7"],
     [("dice", "2d8"), ("support", "5:1d6"), ("leader_command", 3), ("committed", 1),
      ("hill", "on"), ("defender_strength", 6), ("terrain", "woods"), ("defense_card", 2),
      ("defender_leader_combat", 1), ("simulate", 3000), ("seed", 7)]),
    (["assault", "--ambush", "--defense", "4"], {"ambush": "on", "defense": 4}),
    (["assault", "--strength", "3", "--dice", "1d8", "--japanese-leader", "--maharaja",
      "--support", "4", "--defense", "5"],
     [("strength", 3), ("dice", "1d8"), ("japanese_leader", "on"), ("maharaja", "on"),
      ("support", "4"), ("defense", 5)]),
    (["bombard", "--grand-battery", "--defense", "7", "--hill"],
     {"grand_battery": "on", "defense": 7, "hill": "on"}),
    (["volley", "--dice", "2d8", "--defender-strength", "5", "--redoubt", "--simulate", "2000"],
     {"dice": "2d8", "defender_strength": 5, "redoubt": "on", "simulate": 2000}),
    (["pursuit", "--card", "4", "--card", "3", "--leader-mod", "-1"],
     [("card", 4), ("card", 3), ("leader_mod", -1)]),
    (["rally", "auto"], {"rally": "auto"}),
    (["withdraw", "4", "--simulate", "1000"], {"withdraw_max": 4, "simulate": 1000}),
    (["rockets", "--simulate", "1000", "--seed", "3"], {"simulate": 1000, "seed": 3}),
    (["matchup", "--attacker-army", "France", "--attacker", "Garde Imperial", "--defender-army",
      "Austria", "--defender", "6th Grenzers", "--defender-terrain", "town", "--attack-cards", "2"],
     {"attacker_army": "France", "attacker": "Garde Imperial", "defender_army": "Austria",
      "defender": "6th Grenzers", "defender_terrain": "town", "attack_cards": 2}),
]  # fmt: skip


@pytest.mark.parametrize("argv, query", JSON_CASES, ids=lambda v: v[0] if isinstance(v, list) and isinstance(v[0], str) else "")  # fmt: skip
def test_json_is_the_clis(client, capsys, argv, query):
    code, out, err = cli(capsys, ["odds", *argv, "--json"])
    assert code == 0, err
    r = client.get(f"/odds/manoeuvre/{argv[0]}.json?{urlencode(query)}")
    assert r.status_code == 200, r.text
    assert r.json() == json.loads(out)


def test_hex_json_is_the_clis(client, capsys):
    argv = ["--attack", "4,3r,2u", "--defend", "3,4c", "--step-losses", "--simulate", "5000"]
    code, out, err = cli(capsys, ["hex", "odds", "combat", *argv, "--json"])
    assert code == 0, err
    q = {"attack": "4,3r,2u", "defend": "3,4c", "step_losses": "on", "simulate": 5000}
    r = client.get(f"/odds/hex/combat.json?{urlencode(q)}")
    assert r.status_code == 200
    assert r.json() == json.loads(out)


def test_page_shows_the_clis_figures_without_javascript(client, capsys):
    """The link alone reproduces the result: the page's exact column is the CLI's table."""
    code, out, _ = cli(capsys, ["odds", "assault", "--strength", "4", "--dice", "2d8",
                                "--defense", "6"])  # fmt: skip
    assert code == 0
    expected = re.findall(r"^(\w+)\s+([\d.]+%)$", out, re.M)
    assert len(expected) == 6
    r = client.get("/odds/manoeuvre/assault?strength=4&dice=2d8&defense=6")
    for name, pct in expected:
        row = re.search(rf'data-result="{name}"><td>[^<]*</td><td class="num">([^<]*)<', r.text)
        assert row and row.group(1) == pct, name
    assert 'id="odds-spec"' in r.text  # the chart's data rides with the page


def test_hex_page_shows_the_clis_figures(client, capsys):
    code, out, _ = cli(capsys, ["hex", "odds", "combat", "--attack", "4,3", "--defend", "4"])
    expected = re.findall(r"^(AE|AR|NE|DR|DE)\s.*?(\d+/36)\s+([\d.]+%)", out, re.M)
    assert len(expected) == 5
    r = client.get("/odds/hex?attack=4,3&defend=4")
    for name, rolls, pct in expected:
        m = re.search(rf'data-result="{name}">.*?<td class="num">{rolls}</td>'
                      rf'<td class="num">([^<]*)<', r.text)  # fmt: skip
        assert m and m.group(1) == pct, name


def test_htmx_gets_the_fragment(client):
    r = client.get("/odds/manoeuvre/pursuit?card=4&card=3&view=at_least", headers=HX)
    assert r.status_code == 200
    assert "<html" not in r.text and 'id="odds-table"' in r.text
    assert 'data-view="at_least" class="current"' in r.text


def test_csv_parses(client):
    r = client.get("/odds/manoeuvre/pursuit.csv?card=4&card=3&simulate=1000")
    assert r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [x["result"] for x in rows] == ["0_hits", "1_hits", "2_hits"]
    assert abs(sum(float(x["exactly"]) for x in rows) - 1) < 1e-5
    assert float(rows[0]["at_least"]) == pytest.approx(1.0)
    assert {"simulated", "low", "high"} <= set(rows[0])
    grid = list(
        csv.reader(
            io.StringIO(
                client.get("/odds/manoeuvre/table.csv?mix=2d6&strengths=0..2&defenses=3..4").text
            )
        )
    )
    assert grid[0][:3] == ["dice", "strength", "defense"] and len(grid) == 1 + 3 * 2  # fmt: skip
    hexrows = list(csv.DictReader(io.StringIO(
        client.get("/odds/hex/combat.csv?attack=4&defend=4").text)))  # fmt: skip
    assert [x["result"] for x in hexrows] == ["AE", "AR", "NE", "DR", "DE"]
    m = list(
        csv.DictReader(
            io.StringIO(
                client.get(
                    "/odds/manoeuvre/matchup.csv?attacker_army=France&defender_army=Austria"
                ).text
            )
        )
    )
    assert m and "eliminated" in m[0]  # fmt: skip


def test_table_csv_is_the_clis(client, capsys):
    argv = ["--mix", "2d8", "--strengths", "2..4", "--defenses", "5,7", "--committed", "1"]
    code, out, _ = cli(capsys, ["odds", "table", *argv])
    q = "mix=2d8&strengths=2..4&defenses=5,7&committed=1"
    assert client.get(f"/odds/manoeuvre/table.csv?{q}").text == out


def test_chart_pdfs(client):
    r = client.get("/odds/manoeuvre/chart.pdf?mix=2d6&strengths=0..2&defenses=3..5&fire=off")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert r.headers["content-type"] == "application/pdf"
    r = client.get("/odds/hex/chart.pdf?differences=-2..2&paper=letter")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


BAD = [
    ("/odds/manoeuvre/assault?strength=4&dice=2d8&defense=-3",
     ["odds", "assault", "--strength", "4", "--dice", "2d8", "--defense", "-3"]),
    ("/odds/manoeuvre/assault?dice=2d8",
     ["odds", "assault", "--dice", "2d8"]),
    ("/odds/manoeuvre/assault?dice=2d8&support=six&defense=3",
     ["odds", "assault", "--dice", "2d8", "--support", "six", "--defense", "3"]),
    ("/odds/manoeuvre/bombard?grand_battery=on&dice=2d6&defense=3",
     ["odds", "bombard", "--grand-battery", "--dice", "2d6", "--defense", "3"]),
    ("/odds/manoeuvre/rally?rally=seven", ["odds", "rally", "seven"]),
    ("/odds/manoeuvre/assault?dice=2d8&defender_strength=4&terrain=lava",
     ["odds", "assault", "--dice", "2d8", "--defender-strength", "4", "--terrain", "lava"]),
    ("/odds/manoeuvre/chart?strengths=0..20", None),
    ("/odds/hex?attack=4x&defend=3", ["hex", "odds", "combat", "--attack", "4x", "--defend", "3"]),
    ("/odds/hex/chart?differences=-20..20",
     ["hex", "odds", "chart", "--differences", "-20..20", "--out", "x.pdf"]),
]  # fmt: skip


@pytest.mark.parametrize("url, argv", BAD, ids=[b[0].split("?")[0] for b in BAD])
def test_bad_input_is_a_400_in_the_clis_words(client, capsys, url, argv):
    r = client.get(url)
    assert r.status_code == 400
    line = error_line(r.text)
    assert "Traceback" not in r.text
    if argv is not None:
        code, _, err = cli(capsys, argv)
        assert code != 0
        assert err.strip() == f"error: {line}"
    frag = client.get(url, headers=HX)
    assert frag.status_code == 400 and error_line(frag.text) == line
    assert frag.text.strip().startswith('<p class="error"')


def test_bad_json_request_answers_json(client):
    r = client.get("/odds/manoeuvre/assault.json?dice=2d8&defense=-3")
    assert r.status_code == 400
    assert r.json()["error"] == "--defense: expected an integer >= 0, got -3"
    r = client.get("/odds/manoeuvre/assault.json?defense=ten")
    assert r.json()["error"] == "--defense: 'ten' is not a valid integer"


CAPS = [
    ("/odds/manoeuvre/assault?dice=2d8&defense=5&simulate=1000001",
     "--simulate: expected an integer from 0 to 1000000, got 1000001"),
    ("/odds/manoeuvre/assault?defense=5&" + "&".join(["dice=1d6"] * 9),
     "--dice: at most 8 values on this page, got 9"),
    ("/odds/manoeuvre/table?mix=1d6&mix=1d8&strengths=0..200&defenses=0..200",
     "the table would have 80,802 rows; this page makes at most 50,000"),
    ("/odds/manoeuvre/chart.pdf?strengths=0..20",
     "--strengths: a printable page holds at most 16 values, got 21"),
    ("/odds/manoeuvre/assault?dice=2d8&defense=5&defence=4",
     "--defence: no such parameter on this page"),
    ("/odds/manoeuvre/matchup?attacker_army=../../etc/passwd.toml&defender_army=Austria",
     "--attacker-army: '../../etc/passwd.toml' is not one of"),
]  # fmt: skip


@pytest.mark.parametrize("url, message", CAPS, ids=[c[1][:20] for c in CAPS])
def test_caps(client, url, message):
    r = client.get(url)
    assert r.status_code == 400
    assert message in error_line(r.text)


def test_hostile_names_are_text(client):
    evil = "<script>alert(1)</script>"
    for q in ({"attacker_army": "France", "attacker": evil, "defender_army": "Austria"},
              {"attacker_army": evil, "defender_army": "Austria"},
              {"attacker_army": "France", "defender_army": "Austria", "defender_leader": evil}):  # fmt: skip
        r = client.get(f"/odds/manoeuvre/matchup?{urlencode(q)}")
        assert r.status_code == 400
        assert evil not in r.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text
        assert evil in error_line(r.text)


def test_unknown_kind_is_404(client):
    assert client.get("/odds/manoeuvre/nonsense?x=1").status_code == 404
    assert client.get("/odds/manoeuvre/chart.json?x=1").status_code == 404
