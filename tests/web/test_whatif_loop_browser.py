"""The what-if loop in Chromium: the what-if chart's ticks never read alike, and the loop
from the form to the result and back: a named what-if run from its form, its study page's
link to what changed (the ranking before and after, the winners by name, the replays
titled base and variant), then the job renamed and deleted from the jobs page."""

from __future__ import annotations

import json

import pytest

from tests.web.server import serve
from tests.web.study_fixtures import studies_root  # noqa: F401 (a fixture)

X_LABELS = "g.role-axis[aria-label^='X-axis'] g.role-axis-label text"


@pytest.fixture(scope="module")
def fixtures_url(studies_root):  # noqa: F811
    with serve(studies_root) as url:
        yield url


def _texts(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("els => els.map(e => e.textContent)")


def _ticks(page, spec: dict) -> list[str]:
    """The x-axis tick labels Vega draws for ``spec`` (embedded as the study pages do)."""
    page.evaluate(
        """async (spec) => {
            const el = document.createElement("div"); el.id = "probe";
            document.body.prepend(el);
            await vegaEmbed(el, spec, {renderer: "svg", actions: false});
        }""",
        spec,
    )
    labels = _texts(page, f"#probe {X_LABELS}")
    page.evaluate("() => document.getElementById('probe').remove()")
    return labels


# the ranges of a what-if's intervals: the designer's (about -5.5 % to +1 %, drawn on
# half-percent ticks), narrower and wider ones, and a change to nothing
RANGES = [(-0.055, 0.011), (-0.031, 0.006), (-0.004, 0.002), (-0.0009, 0.0004),
          (-0.12, 0.3), (0.0, 0.0)]  # fmt: skip


@pytest.mark.parametrize("lo, hi", RANGES)
def test_the_whatif_charts_ticks_never_read_alike(page, fixtures_url, lo, hi):
    from manoeuvre_sim.web.studies import charts as C

    rows = [{"pair": f"France v {o}", "delta": (lo + hi) / 2 + k * (hi - lo) / 10,
             "delta_low": lo + k * (hi - lo) / 10, "delta_high": hi - (2 - k) * (hi - lo) / 10}
            for k, o in enumerate(["Russia", "Spain", "field"])]  # fmt: skip
    spec = C.interval_bars(rows, label="pair", value="delta", low="delta_low",
                           high="delta_high", title="change", label_title="pair")  # fmt: skip
    page.goto(f"{fixtures_url}/study?dir=whatif")
    page.wait_for_selector(f"#whatif-chart {X_LABELS}")
    labels = _ticks(page, spec)
    assert len(labels) >= 2 and len(set(labels)) == len(labels), labels
    # the study page's own chart too
    own = _texts(page, f"#whatif-chart {X_LABELS}")
    assert own and len(set(own)) == len(own), own
    assert page.problems == []


def test_the_loop_from_the_form_to_what_changed_and_the_job_renamed_and_deleted(page, tmp_path):
    root = tmp_path / "studies"
    root.mkdir()
    with serve(root) as url:
        page.goto(f"{url}/whatif/new?army=France")
        assert page.locator("label.opt .words", has_text="Games per pairing").count() == 1
        page.fill("input[name=armies]", "France,Russia")
        page.fill("input[name=policy]", "random")
        page.fill("input[name=games_per_pairing]", "200")
        page.fill("textarea[name=more]", "France/cards/Supply=5")
        page.fill("input[name=job_name]", "Supply 5")
        page.click("#run")
        page.wait_for_url("**/jobs?job=*")
        row = page.locator("tr.job.shown")
        row.locator("a.result").wait_for(timeout=120_000)
        assert row.locator(".job-name").inner_text() == "Supply 5"
        jid = page.url.split("job=")[1]
        with page.expect_navigation():
            row.locator("a.result").click()
        # the study page links to what changed
        with page.expect_navigation():
            page.click("#whatif-changed a")
        assert "/whatif/changed?" in page.url
        assert page.locator("#ranking tbody tr").count() == 2
        winners = set(page.locator("#changed td.winner-base").all_inner_texts())
        assert winners and winners <= {"France", "Russia", "France (A)", "France (B)", "draw"}
        changed_url = page.url
        titles = []
        for side in ("base", "variant"):
            page.goto(changed_url)
            with page.expect_navigation():
                page.locator("#changed a", has_text=side).first.click()
            titles.append(page.locator("h1").inner_text())
        assert titles[0] != titles[1] and "variant: France / cards / Supply: 4 -> 5" in titles[1]
        # rename, then delete, from the jobs page
        page.goto(f"{url}/jobs?job={jid}")
        with page.expect_navigation():
            page.click(f"#job-{jid} a.rename")
        page.fill("#job-name", "Supply 5, 200 games")
        with page.expect_navigation():
            page.click("#rename")
        assert page.locator(f"#job-{jid} .job-name").inner_text() == "Supply 5, 200 games"
        folder = root / json.loads(page.evaluate(
            f"() => fetch('/jobs/{jid}.json').then(r => r.text())"))["dir"]  # fmt: skip
        assert folder.is_dir()
        with page.expect_navigation():
            page.click(f"#job-{jid} a.delete")
        assert "cannot be undone" in page.inner_text("#what-goes")
        with page.expect_navigation():
            page.click("#delete")
        assert page.locator(f"#job-{jid}").count() == 0 and not folder.exists()
        assert page.problems == []
