"""Decision points: what the rules ask a player, and how its options are encoded.

At every decision the rules write the legal options into ``opts`` —
``ndarray(int32, shape=(MAXOPT, 4))``, one row per option, fields as listed per kind — and a
policy returns the index of one of them. Anything else raises (never silently absorbed).
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel

MAXOPT = 512


@kernel(inline="always")
def add_option(opts, n, a, b, c, d):
    """Write option row ``n`` of ``opts`` as (a, b, c, d); returns ``n + 1``, the options
    written so far."""
    opts[n, 0] = a
    opts[n, 1] = b
    opts[n, 2] = c
    opts[n, 3] = d
    return n + 1


D_PLACE = 1  # set-up (rule 3): (square, unit, 0, 0)
D_PICK_START = 2  # tournament set-up: (deck position, card, 0, 0)
D_DISCARD = 3  # discard phase: (hand bitmask, 0, 0, 0)
D_SPY = 4  # play Scout/Spy: (-1 or slot, 0, 0, 0)
D_MOVE = 5  # movement: (unit, to, 0, 0); unit -1 = dig in (Distant Lands option); a Banzai
#           Charge move (Distant Lands 9.2, up to 2 squares): (unit, to, the Banzai Charge
#           card's slot on the first move, which plays it, -1 on the second, 1)
D_FORCED_MARCH = 6  # (slot or -1, to, unit, 0)
D_SUPPLY_MOVE = 7  # (slot or -1, unit, to, 0)
D_GUERRILLA = 8  # opponent: (-1 or slot, negated card, 0, 0): a Guerrilla card, or an Indian
#                  unit card's Guerrillas (Distant Lands 8), the Guerrilla card listed last
D_COMBAT = 9  # (kind CK_* or 0 none, unit/-1, slot, target)
D_WITHDRAW = 10  # defender: (slot or -1, defending unit, 0, 0)
D_DEF_CARD = 11  # defender: (slot or -1, defending unit, 1 + the slot of a Maharaja played
#                 with the leader or 0, 0) (Distant Lands 9.1 Maharaja)
D_ATT_CARD = 12  # attacker step 5: (slot or -1, what AC_*, unit or -1, defending unit); a
#                  leader with a Maharaja (AC_MAHARAJA_*): column 2 is the Maharaja's slot
D_SUPPORT = 13  # (unit or -1, defending unit, 0, 0)
D_HIT_OR_RETREAT = 14  # (0 hit / 1 retreat, defending unit, results band, 0)
D_RETREAT_SQ = 15  # (square, retreating unit, 0, 0)
D_ADVANCE = 16  # (unit or -1, vacated square, 0, 0)
D_SKIRMISH_MOVE = 17  # (square or -1, moving unit, 0, 0)
D_RESTORE = 18  # (slot or -1, unit, 1 + the slot of a Maharaja played with the leader or 0, 0)
D_REDOUBT = 19  # (slot or -1, unit, 0, 0): a Redoubt card, or an Indian unit card's Redoubt
#                 (Distant Lands 8)
D_COMMITTED_HIT = 20  # attacker: (surviving attacking/supporting unit, 0, 0, 0) to take a
#                       Committed Attack's hit whose own unit fell (rule 9.2)
D_MAP_SECTION = 21  # set-up (rule 3, --setup rules), the first player, once per quarter NW,
#                     NE, SW, SE in that order: (pool index of a section not yet laid,
#                     quarter * 4 + quarter turns clockwise, the turned section's terrain
#                     codes of rows 0-1 then of rows 2-3: 8 codes of 4 bits each per word,
#                     square (r, c) at bits 4 * (4 * (r % 2) + c)) (engine/setup.py)
D_EDGE = 22  # set-up (rule 3, --setup rules), the second player: (its starting edge on the
#              map as laid, EDGE_N/E/S/W, quarter turns clockwise that bring that edge to its
#              side of the board, 0, 0) (engine/setup.py choose_edge)
N_DECISIONS = 23

DECISION_NAMES = (
    "", "place", "pick_start", "discard", "spy", "move", "forced_march", "supply_move",
    "guerrilla", "combat", "withdraw", "def_card", "att_card", "support", "hit_or_retreat",
    "retreat_square", "advance", "skirmish_move", "restore", "redoubt", "committed_hit",
    "map_section", "edge",
)  # fmt: skip

# the four edges of the battlefield, clockwise from the top (row 0, player 1's side); a
# quarter turn clockwise of the whole map takes edge e to edge (e + 1) % 4
EDGE_N, EDGE_E, EDGE_S, EDGE_W = 0, 1, 2, 3
EDGE_NAMES = ("north", "east", "south", "west")

# combat kinds
CK_NONE, CK_ASSAULT, CK_AMBUSH, CK_BOMBARD, CK_VOLLEY, CK_GRAND_BATTERY = 0, 1, 2, 3, 4, 5
CK_ROCKETS = 6  # Distant Lands rules 6.3, 9.2: D_COMBAT (CK_ROCKETS, firing unit, slot, target)
# Distant Lands rule 9.2 Death With Honour: D_COMBAT (CK_DEATH_WITH_HONOUR, own unit, slot, own
# unit): the player eliminates its own unit, every adjacent enemy unit takes a hit
CK_DEATH_WITH_HONOUR = 7
COMBAT_NAMES = ("none", "assault", "ambush", "bombard", "volley", "grand_battery", "rockets",
                "death_with_honour")  # fmt: skip

# attacker card uses in step 5
AC_DONE, AC_UNIT, AC_COMMITTED, AC_SAPPERS, AC_SKIRMISH, AC_LEADER_COMBAT, AC_LEADER_COMMAND = (
    0, 1, 2, 3, 4, 5, 6,
)  # fmt: skip
# Distant Lands: AC_UNIT also plays a Japanese leader for its unit's 1d6 Assault value (9.1);
# a leader with a Maharaja for Combat or Command (9.1: no nationality restriction, Command 4),
# column 2 the Maharaja's slot; declaring the attack of a unit whose Committed Attack unit
# card is on the table Committed (8; slot -1, column 2 the unit)
AC_MAHARAJA_COMBAT, AC_MAHARAJA_COMMAND, AC_DECLARE_COMMITTED = 7, 8, 9

# --- the current combat (game.py): ndarray(int32, (CB_SIZE,)), public information ----------
CB_KIND = 0  # CK_* of the combat under way
CB_ATT_P = 1  # the active (attacking) player
CB_DEF_U = 2  # defending unit
CB_NATT = 3  # number of attacking + supporting units
CB_ATT = 4  # 5 slots: the attacking unit first (assault), then supporting units
CB_CA = 9  # 5 slots: 1 if a Committed Attack card was played for that unit, 2 if its attack
#            was declared Committed by an Indian unit card (Distant Lands 8): +2d6, one hit
CB_LEADER = 14  # attacker's leader card (-1 none)
CB_LMODE = 15  # 0 none, 1 combat value, 2 command value
CB_SAPPERS = 16
CB_STEP5 = 17  # attacker cards played in step 5
CB_A = 18  # attack total
CB_D = 19  # defense total
CB_DLEADER = 20  # defender's leader card (-1 none)
CB_INIT_CARD = 21  # the card that initiated the combat
CB_STAGE = 22  # the stage of the Assault/Ambush under way (STAGE_*; combat_phase.py)
CB_MAHARAJA = 23  # 1 if the attacker's leader was played with a Maharaja (Distant Lands 9.1)
CB_SIZE = 24

# --- the stages of an Assault or Ambush (rule 6.1): cb[CB_STAGE] -----------------------------
# Each stage begins with at most one decision (listed by ``combat_phase.stage_options``), so a
# copy of the state and ``cb`` taken before a stage continues the combat exactly: the search
# player (engine/search.py) decides there.
STAGE_NONE = 0  # no combat under way (or a combat that has ended)
STAGE_WITHDRAW = 1  # step 3: the defender's Withdraw or withdraw roll (D_WITHDRAW)
STAGE_DEF_CARD = 2  # step 4: one defence card or none (D_DEF_CARD), repeated
STAGE_ATT_CARD = 3  # step 5: one attacker card or none (D_ATT_CARD), repeated
STAGE_SUPPORT = 4  # step 5, after a leader played for command: one supporting unit (D_SUPPORT)
STAGE_DICE = 5  # step 6: the totals (dice, no decision)
STAGE_RESULTS = 6  # step 7: the results (D_HIT_OR_RETREAT first), advance, pursuit, hits
