"""Distant Lands leaders (rule 9.1; issue 14): Indian and Japanese leader restrictions in
combat, command and rally, the Japanese leader's 1d6 Assault value, the Maharaja.

"Leader (Indian) Indian Leaders have the above abilities except that they are restricted
to affecting the Units of the same nationality. [...] This restriction is applicable to
every leader capability including Rallying and adding the combat value to a unit. An Indian
Leader can only be used to combine the two units of the matching nationality into one
combat."
"Leader (Japanese) Most Japanese leaders may only command one unit. These leaders may be
used to initiate or add to an attack with that unit using a 1d6 Assault value. These cards
may not be used to combine units, aid in combat, or rally any unit other than the one they
match. Only Tokugawa may be used to affect all units like a leader from the base game."
"Maharaja [...] When these cards are played at the same time that a Leader of any
Nationality is played that leader loses all Nationality restrictions and can be played just
like any other leader in the game. A Maharaja also confers a Command value of 4 to the
leader it is played with."

The made-up test armies (tests/fixtures/distant_lands/): India as player 0 (0 Mysore
infantry 6/3, 1 Mysore cavalry 5/2, 2 Punjab infantry 5/3, 3 Punjab cavalry 5/3, 4-5
Maratha, 6-7 Hyderabad; leaders Mysore, Punjab, Maratha, Hyderabad, each Command 2) against
France (player 1: a 1st Cuirassiers 7/4, b 2nd Legere 6/3, ...); Japan as player 0 (0
Samurai 1 6/3, 1 Samurai 2 7/3, ..., 6-7 cavalry; leaders the Shogun (unrestricted, Command
3), Daimyo 1 for unit 0, Daimyo 2 for unit 1, Daimyo 3 for unit 6) against Russia.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import combat_steps as CS
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from tests.manoeuvre.engine_helpers import INDIA, JAPAN, packed, traced_jit_and_python
from tests.manoeuvre.test_engine_cards import (
    A,
    B,
    E,
    Slot,
    U,
    attack_card,
    cards_of,
    discards,
    events,
    setup,
    step,
)
from tests.manoeuvre.test_engine_cards import table as _table  # noqa: F401 (the fixture "table")

MYSORE, PUNJAB = 0, 1  # India's leaders, in file order
SHOGUN, DAIMYO_1, DAIMYO_2 = 0, 1, 2  # Japan's


@pytest.fixture
def table(_table):  # noqa: F811 (the imported fixture, under the name the tests use)
    """test_engine_cards.py's scripted-decisions, loaded-dice table."""
    return _table


def _leader(P, p, i):
    return cards_of(P, p, "leader")[i]


# --------------------------------------------------------------------------------------------
# Indian leaders: combat and command (rule 9.1 Leader (Indian), rule 6.5)
# --------------------------------------------------------------------------------------------
AROUND_A = """
    . . . . . . . .
    . . . . . . . .
    . . . 0 . . . .
    . . 1 a 2 . . .
    . . . 3 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_an_indian_leader_acts_only_for_its_nationality_in_an_assault(table):
    """Punjab infantry (2) assaults a: the Mysore leader is offered for nothing (neither
    Combat for a Punjab unit nor Command); the Punjab leader for Combat and Command, and its
    command brings only the Punjab cavalry (3), not the adjacent Mysore units 0 and 1."""
    P = packed(INDIA, "France")
    atk = attack_card(P, 0, 2, (2, 6))
    mys, pun = _leader(P, 0, MYSORE), _leader(P, 0, PUNJAB)
    st = setup(AROUND_A, P, {0: [atk, mys, pun]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(2), Slot(atk), A)),
                 (D.D_ATT_CARD, (Slot(pun), D.AC_LEADER_COMMAND)),
                 (D.D_SUPPORT, (U(3),))],
        dice=[7],
    )  # fmt: skip
    hand0 = [mys, pun]  # when step 5 asks (the attack card is on the table)
    first = {(hand0[o[0]], int(o[1])) for o in script.offered(D.D_ATT_CARD)[0] if o[0] >= 0}
    assert first == {(pun, D.AC_LEADER_COMBAT), (pun, D.AC_LEADER_COMMAND)}
    (support,) = script.offered(D.D_SUPPORT)[:1]
    assert sorted(int(o[0]) for o in support) == [-1, U(3)]
    # 5 + 5 against the 1st Cuirassiers' 7: (10 + 7 = 17) >= 2 x 7 (rule 6.1 step 7)
    assert events(ev, R.EV_COMBAT)[0][1:3] == (D.CK_ASSAULT, 17)


def test_a_restricted_leader_is_refused_combat_in_an_ambush():
    """An Ambush has no attacking unit, so an Indian leader has no unit of its own to add
    its Combat value to (DL15); a base leader may."""
    P = packed(INDIA, "France")
    mys = _leader(P, 0, MYSORE)
    st = setup(AROUND_A, P, {0: [mys]})
    cb = np.zeros(D.CB_SIZE, np.int32)
    cb[D.CB_LEADER] = cb[D.CB_DLEADER] = -1
    cb[D.CB_KIND] = D.CK_AMBUSH
    opts = np.zeros((D.MAXOPT, 4), np.int32)
    n = CS.att_card_options(st, P.units, P.cards, cb, 0, A, True, opts)
    whats = [int(o[1]) for o in opts[:n]]
    assert D.AC_LEADER_COMBAT not in whats and D.AC_LEADER_COMMAND in whats
    # the Ambush card counts as the first unit; the Mysore leader's Command 2 brings one
    # supporting unit, of its nationality only
    cb[D.CB_LEADER] = mys
    cb[D.CB_LMODE] = 2
    n = CS.support_options(st, P.units, P.cards, P.tprops, cb, 0, A, True, opts)
    assert sorted(int(o[0]) for o in opts[:n]) == [-1, U(0), U(1)]


def test_a_maharaja_lifts_the_restriction_and_gives_command_4(table):
    """The Mysore leader with a Maharaja leads the Punjab infantry's assault: Command 4, so
    three supporting units of any nationality (the odds' reading: ``--maharaja`` allows
    three ``--support``); both cards are played and discarded after the combat."""
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.odds import Support, build_attack

    P = packed(INDIA, "France")
    atk = attack_card(P, 0, 2, (2, 6))
    mys = _leader(P, 0, MYSORE)
    (mah, *_) = cards_of(P, 0, "Maharaja")
    st = setup(AROUND_A, P, {0: [atk, mys, mah]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(2), Slot(atk), A)),
                 (D.D_ATT_CARD, (Slot(mys), D.AC_MAHARAJA_COMMAND, Slot(mah))),
                 (D.D_SUPPORT, (U(0),)), (D.D_SUPPORT, (U(1),)), (D.D_SUPPORT, (U(3),))],
        dice=[2],
    )  # fmt: skip
    first = script.offered(D.D_ATT_CARD)[0]
    assert {int(o[1]) for o in first} == {
        D.AC_DONE, D.AC_MAHARAJA_COMBAT, D.AC_MAHARAJA_COMMAND,
    }  # fmt: skip
    assert len(script.offered(D.D_SUPPORT)) == 3  # no fourth: Command 4 leads four units
    plays = [(int(e[2]), int(e[3]), int(e[4])) for e in ev if e[0] == R.EV_PLAY]
    assert (mah, R.PURPOSE_MAHARAJA, mys) in plays
    # 5 + 6 + 5 + 5 units and 2 on the dice against 7: elimination (4x)
    assert events(ev, R.EV_COMBAT)[0][1:3] == (D.CK_ASSAULT, 23)
    assert {atk, mys, mah} <= set(discards(st, 0))
    build_attack(5, ["2d6"], maharaja=True, supports=[Support(5)] * 3)
    with pytest.raises(UsageError, match="Command allows 3"):
        build_attack(5, ["2d6"], maharaja=True, supports=[Support(5)] * 4)


def test_an_indian_leader_defends_only_its_nationality_unless_with_a_maharaja(table):
    """France's b assaults the Punjab infantry (2): the Punjab leader may add its Combat
    value, the Mysore leader only with the Maharaja (option column 2 = 1 + its slot)."""
    P = packed(INDIA, "France")
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . b 2 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    fatk = attack_card(P, 1, 1)
    mys, pun = _leader(P, 0, MYSORE), _leader(P, 0, PUNJAB)
    (mah, *_) = cards_of(P, 0, "Maharaja")
    st = setup(board, P, {0: [mys, pun, mah], 1: [fatk]})
    script, ev = table(
        "combat_phase", st, P, 1,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, B, Slot(fatk), U(2))),
                 (D.D_DEF_CARD, (Slot(mys), U(2), None))],
        dice=[2],
    )  # fmt: skip
    first = script.offered(D.D_DEF_CARD)[0]
    hand0 = [mys, pun, mah]
    got = sorted((hand0[o[0]] if o[0] >= 0 else -1, int(o[2])) for o in first)
    assert got == [(-1, 0), (mys, 1 + 2), (pun, 0)]
    plays = [(int(e[2]), int(e[3])) for e in ev if e[0] == R.EV_PLAY and e[1] == 0]
    assert (mah, R.PURPOSE_MAHARAJA) in plays and (mys, R.PURPOSE_LEADER_COMBAT) in plays
    # defence 5 + Mysore's Combat 2 = 7 against 6 + 2
    assert events(ev, R.EV_COMBAT)[0][1:4] == (D.CK_ASSAULT, 8, 7)


def test_an_indian_leader_rallies_only_its_nationality_unless_with_a_maharaja(table):
    """Rule 7 with rule 9.1: the Mysore leader may try to restore the reduced Mysore
    infantry (0), the reduced Punjab infantry (2) only with the Maharaja."""
    P = packed(INDIA, "France")
    mys = _leader(P, 0, MYSORE)
    (mah, *_) = cards_of(P, 0, "Maharaja")
    st = setup(AROUND_A, P, {0: [mys]}, reduced=(0, 2))
    script, _ = table("restoration_phase", st, P, 0)
    assert [tuple(int(x) for x in o[:3]) for o in script.offered(D.D_RESTORE)[0]] == [
        (-1, -1, 0), (0, U(0), 0),
    ]  # fmt: skip
    st = setup(AROUND_A, P, {0: [mys, mah]}, reduced=(0, 2))
    script, ev = table(
        "restoration_phase", st, P, 0,
        answers=[(D.D_RESTORE, (Slot(mys), U(2), 2))], dice=[4],
    )  # fmt: skip
    assert step(st, 2) == 2 and step(st, 0) == 1
    assert sorted(discards(st, 0)) == sorted([mys, mah])
    assert script.rolls == [(1, 6, 4)]  # the Mysore leader's rally 1-4
    assert events(ev, R.EV_PLAY)[0] == (0, mah, R.PURPOSE_MAHARAJA, mys, 0)


# --------------------------------------------------------------------------------------------
# Japanese leaders: one unit, a 1d6 Assault value (rule 9.1 Leader (Japanese))
# --------------------------------------------------------------------------------------------
JAPAN_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . e . . . .
    . . 1 0 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_a_japanese_leader_starts_an_assault_with_its_unit_at_1d6(table):
    """Daimyo 1 in hand offers an Assault by its unit 0 on the adjacent e (Koursk 6/5) and
    none by unit 1 (next to e too); the attack is unit 0's strength 6 and 1d6 — the odds'
    ``--japanese-leader`` (6 + 1d6). A Skirmish in hand is not offered in step 5 ("The
    Active Player may not play a Leader card during the same combat as a Skirmish card")."""
    from manoeuvre_sim.manoeuvre.odds import JAPANESE_LEADER_DICE, build_attack

    P = packed(JAPAN, "Russia")
    cards = P.cards.copy()
    (sk,) = cards_of(P, 0, "Ambush")
    cards[0, sk, S.CF_HQ] = S.HQ_SKIRMISH  # the test army has none: its Ambush becomes one
    P = dataclasses.replace(P, cards=cards)
    d1 = _leader(P, 0, DAIMYO_1)
    board = JAPAN_BOARD.replace(". . 1 0", ". . . 0").replace(". . . e", ". . 1 e")
    st = setup(board, P, {0: [d1, sk]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(d1), E))], dice=[4],
    )  # fmt: skip
    combats = [tuple(int(x) for x in o) for o in script.offered(D.D_COMBAT)[0]]
    assert combats == [(D.CK_NONE, -1, -1, -1), (D.CK_ASSAULT, U(0), 0, E)]
    assert script.rolls == [(1, 6, 4)]
    assert events(ev, R.EV_COMBAT)[0][1:4] == (D.CK_ASSAULT, 6 + 4, 6)
    att = build_attack(6, japanese_leader=True)
    assert att.base == 6 and att.dice == (JAPANESE_LEADER_DICE,)
    assert (
        JAPANESE_LEADER_DICE.count, JAPANESE_LEADER_DICE.sides,
    ) == (R.JAPANESE_LEADER_N, R.JAPANESE_LEADER_S)  # fmt: skip
    assert script.offered(D.D_ATT_CARD) == []  # the Skirmish is not offered


def test_a_japanese_leader_adds_1d6_for_its_unit_never_combines_units(table):
    """Samurai 1 (0) assaults e with a unit card. Daimyo 1 is offered for its 1d6 (as a unit
    card of 0) and for its Combat value (it acts for 0), never for Command, even with a
    Command of 3 (it "may not be used to combine units"); Daimyo 2 is offered nothing until
    its unit 1 joins, brought by the Shogun's command: then its 1d6 for unit 1."""
    P = packed(JAPAN, "Russia")
    cards = P.cards.copy()
    d1, d2, sho = (_leader(P, 0, i) for i in (DAIMYO_1, DAIMYO_2, SHOGUN))
    cards[0, d1, S.CF_CMD] = 3
    P = dataclasses.replace(P, cards=cards)
    atk = attack_card(P, 0, 0, (2, 6))
    board = JAPAN_BOARD.replace(". . 1 0", ". . . 0").replace(". . . e .", ". . . e 1")
    st = setup(board, P, {0: [atk, d1, d2, sho]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(atk), E)),
                 (D.D_ATT_CARD, (Slot(sho), D.AC_LEADER_COMMAND)),
                 (D.D_SUPPORT, (U(1),)),
                 (D.D_ATT_CARD, (Slot(d2), D.AC_UNIT, U(1)))],
        dice=[7, 3],
    )  # fmt: skip
    hand0 = [d1, d2, sho]  # after the attack card left the hand
    first = {(hand0[o[0]], int(o[1])) for o in script.offered(D.D_ATT_CARD)[0] if o[0] >= 0}
    assert first == {
        (d1, D.AC_UNIT), (d1, D.AC_LEADER_COMBAT),
        (sho, D.AC_LEADER_COMBAT), (sho, D.AC_LEADER_COMMAND),
    }  # fmt: skip
    later = script.offered(D.D_ATT_CARD)[1]
    hand1 = [d1, d2]
    assert {(hand1[o[0]], int(o[1]), int(o[2])) for o in later if o[0] >= 0} == {
        (d1, D.AC_UNIT, U(0)), (d2, D.AC_UNIT, U(1)),
    }  # fmt: skip
    # 6 + 7 (units) + 7 (2d6) + 3 (Daimyo 2's 1d6); the Shogun's command rolls nothing
    assert script.rolls == [(2, 6, 7), (1, 6, 3)]
    assert events(ev, R.EV_COMBAT)[0][1:3] == (D.CK_ASSAULT, 23)


def test_a_japanese_leader_for_its_combat_value_rolls_no_1d6(table):
    """Played for its Combat value (the combat's one leader) Daimyo 1 adds its Combat 2 to
    its unit's attack, not its 1d6 as well."""
    P = packed(JAPAN, "Russia")
    d1 = _leader(P, 0, DAIMYO_1)
    atk = attack_card(P, 0, 0, (2, 6))
    st = setup(JAPAN_BOARD, P, {0: [atk, d1]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(atk), E)),
                 (D.D_ATT_CARD, (Slot(d1), D.AC_LEADER_COMBAT))],
        dice=[5],
    )  # fmt: skip
    assert script.rolls == [(2, 6, 5)]
    assert events(ev, R.EV_COMBAT)[0][1:3] == (D.CK_ASSAULT, 6 + 5 + 2)


def test_a_japanese_leader_defends_and_rallies_only_its_unit(table):
    P = packed(JAPAN, "Russia")
    d1 = _leader(P, 0, DAIMYO_1)
    st = setup(JAPAN_BOARD, P, {0: [d1]}, reduced=(0, 1))
    cb = np.zeros(D.CB_SIZE, np.int32)
    cb[D.CB_LEADER] = cb[D.CB_DLEADER] = -1
    opts = np.zeros((D.MAXOPT, 4), np.int32)
    assert CS.def_card_options(st, P.units, P.cards, cb, 0, U(0), opts) == 2
    assert CS.def_card_options(st, P.units, P.cards, cb, 0, U(1), opts) == 1
    assert R.leader_acts_for(P.units, P.cards, 0, d1, U(0))
    assert not R.leader_acts_for(P.units, P.cards, 0, d1, U(1))
    sho = _leader(P, 0, SHOGUN)
    assert R.leader_acts_for(P.units, P.cards, 0, sho, U(1))  # Tokugawa: every unit
    script, _ = table("restoration_phase", st, P, 0)
    assert [(int(o[0]), int(o[1])) for o in script.offered(D.D_RESTORE)[0]] == [
        (-1, -1), (0, U(0)),
    ]  # fmt: skip


def test_restricted_leader_options_match_plain_python():
    """The option kernels compiled and as plain Python on the scenarios above."""
    P = packed(INDIA, "France")
    mys = _leader(P, 0, MYSORE)
    (mah, *_) = cards_of(P, 0, "Maharaja")
    st = setup(AROUND_A, P, {0: [mys, mah]})
    cb = np.zeros(D.CB_SIZE, np.int32)
    cb[D.CB_LEADER] = cb[D.CB_DLEADER] = -1
    cb[D.CB_NATT] = 1
    cb[D.CB_ATT] = U(2)
    a = np.zeros((D.MAXOPT, 4), np.int32)
    b = a.copy()
    n = CS.att_card_options(st, P.units, P.cards, cb, 0, A, False, a)
    assert n == CS.att_card_options.py_func(st, P.units, P.cards, cb, 0, A, False, b)
    assert (a[:n] == b[:n]).all() and n == 3  # done, Maharaja + Combat, Maharaja + Command


# --------------------------------------------------------------------------------------------
# whole games: every player, invariants, fair play, JIT == plain Python, replays
# --------------------------------------------------------------------------------------------
def _count(tr, P, pred):
    return sum(1 for e in tr if pred(*(int(x) for x in e), P))


def _maharaja(ev, p, a, b, c, d, P):
    return ev == R.EV_PLAY and b == R.PURPOSE_MAHARAJA


def _japanese_1d6(ev, p, a, b, c, d, P):
    return (
        ev == R.EV_PLAY
        and b in (R.PURPOSE_INITIATE, R.PURPOSE_ATTACK)
        and P.cards[p, a, S.CF_KIND] == S.KIND_LEADER
        and P.cards[p, a, S.CF_LUNIT] > 0
    )


def _restricted_rally(ev, p, a, b, c, d, P):
    return (
        ev == R.EV_PLAY
        and b == R.PURPOSE_RESTORE
        and P.cards[p, a, S.CF_KIND] == S.KIND_LEADER
        and R.leader_restricted(P.cards, p, a)
    )


@pytest.mark.parametrize(
    "policy", ["random", "simple", "attritional", "territorial", "balanced", "tuned"]
)
def test_every_player_uses_them_and_plays_fair(policy):
    """India against Japan, both seatings: every player plays Maharajas, Japanese leaders' 1d6 and
    restricted rallies (seen in traces), keeping every invariant and the fair-play check
    (a violation raises)."""
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    seen = {"maharaja": 0, "1d6": 0, "rally": 0}
    for a, b in ((INDIA, JAPAN), (JAPAN, INDIA)):
        *_, P = load_packed(a, b)
        for seed in range(15):
            _, tr = play_traced(a, b, seed=seed, game=0, policies=(policy, policy))
            seen["maharaja"] += _count(tr, P, _maharaja)
            seen["1d6"] += _count(tr, P, _japanese_1d6)
            seen["rally"] += _count(tr, P, _restricted_rally)
    assert all(seen.values()), seen
    cfg = SimConfig(INDIA, JAPAN, games=16, seed=7, policy_a=policy, policy_b=policy,
                    threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
    assert len(simulate(cfg).records) == 16


def test_search_player_with_them():
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    cfg = SimConfig(INDIA, JAPAN, games=2, seed=3, policy_a="search:4", policy_b="search:4",
                    threads=1, check_invariants=True, check_fair_play=1)  # fmt: skip
    assert len(simulate(cfg).records) == 2


@pytest.mark.parametrize("army_b", ["Russia", JAPAN])
def test_random_games_keep_every_invariant(army_b):
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    for a, b in ((INDIA, army_b), (JAPAN, "Prussia")):
        cfg = SimConfig(a, b, games=400, seed=11, policy_a="random", policy_b="random",
                        check_invariants=True)  # fmt: skip
        assert len(simulate(cfg).records) == 400


def test_games_with_them_identical_with_and_without_the_jit():
    a, b = traced_jit_and_python(INDIA, JAPAN, [(s, ("random", "balanced")) for s in (1, 2)])
    assert a == b
    a, b = traced_jit_and_python(JAPAN, INDIA, [(3, ("tuned", "random"))])
    assert a == b


def test_replay_rebuilds_games_with_them():
    from manoeuvre_sim.manoeuvre.replay import replay_game
    from manoeuvre_sim.manoeuvre.replay.text import section_lines

    lines = []
    for seed in range(8):
        rep = replay_game(INDIA, JAPAN, seed=seed, policies=("balanced", "balanced"))
        lines += [ln for sec in rep.turns for ln in section_lines(rep, sec)]
    assert any("no nationality restriction, Command 4" in ln for ln in lines)
    assert any("Daimyo" in ln and " assaults " in ln for ln in lines)


def test_card_statistics_count_the_maharaja_as_its_own_use():
    from manoeuvre_sim.manoeuvre.engine import cardstats as C

    assert C.USE_NAMES[C.USE_MAHARAJA] == "maharaja" and C.CS_USE + len(C.USE_NAMES) == C.NCS
    tr = np.array([[R.EV_PLAY, 0, 3, R.PURPOSE_MAHARAJA, 1, 0]], np.int32)
    out = np.zeros((2, 5, C.NCS), np.int32)
    C.scan_trace(tr, 1, out)
    assert out[0, 3, C.CS_USE + C.USE_MAHARAJA] == 1 and out[0, 3, C.CS_USE + C.USE_FIRE] == 0


@pytest.mark.parametrize("policy", ["simple", "attritional", "territorial", "balanced", "tuned"])
def test_every_style_plays_a_maharaja_to_bring_three_units(policy):
    """The Punjab infantry assaults a (1st Cuirassiers 7/4) with 2d6; the Mysore leader
    cannot act for it, but with the Maharaja it leads the three other adjacent units
    (Command 4), whose 16 strength make an elimination (four times the defence) likely:
    every style plays the pair for Command and brings them."""
    from tests.manoeuvre.test_player_choices import run_phase

    P = packed(INDIA, "France")
    atk = attack_card(P, 0, 2, (2, 6))
    mys = _leader(P, 0, MYSORE)
    (mah, *_) = cards_of(P, 0, "Maharaja")
    st = setup(AROUND_A, P, {0: [atk, mys, mah]})
    tr = run_phase("combat_phase", st, P, 0, policy=policy)
    played = [(int(e[2]), int(e[3])) for e in tr if e[0] == R.EV_PLAY and e[1] == 0]
    assert (mah, R.PURPOSE_MAHARAJA) in played and (mys, R.PURPOSE_LEADER_COMMAND) in played
    assert events(tr, R.EV_COMBAT)[0][2] >= 5 + 6 + 5 + 5  # the four units' strength


# --------------------------------------------------------------------------------------------
# the players' view: a revealed hand's leader defends only the units it may act for
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand, expected",
    [
        (("Mysore",), "Mysore"),  # the Mysore infantry's own leader
        (("Punjab",), None),  # restricted to the Punjab units: no help to a Mysore unit
        (("Punjab", "Maharaja"), "Punjab"),  # a Maharaja lifts the restriction
    ],
)
def test_a_revealed_restricted_leader_counts_only_for_its_units(hand, expected):
    """France (player 1) has seen India's hand (Scout/Spy) and values an assault on the
    Mysore infantry (unit 0): the defence it expects from India's cards (players/odds.py
    ``_expected_def_cards``) counts a leader's Combat value only where rule 9.1 lets it
    act (the engine's ``leader_acts_for``), or with a Maharaja beside it."""
    from manoeuvre_sim.manoeuvre.engine.players.odds import _expected_def_cards
    from manoeuvre_sim.manoeuvre.engine.players.params import NPARAM

    P = packed(INDIA, "France")
    names = {"Mysore": _leader(P, 0, MYSORE), "Punjab": _leader(P, 0, PUNJAB)}
    names["Maharaja"] = cards_of(P, 0, "Maharaja")[0]
    st = setup(AROUND_A, P, {0: [names[h] for h in hand]})
    st[S.REVEALED + 1] = 1
    got = _expected_def_cards(st, P.units, P.cards, np.zeros(NPARAM), 1, 0)
    want = 0 if expected is None else P.cards[0, names[expected], S.CF_CBT_D]
    assert want > 0 or expected is None  # the check of the check: the leaders defend
    assert got == float(want)
