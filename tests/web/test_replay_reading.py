"""What the replay page tells a reader beside the board (TestClient): a key to every counter
code and terrain letter the board draws, the standing after an event equal to what the
trace says (rebuilt by ``core/trace_reader.py`` from the JSONL alone), a first board with
the units deployed, one numbering of events in the address and on the page, and Maneuver's
stacks drawn so that no counter hides another or the hex's number."""

from __future__ import annotations

import json
import re

import pytest

from manoeuvre_sim.web.app import create_app
from tests.web.replay_fixtures import GAME, HEX_GAME
from tests.web.server import local_client
from tests.web.test_replay import counters


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with local_client(create_app(tmp_path_factory.mktemp("studies"))) as client:
        yield client


def page_data(r) -> dict:
    return json.loads(re.search(r'id="replay-data">(.*?)</script>', r.text, re.S).group(1))


def legend_codes(html: str) -> tuple[set[str], set[str]]:
    """The counter codes and terrain letters the page's key explains (each with a
    meaning beside it)."""
    key = re.search(r'<section class="panel legend".*?</section>', html, re.S).group(0)
    codes = set(re.findall(r'<span class="code">([^<]+)</span>', key))
    terrain = set(re.findall(r'<dt class="terrain-letter"[^>]*>([^<]+)</dt><dd>[^<]+</dd>', key))
    return codes, terrain


def drawn_codes(svg: str) -> tuple[set[str], set[str]]:
    codes = set()
    for t in re.findall(r'<text class="code"[^>]*>([^<]+)</text>', svg):
        codes.add(t.split()[0])  # a stacked Maneuver counter: "I 4-3"
    return codes, set(re.findall(r'<text class="terrain-letter"[^>]*>([^<]+)</text>', svg))


@pytest.mark.parametrize(("game", "query"), [("manoeuvre", GAME), ("hex", HEX_GAME)])
def test_the_key_explains_every_code_and_letter_drawn(c, game, query):
    r = c.get(f"/replay/{game}?{query}")
    assert r.status_code == 200
    codes, terrain = legend_codes(r.text)
    n = page_data(r)["n"]
    seen_codes, seen_terrain = set(), set()
    for event in (1, n // 3, n // 2, n):
        svg = c.get(f"/replay/{game}/board.svg?{query}&event={event}").text
        a, b = drawn_codes(svg)
        seen_codes |= a
        seen_terrain |= b
    assert seen_codes and seen_codes <= codes
    assert seen_terrain <= terrain
    if game == "manoeuvre":
        assert seen_terrain, "a laid battlefield draws terrain letters"
        key = re.search(r'<section class="panel legend".*?</section>', r.text, re.S).group(0)
        assert "<dd>Woods</dd>" in key or "<dd>Hill</dd>" in key  # data/terrain.toml's names


def _manoeuvre_trace(c):
    from manoeuvre_sim.core.trace_reader import read_trace

    return read_trace(c.get(f"/replay/manoeuvre/trace.jsonl?{GAME}").text.splitlines())


def test_manoeuvre_standing_is_what_the_trace_says(c):
    from manoeuvre_sim.core.trace_reader import rebuild

    header, events = _manoeuvre_trace(c)
    shown = [e for e in events if e["kind"] not in ("phase", "decline")]  # the page's steps
    r = c.get(f"/replay/manoeuvre?{GAME}")
    data = page_data(r)
    assert data["n"] == len(shown)
    per_side = header["units_per_side"]
    checked = 0
    for event in (40, 120, 250, len(shown)):
        seq = shown[event - 1]["seq"]
        upto = events[: seq + 1]
        pos = rebuild(header, upto)
        lost = pos["eliminated"]
        reduced = [sum(1 for u, s in pos["units"].items() if s["step"] == 1 and u // per_side == p)
                   for p in range(2)]  # fmt: skip
        hand = [0, 0]
        for e in upto:  # cards in hand: drawn, less discarded, played and spied
            if e["kind"] == "draw":
                hand[e["player"]] += 1
            elif e["kind"] in ("discard", "play", "spy"):
                hand[e["player"]] -= 1
                if e.get("purpose") == "skirmish":  # rule 9.2: the initiating card returns
                    hand[e["player"]] += 1
        phases = [e for e in upto if e["kind"] == "phase"]
        phase = phases[-1]["phase"] if phases and phases[-1]["at"] == "begin" else "-"
        page = c.get(f"/replay/manoeuvre?{GAME}&event={event}").text
        cells = dict(re.findall(r'id="st-(\d+-\d)">([^<]*)<', page))
        assert [int(cells["0-0"]), int(cells["0-1"])] == lost
        assert [int(cells["1-0"]), int(cells["1-1"])] == reduced
        assert [int(cells["3-0"]), int(cells["3-1"])] == hand
        assert re.search(r'id="st-turn">(\d+)<', page).group(1) == str(upto[-1]["game_turn"])
        assert re.search(r'id="st-phase">([^<]*)<', page).group(1) == phase
        checked += 1
    end = [e for e in events if e["kind"] == "end"][0]
    last = page_data(c.get(f"/replay/manoeuvre?{GAME}&event={len(shown)}"))
    assert last["steps"][-1]["standing"]["values"][2] == [end["vp_a"], end["vp_b"]]
    assert checked == 4


def test_hex_standing_is_what_the_trace_says(c):
    from manoeuvre_sim.core.trace_reader import read_trace, rebuild

    header, events = read_trace(c.get(f"/replay/hex/trace.jsonl?{HEX_GAME}").text.splitlines())
    shown = [e for e in events if e["kind"] not in ("phase", "decline", "supply")]
    types = {u["id"]: u["type"] for u in header["units"]}
    side = {u["id"]: u["side"] for u in header["units"]}
    data = page_data(c.get(f"/replay/hex?{HEX_GAME}"))
    assert data["n"] == len(shown)
    for event in (30, 100, len(shown)):
        upto = events[: shown[event - 1]["seq"] + 1]
        pos = rebuild(header, upto)
        on_map = [sum(1 for u, s in pos["units"].items() if s["hex"] and side[u] == p
                      and types[u] != "capital") for p in range(2)]  # fmt: skip
        dead = [sum(1 for u, s in pos["units"].items() if s["dead"] and side[u] == p)
                for p in range(2)]  # fmt: skip
        page = c.get(f"/replay/hex?{HEX_GAME}&event={event}").text
        cells = dict(re.findall(r'id="st-(\d+-\d)">([^<]*)<', page))
        assert [int(cells["0-0"]), int(cells["0-1"])] == on_map
        assert [int(cells["1-0"]), int(cells["1-1"])] == dead
        assert [cells["3-0"], cells["3-1"]] == [
            "captured" if x else "held" for x in pos["captured"]
        ]


@pytest.mark.parametrize(("game", "query"), [("manoeuvre", GAME), ("hex", HEX_GAME)])
def test_the_page_opens_on_the_deployed_set_up(c, game, query):
    from manoeuvre_sim.core.trace_reader import read_trace, rebuild

    header, events = read_trace(c.get(f"/replay/{game}/trace.jsonl?{query}").text.splitlines())
    first_turn = next(e["seq"] for e in events if e["kind"] == "turn")
    deployed = rebuild(header, events[:first_turn])
    key = "square" if game == "manoeuvre" else "hex"
    want = {u: s[key] for u, s in deployed["units"].items() if s[key]}
    r = c.get(f"/replay/{game}?{query}")
    board = re.search(r'<div class="board" id="board">(.*?)</div>', r.text, re.S).group(1)
    shown = {u: where for u, (where, _) in counters(board).items()}
    if game == "manoeuvre":
        from manoeuvre_sim.manoeuvre.replay.model import unit_label

        want = {unit_label(u): sq for u, sq in want.items()}
    else:
        want = {str(u): h for u, h in want.items()}
    assert len(want) >= 16 and shown == want
    data = page_data(r)
    assert data["steps"][data["step"] + 1]["turn"] == 1  # the next event begins game turn 1


def test_one_numbering_in_the_address_and_on_the_page(c):
    r = c.get(f"/replay/manoeuvre?{GAME}&event=101")
    assert r.status_code == 200
    n = page_data(r)["n"]
    assert re.search(r'id="position"[^>]*>event 101 of \d+', r.text)
    assert page_data(r)["step"] == 100
    current = re.search(r'<li data-step="(\d+)" class="[^"]*current[^"]*" title="([^"]+)"', r.text)
    assert current.group(1) == "100" and current.group(2).startswith("event 101 ")
    # the board of event 101 in the page is the board the address of event 101 draws
    board = re.search(r'<div class="board" id="board">(.*?)</div>', r.text, re.S).group(1)
    assert board == c.get(f"/replay/manoeuvre/board.svg?{GAME}&event=101").text
    # an old address (steps from 0) is sent on to the same board, numbered from 1
    old = c.get(f"/replay/manoeuvre?{GAME}&step=100", follow_redirects=False)
    assert old.status_code == 301 and old.headers["location"].endswith("&event=101")
    for bad in ("event=0", f"event={n + 1}", "event=x"):
        r = c.get(f"/replay/manoeuvre?{GAME}&{bad}")
        assert r.status_code == 400 and "--event: " in r.text


def _boxes(svg: str):
    """Per hex, the boxes (x0, y0, x1, y1) of its counters and of its number."""
    out: dict[str, list] = {}
    for g in re.finditer(r'<g class="counter[^"]*"[^>]*data-hex="(\d+)"[^>]*>(.*?)</g>', svg):
        h, body = g.group(1), g.group(2)
        rect = re.search(
            r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', body
        )
        if rect:
            x, y, w, hh = map(float, rect.groups())
            box = (x, y, x + w, y + hh)
        else:  # the Capital's star
            pts = [tuple(map(float, p.split(","))) for p in
                   re.search(r'points="([^"]+)"', body).group(1).split()]  # fmt: skip
            box = (min(p[0] for p in pts), min(p[1] for p in pts),
                   max(p[0] for p in pts), max(p[1] for p in pts))  # fmt: skip
        out.setdefault(h, []).append(box)
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_hex_stacks_hide_no_counter_and_no_hex_number(c):
    n = page_data(c.get(f"/replay/hex?{HEX_GAME}"))["n"]
    stacks = 0
    for event in range(1, n + 1, 3):
        svg = c.get(f"/replay/hex/board.svg?{HEX_GAME}&event={event}").text
        numbers = {}
        for m in re.finditer(
            r'<text x="([\d.]+)" y="([\d.]+)" font-size="7.5"[^>]*>(\d{4})</text>', svg
        ):
            x, y = float(m.group(1)), float(m.group(2))
            numbers[m.group(3)] = (x - 9, y - 6, x + 9, y)  # 4 digits at 7.5 px
        for h, boxes in _boxes(svg).items():
            stacks += len(boxes) > 1
            for i, a in enumerate(boxes):
                assert not _overlap(a, numbers[h]), f"event {event}: hex {h}'s number hidden"
                for b in boxes[i + 1 :]:
                    assert not _overlap(a, b), f"event {event}: counters overlap in {h}"
    assert stacks > 0  # the game stacks units (e.g. artillery with infantry)


def test_stepping_never_plays_the_game_again(c, monkeypatch):
    from manoeuvre_sim.web.games import hex as hex_web

    c.get(f"/replay/hex?{HEX_GAME}")
    played = []
    real = hex_web.replay_game
    monkeypatch.setattr(hex_web, "replay_game", lambda *a: played.append(1) or real(*a))
    for event in (5, 6, 7):
        assert c.get(f"/replay/hex/board.svg?{HEX_GAME}&event={event}").status_code == 200
        assert c.get(f"/replay/hex?{HEX_GAME}&event={event}").status_code == 200
    assert played == []  # the game is kept whatever the event shown
