"""Nightfall control (rule 2.2): which squares of the enemy half a player controls.

The board encodings are ``board.py``'s: ``occ`` ``ndarray(int32, shape=(64,))``, the occupant
unit id per square (-1 empty), ``unit_owner`` ``ndarray(int32, shape=(n_units,))``, the player
(0 or 1) of each unit id; a square is ``row * 8 + col``, player 0's enemy half rows 0..3.
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel


@kernel
def _holds(occ, unit_owner, sq, player):
    """Occupation or Uncontested Influence of ``player`` over ``sq`` (rule 2.2), any half."""
    u = occ[sq]
    if u >= 0:
        return unit_owner[u] == player  # rule 2.2: occupied by one of player's units
    r = sq // 8
    c = sq % 8
    mine = False
    for k in range(4):
        if k == 0:
            if r == 0:
                continue
            v = occ[sq - 8]
        elif k == 1:
            if r == 7:
                continue
            v = occ[sq + 8]
        elif k == 2:
            if c == 0:
                continue
            v = occ[sq - 1]
        else:
            if c == 7:
                continue
            v = occ[sq + 1]
        if v >= 0:
            if unit_owner[v] == player:
                mine = True
            else:
                return False  # rule 2.2: an adjacent enemy unit contests the square
    return mine  # rule 2.2: Uncontested Influence needs one of player's units next to it


@kernel
def controls(occ, unit_owner, sq, player):
    """True if ``player`` controls ``sq`` for Nightfall (rule 2.2).

    Control exists only on the enemy's half (rows 0..3 for player 0, 4..7 for player 1):
    the square is occupied by one of ``player``'s units, or one of them is orthogonally
    adjacent and no enemy unit occupies it or is adjacent to it (Uncontested Influence).
    A Lake counts like any other square. Squares of ``player``'s own half give False.

    Parameters
    ----------
    occ, unit_owner : ndarray(int32)
        The board's occupants and each unit's player (the module docstring).
    sq : int
        Square 0..63.
    player : int
        0 or 1.

    Returns
    -------
    bool
    """
    if player == 0:
        if sq >= 32:
            return False  # rule 2.2: only the enemy's half (rows 0..3 for player 0) counts
    elif sq < 32:
        return False  # rule 2.2: only the enemy's half (rows 4..7 for player 1) counts
    return _holds(occ, unit_owner, sq, player)


@kernel
def control_score(occ, unit_owner, player):
    """Number of squares of the enemy's half that ``player`` controls (rule 2.2 Nightfall).

    Parameters
    ----------
    occ, unit_owner : ndarray(int32)
        The board's occupants and each unit's player (the module docstring).
    player : int
        0 or 1.

    Returns
    -------
    int
        0..32.
    """
    lo = 0 if player == 0 else 32
    n = 0
    for sq in range(lo, lo + 32):
        if _holds(occ, unit_owner, sq, player):
            n += 1
    return n
