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


# ------------------------------------------- laid out as a person reads it, at 1366 px wide

WIDTH = 1366  # the page fixture's window (a laptop's)


@pytest.fixture(scope="module")
def eight(tmp_path_factory):
    """A server over the default study's eight armies (64 pairings, 2 games each): its
    matrix table is the one the designer saw wider than a laptop's window."""
    from tests.web.study_fixtures import run_cli

    root = tmp_path_factory.mktemp("eight") / "studies"
    run_cli(["balance", "--games-per-pairing", "2", "--policy", "random", "--threads", "1",
             "--quiet", "--out", str(root / "balance")])  # fmt: skip
    with serve(root) as url:
        yield url


def test_every_table_fits_the_window_or_scrolls_in_a_box_in_view(page, eight):
    """At 1366 px: no table's box is wider than the window, the 64-row matrix's columns fit
    its box, and a long table scrolls inside a box no taller than the window (so its own
    scroll bars are in view, not 64 rows down)."""
    page.goto(f"{eight}/study?dir=balance")
    page.wait_for_selector("#heatmap svg")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.study-table')].map(t => {
            const r = t.getBoundingClientRect(), s = t.querySelector('.scroll');
            return {id: t.id, right: r.right, inner: s.scrollWidth, outer: s.clientWidth,
                    height: s.getBoundingClientRect().height,
                    rows: t.querySelectorAll('tbody tr').length};
        })"""
    )
    assert len(boxes) >= 5
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    matrix = next(b for b in boxes if b["id"] == "table-matrix")
    assert matrix["rows"] == 64 and matrix["inner"] <= matrix["outer"], matrix
    for b in boxes:
        assert b["right"] <= WIDTH, b
        assert b["height"] <= 820, b  # the window's height
    assert page.problems == []


def _after(page, selector: str) -> str:
    return page.evaluate(f"getComputedStyle(document.querySelector({selector!r}), '::after')"
                         ".content")  # fmt: skip


def test_a_sorted_column_shows_its_direction(page, base):
    page.goto(f"{base}/study?dir=balance")
    rank = "#table-armies th[aria-sort='ascending']"
    assert page.inner_text(rank).strip().startswith("rank")
    assert "▲" in _after(page, rank)  # the ratings arrive ranked: the rank's arrow says so
    rating = page.locator("#table-armies th", has_text="rating")
    assert "↕" in _after(page, "#table-armies th:not([aria-sort='ascending'])")
    rating.click()
    assert "▲" in _after(page, "#table-armies th.sorted-asc")
    assert page.inner_text("#table-armies th.sorted-asc").startswith("rating")
    rating.click()
    assert "▼" in _after(page, "#table-armies th.sorted-desc")
    assert page.locator("#table-armies th.sorted-asc").count() == 0
    assert page.problems == []


def test_a_heatmap_cell_reads_its_rate_and_interval_and_the_diagonal_the_first_mover(page, base):
    page.goto(f"{base}/study?dir=balance")
    page.wait_for_selector("#heatmap svg g.mark-text text")
    drawn = page.locator("#heatmap svg g.mark-text text").all_text_contents()
    spec = page.evaluate("JSON.parse(document.querySelector('script.vega-spec').textContent)")
    for c in spec["data"]["values"]:
        assert c["text"] in drawn and c["sub"] in drawn, c
    assert sum(t.startswith("1st ") for t in drawn) == 3
    assert sum("–" in t for t in drawn) == 9
    assert page.problems == []


def test_the_length_chart_ticks_whole_turns_under_their_bars(page, base):
    page.goto(f"{base}/study/pairing?dir=balance&pairing=1")
    page.wait_for_selector("#lengths-chart svg g.mark-rect path")
    found = page.evaluate(
        """() => {
            const svg = document.querySelector('#lengths-chart svg');
            const ticks = [...svg.querySelectorAll('g.role-axis-label text')]
                .filter(t => t.closest('g.role-axis').querySelector('.role-axis-title text')
                                .textContent.startsWith('game length'))
                .map(t => ({text: t.textContent, x: t.getBoundingClientRect().x
                                                    + t.getBoundingClientRect().width / 2}));
            const bars = [...svg.querySelectorAll('g.mark-rect path')].map(p => {
                const r = p.getBoundingClientRect(); return {x: r.x + r.width / 2, w: r.width};
            });
            return {ticks, bars};
        }"""
    )
    ticks, bars = found["ticks"], found["bars"]
    assert ticks and all(re.fullmatch(r"\d+", t["text"]) for t in ticks), ticks
    at = [t["x"] for t in ticks]
    for b in bars:  # each bar's centre is on a tick (its turn), within a pixel
        assert min(abs(b["x"] - x) for x in at) < 1.0, (b, at)
    assert page.problems == []


def test_the_hex_variant_page_is_not_a_scroll_of_rows(page, base):
    page.goto(f"{base}/study?dir=hex%2Fbalance")
    page.wait_for_selector("#fell-blue svg")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 6000, height
    assert page.locator("#table-capital_fell details:not([open])").count() == 1
    assert page.problems == []
