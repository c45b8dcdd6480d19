"""Maneuver's combat odds (manoeuvre_sim/hexgame/odds.py, rules 001): the exact odds against a
brute-force enumeration of the two dice and against icepool, the engine's roll within 4
sigma, and the Capital, supply and step-loss conversions on hand-worked cases."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import icepool
import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import crt
from manoeuvre_sim.hexgame import odds as O
from manoeuvre_sim.hexgame.crt import AE, AR, DE, DR, NE

F = Fraction


def _brute_force(attack: int, defence: int) -> list[Fraction]:
    """All 36 rolls of the attacker's and the defender's d6 (rule [8] steps 1-3)."""
    counts = [0] * crt.N_RESULTS
    for a in range(1, 7):
        for d in range(1, 7):
            counts[crt.crt_result((attack + a) - (defence + d))] += 1
    return [F(c, 36) for c in counts]


def test_exact_odds_equal_the_36_rolls_over_a_grid_of_strengths():
    for attack in range(0, 21):
        for defence in range(0, 21):
            res = O.combat_odds([attack], [defence])
            assert list(res.exact) == _brute_force(attack, defence), (attack, defence)
            assert sum(res.exact) == 1


def test_exact_odds_of_several_units_add_their_strengths():
    """Rule [8]: attacking units combine their strengths, and all units in a hex defend
    together."""
    res = O.combat_odds("4,3,2", "5,1")
    assert (res.attack_strength, res.defence_strength, res.difference) == (9, 6, 3)
    assert list(res.exact) == _brute_force(9, 6)


@pytest.mark.parametrize("difference", [-9, -5, -3, -1, 0, 1, 2, 4, 6, 10])
def test_exact_odds_equal_icepool(difference):
    die = icepool.d6 - icepool.d6 + difference  # attacker's d6 - defender's d6 (rule [8])
    table = die.map(getattr(crt.crt_result, "py_func", crt.crt_result))
    ours = O.result_fractions(difference)
    for r in range(crt.N_RESULTS):
        assert ours[r] == F(table.probability(r)), (difference, crt.RESULT_NAMES[r])


def test_hand_worked_odds_of_a_plus_three_attack():
    """+3 (e.g. 4+3 against 4): DE when the attacker's die beats the defender's (15 of 36),
    DR on a tie or -1 (6 + 5), NE at -2 or -3 (4 + 3), AR at -4 or -5 (2 + 1), never AE."""
    res = O.combat_odds("4,3", "4")
    assert res.exact == (F(0), F(3, 36), F(7, 36), F(11, 36), F(15, 36))
    assert res.cumulative == {">=AR": 1, ">=NE": F(33, 36), ">=DR": F(26, 36), ">=DE": F(15, 36)}


def _four_sigma(est, exact):
    for r, p in enumerate(exact):
        p = float(p)
        sigma = math.sqrt(p * (1 - p) / est.n)
        assert abs(est.p[r] - p) <= 4 * sigma, (crt.RESULT_NAMES[r], est.p[r], p)


@pytest.mark.parametrize(
    ("attack", "defence"), [("4,3", "4"), ("2", "6"), ("5,2u", "3,3"), ("1", "1")]
)
def test_engine_roll_agrees_within_four_sigma(attack, defence):
    res = O.combat_odds(attack, defence)
    est = O.simulate(res, 100_000, seed=24)
    assert est.n == 100_000 and est.counts.sum() == 100_000
    _four_sigma(est, res.exact)


_NOJIT = """
import json
from manoeuvre_sim.hexgame import odds as O
res = O.combat_odds("4", "3")
print(json.dumps(O.simulate(res, 3_000, seed=7, chunk=1_000).counts.tolist()))
"""


def test_simulation_reproducible_from_the_seed_compiled_or_not():
    """The same seed gives the same counts, and the compiled kernel rolls what its plain
    Python source rolls (``NUMBA_DISABLE_JIT=1``) on the same streams."""
    res = O.combat_odds("4", "3")
    a = O.simulate(res, 50_000, seed=7, chunk=20_000)
    b = O.simulate(res, 50_000, seed=7, chunk=20_000)
    assert np.array_equal(a.counts, b.counts)
    assert not np.array_equal(a.counts, O.simulate(res, 50_000, seed=8, chunk=20_000).counts)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", _NOJIT], capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == O.simulate(res, 3_000, seed=7, chunk=1_000).counts.tolist()


def _fates(res, attacking):
    return [dict(zip(O.FATE_NAMES, f, strict=True)) for f in res.fates(attacking)]


def test_the_capitals_hex_defending_ignores_dr_and_de_captures_the_capital():
    """Rule [11]: AE, AR and DR are no effect for the Capital and all units in its hex; a DE
    against a defending Capital captures it. 6 against 2 (+4): DE 21/36, DR 9/36, NE 5/36,
    AR 1/36."""
    plain = O.combat_odds("6", "2")
    assert plain.exact == (F(0), F(1, 36), F(5, 36), F(9, 36), F(21, 36))
    assert _fates(plain, False)[0]["retreats"] == F(9, 36)
    cap = O.combat_odds("6", "1,1c")  # the Capital (strength 1) and a unit in its hex
    assert cap.exact == plain.exact and cap.capital_defending
    unit, capital = _fates(cap, False)
    assert capital["captured"] == F(21, 36) and capital["unaffected"] == F(15, 36)
    assert unit["eliminated"] == F(21, 36) and unit["retreats"] == 0
    assert unit["unaffected"] == F(15, 36)
    assert cap.effects(DR)[1] == (O.UNAFFECTED, O.UNAFFECTED)


def test_attackers_from_the_capitals_hex_ignore_ae_and_ar_the_others_do_not():
    """Rule [11]: AE and AR are no effect for units of the Capital's hex (H-odds-2: an
    attacker from another hex beside them still suffers). 1h+1 against 5 (-3): AE 21/36,
    AR 9/36, NE 5/36, DR 1/36."""
    res = O.combat_odds("1h,1", "5")
    assert res.exact == (F(21, 36), F(9, 36), F(5, 36), F(1, 36), F(0))
    from_capital, other = _fates(res, True)
    assert from_capital["unaffected"] == 1
    assert other["eliminated"] == F(21, 36) and other["retreats"] == F(9, 36)
    assert res.capital_attacking
    assert res.effects(AE)[0] == (O.UNAFFECTED, O.ELIMINATED)
    capital = O.combat_odds("0c", "2")
    assert _fates(capital, True)[0]["unaffected"] == 1


def test_step_losses_flip_full_strength_units_and_eliminate_reduced_ones():
    """Rule [13].3: an AE or DE flips full-strength units; underlined ones are eliminated.
    2+2r against 7 (-3): AE 21/36, AR 9/36."""
    res = O.combat_odds("2,2r", "7", step_losses=True)
    full, reduced = _fates(res, True)
    assert full["reduced"] == F(21, 36) and full["eliminated"] == 0
    assert reduced["eliminated"] == F(21, 36) and reduced["reduced"] == 0
    assert full["retreats"] == reduced["retreats"] == F(9, 36)
    basic = O.combat_odds("2,2r", "7")  # without the advanced rule both are eliminated
    assert [f["eliminated"] for f in _fates(basic, True)] == [F(21, 36)] * 2


def test_step_losses_in_the_capitals_hex():
    """A DE against the Capital's hex with step losses (H-odds-3, H14): the Capital is
    captured (rule [11]: it has no reduced side) and the units with it are eliminated, full
    or reduced, as the engine plays it; elsewhere a full unit would flip."""
    res = O.combat_odds("9", "3,2r,1c", step_losses=True)
    assert res.effects(DE)[1] == (O.ELIMINATED, O.ELIMINATED, O.CAPTURED)
    assert res.effects(DR)[1] == (O.UNAFFECTED,) * 3


def test_unsupplied_units_fight_at_two_less_but_never_below_zero():
    """Rule [9]: -2 for an unsupplied unit; H-odds-1: a 1 becomes 0, not -1."""
    assert O.unit_strength(5, supplied=False) == 3
    assert O.unit_strength(1, supplied=False) == 0
    assert O.unit_strength(1, supplied=True) == 1
    res = O.combat_odds("1u,4", "4")
    assert res.attack_strength == 4 and res.difference == 0
    assert list(res.exact) == _brute_force(4, 4)
    assert O.combat_odds("4", "5u").defence_strength == 3


def test_every_result_does_what_the_table_says_away_from_the_capital():
    res = O.combat_odds("3,2", "4")
    assert res.effects(AE) == ((O.ELIMINATED,) * 2, (O.UNAFFECTED,))
    assert res.effects(AR) == ((O.RETREATS,) * 2, (O.UNAFFECTED,))
    assert res.effects(NE) == ((O.UNAFFECTED,) * 2, (O.UNAFFECTED,))
    assert res.effects(DR) == ((O.UNAFFECTED,) * 2, (O.RETREATS,))
    assert res.effects(DE) == ((O.UNAFFECTED,) * 2, (O.ELIMINATED,))


def test_parse_units_notation():
    units = O.parse_units("4, 3R,2u,0h,1c", "--attack", attacking=True)
    assert [u.label for u in units] == ["4", "3r", "2u", "0h", "1c"]
    assert [u.effective for u in units] == [4, 3, 0, 0, 1]
    defenders = O.parse_units("3,1c", "--defend", attacking=False)
    assert all(u.capital_hex for u in defenders)


@pytest.mark.parametrize(
    ("text", "attacking", "message"),
    [
        ("4,x", True, "--side: expected units as a strength"),
        ("4rr", True, "--side: expected units as a strength"),
        ("", True, "--side: expected units as a strength"),
        ("21", True, "strength must be 0..20"),
        ("1c,2c", True, "one Capital"),
        ("2rc", True, "no reduced side"),
        ("2uh", True, "always supplied"),
        ("3h", False, "'h' marks an attacker"),
        (",".join(["1"] * 13), True, "1 to 12 units"),
    ],
)
def test_bad_units_give_one_line_errors(text, attacking, message):
    with pytest.raises(UsageError, match=message) as e:
        O.parse_units(text, "--side", attacking=attacking)
    assert "\n" not in str(e.value) and "--side" in str(e.value)


def test_bad_simulation_arguments():
    res = O.combat_odds("4", "4")
    for kw in ({"n": 0}, {"n": 10, "seed": -1}, {"n": 1.5}):
        with pytest.raises(UsageError):
            O.simulate(res, **kw)
