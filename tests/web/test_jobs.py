"""Studies as jobs (issue 33, part 2): the job manager and its pages through Starlette's
TestClient. Tiny studies: 3 armies, 20 games per pairing, blocks of 5 (several progress
steps and store parts each)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from tests.web.server import finished, wait

ARMIES = "France,Russia,Prussia"
ORIGIN = {"origin": "http://127.0.0.1:8765"}
TINY = {"game": "manoeuvre", "armies": ARMIES, "games_per_pairing": "20", "seed": "3",
        "block": "5"}  # fmt: skip


def job_of(client, location: str) -> dict:
    jid = location.split("job=")[1]
    return client.get(f"/jobs/{jid}.json").json()


def test_a_form_refuses_bad_input_in_the_command_lines_words(client):
    r = client.post("/jobs", data=TINY | {"games_per_pairing": "0"}, headers=ORIGIN)
    assert r.status_code == 400
    assert "--games-per-pairing: expected a positive number, got 0" in r.text
    r = client.post("/jobs", data=TINY | {"seed": "x"}, headers=ORIGIN)
    assert r.status_code == 400 and "--seed: &#39;x&#39; is not a valid integer" in r.text
    r = client.post("/jobs", data=TINY | {"armies": "France,Frnace"}, headers=ORIGIN)
    assert r.status_code == 400 and "Frnace" in r.text
    assert not (client.studies / "jobs").exists()  # nothing queued


def test_a_whatif_edit_is_refused_with_the_librarys_own_text(client):
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits

    edit = "France/No Such Unit/full=5"
    with pytest.raises(UsageError) as e:
        apply_edits({"France": find_army("France")}, [edit])
    form = {"game": "manoeuvre", "army": "France", "armies": ARMIES, "more": edit,
            "games_per_pairing": "20"}  # fmt: skip
    r = client.post("/whatif", data=form, headers=ORIGIN)
    assert r.status_code == 400
    from markupsafe import escape

    assert str(escape(str(e.value))) in r.text
    # a field of the form out of the data's range: the model's validation, as for a file
    r = client.post("/whatif", data=form | {"more": "", "u0_full": "99"}, headers=ORIGIN)
    assert r.status_code == 400 and "full" in r.text and "30" in r.text


def test_a_job_is_built_by_the_commands_own_builder():
    """jobs_kinds.build calls each command's command_spec: the spec equals the command
    line's, an option left empty takes the command's default, and one the command does not
    take is refused in one line naming it."""
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.studies import balance as B
    from manoeuvre_sim.web.jobs.kinds import build

    job = build("balance", {"armies": ["France", "Russia"], "policy": "", "seed": 4,
                            "games_per_pairing": 30, "precision": None})  # fmt: skip
    want = B.command_spec("manoeuvre", armies="France,Russia", seed=4, games_per_pairing=30)
    assert job.run.func is B.run_spec and job.run.args[0] == want
    job = build("hex balance", {"policies": "random,capital", "quality": None})
    assert job.run.args[0] == B.command_spec("hex", policies="random,capital")
    with pytest.raises(UsageError, match=r"^--precision: not an option of hex whatif$"):
        build("hex whatif", {"edits": ["blue/#2/strength=5:2"], "precision": 0.02})
    with pytest.raises(UsageError, match=r"^--set: expected at least one edit"):
        build("whatif", {"armies": ["France", "Russia"], "edits": []})
    with pytest.raises(UsageError, match=r"^--games-per-pairing: expected at most 20000"):
        build("balance", {"games_per_pairing": 20001})


def test_a_post_from_another_site_is_refused(client):
    assert client.post("/jobs", data=TINY).status_code == 403
    r = client.post("/jobs", data=TINY, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post(
        "/jobs", data=TINY | {"seed": "x"}, headers={"referer": "http://127.0.0.1:8765/jobs/new"}
    )
    assert r.status_code == 400 and "--seed" in r.text  # past the origin check


def test_a_tiny_job_writes_an_ordinary_study(client):
    r = client.post("/jobs", data=TINY, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303
    job = wait(lambda: job_of(client, r.headers["location"]), finished)
    assert job["state"] == "done", job
    assert job["done"] == job["total"] == 9 * 20
    out = client.studies / job["dir"]
    m = json.loads((out / "manifest.json").read_text())
    assert m["seed"] == 3 and m["games"] == 180 and not m.get("interrupted")
    assert (out / "matrix.csv").is_file() and (out / "job.json").is_file()
    page = client.get("/study", params={"dir": job["dir"]})
    assert page.status_code == 200 and "Prussia" in page.text
    listing = client.get("/jobs")
    assert job["id"] in listing.text and "study page" in listing.text
    # the command line's study gives the same tables (``manoeuvre-sim report`` reads it
    # as any balance study: not run here, 14 s of PDF drawing)
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    res = CliRunner().invoke(cli, ["balance", "--armies", ARMIES, "--games-per-pairing", "20",
                                   "--seed", "3", "--block", "5", "--quiet", "--out",
                                   str(client.studies / "cli")])  # fmt: skip
    assert res.exit_code == 0, res.output
    for name in ("matrix.csv", "armies.csv"):
        a, b = pd.read_csv(out / name), pd.read_csv(client.studies / "cli" / name)
        pd.testing.assert_frame_equal(a, b)


def _manager(root: Path):
    from manoeuvre_sim.web.jobs.manager import JobManager

    return JobManager(root)


# 5,400 games in 270 tasks (a few seconds): a cancel or a stop once 50 games are done lands
# long before the end, however idle the machine
BIG = {"armies": ARMIES.split(","), "games_per_pairing": 600, "seed": 5, "block": 20}
BIG_TASKS = 9 * BIG["games_per_pairing"] // BIG["block"]


def test_jobs_queue_and_run_one_at_a_time(tmp_path):
    jm = _manager(tmp_path)
    a = jm.submit("balance", {"armies": ARMIES.split(","), "games_per_pairing": 10, "block": 5})
    b = jm.submit("balance", {"armies": ARMIES.split(","), "games_per_pairing": 10, "seed": 2})
    assert (a.state, b.state) == ("queued", "queued")
    jm.start()
    try:
        wait(lambda: b, lambda j: j.state == "done")
        assert a.state == "done"
        assert a.finished <= b.started
    finally:
        jm.stop()


def test_cancel_keeps_the_store_and_resume_finishes_it(tmp_path):
    jm = _manager(tmp_path)
    jm.start()
    try:
        job = jm.submit("balance", BIG)
        wait(lambda: job, lambda j: j.done >= 50)
        jm.cancel(job.id)
        wait(lambda: job, lambda j: j.state == "cancelled")
        store = tmp_path / job.dir / "games.parquet"
        parts = sorted(store.glob("*.parquet"))
        assert 3 <= len(parts) < BIG_TASKS and job.done < job.total
        state = tmp_path / job.dir / "job.json"
        wait(lambda: json.loads(state.read_text()), lambda s: s["state"] == "cancelled")
        jm.resume(job.id)
        wait(lambda: job, lambda j: j.state == "done", timeout=120)
        m = json.loads((tmp_path / job.dir / "manifest.json").read_text())
        assert m["games"] == 9 * BIG["games_per_pairing"] and not m["interrupted"]
        assert set(parts) <= set(store.glob("*.parquet"))
    finally:
        jm.stop()


def test_a_restart_resumes_the_job_a_stopped_server_left(tmp_path):
    jm = _manager(tmp_path)
    jm.start()
    job = jm.submit("balance", BIG)
    wait(lambda: job, lambda j: j.done >= 50)
    jm.stop()  # as the server stops: the job stays "running" on disk
    saved = json.loads((tmp_path / job.dir / "job.json").read_text())
    assert saved["state"] == "running"
    assert not (tmp_path / job.dir / "matrix.csv").exists()  # no table before the end
    again = _manager(tmp_path)
    again.start()
    try:
        back = again.get(job.id)
        assert back is not None and back.resume
        wait(lambda: back, lambda j: j.state == "done", timeout=120)
        m = json.loads((tmp_path / job.dir / "manifest.json").read_text())
        assert m["games"] == 9 * BIG["games_per_pairing"] and not m["interrupted"]
    finally:
        again.stop()


def test_ui_takes_the_study_commands_backend_options():
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    res = CliRunner().invoke(cli, ["ui", "--workers", "2", "--no-warmup", "--port", "1"])
    assert "--workers: only with --backend dask" in str(res.exception)
    res = CliRunner().invoke(cli, ["ui", "--scheduler", "tcp://x:1", "--no-warmup"])
    assert "--scheduler: only with --backend dask" in str(res.exception)


def test_a_maneuver_whatif_from_the_form_runs_to_its_study(client):
    form = {"game": "hex", "blue2_strength": "5:2", "games_per_pairing": "10", "block": "10",
            "policies": "capital", "border": "basic", "quality": "front:front"}  # fmt: skip
    r = client.post("/whatif", data=form, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303, r.text
    job = wait(lambda: job_of(client, r.headers["location"]), finished)
    assert job["state"] == "done", job
    assert "--set 'blue/#2/strength=5:2'" in job["command"]
    m = json.loads((client.studies / job["dir"] / "manifest.json").read_text())
    assert m["study"] == "hex whatif" and m["games"] == 20
    assert client.get("/study", params={"dir": job["dir"]}).status_code == 200
    assert client.get("/whatif/changed", params={"dir": job["dir"]}).status_code == 200
    bad = client.post("/whatif", data=form | {"blue2_strength": "x"}, headers=ORIGIN)
    assert bad.status_code == 400 and "expected an integer, got &#39;x&#39;" in bad.text


def test_a_whatif_started_from_a_study_takes_its_armies_players_and_seeds(client):
    d = client.studies / "base"
    d.mkdir()
    (d / "manifest.json").write_text(json.dumps({
        "game": "manoeuvre", "study": "balance", "seed": 7, "games_per_pairing": 33,
        "armies": [{"name": "Spain"}, {"name": "Austria"}],
        "policies": [{"label": "simple", "policy_a": "simple", "policy_b": "simple"}]}))  # fmt: skip
    r = client.get("/whatif/new", params={"from": "base", "army": "Spain"})
    assert r.status_code == 200
    for name, value in (("armies", "Spain,Austria"), ("policy", "simple"), ("seed", "7"),
                        ("games_per_pairing", "33")):  # fmt: skip
        assert re.search(f'name="{name}"[^>]* value="{value}"', r.text), name
    r = client.get("/whatif/new", params={"from": "../../etc"})
    assert r.status_code == 400 and "--from" in r.text


def test_a_job_plays_as_it_was_built_at_its_submission_and_warms_up_first(tmp_path, monkeypatch):
    """Issue 41: the study a job's submission checked is the one played (built once), and a
    warm manager loads what a job's end needs before its first job."""
    from manoeuvre_sim.web.jobs import manager as M

    calls = {"build": 0, "warm": 0}
    real = M.build

    def counted(*a, **kw):
        calls["build"] += 1
        return real(*a, **kw)

    monkeypatch.setattr(M, "build", counted)
    monkeypatch.setattr(M, "warm_up", lambda: calls.__setitem__("warm", calls["warm"] + 1))
    jm = M.JobManager(tmp_path, warm=True)
    job = jm.submit("balance", {"armies": ARMIES.split(","), "games_per_pairing": 10})
    assert job.id in jm.built
    jm.start()
    try:
        wait(lambda: job, lambda j: j.state == "done")
    finally:
        jm.stop()
    assert calls == {"build": 1, "warm": 1} and not jm.built


def test_the_jobs_list_polls_faster_once_the_games_are_about_to_end():
    from manoeuvre_sim.web.jobs.manager import Job
    from manoeuvre_sim.web.jobs.pages import POLL, POLL_END, poll_seconds

    job = Job("a", "balance", {}, "jobs/a", state="running", done=100, total=1000, left=9.0)
    assert poll_seconds([job]) == POLL
    assert poll_seconds([Job("b", "balance", {}, "jobs/b", state="running", done=900,
                             total=1000, left=0.4)]) == POLL_END  # fmt: skip
    ended = Job("c", "balance", {}, "jobs/c", state="running", done=1000, total=1000, left=None)
    assert poll_seconds([job, ended]) == POLL_END  # its tables being written
    assert poll_seconds([ended.to_dict()]) == POLL_END  # the JSON the benchmark polls
    assert poll_seconds([Job("d", "balance", {}, "jobs/d", state="done", done=1000,
                             total=1000)]) == POLL  # fmt: skip


def test_the_jobs_list_page_refreshes_at_the_pace_poll_seconds_says(client, monkeypatch):
    from manoeuvre_sim.web.jobs import pages

    big = TINY | {"games_per_pairing": "3000", "block": "20"}  # seconds: still running
    r = client.post("/jobs", data=big, headers=ORIGIN, follow_redirects=False)
    wait(lambda: job_of(client, r.headers["location"]), lambda j: j["state"] == "running")
    monkeypatch.setattr(pages, "poll_seconds", lambda jobs: 0.5)
    assert 'hx-trigger="every 500ms"' in client.get("/jobs/list").text
    monkeypatch.setattr(pages, "poll_seconds", lambda jobs: 0.15)
    assert 'hx-trigger="every 150ms"' in client.get("/jobs/list").text
    assert 'hx-trigger="every 150ms"' in client.get("/jobs").text
    jid = r.headers["location"].split("job=")[1]
    client.post(f"/jobs/{jid}/cancel", headers=ORIGIN)
    wait(lambda: job_of(client, r.headers["location"]), finished)
