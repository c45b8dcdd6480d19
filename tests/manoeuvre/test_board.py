"""Board geometry kernels: scenarios drawn as ASCII, and jit vs plain Python vs brute force.

Board pictures follow tests/manoeuvre/boards.py: row 0 (top) is player 1's starting edge, row 7
(bottom) player 0's; ``0``..``7`` are player 0's units, ``a``..``h`` player 1's; terrain
letters C F H L M T W ('.' = Clear), a unit marker may follow a terrain letter (``H3``).
"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import board as B
from manoeuvre_sim.manoeuvre.engine.board import (
    MAX_FORCED_MARCH_DESTINATIONS,
    MAX_MOVE_DESTINATIONS,
    MAX_NEIGHBORS,
    MAX_RETREAT_OPTIONS,
    TP_ENTER,
    TP_LOS,
    TP_NO_FM,
    TP_STOP,
    adjacent,
    control_score,
    controls,
    distance,
    forced_march_destinations,
    in_fire_range,
    move_destinations,
    neighbors,
    retreat_options,
    terrain_codes,
    terrain_props,
)
from manoeuvre_sim.manoeuvre.model import load_terrain
from tests.manoeuvre.boards import at, packed_terrain, parse_board, render

# --------------------------------------------------------------------------------------------
# small wrappers: kernels write into ``out`` and return a count


def nbrs(sq, fn=neighbors):
    out = np.full(MAX_NEIGHBORS, -9, dtype=np.int32)
    return out[: fn(sq, out)].tolist()


def moves(b, sq, cavalry, fn=move_destinations):
    out = np.full(MAX_MOVE_DESTINATIONS, -9, dtype=np.int32)
    return out[: fn(b.occ, b.terr, b.tprops, sq, cavalry, out)].tolist()


def forced(b, start, cur, fn=forced_march_destinations, end_counts=1):
    out = np.full(MAX_FORCED_MARCH_DESTINATIONS, -9, dtype=np.int32)
    return out[: fn(b.occ, b.terr, b.tprops, start, cur, end_counts, out)].tolist()


def retreats(b, sq, owner, fn=retreat_options):
    out = np.full(MAX_RETREAT_OPTIONS, -9, dtype=np.int32)
    return out[: fn(b.occ, b.terr, b.tprops, sq, owner, out)].tolist()


def fire(b, frm, to, rng):
    return bool(in_fire_range(b.occ, b.terr, b.tprops, frm, to, rng))


def move_unit(b, frm, to):
    """Move the unit at ``frm`` to ``to`` in place (as the engine would after a basic move)."""
    u = b.occ[frm]
    b.occ[frm] = -1
    b.occ[to] = u
    b.unit_sq[u] = to


EMPTY = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""

# --------------------------------------------------------------------------------------------
# packing helpers and the ASCII parser


def test_terrain_props_follow_the_terrain_table():
    letters, tp = terrain_props(load_terrain())
    assert letters == "CFHLMTW" and tp.dtype == np.int32 and tp.shape == (7, 8)
    row = {ch: tp[i].tolist() for i, ch in enumerate(letters)}
    # columns: ENTER STOP DEF LOS ATK NO_ASSAULT NO_FM REDOUBT (reference card, rules 5, 6,
    # 9.2; REDOUBT: the table's redoubt bonus, +3, in every row)
    assert row["C"] == [1, 0, 0, 0, 0, 0, 0, 3]
    assert row["F"] == [1, 1, 0, 0, 0, 0, 1, 3]
    assert row["H"] == [1, 0, 2, 1, 2, 0, 0, 3]
    assert row["L"] == [0, 0, 0, 0, 0, 0, 0, 3]
    assert row["M"] == [1, 1, 1, 0, 0, 1, 1, 3]
    assert row["T"] == [1, 0, 3, 1, 0, 0, 0, 3]
    assert row["W"] == [1, 0, 2, 1, 0, 0, 0, 3]


def test_terrain_codes_and_bad_grids():
    letters, _ = packed_terrain()
    rows = ["CFHLMTWC"] + ["CCCCCCCC"] * 7
    terr = terrain_codes(rows, letters)
    assert terr.dtype == np.int32 and terr.shape == (64,)
    assert "".join(letters[t] for t in terr[:8]) == "CFHLMTWC"
    with pytest.raises(ValueError, match="expected 8 rows"):
        terrain_codes(rows[:7], letters)
    with pytest.raises(ValueError, match="expected 8 letters"):
        terrain_codes(["CCC"] + rows[1:], letters)
    with pytest.raises(ValueError, match="unknown terrain letter 'X'"):
        terrain_codes(["CCCCCCCX"] + rows[1:], letters)


def test_parse_board_format():
    b = parse_board("""
        . . . . . . . a
        . . . . . . . .
        . . H . . . . .
        . . 0 . Mb . . .
        . . . . . . . .
        . L . . . . . .
        . . . . . . H3 .
        h . . . . . . 7
    """)
    L = b.letters
    assert b.occ[at(3, 2)] == 0 and b.unit_sq[0] == at(3, 2)
    assert b.occ[at(0, 7)] == 8 and b.occ[at(3, 4)] == 9 and b.occ[at(7, 0)] == 15
    assert b.occ[at(6, 6)] == 3 and L[b.terr[at(6, 6)]] == "H"
    assert L[b.terr[at(3, 4)]] == "M" and L[b.terr[at(5, 1)]] == "L"
    assert L[b.terr[at(3, 2)]] == "C" and L[b.terr[at(2, 2)]] == "H"
    assert (b.occ >= 0).sum() == 6 and b.unit_sq[1] == -1
    assert b.unit_owner.tolist() == [0] * 8 + [1] * 8
    assert render(b).splitlines()[6].split() == [".", ".", ".", ".", ".", ".", "H3", "."]
    with pytest.raises(ValueError, match="drawn twice"):
        parse_board(EMPTY.replace(".", "1", 2))
    with pytest.raises(ValueError, match="unenterable"):
        parse_board(EMPTY.replace(".", "L2", 1))
    with pytest.raises(ValueError, match="expected 8 cells"):
        parse_board(EMPTY.replace(". .", ".", 1))


# --------------------------------------------------------------------------------------------
# adjacency (rule 1.1: squares like a chessboard, nothing diagonal)


def test_neighbors_order_and_edges():
    # up, down, left, right, off-board skipped (rule 1.1)
    assert nbrs(at(3, 3)) == [at(2, 3), at(4, 3), at(3, 2), at(3, 4)]
    assert nbrs(at(0, 0)) == [at(1, 0), at(0, 1)]
    assert nbrs(at(7, 7)) == [at(6, 7), at(7, 6)]
    assert nbrs(at(0, 4)) == [at(1, 4), at(0, 3), at(0, 5)]
    assert nbrs(at(5, 0)) == [at(4, 0), at(6, 0), at(5, 1)]


def test_adjacent_and_distance():
    assert adjacent(at(3, 3), at(3, 4)) and adjacent(at(3, 3), at(2, 3))
    assert not adjacent(at(3, 3), at(4, 4))  # rule 1.1: diagonal is not adjacent
    assert not adjacent(at(3, 3), at(3, 3))
    assert not adjacent(at(0, 7), at(1, 0))  # consecutive indices across a row end
    assert distance(at(0, 0), at(7, 7)) == 14
    assert distance(at(3, 3), at(4, 4)) == 2
    assert distance(at(0, 7), at(1, 0)) == 8
    assert distance(at(5, 5), at(5, 5)) == 0


# --------------------------------------------------------------------------------------------
# basic movement (rule 5)


def test_infantry_moves_one_square_orthogonally():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . 0 . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 5: infantry moves 1 square, no diagonals; ascending square order
    assert moves(b, at(3, 3), False) == [at(2, 3), at(3, 2), at(3, 4), at(4, 3)]


def test_infantry_blocked_by_units_lake_and_edge():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        1 . . . . . . .
        0 L . . . . F a
    """)
    # rule 5: not off the board, not onto a unit (friendly 1), never into a Lake
    assert moves(b, at(7, 0), False) == []
    # the unit at (6,0) may go up or right (its own unit below, the edge left)
    assert moves(b, at(6, 0), False) == [at(5, 0), at(6, 1)]
    # enemy unit a at (7,7): up or left into the Field (infantry just stops there)
    assert moves(b, at(7, 7), False) == [at(6, 7), at(7, 6)]


def test_cavalry_moves_one_or_two_squares_in_the_open():
    b = parse_board(EMPTY)
    b.occ[at(4, 4)] = 2
    got = moves(b, at(4, 4), True)
    # rule 5: cavalry 1 or 2 squares, no diagonal steps: the Manhattan diamond minus start
    want = sorted(s for s in range(64) if 1 <= distance(s, at(4, 4)) <= 2)
    assert got == want and len(got) == 12
    # rule 5: may not move one square and back to its original space
    assert at(4, 4) not in got


def test_cavalry_may_not_pass_through_units():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . 1 2 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    got = moves(b, at(4, 4), True)
    # rule 5: enemy a above and friendly 1 left block both the squares and passing through
    assert at(3, 4) not in got and at(2, 4) not in got  # straight up: through a
    assert at(4, 3) not in got and at(4, 2) not in got  # straight left: through 1
    # (3,3) is diagonal: both ways round (via a or via 1) are occupied -> unreachable
    assert at(3, 3) not in got
    # (3,5) via (4,5) and (5,3) via (5,4) remain open
    assert got == [at(3, 5), at(4, 5), at(4, 6), at(5, 3), at(5, 4), at(5, 5), at(6, 4)]


def test_cavalry_stops_on_entering_field_or_marsh():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . F . . .
        . . . M 2 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    got = moves(b, at(4, 4), True)
    # reference card / rule 5: Field and Marsh end a cavalry move: enterable but not beyond
    assert at(3, 4) in got and at(4, 3) in got
    assert at(2, 4) not in got and at(4, 2) not in got
    # (3,3) is blocked via the Field and via the Marsh: unreachable
    assert at(3, 3) not in got
    assert got == [at(3, 4), at(3, 5), at(4, 3), at(4, 5), at(4, 6)] + [
        at(5, 3),
        at(5, 4),
        at(5, 5),
        at(6, 4),
    ]


def test_cavalry_diagonal_destination_through_either_open_corner():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . F . . .
        . . . . 2 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 5: (3,3) and (3,5) are reached by the left/right first step, not through the Field
    got = moves(b, at(4, 4), True)
    assert at(3, 3) in got and at(3, 5) in got and at(2, 4) not in got


def test_cavalry_never_enters_or_crosses_a_lake_and_respects_edges():
    b = parse_board("""
        . 3 . . . . . .
        L L . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 5 / reference card: a Lake may not be entered; no moving off the board edge
    assert moves(b, at(0, 1), True) == [at(0, 0), at(0, 2), at(0, 3), at(1, 2)]
    b2 = parse_board(EMPTY.replace(".", "4", 1))  # unit 4 at the corner (0,0)
    assert moves(b2, at(0, 0), True) == [at(0, 1), at(0, 2), at(1, 0), at(1, 1), at(2, 0)]


def test_cavalry_starting_in_a_field_moves_two():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . F5 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # choice: only *entering* a Field/Marsh ends a move (reference card); leaving one does not
    assert len(moves(b, at(4, 4), True)) == 12
    assert len(moves(b, at(4, 4), False)) == 4


def test_infantry_may_enter_field_marsh_hill_town_woods():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . F . . .
        . . . M 6 H . .
        . . . . T . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 5: only Lakes and units keep a unit out
    assert moves(b, at(4, 4), False) == [at(3, 4), at(4, 3), at(4, 5), at(5, 4)]


def test_surrounded_unit_has_no_move():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . L 1 2 . .
        . . . . b . . .
        . . . . . . . .
        . . . . . . . .
    """)
    assert moves(b, at(4, 4), True) == []  # rule 5: no move through units or into a Lake


# --------------------------------------------------------------------------------------------
# Forced March (rule 9.2, rule 5)


def test_forced_march_one_more_square_and_may_return_to_start():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . L . . .
        . . . 0 . a . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    start, cur = at(4, 3), at(4, 4)
    assert cur in moves(b, start, False)
    move_unit(b, start, cur)
    # rule 9.2: one additional square; rule 5: a Forced March may return to the original space
    # up is a Lake, right is enemy a -> left (the start) and down remain
    assert forced(b, start, cur) == [at(4, 3), at(5, 4)]


def test_forced_march_after_a_cavalry_move_of_two():
    b = parse_board(EMPTY)
    b.occ[at(6, 2)] = 5
    start, cur = at(6, 2), at(4, 2)
    move_unit(b, start, cur)
    # rule 9.2: one more square from where the move ended, in any direction
    assert forced(b, start, cur) == [at(3, 2), at(4, 1), at(4, 3), at(5, 2)]


@pytest.mark.parametrize("start_t,cur_t", [("F", "."), ("M", "."), (".", "F"), (".", "M")])
def test_no_forced_march_from_or_into_field_or_marsh(start_t, cur_t):
    b = parse_board(f"""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . {start_t}0 {cur_t} . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    start, cur = at(3, 3), at(3, 4)
    move_unit(b, start, cur)
    # rule 9.2: a move that begins or ends in a Field or Marsh may not be extended
    assert forced(b, start, cur) == []
    # Distant Lands 9.2 (--dl-forced-march): only a move that begins in one may not
    dl = forced(b, start, cur, end_counts=0)
    assert dl == ([] if start_t != "." else [at(2, 4), at(3, 3), at(3, 5), at(4, 4)])


def test_forced_march_may_end_in_field_or_marsh_and_not_in_lake():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . F . . .
        . . . W 0 . . .
        . . . . M . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    start, cur = at(3, 5), at(3, 4)  # came from the right, onto Clear
    b.occ[cur], b.occ[start] = 0, -1
    # choice (rule 9.2 names the move's begin and end): the extra square may be a Field or
    # Marsh, and Woods is fine; the start (3,5) is open again
    assert forced(b, start, cur) == [at(2, 4), at(3, 3), at(3, 5), at(4, 4)]
    b.terr[at(2, 4)] = b.letters.index("L")
    assert at(2, 4) not in forced(b, start, cur)  # a Lake is never entered


# --------------------------------------------------------------------------------------------
# Volley and Bombardment range and line of sight (rule 6.2 step 2, rule 8 Range)


def test_volley_range_one_is_orthogonal_adjacency_only():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . a . . . .
        . . . 0 b . . .
        . . . . . c . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    assert fire(b, at(3, 3), at(2, 3), 1)  # rule 6.2: adjacent
    assert fire(b, at(3, 3), at(3, 4), 1)
    assert not fire(b, at(3, 3), at(4, 4), 1)  # rule 6.2: "not diagonally!"
    assert not fire(b, at(3, 3), at(3, 5), 1)  # two squares: bombardment only
    assert not fire(b, at(3, 3), at(3, 3), 2)  # not its own square


@pytest.mark.parametrize("between", ["H", "T", "W", "a", "1"])
def test_bombardment_straight_blocked_by_hill_town_woods_or_unit(between):
    b = parse_board(f"""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        0 {between} b . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 6.2 step 2: the intervening square may not be Hill, Town, Woods or hold a unit
    assert not fire(b, at(3, 0), at(3, 2), 2)
    # the vertical line the same way
    b2 = parse_board(EMPTY)
    b2.occ[at(0, 5)], b2.occ[at(2, 5)] = 0, 9
    b2.terr[at(1, 5)] = b.terr[at(3, 1)]
    b2.occ[at(1, 5)] = b.occ[at(3, 1)]
    assert not fire(b2, at(0, 5), at(2, 5), 2)


@pytest.mark.parametrize("between", [".", "F", "M", "L"])
def test_bombardment_straight_open_over_clear_field_marsh_lake(between):
    b = parse_board(f"""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        0 {between} b . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 6.2 step 2 lists only Hills, Towns, Woods and units as blocking
    assert fire(b, at(3, 0), at(3, 2), 2)
    assert fire(b, at(3, 2), at(3, 0), 2)  # symmetric


def test_bombardment_diagonal_needs_one_open_corner():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . 0 W . . .
        . . . . b . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 8 Range: diagonal neighbour is range 2; (3,4) Woods blocks but (4,3) is open
    assert fire(b, at(3, 3), at(4, 4), 2)
    b.occ[at(4, 3)] = 1  # now a (friendly) unit holds the other corner
    assert not fire(b, at(3, 3), at(4, 4), 2)  # rule 8 Range: both intervening squares shut
    b.occ[at(4, 3)] = -1
    b.terr[at(4, 3)] = b.letters.index("H")
    assert not fire(b, at(3, 3), at(4, 4), 2)  # Hill and Woods: both shut


def test_bombardment_from_and_into_hill_and_town():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . H0 . Tb . . . .
        . . . . . . . .
        . . . . T . . .
        . . . . Wc . . .
        . . . . . . . .
    """)
    # rule 6.2 step 2: "may begin and/or end in a Hills, Town, or Woods square"
    assert fire(b, at(3, 1), at(3, 3), 2)
    assert fire(b, at(3, 3), at(3, 1), 2)
    # but a Town in between blocks: (4,4) -> (6,4) over the Town at (5,4)
    assert not fire(b, at(4, 4), at(6, 4), 2)
    # adjacent fire ignores terrain entirely
    assert fire(b, at(5, 4), at(6, 4), 1) and fire(b, at(5, 4), at(6, 4), 2)


def test_bombardment_reaches_adjacent_but_not_three_squares():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        0 a . b . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    assert fire(b, at(3, 0), at(3, 1), 2)  # rule 6.2: "up to two squares away"
    assert not fire(b, at(3, 0), at(3, 3), 2)  # rule 8 Range: 3 squares is out of range
    assert not fire(b, at(3, 0), at(5, 1), 2)  # knight's move: distance 3


# --------------------------------------------------------------------------------------------
# Retreat (rule 6.5)


def test_retreat_priority_1_toward_own_edge_for_both_players():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . 0 . . a . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 6.5 priority 1: player 0 retreats down (row 7 edge), player 1 up (row 0 edge)
    assert retreats(b, at(3, 2), 0) == [at(4, 2)]
    assert retreats(b, at(3, 5), 1) == [at(2, 5)]


def test_retreat_priority_2_both_flanks_when_rear_blocked():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . c . .
        . . 0 . . a . .
        . . b . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 6.5 priority 2: rear blocked (by an enemy / by a friend) -> either flank, player's choice
    assert retreats(b, at(3, 2), 0) == [at(3, 1), at(3, 3)]
    assert retreats(b, at(3, 5), 1) == [at(3, 4), at(3, 6)]


def test_retreat_priority_2_one_flank_unit_lake_or_edge():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . c
        . 1 0 . . . L a
        . . b . . . . .
        d . . . . . . .
        e . . . . . . .
        f . . . . . . .
    """)
    # rule 6.5 priority 2: left flank held by friend 1 -> only the right flank
    assert retreats(b, at(3, 2), 0) == [at(3, 3)]
    # player 1's a at the right edge: rear (2,7) friend c, right is the map edge, left Lake
    # -> no flank; priority 3 toward the enemy edge (4,7)
    assert retreats(b, at(3, 7), 1) == [at(4, 7)]
    # player 1's e at the left edge: rear (5,0) friend d -> the right flank only
    assert retreats(b, at(6, 0), 1) == [at(6, 1)]


def test_retreat_lake_behind_counts_as_blocked():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . L . . .
        . . . . a . . .
        . . . 0 . . . .
        . . . L . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # choice: a unit may never enter a Lake, so a Lake toward the own edge sends it to a flank
    assert retreats(b, at(4, 3), 0) == [at(4, 2), at(4, 4)]
    assert retreats(b, at(3, 4), 1) == [at(3, 3), at(3, 5)]


def test_retreat_priority_3_toward_enemy_edge():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . a 0 1 . .
        . . . . c . . .
        . . . . . . . .
    """)
    # rule 6.5 priority 3: rear (6,4) enemy, flanks enemy/friend -> toward the enemy edge (4,4)
    assert retreats(b, at(5, 4), 0) == [at(4, 4)]


def test_retreat_on_own_edge_and_enemy_edge():
    b = parse_board("""
        . . . . . . . 5
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        1 . . . . . . .
        0 2 . . . . . a
    """)
    # rule 6.5: the map edge blocks like a unit. Player 0 at its own edge corner (7,0):
    # rear off the board, left flank off the board, right flank friend 2 -> priority 3 up,
    # but (6,0) holds friend 1 -> eliminated
    assert retreats(b, at(7, 0), 0) == []
    # player 1's a on player 0's edge: rear (6,7) open -> priority 1 even on the enemy edge
    assert retreats(b, at(7, 7), 1) == [at(6, 7)]
    # player 0's 5 on the enemy edge corner (0,7): rear (1,7) open -> priority 1
    assert retreats(b, at(0, 7), 0) == [at(1, 7)]
    b.occ[at(1, 7)] = 9
    assert retreats(b, at(0, 7), 0) == [at(0, 6)]  # priority 2: the one on-board flank
    b.occ[at(0, 6)] = 10
    assert retreats(b, at(0, 7), 0) == []  # up is the map edge -> eliminated


def test_retreat_surrounded_is_eliminated_for_both_players():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . 3 . . . .
        . . a 0 L . . .
        . . . b . . . .
        . . . . . . . .
        . . . f . . . .
        . . e g d . . .
    """)
    # rule 6.5: all four squares blocked (units, Lake) -> may not retreat, eliminated
    assert retreats(b, at(3, 3), 0) == []
    # player 1's g on player 0's edge: rear (6,3) friend f, flanks e/d, toward enemy edge is
    # the map edge -> eliminated
    assert retreats(b, at(7, 3), 1) == []


# --------------------------------------------------------------------------------------------
# Nightfall control (rule 2.2)

CONTROL_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . L 0 . . . . .
    . . . . a . . .
    . . . 1 . . . .
    . . . . . . . .
    . b . . . . . .
    . . . . . . . .
"""


def test_control_occupied_influence_contested_lake_and_halves():
    b = parse_board(CONTROL_BOARD)
    occ, own = b.occ, b.unit_owner
    # rule 2.2: player 0 occupies (2,2)
    assert controls(occ, own, at(2, 2), 0)
    # rule 2.2: Uncontested Influence of unit 0 over its empty neighbours
    for sq in (at(1, 2), at(3, 2), at(2, 3)):
        assert controls(occ, own, sq, 0), sq
    # rule 2.2 note: a Lake counts through Uncontested Influence
    assert controls(occ, own, at(2, 1), 0)
    # rule 2.2 example "X": (3,3) is next to player 0's unit 1 and player 1's a -> neither
    assert not controls(occ, own, at(3, 3), 0) and not controls(occ, own, at(3, 3), 1)
    # rule 2.2 example "Y": (3,4) is occupied by player 1's a -> not player 0's
    assert not controls(occ, own, at(3, 4), 0)
    # rule 2.2: only the enemy half counts; (4,2) is influenced by unit 1 but is player 0's
    # own half, (2,4) is influenced by a but is player 1's own half
    assert not controls(occ, own, at(4, 2), 0) and not controls(occ, own, at(2, 4), 1)
    # player 1 side: (4,4) next to a and to player 0's 1 -> X; (4,3) held by player 0 -> Y
    assert not controls(occ, own, at(4, 4), 1) and not controls(occ, own, at(4, 3), 1)
    for sq in (at(6, 1), at(5, 1), at(7, 1), at(6, 0), at(6, 2)):
        assert controls(occ, own, sq, 1), sq
    # totals: player 0: (2,2) (1,2) (3,2) (2,3) Lake (2,1) = 5; player 1: b and its 4 = 5
    assert control_score(occ, own, 0) == 5
    assert control_score(occ, own, 1) == 5


def test_control_occupied_square_counts_even_when_enemy_adjacent():
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . a 0 . . . .
        . . . b . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    occ, own = b.occ, b.unit_owner
    # rule 2.2: occupation alone is control, whatever is next to it
    assert controls(occ, own, at(3, 3), 0)
    assert not controls(occ, own, at(3, 2), 0)  # rule 2.2 "Y": enemy-occupied
    # (2,3) and (3,4) are next to unit 0 only -> player 0's; (2,2) is next to a only
    assert controls(occ, own, at(2, 3), 0) and controls(occ, own, at(3, 4), 0)
    assert not controls(occ, own, at(2, 2), 0)
    assert control_score(occ, own, 0) == 3
    # player 1: b occupies (4,3); (4,2) (4,4) (5,3) are next to b (and a) only -> 4 squares
    assert control_score(occ, own, 1) == 4


def test_control_empty_board_and_full_row():
    b = parse_board(EMPTY)
    assert control_score(b.occ, b.unit_owner, 0) == 0
    assert control_score(b.occ, b.unit_owner, 1) == 0
    b = parse_board("""
        0 . 1 . 2 . 3 .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    # rule 2.2: 4 occupied + 4 empty row-0 squares between/beside them + 4 below = 12
    assert control_score(b.occ, b.unit_owner, 0) == 12
    assert control_score(b.occ, b.unit_owner, 1) == 0


# --------------------------------------------------------------------------------------------
# cross-checks: jitted kernels == plain Python (kernel.py_func) == brute force from the rules


def _ref_neighbors(sq):
    r, c = divmod(sq, 8)
    cand = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [rr * 8 + cc for rr, cc in cand if 0 <= rr < 8 and 0 <= cc < 8]


def _ref_moves(occ, terr, tp, sq, cavalry):
    """All paths of 1 (or 2 for cavalry) orthogonal steps, rule 5, by enumeration."""

    def enter(s):
        return occ[s] < 0 and tp[terr[s], TP_ENTER]

    dest = set()
    for a in _ref_neighbors(sq):
        if not enter(a):
            continue
        dest.add(a)
        if cavalry and not tp[terr[a], TP_STOP]:
            for b2 in _ref_neighbors(a):
                if b2 != sq and enter(b2):
                    dest.add(b2)
    return sorted(dest)


def _ref_forced(occ, terr, tp, start, cur, end_counts=1):
    if tp[terr[start], TP_NO_FM] or (end_counts and tp[terr[cur], TP_NO_FM]):
        return []
    return sorted(s for s in _ref_neighbors(cur) if occ[s] < 0 and tp[terr[s], TP_ENTER])


def _ref_fire(occ, terr, tp, a, b2, rng):
    if a == b2:
        return False  # a unit does not fire at its own square
    if rng >= 1 and b2 in _ref_neighbors(a):
        return True
    if rng >= 2:
        for m in _ref_neighbors(a):
            if b2 in _ref_neighbors(m) and occ[m] < 0 and not tp[terr[m], TP_LOS]:
                return True
    return False


def _ref_retreat(occ, terr, tp, sq, owner):
    r, c = divmod(sq, 8)
    back = 1 if owner == 0 else -1

    def ok(rr, cc):
        return 0 <= rr < 8 and 0 <= cc < 8 and occ[rr * 8 + cc] < 0 and tp[terr[rr * 8 + cc], 0]

    for group in ([(r + back, c)], [(r, c - 1), (r, c + 1)], [(r - back, c)]):
        opts = [rr * 8 + cc for rr, cc in group if ok(rr, cc)]
        if opts:
            return opts
    return []


def _ref_controls(occ, owner, sq, player):
    if (sq < 32) != (player == 0):
        return False
    if occ[sq] >= 0:
        return owner[occ[sq]] == player
    near = {owner[occ[n]] for n in _ref_neighbors(sq) if occ[n] >= 0}
    return near == {player}


def _random_board(rng, letters, n_units):
    # Clear-heavy terrain with every letter present often enough
    weights = np.array([8 if ch == "C" else 1 for ch in letters], dtype=float)
    terr = rng.choice(len(letters), size=64, p=weights / weights.sum()).astype(np.int32)
    occ = np.full(64, -1, dtype=np.int32)
    free = np.flatnonzero(terr != letters.index("L"))
    squares = rng.choice(free, size=min(n_units, len(free)), replace=False)
    ids = rng.choice(16, size=len(squares), replace=False)
    occ[squares] = ids
    return occ, terr


def test_jit_equals_plain_python_equals_brute_force_on_random_boards():
    letters, tp = packed_terrain()
    owner = np.array([0] * 8 + [1] * 8, dtype=np.int32)
    rng = np.random.default_rng(20240611)
    out_j = np.empty(MAX_MOVE_DESTINATIONS, dtype=np.int32)
    out_p = np.empty(MAX_MOVE_DESTINATIONS, dtype=np.int32)

    def both(kernel, *args):
        nj = kernel(*args, out_j)
        npy = kernel.py_func(*args, out_p)
        assert nj == npy, (kernel.__name__, args[3:])
        assert out_j[:nj].tolist() == out_p[:npy].tolist(), (kernel.__name__, args[3:])
        return out_j[:nj].tolist()

    checked = 0
    for _ in range(300):
        occ, terr = _random_board(rng, letters, int(rng.integers(0, 17)))
        for sq in range(64):
            nj = neighbors(sq, out_j)
            assert out_j[:nj].tolist() == _ref_neighbors(sq)
            assert neighbors.py_func(sq, out_p) == nj and out_p[:nj].tolist() == _ref_neighbors(sq)
            for cav in (False, True):
                got = both(move_destinations, occ, terr, tp, sq, cav)
                assert got == _ref_moves(occ, terr, tp, sq, cav), (sq, cav)
            for player in (0, 1):
                got = both(retreat_options, occ, terr, tp, sq, player)
                assert got == _ref_retreat(occ, terr, tp, sq, player), (sq, player)
                want = _ref_controls(occ, owner, sq, player)
                assert bool(controls(occ, owner, sq, player)) == want
                assert bool(controls.py_func(occ, owner, sq, player)) == want
        for player in (0, 1):
            want = sum(_ref_controls(occ, owner, s, player) for s in range(64))
            assert control_score(occ, owner, player) == want
            assert control_score.py_func(occ, owner, player) == want
        # Forced March: a unit that moved from an empty start to an occupied cur square
        for cur in np.flatnonzero(occ >= 0)[:4]:
            for start in range(64):
                if occ[start] < 0 and 1 <= distance(start, cur) <= 2:
                    for e in (1, 0):
                        got = both(forced_march_destinations, occ, terr, tp, start, int(cur), e)
                        assert got == _ref_forced(occ, terr, tp, start, int(cur), e)
        # fire range from a few squares to everything within distance 3
        for a in rng.choice(64, size=6, replace=False):
            a = int(a)
            for b2 in range(64):
                if distance(a, b2) > 3:
                    continue
                for r in (1, 2):
                    want = _ref_fire(occ, terr, tp, a, b2, r)
                    assert bool(in_fire_range(occ, terr, tp, a, b2, r)) == want, (a, b2, r)
                    assert bool(in_fire_range.py_func(occ, terr, tp, a, b2, r)) == want
        a, b2 = (int(x) for x in rng.integers(0, 64, size=2))
        assert bool(adjacent(a, b2)) == bool(adjacent.py_func(a, b2)) == (b2 in _ref_neighbors(a))
        assert distance(a, b2) == distance.py_func(a, b2)
        checked += 1
    assert checked == 300


def test_kernels_compile_nopython_for_engine_argument_types():
    """The engine passes numpy int32 scalars (from unit_sq) and int or bool cavalry flags."""
    b = parse_board(EMPTY.replace(".", "2", 1))
    sq = b.unit_sq[2]  # np.int32
    base = moves(b, 0, True)
    assert base == [at(0, 1), at(0, 2), at(1, 0), at(1, 1), at(2, 0)]  # rule 5
    assert moves(b, sq, 1) == moves(b, sq, np.int32(1)) == base
    assert moves(b, sq, 0) == moves(b, sq, False) == [at(0, 1), at(1, 0)]
    # every kernel called with the engine's argument types (int32 scalars) gives what its
    # plain-Python function gives on the same arguments
    i1, i2, i8 = np.int32(1), np.int32(2), np.int32(8)

    def same(name, *args, out_len=0):
        k = getattr(B, name)
        if not out_len:
            assert k(*args) == k.py_func(*args), name
            return
        got, want = np.full(out_len, -9, np.int32), np.full(out_len, -9, np.int32)
        n_got, n_want = k(*args, got), k.py_func(*args, want)
        assert n_got == n_want and got[:n_got].tolist() == want[:n_want].tolist(), name

    n = MAX_MOVE_DESTINATIONS
    same("neighbors", sq, out_len=n)
    same("move_destinations", b.occ, b.terr, b.tprops, sq, i1, out_len=n)
    same("forced_march_destinations", b.occ, b.terr, b.tprops, i8, sq, i1,
         out_len=MAX_FORCED_MARCH_DESTINATIONS)  # fmt: skip
    same("in_fire_range", b.occ, b.terr, b.tprops, sq, i2, i2)
    same("retreat_options", b.occ, b.terr, b.tprops, sq, np.int32(0), out_len=MAX_RETREAT_OPTIONS)
    same("controls", b.occ, b.unit_owner, sq, np.int32(0))
    same("control_score", b.occ, b.unit_owner, i1)
    same("adjacent", sq, i1)
    same("distance", sq, i1)
    assert nbrs(sq) == [at(1, 0), at(0, 1)]  # the corner: down, right (rule 1.1: orthogonal)
    assert B.distance(sq, i1) == 1 and B.adjacent(sq, i1)


def moves_from_masks(b, sq, cavalry):
    """The movement phase's way (``free_squares`` once, then ``move_destinations_from``)."""
    out = np.full(MAX_MOVE_DESTINATIONS, -9, dtype=np.int32)
    enter, through = B.free_squares(b.occ, b.terr, b.tprops)
    return out[: B.move_destinations_from(sq, cavalry, enter, through, out)].tolist()


def test_move_destinations_from_the_free_squares_equal_move_destinations():
    """The movement phase reads the board's free squares once (bits) for all its units:
    on random battlefields (every terrain of the table, a third of the squares occupied)
    every unit's destinations, infantry and cavalry, are ``move_destinations``' exactly,
    in the same order; and on the ASCII board of the blocked cavalry above."""
    letters, tprops = packed_terrain()
    rng = np.random.default_rng(41)
    checked = 0
    for _ in range(400):
        terr = rng.integers(0, len(letters), 64).astype(np.int32)
        occ = np.where(rng.random(64) < 0.33, rng.integers(0, 32, 64), -1).astype(np.int32)
        b = type("Board", (), {"occ": occ, "terr": terr, "tprops": tprops})()
        for sq in np.nonzero(occ >= 0)[0]:
            for cavalry in (0, 1):
                assert moves_from_masks(b, int(sq), cavalry) == moves(b, int(sq), cavalry)
                checked += 1
    assert checked > 15_000
    # as plain Python too (NUMBA_DISABLE_JIT=1 runs it so): square 63's bit is the sign bit
    # of the int64 masks, which must be cleared without overflowing
    import warnings

    full = parse_board(EMPTY.replace(". . . . . . . .\n", "2 . . . . . . .\n", 1))
    out = np.zeros(MAX_MOVE_DESTINATIONS, np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full.occ[:] = -1
        full.occ[at(7, 6)] = 2
        enter, through = B.free_squares.py_func(full.occ, full.terr, full.tprops)
        got = out[: B.move_destinations_from.py_func(at(7, 6), 1, enter, through, out)]
    assert got.tolist() == moves(full, at(7, 6), 1) and at(7, 7) in got.tolist()
    b = parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . 1 2 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    assert moves_from_masks(b, at(4, 4), 1) == [
        at(3, 5), at(4, 5), at(4, 6), at(5, 3), at(5, 4), at(5, 5), at(6, 4)
    ]  # fmt: skip
    corner = parse_board(EMPTY.replace(". . . . . . . .\n", "2 . . . . . . .\n", 1))
    assert moves_from_masks(corner, at(0, 0), 1) == [
        at(0, 1),
        at(0, 2),
        at(1, 0),
        at(1, 1),
        at(2, 0),
    ]
