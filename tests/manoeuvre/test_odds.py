"""Exact combat odds (manoeuvre_sim/manoeuvre/odds.py) against icepool, hand-computed cases from the
reference card, and the Monte Carlo kernels within 4 sigma of the exact values."""

from __future__ import annotations

import icepool
import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.core.stats import binomial_sigma, normal_interval, wilson_interval
from manoeuvre_sim.manoeuvre import matchup as MU
from manoeuvre_sim.manoeuvre import odds as O
from manoeuvre_sim.manoeuvre.combat import BAND_NAMES


def _band_independent(a: int, d: int) -> int:
    """The Results Table read top-down as printed, the highest row that applies wins."""
    rows = [a < d, a == d, a > d, a >= 2 * d, a >= 3 * d, a >= 4 * d]
    return max(i for i, ok in enumerate(rows) if ok)


def _icepool_total(base: int, dice: list[str], committed: int = 0):
    die = icepool.Die([base])
    for txt in dice + ["2d6"] * committed:
        n, s = (int(x) for x in txt.lower().split("d"))
        die = die + (n @ icepool.d(s))
    return die


def _icepool_bands(base, dice, committed, d):
    die = _icepool_total(base, dice, committed)
    out = np.zeros(6)
    denom = die.denominator()
    for outcome, q in zip(die.outcomes(), die.quantities(), strict=True):
        out[_band_independent(outcome, d)] += q / denom
    return out


MIXES = [["1d6"], ["1d8"], ["1d10"], ["2d6"], ["2d8"], ["2d10"], ["2d8", "1d6"],
         ["1d10", "2d6", "1d8"], ["3d6"], ["1d20"], ["2d4", "1d12"]]  # fmt: skip


@pytest.mark.parametrize("dice", MIXES, ids=["+".join(m) for m in MIXES])
def test_assault_exact_equals_icepool(dice):
    for base in (0, 3, 8, 13):
        for committed in (0, 1):
            att = O.build_attack(base, dice, committed=committed)
            for d in (1, 2, 4, 7, 10, 15, 22):
                ours = O.assault_odds(att, d).probs
                ref = _icepool_bands(base, dice, committed, d)
                np.testing.assert_allclose(ours, ref, atol=1e-12)
                assert abs(ours.sum() - 1) < 1e-12


def test_band_grid_matches_single_cells_including_defense_zero():
    pmf = O.sum_pmf(O.as_dice(["2d8", "1d6"]))
    bases, defs = np.arange(0, 15), np.arange(0, 25)
    grid = O.band_grid(pmf, bases, defs)
    for i, b in enumerate(bases):
        for j, d in enumerate(defs):
            ref = np.zeros(6)
            for t, p in enumerate(pmf):
                if p:
                    ref[_band_independent(int(b) + t, int(d))] += p
            np.testing.assert_allclose(grid[i, j], ref, atol=1e-12)


@pytest.mark.parametrize("dice", [["1d6"], ["2d6"], ["2d8"], ["1d10"], ["2d10"], ["3d6", "1d8"]])
def test_fire_exact_equals_icepool(dice):
    for hill in (False, True):
        die = _icepool_total(2 if hill else 0, dice)
        for d in range(0, 25, 2):
            ref = float(sum(q for o, q in zip(die.outcomes(), die.quantities(), strict=True)
                            if o > d)) / die.denominator()  # fmt: skip
            assert O.fire_odds(dice, d, hill=hill).hit == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize(("cards", "mod"), [([4], 0), ([4, 3], -1), ([1, 2, 6], 0), ([2, 2], -2),
                                            ([5, 1], 1)])  # fmt: skip
def test_pursuit_exact_equals_icepool(cards, mod):
    die = icepool.Die([0])
    for m in cards:
        die = die + icepool.d6.map(lambda r, m=m: 1 if r + mod <= m else 0)
    ref = np.zeros(len(cards) + 1)
    for o, q in zip(die.outcomes(), die.quantities(), strict=True):
        ref[o] = q / die.denominator()
    np.testing.assert_allclose(O.pursuit_odds(cards, mod), ref, atol=1e-12)


# --- hand-computed from the reference card ----------------------------------------------------


def test_hand_computed_assault():
    # 8 + 2d8 against 12: A < 12 iff 2d8 in {2, 3}: 3/64; A = 12 iff 2d8 = 4: 3/64;
    # A >= 24 iff 2d8 = 16: 1/64; the rest is "defender chooses".
    o = O.assault_odds(O.build_attack(8, ["2d8"]), 12)
    assert o.bands == pytest.approx({"attacker_hit": 3 / 64, "no_effect": 3 / 64,
                                     "defender_choice": 57 / 64, "attacker_choice": 1 / 64,
                                     "hit_and_retreat": 0.0, "eliminated": 0.0})  # fmt: skip
    assert o.attack_total_mean == pytest.approx(17.0)
    # 1d6 against 1: no effect on a 1, attacker chooses on 2, hit and retreat on 3,
    # eliminated on 4..6
    o = O.assault_odds(O.build_attack(0, ["1d6"]), 1)
    np.testing.assert_allclose(o.probs, [0, 1 / 6, 0, 1 / 6, 1 / 6, 3 / 6])
    # an Ambush is 1d10 alone (no strength): against 3, 1-2 hit the attacker, 3 no effect,
    # 4-5 defender's choice, 6-8 attacker's choice, 9-10 hit and retreat
    o = O.assault_odds(O.build_attack(ambush=True), 3)
    np.testing.assert_allclose(o.probs, [0.2, 0.1, 0.2, 0.3, 0.2, 0.0])


def test_hand_computed_fire_rockets_rally_withdraw():
    assert O.fire_odds(["2d6"], 6, hill=True).hit == pytest.approx(30 / 36)  # 2d6 > 4
    assert O.fire_odds(["1d6"], 6).hit == 0.0
    assert O.fire_odds(["2d10"], 10).hit == pytest.approx(55 / 100)  # Grand Battery vs 10
    assert O.rocket_odds() == {"no_effect": 0.4, "retreat": 0.4, "retreat_and_hit": 0.2}
    assert O.rally_odds(3) == 0.5 and O.rally_odds("auto") == 1.0  # rule 7 example: Soult
    assert O.rally_odds(5) == pytest.approx(5 / 6)  # Ney
    assert O.withdraw_odds(2) == pytest.approx(1 / 3)
    assert O.pursuit_hit_prob(1, -1) == pytest.approx(2 / 6)  # 0 counts as in range


def test_build_attack_and_defense_components():
    att = O.build_attack(8, ["2d8"], hill=True, committed=1)
    assert att.base == 10 and att.all_dice == (O.Dice(2, 8), O.Dice(2, 6))
    att = O.build_attack(
        6,
        ["2d8"],
        leader_command=3,
        supports=[O.Support(5, O.as_dice("1d6")), O.Support(4)],
        committed=3,
    )
    assert att.base == 15 and len(att.dice) == 2 and att.committed == 3
    assert O.build_defense(8, terrain=2, redoubt=True, cards=[7, 5], leader_combat=3) == 28
    assert O.build_defense(8, terrain=2, redoubt=True, sappers=True) == 10


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"strength": 8, "dice": ["3x7"]}, "NdS"),
        ({"strength": -1, "dice": ["2d8"]}, ">= 0"),
        ({"strength": 8}, "rule 6.1 step 1"),
        ({"strength": 8, "dice": ["2d8"], "committed": 2}, "one per unit"),
        (
            {"strength": 8, "dice": ["2d8"], "leader_combat": 2, "supports": [O.Support(4)]},
            "never both",
        ),
        (
            {
                "strength": 8,
                "dice": ["2d8"],
                "leader_command": 2,
                "supports": [O.Support(4), O.Support(5)],
            },
            "Command - 1",
        ),
        ({"strength": 3, "ambush": True}, "no strength"),
    ],
)
def test_build_attack_rejects(kwargs, msg):
    with pytest.raises(UsageError, match=msg):
        O.build_attack(**kwargs)


def test_negative_defense_rejected():
    with pytest.raises(UsageError, match=">= 0"):
        O.assault_odds(O.build_attack(8, ["2d8"]), -3)
    with pytest.raises(UsageError, match=">= 0"):
        O.fire_odds(["2d8"], -1)


# --- Monte Carlo within 4 sigma of exact ------------------------------------------------------

N_MC = 200_000
MC_CASES = [(0, ["1d6"], 0, 2), (4, ["2d8"], 0, 6), (8, ["2d8"], 0, 12), (8, ["2d8"], 1, 12),
            (3, ["1d10"], 0, 1), (6, ["2d10", "1d6"], 0, 9), (12, ["1d8"], 1, 5),
            (0, ["1d10"], 0, 3), (5, ["3d6", "1d4"], 0, 8), (2, ["2d6"], 0, 20)]  # fmt: skip


def _within(est_counts, n, p):
    est = est_counts / n
    sig = binomial_sigma(p, n)
    ok = np.where(p == 0, est_counts == 0, np.abs(est - p) <= 4 * sig + 1e-12)
    return bool(np.all(ok)), est


@pytest.mark.parametrize("case", MC_CASES, ids=[f"{b}+{'+'.join(d)}+CA{c}v{x}"
                                                 for b, d, c, x in MC_CASES])  # fmt: skip
def test_assault_monte_carlo_within_4_sigma(case):
    base, dice, committed, d = case
    att = O.build_attack(base, dice, committed=committed)
    exact = O.assault_odds(att, d).probs
    est = O.simulate_assault(att, d, N_MC, seed=100 + MC_CASES.index(case), chunk=1 << 16)
    ok, p = _within(est.counts, N_MC, exact)
    assert ok, (exact, p)
    assert est.counts.sum() == N_MC
    lo, hi = est.interval
    ref_lo, ref_hi = proportion_confint(est.counts, N_MC, method="wilson")
    np.testing.assert_allclose(lo, ref_lo, atol=1e-12)
    np.testing.assert_allclose(hi, ref_hi, atol=1e-12)


def test_fire_pursuit_rockets_d6_monte_carlo_within_4_sigma():
    for dice, d, hill in [(["2d6"], 6, True), (["2d8"], 9, False), (["2d10"], 12, False)]:
        exact = O.fire_odds(dice, d, hill=hill).hit
        est = O.simulate_fire(dice, d, N_MC, seed=4, hill=hill)
        assert _within(est.counts, N_MC, np.array([1 - exact, exact]))[0]
    for cards, mod in [([4, 3], -1), ([2, 5, 1], 0)]:
        est = O.simulate_pursuit(cards, mod, N_MC, seed=5)
        assert _within(est.counts, N_MC, O.pursuit_odds(cards, mod))[0]
    est = O.simulate_rockets(N_MC, seed=6)
    assert _within(est.counts, N_MC, O.ROCKET_PROBS)[0]
    for m in (0, 2, 5, 6):
        est = O.simulate_d6_range(m, N_MC, seed=7)
        assert _within(est.counts, N_MC, np.array([1 - m / 6, m / 6]))[0]


def test_simulation_reproducible():
    att = O.build_attack(8, ["2d8"])
    a = O.simulate_assault(att, 12, 50_000, seed=3).counts
    b = O.simulate_assault(att, 12, 50_000, seed=3).counts
    assert np.array_equal(a, b)


# --- intervals ---------------------------------------------------------------------------------


def test_intervals():
    lo, hi = wilson_interval(0, 100)
    assert lo == 0.0 and 0 < hi < 0.05
    lo, hi = wilson_interval(100, 100)
    assert hi == 1.0 and lo > 0.95
    lo, hi = wilson_interval(np.array([30, 70]), 100)
    assert np.allclose(lo + hi[::-1], 1.0)  # symmetric
    lo, hi = normal_interval(50, 100)
    assert hi - lo == pytest.approx(2 * 1.959964 * 0.05, rel=1e-5)
    with pytest.raises(ValueError):
        wilson_interval(1, 0)


# --- named matchups ------------------------------------------------------------------------------


def test_matchup_garde_imperial_vs_russian_guard_on_hill():
    m = MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard",
                   defender_terrain="hill")  # fmt: skip
    # Garde Imperial: full 8, four 2d8 attack cards; Russian Guard full 8 + hill 2 = 10,
    # cards: four defense 5, one defense 7 (the artillery card)
    assert m.attack_base == 8 and m.defense_base == 10
    by = {(r.attack, r.defense): r for r in m.rows}
    assert set(by) == {("2d8", "none"), ("2d8", "+5"), ("2d8", "+7")}
    assert by["2d8", "+5"].defense_cards == 4 and by["2d8", "+7"].defense_cards == 1
    exp = O.assault_odds(O.build_attack(8, ["2d8"]), 15).probs
    np.testing.assert_allclose(by["2d8", "+5"].odds.probs, exp)
    # the defender holds one of its five cards at random: 4/5 of +5, 1/5 of +7
    mix = 0.8 * exp + 0.2 * O.assault_odds(O.build_attack(8, ["2d8"]), 17).probs
    np.testing.assert_allclose(m.held_mixture["2d8"], mix)
    np.testing.assert_allclose(m.overall, mix)
    d = m.to_dict()
    assert set(BAND_NAMES) <= set(d["overall"])


def test_matchup_hill_attack_bonus_leaders_and_two_cards():
    m = MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard",
                   attacker_terrain="hill", attacker_leader="Murat", defender_leader=None,
                   attack_cards=2, defender_reduced=True)  # fmt: skip
    assert m.attack_base == 8 + 2 + 3 and m.defense_base == 6
    assert {r.attack for r in m.rows} == {"2d8+2d8"}
    # on a hill against a hill: no bonus
    m = MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard",
                   attacker_terrain="hill", defender_terrain="hill")  # fmt: skip
    assert m.attack_base == 8


def test_matchup_errors():
    with pytest.raises(DataError, match="unknown unit 'Old Guard'"):
        MU.matchup("France", "Old Guard", "Russia", "Russian Guard")
    with pytest.raises(DataError, match="unknown army"):
        MU.matchup("Atlantis", "Garde Imperial", "Russia", "Russian Guard")
    with pytest.raises(UsageError, match="Marsh"):
        MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard", attacker_terrain="marsh")
    with pytest.raises(UsageError, match="unknown terrain"):
        MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard", defender_terrain="sea")
    with pytest.raises(DataError, match="unknown leader"):
        MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard", attacker_leader="Kutuzov")


def test_odds_grid_shape_and_mix_parsing():
    labels, p = O.odds_grid(["2d8", "2d8+1d6", ["1d10", "1d6"]], range(5), range(1, 8))
    assert labels == ["2d8", "2d8+1d6", "1d10+1d6"] and p.shape == (3, 5, 7, 6)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0)
    with pytest.raises(UsageError, match="dice mix"):
        O.parse_mix("2d8++1d6")


def test_matchup_random_hand_distribution():
    import math

    m = MU.matchup("France", "Garde Imperial", "Russia", "Russian Guard", defender_terrain="hill")
    # Russian Guard cards' defense: 5, 5, 5, 5, 7; hand = 5 of a 60-card deck (hypergeometric)
    defs = [5, 5, 5, 5, 7]
    ref = np.zeros(6)
    held = np.zeros(6)
    for mask in range(32):
        chosen = [defs[i] for i in range(5) if mask >> i & 1]
        p = math.comb(55, 5 - len(chosen)) / math.comb(60, 5)
        held[len(chosen)] += p
        ref += p * _icepool_bands(8, ["2d8"], 0, 10 + sum(chosen))
    np.testing.assert_allclose(m.hand_cards, held, atol=1e-15)
    np.testing.assert_allclose(m.hand_mixture["2d8"], ref, atol=1e-12)
    np.testing.assert_allclose(m.hand_overall, ref, atol=1e-12)
    assert m.hand_cards[0] == pytest.approx(math.comb(55, 5) / math.comb(60, 5))
