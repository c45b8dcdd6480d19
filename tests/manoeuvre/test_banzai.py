"""Distant Lands Banzai Charge (rule 9.2; issue 14): scenarios and whole games.

"This card may only be played during the Movement Phase. Two units may be moved two
spaces. This is in place of the basic movement allowed for the turn and it
overrides/negates all Advance-to-Contact movement. A Supply card may be played to move an
additional unit. A Forced March Card may be played to move a unit an extra space."

The Japanese test army (tests/fixtures/distant_lands/japan.toml) also has leaders bound to
one unit, which the engine does not play yet; these tests play a copy without that field
(player 0: units 0-5 infantry, 6-7 cavalry) against Russia. Scenarios draw the battlefield
as ASCII (tests/manoeuvre/boards.py) and run the Movement Phase with scripted decisions
(test_engine_cards.py's ``table``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.options import OPT_ADVANCE_TO_CONTACT, OPT_DIGGING_IN
from manoeuvre_sim.manoeuvre.engine.pack import engine_support
from manoeuvre_sim.manoeuvre.model import load_army
from tests.manoeuvre.boards import at
from tests.manoeuvre.engine_helpers import packed, traced_jit_and_python
from tests.manoeuvre.test_engine_cards import (
    Slot,
    U,
    cards_of,
    discards,
    events,
    hand,
    options,
    setup,
    sq_of,
)
from tests.manoeuvre.test_engine_cards import table as _table  # noqa: F401 (the fixture "table")

JAPAN = Path(__file__).parents[1] / "fixtures" / "distant_lands" / "japan.toml"
BANZAI_MOVE = 4  # EV_MOVE's last field for a Banzai Charge move (replay: "by Banzai Charge")


@pytest.fixture
def table(_table):  # noqa: F811 (the imported fixture, under the name the tests use)
    """test_engine_cards.py's scripted-decisions, loaded-dice table."""
    return _table


@pytest.fixture(scope="module")
def japan(tmp_path_factory) -> str:
    """The Japanese test army with only rules the engine plays: no leader bound to a unit
    (Banzai Charge and Death With Honour kept)."""
    text = re.sub(r'^unit = ".*"\n', "", JAPAN.read_text(encoding="utf-8"), flags=re.M)
    path = tmp_path_factory.mktemp("banzai") / "japan_playable.toml"
    path.write_text(text, encoding="utf-8")
    assert engine_support(load_army(path)) == []
    return str(path)


BOARD = """
    . . . . . . . a
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . 1 . . 2 . 3 .
    . . . . . . . .
"""


def _first_moves(script):
    return script.offered(D.D_MOVE)[0]


def test_two_units_two_squares_then_supply_and_forced_march(table, japan):
    """Rule 9.2 Banzai Charge, played with the first move: infantry 1 moves two squares,
    a Forced March extends it, then a second unit (2, infantry) moves two squares; the
    second Banzai move offers only the units not yet moved, each up to two squares. Then a
    Supply card moves a third unit (3) by the basic move (one square for infantry)."""
    P = packed(japan, "Russia")
    bz = cards_of(P, 0, "Banzai Charge")[0]
    fm = cards_of(P, 0, "Forced March")[0]
    sup = cards_of(P, 0, "Supply")[0]
    st = setup(BOARD, P, {0: [bz, fm, sup]})
    script, ev = table(
        "movement_phase", st, P, options(), 0,
        answers=[
            (D.D_MOVE, (U(1), at(4, 1), Slot(bz), 1)),
            (D.D_FORCED_MARCH, (Slot(fm), at(3, 1))),
            (D.D_MOVE, (U(2), at(4, 4), -1, 1)),
            (D.D_SUPPLY_MOVE, (Slot(sup), U(3), at(5, 6))),
        ],
    )  # fmt: skip
    assert script.kinds() == [D.D_MOVE, D.D_FORCED_MARCH, D.D_MOVE, D.D_SUPPLY_MOVE]
    first, second = script.offered(D.D_MOVE)
    basic = first[first[:, 3] == 0]
    banzai = first[first[:, 3] == 1]
    # the basic move: one square for infantry; Banzai Charge: up to two, every unit
    assert sorted(basic[basic[:, 0] == U(1), 1].tolist()) == [at(5, 1), at(6, 0), at(6, 2),
                                                             at(7, 1)]  # fmt: skip
    assert sorted(banzai[banzai[:, 0] == U(1), 1].tolist()) == sorted(
        [at(4, 1), at(5, 0), at(5, 1), at(5, 2), at(6, 0), at(6, 2), at(6, 3), at(7, 0),
         at(7, 1), at(7, 2)]
    )  # fmt: skip
    assert set(banzai[:, 0].tolist()) == {U(1), U(2), U(3)}
    # the second Banzai move: the other units, up to two squares, no card played again
    assert set(second[:, 0].tolist()) == {U(2), U(3)}
    assert (second[:, 2] == -1).all() and (second[:, 3] == 1).all()
    assert at(4, 4) in second[second[:, 0] == U(2), 1]
    assert sq_of(st, 1) == at(3, 1) and sq_of(st, 2) == at(4, 4) and sq_of(st, 3) == at(5, 6)
    assert hand(st, 0) == [] and sorted(discards(st, 0)) == sorted([bz, fm, sup])
    assert (0, bz, R.PURPOSE_BANZAI, U(1), 0) in events(ev, R.EV_PLAY)
    assert [e[4] for e in events(ev, R.EV_MOVE)] == [BANZAI_MOVE, 2, BANZAI_MOVE, 1]
    assert st[S.MOVES] == 3


@pytest.mark.parametrize("turn, basic_moves", [(1, 3), (2, 2), (3, 1)])
def test_banzai_overrides_advance_to_contact(table, japan, turn, basic_moves):
    """Rule 9.2: Banzai Charge 'overrides/negates all Advance-to-Contact movement': two
    units move, whatever the Advance to Contact count (3, 2 or 1); without it the count
    holds (rule 5 Advance to Contact)."""
    P = packed(japan, "Russia")
    bz = cards_of(P, 0, "Banzai Charge")[0]
    st = setup(BOARD, P, {0: [bz]})
    st[S.TURN] = turn
    opt = options()
    opt[OPT_ADVANCE_TO_CONTACT] = 1
    stb = st.copy()
    script, ev = table("movement_phase", st, P, opt, 0,
                       answers=[(D.D_MOVE, (None, None, Slot(bz), 1))])  # fmt: skip
    assert len(events(ev, R.EV_MOVE)) == 2 and discards(st, 0) == [bz]
    script, ev = table("movement_phase", stb, P, opt, 0,
                       answers=[(D.D_MOVE, (None, None, 0, 0))] * basic_moves)  # fmt: skip
    assert len(events(ev, R.EV_MOVE)) == basic_moves and hand(stb, 0) == [bz]


def test_not_offered_without_the_card_and_beside_digging_in(table, japan):
    """No Banzai Charge move without the card; with Digging In the first decision offers
    digging in, the basic moves and the Banzai Charge moves together."""
    P = packed(japan, "Russia")
    bz = cards_of(P, 0, "Banzai Charge")[0]
    st = setup(BOARD, P, {0: []})
    script, _ = table("movement_phase", st, P, options(), 0)
    assert not (_first_moves(script)[:, 3] == 1).any()
    st = setup(BOARD, P, {0: [bz]})
    opt = options()
    opt[OPT_DIGGING_IN] = 1
    script, _ = table("movement_phase", st, P, opt, 0, answers=[(D.D_MOVE, (-1,))])
    first = _first_moves(script)
    assert first[0].tolist() == [-1, -1, 0, 0]
    assert (first[:, 3] == 0).sum() > 1 and (first[:, 3] == 1).sum() > 0
    assert hand(st, 0) == [] and discards(st, 0) == [bz]  # dug in: the whole hand goes


def test_two_squares_by_the_cavalry_rules(table, japan):
    """Interpretation DL14: a Banzai Charge move is a cavalry move (rule 5): no passing
    through a unit, a Field stops it, a Lake is never entered."""
    board = """
        . . . . . . . a
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . F . . . . .
        . L 1 2 . . . .
        . . . . . . . .
    """
    P = packed(japan, "Russia")
    bz = cards_of(P, 0, "Banzai Charge")[0]
    st = setup(board, P, {0: [bz]})
    script, _ = table("movement_phase", st, P, options(), 0)
    first = _first_moves(script)
    got = sorted(first[(first[:, 0] == U(1)) & (first[:, 3] == 1), 1].tolist())
    # up: the Field at (5, 2) stops it; left: the Lake; right: unit 2; down, and round
    assert got == sorted([at(5, 2), at(7, 1), at(7, 2), at(7, 3)])


GOOD_CHARGE = """
    . a . . . . b .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . 1 . . . . 6 .
    . . . . . . . .
"""


@pytest.mark.parametrize("policy", ["simple", "attritional", "territorial", "balanced", "tuned"])
def test_every_style_charges_when_two_units_gain(japan, policy):
    """The players value it (players/simple.py, players/moves.py) with its second unit's
    move: far from the enemy, without the card cavalry 6 advances two rows; with it, 6 and
    infantry 1 advance two rows each. The charge is worth the card only for the second
    unit's move, so a player that did not count it would not charge."""
    from tests.manoeuvre.test_player_choices import plays

    P = packed(japan, "Russia")
    bz = cards_of(P, 0, "Banzai Charge")[0]
    st = setup(GOOD_CHARGE, P, {0: [bz]})
    tr = _run_movement(st, P, policy)
    assert (bz, R.PURPOSE_BANZAI) in plays(tr, 0), policy
    assert sum(1 for e in tr if e[0] == R.EV_MOVE) == 2


def _run_movement(st, P, policy, opt=None):
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays
    from tests.manoeuvre.engine_helpers import uowner

    pol, params = policy_arrays(policy, policy)
    g = G.Context(
        P.units, P.cards, P.deck_size, P.tprops, uowner(), pol, params, new_state(1),
        np.zeros((D.MAXOPT, 4), np.int32), np.zeros(G.CB_SIZE, np.int32),
        np.zeros((500, 6), np.int32), np.zeros(1, np.int32),
    )  # fmt: skip
    G.movement_phase(st, g, options() if opt is None else opt, 0)
    G.check_invariants(st, P.deck_size, P.tprops)
    return g.tr[: g.trn[0]].copy()


def _banzai_plays(tr):
    return int(((tr[:, 0] == R.EV_PLAY) & (tr[:, 3] == R.PURPOSE_BANZAI)).sum())


@pytest.mark.parametrize(
    "policy", ["random", "simple", "attritional", "territorial", "balanced", "tuned"]
)
def test_whole_games_with_it_keep_invariants_and_fair_play(japan, policy):
    """Games of the Japanese test army keep every invariant and the fair-play check on (a
    violation raises); the styles play the card (seen in traces)."""
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    played = 0
    for seed in range(4):
        _, tr = play_traced(japan, "Prussia", seed=seed, game=0, policies=(policy, policy))
        played += _banzai_plays(tr)
    assert played > 0, policy
    cfg = SimConfig(japan, "France", games=20, seed=7, policy_a=policy, policy_b="balanced",
                    threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
    assert len(simulate(cfg).records) == 20


def test_card_statistics_count_it_as_banzai(japan):
    """The card-value statistics (engine/cardstats.py) count a Banzai Charge play as its own
    use ("banzai"), not as Scout/Spy, whose use number PURPOSE_BANZAI would otherwise take."""
    from manoeuvre_sim.manoeuvre.engine import cardstats as CS
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    P = packed(japan, "Russia")
    bz = cards_of(P, 0, "Banzai Charge")
    played = 0
    for seed in range(4):
        _, tr = play_traced(japan, "Russia", seed=seed, game=0, policies=("random", "random"))
        out = np.zeros((2, 60, CS.NCS), dtype=np.int32)
        CS.scan_trace(tr, len(tr), out)
        n = _banzai_plays(tr)
        played += n
        assert out[0, bz, CS.CS_USE + CS.USE_BANZAI].sum() == n
        assert out[0, bz, CS.CS_USE + CS.USE_SPY].sum() == 0
    assert played > 0 and CS.USE_NAMES[CS.USE_BANZAI] == "banzai"


def test_search_player_with_it(japan):
    """The search player lists the first move as the rules do (Banzai Charge moves
    included): a rollout that never reached its planned decision would raise."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    cfg = SimConfig(japan, "Russia", games=2, seed=3, policy_a="search:4", policy_b="random",
                    threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
    assert len(simulate(cfg).records) == 2


def test_random_games_keep_every_invariant(japan):
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    for atc in (False, True):
        cfg = SimConfig(japan, "Russia", games=400, seed=9, policy_a="random",
                        policy_b="random", check_invariants=True, advance_to_contact=atc,
                        digging_in=atc, dl_forced_march=atc)  # fmt: skip
        assert len(simulate(cfg).records) == 400


def test_replay_shows_it(japan):
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.manoeuvre.replay.text import section_lines

    lines = []
    for seed in range(6):
        rep = replay_game(japan, "Russia", seed=seed, policies=("random", "random"))
        lines += [ln for sec in rep.turns for ln in section_lines(rep, sec)]
    assert any("one more unit move up to two squares" in ln for ln in lines)
    assert any("by Banzai Charge" in ln for ln in lines)


def test_games_with_it_identical_with_and_without_the_jit(japan):
    a, b = traced_jit_and_python(japan, "Russia", [(s, ("random", "balanced")) for s in (1, 2, 3)])
    assert a == b
    assert sum(_banzai_plays(np.array(v[0])) for v in a.values()) > 0


def test_card_statistics_written_before_the_banzai_use_still_read(tmp_path):
    """A card study's statistics written before USE_BANZAI was appended (CS_USE + USE_BANZAI
    fields; USE_MAHARAJA came after it) are read back with the later fields zero, so such a
    study still resumes."""
    import pandas as pd

    from manoeuvre_sim.core.study import Task, _read_done, part_name, stats_path
    from manoeuvre_sim.manoeuvre.engine import cardstats as CS

    class _P:
        label = "games"

    task = Task(0, 0, 2)
    store = tmp_path / "store"
    store.mkdir()
    pd.DataFrame({"x": [1, 2]}).to_parquet(store / part_name("games", task))
    w = CS.CS_USE + CS.USE_BANZAI
    old = np.arange(2 * 2 * 3 * w, dtype=np.int32).reshape(2, 2, 3, w)
    stats_path(store, "games", task, "manoeuvre").parent.mkdir()
    np.savez(stats_path(store, "games", task, "manoeuvre"), cs=old)
    _, cs = _read_done(store, _P(), task, True, "manoeuvre")
    assert cs.shape == (2, 2, 3, CS.NCS)
    assert (cs[..., :w] == old).all() and not cs[..., w:].any()
