"""Rule [11] for attackers: "Treat AE, AR and DR results as NE (no effect) for the Capital
and all units in its hex" (rules 001). An attack made from the Capital's hex together with
a unit from another hex ends in AE or AR: the outside unit is eliminated or retreats, the
Capital and the unit beside it stay where they are (issue 30: no scenario had one, so
dropping the Capital's exception from ``combat.resolve``'s AE or AR branch went unseen).
``hex_boards`` explains the drawings: two text lines per row, the second the odd columns,
half a hex lower."""

from __future__ import annotations

import pytest

from manoeuvre_sim.hexgame import combat as C
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import AE, AR, DE
from tests.hexgame.hex_boards import Board

# Blue's Capital and an infantry in 0302, a blue infantry in 0203; both hexes are beside the
# red infantry pair in 0303 but not beside each other, so no retreat from 0203 can enter the
# Capital's hex (a unit retreating onto friends would push them out: rule [8]'s chain
# retreat, another question). Blue attacks with 1 + 4 + 4 = 9, red defends with 4 + 4 = 8,
# every unit supplied (rule [9]).
CAPITAL_ATTACKS = """
    .   .   .
      .   .   .
    .   KI  .
      .   .   .
    .   ii  .
      I   .   .
    .   .   .
      .   .   k
"""


def _attack_from_the_capital(attack_die, defence_die):
    b = Board(CAPITAL_ATTACKS)
    capital, inside = b.at["0302"]
    outside = b.unit("0203")
    atts = [capital, inside, outside]
    for i, u in enumerate(atts):
        b.g.wk[S.W_ATT, i] = u
        b.st[S.FLAGS + u] |= S.F_USED  # as the combat phase marks its attackers
    b.g.wk[S.W_DEF, 0] = b.hex("0303")
    b.st[S.PLAYER] = 0
    b.rig_dice(attack_die, defence_die)
    C.resolve(b.st, b.g, 0, len(atts), 1)
    (result,) = b.events(S.EV_RESULT)
    return b, result, capital, inside, outside


@pytest.mark.parametrize("dice", [(1, 5), (1, 6)])
def test_ae_spares_the_capitals_hex_and_eliminates_the_outside_attacker(dice):
    # 9 + 1 - (8 + 5) = -3 and 9 + 1 - (8 + 6) = -4: AE
    b, result, capital, inside, outside = _attack_from_the_capital(*dice)
    assert result == (9, 8, AE)
    assert b.st[S.POS + outside] == S.DEAD
    assert b.events(S.EV_ELIM) == [(outside, b.hex("0203"), 2)]
    assert b.units_at("0302") == [capital, inside]  # rule [11]: NE for the Capital's hex
    assert b.st[S.STEP + inside] == 0
    assert len(b.units_at("0303")) == 2  # the defenders untouched


def test_ae_under_step_losses_flips_only_the_outside_attacker():
    b = Board(CAPITAL_ATTACKS, options=S.default_options(step_losses=1))
    capital, inside = b.at["0302"]
    outside = b.unit("0203")
    for i, u in enumerate((capital, inside, outside)):
        b.g.wk[S.W_ATT, i] = u
    b.g.wk[S.W_DEF, 0] = b.hex("0303")
    b.rig_dice(1, 6)
    C.resolve(b.st, b.g, 0, 3, 1)
    assert b.events(S.EV_RESULT) == [(9, 8, AE)]
    assert b.events(S.EV_FLIP) == [(outside, b.hex("0203"), 2)]  # rule [13] 3
    assert b.st[S.STEP + inside] == 0 and b.units_at("0302") == [capital, inside]


@pytest.mark.parametrize("dice", [(1, 3), (2, 5)])
def test_ar_retreats_the_outside_attacker_and_the_capitals_hex_stays(dice):
    # 9 + 1 - (8 + 3) = -1 and 9 + 2 - (8 + 5) = -2: AR
    b, result, capital, inside, outside = _attack_from_the_capital(*dice)
    assert result == (9, 8, AR)
    retreats = b.events(S.EV_RETREAT)
    assert [r[:2] for r in retreats] == [(outside, b.hex("0203"))]  # one retreat, one hex
    assert b.pos(outside) in (None, b.grid.label(retreats[0][2]))  # or died in a ZOC
    assert b.units_at("0302") == [capital, inside]  # rule [11]: NE for the Capital's hex
    assert len(b.units_at("0303")) == 2


def test_de_on_the_capitals_hex_eliminates_a_full_strength_unit_under_step_losses():
    # H14 (rules [11], [13] 3): red's pair in 0303 attacks blue's Capital hex 0302 with
    # 4 + 4 + 6 against 4 + 4 + 1 (the Capital defends with 4): +5, DE. The Capital is captured and the full-strength
    # infantry with it is eliminated, not flipped as step losses would flip it elsewhere
    # (issue: no scenario had a DE on a Capital's hex with step losses on).
    b = Board(CAPITAL_ATTACKS, options=S.default_options(step_losses=1))
    capital, inside = b.at["0302"]
    atts = b.at["0303"]
    for i, u in enumerate(atts):
        b.g.wk[S.W_ATT, i] = u
        b.st[S.FLAGS + u] |= S.F_USED
    b.g.wk[S.W_DEF, 0] = b.hex("0302")
    b.st[S.PLAYER] = 1
    b.rig_dice(6, 1)
    C.resolve(b.st, b.g, 1, len(atts), 1)
    assert b.events(S.EV_RESULT) == [(8, 8, DE)]
    assert b.st[S.CAP_CAPTURED] == 1 and b.events(S.EV_CAPTURE) == [(0, b.hex("0302"), 0)]
    assert b.st[S.POS + inside] == S.DEAD and b.st[S.STEP + inside] == 0
    assert not b.events(S.EV_FLIP)
    assert b.events(S.EV_ELIM) == [(inside, b.hex("0302"), 1)]
