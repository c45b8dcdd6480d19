"""What the styles neglect (manoeuvre/studies/neglect.py): the table's arithmetic on a hand-made input,
the discard fields of the per-copy statistics against the trace, and a small run."""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core import stats
from manoeuvre_sim.manoeuvre.engine import cardstats as CS
from manoeuvre_sim.manoeuvre.studies import neglect as N

USE = {name: k for k, name in enumerate(CS.USE_NAMES)}


def _tiny():
    """Four card copies and three observations, written out by hand.

    copies: 0, 1 Committed Attack; 2 a unit card with a withdraw value; 3 a leader.
    game 0 (won):   CA 0 played (committed); the unit card played for a withdraw roll;
                    the leader discarded on turn 1
    game 1 (lost):  both CAs drawn and discarded; the unit card played in defence
    game 2 (drawn): CA 1 drawn and still in hand at the end; the unit card drawn and
                    discarded; the leader played
    """
    names = N.type_names()
    member = np.zeros((4, len(names)), dtype=bool)
    ca, unit, roll, leader = (names.index(x) for x in
                              ("Committed Attack", N.UNIT, N.WITHDRAW_ROLL, N.LEADER))  # fmt: skip
    member[0, ca] = member[1, ca] = True
    member[2, unit] = member[2, roll] = True
    member[3, leader] = True
    by_use = np.full(len(names), -1)
    by_use[roll] = USE["withdraw"]
    cs = np.zeros((3, 4, CS.NCS), dtype=np.int32)

    def drawn(g, c, plays=(), discards=0, t1=False):
        cs[g, c, CS.CS_DRAWN] = 1
        for use in plays:
            cs[g, c, CS.CS_PLAYS] += 1
            cs[g, c, CS.CS_USE + USE[use]] += 1
        cs[g, c, CS.CS_DISCARDS] = discards
        cs[g, c, CS.CS_DISCARD_T1] = int(t1)

    drawn(0, 0, plays=["committed"])
    drawn(0, 2, plays=["withdraw"])
    drawn(0, 3, discards=1, t1=True)
    drawn(1, 0, discards=1, t1=True)
    drawn(1, 1, discards=2)
    drawn(1, 2, plays=["defense"])
    drawn(2, 1)
    drawn(2, 2, discards=1, t1=True)
    drawn(2, 3, plays=["leader_combat"])
    score = np.array([1.0, 0.0, 0.5])
    return member, by_use, cs, score, (ca, unit, roll, leader)


def test_side_counts_of_a_hand_made_input():
    member, by_use, cs, _, (ca, unit, roll, leader) = _tiny()
    c = N.side_type_counts(cs, member, by_use)
    assert c["drawn"][:, ca].tolist() == [1, 2, 1]
    assert c["played"][:, ca].tolist() == [1, 0, 0]
    assert c["discarded"][:, ca].tolist() == [0, 2, 0]
    # the withdraw roll counts only the plays for a withdraw; the unit card every play
    assert c["played"][:, roll].tolist() == [1, 0, 0]
    assert c["played"][:, unit].tolist() == [1, 1, 0]
    assert c["discarded"][:, roll].tolist() == [0, 0, 1]
    assert c["uses"][1, unit, USE["defense"]] == 1 and c["uses"][1, roll].sum() == 0
    assert c["discard_t1"].tolist() == [1, 1, 1]
    assert c["discards"].tolist() == [1, 3, 1]
    assert c["all_plays"].tolist() == [2, 1, 1]


def test_table_arithmetic_of_a_hand_made_input(armies):
    member, by_use, cs, score, (ca, unit, roll, leader) = _tiny()
    o = N.NeglectSums()
    o.add_games(np.array([10, 20, 30]), np.array([True, False, False]), np.zeros(3, bool))
    o.add_side(armies["Russia"], score, N.side_type_counts(cs, member, by_use), member)
    df = N.card_frame("p", o).set_index("card")
    r = df.loc["Committed Attack"]
    assert (r.copies_drawn, r.held_games, r.played_games, r.unplayed_games) == (4, 3, 1, 2)
    # the copy still in hand at the end was neither played nor discarded
    assert r.play_rate == pytest.approx(1 / 4) and r.discard_rate == pytest.approx(2 / 4)
    assert (r.win_played, r.win_unplayed) == (1.0, 0.25)
    lo, hi = stats.wilson_interval(1, 1)
    assert (r.win_played_low, r.win_played_high) == pytest.approx((float(lo), float(hi)))
    assert np.isnan(r.played_minus_unplayed)  # under MIN_GROUP observations a side
    assert r.used_as == "committed 100%"
    r = df.loc[N.WITHDRAW_ROLL]
    assert (r.copies_drawn, r.played_games, r.unplayed_games) == (3, 1, 2)
    assert r.play_rate == pytest.approx(1 / 3) and r.discard_rate == pytest.approx(1 / 3)
    assert (r.win_played, r.win_unplayed) == (1.0, 0.25)
    assert r.used_as == "withdraw 100%"
    r = df.loc[N.UNIT]
    assert r.play_rate == pytest.approx(2 / 3) and r.win_unplayed == 0.5
    r = df.loc[N.LEADER]
    assert (r.win_played, r.win_unplayed) == (0.5, 1.0)
    row = N.policy_row("p", "p", o)
    assert row["games"] == 3 and row["sides"] == 3
    assert row["mean_turns"] == 20.0 and row["attrition"] == pytest.approx(1 / 3)
    assert row["discarded_turn1"] == 1.0 and row["whole_hand_turn1"] == 0.0
    assert row["discards_per_side"] == pytest.approx(5 / 3)
    assert row["plays_per_side"] == pytest.approx(4 / 3)


def test_difference_and_its_interval_once_both_groups_are_large(armies):
    """Twenty copies of the hand-made games: the withdraw roll's played group (20 wins)
    against its held-never-played group (20 losses, 20 draws)."""
    member, by_use, cs, score, _ = _tiny()
    o = N.NeglectSums()
    counts = N.side_type_counts(np.tile(cs, (20, 1, 1)), member, by_use)
    o.add_side(armies["Russia"], np.tile(score, 20), counts, member)
    r = N.card_frame("p", o).set_index("card").loc[N.WITHDRAW_ROLL]
    b = np.array([0.0] * 20 + [0.5] * 20)
    half = stats.z_value() * np.sqrt(0.0 / 20 + b.var() / 40)
    assert r.played_minus_unplayed == pytest.approx(0.75)
    assert (r.diff_low, r.diff_high) == pytest.approx((0.75 - half, 0.75 + half))


def test_types_of_the_united_states(armies):
    member, by_use = N.card_types(armies["United States"])
    names = N.type_names()
    assert member.shape == (60, len(names))
    assert member[:, names.index(N.UNIT)].sum() == 40
    # the unit cards printed with a Withdraw value (data/armies/united_states.toml)
    assert member[:, names.index(N.WITHDRAW_ROLL)].sum() == 18
    assert member[:, names.index("Withdraw")].sum() == 2
    assert not member[:, names.index("Committed Attack")].any()
    assert by_use[names.index(N.WITHDRAW_ROLL)] == USE["withdraw"]


def test_discard_statistics_equal_the_trace():
    """CS_DISCARDS and CS_DISCARD_T1 of the kernel scan against the discards of the trace."""
    from manoeuvre_sim.manoeuvre.engine.rules import EV_DISCARD, EV_TURN
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    for g in range(3):
        _, tr = play_traced("Russia", "United States", seed=5, game=g,
                            policies=("balanced", "territorial"), check=False)  # fmt: skip
        out = np.zeros((2, 60, CS.NCS), dtype=np.int32)
        CS.scan_trace(tr, len(tr), out)
        disc = np.zeros((2, 60), dtype=int)
        t1 = np.zeros((2, 60), dtype=int)
        turn = 0
        for ev, p, a, *_ in tr.tolist():
            if ev == EV_TURN:
                turn = a
            elif ev == EV_DISCARD:
                disc[p, a] += 1
                t1[p, a] |= turn == 1
        assert disc.sum() > 0 and t1.sum() > 0
        assert np.array_equal(out[:, :, CS.CS_DISCARDS], disc)
        assert np.array_equal(out[:, :, CS.CS_DISCARD_T1], t1)


def test_a_small_run_counts_every_side_once():
    res = N.run(["balanced", "random"], armies=["Russia", "United States"], games_per_pairing=6,
                seed=3)  # fmt: skip
    pol = res.policies.set_index("policy")
    assert pol.loc["balanced", "games"] == 4 * 6 and pol.loc["balanced", "sides"] == 2 * 4 * 6
    cards = res.cards.set_index(["policy", "card"])
    # Russia holds Committed Attacks, the United States the withdraw roll
    assert cards.loc[("balanced", "Committed Attack"), "armies"] == 1
    assert cards.loc[("balanced", N.WITHDRAW_ROLL), "armies"] == 1
    # every side holds unit cards in every game
    assert cards.loc[("random", N.UNIT), "held_games"] == 2 * 4 * 6


def test_against_another_opponent_the_policy_plays_both_seats():
    res = N.run(["balanced"], armies=["Russia"], games_per_pairing=5, opponent="random", seed=3)
    spec = res.spec
    assert [(p.policy_a, p.policy_b) for p in spec.pairings()] == [
        ("balanced", "random"),
        ("random", "balanced"),
    ]
    assert res.policies.loc[0, "games"] == 10 and res.policies.loc[0, "sides"] == 10


@pytest.mark.parametrize(
    ("kw", "needle"),
    [
        ({"policies": ["nobody"]}, "--policies: unknown policy 'nobody'"),
        ({"policies": ["balanced", "balanced"]}, "--policies: a policy is named twice"),
        ({"policies": {"balanced": 0}}, "--games"),
        ({"policies": ["balanced"], "opponent": "nobody"}, "unknown policy 'nobody'"),
    ],
)
def test_bad_input_is_one_line(kw, needle):
    from manoeuvre_sim.core.errors import UsageError

    with pytest.raises(UsageError, match=needle.replace("(", r"\(")):
        N.run(armies=["Russia"], **kw)
