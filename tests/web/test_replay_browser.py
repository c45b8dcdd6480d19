"""The replay page in Chromium: it steps, seeks and follows the keys, a click on the log
jumps, and after End the board drawn is the game's recorded end."""

from __future__ import annotations

import json

import pytest

from tests.web.replay_fixtures import GAME, HEX_GAME
from tests.web.server import serve


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("studies")) as url:
        yield url


def drawn(page) -> dict[str, tuple[str, int]]:
    """``{unit: (square or hex, step)}`` of the counters on the page's board."""
    return {
        c["unit"]: (c["where"], int(c["step"]))
        for c in page.eval_on_selector_all(
            "#board g.counter",
            "els => els.map(e => ({unit: e.dataset.unit, step: e.dataset.step,"
            " where: e.dataset.square || e.dataset.hex}))",
        )
    }


def at(page, step: int) -> None:
    """Wait until the page shows step ``step``: its log entry marked, its board drawn."""
    page.wait_for_selector(f'#log li.current[data-step="{step}"]', timeout=5000)
    page.wait_for_selector(f'#board[data-step="{step}"]:not([aria-busy])', timeout=5000)


def test_manoeuvre_replay_steps_seeks_and_follows_the_keys(page, base):
    from manoeuvre_sim.manoeuvre.replay import replay_game, square_name, unit_label

    page.goto(f"{base}/replay/manoeuvre?{GAME}&step=2", timeout=120_000)
    data = json.loads(page.text_content("#replay-data"))
    n, starts = data["n"], [s for _, s in data["turns"]]
    assert [s["kind"] for s in data["steps"][2:4]] == ["map", "map"]
    at(page, 2)
    board = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    at(page, 3)
    assert page.inner_html("#board") != board  # the second map section is laid
    assert page.text_content("#position") == f"event 4 of {n}, turn 0"
    page.keyboard.press("ArrowLeft")
    at(page, 2)
    assert page.inner_html("#board") == board

    page.eval_on_selector(
        "#slider", "s => { s.value = '150'; s.dispatchEvent(new Event('input')); }"
    )
    at(page, 150)
    nxt = min(s for s in starts if s > 150)
    page.keyboard.press("ArrowDown")
    at(page, nxt)
    page.keyboard.press("ArrowUp")
    at(page, max(s for s in starts if s < nxt))
    page.keyboard.press("PageDown")
    at(page, nxt)
    page.keyboard.press("Shift+ArrowRight")
    at(page, min(s for s in starts if s > nxt))

    page.click('#log li[data-step="40"]')
    at(page, 40)
    assert page.input_value("#slider") == "40"
    page.click("#next")
    at(page, 41)

    page.keyboard.press("End")
    at(page, n - 1)
    rep = replay_game("France", "Russia", seed=1, game=0)  # its board: the engine's end
    want = {unit_label(u): (square_name(sq), rep.board.step[u])
            for u, sq in enumerate(rep.board.square) if sq >= 0}  # fmt: skip
    assert drawn(page) == want
    page.keyboard.press("Home")
    at(page, 0)
    assert page.problems == []


def test_hex_replay_ends_on_the_engines_final_state(page, base):
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.grid import Grid
    from manoeuvre_sim.hexgame.replay_steps import GAME_DEFAULTS, load_game

    page.goto(f"{base}/replay/hex?{HEX_GAME}&step=5", timeout=120_000)
    n = json.loads(page.text_content("#replay-data"))["n"]
    at(page, 5)
    page.keyboard.press("ArrowRight")
    at(page, 6)
    page.click("#last")
    at(page, n - 1)
    sc, _, packed, options, pol, prm, _ = load_game(dict(GAME_DEFAULTS))
    st, _ = batch.play_one(1, 0, packed, options.array(), pol, prm)
    grid = Grid(sc.columns, sc.rows)
    want = {str(u): grid.label(int(st[S.POS + u])) for u in range(S.NU) if st[S.POS + u] >= 0}
    assert {u: where for u, (where, _) in drawn(page).items()} == want
    assert page.problems == []


def test_stepping_updates_the_standing_and_the_address(page, base):
    page.goto(f"{base}/replay/manoeuvre?{GAME}", timeout=120_000)
    data = json.loads(page.text_content("#replay-data"))
    start = data["step"]
    at(page, start)
    assert len(drawn(page)) == 16  # the set-up's last event: every unit deployed
    assert page.url.endswith(GAME)  # opened with no event: the address names none yet
    page.eval_on_selector(
        "#slider", "s => { s.value = '250'; s.dispatchEvent(new Event('input')); }"
    )
    at(page, 250)
    assert page.url.endswith("&event=251")
    assert page.text_content("#position").startswith("event 251 of ")
    want = data["steps"][250]["standing"]
    got = [[page.text_content(f"#st-{r}-{s}") for s in (0, 1)] for r in range(len(want["values"]))]
    assert got == [[str(v) for v in pair] for pair in want["values"]]
    assert page.text_content("#st-turn") == str(want["turn"])
    page.reload()  # the address shown opens the same event
    at(page, 250)
