"""Replays of the games of a what-if and of a card-value study: their base games are
ordinary games of the base armies on the study's seeds, played again and checked against
the study's record; the variant's and the ablations' games play changed army data that the
study does not keep, and are refused in one line that says so."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from starlette.testclient import TestClient

from manoeuvre_sim.web.app import create_app
from tests.web.study_fixtures import studies_root  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def client(studies_root):  # noqa: F811
    return TestClient(create_app(studies_root), raise_server_exceptions=False)


def _first(root, study: str, label: str) -> pd.Series:
    df = pd.read_parquet(root / study / "games.parquet", columns=["label", "pairing", "game"],
                         filters=[("label", "==", label)])  # fmt: skip
    return df.sort_values(["pairing", "game"]).iloc[0]


@pytest.mark.parametrize("study", ["whatif", "cards"])
def test_a_base_game_is_replayed_and_checked_against_its_record(client, studies_root, study):  # noqa: F811
    g = _first(studies_root, study, "base")
    r = client.get(f"/replay/manoeuvre?study={study}&pairing={g.pairing}&game={g.game}&label=base")
    assert r.status_code == 200, re.findall(r'id="error-message">([^<]*)', r.text)
    assert 'id="replay-data"' in r.text


@pytest.mark.parametrize("study, label", [("whatif", "variant"), ("cards", "ablation000")])
def test_a_changed_armys_game_is_refused_in_one_line(client, studies_root, study, label):  # noqa: F811
    g = _first(studies_root, study, label)
    r = client.get(f"/replay/manoeuvre?study={study}&pairing={g.pairing}&game={g.game}"
                   f"&label={label}")  # fmt: skip
    assert r.status_code == 400
    msg = re.findall(r'id="error-message">([^<]*)', r.text)[0]
    assert "only its &#39;base&#39; games can be replayed" in msg
