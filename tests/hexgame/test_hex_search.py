"""Maneuver's search player (``hexgame/search.py``): legal games, threads, fair use of the
dice, its plans replayed as drawn up, its strength, and its policy spec."""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.rng import next_u64, seed_state
from manoeuvre_sim.hexgame import batch as BT
from manoeuvre_sim.hexgame import checks as K
from manoeuvre_sim.hexgame import game as G
from manoeuvre_sim.hexgame import parse_policy, search_scope
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame import search as SR
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.players import (
    P_SEARCH,
    budget_of,
    policy_arrays,
    searches_combat,
    style_of,
)
from tests.hexgame.hex_boards import checked_games


def _games(policies, n, seed=21, threads=2, border="basic", **opt):
    return checked_games(policies, n, seed, border, threads, **opt)


@pytest.mark.parametrize(
    ("policies", "n", "border", "opt"),
    [
        (("search:4", "capital"), 150, "basic", {}),
        (("random", "search:4:attrition"), 100, "large_blue", {}),
        (("search:4", "search:6:attrition"), 60, "basic", {"step_losses": 1, "step_repl": 1}),
        (("attrition", "search:4"), 100, "large_red", {"quality": (5, 0)}),
        (("search:4::all", "capital"), 100, "basic", {}),
        (("random", "search:4:attrition:all"), 60, "large_blue", {"step_losses": 1}),
        (("search:4:capital:all", "search:3"), 40, "large_red", {"step_repl": 1}),
    ],
)
def test_search_games_are_legal(policies, n, border, opt):
    r = _games(policies, n, border=border, **opt)
    bad = r[:, BT.R_VIOLATIONS]
    names = [
        K.CHK_NAMES[i] for i in range(len(K.CHK_NAMES)) if (np.bitwise_or.reduce(bad) >> i) & 1
    ]
    assert not bad.any(), f"{(bad != 0).sum()} games broke {names}"
    won = r[:, BT.R_WINNER] < 2
    assert (r[won, BT.R_VICTORY] == S.VIC_CAPITAL).all()
    assert (r[~won, BT.R_TURNS] == 10).all()


@pytest.mark.parametrize("policies", [("search:4", "capital"), ("attrition", "search:4::all")])
def test_same_records_on_one_and_two_threads(policies):
    a = _games(policies, 40, threads=1)
    b = _games(policies, 40, threads=2)
    assert np.array_equal(a, b)


def _opening(seed=5, game=3, policies=("search:8", "capital")):
    """A game set up, before blue's or red's first movement phase."""
    packed = SC.pack(SC.load_scenario())
    pol, params = policy_arrays(*policies)
    g = S.new_context(packed, S.default_options(check=1), pol, params)
    st = np.zeros(S.STATE_SIZE, dtype=np.int32)
    S.clear_state(st, g.units)
    BT.seed_game(seed, game, g.rngs)
    G.start_game(st, g)
    return st, g


@pytest.mark.parametrize("budget", [2, 9, 30])
def test_search_draws_only_once_from_its_own_stream(budget):
    st, g = _opening(policies=(f"search:{budget}", f"search:{budget}"))
    side = int(st[S.FIRST])
    before = g.rngs.copy()
    st0 = st.copy()
    SR.plan_movement(st, g, side, 1, 0)
    assert np.array_equal(st, st0), "the search changed the real position"
    assert np.array_equal(g.rngs[0], before[0]), "the search touched the game's dice"
    assert np.array_equal(g.rngs[2 - side], before[2 - side]), "it touched the other player's"
    mine = before[1 + side].copy()
    next_u64(mine)
    assert np.array_equal(g.rngs[1 + side], mine), "one draw of its own stream per phase"
    assert g.srch[side, S.SR_MODE] == S.SR_REPLAY and g.srch[side, S.SR_LEN] > 0


def test_the_plan_played_is_the_plan_drawn_up():
    # the real movement phase replays every noted decision, in step, and ends the replay
    st, g = _opening(policies=("search:8::all", "search:8::all"))
    side = int(st[S.FIRST])
    assert G.play_from(st, g, 1, 0, G.PH_MOVE) == 2 * 1 + 0  # paused for the plan
    SR.plan_movement(st, g, side, 1, 0)
    n = g.srch[side, S.SR_LEN]
    assert n > 0
    # played on: the first player's plan, its combat (a search player searching its
    # combat pauses before each of its attacks), then a pause for the second's plan
    r = G.play_from(st, g, 1, 0, G.PH_MOVE)
    while r == 2 * 1 + 0 + G.ATTACK_PAUSE:
        SR.plan_attack(st, g, side, 1, 0)
        r = G.play_from(st, g, 1, 0, G.PH_ATTACKS)
    assert r == 2 * 1 + 1
    assert g.srch[side, S.SR_CUR] == n and g.srch[side, S.SR_MODE] == S.SR_OFF
    assert st[S.VIOLATIONS] == 0


@pytest.mark.parametrize(
    "policies",
    [("search:6", "capital"), ("random", "search:3:attrition"), ("search:6::all", "capital")],
)
def test_the_game_rolls_exactly_its_own_dice(policies):
    # the game's stream ends advanced by the draws the rules made (the first player's, two
    # dice a combat) and by nothing else: the search never draws from it
    packed = SC.pack(SC.load_scenario())
    pol, params = policy_arrays(*policies)
    for game in range(6):
        g = S.new_context(packed, S.default_options(check=1), pol, params, trace_rows=20000)
        st = np.zeros(S.STATE_SIZE, dtype=np.int32)
        S.clear_state(st, g.units)
        BT.seed_game(8, game, g.rngs)
        SR.play_game(st, g)
        results = int((g.tr[: g.trn[0], 0] == S.EV_RESULT).sum())
        assert 0 < g.trn[0] < 20000 and results > 0
        dice = np.zeros(4, dtype=np.uint64)
        seed_state(np.uint64(8), np.uint64(3 * game), dice)
        for _ in range(1 + 2 * results):
            next_u64(dice)
        assert np.array_equal(g.rngs[0], dice), f"game {game}: the game's dice were drawn"


def _score(a, b, n, seed=31):
    """a's score against b over n games in each seat (a win 1, a draw 1/2)."""
    s = 0.0
    for seat, pols in enumerate(((a, b), (b, a))):
        w = _games(pols, n, seed=seed + seat)[:, BT.R_WINNER]
        s += (w == seat).sum() + 0.5 * (w == 2).sum()
    return s / (2 * n)


def test_search_beats_capital():
    score = _score("search:32", "capital", 150)
    print("search:32 against capital:", score)
    assert score > 0.53, score


def test_policy_specs():
    assert parse_policy("search") == ("search", 32, "capital")
    assert parse_policy("search:8") == ("search", 8, "capital")
    assert parse_policy("search:8:attrition") == ("search", 8, "attrition")
    assert parse_policy("search:8:attrition:moves") == ("search", 8, "attrition")
    assert parse_policy("search::attrition:all") == ("search", 32, "attrition")
    assert search_scope("search:8:attrition:all") == search_scope("search:8::all") == "all"
    assert search_scope("search:8") == search_scope("search:8:capital:") == "moves"
    assert parse_policy("capital") == ("capital", 0, "capital")
    for bad in ("search:0", "search:x", "search:8:random", "capital:3", "searchy",
                "search:1:a:b", "search:1:capital:b", "search:1:capital:all:x"):  # fmt: skip
        with pytest.raises(ValueError):
            parse_policy(bad)
    pol, params = policy_arrays("search:12:attrition", "random")
    assert pol[0] >= P_SEARCH and budget_of(pol[0]) == 12 and style_of(pol[0]) == 2
    assert not searches_combat(pol[0]) and not searches_combat(pol[1])
    assert budget_of(pol[1]) == 0 and style_of(pol[1]) == 0
    pol, _ = policy_arrays("search:4096:capital:moves", "search:1:attrition:all")
    assert (budget_of(pol[0]), style_of(pol[0]), searches_combat(pol[0])) == (4096, 1, False)
    assert (budget_of(pol[1]), style_of(pol[1]), searches_combat(pol[1])) == (1, 2, True)
    assert np.array_equal(params[0], policy_arrays("attrition", "random")[1][0])
    assert SR.plan_shape(16) == (4, 4) and SR.plan_shape(2) == (2, 1)


def test_cli_takes_search_specs(cli, tmp_path):
    out = tmp_path / "t.csv"
    code, text = cli(
        "hex", "tournament", "--policies", "capital,search:4", "--games", "5", "--out", str(out)
    )
    assert code == 0, text
    assert "search:4" in text
    code, text = cli("hex", "simulate", "--policy-a", "search:0", "--out", str(out))
    assert code == 2 and "budget" in text
