"""Replays of the games of a what-if and of a card-value study: their base games are
ordinary games of the base armies on the study's seeds, and a what-if's variant games play
the changed armies the study keeps (variant/*.army.json), each played again and checked
against the study's record; a card study's ablations play data the study does not keep,
and are refused in one line that says so."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from manoeuvre_sim.web.app import create_app
from tests.web.server import local_client
from tests.web.study_fixtures import studies_root  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def client(studies_root):  # noqa: F811
    return local_client(create_app(studies_root), raise_server_exceptions=False)


def _first(root, study: str, label: str) -> pd.Series:
    df = pd.read_parquet(root / study / "games.parquet", columns=["label", "pairing", "game"],
                         filters=[("label", "==", label)])  # fmt: skip
    return df.sort_values(["pairing", "game"]).iloc[0]


@pytest.mark.parametrize("study, label", [("whatif", "base"), ("cards", "base"),
                                          ("whatif", "variant")])  # fmt: skip
def test_a_game_is_replayed_and_checked_against_its_record(client, studies_root, study, label):  # noqa: F811
    g = _first(studies_root, study, label)
    r = client.get(f"/replay/manoeuvre?study={study}&pairing={g.pairing}&game={g.game}"
                   f"&label={label}")  # fmt: skip
    assert r.status_code == 200, re.findall(r'id="error-message">([^<]*)', r.text)
    assert 'id="replay-data"' in r.text


@pytest.mark.parametrize("study, label", [("cards", "ablation000")])
def test_a_changed_armys_game_is_refused_in_one_line(client, studies_root, study, label):  # noqa: F811
    g = _first(studies_root, study, label)
    r = client.get(f"/replay/manoeuvre?study={study}&pairing={g.pairing}&game={g.game}"
                   f"&label={label}")  # fmt: skip
    assert r.status_code == 400
    msg = re.findall(r'id="error-message">([^<]*)', r.text)[0]
    assert "only its &#39;base&#39; games can be replayed" in msg


def test_the_variant_plays_the_changed_army(studies_root, tmp_path):  # noqa: F811
    """The kept data is the variant's army (Garde Imperial at 9), not the base's: with it
    removed the variant's games are refused, and loaded it equals the edited army."""
    import json
    import shutil

    from manoeuvre_sim.manoeuvre.model import find_army

    m = json.loads((studies_root / "whatif" / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = m["variant"]["armies"]
    army = find_army(str(studies_root / "whatif" / entry["file"]))
    garde = next(u for u in army.units if u.name == "Garde Imperial")
    assert garde.full == 9 and find_army("France") != army
    root = tmp_path / "studies"
    shutil.copytree(studies_root / "whatif", root / "whatif")
    (root / "whatif" / entry["file"]).unlink()
    g = _first(root, "whatif", "variant")
    r = local_client(create_app(root)).get(
        f"/replay/manoeuvre?study=whatif&pairing={g.pairing}&game={g.game}&label=variant"
    )
    assert r.status_code == 400 and "missing or outside the study" in r.text
