"""A what-if started from a study on the workbench plays only what changed (issue 41): the
form carries the study it starts from, the job reads that study's base games instead of
playing them, says so on the jobs page and on the study page, and its tables are those of
the same what-if that plays its base."""

from __future__ import annotations

import json
import re

from tests.web.server import finished as done
from tests.web.server import wait
from tests.web.test_jobs import ORIGIN, job_of

ARMIES = "France,Russia,Prussia"
FORM = {"game": "manoeuvre", "army": "France", "armies": ARMIES, "policy": "random",
        "games_per_pairing": "20", "seed": "3", "u0_full": "9"}  # fmt: skip


def _base_study(root):
    from manoeuvre_sim.studies import balance as B

    spec = B.command_spec("manoeuvre", armies=ARMIES, policy="random", games_per_pairing=20,
                          seed=3, block=5, threads=1)  # fmt: skip
    B.run_spec(spec, out_dir=root / "base").write(root / "base")


def test_a_whatif_from_a_study_reads_its_base_and_says_so(client):
    _base_study(client.studies)
    r = client.get("/whatif/new", params={"from": "base", "army": "France"})
    form = r.text.split('id="whatif-form"')[1].split("</form>")[0]  # the form that POSTs
    assert r.status_code == 200 and re.search(r'name="from" value="base"', form)
    assert "read, not played again" in r.text
    jobs = {}
    for route, form in (("read", FORM | {"from": "base"}), ("played", FORM)):
        r = client.post("/whatif", data=form, headers=ORIGIN, follow_redirects=False)
        assert r.status_code == 303, r.text
        jobs[route] = wait(lambda loc=r.headers["location"]: job_of(client, loc), done,
                           timeout=300)  # fmt: skip
        assert jobs[route]["state"] == "done", jobs[route]["message"]
    said = "base: 180 games read from the study, 0 played; variant: 100 played"
    assert jobs["read"]["message"] == said
    assert "--base-study base" in jobs["read"]["command"]
    assert "read from the study" not in jobs["played"]["message"]
    page = client.get("/study", params={"dir": jobs["read"]["dir"]}).text
    assert re.search(rf'id="games-origin">{said}<', page)
    assert (
        'id="games-origin"' not in client.get("/study", params={"dir": jobs["played"]["dir"]}).text
    )
    dirs = {k: client.studies / j["dir"] for k, j in jobs.items()}
    m = json.loads((dirs["read"] / "manifest.json").read_text())
    assert m["base_study"]["base_read"] == 180 and m["paired_games"] == 100
    for name in ("whatif.csv", "whatif_field.csv"):
        assert (dirs["read"] / name).read_bytes() == (dirs["played"] / name).read_bytes(), name


def test_a_whatif_from_outside_the_studies_folder_is_refused(client):
    r = client.post("/whatif", data=FORM | {"from": "../elsewhere"}, headers=ORIGIN)
    assert r.status_code == 400 and "--from" in r.text
    assert not (client.studies / "jobs").exists()
