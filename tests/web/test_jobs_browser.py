"""What-if and jobs in Chromium (issue 33, parts 1 and 2): an edit run from the page to its
result (a change to nothing gives zero everywhere; a much stronger army rises beyond its
interval), the progress bar seen moving, cancel and reload mid-job, and a server killed
mid-job (``kill -9``) and started again, which resumes the job with its store intact."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.web.server import free_port, serve, ui_process

ARMIES = "France,Russia,Prussia"
SHOTS = Path("/tmp/shots")


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"33-jobs-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("studies")
    with serve(root) as url:
        yield url, root


def _run_whatif(page, url: str, root: Path, fill, games: int = 20) -> Path:
    page.goto(f"{url}/whatif/new?army=France")
    page.fill("input[name=armies]", ARMIES)
    page.fill("input[name=games_per_pairing]", str(games))
    fill(page)
    page.click("#run")
    page.wait_for_url("**/jobs?job=*")
    row = page.locator("tr.job.shown")
    row.locator("a.result").wait_for(timeout=60_000)
    assert row.get_attribute("data-state") == "done"
    with page.expect_navigation():
        row.locator("a.result").click()
    rel = page.url.split("dir=")[1].replace("%2F", "/")
    return root / rel


def test_a_change_to_nothing_gives_zero_everywhere(page, site):
    url, root = site
    out = _run_whatif(
        page, url, root, lambda p: p.fill("textarea[name=more]", "France/1st Cuirassiers/full=7")
    )
    w = pd.read_csv(out / "whatif.csv")
    assert len(w) and (w["delta"] == 0).all() and (w["delta_low"] == 0).all()
    f = pd.read_csv(out / "whatif_field.csv")
    assert (f.filter(like="delta") == 0).all().all()
    assert "What-if deltas" in page.content()
    shot(page, "noop-result")
    rel = out.relative_to(root).as_posix()
    page.goto(f"{url}/whatif/changed?dir={rel}")
    assert page.locator("#no-changed").count() == 1
    assert page.locator("#cells tr.moved").count() == 0
    assert page.problems == []


def test_a_much_stronger_army_rises_beyond_its_interval(page, site):
    url, root = site

    def stronger(p):
        n = p.locator("#units tbody tr").count()
        for i in range(n):
            p.fill(f"input[name=u{i}_full]", "30")

    out = _run_whatif(page, url, root, stronger)
    f = pd.read_csv(out / "whatif_field.csv").set_index("army")
    low = [c for c in f.columns if c.endswith("low") and "delta" in c][0]
    assert f.loc["France", low] > 0, f
    shot(page, "stronger-result")
    # the changed page: France against the field marked as moved, each changed game listed
    # (as many as the table's shares say) with its replays
    from manoeuvre_sim.analyses.common.whatif_changes import changed_outcomes

    page.goto(f"{url}/whatif/changed?dir={out.relative_to(root).as_posix()}")
    moved = page.locator("#cells tr.moved")
    assert "field" in " ".join(moved.all_inner_texts())
    w = pd.read_csv(out / "whatif.csv")
    off = w[w["opponent"] != "field"]
    _, total = changed_outcomes(out)
    mirror = total - round(float((off["changed_games"] * off["games"]).sum()))
    assert total > 0 and 0 <= mirror <= 20  # France v France's changed games, not in the table
    assert page.locator("#changed tbody tr").count() == total
    shot(page, "changed")
    changed_url = page.url
    for side in ("base", "variant"):  # each replayed and checked against its record
        page.goto(changed_url)
        with page.expect_navigation() as nav:
            page.locator("#changed a", has_text=side).first.click()
        assert nav.value.status == 200, side
        assert "/replay/manoeuvre" in page.url and f"label={side}" in page.url
        assert page.locator("#board svg").count() == 1
    assert page.problems == []


def test_the_bar_moves_and_a_job_cancels_and_reloads(page, site):
    url, root = site
    page.goto(f"{url}/jobs/new")
    page.fill("input[name=armies]", ARMIES)
    # the most a job may play (180,000 games, 40 s or more): the test cancels it long before
    # its end however fast the machine is
    page.fill("input[name=games_per_pairing]", "20000")
    page.evaluate("""() => { const f = document.getElementById('job-form');
        const b = document.createElement('input'); b.type = 'hidden'; b.name = 'block';
        b.value = '50'; f.appendChild(b); }""")
    shot(page, "new-form")
    page.click("#run")
    page.wait_for_url("**/jobs?job=*")
    bar = "tr.job.shown progress.bar"
    seen = set()
    t0 = time.monotonic()
    while len(seen) < 3 and time.monotonic() - t0 < 60:
        v = page.get_attribute(bar, "value")
        if v and int(v) > 0:
            seen.add(int(v))
        time.sleep(0.2)
    assert len(seen) >= 2, seen  # the bar moved
    assert "games/s" in page.inner_text("tr.job.shown")
    shot(page, "running")
    cancel(page)
    page.reload()
    page.locator("tr.job.shown[data-state=cancelled]").wait_for(timeout=30_000)
    row = page.locator("tr.job.shown")
    done, total = int(row.get_attribute("data-done")), int(row.get_attribute("data-total"))
    assert 0 < done < total
    shot(page, "cancelled")
    assert page.problems == []  # a poll aborted by the cancel's navigation is not one


def cancel(page) -> None:
    """Click Cancel until its POST is answered and the page it redirects to has loaded: the
    list is redrawn twice a second, and a click that lands on a row being replaced submits
    nothing; a caller's reload before that page loads would abort it."""
    for _ in range(5):
        try:
            with (
                page.expect_navigation(timeout=10_000),
                page.expect_response(lambda r: r.url.endswith("/cancel"), timeout=3000),
            ):
                page.click("tr.job.shown button.cancel")
            return
        except Exception:  # noqa: BLE001 - a redrawn row: click again
            continue
    raise AssertionError("the cancel button never posted")


def test_a_server_killed_mid_job_resumes_it_at_restart(page, tmp_path):
    port = free_port()
    proc = ui_process(tmp_path, port)
    try:
        page.goto(f"http://127.0.0.1:{port}/jobs/new")
        page.fill("input[name=armies]", ARMIES)
        # 27,000 games, some 6 s at 5,000 games/s: the kill, once 200 are done (the state is
        # written every 0.4 s), comes long before the end (3,600 games could end first)
        page.fill("input[name=games_per_pairing]", "3000")
        page.evaluate("""() => { const f = document.getElementById('job-form');
            const b = document.createElement('input'); b.type = 'hidden'; b.name = 'block';
            b.value = '50'; f.appendChild(b); }""")
        page.click("#run")
        page.wait_for_url("**/jobs?job=*")
        jid = page.url.split("job=")[1]
        state = next((tmp_path / "jobs").glob(f"{jid}-*/job.json"))
        t0 = time.monotonic()
        while json.loads(state.read_text())["done"] < 200 and time.monotonic() - t0 < 60:
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    saved = json.loads(state.read_text())
    assert saved["state"] == "running" and saved["done"] >= 200
    store = state.parent / "games.parquet"
    parts = {p.name: p.stat().st_size for p in store.glob("*.parquet")}
    assert len(parts) >= 4 and not list(store.glob("*.tmp*"))
    assert not (state.parent / "matrix.csv").exists()
    proc = ui_process(tmp_path, port)
    try:
        page.goto(f"http://127.0.0.1:{port}/jobs?job={jid}")
        page.locator("tr.job.shown[data-state=done]").wait_for(timeout=90_000)
        assert "resumed at restart" in page.inner_text("tr.job.shown")
        shot(page, "resumed")
    finally:
        proc.terminate()
        proc.wait(10)
    after = {p.name: p.stat().st_size for p in store.glob("*.parquet")}
    assert {k: after[k] for k in parts} == parts  # the parts written before the kill kept
    m = json.loads((state.parent / "manifest.json").read_text())
    assert m["games"] == 9 * 3000 and not m["interrupted"]
