"""The search player (issue #16): fair play, reproducibility, the worlds it samples, and
that its search decides (engine/search.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate


def _cards_of(st, p):
    """Player p's cards by pile: (hand, deck, discard, table) as sorted lists."""
    piles = []
    for base, nslot, width in (
        (S.HAND, S.HAND_N, S.HMAX), (S.DECK, S.DECK_N, S.MAXC), (S.DISC, S.DISC_N, S.MAXC),
        (S.TABLE, S.TABLE_N, S.TMAX),
    ):  # fmt: skip
        n = st[nslot + p]
        piles.append(list(st[base + p * width : base + p * width + n]))
    return piles


def _mid_game_state(seed=5):
    """The state at the start of game turn 4 of a balanced game (play stops at the turn
    limit, then the end-of-game marks are cleared)."""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine.game import play_game
    from manoeuvre_sim.manoeuvre.engine.options import rule_options
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays
    from tests.manoeuvre.engine_helpers import packed

    P = packed("France", "Russia")
    pol, params = policy_arrays("balanced", "balanced")
    st = S.new_state()
    tr = np.zeros((0, 6), dtype=np.int32)
    play_game(st, P.tables, pol, params, new_state(seed, 0), rule_options(max_turns=3), tr,
              np.zeros(1, dtype=np.int32))  # fmt: skip
    assert st[S.VICTORY] == S.VICTORY_NIGHTFALL and st[S.TURN_LIMIT_HIT] == 1
    st[S.OVER] = 0
    st[S.WINNER] = -1
    st[S.VICTORY] = 0
    st[S.TIEBREAK] = 0
    st[S.TURN_LIMIT_HIT] = 0
    st[S.VP : S.VP + 2] = 0
    st[S.TURN] = 4
    return P, st


# --- the worlds ----------------------------------------------------------------------------
def test_a_world_keeps_what_the_seat_sees_and_deals_the_rest():
    from manoeuvre_sim.manoeuvre.engine.search import determinize

    P, st = _mid_game_state()
    dsize = P.deck_size
    changed = 0
    for w in range(20):
        ws = np.empty_like(st)
        rng = np.zeros(4, dtype=np.uint64)
        from manoeuvre_sim.core.rng import seed_state

        seed_state(np.uint64(99), np.uint64(w), rng)
        determinize(ws, st, dsize, 0, rng)
        # everything but the card piles is the same state
        mask = np.ones(S.STATE_SIZE, dtype=bool)
        for base, width in ((S.HAND, S.HMAX), (S.DECK, S.MAXC), (S.DISC, S.MAXC)):
            mask[base : base + 2 * width] = False
        assert np.array_equal(ws[mask], st[mask])
        mine, theirs = _cards_of(ws, 0), _cards_of(ws, 1)
        assert mine[0] == _cards_of(st, 0)[0]  # own hand kept, slot by slot
        assert list(ws[S.HAND : S.HAND + st[S.HAND_N]]) == list(st[S.HAND : S.HAND + st[S.HAND_N]])
        for p, piles in ((0, mine), (1, theirs)):
            every = sorted(c for pile in piles for c in pile)
            assert every == list(range(dsize[p]))  # each card exactly once
            assert [len(x) for x in piles] == [len(x) for x in _cards_of(st, p)]
        changed += sorted(theirs[0]) != sorted(_cards_of(st, 1)[0])
    assert changed >= 15  # the opponent's hand is dealt, not read


def test_a_world_does_not_depend_on_hidden_cards():
    """The same seed gives the same world from the real state and from a fogged copy (the
    fair-play check's scrambling): nothing hidden is read."""
    from manoeuvre_sim.core.rng import seed_state
    from manoeuvre_sim.manoeuvre.engine.checks import fog_copy
    from manoeuvre_sim.manoeuvre.engine.options import FLAG_FAIR_CHECK, FLAG_FOG_OWN_HAND, POL_SIZE
    from manoeuvre_sim.manoeuvre.engine.search import determinize

    P, st = _mid_game_state()
    pol = np.zeros(POL_SIZE, dtype=np.int32)
    pol[2] = FLAG_FAIR_CHECK
    for seat in (0, 1):
        fog = fog_copy(st, P.deck_size, pol, seat, 3, 32)
        assert not np.array_equal(fog, st)
        a, b = np.empty_like(st), np.empty_like(st)
        for src, dst in ((st, a), (fog, b)):
            rng = np.zeros(4, dtype=np.uint64)
            seed_state(np.uint64(7), np.uint64(seat), rng)
            determinize(dst, src, P.deck_size, seat, rng)
        piles = np.zeros(S.STATE_SIZE, dtype=bool)
        for base, width in ((S.HAND, S.HMAX), (S.DECK, S.MAXC), (S.DISC, S.MAXC)):
            piles[base : base + 2 * width] = True
        assert np.array_equal(a[piles], b[piles])
        # the check can fail: fogging the seat's own hand changes the world
        pol[2] = FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND
        fog2 = fog_copy(st, P.deck_size, pol, seat, 3, 32)
        pol[2] = FLAG_FAIR_CHECK
        c = np.empty_like(st)
        rng = np.zeros(4, dtype=np.uint64)
        seed_state(np.uint64(7), np.uint64(seat), rng)
        determinize(c, fog2, P.deck_size, seat, rng)
        assert not np.array_equal(a[piles], c[piles])


# --- whole games ---------------------------------------------------------------------------
def _cfg(**kw):
    base = dict(games=4, seed=3, policy_a="search:6", policy_b="balanced", threads=1)
    return SimConfig("France", "Russia", **{**base, **kw})


def test_search_records_are_the_same_for_any_thread_count_and_chunk():
    one = simulate(_cfg(threads=1)).records
    two = simulate(_cfg(threads=2)).records
    chunked = simulate(_cfg(threads=2, chunk=1)).records
    assert np.array_equal(one, two) and np.array_equal(one, chunked)
    assert not np.array_equal(one, simulate(_cfg(seed=4)).records)


def test_search_decides_and_its_budget_matters():
    """The search player is not its rollout style under another name, and a different budget
    takes different decisions (the same games otherwise)."""
    style = simulate(_cfg(policy_a="balanced", games=6)).records
    s6 = simulate(_cfg(games=6)).records
    s12 = simulate(_cfg(policy_a="search:12", games=6)).records
    assert not np.array_equal(style, s6)
    assert not np.array_equal(s6, s12)


def test_search_plays_fair_and_the_check_can_fail():
    """Every search decision is taken again on a fogged copy of the state (its worlds may
    depend only on what the seat sees); with the seat's own hand fogged too — which the search
    reads — the check must fire. The rollout style is random, which reads nothing, so the
    failure can only come from the search's own check."""
    from manoeuvre_sim.manoeuvre.engine.options import FLAG_FAIR_CHECK, FLAG_FOG_OWN_HAND

    for a, b in (("France", "Russia"), ("Great Britain", "United States")):
        cfg = SimConfig(a, b, games=3, seed=17, policy_a="search:4", policy_b="search:3:random",
                        threads=1, check_fair_play=1, check_invariants=True)  # fmt: skip
        assert len(simulate(cfg).records) == 3
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    pols = ("search:3:random", "random")
    play_traced("France", "Russia", seed=17, policies=pols, fair_play=FLAG_FAIR_CHECK)
    with pytest.raises(AssertionError, match="fair play"):  # (raised outside a parallel loop)
        play_traced("France", "Russia", seed=17, policies=pols,
                    fair_play=FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND)  # fmt: skip


def test_search_traces_and_card_statistics():
    """A traced search game is the game simulate plays; card statistics come with it."""
    from manoeuvre_sim.manoeuvre.engine.batch import R_WINNER
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    res = simulate(_cfg(games=2), card_stats=True)
    assert res.card_stats is not None and res.card_stats[:, :, :, 0].sum() > 0
    for g in range(2):
        st, tr = play_traced("France", "Russia", seed=3, game=g,
                             policies=("search:6", "balanced"))  # fmt: skip
        assert st[S.WINNER] == res.records[g, R_WINNER]
        assert len(tr) > 50


@pytest.mark.parametrize(
    "spec, msg",
    [
        ("search:0", "budget"),
        ("search:x", "budget"),
        ("search:8:search", "rollout style"),
        ("search:8:nosuch", "rollout style"),
        ("search:8:balanced:1", "expected search"),
        ("balanced:8", "only search"),
        ("seach", "unknown policy"),
    ],
)
def test_bad_search_specs_are_refused(spec, msg):
    with pytest.raises(UsageError, match=msg):
        SimConfig("France", "Russia", policy_a=spec)


# --- the decisions of a combat --------------------------------------------------------------
# The last game turn (both first decks drawn: nightfall when it ends, rule 2.3); France has
# played, Russia (player 1) assaults France's reduced Garde Imperial (7: 5) with its Guard
# (c: 8, a card of 2d8); France has defended with two Garde cards (+7 +7: 19). Lakes leave
# the Garde no retreat. Each side has lost 2 units; Russia has 2 reduced units, France 1.
# If the Garde falls, Russia wins at nightfall (more units eliminated, rule 2.2), else
# France does (fewer reduced units). 8 + 2d8 beats 19 (the Garde, unable to retreat, takes
# the hit) with probability 15/64; with a Committed Attack (+2d6, the Guard takes a hit
# after, rule 9.2) about 0.85. The hit costs nothing here, but a style that counts it as a
# unit's step and an elimination as one unit (territorial) declines the card.
CA_SCENARIO = """
    . . . . . . . .
    a b d . e f . .
    . . . . . . . .
    . . . c . . . .
    . . L 7 L . . .
    . . L L L . . .
    . 1 . . . 2 . .
    0 . . 3 . . 6 .
"""
GUARD_CARD, GARDE_DEF_CARDS = 10, (35, 36)  # Russia's Guard 2d8; France's Garde, defence 7
RUSSIA_CA = 46


def committed_attack_scenario(policies, max_turns=200, fair_play=0, seed=1, step=5):
    """The scenario above at rule 6.1 step 5 (the combat under way at STAGE_ATT_CARD, Russia
    to decide; ``step=4``: at STAGE_DEF_CARD, France to decide its defence cards), Russia
    (player 1) moving second in the last game turn. Returns ``(P, st, g, gr,
    opt)``: the packed tables, the state, the game context and the search's rollout
    context."""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine import decisions as D
    from manoeuvre_sim.manoeuvre.engine.checks import check_invariants
    from manoeuvre_sim.manoeuvre.engine.game import python_context
    from manoeuvre_sim.manoeuvre.engine.options import rule_options
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays
    from manoeuvre_sim.manoeuvre.engine.rules import play_to_table
    from manoeuvre_sim.manoeuvre.engine.search import rollout_context
    from tests.manoeuvre.boards import parse_board
    from tests.manoeuvre.engine_helpers import engine_unit, packed, state_from_board

    P = packed("France", "Russia")
    st = state_from_board(parse_board(CA_SCENARIO), reduced=[7, 8, 9])
    hands = {0: [*GARDE_DEF_CARDS, 0, 46, 52], 1: [GUARD_CARD, RUSSIA_CA, 54, 55, 51]}
    for p, hand in hands.items():
        st[S.HAND_N + p] = len(hand)
        st[S.HAND + p * S.HMAX : S.HAND + p * S.HMAX + len(hand)] = hand
        rest = [c for c in range(P.deck_size[p]) if c not in hand]
        st[S.DECK_N + p] = len(rest)
        st[S.DECK + p * S.MAXC : S.DECK + p * S.MAXC + len(rest)] = rest
    st[S.ELIM : S.ELIM + 2] = 2
    st[S.FIRST_DECK_DONE : S.FIRST_DECK_DONE + 2] = 1
    st[S.TURN] = 15
    st[S.FIRST] = 0
    st[S.ACTIVE] = 1
    pol, params = policy_arrays(*policies, fair_play=fair_play)
    tr = np.zeros((0, 6), dtype=np.int32)
    g = python_context(P.tables, pol, params, new_state(seed, 0), tr, np.zeros(1, dtype=np.int32))
    cb = g.cb
    cb[D.CB_KIND] = D.CK_ASSAULT
    cb[D.CB_ATT_P] = 1
    cb[D.CB_DEF_U] = engine_unit(7)
    cb[D.CB_INIT_CARD] = play_to_table(st, 1, 0)  # the Guard's card, declared
    cb[D.CB_ATT] = engine_unit(10)
    cb[D.CB_NATT] = 1
    if step == 5:
        play_to_table(st, 0, 0)  # France's defence cards (step 4)
        play_to_table(st, 0, 0)
    cb[D.CB_STAGE] = D.STAGE_ATT_CARD if step == 5 else D.STAGE_DEF_CARD
    check_invariants(st, P.deck_size, P.tprops)
    return P, st, g, rollout_context(g), rule_options(max_turns=max_turns)


def _step5_search(policies, budget, fair_play=0):
    """The scenario's step-5 decision: its options, the style's choice and the search's,
    and each option's mean rollout score over the same ``budget`` worlds."""
    from manoeuvre_sim.manoeuvre.engine import decisions as D
    from manoeuvre_sim.manoeuvre.engine.combat_phase import stage_options
    from manoeuvre_sim.manoeuvre.engine.game import PH_COMBAT
    from manoeuvre_sim.manoeuvre.engine.options import POL_PLAN_DK, POL_PLAN_K
    from manoeuvre_sim.manoeuvre.engine.players import search_config
    from manoeuvre_sim.manoeuvre.engine.search import (
        combat_salt,
        plan_search,
        rollout,
        search_seed,
        style_choice,
    )

    P, st, g, gr, opt = committed_attack_scenario(policies, fair_play=fair_play)
    cand = np.zeros_like(g.opts)
    seat, dk, n = stage_options(st, g, 1, cand)
    assert (seat, dk) == (1, D.D_ATT_CARD)
    opts = cand[:n].copy()
    st0 = st.copy()
    cfg = search_config(f"search:{budget}:random", "random")[0]
    plan_search(st, g, gr, opt, P.tables.rank, 1, 1, PH_COMBAT, combat_salt(st, g.cb), dk, n,
                cfg, cand)  # fmt: skip
    assert np.array_equal(st, st0)  # the search played on copies
    assert g.pol[POL_PLAN_DK] == dk
    base = search_seed(g.rng, 1, combat_salt(st, g.cb))
    style = style_choice(st, gr, cand, 1, dk, n, base, 0)
    ws = np.empty_like(st)
    means = [np.mean([rollout(ws, st, g.cb, gr, opt, P.tables.rank, 1, 1, PH_COMBAT, dk, k, n,
                              base, w, cfg) for w in range(budget)]) for k in range(n)]  # fmt: skip
    return opts, int(style), int(g.pol[POL_PLAN_K]), means


def test_a_committed_attack_that_wins_the_game_is_searched_and_taken():
    """Step 5 of the scenario: the rollout style (territorial) declines the Committed Attack;
    the search weighs it, sees it win about 0.85 of its worlds against about 0.23, and
    takes it."""
    from manoeuvre_sim.manoeuvre.engine import decisions as D

    opts, style, k, means = _step5_search(("balanced", "search:32:territorial"), 32)
    assert [tuple(r[:2]) for r in opts] == [(-1, D.AC_DONE), (0, D.AC_COMMITTED)]
    assert opts[style, 1] == D.AC_DONE  # the style declines the Committed Attack
    assert opts[k, 1] == D.AC_COMMITTED  # the search takes it
    assert means[1] - means[0] > 0.3  # and it clearly matters


def test_the_defender_searches_in_the_opponents_turn_and_plays_fair():
    """France, in Russia's turn, decides its defence cards by search (the combat played on
    stage by stage, ``search_combat``). Every policy here either searches or plays at
    random (which reads nothing), so with the seat's own hand fogged too the fair-play check
    can fire only in France's search: it does; with the honest fog it does not, and without
    the search nothing fires."""
    from manoeuvre_sim.manoeuvre.engine import decisions as D
    from manoeuvre_sim.manoeuvre.engine.options import FLAG_FAIR_CHECK, FLAG_FOG_OWN_HAND
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import search_config
    from manoeuvre_sim.manoeuvre.engine.search import search_combat

    def play(policies, flags):
        P, st, g, gr, opt = committed_attack_scenario(policies, fair_play=flags, step=4)
        search_combat(st, g, gr, opt, P.tables.rank, 1, search_config(*policies),
                      np.zeros_like(g.opts))  # fmt: skip
        assert g.cb[D.CB_STAGE] == D.STAGE_NONE and st[S.TABLE_N] == 0
        return st

    searched = ("search:4:random", "random")
    play(searched, FLAG_FAIR_CHECK)
    play(("random", "random"), FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND)
    with pytest.raises(AssertionError, match="fair play|planned decision"):
        play(searched, FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND)


# --- plain Python ----------------------------------------------------------------------------
DECISION_SNIPPET = """
import json, sys
import numpy as np
sys.path.insert(0, ".")
from tests.manoeuvre.test_search import one_decision
print(json.dumps(one_decision()))
"""


def one_decision():
    """One search decision (the first move of the player to move at turn 4, random rollouts cut
    at turn 5): its choice and the rollouts' results, for the JIT / plain-Python check."""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine.combat_phase import stage_options
    from manoeuvre_sim.manoeuvre.engine.game import PH_COMBAT, PH_MOVE, Context, python_context
    from manoeuvre_sim.manoeuvre.engine.options import rule_options
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays, search_config
    from manoeuvre_sim.manoeuvre.engine.search import (
        candidates,
        first_options,
        rollout,
        search_decision,
    )

    cfg = search_config("search:12:random", "random")[0]  # rollouts to the end
    cfgv = search_config("search:12:random:v2", "random")[0]  # cut after 2 turns, the value

    P, st = _mid_game_state()
    pol, params = policy_arrays("random", "random")
    tr = np.zeros((0, 6), dtype=np.int32)
    g = python_context(P.tables, pol, params, new_state(1, 1), tr, np.zeros(1, dtype=np.int32))
    gr = Context(*g[:5], pol.copy(), params.copy(), np.zeros(4, dtype=np.uint64),
                 g.opts.copy(), g.cb.copy(), tr, np.zeros(1, dtype=np.int32))  # fmt: skip
    opt = rule_options(max_turns=5)
    p = int(st[S.FIRST])
    cand = np.zeros_like(g.opts)
    dk, n = first_options(st, g, opt, p, PH_MOVE, cand)
    base = np.uint64(12345)
    cands = np.empty(len(cand), dtype=np.int64)
    nc = candidates(st, g.cb, gr, cand, p, dk, n, base, cands, 6)
    rank = P.tables.rank
    k = search_decision(st, g.cb, gr, opt, rank, p, p, PH_MOVE, dk, n, 12, base, cands, nc, cfg)
    ws = np.empty_like(st)
    vals = [rollout(ws, st, g.cb, gr, opt, rank, p, p, PH_MOVE, dk, i, n, base, 0, cfg)
            for i in range(n)]  # fmt: skip
    out = {"n": int(n), "k": int(k), "values": [float(v) for v in vals], "ws": ws.tolist()}
    opt = rule_options()  # the value search: rollouts cut after 2 player turns, scored
    kv = search_decision(st, g.cb, gr, opt, rank, p, p, PH_MOVE, dk, n, 12, base, cands, nc,
                         cfgv)  # fmt: skip
    vv = [rollout(ws, st, g.cb, gr, opt, rank, p, p, PH_MOVE, dk, i, n, base, 0, cfgv)
          for i in range(n)]  # fmt: skip
    assert any(0.0 < v < 1.0 for v in vv)  # scored by the value, not played out
    out["value"] = {"k": int(kv), "values": [float(v) for v in vv], "ws": ws.tolist()}
    opt = rule_options(max_turns=5)
    # and a decision inside a combat: the step-5 card of the Committed Attack scenario
    P, st, g, gr, opt = committed_attack_scenario(("random", "search:8:random"), max_turns=7)
    gr.pol[:2] = 0  # random rollouts (plan_search sets them from the seat's style)
    dk, n = stage_options(st, g, 1, cand)[1:]
    nc = candidates(st, g.cb, gr, cand, 1, dk, n, base, cands, 6)
    rank = P.tables.rank
    k = search_decision(st, g.cb, gr, opt, rank, 1, 1, PH_COMBAT, dk, n, 12, base, cands, nc, cfg)
    vals = [rollout(ws, st, g.cb, gr, opt, rank, 1, 1, PH_COMBAT, dk, i, n, base, 1, cfg)
            for i in range(n)]  # fmt: skip
    out["combat"] = {"n": int(n), "k": int(k), "values": [float(v) for v in vals],
                     "ws": ws.tolist()}  # fmt: skip
    return out


def test_jit_and_plain_python_search_alike():
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    run = dict(capture_output=True, text=True, cwd=here, check=True)
    jit = subprocess.run([sys.executable, "-c", DECISION_SNIPPET], env=env, **run)
    env["NUMBA_DISABLE_JIT"] = "1"
    env["PYTHONWARNINGS"] = "ignore"
    py = subprocess.run([sys.executable, "-c", DECISION_SNIPPET], env=env, **run)
    a, b = json.loads(jit.stdout), json.loads(py.stdout)
    assert a == b
    assert a["n"] > 1
