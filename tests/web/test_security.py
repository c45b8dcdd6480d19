"""The workbench attacked as a web page would attack it (issue 38, 1-3): a foreign Host
(DNS rebinding), a form from another origin or scheme, army files outside the studies
folder, and jobs whose cost has no bound; a running job cancelled, and the server stopped
by SIGTERM, within a second or two."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.web.server import local_client, ui_process, wait
from tests.web.test_jobs import ARMIES, ORIGIN, TINY

FOREIGN = "evil.example:8765"


@pytest.fixture
def app_root(tmp_path):
    root = tmp_path / "studies"
    root.mkdir()
    return root


def _client(root, **kw):
    from manoeuvre_sim.web.app import create_app

    return local_client(create_app(root, **kw), raise_server_exceptions=False)


# ---- 1. DNS rebinding: only loopback's names (and --host) are served --------------------
@pytest.mark.parametrize("path", ["/", "/studies", "/study?dir=x", "/jobs", "/odds", "/x.csv"])
def test_a_foreign_host_reads_nothing(client, path):
    r = client.get(path, headers={"host": FOREIGN})
    assert r.status_code == 400 and r.text == "Invalid host header"


def test_a_foreign_host_starts_no_job(client):
    r = client.post("/jobs", data=TINY, headers={"host": FOREIGN,
                                                 "origin": f"http://{FOREIGN}"})  # fmt: skip
    assert r.status_code == 400
    assert not (client.studies / "jobs").exists()


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765",
                                  "127.0.0.1", "LOCALHOST:1"])  # fmt: skip
def test_loopback_names_are_served(client, host):
    assert client.get("/", headers={"host": host}).status_code == 200


def test_the_host_the_server_listens_on_is_served_and_only_it(app_root):
    with _client(app_root, host="10.1.2.3", run_jobs=False) as c:
        assert c.get("/", headers={"host": "10.1.2.3:8765"}).status_code == 200
        assert c.get("/", headers={"host": "127.0.0.1:8765"}).status_code == 200
        assert c.get("/", headers={"host": "10.1.2.4:8765"}).status_code == 400


def test_allowed_hosts():
    from manoeuvre_sim.web.safety import allowed_hosts

    assert allowed_hosts() == ["127.0.0.1", "localhost", "[::1]"]
    assert allowed_hosts("0.0.0.0") == allowed_hosts("::") == allowed_hosts()
    assert allowed_hosts("::1") == allowed_hosts("[::1]") == allowed_hosts("127.0.0.1")
    assert allowed_hosts("Box.Lan") == [*allowed_hosts(), "box.lan"]
    assert allowed_hosts("fe80::1") == [*allowed_hosts(), "[fe80::1]"]


# ---- the form's Origin, scheme and port included -----------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://127.0.0.1:8765"},  # the wrong scheme
        {"origin": "http://127.0.0.1:8766"},  # another port
        {"origin": "http://localhost:8765"},  # another name of the same machine
        {"origin": "null"},
        {"referer": "https://127.0.0.1:8765/jobs/new"},
        {"referer": "http://127.0.0.1:8765.evil.example/jobs/new"},
        {},
    ],
)
def test_a_form_of_another_origin_is_refused(client, headers):
    r = client.post("/jobs", data=TINY, headers=headers)
    assert r.status_code == 403, headers
    assert not (client.studies / "jobs").exists()


def test_same_origin():
    from manoeuvre_sim.web.safety import same_origin

    assert same_origin("http://127.0.0.1:8765", "127.0.0.1:8765")
    assert same_origin("http://127.0.0.1:8765/jobs/new?x=1", "127.0.0.1:8765")
    assert same_origin("http://[::1]:8765", "[::1]:8765")
    assert not same_origin("https://127.0.0.1:8765", "127.0.0.1:8765")
    assert not same_origin("http://127.0.0.1:8765", "")
    assert not same_origin("", "127.0.0.1:8765")


# ---- 2. army files: a built-in name or a file under the studies folder -----------------
def _post_armies(client, armies: str):
    return client.post(
        "/jobs", data=TINY | {"armies": armies}, headers=ORIGIN, follow_redirects=False
    )


@pytest.fixture
def reads(monkeypatch):
    """Every army file the server opens (``load_army``, ``load_army_data``) but the built-in
    ones."""
    from manoeuvre_sim.manoeuvre.model import load as L

    builtin = L.data_dir().resolve()
    opened: list[str] = []
    for name in ("load_army", "load_army_data"):
        real = getattr(L, name)

        def spy(path, *a, _real=real, **kw):
            if builtin not in Path(path).resolve().parents:
                opened.append(str(path))
            return _real(path, *a, **kw)

        monkeypatch.setattr(L, name, spy)
    return opened


def test_an_army_path_outside_the_folder_is_refused_unread(client, tmp_path, reads):
    from manoeuvre_sim.manoeuvre.model import data_dir

    real = tmp_path / "outside.toml"  # a valid army file, outside the studies folder
    real.write_text((data_dir() / "armies" / "spain.toml").read_text())
    lines = {}
    for typed in ("/etc/passwd", str(real), "../outside.toml", "../missing.toml",
                  "a/../../outside.toml", "~/x.toml"):  # fmt: skip
        r = _post_armies(client, f"France,{typed}")
        assert r.status_code == 400, typed
        assert "malformed" not in r.text and "not found" not in r.text, typed
        lines[typed] = r.text
    # the same words whether the file exists or not
    exists, missing = lines["../outside.toml"], lines["../missing.toml"]
    assert exists.replace("outside", "X") == missing.replace("missing", "X")
    assert "&#39;/etc/passwd&#39; is not a built-in army" in lines["/etc/passwd"]
    assert reads == []  # no army file was opened
    assert not (client.studies / "jobs").exists()


def test_a_link_out_of_the_folder_is_refused_unread(client, tmp_path, reads):
    from manoeuvre_sim.manoeuvre.model import data_dir

    (tmp_path / "outside.toml").write_text((data_dir() / "armies" / "spain.toml").read_text())
    (client.studies / "link.toml").symlink_to(tmp_path / "outside.toml")
    r = _post_armies(client, "France,link.toml")
    assert r.status_code == 400 and "leaves the studies folder" in r.text
    assert reads == []


def test_an_army_file_under_the_folder_plays(client, reads):
    from manoeuvre_sim.manoeuvre.model import data_dir

    mine = client.studies / "mine"
    mine.mkdir()
    (mine / "spain.toml").write_text((data_dir() / "armies" / "spain.toml").read_text())
    r = _post_armies(client, "France,mine/spain.toml,russia")
    assert r.status_code == 303, r.text
    job = wait(lambda: client.get(f"/jobs/{r.headers['location'].split('job=')[1]}.json").json(),
               lambda j: j["state"] not in ("queued", "running"))  # fmt: skip
    assert job["state"] == "done", job
    assert job["options"]["armies"] == ["France", str((mine / "spain.toml").resolve()), "Russia"]
    assert str((mine / "spain.toml").resolve()) in reads


def test_an_unknown_army_name_touches_no_file(client, reads, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Frnace").write_text("not an army")  # find_army would look at ./Frnace
    r = _post_armies(client, "France,Frnace")
    assert r.status_code == 400 and "did you mean &#39;France&#39;?" in r.text
    assert reads == []


# ---- 3. a job's cost is bounded, its total known from the start -------------------------
def test_an_unbounded_job_is_refused_in_one_line(client):
    r = client.post("/jobs", data=TINY | {"policy": "search:100000", "block": "",
                                          "games_per_pairing": "20000"},
                    headers=ORIGIN)  # fmt: skip
    assert r.status_code == 400
    assert "--games-per-pairing: 180,000 games with search:100000 cost as much as" in r.text
    assert "may cost at most 2,560,000" in r.text
    assert not (client.studies / "jobs").exists()


def test_the_cost_bound_holds_at_its_edge(monkeypatch):
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.web.jobs import kinds as K

    opts = {"armies": ARMIES.split(","), "policy": "search:4:tuned:v1", "games_per_pairing": 7}
    cost = K.build("balance", dict(opts)).cost
    assert cost > 9 * 7  # a search player costs more than the scripted one
    monkeypatch.setattr(K, "MAX_JOB_COST", cost)
    K.build("balance", dict(opts))  # at the bound: accepted
    monkeypatch.setattr(K, "MAX_JOB_COST", cost - 1e-6)
    with pytest.raises(UsageError, match="may cost at most"):
        K.build("balance", dict(opts))


def test_a_search_players_blocks_are_made_small(monkeypatch):
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.web.jobs import kinds as K

    opts = {"armies": ARMIES.split(","), "policy": "search:16:tuned:v2", "games_per_pairing": 20}
    built = K.build("balance", opts)
    per_game = max(
        c
        for _, c in K.plan_of(
            K.job_kinds()["balance"], K.job_kinds()["balance"].library()[0](**opts)
        )
    )
    assert opts["block"] == int(K.MAX_BLOCK_COST // per_game) >= 1  # kept for the resume
    assert opts["block"] * per_game <= K.MAX_BLOCK_COST < (opts["block"] + 1) * per_game
    assert built.games == 9 * 20
    with pytest.raises(UsageError, match="--block: expected at most"):
        K.build("balance", opts | {"block": opts["block"] + 1})
    # the scripted players keep the command's block
    plain = {"armies": ARMIES.split(","), "games_per_pairing": 20}
    K.build("balance", plain)
    assert "block" not in plain


def test_policy_costs():
    from manoeuvre_sim.core.games import get_game

    m, h = get_game("manoeuvre"), get_game("hex")
    assert m.policy_cost("tuned") == m.policy_cost("random") == 0.5  # two seats: one game

    def rollouts(g, spec):
        return g.policy_cost(spec) - 0.5

    assert rollouts(m, "search:32:tuned:v2") == 2 * rollouts(m, "search:16:tuned:v2")
    assert rollouts(m, "search:16:tuned:v2") == 2 * rollouts(m, "search:16:tuned:v1")
    assert rollouts(m, "search:16:tuned") > rollouts(m, "search:16:tuned:v2") > 0
    assert h.policy_cost("capital") == 0.5
    assert rollouts(h, "search:64") == 2 * rollouts(h, "search:32") > 0


def test_a_jobs_total_is_known_before_it_plays(tmp_path):
    from manoeuvre_sim.web.jobs.manager import JobManager

    jm = JobManager(tmp_path)  # not started: the job waits in the queue
    job = jm.submit("balance", {"armies": ARMIES.split(","), "games_per_pairing": 30})
    saved = json.loads((tmp_path / job.dir / "job.json").read_text())
    assert (saved["state"], saved["done"], saved["total"]) == ("queued", 0, 9 * 30)
    w = jm.submit("whatif", {"armies": ARMIES.split(","), "games_per_pairing": 10,
                             "edits": ["France/Garde Imperial/full=7"]})  # fmt: skip
    assert w.total == 10 * (9 + 5)  # the base's 9 pairings, then France's 5 again


# ---- a running job stops within a second or two -----------------------------------------
SEARCH_JOB = {"armies": ARMIES.split(","), "policy": "search:16:tuned:v2",
              "games_per_pairing": 200, "seed": 9}  # fmt: skip


def test_a_running_search_job_is_cancelled_within_two_seconds(tmp_path):
    from manoeuvre_sim.web.jobs.manager import JobManager

    jm = JobManager(tmp_path)
    jm.start()
    try:
        job = jm.submit("balance", dict(SEARCH_JOB))
        wait(lambda: job, lambda j: j.done > 0, timeout=300)
        t0 = time.monotonic()
        jm.cancel(job.id)
        wait(lambda: job, lambda j: j.stopped is not None, timeout=30)
        took = time.monotonic() - t0
        assert took < 2.0, f"the games stopped {took:.1f} s after the cancel"
        wait(lambda: job, lambda j: j.state == "cancelled", timeout=60)  # tables written
        assert 0 < job.done < job.total
    finally:
        jm.stop()


def test_sigterm_stops_the_server_within_five_seconds_and_the_job_resumes(tmp_path):
    from benchmarks.bench_ui import free_port
    from manoeuvre_sim.web.jobs.manager import JobManager

    port = free_port()
    proc = ui_process(tmp_path, port)
    try:
        base = f"http://127.0.0.1:{port}"
        form = TINY | {"games_per_pairing": "20000", "block": "50"}  # minutes of play
        req = urllib.request.Request(
            f"{base}/jobs", data=urllib.parse.urlencode(form).encode(), method="POST",
            headers={"origin": base, "content-type": "application/x-www-form-urlencoded"},
        )  # fmt: skip
        with urllib.request.urlopen(req, timeout=30) as r:
            jid = urllib.parse.parse_qs(urllib.parse.urlsplit(r.url).query)["job"][0]

        def state():
            with urllib.request.urlopen(f"{base}/jobs/{jid}.json", timeout=5) as r:
                return json.loads(r.read())

        job = wait(state, lambda j: j["done"] > 0, timeout=120)
        t0 = time.monotonic()
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert took < 5.0, f"stopped in {took:.1f} s"
    saved = json.loads((tmp_path / job["dir"] / "job.json").read_text())
    assert saved["state"] == "running" and saved["done"] < saved["total"]
    again = JobManager(tmp_path)
    back = [j for j in again.recover() if j.id == jid]
    assert back and back[0].resume and back[0].state == "queued"


# ---- a replay asked by its seed is bounded as a job is -----------------------------------
@pytest.mark.parametrize(
    "path, flag",
    [
        ("/replay/manoeuvre?army_a=France&army_b=Russia&policy_a=search:100000:tuned",
         "--policy-a/--policy-b"),
        ("/replay/hex?policy_b=search:4096:capital:all", "--policy-a/--policy-b"),
    ],
)  # fmt: skip
def test_a_replay_whose_game_costs_too_much_is_refused(client, path, flag):
    r = client.get(path)
    assert r.status_code == 400
    assert f"{flag}: " in r.text and "a replay on the workbench may cost at most 10,000" in r.text


def test_a_value_model_file_is_refused_by_the_pages(client):
    r = client.get("/replay/manoeuvre?army_a=France&army_b=Russia"
                   "&policy_a=search:16:tuned:v2:wfoo.npz")  # fmt: skip
    assert r.status_code == 400 and "a value model file is the command line" in r.text
    r = client.post("/jobs", data=TINY | {"policy": "search:4:tuned:v2:wfoo.npz"}, headers=ORIGIN)
    assert r.status_code == 400 and "--policy: " in r.text and "value model file" in r.text
    assert not (client.studies / "jobs").exists()


def test_the_replay_bound_at_its_edge():
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.core.games import get_game
    from manoeuvre_sim.web.safety import check_players

    m = get_game("manoeuvre")
    cost = m.policy_cost("search:64:tuned:v2") + m.policy_cost("tuned")
    assert check_players(m, ["search:64:tuned:v2", "tuned"], ["a", "b"], cap=cost) == cost
    with pytest.raises(UsageError, match="may cost at most"):
        check_players(m, ["search:64:tuned:v2", "tuned"], ["a", "b"], cap=cost - 1e-6)
