"""The odds pages in Chromium (issue 32): typing redraws the chart and the table with the
CLI's figures, the address after typing reproduces the result in a fresh page, a malformed
value shows the CLI's error line, and the Maneuver page adds scenario units by click."""

from __future__ import annotations

import re

import pytest

from tests.web.server import serve
from tests.web.test_odds import cli


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("studies")) as url:
        yield url


def exact_column(page) -> dict[str, str]:
    out = {}
    for row in page.locator("#odds-table tbody tr").all():
        out[row.get_attribute("data-result")] = row.locator("td").nth(1).inner_text().strip()
    return out


def bars(page) -> int:
    return page.locator("#odds-chart svg .mark-rect path").count()


def test_typing_redraws_and_the_link_reproduces(page, base, capsys):
    page.goto(f"{base}/odds/manoeuvre/assault")
    page.wait_for_selector("#odds-chart svg")
    before = exact_column(page)
    page.fill("#f-defense", "9")  # typing: htmx redraws after 250 ms
    page.wait_for_function(
        "document.querySelector('#odds-title').textContent.includes('vs defense 9')"
    )
    page.wait_for_selector("#odds-chart svg .mark-rect path", state="attached")
    assert bars(page) == 6
    after = exact_column(page)
    assert after != before
    _, out, _ = cli(capsys, ["odds", "assault", "--strength", "4", "--dice", "2d8",
                             "--defense", "9"])  # fmt: skip
    expected = dict(re.findall(r"^(\w+)\s+([\d.]+%)$", out, re.M))
    assert after == expected
    assert "defense=9" in page.url  # the address holds the whole input
    link = page.url

    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.wait_for_selector("#odds-chart svg .mark-rect path", state="attached")
    assert exact_column(fresh) == expected
    assert fresh.input_value("#f-defense") == "9"
    assert page.problems == []


def test_view_switch_and_error_line(page, base):
    from playwright.sync_api import expect

    page.goto(f"{base}/odds/manoeuvre/pursuit?card=4&card=3")
    page.wait_for_selector("#odds-chart svg")
    page.click('button[data-view="at_least"]')
    page.wait_for_selector('button[data-view="at_least"].current')
    assert "view=at_least" in page.url
    # the button is marked at once; Vega draws the new chart a moment later
    expect(page.locator("#odds-chart")).to_contain_text("P(at least)")
    page.goto(f"{base}/odds/manoeuvre/assault")
    page.fill("#f-defense", "-3")
    page.wait_for_selector("#odds-result #error-message")
    assert page.inner_text("#error-message") == "--defense: expected an integer >= 0, got -3"
    page.fill("#f-defense", "5")  # and back to a result
    page.wait_for_selector("#odds-chart svg")
    assert page.problems == []


def test_hex_flow(page, base, capsys):
    page.goto(f"{base}/odds/hex")
    page.wait_for_selector("#odds-chart svg")
    page.fill('input[name="attack"]', "")
    page.click('button.odds-add[data-target="attack"][data-token="5"]')  # artillery
    page.check("#odds-flag-u")  # the next unit unsupplied (rule [9])
    page.click('button.odds-add[data-target="attack"][data-token="4"]')  # infantry
    page.check('input[name="step_losses"]')
    page.wait_for_function(
        "document.querySelector('#odds-title').textContent.includes('Attack 5+4u = 7') && "
        "document.querySelector('#odds-result').textContent.includes('step losses [13].3')"
    )
    page.wait_for_selector("#odds-chart svg .mark-rect path", state="attached")
    _, out, _ = cli(capsys, ["hex", "odds", "combat", "--attack", "5,4u", "--defend", "4",
                             "--step-losses"])  # fmt: skip
    expected = dict(re.findall(r"^(AE|AR|NE|DR|DE)\s.*?\d+/36\s+([\d.]+%)", out, re.M))
    shown = {
        r.get_attribute("data-result"): r.locator("td").nth(3).inner_text().strip()
        for r in page.locator("#odds-table tbody tr").all()
    }
    assert shown == expected
    assert "step_losses=on" in page.url and "attack=5%2C4u" in page.url
    page.screenshot(path="/tmp/shots/odds-hex-flow.png")
    assert page.problems == []


def test_the_address_drops_empty_fields_and_a_bad_field_is_marked(page, base):
    page.goto(f"{base}/odds/manoeuvre/assault")
    page.wait_for_selector("#odds-chart svg")
    page.fill("#f-defense", "-3")
    page.wait_for_selector("#f-defense[aria-invalid=true]")
    assert page.text_content("#err-defense") == "--defense: expected an integer >= 0, got -3"
    assert page.get_attribute("#f-defense", "aria-describedby") == "err-defense"
    page.fill("#f-defense", "7")
    page.wait_for_function(
        "document.querySelector('#odds-title') && "
        "document.querySelector('#odds-title').textContent.includes('vs defense 7')"
    )
    # the mark is cleared by the page's script after the swap, a moment after the title
    page.wait_for_function(
        "!document.querySelector('[aria-invalid]') && !document.querySelector('.field-error')",
        timeout=10_000,
    )
    query = page.url.split("?", 1)[1]
    assert all(v for _, _, v in (p.partition("=") for p in query.split("&"))), page.url
    title = page.text_content("#odds-title")
    fresh = page.context.new_page()
    fresh.goto(page.url)
    assert fresh.text_content("#odds-title") == title
    fresh.close()
