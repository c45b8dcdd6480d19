"""The toy coin game's what-if in the workbench (``web/jobs/whatif_form.py``), with no web
module and no edit of the library: registered through ``MANOEUVRE_SIM_GAMES`` alone, it gets
the generic what-if form (a base balance study picked, each side's variant, its ``Options``
with the variant's values, its ``--set`` edits, games, seed), a job that plays it, the
result listed and opened like any what-if, and the job's command that gives the same tables
when typed; bad fields are one line each and a foreign Origin is refused. In Chromium too,
against ``manoeuvre-sim ui`` run as a process."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from manoeuvre_sim.core import games as G
from tests.web.server import LOCAL, job_done, local_client, ui_running

SIDES = "heavy:70,fair,light:30"
POST = {"origin": LOCAL, "content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def studies(coin_registered, tmp_path):
    """A studies folder holding one balance study of the coin game, ``coin-balance``
    (player lucky, 3 flips, seed 3), and a what-if study that is no base."""
    from manoeuvre_sim.studies import balance, whatif

    root = tmp_path / "studies"
    res = balance.run("coin", SIDES.split(","), games_per_pairing=30, seed=3, policy="lucky",
                      options=G.get_game("coin").Options(flips=3),
                      out_dir=root / "coin-balance")  # fmt: skip
    res.write(root / "coin-balance")
    w = whatif.run("coin", ["heavy:70", "fair"], variant_sides={"heavy": "heavy:60"},
                   games_per_pairing=10, out_dir=root / "coin-whatif")  # fmt: skip
    w.write(root / "coin-whatif")
    return root


def test_the_form_picks_a_base_study_then_shows_its_sides_and_options(studies):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(studies)) as c:
        jobs = c.get("/jobs").text
        assert 'href="/whatif/new?game=coin"' in jobs  # its button beside the others
        pick = c.get("/whatif/new?game=coin")
        assert pick.status_code == 200
        assert 'href="/whatif/new?game=coin&amp;from=coin-balance"' in pick.text
        assert "coin-whatif" not in pick.text  # a what-if is no base study
        form = c.get("/whatif/new?game=coin&from=coin-balance")
        assert form.status_code == 200
        text = form.text
        assert "manoeuvre-sim coin whatif" in text and 'name="from" value="coin-balance"' in text
        for name in ("variant_0", "variant_1", "variant_2", "policy", "option_flips",
                     "variant_option_flips", "more", "games_per_pairing", "seed"):  # fmt: skip
            assert f'name="{name}"' in text, name
        # the base study's values, as it was played
        assert 'name="option_flips" value="3"' in text and 'name="policy" value="lucky"' in text
        assert 'name="seed" value="3"' in text and 'name="games_per_pairing" value="30"' in text
        assert "NAME or NAME:PERCENT" in text  # what the game's load_side reads
        # the same form from the study alone (the game read from its manifest)
        assert 'name="variant_0"' in c.get("/whatif/new?from=coin-balance").text


BASE = {"game": "coin", "from": "coin-balance", "games_per_pairing": "10"}


@pytest.mark.parametrize(
    "fields, expected",
    [
        ({}, "--variant: expected a side's variant, an edit or a rule option's variant value"),
        ({"variant_0": "heavy:170"}, "coin heavy:170: heads are 0..100 percent"),
        ({"variant_0": "../heavy"}, "--variant heavy=../heavy: a side is named here, not a file"),
        ({"variant_option_flips": "0"}, "--variant-flips: expected a positive number, got 0"),
        ({"variant_option_flips": "many"}, "--variant-flips: 'many' is not a valid integer"),
        ({"variant_0": "heavy:60", "option_flips": "0"},
         "--flips: expected a positive number, got 0"),
        ({"more": "heavy/tails=3"}, '--set "heavy/tails=3": expected heavy/heads=PERCENT'),
        ({"variant_0": "heavy:60", "policy": "cheat"},
         "--policy: 'cheat' is not a player of coin (one of fair, lucky)"),
        ({"variant_0": "heavy:60", "games_per_pairing": "0"},
         "--games-per-pairing: expected a positive number, got 0"),
        ({"variant_0": "heavy:60", "from": "coin-whatif"},
         "--from: 'coin-whatif' is a 'whatif' study; a what-if starts from a finished balance"),
    ],
)  # fmt: skip
def test_a_bad_field_is_one_line(studies, fields, expected):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(studies)) as c:
        r = c.post("/whatif", data=BASE | fields, headers=POST)
        assert r.status_code == 400, r.text[:500]
        assert r.text.count('id="form-error"') <= 1
        error = (r.text.split('id="form-error">')[1].split("</p>")[0] if 'id="form-error"' in
                 r.text else r.text.split('class="error"')[1].split("</p>")[0])  # fmt: skip
        assert "\n" not in error and expected in error.replace("&#39;", "'").replace(
            "&#34;", '"').replace("&quot;", '"'), error  # fmt: skip
    assert not (studies / "jobs").exists()


def test_a_form_of_another_site_starts_no_job(studies):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(studies)) as c:
        sent = BASE | {"variant_0": "heavy:60"}
        evil = POST | {"origin": "http://evil.example"}
        assert c.post("/whatif", data=sent, headers=evil).status_code == 403
        assert c.post("/whatif", data=sent, headers=POST | {"origin": "https://127.0.0.1:8765"}
                      ).status_code == 403  # the scheme counts  # fmt: skip
    assert not (studies / "jobs").exists()


def test_a_whatif_job_runs_is_listed_and_opened_and_its_command_replays_it(studies):
    from manoeuvre_sim.web.app import create_app

    with local_client(create_app(studies)) as c:
        sent = BASE | {"variant_0": "heavy:60", "variant_option_flips": "4",
                       "more": "light/heads=35", "games_per_pairing": "20"}  # fmt: skip
        r = c.post("/whatif", data=sent, headers=POST, follow_redirects=False)
        assert r.status_code == 303, r.text[:2000]
        job = job_done(c, r.headers["location"].split("job=")[1])
        assert job["state"] == "done" and job["kind"] == "coin whatif", job
        # a rule option changed: every ordered pairing (mirrors too) played base and variant
        assert job["done"] == job["total"] == 2 * 9 * 20
        m = json.loads((studies / job["dir"] / "manifest.json").read_text())
        assert m["game"] == "coin" and m["study"] == "whatif" and m["seed"] == 3
        assert m["paired_games"] == 9 * 20
        changes = m["variant"]["changes"] if "variant" in m else m["changes"]
        assert "light / heads: 30 -> 35" in changes and "rules: 4 flips" in changes, changes
        assert any(x.startswith("heavy: ") for x in changes), changes
        listed = c.get(f"/jobs?job={job['id']}").text
        assert f"/whatif/changed?dir={job['dir'].replace('/', '%2F')}" in listed
        study = c.get(f"/study?dir={job['dir']}")
        assert study.status_code == 200 and "heavy" in study.text
        changed = c.get(f"/whatif/changed?dir={job['dir']}")
        assert changed.status_code == 200 and 'id="cells"' in changed.text
        assert "/replay/coin" not in changed.text  # no replay of a game that has none
        command = shlex.split(job["command"])
    # the command a user would type plays the same games: the same table
    out = studies / "typed"
    command[command.index("--out") + 1] = str(out)
    exe = Path(sys.executable).with_name("manoeuvre-sim")
    run = subprocess.run([str(exe), *command[1:], "--quiet"], capture_output=True, text=True,
                         cwd=studies)  # fmt: skip
    assert run.returncode == 0, run.stderr
    typed = (out / "whatif.csv").read_text()
    assert typed == (studies / job["dir"] / "whatif.csv").read_text()


def test_a_whatif_job_starts_and_finishes_in_chromium(studies, page):
    with ui_running(studies) as url:  # ``manoeuvre-sim ui``: the game registered by its env
        page.goto(f"{url}/jobs")
        with page.expect_navigation():
            page.click("a.button[href='/whatif/new?game=coin']")
        with page.expect_navigation():
            page.click("a.base-study")
        assert "manoeuvre-sim coin whatif" in page.content()
        page.fill("input[name=variant_1]", "fair:65")
        page.fill("input[name=games_per_pairing]", "15")
        page.screenshot(path=str(Path(os.environ.get("KNOW_SHOTS", studies)) / "coin-whatif-form.png"),
                        full_page=True)  # fmt: skip
        page.click("#run")
        page.wait_for_url("**/jobs?job=*")
        row = page.locator("tr.job.shown")
        row.locator("a.changed").wait_for(timeout=120_000)
        assert row.get_attribute("data-state") == "done"
        # the base's 9 ordered pairings, and the variant's 5 that fair plays
        assert row.get_attribute("data-done") == row.get_attribute("data-total") == str(14 * 15)
        with page.expect_navigation():
            row.locator("a.changed").click()
        rel = unquote(page.url.split("dir=")[1])
        assert rel.startswith("jobs/") and rel.endswith("-coin-whatif")
        assert page.locator("#cells tbody tr").count() >= 1
        page.screenshot(path=str(Path(os.environ.get("KNOW_SHOTS", studies)) / "coin-whatif-changed.png"),
                        full_page=True)  # fmt: skip
        m = json.loads((studies / rel / "manifest.json").read_text())
        assert m["game"] == "coin" and m["paired_games"] > 0
        assert page.problems == []
