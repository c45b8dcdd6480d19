"""Rule [8]'s withdrawal with its chain retreats, one drawn position each (H10, H11).

"If no attacking units in a combat are Cavalry, then any or all defending Cavalry units may
retreat one hex before the combat is conducted"; "a unit that retreats into a hex occupied
by any friendly units forces all such units to immediately perform a one-hex retreat".
A withdrawal's choice is the defending player's: blue plays at random here, and each test
plays one position with many streams of blue's player, so every way the cavalry may go is
taken, and asserts what the rules ask in every one (the independent rule checker's cases:
a cavalry withdrawing twice, a unit a withdrawal pushed retreating again). ``hex_boards``
explains the drawings: two text lines per row, the second the odd columns, half a hex lower.
"""

from __future__ import annotations

from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.hexgame import combat as C
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import DR, NE
from tests.hexgame.hex_boards import Board

RUNS = 120  # streams of blue's player per position

# Red infantry 0303 attacks two blue hexes side by side, cavalry 0302 and infantry 0202
# (both beside it); blue infantry 0201 stands beside the cavalry behind the line.
#
#     .   .   K      row 1: 0101, 0301, 0501 blue's Capital
#       {f}   .             0201 ({f}: blue infantry or nothing), 0401
#     .   C   .      row 2: 0302 blue cavalry
#       I   .               0202 blue infantry
#     .   i   .      row 3: 0303 red infantry, the attacker
#       .   .
TWO_HEXES = """
    .   .   K
      {f}   .
    .   C   .
      I   .
    .   i   .
      .   .
    .   .   .
      .   .
    .   .   k
      .   .
"""


def _moves(b):
    """The combat's moves in order, ``(kind, unit, from, to)`` (withdrawals, retreats)."""
    tr = b.g.tr[: b.g.trn[0]]
    return [
        (int(r[0]), int(r[3]), b.grid.label(int(r[4])), b.grid.label(int(r[5])))
        for r in tr
        if r[0] in (S.EV_WITHDRAW, S.EV_RETREAT)
    ]


def _attack_two_hexes(k, dice, friend_behind):
    """Red's attack on 0302 then 0202 (in that order: the hex the cavalry may withdraw
    into is visited after its own), blue's player on stream ``k``."""
    b = Board(TWO_HEXES.format(f="I" if friend_behind else "."), policies=("random", "capital"))
    att = b.unit("0303")
    b.st[S.FLAGS + att] |= S.F_USED  # as the combat phase marks an attacker
    b.g.wk[S.W_ATT, 0] = att
    b.g.wk[S.W_DEF, 0], b.g.wk[S.W_DEF, 1] = b.hex("0302"), b.hex("0202")
    b.st[S.PLAYER] = 1
    b.rig_dice(*dice)
    b.g.rngs[1, :] = new_state(2026, k)  # blue's player
    C.resolve(b.st, b.g, 1, 1, 2)
    return b


def test_a_cavalry_withdraws_once_even_into_another_defending_hex():
    # rule [8] "retreat one hex" (H10): the cavalry may withdraw into 0202, another hex of
    # the same attack, pushing the infantry there out (a chain retreat); it is not offered a
    # second withdrawal from there (the checker's case, random players: `hex replay --seed
    # 11 --game 4`, cavalry 7 0907 -> 0807 -> 0708). Dice 1 and 3: 4+1 - (2+3) = 0 against the cavalry
    # alone, NE, so it defends 0202 and stays there.
    into_the_other = 0
    for k in range(RUNS):
        b = _attack_two_hexes(k, (1, 3), friend_behind=False)
        cav, inf = b.unit("0302"), b.unit("0202")
        moves = _moves(b)
        withdrawals = [m for m in moves if m[0] == S.EV_WITHDRAW]
        assert len(withdrawals) <= 1, (k, moves)
        if withdrawals == [(S.EV_WITHDRAW, cav, "0302", "0202")]:
            into_the_other += 1
            assert moves[1][:3] == (S.EV_RETREAT, inf, "0202")  # pushed: a chain retreat
            assert len(moves) == 2, (k, moves)
            assert b.events(S.EV_RESULT) == [(4, 2, NE)]
            assert b.pos(cav) == "0202"
    assert into_the_other >= 5  # the case the rule is about was played


def test_a_unit_a_withdrawal_moved_does_not_retreat_again_in_that_combat():
    # H11: a unit sent back in a combat is retreating "until the combat ends", withdrawal
    # included, and retreats one hex, once (the checker's case, random players: `hex replay
    # --seed 3011 --game 14 --step-losses`, cavalry 8 pushed by cavalry 7's withdrawal, then pushed
    # again by the DR's retreat). Dice 5 and 3: 4+5 - (4+3) = +2 against the infantry in
    # 0202, DR; 4+3 - (2+3) = +2 against the cavalry alone there after it withdrew into
    # 0202, DR. In every run no unit moves twice: a unit retreating into the hex of one a
    # withdrawal moved does not push it again (they may share it, rule [8] "need not
    # remain together"; the stacking limit applies at the end of the phase), and the
    # cavalry that withdrew into 0202 stays there under the DR.
    entered_a_moved_hex = stayed_under_dr = 0
    for dice in ((5, 3), (3, 3)):
        for k in range(RUNS):
            b = _attack_two_hexes(k, dice, friend_behind=True)
            cav = b.unit("0302")
            moves = _moves(b)
            units = [m[1] for m in moves]
            assert len(units) == len(set(units)), (dice, k, moves)
            moved_to = {m[1]: m[3] for m in moves}
            for i, m in enumerate(moves):
                if any(p[3] == m[3] for p in moves[:i]) and m[0] == S.EV_RETREAT:
                    entered_a_moved_hex += 1  # the bug would push the unit there again
            res = b.events(S.EV_RESULT)
            if moved_to.get(cav) == "0202" and res and res[0][2] == DR:
                assert b.pos(cav) == "0202"  # it withdrew here: no second retreat
                stayed_under_dr += 1
    assert entered_a_moved_hex >= 5 and stayed_under_dr >= 5


# The friend a withdrawal pushes out has nowhere safe to go: blue cavalry 0201, blue
# infantry 0101 (a corner: its neighbours are 0201 and 0102); red infantry 0202 attacks
# the cavalry, and its ZOC covers 0201, 0102 and 0302.
#
#     I   .   K      row 1: 0101 blue infantry, 0301, 0501 blue's Capital
#       C   .               0201 blue cavalry, 0401
#     .   .   .      row 2
#       i   .               0202 red infantry, the attacker
CORNER = """
    I   .   K
      C   .
    .   .   .
      i   .
    .   .   .
      .   .
    .   .   k
      .   .
"""


def test_a_withdrawal_forces_the_friend_out_even_to_its_death():
    # rule [8]: the friend "must immediately perform a one-hex retreat": only the
    # withdrawing cavalry may stay (H10: its chain retreats are compulsory). When the
    # cavalry withdraws into 0101, the infantry there must go to 0201 (just vacated, in
    # red's ZOC, no friend left in it) or 0102 (in red's ZOC): it is eliminated either way
    # (rule [8]), never left in 0101 with the cavalry.
    pushed = 0
    for k in range(RUNS):
        b = Board(CORNER, policies=("random", "capital"))
        att, cav, inf = b.unit("0202"), b.unit("0201"), b.unit("0101")
        b.st[S.FLAGS + att] |= S.F_USED
        b.g.wk[S.W_ATT, 0], b.g.wk[S.W_DEF, 0] = att, b.hex("0201")
        b.st[S.PLAYER] = 1
        b.g.rngs[1, :] = new_state(2027, k)
        C.resolve(b.st, b.g, 1, 1, 1)
        moves = _moves(b)
        if moves and moves[0] == (S.EV_WITHDRAW, cav, "0201", "0101"):
            pushed += 1
            assert moves[1][:3] == (S.EV_RETREAT, inf, "0101"), (k, moves)
            assert b.st[S.POS + inf] == S.DEAD, (k, moves)
            assert b.events(S.EV_ELIM) == [(inf, b.hex(moves[1][3]), 4)]  # into a ZOC
            assert b.units_at("0101") == [cav]
            declines = [ev for ev in b.events(S.EV_DECLINE) if ev[2] == inf]
            assert not declines
    assert pushed >= 10
