"""The search player's combat decisions (``hexgame/search.py``, ``search_combat.py``,
``lookahead.py``): drawn positions (``hex_boards``) where the search must do better than its
style, and the candidate attacks being the legal ones."""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.rng import next_u64
from manoeuvre_sim.hexgame import batch as BT
from manoeuvre_sim.hexgame import combat as C
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame import search as SR
from manoeuvre_sim.hexgame import search_combat as SX
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.players import policy_arrays, searches_combat
from tests.hexgame.hex_boards import Board, plain_python_json

# Blue's infantry 0304 and cavalry 0204 stand beside red's Capital 0305 (defence 4) and
# nothing else; red's only combat unit, infantry 0506, is far off. Blue has 3 combat units
# to red's 1, so a DE on the Capital captures it and wins at once (rules [11], [12]). The
# attack is worth 4 + 2 - 4 = +2: a DE 10 times in 36 (6 + d6 - 4 - d6 >= 4), an AE once.
# The attrition style attacks only from an estimated +3 (``players.py``), so it ends the
# phase; the search sees the win.
WIN_ON_OFFER = """
    K   .   I
      .   .
    .   .   .
      .   .
    .   .   .
      .   .
    .   I   .
      C   .
    .   k   .
      .   .
    .   .   i
      .   .
"""


def _phase(policy):
    """Blue's combat phase on WIN_ON_OFFER under ``policy``: the attack it makes first
    (first attacker, defending hexes' mask, joining bits; first attacker -1: none)."""
    b = Board(WIN_ON_OFFER, policies=(policy, "capital"))
    b.st[S.FIRST] = 0
    b.st[S.PLAYER] = 0
    if C.combat_phase(b.st, b.g, 0, True) == 0:  # the style played the phase out
        att = b.events(S.EV_ATTACKER)
        return (att[0][0] if att else -1), b
    SR.plan_attack(b.st, b.g, 0, 3, 0)
    assert b.g.srch[0, S.SR_MODE] == S.SR_ATTACK
    return int(b.g.srch[0, S.SR_A_UNIT]), b


def test_the_combat_search_takes_the_win_its_style_declines():
    # the search player that searches only its moves (scope ``moves``, the default) plays
    # its style's combat: no attack. Searching its combat (``all``), it attacks the Capital
    # with both units.
    first, b = _phase("search:576:attrition")
    assert first == -1
    assert b.st[S.CAP_CAPTURED + 1] == 0
    first, b = _phase("search:576:attrition:all")
    assert first in (b.unit("0304"), b.unit("0204"))
    other = b.unit("0204") if first == b.unit("0304") else b.unit("0304")
    assert b.g.srch[0, S.SR_A_JOIN] == 1 << (other % 16)  # the other joins: +2, not -2/0
    C.combat_phase(b.st, b.g, 0, False)  # played on: the attack is built as chosen
    assert [e[0] for e in b.events(S.EV_DEFENDER)][:1] == [b.hex("0305")]
    assert sorted(e[0] for e in b.events(S.EV_ATTACKER))[:2] == sorted([first, other])


def test_candidates_are_the_style_first_then_every_legal_attack():
    b = Board(WIN_ON_OFFER, policies=("attrition", "capital"))
    cu, cm, cj = (np.zeros(SX.MAX_CAND, dtype=np.int32) for _ in range(3))
    st0 = b.st.copy()
    n = SX.candidates(b.st, b.g, 0, cu, cm, cj)
    assert np.array_equal(b.st, st0), "the enumeration changed the position"
    inf, cav = b.unit("0304"), b.unit("0204")
    got = {(int(cu[i]), int(cj[i])) for i in range(n)}
    assert (int(cu[0]), int(cm[0]), int(cj[0])) == (-1, 0, 0)  # the style: no attack
    # each unit alone or with the other (one defending hex each), and the end
    assert got == {(-1, 0), (inf, 0), (inf, 1 << (cav % 16)), (cav, 0), (cav, 1 << (inf % 16))}
    assert n == 5


# Blue's infantry 0503 must retreat (say after a DR); no retreat hex is in a red zone of
# control. Red's infantry and artillery stacked in 0104 attack at 4 + 5 = 9 against its 4:
# a DE 21 times in 36. The style retreats toward its Capital 0101, to 0402, 3 hexes from
# the stack (within reach of both: movement allowance 3 and 2, then one hex to attack);
# the lookahead goes where neither can reach next turn (0602, 0603: 5 hexes away; 0502 and
# 0504 are 4 hexes away, within the infantry's reach).
RETREAT = """
    K   .   .   .
      .   .   .
    .   .   .   .
      .   .   .
    .   .   I   .
      .   .   .
    ia  .   .   .
      .   .   .
    .   .   .   .
      .   .   .
    .   .   .   .
      .   .   .
    .   .   .   .
      .   .   .
"""


@pytest.mark.parametrize("policy", ["search:8::all", "search:8"])
def test_retreat_hex_by_lookahead_or_by_style(policy):
    b = Board(RETREAT, policies=(policy, "capital"))
    u = b.unit("0503")
    b.g.wk[S.W_RQ, 0] = u
    C.retreat_queue(b.st, b.g, 0, 1, False)
    if searches_combat(policy_arrays(policy, "capital")[0][0]):
        assert b.pos(u) in ("0602", "0603"), b.pos(u)
    else:
        assert b.pos(u) == "0402"  # the style's: nearest its Capital


def test_the_attack_search_draws_once_from_its_own_stream():
    b = Board(WIN_ON_OFFER, policies=("search:16:attrition:all", "search:16::all"))
    assert C.combat_phase(b.st, b.g, 0, True) == 1  # paused before blue's first attack
    before = b.g.rngs.copy()
    st0 = b.st.copy()
    SR.plan_attack(b.st, b.g, 0, 3, 0)
    assert np.array_equal(b.st, st0), "the search changed the real position"
    assert np.array_equal(b.g.rngs[0], before[0]), "the search touched the game's dice"
    assert np.array_equal(b.g.rngs[2], before[2]), "it touched the other player's stream"
    mine = before[1].copy()
    next_u64(mine)
    assert np.array_equal(b.g.rngs[1], mine), "one draw of its own stream per attack"
    assert b.g.srch[0, S.SR_DICE] == 0  # the real attack rolls the game's dice


NOJIT = """
import json
from manoeuvre_sim.hexgame import batch as BT, scenario as SC, state as S
from manoeuvre_sim.hexgame.players import policy_arrays
packed = SC.pack(SC.load_scenario())
pol, params = policy_arrays("search:2::all", "search:2:attrition:all")
r = BT.play_games(5, 0, 1, packed, S.default_options(step_losses=1), pol, params, 1)
print(json.dumps(r.tolist()))
"""


def test_the_combat_search_kernels_equal_plain_python():
    plain = plain_python_json(NOJIT)
    pol, params = policy_arrays("search:2::all", "search:2:attrition:all")
    packed = SC.pack(SC.load_scenario())
    r = BT.play_games(5, 0, 1, packed, S.default_options(step_losses=1), pol, params, 1)
    assert r.tolist() == plain
