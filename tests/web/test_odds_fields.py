"""The odds forms as a reader meets them (TestClient): the shareable address holds no
empty field and still gives the same result, the attacker base and CA are explained in the
rules' words, and a bad value marks its own field (aria-invalid) with its message beside it."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from manoeuvre_sim.web.app import create_app
from tests.web.server import local_client


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with local_client(create_app(tmp_path_factory.mktemp("studies"))) as client:
        yield client


def table(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<tr data-result="([^"]+)"><td>[^<]*</td><td class="num">([^<]+)<', html)


def test_a_whole_page_with_empty_fields_is_sent_to_the_short_address(c):
    typed = ("/odds/manoeuvre/assault?strength=6&dice=2d8&dice=&dice=&support=&leader_combat="
             "&leader_command=2&committed=&defense=9&defender_strength=&terrain=&simulate=&seed=")  # fmt: skip
    r = c.get(typed, follow_redirects=False)
    assert r.status_code == 303
    short = r.headers["location"]
    assert all(v for _, v in parse_qsl(urlsplit(short).query, keep_blank_values=True))
    assert short == "/odds/manoeuvre/assault?strength=6&dice=2d8&leader_command=2&defense=9"
    # the short address reproduces the result of the long one (an empty field: the default)
    full = c.get(short)
    assert full.status_code == 200
    frag = c.get(typed, headers={"hx-request": "true", "hx-target": "odds-result"})
    assert frag.status_code == 200 and table(frag.text) == table(full.text) != []


def test_attacker_base_and_ca_are_explained(c):
    r = c.get("/odds/manoeuvre/assault?strength=6&dice=2d8&committed=1&defense=9")
    assert "+CA" in re.search(r'id="odds-title">([^<]+)<', r.text).group(1)
    tips = dict(
        re.findall(r'<small class="muted odds-tip" data-for="(\w+)">([^<]+)</small>', r.text)
    )
    assert "Attacker base" in tips["strength"] and "strength" in tips["strength"]
    assert "rule 6.1 step 6" in tips["strength"]
    assert tips["committed"].startswith("CA: a Committed Attack") and "2d6" in tips["committed"]
    assert 'title="--strength: Attacker base: ' in r.text  # the tooltip on the label
    assert "Committed Attack cards (CA)" in r.text
    note = re.search(r'<p class="muted odds-note">([^<]+)</p>', r.text).group(1)
    assert "+CA is a Committed Attack card" in note and "attacker base" in note


@pytest.mark.parametrize(
    ("address", "field", "message"),
    [
        ("/odds/manoeuvre/assault?strength=6&dice=2d8&defense=-3", "defense",
         "--defense: expected an integer &gt;= 0, got -3"),
        ("/odds/manoeuvre/assault?strength=x&dice=2d8&defense=3", "strength",
         "--strength: &#39;x&#39; is not a valid integer"),
        ("/odds/manoeuvre/assault?strength=6&dice=2x8&defense=3", "dice", "dice: expected dice"),
        ("/odds/manoeuvre/assault?strength=6&dice=2d8&defender_strength=3&terrain=moon",
         "terrain", "defender terrain: unknown terrain"),
        ("/odds/hex?attack=5x&defend=3", "attack", "--attack: expected units"),
    ],
)  # fmt: skip
def test_a_bad_value_marks_its_field_with_its_message(c, address, field, message):
    r = c.get(address)
    assert r.status_code == 400
    marked = re.findall(r'<(?:input|select)[^>]*name="(\w+)"[^>]*aria-invalid="true"'
                        r'[^>]*aria-describedby="err-(\w+)"', r.text)  # fmt: skip
    assert marked and {m for m, _ in marked} == {field} and {d for _, d in marked} == {field}
    beside = re.search(rf'<small class="field-error" id="err-{field}" data-for="{field}">'
                       r"([^<]+)</small>", r.text)  # fmt: skip
    assert beside and message in beside.group(1)
    # the htmx fragment names the field for the page's script
    frag = c.get(address, headers={"hx-request": "true", "hx-target": "odds-result"})
    assert f'data-field="{field}"' in frag.text and message in frag.text


def test_a_good_value_marks_nothing(c):
    r = c.get("/odds/manoeuvre/assault?strength=6&dice=2d8&defense=3")
    assert r.status_code == 200 and "aria-invalid" not in r.text and "field-error" not in r.text
