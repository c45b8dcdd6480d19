"""The last nightfall tie-breaker when a Distant Lands army plays (Distant Lands rule 2.2;
docs/RULE_INTERPRETATIONS.md DL7): "the country first shown in the following list which is
involved in the battle wins: India, Qing Dynasty, United States, Tokugawa Shogunate, Spain,
Austria, Sweden, Ottoman Empire, Prussia, Russia, Great Britain, France". Base armies
against each other keep the base list (rule 2.2): United States, Ottoman Empire, Spain,
Austria, Prussia, Russia, Great Britain, France.

Each tie is drawn on an empty board: 0 squares each, no eliminations, no reduced units, so
only the nation decides (``tiebreak`` 3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.model import find_army, load_army, load_builtin_armies
from manoeuvre_sim.manoeuvre.model.army import nightfall_ranks
from tests.manoeuvre.boards import parse_board
from tests.manoeuvre.engine_helpers import (
    CHINA,
    INDIA,
    JAPAN,
    SWEDEN,
    packed,
    state_from_board,
    uowner,
)

EMPTY = "\n".join([". . . . . . . ."] * 8)
DL_LIST = ["India", "Qing Dynasty", "United States", "Tokugawa Shogunate", "Spain", "Austria",
           "Sweden", "Ottoman Empire", "Prussia", "Russia", "Great Britain", "France"]  # fmt: skip
TEST_ARMY = {INDIA: "India", CHINA: "Qing Dynasty", JAPAN: "Tokugawa Shogunate",
             SWEDEN: "Sweden"}  # fmt: skip


def tied_nightfall(army_a: str, army_b: str) -> tuple[int, int]:
    """(winner, tiebreak) of a nightfall drawn on squares, eliminations and reduced units."""
    P = packed(army_a, army_b)
    st = state_from_board(parse_board(EMPTY))
    no_trace = np.zeros((0, 6), np.int32), np.zeros(1, np.int32)
    G.score_nightfall(st, P.units, uowner(), P.rank, *no_trace)
    assert (st[S.VP], st[S.VP + 1], st[S.ELIM], st[S.ELIM + 1]) == (0, 0, 0, 0)
    return int(st[S.WINNER]), int(st[S.TIEBREAK])


@pytest.mark.parametrize(
    "army_a, army_b, winner",
    [
        # where the expansion's list differs from "expansion armies after the base armies"
        (INDIA, "Austria", "a"),
        ("Austria", INDIA, "b"),
        (CHINA, "United States", "a"),
        (JAPAN, "Spain", "a"),
        ("United States", JAPAN, "a"),
        (SWEDEN, "Ottoman Empire", "a"),
        ("Prussia", SWEDEN, "b"),
        # where it agrees
        (SWEDEN, "Spain", "b"),
        ("Spain", SWEDEN, "a"),
        (SWEDEN, "Austria", "b"),
        (INDIA, CHINA, "a"),
        (JAPAN, CHINA, "b"),
        ("France", SWEDEN, "b"),
        (INDIA, INDIA, "draw"),
    ],
)
def test_a_tie_with_an_expansion_army_follows_the_distant_lands_list(army_a, army_b, winner):
    expected = {"a": 0, "b": 1, "draw": -1}[winner]
    assert tied_nightfall(army_a, army_b) == (expected, 3 if expected >= 0 else 4)


def test_base_armies_against_each_other_keep_the_base_list():
    # the Ottoman Empire is listed before Spain in rule 2.2, after it in Distant Lands 2.2
    assert tied_nightfall("Ottoman Empire", "Spain") == (0, 3)
    assert tied_nightfall("Spain", "Ottoman Empire") == (1, 3)
    # base-only games pack exactly the ranks of the army files, as before: the same games
    base = load_builtin_armies()
    for a in base:
        for b in base:
            assert nightfall_ranks(a, b) == (a.tiebreak_rank, b.tiebreak_rank)


def test_the_twelve_nations_in_the_expansion_order():
    india = load_army(INDIA)
    place = {TEST_ARMY[p]: load_army(p).tiebreak_rank for p in TEST_ARMY}
    for a in load_builtin_armies():
        place[a.name] = nightfall_ranks(a, india)[0]
        assert nightfall_ranks(india, a)[1] == place[a.name]
    assert sorted(place, key=place.get) == DL_LIST
    assert sorted(place.values()) == list(range(1, 13))


def test_a_designer_base_rank_beyond_the_list_stays_last():
    france = find_army("France")
    extra = france.model_copy(update={"name": "Ninth", "tiebreak_rank": 9})
    sweden = load_army(SWEDEN)
    assert nightfall_ranks(extra, sweden) == (13, 7)
    assert nightfall_ranks(extra, france) == (9, 8)  # base against base: as given


def test_an_expansion_army_must_give_its_nations_place(tmp_path):
    text = Path(SWEDEN).read_text(encoding="utf-8")
    assert "\ntiebreak_rank = 7\n" in text
    bad = tmp_path / "sweden.toml"
    bad.write_text(text.replace("\ntiebreak_rank = 7\n", "\ntiebreak_rank = 12\n"))
    with pytest.raises(DataError) as e:
        load_army(bad)
    msg = str(e.value)
    assert str(bad) in msg and "tiebreak_rank: expected 7" in msg and "got 12" in msg
    assert "Distant Lands rule 2.2" in msg and "7 Sweden" in msg
