"""The what-if loop's dead ends, closed (through Starlette's TestClient): the study page of a
what-if links to what changed; what changed pages its games (500 to a page), names the
winners by army, ranks every army before and after the change; the variant's replay says
it is the variant and what was edited; changed games read in % everywhere; the job forms
say their fields in words with the command's real defaults; a job takes a name, is
renamed and deleted (its study folder too, only inside the studies folder, never while it
runs), each POST from this workbench only.

``many`` is a real what-if with more than 1,000 changed games: France's Supply cards 4 -> 5
(a Withdraw fewer, the deck kept at 60) changes the deals, so about a third of France's
games end otherwise (random players: it plays in seconds)."""

from __future__ import annotations

import html
import json
import re

import pandas as pd
import pytest

from tests.web.server import finished as done
from tests.web.server import wait
from tests.web.study_fixtures import run_cli, studies_root  # noqa: F401 - a fixture
from tests.web.test_jobs import ORIGIN, job_of

MANY = ["whatif", "--armies", "France,Russia", "--set", "France/cards/Supply=5",
        "--games-per-pairing", "1000", "--policy", "random"]  # fmt: skip


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """A studies folder holding ``many``: the what-if with more than two pages of changed
    games."""
    root = tmp_path_factory.mktemp("many")
    run_cli([*MANY, "--threads", "1", "--quiet", "--out", str(root / "many")])
    return root


@pytest.fixture(scope="module")
def app_many(many):
    from manoeuvre_sim.web.app import create_app
    from tests.web.server import local_client

    with local_client(create_app(many, run_jobs=False), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def app_fixtures(studies_root):  # noqa: F811 - the fixture
    from manoeuvre_sim.web.app import create_app
    from tests.web.server import local_client

    with local_client(create_app(studies_root, run_jobs=False),
                    raise_server_exceptions=False) as c:  # fmt: skip
        yield c


def cells(text: str, cls: str) -> list[str]:
    return [html.unescape(x) for x in re.findall(rf'<td class="[^"]*{cls}[^"]*">([^<]*)<', text)]


def numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r'<td class="n">(\d+)</td>', text)]


# ---- the study page links to what changed ---------------------------------------------


@pytest.mark.parametrize("rel", ["whatif", "hex/whatif"])
def test_the_whatif_study_page_links_to_what_changed(app_fixtures, rel):
    r = app_fixtures.get("/study", params={"dir": rel})
    assert r.status_code == 200
    link = re.search(r'id="whatif-changed"><strong><a href="([^"]+)"', r.text)
    assert link, "no link to what changed"
    assert app_fixtures.get(html.unescape(link.group(1))).status_code == 200


def test_a_balance_study_has_no_what_changed_link(app_fixtures):
    assert 'id="whatif-changed"' not in app_fixtures.get("/study?dir=balance").text


# ---- paging ---------------------------------------------------------------------------


def test_changed_games_are_paged_500_to_a_page_to_the_last(app_many, many):
    from manoeuvre_sim.analyses.common.whatif_changes import changed_outcomes

    every, total = changed_outcomes(many / "many", limit=10**9)
    assert total > 1000 and len(every) == total
    pages = -(-total // 500)
    first = app_many.get("/whatif/changed?dir=many")
    assert first.status_code == 200 and numbers(first.text) == list(range(1, 501))
    assert f"page 1 of {pages}" in first.text and "‹ previous" not in first.text
    second = app_many.get("/whatif/changed?dir=many&page=2")
    assert second.status_code == 200 and numbers(second.text) == list(range(501, 1001))
    assert f"Games 501–1,000 of {total:,}" in second.text
    shown = [int(x) for x in re.findall(r"<td>(\d+)</td><td class=\"name winner-base", second.text)]
    assert shown == every["game"].iloc[500:1000].tolist()  # the 501st to the 1000th game
    last = app_many.get(f"/whatif/changed?dir=many&page={pages}")
    assert numbers(last.text) == list(range(500 * (pages - 1) + 1, total + 1))
    assert "next ›" not in last.text and "‹ previous" in last.text
    beyond = app_many.get(f"/whatif/changed?dir=many&page={pages + 1}")
    assert beyond.status_code == 400
    line = re.search(r'<p class="error" id="error-message">([^<]*)</p>', beyond.text).group(1)
    assert line == (f"--page: expected a page from 1 to {pages} ({total:,} changed games, "
                    f"500 to a page), got {pages + 1}")  # fmt: skip
    for bad, said in (("0", "expected an integer >= 1, got 0"), ("x", "is not a valid integer")):
        r = app_many.get(f"/whatif/changed?dir=many&page={bad}")
        assert r.status_code == 400 and said in html.unescape(r.text)


def test_a_study_without_changed_games_has_one_page(app_fixtures):
    r = app_fixtures.get("/whatif/changed?dir=hex/whatif&page=1")
    assert r.status_code == 200 and "pager-top" not in r.text
    assert app_fixtures.get("/whatif/changed?dir=hex/whatif&page=2").status_code == 400


# ---- winners by name ------------------------------------------------------------------


def test_winners_are_the_armies_names(app_many, many):
    from manoeuvre_sim.analyses.common.whatif_changes import changed_outcomes

    games, _ = changed_outcomes(many / "many")
    r = app_many.get("/whatif/changed?dir=many")
    base, variant = cells(r.text, "winner-base"), cells(r.text, "winner-variant")
    assert len(base) == len(games) == 500
    assert set(base) | set(variant) <= {"France", "Russia", "France (A)", "France (B)", "draw"}

    def named(code, a, b):
        if code in ("a", "b") and a == b:
            return f"{a} ({code.upper()})"
        return {"a": a, "b": b}.get(code, code)

    want = [named(w, a, b) for w, a, b in zip(games["winner_base"], games["army_a"],
                                              games["army_b"], strict=True)]  # fmt: skip
    assert base == want
    assert not {"a", "b"} & set(base + variant)


def test_maneuvers_changed_games_name_the_players_and_sides(tmp_path):
    from manoeuvre_sim.analyses.common.whatif_changes import changed_outcomes
    from manoeuvre_sim.web.app import create_app
    from tests.web.server import local_client

    run_cli(["hex", "whatif", "--set", "blue/infantry/strength=5", "--games-per-pairing", "30",
             "--policies", "random", "--threads", "1", "--quiet", "--out",
             str(tmp_path / "hw")])  # fmt: skip
    games, total = changed_outcomes(tmp_path / "hw")
    assert total > 0 and set(games["army_a"]) == {"blue"}
    with local_client(create_app(tmp_path, run_jobs=False)) as c:
        r = c.get("/whatif/changed?dir=hw")
    got = cells(r.text, "winner-base") + cells(r.text, "winner-variant")
    assert set(got) <= {"random (blue)", "random (red)", "draw"} and len(got) == 2 * total
    # the variant is a scenario file the replay page does not play: no link that fails
    assert r.text.count("variant: not replayable") == total
    assert "label=variant" not in r.text


def test_a_maneuver_winner_is_its_player_and_side():
    from manoeuvre_sim.web.studies.whatif_changed import winner_name

    seats = ("blue", "red")  # Maneuver's (its web module's WHATIF_PAGES)
    assert winner_name("a", "capital", "attrition", seats) == "capital (blue)"
    assert winner_name("b", "capital", "capital", seats) == "capital (red)"
    assert winner_name("draw", "France", "Russia", None) == "draw"
    assert winner_name("b", "France", "Russia", None) == "Russia"


# ---- the ranking before and after -----------------------------------------------------


def test_every_army_is_ranked_before_and_after_with_intervals(app_many, many):
    from manoeuvre_sim.analyses.manoeuvre.whatif import rankings

    want = rankings(many / "many")
    assert sorted(want["army"]) == ["France", "Russia"]
    r = app_many.get("/whatif/changed?dir=many")
    assert "The ranking of all armies, before and after" in r.text
    rows = re.findall(r'<tr data-army="([^"]+)" data-before="(\d+)" data-after="(\d+)"', r.text)
    assert rows == [(a, str(b), str(c)) for a, b, c in zip(
        want["army"], want["before_rank"], want["after_rank"], strict=True)]  # fmt: skip
    table = r.text.split('id="ranking"')[1].split("</table>")[0]
    assert table.count("[") >= 4 * len(want)  # each rating's and rate's interval, twice
    france = want.set_index("army").loc["France"]
    assert f"{france.before_rating:+.0f}" in table and f"{france.after_rating:+.0f}" in table
    # the games differ only where France plays: Russia v Russia is the same in both
    assert france.before_field_win_rate != france.after_field_win_rate


def test_a_change_to_nothing_ranks_alike_before_and_after(tmp_path):
    from manoeuvre_sim.analyses.manoeuvre.whatif import rankings

    run_cli(["whatif", "--armies", "France,Russia,Prussia", "--set",
             "France/Garde Imperial/full=8", "--games-per-pairing", "10", "--policy", "random",
             "--threads", "1", "--quiet", "--out", str(tmp_path / "same")])  # fmt: skip
    r = rankings(tmp_path / "same", boot=20)
    assert len(r) == 3
    for col in ("rank", "rating", "rating_low", "field_win_rate", "ci_high", "games"):
        assert (r[f"before_{col}"] == r[f"after_{col}"]).all(), col


# ---- the variant's replay -------------------------------------------------------------


def h1(text: str) -> str:
    return html.unescape(re.search(r"<h1>(.*?)</h1>", text).group(1))


def test_the_variants_replay_is_titled_apart_from_the_bases(app_many, many):
    r = app_many.get("/whatif/changed?dir=many")
    base, variant = re.findall(r'<a href="(/replay/manoeuvre\?[^"]+)">', r.text)[:2]
    tb = h1(app_many.get(html.unescape(base)).text)
    tv = h1(app_many.get(html.unescape(variant)).text)
    assert tb != tv
    assert tb.endswith("· base (before the edit)")
    changes = json.loads((many / "many" / "manifest.json").read_text())["variant"]["changes"]
    assert tv.endswith("· variant: " + "; ".join(changes)), tv
    assert "France / cards / Supply: 4 -> 5" in tv
    assert tb.split(" · base")[0] == tv.split(" · variant")[0]  # the same game, seed


def test_a_balance_studys_replay_title_is_unchanged(app_fixtures):
    r = app_fixtures.get("/replay/manoeuvre?study=balance&pairing=0&game=0")
    assert r.status_code == 200 and "· base" not in h1(r.text) and "variant" not in h1(r.text)


# ---- changed games in % ---------------------------------------------------------------


def test_changed_games_read_in_percent_on_both_pages(app_many, many):
    w = pd.read_csv(many / "many" / "whatif.csv")
    share = f"{100 * w['changed_games'].iloc[0]:.1f}%"
    study = app_many.get("/study?dir=many").text
    table = study.split('id="table-whatif"')[1].split("</table>")[0]
    assert share in table
    assert not re.search(rf">{w['changed_games'].iloc[0]:.4g}<", table)
    changed = app_many.get("/whatif/changed?dir=many").text
    assert share in changed.split('id="cells"')[1].split("</table>")[0]
    summary = (many / "many" / "summary.txt").read_text()
    assert f"outcome changed in {share[:-1]} % of" in summary  # the summary's unit too


# ---- the forms ------------------------------------------------------------------------


@pytest.mark.parametrize("address", ["/jobs/new", "/whatif/new"])
def test_form_labels_are_words_and_the_policy_default_is_the_librarys(client, address):
    from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

    r = client.get(address)
    assert r.status_code == 200
    labels = re.findall(r'<span class="words">([^<]+)</span> <input name="([a-z_]+)"', r.text)
    by_name = {n: w for w, n in labels}
    assert by_name["games_per_pairing"] == "Games per pairing"
    assert by_name["seed"] == "Seed" and by_name["policy"] == "Player (policy)"
    assert by_name["job_name"] == "Job name"
    assert '<code class="flag">--games-per-pairing</code>' in r.text  # the flag, as a hint
    assert not re.search(r"<label>--", r.text)  # no label is a bare flag
    policy = re.search(r'<input name="policy" value="([^"]*)" placeholder="([^"]*)"', r.text)
    assert policy.groups() == (DEFAULT_POLICY, DEFAULT_POLICY)
    assert "balanced" not in r.text


def test_the_maneuver_forms_show_the_commands_default_players(client):
    from manoeuvre_sim.hexgame.variants import DEFAULT_POLICIES

    for address in ("/jobs/new?game=hex", "/whatif/new?game=hex"):
        r = client.get(address)
        got = re.search(r'<input name="policies" value="([^"]*)"', r.text).group(1)
        assert got == ",".join(DEFAULT_POLICIES), address
        assert '<span class="words">Players</span>' in r.text


# ---- naming, renaming, deleting a job -------------------------------------------------

TINY = {"game": "manoeuvre", "armies": "France,Russia", "games_per_pairing": "4",
        "policy": "random", "seed": "2", "block": "4"}  # fmt: skip


CONFIRM = {"confirm": "delete"}  # the delete page's button


def _submit(client, name: str = "") -> dict:
    r = client.post("/jobs", data=TINY | {"job_name": name}, headers=ORIGIN,
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303, r.text
    return wait(lambda: job_of(client, r.headers["location"]), done)


def test_a_job_is_named_at_submission_renamed_and_deleted(client):
    job = _submit(client, "  Garde   test <b>1</b> ")
    assert job["state"] == "done" and job["name"] == "Garde test <b>1</b>"
    page = client.get("/jobs").text
    assert '<strong class="job-name">Garde test &lt;b&gt;1&lt;/b&gt;</strong>' in page
    folder = client.studies / job["dir"]
    assert json.loads((folder / "job.json").read_text())["name"] == "Garde test <b>1</b>"
    form = client.get(f"/jobs/{job['id']}/rename")
    assert form.status_code == 200 and 'value="Garde test &lt;b&gt;1&lt;/b&gt;"' in form.text
    r = client.post(f"/jobs/{job['id']}/rename", data={"job_name": "second try"},
                    headers=ORIGIN, follow_redirects=False)  # fmt: skip
    assert r.status_code == 303 and client.get(f"/jobs/{job['id']}.json").json()["name"] == (
        "second try")  # fmt: skip
    assert json.loads((folder / "job.json").read_text())["name"] == "second try"
    long = client.post(f"/jobs/{job['id']}/rename", data={"job_name": "x" * 81}, headers=ORIGIN)
    assert long.status_code == 400
    assert "--job-name: expected at most 80 characters, got 81" in long.text
    confirm = client.get(f"/jobs/{job['id']}/delete")
    assert confirm.status_code == 200 and job["dir"] in confirm.text and "Keep it" in confirm.text
    assert folder.is_dir()  # the confirm page deletes nothing, nor a POST without its button
    r = client.post(f"/jobs/{job['id']}/delete", data={"x": "1"}, headers=ORIGIN)
    assert r.status_code == 400 and "--confirm: expected &#39;delete&#39;" in r.text
    assert folder.is_dir()
    r = client.post(f"/jobs/{job['id']}/delete", data=CONFIRM, headers=ORIGIN,
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303 and not folder.exists()
    assert client.get(f"/jobs/{job['id']}.json").status_code == 404
    assert job["id"] not in client.get("/jobs").text
    assert (client.studies / "jobs").is_dir()  # only the job's own folder went


def test_a_bad_name_at_submission_comes_back_on_the_form(client):
    r = client.post("/jobs", data=TINY | {"job_name": "y" * 90}, headers=ORIGIN)
    assert r.status_code == 400 and "--job-name: expected at most 80 characters" in r.text
    assert not (client.studies / "jobs").exists()  # nothing queued


def _planted(client, state: str, rel: str):
    """A job the manager holds in ``state`` whose folder is ``rel`` (as a job.json edited
    by hand, or a job caught running, would give it)."""
    from manoeuvre_sim.web.jobs.manager import Job

    jm = client.app.state.jobs
    job = Job("20261201-000000-abcdef", "balance", {}, rel, state=state)
    jm.jobs[job.id] = job
    return job


def test_a_running_or_queued_job_is_not_deleted(client):
    for state in ("running", "queued"):
        job = _planted(client, state, f"jobs/{state}-balance")
        folder = client.studies / job.dir
        folder.mkdir(parents=True)
        page = client.get(f"/jobs/{job.id}/delete")
        assert 'id="busy"' in page.text and "cancel it first" in page.text
        r = client.post(f"/jobs/{job.id}/delete", data=CONFIRM, headers=ORIGIN)
        assert r.status_code == 409, state
        assert f"--job: {job.id} is {state}: cancel it, then delete it" in r.text
        assert folder.is_dir() and client.app.state.jobs.get(job.id) is not None
        del client.app.state.jobs.jobs[job.id]


@pytest.mark.parametrize("rel", ["../outside", "jobs/../../outside", "jobs", "jobs/link"])
def test_delete_stays_inside_the_studies_folders_jobs(client, rel):
    outside = client.studies.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "keep.txt").write_text("keep")
    (client.studies / "jobs").mkdir(exist_ok=True)
    (client.studies / "jobs" / "other").mkdir(exist_ok=True)
    if rel == "jobs/link":
        (client.studies / rel).symlink_to(outside, target_is_directory=True)
    job = _planted(client, "done", rel)
    r = client.post(f"/jobs/{job.id}/delete", data=CONFIRM, headers=ORIGIN)
    assert r.status_code == 400
    assert "is not a folder of the studies folder&#39;s jobs/: nothing deleted" in r.text
    assert (outside / "keep.txt").read_text() == "keep"
    assert (client.studies / "jobs" / "other").is_dir()


@pytest.mark.parametrize("verb", ["rename", "delete"])
@pytest.mark.parametrize("headers", [{}, {"origin": "http://evil.example"},
                                     {"referer": "http://evil.example/jobs"},
                                     {"origin": "null"}])  # fmt: skip
def test_a_cross_origin_rename_or_delete_is_refused(client, verb, headers):
    job = _planted(client, "done", "jobs/kept-balance")
    folder = client.studies / job.dir
    folder.mkdir(parents=True, exist_ok=True)
    r = client.post(f"/jobs/{job.id}/{verb}", data={"job_name": "evil"} | CONFIRM,
                    headers=headers)  # fmt: skip
    assert r.status_code == 403
    assert folder.is_dir() and client.app.state.jobs.get(job.id).name == ""


def test_a_deleted_job_does_not_come_back_at_restart(tmp_path):
    from manoeuvre_sim.web.jobs.manager import Job, JobManager

    jm = JobManager(tmp_path)
    job = Job("20261201-000001-000000", "balance", {}, "jobs/x-balance", state="cancelled")
    jm.save(job)
    jm.recover()
    assert jm.get(job.id) is not None
    jm.delete(job.id)
    again = JobManager(tmp_path)
    again.recover()
    assert again.get(job.id) is None and not (tmp_path / "jobs/x-balance").exists()
