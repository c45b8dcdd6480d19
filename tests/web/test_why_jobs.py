"""The why study in the workbench (issue 42, item 5): a "why?" link on every balance matrix
cell, the job's form (prefilled from the study; bad input one line each; foreign Origin
refused; bounded), the job to its result page (waterfall, contributions, the three games
each linked to its replay at the marked decision), a finished study opened by the cell's
link instead of the form; and the same flow in Chromium, with screenshots."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.web.server import LOCAL, local_client, serve
from tests.web.study_fixtures import run_cli

POST = {"origin": LOCAL, "content-type": "application/x-www-form-urlencoded"}
FORM = {"game": "manoeuvre", "armies": "France,Russia", "policy": "random", "samples": "2",
        "block": "2", "seed": "1", "from": "balance"}  # fmt: skip
SHOTS = Path("/tmp/shots")


@pytest.fixture(scope="module")
def balance_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("why") / "studies"
    root.mkdir()
    run_cli(["balance", "--armies", "France,Russia,Austria", "--games-per-pairing", "8",
             "--policy", "random", "--block", "8", "--threads", "1", "--quiet", "--out",
             str(root / "balance")])  # fmt: skip
    return root


@pytest.fixture
def client(balance_root, tmp_path):
    import shutil

    from manoeuvre_sim.web.app import create_app

    root = tmp_path / "studies"
    shutil.copytree(balance_root, root)
    with local_client(create_app(root), raise_server_exceptions=False) as c:
        yield c


def unescape(href: str) -> str:
    return href.replace("&amp;", "&")


def finish(c, location: str) -> dict:
    jid = location.split("job=")[1]
    t0 = time.monotonic()
    while time.monotonic() - t0 < 300:
        job = c.get(f"/jobs/{jid}.json").json()
        if job["state"] not in ("queued", "running"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"the why job did not end: {job}")


def test_every_cell_has_a_why_link_to_its_form_prefilled_from_the_study(client):
    page = client.get("/study?dir=balance").text
    links = set(re.findall(r'class="why-link" href="([^"]+)"', page))
    assert len(links) == 6  # 3 armies: every ordered pairing but the mirrors
    form = client.get(unescape(sorted(links)[0]))
    assert form.status_code == 200 and "manoeuvre-sim why" in form.text
    assert 'name="policy" value="random"' in form.text and 'name="seed" value="1"' in form.text


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"samples": "401"}, "--samples: expected at most 400 on the workbench, got 401"),
        ({"samples": "two"}, "--samples: 'two' is not a valid integer"),
        ({"samples": "1"}, "--samples: expected at least 2"),
        ({"armies": "France"}, "--armies: expected the two sides of the pairing to explain, got 1"),
        ({"armies": ""}, "--armies: expected the two sides of the pairing, X,Y"),
        ({"method": "guess"}, "--method 'guess': expected one of auto, exact, permutation"),
        ({"block": "5000"}, "--block: expected at most 1,000 games"),
        ({"samples": "400", "block": "1000"}, "a job from the workbench may cost at most"),
        ({"policy": "nobody"}, "--policy: 'nobody' is not a player of manoeuvre"),
    ],
)
def test_bad_input_comes_back_on_the_form_in_one_line(client, change, words):
    r = client.post("/why", data=FORM | change, headers=POST)
    assert r.status_code == 400
    said = re.search(r'<p class="error" id="form-error">(.*?)</p>', r.text, re.S).group(1)
    assert words in said.replace("&#39;", "'") and "\n" not in said and "Traceback" not in r.text


def test_a_form_of_another_site_is_refused(client):
    r = client.post("/why", data=FORM, headers=POST | {"origin": "http://evil.example"})
    assert r.status_code == 403
    assert client.get("/jobs").text.count("why --armies") == 0


def test_the_job_plays_and_its_result_page_links_each_game_to_its_replay_at_the_decision(client):
    r = client.post("/why", data=FORM, headers=POST, follow_redirects=False)
    assert r.status_code == 303
    job = finish(client, r.headers["location"])
    assert job["state"] == "done" and job["done"] == job["total"] == 2 * 2 * 2 * 84
    assert job["command"].startswith("manoeuvre-sim why --armies France,Russia --policy random")
    assert "why-result" in client.get("/jobs").text
    page = client.get("/why/result?dir=" + job["dir"])
    assert page.status_code == 200
    assert 'id="why-waterfall"' in page.text and "vega-spec" in page.text
    assert page.text.count('<tr><td class="name">France</td>') >= 8  # France's parts
    replays = re.findall(r'class="why-replay" href="([^"]+)"', page.text)
    assert replays
    for href in replays:
        event, mark = re.search(r"event=(\d+)&amp;mark=(\d+)-(\d+)", href).group(1, 2)
        assert event == mark
        rp = client.get(unescape(href))
        assert rp.status_code == 200 and 'id="decision-mark"' in rp.text
        assert f"event {event} of" in rp.text and " marked" in rp.text
    # the cell's link now opens the finished study, not the form
    again = client.get("/why/new?game=manoeuvre&armies=France,Russia&from=balance",
                       follow_redirects=False)  # fmt: skip
    assert again.status_code == 303 and again.headers["location"].startswith("/why/result?")
    assert client.get("/why/new?game=manoeuvre&armies=France,Russia&from=balance&again=1"
                      ).status_code == 200  # fmt: skip
    # a coalition's game (parts switched off) does not replay; a bad mark is one line
    off = re.sub(r"label=s(\d)-[0-9a-f]+", r"label=s0-00000000000", unescape(replays[0]))
    off = re.sub(r"pairing=\d+", "pairing=0", off)  # sample 0's first coalition: every part off
    assert "--label" in client.get(off).text
    assert "--mark '9-3'" in client.get(
        re.sub(r"mark=[\d-]+", "mark=9-3", unescape(replays[0]))
    ).text.replace("&#39;", "'")


def test_from_a_matrix_cell_to_a_replay_at_the_marked_decision_in_chromium(balance_root, page):
    import shutil

    SHOTS.mkdir(exist_ok=True)
    root = balance_root.parent / "browser"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(balance_root, root)
    with serve(root) as url:
        page.goto(f"{url}/study?dir=balance")
        cell = page.locator("#why-grid a.why-link[href*='armies=France%2CRussia']")
        cell.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "42-matrix-why.png"), full_page=True)
        with page.expect_navigation():
            cell.click()
        page.fill("input[name=samples]", "2")
        page.fill("input[name=block]", "2")
        page.screenshot(path=str(SHOTS / "42-why-form.png"), full_page=True)
        page.click("#run")
        page.wait_for_url("**/jobs?job=*")
        row = page.locator("tr.job.shown")
        row.locator("a.why-result").wait_for(timeout=300_000)
        with page.expect_navigation():
            row.locator("a.why-result").click()
        page.locator("#why-waterfall svg, #why-waterfall canvas").first.wait_for(timeout=20_000)
        page.screenshot(path=str(SHOTS / "42-why-result.png"), full_page=True)
        link = page.locator("a.why-replay").first
        href = link.get_attribute("href")
        event = int(re.search(r"event=(\d+)", href).group(1))
        with page.expect_navigation():
            link.click()
        assert page.locator("#decision-mark").is_visible()
        assert f"event {event} of" in page.locator("#position").inner_text()
        assert page.locator("#log li.marked").count() >= 1
        assert page.locator("#log li.current.marked").count() == 1  # it opened at the decision
        page.screenshot(path=str(SHOTS / "42-replay-marked.png"), full_page=True)
        page.keyboard.press("ArrowRight")  # stepping keeps the mark in the address
        page.wait_for_function("location.search.includes('mark=')")
        assert not page.problems, page.problems
