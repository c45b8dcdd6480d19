"""The replay pages through Starlette's TestClient: both games, by study and by seed; the
board after the last event is the recorded end; bad parameters are 400 pages in the
command line's words; names from data files are text, never markup."""

from __future__ import annotations

import re

import pytest

from manoeuvre_sim.web.app import create_app
from tests.web.replay_fixtures import GAME, HEX_GAME, balance_study
from tests.web.server import local_client

COUNTER = re.compile(r'<g class="counter[^"]*" data-unit="([^"]+)" data-(?:square|hex)="([^"]+)" '
                     r'data-step="(\d+)"')  # fmt: skip


def counters(svg: str) -> dict[str, tuple[str, int]]:
    """``{unit: (square or hex, step)}`` of the counters an SVG board draws."""
    return {u: (where, int(step)) for u, where, step in COUNTER.findall(svg)}


def error(r) -> str:
    m = re.search(r'id="error-message">(.*?)</p>', r.text, re.S)
    return m.group(1) if m else ""


@pytest.fixture(scope="module")
def studied(tmp_path_factory):
    """A TestClient over a studies folder holding a tiny Manoeuvre balance study ``bal``."""
    root = tmp_path_factory.mktemp("studies")
    balance_study(root)
    with local_client(create_app(root), raise_server_exceptions=False) as c:
        c.studies = root
        yield c


def _last(c, game: str, query: str) -> tuple[int, str]:
    page = c.get(f"/replay/{game}?{query}")
    assert page.status_code == 200, error(page)
    n = int(re.search(r'"n":(\d+)', page.text).group(1))
    svg = c.get(f"/replay/{game}/board.svg?{query}&step={n - 1}")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    return n, svg.text


def test_manoeuvre_by_seed_ends_on_the_engines_final_board(studied):
    from manoeuvre_sim.manoeuvre.replay import replay_game, square_name, unit_label

    n, svg = _last(studied, "manoeuvre", GAME)
    rep = replay_game("France", "Russia", seed=1, game=0)  # checked against the engine
    want = {unit_label(u): (square_name(sq), rep.board.step[u])
            for u, sq in enumerate(rep.board.square) if sq >= 0}  # fmt: skip
    assert counters(svg) == want
    assert n > 100
    page = studied.get(f"/replay/manoeuvre?{GAME}")
    assert page.text.count("<li data-step=") == n
    assert "France (A)" in page.text and "nightfall" in page.text or "attrition" in page.text
    first = studied.get(f"/replay/manoeuvre/board.svg?{GAME}&step=0").text
    assert counters(first) == {}  # the first event lays a map section: no unit yet


@pytest.mark.parametrize(
    ("game", "query", "args"),
    [
        ("manoeuvre", GAME, ["replay", "--army-a", "France", "--army-b", "Russia", "--seed", "1",
                             "--game", "0", "--format", "jsonl"]),
        ("hex", HEX_GAME, ["hex", "replay", "--seed", "1", "--game", "0", "--format", "jsonl"]),
    ],
)  # fmt: skip
def test_the_trace_download_is_the_clis_format_jsonl(studied, game, query, args):
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    r = studied.get(f"/replay/{game}/trace.jsonl?{query}")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert r.text == out.stdout


def test_manoeuvre_study_game_is_the_recorded_game(studied):
    import pandas as pd

    df = pd.read_parquet(studied.studies / "bal" / "games.parquet")
    row = df[(df.pairing == 1) & (df.game == 0)].iloc[0]
    r = studied.get("/replay/manoeuvre?study=bal&pairing=1&game=0")
    assert r.status_code == 200, error(r)
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", r.text))
    assert facts["Game turns"] == str(row.game_turns)
    assert facts["Victory"] == row.victory
    assert facts["Squares controlled"] == f"A {row.vp_a}, B {row.vp_b}"
    assert facts["Seed, game"] == f"{row.seed}, game 0"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("study=bal&pairing=1&game=-1", "--game: expected a game index &gt;= 0, got -1"),
        ("study=bal&pairing=x&game=0", "--pairing: &#39;x&#39; is not a valid integer"),
        ("study=bal&pairing=1&game=99", "--game 99: bal has no such game (pairing 1)"),
        ("study=../x&pairing=1&game=0", "leaves the studies folder"),
        ("study=/etc&pairing=1&game=0", "is an absolute path"),
        ("study=bal&game=0", "--pairing: required with --study"),
        (f"{GAME}&step=100000", "--step: expected an integer from 0 to"),
        ("army_a=France&army_b=Prusia", "--army-b: "),
        ("army_a=France&army_b=../../etc/x.toml", "--army-b: give a built-in army&#39;s name"),
        (f"{GAME}&max_turns=100000", "--max-turns: expected an integer from 1 to 500"),
        (f"{GAME}&sped=1", "--sped: no such parameter on this page"),
    ],
)
def test_bad_parameters_are_400_in_the_clis_words(studied, query, message):
    r = studied.get(f"/replay/manoeuvre?{query}")
    assert r.status_code == 400
    assert message in error(r)
    assert "Traceback" not in r.text


def test_hex_by_seed_ends_on_the_engines_final_state(client):
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.grid import Grid
    from manoeuvre_sim.hexgame.replay_steps import GAME_DEFAULTS, load_game

    n, svg = _last(client, "hex", HEX_GAME)
    sc, _, packed, options, pol, prm, _ = load_game(dict(GAME_DEFAULTS))
    st, _ = batch.play_one(1, 0, packed, options.array(), pol, prm)
    grid = Grid(sc.columns, sc.rows)
    want = {str(u): grid.label(int(st[S.POS + u])) for u in range(S.NU) if st[S.POS + u] >= 0}
    assert {u: where for u, (where, _) in counters(svg).items()} == want
    r = client.get(f"/replay/hex?{HEX_GAME}")
    assert r.text.count("<li data-step=") == n
    assert client.get(f"/replay/hex?{HEX_GAME}&turns=0").status_code == 400
    assert "--first: " in error(client.get(f"/replay/hex?{HEX_GAME}&first=green"))


def test_hex_study_refuses_a_manoeuvre_study(studied):
    r = studied.get("/replay/hex?study=bal&pairing=0&game=0")
    assert r.status_code == 400
    assert "not Maneuver" in error(r)


def test_the_form_page(client):
    r = client.get("/replay")
    assert r.status_code == 200
    assert 'action="/replay/manoeuvre"' in r.text and 'action="/replay/hex"' in r.text
    assert client.get("/replay/chess?seed=1").status_code == 400


def test_names_from_data_files_are_text_on_the_board():
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.web.games.hex.board import hex_svg
    from manoeuvre_sim.web.games.manoeuvre.board import manoeuvre_svg

    evil = "<script>alert(1)</script>"
    rep = replay_game("France", "Russia", seed=1, game=0)
    a, b = rep.info.armies
    a = a.model_copy(update={"name": evil, "units": (
        a.units[0].model_copy(update={"name": evil}), *a.units[1:])})  # fmt: skip
    info = type(rep.info)(**{**rep.info.__dict__, "armies": (a, b)})
    svg = manoeuvre_svg(info, rep.setup.board, None, [evil])  # every unit on it
    assert "<scrip" not in svg and "&lt;script&gt;alert(1)&lt;/script&gt;" in svg

    from manoeuvre_sim.hexgame.grid import Grid
    from manoeuvre_sim.hexgame.replay import Position
    from manoeuvre_sim.hexgame.replay_steps import GAME_DEFAULTS, load_game

    sc, _, packed, *_ = load_game(dict(GAME_DEFAULTS))
    from dataclasses import replace

    packed = replace(packed, names=(packed.names[0], evil, *packed.names[2:]))
    grid = Grid(sc.columns, sc.rows)
    pos = Position(grid, packed.units)
    pos.pos, pos.step = {1: 5}, {1: 0}
    svg = hex_svg(packed, grid, pos, None, [evil])
    assert "<scrip" not in svg and "&lt;script&gt;" in svg


def test_the_forms_defaults_replay_a_game(client):
    r = client.get("/replay/manoeuvre?army_a=France&army_b=Russia&policy_a=tuned&policy_b=tuned"
                   "&seed=1&game=0&setup=random")  # fmt: skip
    assert r.status_code == 200, error(r)
    r = client.get("/replay/hex?policy_a=capital&policy_b=capital&border=basic&seed=1&game=0"
                   "&turns=10")  # fmt: skip
    assert r.status_code == 200, error(r)


def test_hex_study_game_is_the_recorded_game(tmp_path):
    import pandas as pd

    from tests.web.replay_fixtures import hex_study

    hex_study(tmp_path)
    df = pd.read_parquet(tmp_path / "hexbal" / "games.parquet")
    row = df[(df.label == "large_red") & (df.policy_a == "random")].iloc[0]
    with local_client(create_app(tmp_path), raise_server_exceptions=False) as c:
        r = c.get(f"/replay/hex?study=hexbal&pairing={row.pairing}&game=0")
        assert r.status_code == 200, error(r)
        facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", r.text))
        assert facts["Victory"] == row.victory
        assert facts["Game turns"] == str(row.game_turns)
        assert facts["Blue"] == "random" and "border large_red" in facts["Options"]
        assert facts["Seed, game"] == f"{row.seed}, game 0"
