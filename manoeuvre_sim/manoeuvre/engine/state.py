"""The engine's state and static tables: fixed-shape integer arrays, nothing else.

State: one flat ``ndarray(int32, shape=(STATE_SIZE,))``; each slot's offset and encoding is
defined below (in the manner of pgx). Kernels read and write it in place; copying it copies
a game. Static tables (the packed armies, terrain properties) never change during a game.

Seats: player 0 is army A, starting edge row 7 (the bottom); player 1 is army B, starting
edge row 0. Unit ids: player p's units are ``p * MAXU_SIDE + i`` for its i-th unit.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.manoeuvre.model.army import HQ_TYPES

MAXU_SIDE = 16  # units per side the arrays hold (the game has 8; relaxed armies up to 16)
NUNITS = 2 * MAXU_SIDE
MAXC = 100  # cards per deck the arrays hold (the game has 60; relaxed decks up to 99)
HMAX = 8  # hand capacity (the rules keep it at 5 after drawing)
TMAX = 16  # cards a player may have on the table during one combat

_offset = 0


def _slot(n: int) -> int:
    global _offset
    start = _offset
    _offset += n
    return start


# --- board -------------------------------------------------------------------------------
OCC = _slot(64)  # unit id on each square, -1 empty (square = row * 8 + col)
TERR = _slot(64)  # terrain code of each square (index into the tprops table)
REDOUBT = _slot(64)  # 1 if a redoubt marker is on the square (rule 9.2 Redoubt)
# --- units -------------------------------------------------------------------------------
U_SQ = _slot(NUNITS)  # square of each unit, -1 when eliminated or absent
U_STEP = _slot(NUNITS)  # 2 full strength, 1 reduced, 0 eliminated or absent
# --- cards (per player p: block p * MAXC .. for piles, p * HMAX for the hand) --------------
DECK = _slot(2 * MAXC)  # draw pile, card indices into the army's card table; top = last
DECK_N = _slot(2)
HAND = _slot(2 * HMAX)  # cards in hand
HAND_N = _slot(2)
DISC = _slot(2 * MAXC)  # discard pile
DISC_N = _slot(2)
TABLE = _slot(2 * TMAX)  # cards played in the current combat, discarded when it ends
TABLE_N = _slot(2)
OUT_N = _slot(2)  # cards removed from play (none in the base game; kept for conservation)
DRAWN = _slot(2 * 4)  # 128-bit set per player: which card copies were drawn (card analysis)
PLAYED = _slot(2 * 4)  # 128-bit set per player: which card copies were played
# --- counters ----------------------------------------------------------------------------
TURN = _slot(1)  # game turn, 1-based
ACTIVE = _slot(1)  # the active player (0 or 1)
FIRST = _slot(1)  # the first player (rule 3)
FIRST_DECK_DONE = _slot(2)  # 1 once the player drew the last card of the first deck (2.3)
RESHUFFLES = _slot(2)
ELIM = _slot(2)  # number of units of player p eliminated
OVER = _slot(1)  # 1 when the game has ended
WINNER = _slot(1)  # 0, 1, or -1 for a draw (identical tie-breaker ranks, see docs)
VICTORY = _slot(1)  # VICTORY_* code
TIEBREAK = _slot(1)  # nightfall: 0 squares, 1 eliminations, 2 reduced units, 3 nation, 4 none
VP = _slot(2)  # nightfall control points (rule 2.2), set when the day ends
REVEALED = _slot(2)  # 1 while player p may see the opponent's hand (Scout/Spy this turn)
COMBATS = _slot(2)  # combats declared by each player
ASSAULTS = _slot(2)
CARDS_PLAYED = _slot(2)
MOVES = _slot(2)
TURN_LIMIT_HIT = _slot(1)  # 1 if the game was stopped by the safety turn limit
MAP = _slot(8)  # the four sections (numbers) then their rotations, NW NE SW SE
STATE_SIZE = _offset

VICTORY_NONE, VICTORY_ATTRITION, VICTORY_NIGHTFALL = 0, 1, 2
VICTORY_NAMES = ("none", "attrition", "nightfall")

# --- card table (static, per player): ndarray(int32, shape=(2, MAXC, NCF)) ----------------
CF_KIND = 0  # KIND_*
CF_UNIT = 1  # unit cards: the unit's index within its army (0..)
CF_HQ = 2  # HQ cards: HQ_* type
CF_ATK_N, CF_ATK_S = 3, 4  # attack dice (0 = none)
CF_DEF = 5
CF_RANGE = 6
CF_BOMB_N, CF_BOMB_S = 7, 8
CF_VOL_N, CF_VOL_S = 9, 10
CF_PURSUIT = 11  # pursuit range max (0 = none), a d6 hits on 1..max
CF_WITHDRAW = 12  # withdraw range max (0 = none)
CF_NRTA = 13  # "not required to advance"
CF_ARTY = 14
CF_CMD = 15  # leaders
CF_CBT_A = 16
CF_CBT_D = 17
CF_RALLY = 18
CF_RALLY_AUTO = 19
CF_PMOD = 20
CF_GB_N, CF_GB_S = 21, 22  # Grand Battery dice (0 = none)
# Distant Lands (rules 8, 9.1: rules.leader_acts_for, rules.secondary_usable)
CF_SECOND = 23  # unit cards: secondary effect SEC_* (rule 8), usable while the unit is on board
CF_LNAT = 24  # leaders: nationality code (1.., the unit table's UF_NAT), 0 = unrestricted
CF_LUNIT = 25  # leaders: 1 + index of the one unit a Japanese leader acts for, 0 = any
NCF = 26

KIND_NONE, KIND_UNIT, KIND_LEADER, KIND_HQ = 0, 1, 2, 3
HQ_NAMES = HQ_TYPES  # HQ type code i is HQ_TYPES[i] (model/army.py)
(
    HQ_AMBUSH,
    HQ_COMMITTED,
    HQ_FORCED_MARCH,
    HQ_GUERRILLA,
    HQ_REDOUBT,
    HQ_REGROUP,
    HQ_SAPPERS,
    HQ_SPY,
    HQ_SKIRMISH,
    HQ_SUPPLY,
    HQ_WITHDRAW,
    HQ_ROCKETS,  # Distant Lands rules 6.3, 9.2
    HQ_BANZAI,  # Distant Lands rule 9.2 Banzai Charge
    HQ_DEATH_WITH_HONOUR,  # Distant Lands rule 9.2
    HQ_MAHARAJA,  # Distant Lands rule 9.1
) = range(15)
SEC_NONE, SEC_REDOUBT, SEC_GUERRILLAS, SEC_COMMITTED = 0, 1, 2, 3  # CF_SECOND
SEC_NAMES = (None, "redoubt", "guerrillas", "committed attack")

# --- unit table (static): ndarray(int32, shape=(NUNITS, NUF)) -----------------------------
UF_EXISTS, UF_CAV, UF_FULL, UF_REDUCED = 0, 1, 2, 3
UF_NAT = 4  # Distant Lands nationality code: 1 + index in the army's order of first use, 0 none
NUF = 5


@kernel
def clear_state(st):
    """Reset ``st`` to the empty game: no units, no cards, no winner."""
    st[:] = 0
    st[OCC : OCC + 64] = -1
    st[U_SQ : U_SQ + NUNITS] = -1
    st[WINNER] = -1


def new_state() -> np.ndarray:
    """A fresh empty state, ``ndarray(int32, (STATE_SIZE,))``."""
    st = np.zeros(STATE_SIZE, dtype=np.int32)
    clear_state(st)
    return st
