"""The /compare page and its CSV over real tiny studies (tests/web/compare_fixtures.py):
the table, the charts' specs and the provenance; the studies list's form; the refusals in
the command line's words; a hostile army name escaped; and in Chromium, two studies ticked
on the list, Compare pressed, the page drawn with no failed request."""

from __future__ import annotations

import html
import io
import json
import re
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest

from manoeuvre_sim.analyses.common import compare as C
from manoeuvre_sim.web.app import create_app
from tests.web.compare_fixtures import compare_root  # noqa: F401 (a fixture)
from tests.web.server import local_client, serve
from tests.web.study_fixtures import HOSTILE
from tests.web.test_studies import error_line, specs


@pytest.fixture(scope="module")
def web(compare_root):  # noqa: F811
    with local_client(create_app(compare_root), raise_server_exceptions=False) as c:
        yield c


def test_the_page_shows_each_army_the_charts_and_both_provenances(web, compare_root):  # noqa: F811
    r = web.get("/compare?a=random&b=simple")
    assert r.status_code == 200
    cmp = C.compare(compare_root / "random", compare_root / "simple")
    assert "<strong>Paired:</strong>" in r.text
    tau = re.search(r'id="tau">(.*?)</p>', r.text, re.S).group(1)
    assert f"{cmp.tau:.3f}" in tau and f"[{cmp.tau_low:.2f}, {cmp.tau_high:.2f}]" in tau
    body = re.search(r'<table[^>]*id="compare-table".*?</table>', r.text, re.S).group(0)
    rows = re.findall(r"<tr[^>]*>\s*<td class=\"name\" data-sort=\"([^\"]*)\"", body)
    assert len(rows) == 3
    for rec in cmp.table.to_dict("records"):
        assert f"{100 * rec['diff']:+.1f} pts" in body
    s = specs(r.text)
    assert set(s) == {"compare-diff-chart", "compare-cells-chart"}
    diffs = s["compare-diff-chart"]["data"]["values"]
    assert sorted(round(d["diff"], 9) for d in diffs) == sorted(  # in points, as the table
        round(100 * x, 9) for x in cmp.table["diff"]
    )
    cells = s["compare-cells-chart"]["data"]["values"]
    assert len(cells) == 6
    for c in cells:  # the difference in points, starred when it moved beyond its interval
        n = round(c["diff"])
        assert c["text"] == (f"{n:+d}" if n else "0") + ("*" if c["moved"] else "")
    assert sorted(round(c["diff"], 9) for c in cells) == sorted(
        round(100 * x, 9) for x in cmp.cells["diff"]
    )
    for key in ("a", "b"):
        prov = re.search(rf'id="provenance-{key}">(.*?)</dl>', r.text, re.S).group(1)
        assert "seed" in prov and "rules" in prov and "data hash" in prov
    assert "random" in r.text and "simple" in r.text


def test_both_charts_speak_in_the_tables_points(web):
    """The table writes B - A as ``+2.3 pts``: each chart's axis, legend and tooltip read
    points (``+.1f``), none a fraction in per cent."""
    s = specs(web.get("/compare?a=random&b=simple").text)
    text = json.dumps(s)
    assert '"+.1%"' not in text
    diff = s["compare-diff-chart"]["layer"][1]["encoding"]["x"]
    assert diff["format"] == "+.1f" and "points" in diff["title"]
    cells = s["compare-cells-chart"]["layer"][0]["encoding"]["color"]
    assert cells["format"] == "+.1f" and "points" in cells["title"]
    assert all("points" in t["title"] for t in s["compare-diff-chart"]["layer"][1]["encoding"]
               ["tooltip"] if t["field"].startswith("diff"))  # fmt: skip


def test_another_seed_is_shown_independent(web):
    r = web.get("/compare?a=random&b=seed2")
    assert r.status_code == 200 and "<strong>Independent:</strong>" in r.text
    assert "the master seeds differ (1 and 2)" in r.text


def test_a_study_of_two_players_offers_the_choice(web):
    r = web.get("/compare?a=both&b=random")
    assert r.status_code == 200 and 'id="labels-form"' in r.text
    assert re.search(r'<select name="label_a">.*"simple".*</select>', r.text)
    assert 'name="label_b"' not in r.text  # one label: nothing to choose
    r = web.get("/compare?a=both&b=simple&label_a=simple")
    assert 'Moved beyond its interval:</strong> <span id="moved">none' in r.text
    swap = re.search(r'class="swap" href="([^"]+)"', r.text).group(1)
    assert parse_qs(urlparse(html.unescape(swap)).query) == {
        "a": ["simple"],
        "b": ["both"],
        "label_b": ["simple"],
    }
    assert web.get("/compare").status_code == 400
    bad = web.get("/compare?a=both&b=simple&label_a=tuned")
    assert bad.status_code == 400 and "--label-a: &#39;tuned&#39; is not one of" in bad.text


def test_the_csv_is_the_library_s_table(web, compare_root):  # noqa: F811
    r = web.get("/compare.csv?a=random&b=seed2")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    got = pd.read_csv(io.StringIO(r.text))
    want = C.compare(compare_root / "random", compare_root / "seed2").table
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_series_equal(got["diff"], want["diff"], check_names=False)


def test_a_hostile_army_name_is_escaped(web):
    r = web.get("/compare?a=random&b=seed2")
    assert HOSTILE not in r.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in r.text  # in the specs


def test_the_studies_list_form_leads_to_the_page(web):
    r = web.get("/studies")
    boxes = re.findall(r'<input type="checkbox" name="study" value="([^"]+)"[^>]*?( disabled)?>',
                       r.text)  # fmt: skip
    enabled = {v for v, d in boxes if not d}
    assert {"random", "simple", "seed2", "hex", "hex2"} <= enabled
    assert not {"cards", "interrupted", "writing"} & enabled and "both" in enabled
    go = web.get("/compare?study=random&study=simple", follow_redirects=False)
    assert go.status_code == 303
    assert parse_qs(urlparse(go.headers["location"]).query) == {"a": ["random"], "b": ["simple"]}
    one = web.get("/compare?study=random")
    assert one.status_code == 400
    assert error_line(one) == "--study: tick exactly two studies to compare, got 1"


@pytest.mark.parametrize(("query", "line"), [
    ("a=random", "B: expected a study directory under the studies folder"),
    ("", "A: expected a study directory under the studies folder"),
    ("a=../etc&b=random", "A: '../etc' leaves the studies folder ('..' is refused)"),
    ("a=random&b=%2Fetc", "B: '/etc' is an absolute path"),
    ("a=random&b=hex", "compare two studies of the same game"),
    ("a=random&b=cards", "compare reads balance studies"),
    ("a=random&b=interrupted", "B: interrupted is not a finished study"),
    ("a=random&b=simple&size=3", "--size: no such parameter on this page"),
])  # fmt: skip
def test_bad_requests_are_400s_in_the_command_s_words(web, query, line):
    for path in ("/compare", "/compare.csv"):
        r = web.get(f"{path}?{query}")
        assert r.status_code == 400, (path, query)
        text = html.unescape(error_line(r))
        assert line in text, (path, text)


def test_in_chromium_two_ticked_studies_compare(page, compare_root):  # noqa: F811
    with serve(compare_root) as base:
        page.set_viewport_size({"width": 1366, "height": 820})
        page.goto(f"{base}/studies")
        page.check('input[name="study"][value="random"]')
        page.check('input[name="study"][value="simple"]')
        page.screenshot(path="/tmp/shots/33-compare-list.png")
        with page.expect_navigation():
            page.click("#compare-button")
        assert urlparse(page.url).path == "/compare"
        page.wait_for_selector("#compare-diff-chart svg")
        page.wait_for_selector("#compare-cells-chart svg")
        assert page.locator("#compare-table tbody tr").count() == 3
        assert "Paired" in page.inner_text("#pairing")
        page.screenshot(path="/tmp/shots/33-compare-page.png", full_page=True)
        page.goto(f"{base}/compare?a=random&b=seed2")
        page.wait_for_selector("#compare-cells-chart svg")
        page.screenshot(path="/tmp/shots/33-compare-independent.png", full_page=True)
        page.goto(f"{base}/compare?a=both&b=simple")
        page.select_option('select[name="label_a"]', "simple")
        with page.expect_navigation():
            page.click("#labels-form button")
        assert parse_qs(urlparse(page.url).query)["label_a"] == ["simple"]
        assert page.inner_text("#moved") == "none"
        page.screenshot(path="/tmp/shots/33-compare-labels.png")
        page.goto(f"{base}/compare?a=hex&b=hex2")
        page.wait_for_selector("#compare-cells-chart svg")
        page.screenshot(path="/tmp/shots/33-compare-hex.png", full_page=True)
        assert page.problems == []
