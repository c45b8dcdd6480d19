"""The toy coin game (``tests/studies/coin_game.py``) reaches the workbench and the static
site with no edit of the library: registered through ``MANOEUVRE_SIM_GAMES`` alone, as a
user's game would be (``docs/games.md``), it has its balance studies listed and opened, a
new-study form of its own (the generic one: the coin game has no web module) whose job is
started from the page and finished (in Chromium, against ``manoeuvre-sim ui`` run as a
process), and its study in a site written by ``manoeuvre-sim site``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.web.server import LOCAL, job_done, local_client, ui_running

SIDES = "heavy:70,fair,light:30"
POST = {"origin": LOCAL, "content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def coin_study(coin_registered, tmp_path):
    """A studies folder holding one balance study of the coin game, ``coin-balance``."""
    from manoeuvre_sim.studies import balance

    root = tmp_path / "studies"
    res = balance.run("coin", SIDES.split(","), games_per_pairing=40, seed=3,
                      out_dir=root / "coin-balance")  # fmt: skip
    res.write(root / "coin-balance")
    return root


def test_its_balance_study_is_listed_and_opened(coin_study):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(coin_study, run_jobs=False)) as c:
        listed = c.get("/studies")
        assert listed.status_code == 200 and "coin-balance" in listed.text
        study = c.get("/study?dir=coin-balance")
        assert study.status_code == 200 and "heavy" in study.text and "light" in study.text
        assert 'href="/study/pairing?dir=coin-balance&amp;pairing=1"' in study.text  # its rows
        pairing = c.get("/study/pairing?dir=coin-balance&pairing=0")
        assert pairing.status_code == 200 and "heavy" in pairing.text
        assert "/replay/coin" not in pairing.text  # no link to a replay it does not have


def test_its_new_study_form_has_its_sides_player_and_rule_options(coin_registered, tmp_path):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(tmp_path)) as c:
        jobs = c.get("/jobs")
        assert 'href="/jobs/new?game=coin"' in jobs.text, jobs.text
        form = c.get("/jobs/new?game=coin")
        assert form.status_code == 200
        text = form.text
        assert "manoeuvre-sim coin balance" in text and 'name="game" value="coin"' in text
        for name in ("armies", "policy", "option_flips", "games_per_pairing", "seed"):
            assert f'name="{name}"' in text, name
        assert "NAME or NAME:PERCENT" in text  # what the game's load_side reads
        assert 'placeholder="fair"' in text and 'placeholder="5"' in text  # its defaults


@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"armies": "heavy:170,fair"}, "coin heavy:170: heads are 0..100 percent"),
        ({"armies": "heavy"}, "--armies: expected at least two sides"),
        ({"armies": "heavy,../x"}, "--armies: '../x': a side is named here, not a file"),
        ({"policy": "bogus"}, "--policy: 'bogus' is not a player of coin (one of fair, lucky)"),
        ({"option_flips": "0"}, "flips: expected a positive number, got 0"),
        ({"option_flips": "many"}, "--flips: 'many' is not a valid integer"),
        ({"games_per_pairing": "0"}, "--games-per-pairing: expected a positive number, got 0"),
    ],
)
def test_a_bad_field_is_one_line(coin_registered, tmp_path, fields, expected):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(tmp_path)) as c:
        sent = {"game": "coin", "armies": SIDES, "games_per_pairing": "10"} | fields
        r = c.post("/jobs", data=sent, headers=POST)
        assert r.status_code == 400
        error = r.text.split('id="form-error">')[1].split("</p>")[0]
        assert "\n" not in error and expected in error.replace("&#39;", "'"), error


def test_a_form_of_another_site_starts_no_job(coin_registered, tmp_path):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(tmp_path)) as c:
        sent = {"game": "coin", "armies": SIDES, "games_per_pairing": "10"}
        evil = POST | {"origin": "http://evil.example"}
        assert c.post("/jobs", data=sent, headers=evil).status_code == 403
        assert (
            c.post("/jobs", data=sent, headers=POST | {"host": "evil.example"}).status_code == 400
        )
    assert not (tmp_path / "jobs").exists()


def test_a_balance_job_runs_from_the_form(coin_registered, tmp_path):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(tmp_path)) as c:
        sent = {"game": "coin", "armies": SIDES, "policy": "lucky", "option_flips": "7",
                "games_per_pairing": "30", "seed": "4"}  # fmt: skip
        r = c.post("/jobs", data=sent, headers=POST, follow_redirects=False)
        assert r.status_code == 303, r.text
        jid = r.headers["location"].split("job=")[1]
        job = job_done(c, jid)
        assert job["state"] == "done" and job["done"] == job["total"] == 9 * 30, job
        assert job["kind"] == "coin balance"
        assert job["command"].startswith(f"manoeuvre-sim coin balance --sides {SIDES} "
                                         "--policy lucky --games-per-pairing 30 --seed 4")  # fmt: skip
        assert "--flips 7" in job["command"]
        m = json.loads((tmp_path / job["dir"] / "manifest.json").read_text())
        assert m["game"] == "coin" and m["games"] == 9 * 30 and m["seed"] == 4
        assert "7 flips" in json.dumps(m), m  # the rule option reached the study
        listed = c.get(f"/jobs?job={jid}").text
        assert f"/study?dir={job['dir'].replace('/', '%2F')}" in listed
        assert "what-if from this study" not in listed  # the coin game has no what-if form
        assert c.get(f"/study?dir={job['dir']}").status_code == 200


def test_a_balance_job_starts_and_finishes_in_chromium(coin_registered, tmp_path, page):
    root = tmp_path / "studies"
    root.mkdir()
    with ui_running(root) as url:  # ``manoeuvre-sim ui``: the game registered by its env
        page.goto(f"{url}/jobs")
        with page.expect_navigation():
            page.click("a.button[href='/jobs/new?game=coin']")
        assert "manoeuvre-sim coin balance" in page.content()
        page.fill("input[name=armies]", SIDES)
        page.fill("input[name=games_per_pairing]", "25")
        page.fill("input[name=option_flips]", "3")
        page.click("#run")
        page.wait_for_url("**/jobs?job=*")
        row = page.locator("tr.job.shown")
        row.locator("progress.bar").wait_for()
        row.locator("a.result").wait_for(timeout=120_000)
        assert row.get_attribute("data-state") == "done"
        assert row.get_attribute("data-done") == str(9 * 25)
        with page.expect_navigation():
            row.locator("a.result").click()
        rel = unquote(page.url.split("dir=")[1])
        assert rel.startswith("jobs/") and rel.endswith("-coin-balance")
        assert "heavy" in page.content() and "light" in page.content()
        m = json.loads((root / rel / "manifest.json").read_text())
        assert m["game"] == "coin" and m["games"] == 9 * 25 and "3 flips" in json.dumps(m)
        assert page.problems == []


def test_its_study_is_in_a_static_site(coin_study, tmp_path):
    exe = Path(sys.executable).with_name("manoeuvre-sim")
    out = tmp_path / "site"
    run = subprocess.run([str(exe), "site", "--from", str(coin_study / "coin-balance"),
                          "--out", str(out), "--quiet"], capture_output=True, text=True,
                         cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads((out / "site.json").read_text())
    assert [s["game"] for s in record["studies"]] == ["coin"], record
    index = (out / "index.html").read_text()
    assert "coin-balance" in index
    study = out / "study" / "coin-balance.html"
    assert study.is_file() and "heavy" in study.read_text()
    pairings = sorted((out / "pairing").glob("coin-balance*.html"))
    assert len(pairings) == 9, sorted(p.name for p in out.iterdir())
    assert record["skipped"] == [] and record["studies"][0]["replays"] == []
