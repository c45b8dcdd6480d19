"""The balance fixer in the workbench (issue 40) on the toy coin game (registered by the
environment alone, as ``test_coin_faces.py`` does): its form, its one-line refusals, a job
from the page to its result page with the search's state on the way, cancel and resume,
a restart that resumes it to the same errata, the static site and the report's page."""

from __future__ import annotations

import json

import pytest

from tests.web.server import LOCAL, local_client, wait

POST = {"origin": LOCAL, "content-type": "application/x-www-form-urlencoded"}
# heavy's coin 15 points above the others: three steps of 5 (cost 3) even it
FORM = {"game": "coin", "armies": "heavy:65,mid,low", "editable": "heavy", "kind_heads": "on",
        "games_per_look": "100", "max_games": "600", "confirm_games": "800", "seed": "3"}  # fmt: skip
OPTIONS = {"armies": "heavy:65,mid,low", "editable": ["heavy"], "edits": {"heads": {}},
           "games_per_look": 100, "max_games": 600, "confirm_games": 800, "seed": 3}  # fmt: skip


@pytest.fixture
def coin_client(coin_registered, tmp_path):
    from manoeuvre_sim.web.app import create_app

    root = tmp_path / "studies"
    root.mkdir()
    with local_client(create_app(root), raise_server_exceptions=False) as c:
        c.studies = root
        yield c


def test_the_form_offers_the_games_edit_kinds_and_every_option(coin_client):
    jobs = coin_client.get("/jobs").text
    assert 'href="/fix/new?game=coin"' in jobs and 'href="/fix/new?game=manoeuvre"' in jobs
    form = coin_client.get("/fix/new?game=coin")
    assert form.status_code == 200
    for name in ("armies", "editable", "targets", "band", "budget", "kind_heads", "cost_heads",
                 "range_heads", "policy", "games_per_look", "max_games", "confirm_games",
                 "seed", "confirm_seed"):  # fmt: skip
        assert f'name="{name}"' in form.text, name
    assert "manoeuvre-sim coin fix" in form.text
    manoeuvre = coin_client.get("/fix/new?game=manoeuvre").text
    for k in ("strength", "command", "hq", "die"):  # its FIX_EDIT_KINDS, each a row
        assert f'name="kind_{k}"' in manoeuvre, k
    hexes = coin_client.get("/fix/new?game=hex")  # Maneuver's fixer hooks (hexgame/fix_edits)
    for k in ("strength", "movement", "count", "quality"):
        assert f'name="kind_{k}"' in hexes.text, k
    assert coin_client.get("/fix/new?game=nosuch").status_code == 400


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"band": "0.6:1.2"}, "--target '0.6:1.2': expected LO:HI with 0 <= LO < HI <= 1"),
        ({"editable": "nobody"}, "--edit 'nobody': not a side of the study"),
        ({"targets": "mid,ghost"}, "--army 'ghost': not a side of the study"),
        ({"kind_heads": None}, "the edit space is empty"),
        ({"budget": "0"}, "--budget 0: allows no edit"),
        ({"cost_heads": "9"}, "--budget 6: allows nothing (the cheapest allowed edit costs 9)"),
        ({"cost_heads": "two"}, "--edits [heads] cost: expected an integer, got 'two'"),
        ({"armies": "../x:50,mid"}, "--armies: '../x:50': a side is named here, not a file"),
        ({"games_per_look": "many"}, "--games-per-look"),
        ({"policy": "psychic"}, "--policy: 'psychic' is not a player of coin"),
    ],
)
def test_a_bad_field_is_refused_in_one_line_naming_it(coin_client, change, words):
    data = {k: v for k, v in (FORM | change).items() if v is not None}
    r = coin_client.post("/fix", data=data, headers=POST, follow_redirects=False)
    assert r.status_code == 400, r.text[:300]
    error = r.text.split('id="form-error">')[1].split("</p>")[0]
    assert words in error.replace("&#39;", "'").replace("&lt;", "<"), error
    assert "\n" not in error and "Traceback" not in r.text
    assert coin_client.app.state.jobs.listed() == []  # nothing queued


def test_a_post_from_another_site_or_host_is_refused(coin_client):
    r = coin_client.post("/fix", data=FORM, headers=POST | {"origin": "http://evil.example"})
    assert r.status_code == 403
    r = coin_client.post("/fix", data=FORM, headers=POST | {"host": "evil.example"})
    assert r.status_code == 400
    r = coin_client.post("/fix", data=FORM, headers={"content-type": POST["content-type"]})
    assert r.status_code == 403  # neither Origin nor Referer
    assert coin_client.app.state.jobs.listed() == []


def test_a_fix_from_the_form_runs_to_its_result_page(coin_client):
    r = coin_client.post("/fix", data=FORM, headers=POST, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    jid = r.headers["location"].split("job=")[1]
    seen = []

    def get():
        job = coin_client.get(f"/jobs/{jid}.json").json()
        seen.append(job)
        return job

    job = wait(get, lambda j: j["state"] not in ("queued", "running"))
    assert job["state"] == "done", job
    assert job["done"] == job["total"] > 0
    assert "8 of 8 single edits tried" in job["status"] and "best so far" in job["status"]
    assert all(j["done"] <= j["total"] for j in seen if j["total"])
    assert "--edit heavy" in job["command"] and "edits.toml" in job["command"]
    listed = coin_client.get(f"/jobs?job={jid}").text
    assert f'href="/fix/result?dir={job["dir"].replace("/", "%2F")}"' in listed
    page = coin_client.get("/fix/result", params={"dir": job["dir"]})
    assert page.status_code == 200
    text = page.text
    assert 'id="errata-table"' in text and "heavy/heads=50" in text
    assert 'whatif --set "heavy/heads=50"' in text.replace("&#34;", '"').replace("&quot;", '"')
    assert ">65<" in text and ">50<" in text  # before -> after
    for part in ("matrix-base", "matrix-fixed", "moved-table", "trail-table", "targets-table"):
        assert f'id="{part}"' in text, part
    assert text.count('<tr class="moved"') == 4  # heavy's four ordered pairings moved
    assert "Confirmed" in text
    study = coin_client.get("/study", params={"dir": job["dir"]}).text
    assert 'id="fix-result"' in study
    assert (coin_client.studies / job["dir"] / "edits.toml").read_text().startswith("[heads]")
    bad = coin_client.get("/fix/result", params={"dir": "nowhere"})
    assert bad.status_code == 400


def test_cancel_then_resume_finds_the_same_errata_and_a_restart_too(coin_registered, tmp_path):  # noqa: F811
    from manoeuvre_sim.web.jobs.manager import JobManager

    root = tmp_path / "studies"
    whole = JobManager(root)
    whole.start()
    try:
        ref = whole.submit("coin fix", dict(OPTIONS))
        wait(lambda: ref, lambda j: j.state == "done")
    finally:
        whole.stop()
    want = json.loads((root / ref.dir / "manifest.json").read_text())["errata"]
    assert want == ["heavy/heads=50"]

    jm = JobManager(root)
    jm.start()
    try:
        job = jm.submit("coin fix", dict(OPTIONS))
        wait(lambda: job, lambda j: j.done >= 2000)
        jm.cancel(job.id)
        wait(lambda: job, lambda j: j.state == "cancelled")
        assert "kept for the resume" in job.message and job.done < job.total
        assert not (root / job.dir / "errata.csv").exists()  # no table before the end
        jm.resume(job.id)
        wait(lambda: job, lambda j: j.done >= 6000 and j.state == "running")
    finally:
        jm.stop()  # as the server stops: the job stays "running" on disk
    assert json.loads((root / job.dir / "job.json").read_text())["state"] == "running"
    again = JobManager(root)
    again.start()
    try:
        back = again.get(job.id)
        wait(lambda: back, lambda j: j.state == "done")
    finally:
        again.stop()
    m = json.loads((root / job.dir / "manifest.json").read_text())
    assert m["errata"] == want and m["confirmed"]


def test_the_site_and_the_report_hold_the_fix(coin_registered, tmp_path):  # noqa: F811
    from pypdf import PdfReader

    from manoeuvre_sim.analyses.common import report
    from manoeuvre_sim.studies import fix as F
    from manoeuvre_sim.web.site.build import build_site

    out = tmp_path / "studies" / "fix-coin"
    res = F.run("coin", OPTIONS["armies"].split(","), editable=["heavy"], out_dir=out,
                **{k: OPTIONS[k] for k in ("games_per_look", "max_games", "confirm_games",
                                           "seed")})  # fmt: skip
    res.write(out)
    site = build_site([out], tmp_path / "site", replays=1)
    pages = [f for f in site.files if f.startswith("fix/")]
    assert len(pages) == 1, site.files
    html = (tmp_path / "site" / pages[0]).read_text()
    assert "heavy/heads=50" in html and 'id="matrix-fixed"' in html
    pdf, n = report.write_report(tmp_path / "r.pdf", report.load_studies([out]))
    words = " ".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "Fix — heavy, mid, low into 45-55 %" in words
    assert "heavy: heavy / heads: 65 -> 50" in words and 'whatif --set "heavy/heads=50"' in words
    assert "Base: row's score v column" in words and "Fixed (moved cells shaded)" in words
