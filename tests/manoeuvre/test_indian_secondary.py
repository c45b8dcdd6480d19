"""Distant Lands secondary effects of Indian unit cards (rules 1.4, 8; issue 14).

"Many of the Indian Unit cards have a secondary effect listed on the bottom of the card.
These cards can be used as either extra HQ cards in the case of Guerrillas or Redoubt, or
they can be used to augment an attack by making it Committed. To use the special ability,
that unit must still be in play on the board." (1.4)
"Unit Redoubt [...] This card may be played during the Restoration Phase to place a redoubt
under either the Infantry or Cavalry unit of that nationality [...] This counts as the one
Redoubt card per turn." "Guerrillas [...] may be played as if they were standard Guerrilla
Cards." "Committed Attack [...] When an Attack is made using this card, the Indian player may
declare the Attack Committed after all other Defensive and Offensive cards have been played.
The unit using the Committed Attack gets to roll two additional d6 but also suffers one hit
after all other combat losses have been issued." (8)

The made-up India test army (tests/fixtures/distant_lands/india.toml) as player 0: 0
Mysore infantry 6/3 (a Redoubt card), 1 Mysore cavalry 5/2 (a Committed Attack card, 2d8),
2 Punjab infantry 5/3 (a Redoubt card), 3 Punjab cavalry 5/3 (a Guerrillas card), 4-5
Maratha, 6-7 Hyderabad; against France (player 1: a 1st Cuirassiers 7/4, b 2nd Legere 6/3).
"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from tests.manoeuvre.boards import at
from tests.manoeuvre.engine_helpers import INDIA, JAPAN, packed, uowner
from tests.manoeuvre.test_engine_cards import (
    B,
    Slot,
    U,
    cards_of,
    discards,
    events,
    setup,
    step,
)
from tests.manoeuvre.test_engine_cards import table as _table  # noqa: F401 (the fixture "table")


@pytest.fixture
def table(_table):  # noqa: F811 (the imported fixture, under the name the tests use)
    """test_engine_cards.py's scripted-decisions, loaded-dice table."""
    return _table


def _secondary(P, unit, sec):
    (c,) = cards_of(P, 0, "unit", unit, lambda r: r[S.CF_SECOND] == sec)
    return c


BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . b . . . .
    . . . 1 . . . .
    . . 0 . 2 . . .
    . . . . . . . .
    . . . . . . . .
"""


# --------------------------------------------------------------------------------------------
# Unit Redoubt
# --------------------------------------------------------------------------------------------
def test_a_unit_redoubt_goes_under_a_unit_of_its_nationality(table):
    """The Mysore infantry's Redoubt card may build under the Mysore infantry (0) or
    cavalry (1), not the Punjab infantry (2); with the Punjab infantry's Redoubt card also in
    hand only one redoubt is built (one Redoubt card per turn)."""
    P = packed(INDIA, "France")
    mys = _secondary(P, 0, S.SEC_REDOUBT)
    pun = _secondary(P, 2, S.SEC_REDOUBT)
    st = setup(BOARD, P, {0: [mys, pun]})
    script, ev = table("restoration_phase", st, P, 0, answers=[(D.D_REDOUBT, (Slot(mys), U(1)))])
    (opts,) = script.offered(D.D_REDOUBT)
    hand0 = [mys, pun]
    got = {(hand0[o[0]], int(o[1])) for o in opts if o[0] >= 0}
    assert got == {(mys, U(0)), (mys, U(1)), (pun, U(2))}
    assert st[S.REDOUBT + at(4, 3)] == 1 and st[S.REDOUBT : S.REDOUBT + 64].sum() == 1
    assert discards(st, 0) == [mys]
    assert events(ev, R.EV_PLAY) == [(0, mys, R.PURPOSE_REDOUBT, U(1), 0)]


def test_a_unit_redoubt_needs_its_unit_on_the_board(table):
    """With the Mysore infantry (0) eliminated its card's Redoubt cannot be built, not even
    under the Mysore cavalry."""
    P = packed(INDIA, "France")
    mys = _secondary(P, 0, S.SEC_REDOUBT)
    st = setup(BOARD.replace(" 0 ", " . "), P, {0: [mys]}, elim=(1, 0))
    script, _ = table("restoration_phase", st, P, 0)
    assert script.offered(D.D_REDOUBT) == []


# --------------------------------------------------------------------------------------------
# Guerrillas
# --------------------------------------------------------------------------------------------
GUERRILLA_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . b . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . 3 . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("on_board", [True, False], ids=["unit on the board", "unit gone"])
def test_a_guerrillas_card_negates_like_a_guerrilla_while_its_unit_stands(table, on_board):
    """France restores its reduced b with a Supply card; India answers with the Punjab
    cavalry's Guerrillas card (rule 9.2 Guerrilla: both cards discarded, no restoration);
    with the Punjab cavalry (3) eliminated the card is not offered and b is restored."""
    P = packed(INDIA, "France")
    gue = _secondary(P, 3, S.SEC_GUERRILLAS)
    plain = cards_of(P, 0, "unit", 0)[0]
    (sup, *_) = cards_of(P, 1, "Supply")
    board = GUERRILLA_BOARD if on_board else GUERRILLA_BOARD.replace(" 3 ", " . ")
    st = setup(board, P, {0: [plain, gue], 1: [sup]}, reduced=(9,), elim=(0 if on_board else 1, 0))
    answers = [(D.D_RESTORE, (Slot(sup), B))]
    if on_board:
        answers.append((D.D_GUERRILLA, (Slot(gue),)))
    script, ev = table("restoration_phase", st, P, 1, answers=answers)
    if on_board:
        (opts,) = script.offered(D.D_GUERRILLA)
        assert [int(o[0]) for o in opts] == [-1, 1]  # the plain unit card is no Guerrilla
        assert step(st, 9) == 1 and discards(st, 0) == [gue]
        assert events(ev, R.EV_NEGATE) == [(0, sup, gue, 0, 0)]
    else:
        assert script.offered(D.D_GUERRILLA) == [] and step(st, 9) == 2


# --------------------------------------------------------------------------------------------
# Committed Attack
# --------------------------------------------------------------------------------------------
def test_a_committed_attack_card_commits_its_units_attack(table):
    """The Mysore cavalry (1) assaults b with its Committed Attack card: step 5 offers the
    declaration (no card), once; declared, 2d6 more are rolled and the unit takes one hit
    after the combat's other results (the odds' ``--committed 1``: +2d6)."""
    from manoeuvre_sim.manoeuvre.odds import COMMITTED_DICE

    P = packed(INDIA, "France")
    ca = _secondary(P, 1, S.SEC_COMMITTED)
    st = setup(BOARD, P, {0: [ca]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(1), Slot(ca), B)),
                 (D.D_ATT_CARD, (-1, D.AC_DECLARE_COMMITTED, U(1)))],
        dice=[9, 5, 6],
    )  # fmt: skip
    (first,) = script.offered(D.D_ATT_CARD)  # declared once: no second decision
    assert [tuple(int(x) for x in o[:3]) for o in first] == [
        (-1, D.AC_DONE, -1), (-1, D.AC_DECLARE_COMMITTED, U(1)),
    ]  # fmt: skip
    # the attack card's 2d8, the declaration's 2d6, then the advancing cavalry's pursuit
    assert script.rolls == [
        (2, 8, 9), (COMMITTED_DICE.count, COMMITTED_DICE.sides, 5), (1, 6, 6),
    ]  # fmt: skip
    assert events(ev, R.EV_COMMITTED) == [(0, U(1), ca, 0, 0)]
    # 5 + 9 + 5 = 19 against 6: three times (hit and retreat); then the committed hit
    assert events(ev, R.EV_COMBAT)[0][1:3] == (D.CK_ASSAULT, 19)
    assert step(st, 1) == 1 and step(st, 9) == 1


def test_a_committed_unit_cards_hit_does_not_pass_on(table):
    """Band 0: the reduced Mysore cavalry (1) is eliminated, the supporting Mysore infantry
    (0) reduced; the declared Committed hit was the cavalry's own ("the unit using the
    Committed Attack [...] suffers one hit") and passes to no one (DL17), unlike a Committed
    Attack HQ card's (interpretation 26)."""
    P = packed(INDIA, "France")
    ca = _secondary(P, 1, S.SEC_COMMITTED)
    (mys,) = cards_of(P, 0, "leader")[:1]
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . 0 Tb . . . .
        . . . 1 . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    dfc = cards_of(P, 1, "unit", 1)[0]
    st = setup(board, P, {0: [ca, mys], 1: [dfc]}, reduced=(1,), redoubts=(at(3, 3),))
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(1), Slot(ca), B)),
                 (D.D_DEF_CARD, (Slot(dfc), B)),
                 (D.D_ATT_CARD, (Slot(mys), D.AC_LEADER_COMMAND)),
                 (D.D_SUPPORT, (U(0),)),
                 (D.D_ATT_CARD, (-1, D.AC_DECLARE_COMMITTED, U(1)))],
        dice=[2, 2],
    )  # fmt: skip
    # 2 + 6 + 2 + 2 = 12 against 6 + 3 (town) + 3 (redoubt) + a defence card: band 0
    a, d, band = events(ev, R.EV_COMBAT)[0][2:5]
    assert a == 12 and d > a and band == 0
    assert step(st, 1) == 0 and step(st, 0) == 1
    assert script.offered(D.D_COMMITTED_HIT) == []


def _player_commits(policy, reduced, ndef):
    """The Mysore cavalry's assault on b (Town, a redoubt) with its Committed Attack card,
    the defender's ``ndef`` unit cards on the table, from step 5 with ``policy`` deciding:
    does it declare the attack Committed?"""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays

    P = packed(INDIA, "France")
    ca = _secondary(P, 1, S.SEC_COMMITTED)
    board = BOARD.replace(". . . b", ". . . Tb")
    defs = cards_of(P, 1, "unit", 1)[:ndef]
    st = setup(board, P, {0: [ca], 1: defs}, reduced=reduced, redoubts=(at(3, 3),))
    for p, slots in ((1, range(ndef)), (0, range(1))):
        for _ in slots:
            R.play_to_table(st, p, 0)
    pol, params = policy_arrays(policy, policy)
    cb = np.zeros(G.CB_SIZE, np.int32)
    cb[D.CB_LEADER] = cb[D.CB_DLEADER] = -1
    cb[D.CB_KIND], cb[D.CB_ATT_P], cb[D.CB_DEF_U] = D.CK_ASSAULT, 0, B
    cb[D.CB_NATT], cb[D.CB_ATT], cb[D.CB_INIT_CARD] = 1, U(1), ca
    cb[D.CB_STAGE] = D.STAGE_ATT_CARD
    g = G.Context(
        P.units, P.cards, P.deck_size, P.tprops, uowner(), pol, params, new_state(1),
        np.zeros((D.MAXOPT, 4), np.int32), cb, np.zeros((500, 6), np.int32),
        np.zeros(1, np.int32),
    )  # fmt: skip
    G.combat_phase(st, g, 0)
    G.check_invariants(st, P.deck_size, P.tprops)
    return any(e[0] == R.EV_COMMITTED for e in g.tr[: g.trn[0]])


@pytest.mark.parametrize("policy", ["attritional", "balanced", "tuned"])
def test_the_styles_commit_when_band_0_would_take_the_unit_anyway(policy):
    """Reduced, facing a defence its 2d8 can hardly beat, the Mysore cavalry falls in band 0
    whether or not it commits; committed, its +2d6 may win, and the hit costs only then:
    the styles declare it. Full strength (the hit then also costs when the attack fails)
    they do not. (territorial, whose Committed Attack cost weight is 3, declines both, as it
    declines a Committed Attack card; simple commits a full unit, never a reduced one.)"""
    assert _player_commits(policy, (1,), 1)
    assert not _player_commits(policy, (), 2)


def test_territorial_declines_it_as_it_declines_a_committed_attack_card():
    """README's note: territorial's Committed Attack weight (H_CA 3) outweighs even the
    dominant case above; it does not play a Committed Attack card there either (Russia's
    1st Cavalry, test_player_choices' board)."""
    assert not _player_commits("territorial", (1,), 1)


def test_simple_commits_a_full_unit_only():
    assert _player_commits("simple", (), 2) and not _player_commits("simple", (1,), 1)


# --------------------------------------------------------------------------------------------
# whole games
# --------------------------------------------------------------------------------------------
def _uses(tr, P):
    out = {"committed": 0, "redoubt": 0, "guerrillas": 0}
    for e in tr:
        ev, p, a, b = (int(x) for x in e[:4])
        if ev == R.EV_COMMITTED:
            out["committed"] += 1
        elif ev == R.EV_PLAY and P.cards[p, a, S.CF_KIND] == S.KIND_UNIT:
            if b == R.PURPOSE_REDOUBT:
                out["redoubt"] += 1
            elif b == R.PURPOSE_GUERRILLA:
                out["guerrillas"] += 1
    return out


@pytest.mark.parametrize(
    "policy", ["random", "simple", "attritional", "territorial", "balanced", "tuned"]
)
def test_every_player_uses_them_and_plays_fair(policy):
    """India against Japan, both seatings, 15 games each: every player builds unit
    Redoubts and plays Guerrillas cards (random, simple, balanced and tuned also declare
    Committed attacks), with every invariant and the fair-play check on."""
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    seen = {"committed": 0, "redoubt": 0, "guerrillas": 0}
    for a, b in ((INDIA, JAPAN), (JAPAN, INDIA)):
        *_, P = load_packed(a, b)
        for seed in range(15):
            _, tr = play_traced(a, b, seed=seed, game=0, policies=(policy, policy))
            for k, v in _uses(tr, P).items():
                seen[k] += v
    assert seen["redoubt"] and seen["guerrillas"], seen
    if policy not in ("attritional", "territorial"):
        assert seen["committed"], seen
    cfg = SimConfig(INDIA, "Austria", games=16, seed=5, policy_a=policy, policy_b=policy,
                    threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
    assert len(simulate(cfg).records) == 16


def test_replay_shows_a_declared_committed_attack():
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.manoeuvre.replay.text import section_lines

    lines = []
    for seed in range(15):
        rep = replay_game(INDIA, JAPAN, seed=seed, policies=("simple", "simple"))
        lines += [ln for sec in rep.turns for ln in section_lines(rep, sec)]
    assert any("Committed with" in ln for ln in lines)
