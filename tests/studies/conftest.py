"""Fixtures of the study tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from manoeuvre_sim.core import games as G
from tests.studies import coin_game


@pytest.fixture
def coin(monkeypatch):
    """The coin game in the registry (and on a worker process's path): its key."""
    monkeypatch.setitem(G.GAMES, "coin", (coin_game.__name__, coin_game.TITLE))
    path = [str(Path(__file__).parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    return "coin"
