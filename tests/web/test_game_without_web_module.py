"""A game with no web module (the toy coin game of ``tests/studies/coin_game.py``: its adapter
names no ``WEB_MODULE``) still has its studies listed and opened by the generic pages, and
the workbench's own pages, menus and forms stay those of the games that have one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from manoeuvre_sim.core import games as G
from manoeuvre_sim.studies import balance
from manoeuvre_sim.web.app import create_app
from manoeuvre_sim.web.game_parts import web_modules, web_part
from tests.studies import coin_game
from tests.web.server import local_client


@pytest.fixture
def coin_root(monkeypatch, tmp_path):
    """The toy game registered as ``coin`` and one balance study of it under the folder."""
    monkeypatch.setitem(G.GAMES, "coin", (coin_game.__name__, coin_game.TITLE))
    path = [str(Path(__file__).parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    res = balance.run("coin", ["heavy:70", "fair", "light:30"], games_per_pairing=40, seed=3,
                      out_dir=tmp_path / "coin-balance")  # fmt: skip
    res.write(tmp_path / "coin-balance")
    return tmp_path


def test_the_coin_games_study_is_listed_and_opened(coin_root):
    assert "coin" not in web_modules() and web_part("coin", "STUDY_VIEWS") is None
    with local_client(create_app(coin_root, run_jobs=False)) as c:
        listed = c.get("/studies")
        assert listed.status_code == 200 and "coin-balance" in listed.text
        study = c.get("/study?dir=coin-balance")
        assert study.status_code == 200
        assert "Tables" in study.text and "pairings" in study.text  # every table as it is
        pairing = c.get("/study/pairing?dir=coin-balance&pairing=0")
        assert pairing.status_code == 200 and "heavy" in pairing.text
        table = c.get("/study/table.csv?dir=coin-balance&name=sides")
        assert table.status_code == 200 and "heavy" in table.text


def test_a_game_without_a_replay_is_refused_in_one_line(coin_root):
    with local_client(create_app(coin_root, run_jobs=False)) as c:
        r = c.get("/replay/coin?seed=1")
        assert r.status_code == 400
        assert "no replay of &#39;coin&#39;: expected /replay/manoeuvre or /replay/hex" in r.text
        home = c.get("/")  # the menus list the games that have odds pages, as before
        assert 'href="/odds/manoeuvre"' in home.text and 'href="/odds/hex"' in home.text
        assert "/odds/coin" not in home.text
