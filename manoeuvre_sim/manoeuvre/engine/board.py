"""Board geometry kernels: adjacency, movement reach, line of sight, retreat (Nightfall
control, rule 2.2, is in ``control.py``; ``controls`` and ``control_score`` resolve here too).

Encodings (shared by the whole engine)
--------------------------------------
- The battlefield is 8x8 (rule 1.1). A square is ``sq = row * 8 + col``, row 0 at the top.
- Player 0's starting (home) edge is row 7 (bottom), player 1's is row 0 (top). Toward
  its own edge is ``row + 1`` for player 0 and ``row - 1`` for player 1; the enemy half of
  the board is rows 0..3 for player 0 and rows 4..7 for player 1. The flank squares of a
  square are ``col - 1`` and ``col + 1`` on the same row.
- ``occ``: ``ndarray(int32, shape=(64,))``, occupant unit id per square, -1 when empty.
- ``unit_owner``: ``ndarray(int32, shape=(n_units,))``, 0 or 1 per unit id.
- ``terr``: ``ndarray(int32, shape=(64,))``, terrain code per square (index into
  ``letters`` as returned by :func:`terrain_props`).
- ``tprops``: ``ndarray(int32, shape=(n_codes, 7))``, terrain properties per code; the
  columns are the ``TP_*`` constants below.

Kernels are ``numba.njit(cache=True)`` nopython functions over integer arrays. Those that
return a list of squares write it into a caller-provided ``out`` (``ndarray(int32)``, at
least the ``MAX_*`` length given with each kernel) and return the count; they never allocate.
The plain-Python version of each kernel stays reachable as ``kernel.py_func`` (tests).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from manoeuvre_sim.core.jit import kernel, lowest_bit
from manoeuvre_sim.manoeuvre.engine.control import (
    control_score as control_score,  # rule 2.2, re-exported
)
from manoeuvre_sim.manoeuvre.engine.control import controls as controls
from manoeuvre_sim.manoeuvre.model.maps import TerrainTable

BOARD_SIZE = 8  # rule 1.1: the battlefield is eight by eight squares
N_SQUARES = BOARD_SIZE * BOARD_SIZE

# Columns of ``tprops`` (terrain properties by code).
TP_ENTER = 0  # 1 if a unit may enter the square (0: Lake)
TP_STOP = 1  # 1 if a unit entering the square ends its move there (Field, Marsh)
TP_DEF = 2  # defense bonus of a unit in the square (Hill 2, Marsh 1, Town 3, Woods 2)
TP_LOS = 3  # 1 if the square blocks line of sight as an intervening square (Hill, Town, Woods)
TP_ATK = 4  # attack bonus of a unit here attacking a unit not in the same terrain (Hill 2)
TP_NO_ASSAULT = 5  # 1 if a unit here may not assault (Marsh)
TP_NO_FM = 6  # 1 if a Forced March may not extend a move beginning or ending here (Field, Marsh)
TP_REDOUBT = 7  # defense a redoubt marker adds in the square (rule 9.2: the terrain table's
#                 redoubt_defense, +3, in every row)
N_TPROPS = 8

# Minimum lengths of the ``out`` arrays.
MAX_NEIGHBORS = 4
MAX_MOVE_DESTINATIONS = 12  # cavalry: 4 squares at distance 1 + 8 at distance 2
MAX_FORCED_MARCH_DESTINATIONS = 4
MAX_RETREAT_OPTIONS = 2  # priority 2 may offer both flanks


# --------------------------------------------------------------------------------------------
# Python helpers (packing step, not jitted)


def terrain_props(table: TerrainTable) -> tuple[str, np.ndarray]:
    """Pack the terrain table into the kernels' property array.

    Parameters
    ----------
    table : TerrainTable
        The validated terrain table (``manoeuvre_sim.manoeuvre.model.load_terrain()``).

    Returns
    -------
    letters : str
        The table's letters, sorted (``table.letters``); terrain code ``i`` is ``letters[i]``.
    tprops : ndarray(int32, shape=(len(letters), 7))
        Properties by code, columns ``TP_ENTER`` .. ``TP_REDOUBT``.
    """
    letters = table.letters
    tprops = np.zeros((len(letters), N_TPROPS), dtype=np.int32)
    for i, letter in enumerate(letters):
        t = table.terrain[letter]
        tprops[i, TP_ENTER] = int(t.enterable)
        tprops[i, TP_STOP] = int(t.must_stop)
        tprops[i, TP_DEF] = t.defense
        tprops[i, TP_LOS] = int(t.blocks_los)
        tprops[i, TP_ATK] = t.attack_bonus
        tprops[i, TP_NO_ASSAULT] = int(t.no_assault_from)
        tprops[i, TP_NO_FM] = int(t.no_forced_march)
        tprops[i, TP_REDOUBT] = table.redoubt_defense
    return letters, tprops


def terrain_codes(rows8: list[str], letters: str) -> np.ndarray:
    """Terrain codes of a battlefield given as 8 rows of 8 terrain letters (top row first).

    Parameters
    ----------
    rows8 : list of str
        Eight strings of eight letters each, row 0 (player 1's edge) first.
    letters : str
        The code order, as returned by :func:`terrain_props`.

    Returns
    -------
    ndarray(int32, shape=(64,))
        ``terr[row * 8 + col]`` = index of the letter in ``letters``.

    Raises
    ------
    ValueError
        If the grid is not 8x8 or holds a letter not in ``letters``.
    """
    rows8 = list(rows8)
    if len(rows8) != BOARD_SIZE:
        raise ValueError(f"expected {BOARD_SIZE} rows of terrain letters, got {len(rows8)}")
    terr = np.empty(N_SQUARES, dtype=np.int32)
    for r, row in enumerate(rows8):
        if len(row) != BOARD_SIZE:
            raise ValueError(f"row {r} {row!r}: expected {BOARD_SIZE} letters, got {len(row)}")
        for c, ch in enumerate(row):
            code = letters.find(ch)
            if code < 0:
                raise ValueError(
                    f"row {r} {row!r}: unknown terrain letter {ch!r}; expected one of "
                    f"{', '.join(letters)}"
                )
            terr[r * BOARD_SIZE + c] = code
    return terr


# --------------------------------------------------------------------------------------------
# Geometry


@kernel
def adjacent(a, b):
    """Whether squares ``a`` and ``b`` (ints 0..63) are orthogonally adjacent (rule 1.1: no
    diagonals): a bool."""
    return distance(a, b) == 1


@kernel
def distance(a, b):
    """The Manhattan distance (an int) between squares ``a`` and ``b`` (0..63): no diagonal
    steps, rule 1.1."""
    return abs(a // 8 - b // 8) + abs(a % 8 - b % 8)


@kernel
def neighbors(sq, out):
    """Orthogonal neighbours of ``sq`` on the board (rule 1.1: nothing diagonal).

    Parameters
    ----------
    sq : int
        Square 0..63.
    out : ndarray(int32, shape=(>=4,))
        Receives the neighbours in the fixed order up, down, left, right, off-board ones
        skipped.

    Returns
    -------
    int
        Number of neighbours written (2, 3 or 4).
    """
    r = sq // 8
    c = sq % 8
    n = 0
    for on_board, step in ((r > 0, -8), (r < 7, 8), (c > 0, -1), (c < 7, 1)):
        if on_board:
            out[n] = sq + step
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def _can_enter(occ, terr, tprops, sq):
    """Empty and of enterable terrain: a unit may end a step there (rule 5)."""
    return occ[sq] < 0 and tprops[terr[sq], TP_ENTER] != 0


@nb.njit(cache=True, inline="always")
def _can_pass(occ, terr, tprops, sq):
    """A cavalry unit may move on through ``sq``: enterable, empty, not must-stop (rule 5)."""
    t = terr[sq]
    return occ[sq] < 0 and tprops[t, TP_ENTER] != 0 and tprops[t, TP_STOP] == 0


@nb.njit(cache=True, inline="always")
def _los_open(occ, terr, tprops, sq):
    """An intervening square a bombardment may be traced through (rule 6.2 step 2)."""
    return occ[sq] < 0 and tprops[terr[sq], TP_LOS] == 0


# --------------------------------------------------------------------------------------------
# Movement (rule 5, rule 9.2 Forced March)


@kernel
def move_destinations(occ, terr, tprops, sq, cavalry, out):
    """Squares the unit at ``sq`` may end a basic move in (rule 5).

    Infantry moves 1 square, cavalry 1 or 2. No diagonal steps; a unit may neither enter
    nor pass through an occupied square (either side), may never enter a non-enterable
    square (Lake), and ends its move on entering a must-stop square (Field, Marsh). The move
    must end on a square different from the start, so cavalry cannot go out and back.

    Parameters
    ----------
    occ : ndarray(int32, shape=(64,))
        Occupant unit id per square, -1 empty (the moving unit sits at ``sq``).
    terr : ndarray(int32, shape=(64,))
        Terrain code per square.
    tprops : ndarray(int32, shape=(n_codes, 7))
        Terrain properties by code (``TP_*`` columns).
    sq : int
        The moving unit's square.
    cavalry : bool or int
        Nonzero for a cavalry unit (moves up to 2 squares).
    out : ndarray(int32, shape=(>=12,))
        Receives the distinct destinations in ascending square order.

    Returns
    -------
    int
        Number of destinations written (0..12).
    """
    r0 = sq // 8
    c0 = sq % 8
    reach = 2 if cavalry else 1
    n = 0
    # Scanning rows top to bottom and columns left to right gives ascending square order.
    for r in range(max(0, r0 - reach), min(7, r0 + reach) + 1):
        dr = abs(r - r0)
        span = reach - dr
        for c in range(max(0, c0 - span), min(7, c0 + span) + 1):
            d = dr + abs(c - c0)
            if d == 0:
                continue  # rule 5: a move must end on a different square
            t = r * 8 + c
            if not _can_enter(occ, terr, tprops, t):
                continue  # rule 5: occupied, or a Lake (never enterable)
            if d == 1:
                out[n] = t
                n += 1
                continue
            # d == 2 (cavalry): the first step must be to a square the unit may move on
            # through: empty, enterable and not must-stop (rule 5, Reference Card: Field and
            # Marsh end a cavalry move).
            if r == r0:
                ok = _can_pass(occ, terr, tprops, r0 * 8 + (c0 + c) // 2)
            elif c == c0:
                ok = _can_pass(occ, terr, tprops, ((r0 + r) // 2) * 8 + c0)
            else:
                ok = _can_pass(occ, terr, tprops, r0 * 8 + c) or _can_pass(
                    occ, terr, tprops, r * 8 + c0
                )
            if ok:
                out[n] = t
                n += 1
    return n


def _within_steps(lo: int, hi: int) -> np.ndarray:
    """[sq]: the squares lo to hi orthogonal steps from sq (Manhattan distance, so sq
    itself when lo is 0), as bits of an int64 (bit k: square k)."""
    out = np.zeros(N_SQUARES, dtype=np.int64)
    for sq in range(N_SQUARES):
        m = 0
        for t in range(N_SQUARES):
            if (
                lo
                <= abs(sq // BOARD_SIZE - t // BOARD_SIZE) + abs(sq % BOARD_SIZE - t % BOARD_SIZE)
                <= hi
            ):
                m |= 1 << t
        out[sq] = np.array(m, dtype=np.uint64).view(np.int64)
    return out


NEIGHBOURS = _within_steps(1, 1)  # the squares one orthogonal step away
# every square a Bombardment may reach (rule 6.2 step 2, range 2), sq itself left out
WITHIN_TWO = _within_steps(1, 2)
# the squares within 2 and 3 steps, sq included: a unit card's enemy "near" and a
# bombardment's reach in the players' card worths (players/cards.py)
DIAMOND2 = _within_steps(0, 2)
DIAMOND3 = _within_steps(0, 3)


@kernel
def free_squares(occ, terr, tprops):
    """``(enter, through)``: the squares a unit may end a step in (empty and enterable, as
    ``_can_enter``) and those a cavalry unit may move on through (also not must-stop, as
    ``_can_pass``), as bits of an int64 (bit k: square k), for ``move_destinations_from``."""
    # the terrain codes a unit may enter and those it may also move on through, as bits
    # (bit k: code k; a few codes, the terrain table's letters); then each square without
    # a branch (a board follows no pattern a branch predicts) and with a shift for its
    # terrain row: a third of the time of testing each square's row
    ce = 0
    cg = 0
    for k in range(tprops.shape[0]):
        if tprops[k, TP_ENTER] != 0:
            ce |= np.int64(1) << k
            if tprops[k, TP_STOP] == 0:
                cg |= np.int64(1) << k
    enter = 0
    through = 0
    for t in range(N_SQUARES):
        tt = terr[t]
        e = np.int64(occ[t] < 0) & (ce >> tt)
        enter |= (e & 1) << t
        through |= (e & (cg >> tt) & 1) << t
    return enter, through


@kernel(inline="always")
def move_mask(sq, cavalry, enter, through):
    """``move_destinations`` on the board's ``free_squares`` (read once for every unit
    that may move), as bits (bit k: square k). A square two steps away is reached through
    an orthogonal neighbour a cavalry unit may move on through (rule 5): the one between
    for a square in line, either corner for one at an angle; two steps from sq lead only
    to squares at distance 2 or back to sq, which is left out."""
    m = NEIGHBOURS[sq] & enter
    if cavalry:
        a = NEIGHBOURS[sq] & through
        while a != 0:
            b = lowest_bit(a)
            m |= NEIGHBOURS[b] & enter
            a ^= np.int64(1) << b  # not a & (a - 1): square 63's bit is the sign bit
    return m & ~(np.int64(1) << sq)


@kernel(inline="always")
def move_destinations_from(sq, cavalry, enter, through, out):
    """``move_destinations`` on the board's ``free_squares``: ``move_mask``'s squares in
    ascending order (the same squares in the same order), into ``out``; returns their
    count."""
    m = move_mask(sq, cavalry, enter, through)
    n = 0
    while m != 0:
        b = lowest_bit(m)
        out[n] = b
        n += 1
        m ^= np.int64(1) << b
    return n


@kernel
def move_via(occ, terr, tprops, sq, to):
    """The square a move from ``sq`` to ``to`` passes through: -1 for a move of one square;
    for two squares in a line the one between; for two squares at an angle the first of the
    two corner squares a unit may move on through (rule 5), as ``move_destinations`` checks
    them. For the trace (EV_VIA): the rules need only the destination."""
    r0, c0, r, c = sq // 8, sq % 8, to // 8, to % 8
    if abs(r - r0) + abs(c - c0) < 2:
        return -1
    if r == r0:
        return r0 * 8 + (c0 + c) // 2
    if c == c0:
        return ((r0 + r) // 2) * 8 + c0
    if _can_pass(occ, terr, tprops, r0 * 8 + c):
        return r0 * 8 + c
    return r * 8 + c0


@kernel
def forced_march_destinations(occ, terr, tprops, start_sq, cur_sq, end_counts, out):
    """Squares a Forced March may take the unit to, one square on from ``cur_sq`` (rule 9.2).

    Parameters
    ----------
    occ : ndarray(int32, shape=(64,))
        Occupant unit id per square, -1 empty; already shows the unit at ``cur_sq``.
    terr : ndarray(int32, shape=(64,))
        Terrain code per square.
    tprops : ndarray(int32, shape=(n_codes, 7))
        Terrain properties by code.
    start_sq : int
        Where the unit began its move this phase.
    cur_sq : int
        Where its basic move ended.
    end_counts : int
        1: the base rule (a move that begins *or ends* in a Field or Marsh may not be
        extended); 0: the Distant Lands wording (only where it *begins*; the
        ``--dl-forced-march`` option, ``OPT_DL_FORCED_MARCH``).
    out : ndarray(int32, shape=(>=4,))
        Receives the destinations in ascending square order.

    Returns
    -------
    int
        Number of destinations written (0..4): 0 when the move began (or, with
        ``end_counts``, ended) in a square with ``TP_NO_FM`` (Field, Marsh).
    """
    # rule 9.2 Forced March: no extension of a move that begins or ends in a Field or Marsh;
    # Distant Lands 9.2 (000): "Units that begin their move in either a Field or a Marsh".
    if tprops[terr[start_sq], TP_NO_FM] != 0:
        return 0
    if end_counts != 0 and tprops[terr[cur_sq], TP_NO_FM] != 0:
        return 0
    r = cur_sq // 8
    c = cur_sq % 8
    n = 0
    # Ascending order: up, left, right, down. The start square is empty again (the unit
    # left it), so rule 5 "a Forced March may be used to return a unit to its original
    # space" needs no special case. The extra square itself may be a Field or Marsh: the
    # restriction is on where the move began and (base rule) where the basic move ended.
    if r > 0 and _can_enter(occ, terr, tprops, cur_sq - 8):
        out[n] = cur_sq - 8
        n += 1
    if c > 0 and _can_enter(occ, terr, tprops, cur_sq - 1):
        out[n] = cur_sq - 1
        n += 1
    if c < 7 and _can_enter(occ, terr, tprops, cur_sq + 1):
        out[n] = cur_sq + 1
        n += 1
    if r < 7 and _can_enter(occ, terr, tprops, cur_sq + 8):
        out[n] = cur_sq + 8
        n += 1
    return n


# --------------------------------------------------------------------------------------------
# Fire range and line of sight (rule 6.2 step 2, rule 8 Range)


@kernel
def in_fire_range(occ, terr, tprops, from_sq, to_sq, max_range):
    """True if ``to_sq`` is within Volley/Bombardment range of ``from_sq``.

    Range 1 (Volley): orthogonally adjacent only, never diagonally (rule 6.2 step 2).
    Range 2 (Bombardment): adjacent, or two squares away along an orthogonal path whose
    intervening square is neither Hill, Town, Woods (``TP_LOS``) nor occupied by a unit of
    either side; a diagonal neighbour is at range 2 through either of the two squares
    between, one of which must be open (rule 8 Range). The firing and target squares may be
    any terrain.

    Parameters
    ----------
    occ, terr, tprops : ndarray(int32)
        The board: occupants, terrain codes, terrain properties (the module docstring).
    from_sq, to_sq : int
        Firing and target squares.
    max_range : int
        1 (Volley) or 2 (Bombardment, Grand Battery); values above 2 act as 2.

    Returns
    -------
    bool
    """
    fr = from_sq // 8
    fc = from_sq % 8
    tr = to_sq // 8
    tc = to_sq % 8
    d = abs(fr - tr) + abs(fc - tc)
    if d == 0 or max_range < 1:
        return False
    if d == 1:
        return True  # rule 6.2 step 2: adjacent, not diagonally
    if d > 2 or max_range < 2:
        return False
    # d == 2, range 2: trace the path through the intervening square (rule 6.2 step 2).
    if fr == tr:
        return _los_open(occ, terr, tprops, fr * 8 + (fc + tc) // 2)
    if fc == tc:
        return _los_open(occ, terr, tprops, ((fr + tr) // 2) * 8 + fc)
    # Diagonal neighbour: either corner square may carry the line (rule 8 Range).
    return _los_open(occ, terr, tprops, fr * 8 + tc) or _los_open(occ, terr, tprops, tr * 8 + fc)


@kernel
def in_rocket_range(occ, terr, tprops, from_sq, to_sq, max_range):
    """True if ``to_sq`` is within rocket range of ``from_sq`` (Distant Lands rules 6.3, 9.2:
    "a type of bombardment attack ... a range of 2, or 3 if the attacking unit is atop a
    hill firing at a non-hill space"; ``max_range`` 2 or 3, the caller decides which).

    Up to 2 squares exactly as a Bombardment (:func:`in_fire_range`). At 3 squares the line
    follows, like the Bombardment's 90-degree turn, any shortest orthogonal path whose two
    intervening squares are all open (neither Hill, Town, Woods nor a unit); never
    diagonally (interpretation DL8).
    """
    fr = from_sq // 8
    fc = from_sq % 8
    tr = to_sq // 8
    tc = to_sq % 8
    dr = tr - fr
    dc = tc - fc
    d = abs(dr) + abs(dc)
    if d <= 2:
        return in_fire_range(occ, terr, tprops, from_sq, to_sq, 2)
    if d > 3 or max_range < 3:
        return False
    sr = 1 if dr > 0 else -1
    sc = 1 if dc > 0 else -1
    for m in range(8):  # bit i set: step i is a row step
        rows = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1)
        if rows != abs(dr):
            continue
        r = fr
        c = fc
        ok = True
        for i in range(2):  # the two intervening squares
            if (m >> i) & 1:
                r += sr
            else:
                c += sc
            if not _los_open(occ, terr, tprops, r * 8 + c):
                ok = False
                break
        if ok:
            return True
    return False


# --------------------------------------------------------------------------------------------
# Retreat (rule 6.5)


@nb.njit(cache=True, inline="always")
def _retreat_open(occ, terr, tprops, r, c):
    """A square a retreating unit may enter (rule 6.5 Retreat)."""
    if r < 0 or r > 7 or c < 0 or c > 7:
        return False  # rule 6.5: the map edge blocks
    sq = r * 8 + c
    if occ[sq] >= 0:
        return False  # rule 6.5: blocked by friendly or enemy units
    # Rule 6.5 names only units and the map edge; we also treat a Lake as blocked because a
    # unit may never enter a Lake (rule 5, Reference Card). So a unit whose only way back is
    # a Lake retreats to a flank instead.
    return tprops[terr[sq], TP_ENTER] != 0


@kernel
def retreat_options(occ, terr, tprops, sq, owner, out):
    """Squares the unit of player ``owner`` at ``sq`` may retreat to (rule 6.5 Retreat).

    Priority 1: the square toward ``owner``'s own starting edge, if open (the only option).
    Priority 2: otherwise the open flank squares, retreating player's choice.
    Priority 3: otherwise the square toward the enemy's starting edge, if open.
    Otherwise none: the unit cannot retreat and is eliminated. A square is blocked when off
    the board, occupied (either side) or a Lake. Withdrawals use the same options.

    Parameters
    ----------
    occ, terr, tprops : ndarray(int32)
        The board: occupants, terrain codes, terrain properties (the module docstring).
    sq : int
        The retreating unit's square.
    owner : int
        The retreating unit's player (0: home edge row 7, 1: home edge row 0).
    out : ndarray(int32, shape=(>=2,))
        Receives the options (flanks in ascending order).

    Returns
    -------
    int
        Number of options: 1 (priority 1 or 3), 1 or 2 (priority 2), or 0 (eliminated).
    """
    r = sq // 8
    c = sq % 8
    back = 1 if owner == 0 else -1  # row step toward owner's own starting edge
    # rule 6.5 Retreat priority 1: directly toward the friendly starting edge.
    if _retreat_open(occ, terr, tprops, r + back, c):
        out[0] = sq + 8 * back
        return 1
    # rule 6.5 Retreat priority 2: either flank square, retreating player's choice.
    n = 0
    if _retreat_open(occ, terr, tprops, r, c - 1):
        out[n] = sq - 1
        n += 1
    if _retreat_open(occ, terr, tprops, r, c + 1):
        out[n] = sq + 1
        n += 1
    if n > 0:
        return n
    # rule 6.5 Retreat priority 3: then and only then toward the enemy's starting edge.
    if _retreat_open(occ, terr, tprops, r - back, c):
        out[0] = sq - 8 * back
        return 1
    return 0  # rule 6.5: all four blocked, the unit is eliminated instead
