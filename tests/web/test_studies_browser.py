"""The study pages in Chromium: a click on the balance heatmap's cell opens its pairing, a
game of it opens its replay; tables sort; the card chart finds a card by name."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.web.server import serve
from tests.web.study_fixtures import HOSTILE, studies_root  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def base(studies_root):  # noqa: F811
    with serve(studies_root) as url:
        yield url


def _cell_point(page, target: str, row: str, col: str) -> dict:
    """Where on the page the heatmap's (row, col) cell is: from the Vega view's scenegraph
    (the rect mark's item for that datum), near its top-left corner so the rate's text does
    not take the click."""
    return page.evaluate(
        """([target, row, col]) => {
            const el = document.getElementById(target);
            const view = el.vegaView;
            const [ox, oy] = view.origin();
            const box = el.querySelector("svg").getBoundingClientRect();
            let found = null;
            const walk = (node) => {
                if (found || !node) return;
                if (node.marktype === "rect" && node.items) {
                    for (const it of node.items) {
                        if (it.datum && it.datum.army === row && it.datum.opponent === col) {
                            found = it.bounds; return;
                        }
                    }
                }
                (node.items || []).forEach(walk);
            };
            walk(view.scenegraph().root);
            return found && {x: box.left + ox + found.x1 + 10, y: box.top + oy + found.y1 + 10};
        }""",
        [target, row, col],
    )


def test_a_heatmap_cell_opens_its_pairing_and_a_game_its_replay(page, base):
    page.goto(f"{base}/study?dir=balance")
    page.wait_for_function("document.getElementById('heatmap').vegaView !== undefined")
    point = _cell_point(page, "heatmap", "France", "Russia")
    assert point is not None
    page.mouse.move(point["x"] + 20, point["y"] + 30)
    page.mouse.move(point["x"], point["y"], steps=4)
    page.wait_for_selector("#vg-tooltip-element.visible")
    tip = page.inner_text("#vg-tooltip-element")
    assert "95% interval" in tip and "games" in tip and "France" in tip
    with page.expect_navigation():
        page.mouse.click(point["x"], point["y"])
    url = urlparse(page.url)
    assert url.path == "/study/pairing" and parse_qs(url.query)["dir"] == ["balance"]
    title = page.inner_text("#pairing-title")
    assert re.search(r"France.*seat a.*Russia.*seat b", title, re.S)
    page.wait_for_selector("#lengths-chart svg")
    with page.expect_navigation():
        page.click("#table-games tbody tr:first-child a")
    # the replay pages are another group's: until they are merged this address is a 404,
    # so only the address is checked
    pairing = parse_qs(url.query)["pairing"][0]
    assert page.url == f"{base}/replay/manoeuvre?study=balance&pairing={pairing}&game=0"
    assert page.problems == []


def test_a_table_sorts_by_a_column_and_back(page, base):
    page.goto(f"{base}/study?dir=balance")
    head = page.locator("#table-armies th", has_text="rating")
    cells = "#table-armies tbody td:nth-child(2)"
    head.click()
    up = page.locator(cells).all_inner_texts()
    head.click()
    down = page.locator(cells).all_inner_texts()
    assert up == list(reversed(down)) and up != down
    assert page.problems == []


def test_the_card_chart_finds_a_card_by_name(page, base):
    page.goto(f"{base}/study?dir=cards")
    page.wait_for_selector("#cards-chart svg")
    assert page.locator("#cards-chart svg g.mark-text.role-mark text").count() == 0
    page.fill("#cards-chart .vega-bindings input", "Garde")
    page.wait_for_function(
        "document.querySelectorAll('#cards-chart svg g.mark-text.role-mark text').length > 0"
    )
    named = page.locator("#cards-chart svg g.mark-text.role-mark text").all_text_contents()
    assert named and all("Garde" in n for n in named)
    assert page.problems == []


def test_a_hostile_name_in_a_tooltip_is_text(page, base):
    page.goto(f"{base}/study?dir=balance")
    page.wait_for_function("document.getElementById('heatmap').vegaView !== undefined")
    point = _cell_point(page, "heatmap", HOSTILE, "France")
    page.mouse.move(point["x"] + 20, point["y"] + 30)
    page.mouse.move(point["x"], point["y"], steps=4)
    page.wait_for_selector("#vg-tooltip-element.visible")
    assert HOSTILE in page.inner_text("#vg-tooltip-element")
    assert page.locator("#vg-tooltip-element script").count() == 0
    assert page.evaluate("document.querySelectorAll('main script:not([src]):not(.vega-spec)')"
                         ".length") == 0  # fmt: skip
    assert page.problems == []
