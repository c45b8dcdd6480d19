"""A position's features as one seat sees it: the input of the learned position value
(``engine/players/value.py``, issue 26).

``features(st, units, cards, uowner, dsize, s, to_move, out)`` writes ``NFEAT`` numbers
describing the state ``st`` from seat ``s``'s side (``o`` is the opponent) into ``out``.
It reads only what ``s`` may see (docs/players.md, Fair play): the board (units, steps,
squares), the elimination counts, hand, draw and discard pile *sizes*, which first decks
are spent, the game turn, the seat to move, and ``s``'s own hand — never the opponent's
hand, nor the order or contents of any pile. The fog check (``checks.fog_copy``) scrambles
all of those; tests/manoeuvre/test_value.py computes the features on both and compares.

The features, in ``FEATURE_NAMES`` order (``s`` minus ``o`` where it says *diff*):

- units on the board, diff; total strength of the units on the board (rule 6: a unit's
  printed strength at its step), diff; units at reduced strength, diff (the third
  Nightfall tie-break, rule 2.2);
- units eliminated, each side, and whether a side stands at 4 (the next loses, rule 2.1);
- squares of the enemy half controlled now (rule 2.2), each side and diff; units standing
  in the enemy half, diff;
- the worth of ``s``'s own hand (the heuristic players' context worth of each card,
  ``players/cards.py``), hand sizes each side; draw pile sizes each side;
- the clock: the cards each side has left to draw in its first deck (0 once spent), as a
  share of the deck, and ``late``, one minus the larger of the two (the day ends in the
  game turn both first decks are spent, rule 2.3); the game turn / 20;
- ``s`` to move (it plays the next player turn), ``s`` the first player (rule 3);
- interactions with ``late``: control diff, eliminations diff, units-in-enemy-half diff
  (ground counts for more as nightfall nears).
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.players.cards import DC_SIZE, _card_worth, _decision_context
from manoeuvre_sim.manoeuvre.engine.policy_ids import VALUE_NFEAT
from manoeuvre_sim.manoeuvre.engine.rules import strength

FEATURE_NAMES = (
    "units_diff",
    "strength_diff",
    "reduced_diff",
    "elim_own",
    "elim_opp",
    "own_at_4",
    "opp_at_4",
    "control_own",
    "control_opp",
    "control_diff",
    "enemy_half_diff",
    "hand_worth",
    "hand_own",
    "hand_opp",
    "deck_own",
    "deck_opp",
    "first_left_own",
    "first_left_opp",
    "late",
    "turn",
    "to_move",
    "first_player",
    "late_x_control_diff",
    "late_x_elim_diff",
    "late_x_enemy_half_diff",
)
NFEAT = len(FEATURE_NAMES)
_NO_WEIGHTS = np.zeros(1)  # _card_worth takes the style's weights and reads none of them


# the board as bit sets (bit ``sq`` = square ``sq``, ``row * 8 + col``; control.py): each
# player's enemy half (rule 2.2: rows 0-3 for player 0) and the squares not in the last
# (col 7) or first (col 0) column, whose units influence the square to their right or left
_HALF = (np.uint64(0x00000000FFFFFFFF), np.uint64(0xFFFFFFFF00000000))
_NOT_COL7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_NOT_COL0 = np.uint64(0xFEFEFEFEFEFEFEFE)
_ONE = np.uint64(1)


@kernel(inline="always")
def _influence(x):
    """The squares orthogonally adjacent to a square of the bit set ``x``."""
    return ((x << np.uint64(8)) | (x >> np.uint64(8)) | ((x & _NOT_COL7) << _ONE)
            | ((x & _NOT_COL0) >> _ONE))  # fmt: skip


@kernel(inline="always")
def _count(x):
    n = 0
    while x != np.uint64(0):
        x &= x - _ONE
        n += 1
    return n


@kernel
def control_pair(occ, uowner, s):
    """(squares of the enemy half ``s`` controls, those its opponent controls): rule 2.2 as
    ``control.control_score`` reads it (occupied by one of the player's units, or next to
    one and neither occupied by nor next to an enemy unit), counted on bit sets."""
    own = np.uint64(0)
    opp = np.uint64(0)
    for sq in range(64):
        u = occ[sq]
        if u >= 0:
            if uowner[u] == s:
                own |= _ONE << np.uint64(sq)
            else:
                opp |= _ONE << np.uint64(sq)
    free = ~(own | opp)
    near_own = _influence(own)
    near_opp = _influence(opp)
    c_s = _count(_HALF[s] & (own | (free & near_own & ~near_opp)))
    c_o = _count(_HALF[1 - s] & (opp | (free & near_opp & ~near_own)))
    return c_s, c_o


@kernel
def _side(st, units, p):
    """(units on the board, their total strength, units in p's enemy half, units at reduced
    strength) of p."""
    n = 0
    tot = 0
    half = 0
    red = 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        step = st[S.U_STEP + u]
        if step > 0:
            n += 1
            tot += strength(st, units, u)
            r = st[S.U_SQ + u] // 8
            if (p == 0 and r <= 3) or (p == 1 and r >= 4):  # player 0's enemy half: rows 0-3
                half += 1
            if step == 1:
                red += 1
    return n, tot, half, red


@kernel
def features(st, units, cards, uowner, dsize, s, to_move, out):
    """Write seat ``s``'s ``NFEAT`` features of ``st`` into ``out`` (the module docstring);
    ``to_move``: the seat that plays the next player turn."""
    o = 1 - s
    n_s, str_s, half_s, red_s = _side(st, units, s)
    n_o, str_o, half_o, red_o = _side(st, units, o)
    c_s, c_o = control_pair(st[S.OCC : S.OCC + 64], uowner, s)
    worth = 0.0
    dc = stack_empty(DC_SIZE, np.int64)  # the units read once for the hand's worths
    _decision_context(st, units, s, dc)
    for i in range(st[S.HAND_N + s]):  # s's own hand: the one hand it sees
        c = st[S.HAND + s * S.HMAX + i]
        worth += _card_worth(st, units, cards, _NO_WEIGHTS, s, c, red_s, dc)
    e_s = st[S.ELIM + s]
    e_o = st[S.ELIM + o]
    left_s = 0.0 if st[S.FIRST_DECK_DONE + s] == 1 else st[S.DECK_N + s] / max(dsize[s], 1)
    left_o = 0.0 if st[S.FIRST_DECK_DONE + o] == 1 else st[S.DECK_N + o] / max(dsize[o], 1)
    late = 1.0 - max(left_s, left_o)
    out[0] = n_s - n_o
    out[1] = str_s - str_o
    out[2] = red_s - red_o
    out[3] = e_s
    out[4] = e_o
    out[5] = 1.0 if e_s >= 4 else 0.0
    out[6] = 1.0 if e_o >= 4 else 0.0
    out[7] = c_s
    out[8] = c_o
    out[9] = c_s - c_o
    out[10] = half_s - half_o
    out[11] = worth
    out[12] = st[S.HAND_N + s]
    out[13] = st[S.HAND_N + o]
    out[14] = st[S.DECK_N + s]
    out[15] = st[S.DECK_N + o]
    out[16] = left_s
    out[17] = left_o
    out[18] = late
    out[19] = st[S.TURN] / 20.0
    out[20] = 1.0 if to_move == s else 0.0
    out[21] = 1.0 if st[S.FIRST] == s else 0.0
    out[22] = late * (c_s - c_o)
    out[23] = late * (e_o - e_s)
    out[24] = late * (half_s - half_o)


if NFEAT != VALUE_NFEAT:  # the search configuration's layout (policy_ids.py) counts them
    raise ImportError(f"features: {NFEAT} features, policy_ids.VALUE_NFEAT says {VALUE_NFEAT}")
