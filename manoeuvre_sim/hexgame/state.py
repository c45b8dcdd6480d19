"""Maneuver's game state: one fixed-shape ``int32`` vector per game, and the game context.

``st``: ``ndarray(int32, shape=(STATE_SIZE,))``, laid out as::

    header(HEADER) | pos(2*MAXU) | step(2*MAXU) | flags(2*MAXU)

Units are numbered ``side * MAXU + i`` (side 0 blue, 1 red; ``i = 0`` the Capital), as the
packed scenario (``scenario.pack``). ``pos``: the hex (``grid``'s id) of a unit on the map,
``DEAD`` in the dead pile (rule [10]), ``ABSENT`` for an unused row, ``UNPLACED`` before
set-up. ``step``: 0 front, 1 reduced (rule [13] 2, 3). ``flags``: the bits ``F_*``.

The context ``Ctx`` (a namedtuple the kernels receive) holds the scenario's tables, the
options, the players, the generators, the scratch rows and the event trace.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.hexgame.scenario import MAXU

NU = 2 * MAXU
# --- header ----------------------------------------------------------------------------
TURN = 0  # game turn, 1..turns (rule [4])
PLAYER = 1  # the side whose player turn it is
FIRST = 2  # the side that moves first (rule [3])
WINNER = 3  # -1 undecided, 0 blue, 1 red, 2 draw
VICTORY = 4  # VIC_*
CAP_CAPTURED = 5  # + side: 1 while that side's Capital is captured (rule [11])
CAP_FELL = 7  # + side: the first game turn that side's Capital fell, 0 if never
NO_MARGIN = 9  # + side: victory checks at which that side held the enemy Capital short
#                of the two-unit margin (rule [12])
ELIM = 11  # + side: that side's units eliminated (dead pile entries)
REPL = 13  # + side: replacements (or replacement steps) received (rule [10])
COMBATS = 15  # + side: combats that side attacked in
CAPTURES = 17  # + side: times that side's Capital was captured
CAP_HOME = 19  # + side: the hex that side's Capital was set up on (it never moves)
REPL_IN = 21  # + side: units returned from the dead pile (rule [10])
VIOLATIONS = 23  # with O_CHECK: the CHK_* bits of invariants broken (0 in a correct engine)
HEADER = 24
POS = HEADER
STEP = POS + NU
FLAGS = STEP + NU
STATE_SIZE = FLAGS + NU

DEAD, ABSENT, UNPLACED = -1, -2, -3
# flags, per unit
F_USED = 1  # has attacked this combat phase (rule [8]: once per phase)
F_ATTACKED = 2  # was attacked this combat phase
F_RETREATING = 4  # due to retreat in the combat being resolved, from the moment it is queued
#                    until the combat ends, moved or not yet (rule [8] chain retreats)
F_UNSUPPLIED = 8  # unsupplied at the last supply check of its movement phase (rule [9])
F_MOVED = 16  # has made its move this movement phase
# victory kinds
VIC_NONE, VIC_CAPITAL, VIC_DRAW = 0, 1, 2
VICTORY_NAMES = ("none", "capital", "draw")

# --- options: ndarray(int32, shape=(NOPT,)) --------------------------------------------------
O_TURNS = 0  # rule [12]: the game turn after which the game is a draw (10)
O_FIRST = 1  # -1: drawn per game; 0 blue; 1 red (rule [3]: "the players decide")
O_QUALITY = 2  # + side: rule [13] 2, that side's first K combat units (scenario order) set up
#               reduced: 0 none (front), MAXU all (back), between: a mixture
O_STEP_LOSSES = 4  # rule [13] 3
O_STEP_REPL = 5  # rule [13] 4
O_CHECK = 6  # 1: check the invariants after every phase (``checks.py``; tests)
O_CAPTURED_ZOC = 7  # H6 switch: 1 = a captured Capital keeps its ZOC (rule [5]'s zero units do)
O_WEAK = 8  # + side: rule [13] 2 with the units chosen: a bit mask, bit i-1 set for the
#            side's unit i (scenario order, 1..MAXU-1) set up reduced; 0: O_QUALITY decides
O_RETREAT_APART = 10  # H11 switch: 1 = no retreating unit may enter a hex holding a friend
#                       that retreats in the same combat (the earlier reading); 0: it may
NOPT = 11

# --- scratch rows: ndarray(int32, shape=(NWK, W)) ---------------------------------------------
W_OCC = 0  # + side: units of that side in each hex (a captured Capital not counted)
W_ZOC = 2  # + side: how many units of that side exert a ZOC on each hex (rule [7]; > 0: a ZOC)
W_SUP = 4  # + side: 1 on the hexes a supply path reaches from that side's Capital (rule [9])
W_REACH = 6  # movement points used to reach each hex, -1 unreached (rule [6])
W_QUEUE = 7
W_OPTS = 8  # the options of the decision being taken
W_RQ = 9  # units waiting to retreat (rule [8] chain retreats)
W_ATT = 10  # the attackers of the attack being built
W_DEF = 11  # the defending hexes of the attack being built
W_SETUP = 12  # game.setup: the set-up hexes (rule [3]) of the units being placed, as a list
W_TMP = 13
W_MLIST = 14  # the enemy hexes that must still be attacked (rule [8]), as a list
W_STACK = 15  # per hex, bit c: a friendly unit of stacking class c stands there (board.fits);
#               zero between uses (board.mark_stacks / clear_stacks)
W_KEY = 16  # what W_OCC and W_ZOC were computed from (board.refresh): the units' hexes
#             (0..NU-1), both Capitals' captured flags (K_CAP + side), the ZOC option (K_OPT),
#             1 once computed (K_VALID)
W_SKEY = 17  # + side: the W_KEY that side's W_SUP was computed at (board.supply_map)
W_ADJ = 19  # per hex, combat.mandatory_map's bits: an adjacent friend outside its Capital's
#             hex (1), such a friend unused (2); zero between uses
W_SEEN = 20  # board.traces_supply: 1 on the hexes its search has seen; zero between uses
W_VLIST = 21  # board.traces_supply: those hexes, as a list
W_STK = 22  # board.traces_supply: its stack of hexes to search from
NWK = 23
K_CAP = NU
K_OPT = NU + 2
K_VALID = NU + 3

TRACE_COLS = 6  # kind, turn, player, a, b, c

Ctx = namedtuple(
    "Ctx",
    "units hexes nbr dist opt pol params rngs wk tr trn srch",
)
# the search player's plan rows (``srch``: ndarray(int32, (2, SR_N)), one per side; search.py)
SR_MODE = 0  # SR_OFF, SR_RECORD (note each decision taken), SR_REPLAY (play the noted ones)
SR_CUR = 1  # the replay's next decision
SR_LEN = 2  # decisions noted
SR_NOISE = 3  # record mode: noise added to the scripted scores, in hundredths
SR_PLAN = 4  # (options, index taken) per decision
SR_MAXD = 64
# an attack chosen by the combat search (mode SR_ATTACK): its first attacker (-1: end the
# combat phase), its defending hexes (the attacker's direction mask) and the other units
# joining (bit ``v % MAXU``), in place of the plan
SR_A_UNIT, SR_A_MASK, SR_A_JOIN = SR_PLAN, SR_PLAN + 1, SR_PLAN + 2
SR_DICE = SR_PLAN + 2 * SR_MAXD  # > 0: a search rollout's next attack rolls this difference
#                                  (d6 - d6 + 6), not the dice (combat.py; search.py only)
SR_N = SR_DICE + 1
SR_OFF, SR_RECORD, SR_REPLAY, SR_ATTACK = 0, 1, 2, 3


def new_context(packed, opt, pol, params, trace_rows=0):
    """A context for one game from a packed scenario (``scenario.pack``); ``rngs`` zeroed
    (``seed_game`` fills them)."""
    n = packed.neighbours.shape[0]
    return Ctx(
        packed.units,
        packed.hexes,
        packed.neighbours,
        packed.distance,
        np.asarray(opt, dtype=np.int32),
        np.asarray(pol, dtype=np.int32),
        np.asarray(params, dtype=np.float64),
        np.zeros((3, 4), dtype=np.uint64),
        np.zeros((NWK, max(n, 64, NU)), dtype=np.int32),
        np.zeros((trace_rows, TRACE_COLS), dtype=np.int32),
        np.zeros(1, dtype=np.int32),
        np.zeros((2, SR_N), dtype=np.int32),
    )


def default_options(
    turns=10,
    first=-1,
    quality=(0, 0),
    step_losses=0,
    step_repl=0,
    check=0,
    captured_zoc=0,
    weak=(0, 0),
    retreat_apart=0,
):
    o = np.zeros(NOPT, dtype=np.int32)
    o[O_CAPTURED_ZOC] = captured_zoc
    o[O_CHECK] = check
    o[O_TURNS] = turns
    o[O_FIRST] = first
    o[O_QUALITY] = quality[0]
    o[O_QUALITY + 1] = quality[1]
    o[O_WEAK] = weak[0]
    o[O_WEAK + 1] = weak[1]
    o[O_STEP_LOSSES] = step_losses
    o[O_STEP_REPL] = step_repl
    o[O_RETREAT_APART] = retreat_apart
    return o


@kernel
def clear_state(st, units):
    """An empty game: every unit of the scenario unplaced, on its front side."""
    st[:] = 0
    st[WINNER] = -1
    for u in range(NU):
        st[POS + u] = UNPLACED if units[u, 0] >= 0 else ABSENT


@kernel(inline="always")
def side_of(u):
    return u // MAXU


@kernel(inline="always")
def capital_of(side):
    return side * MAXU


@kernel(inline="always")
def tracing(g):
    """True while the game's trace has room: a traced game, not a batch game (no rows) nor
    a search rollout (its one row taken)."""
    return g.trn[0] < g.tr.shape[0]


@kernel(inline="always")
def log(g, st, kind, a, b, c):
    """One event into the trace (ignored when the trace is full or has no rows)."""
    n = g.trn[0]
    if n < g.tr.shape[0]:
        g.tr[n, 0] = kind
        g.tr[n, 1] = st[TURN]
        g.tr[n, 2] = st[PLAYER]
        g.tr[n, 3] = a
        g.tr[n, 4] = b
        g.tr[n, 5] = c
        g.trn[0] = n + 1


# event kinds (trace column 0)
EV_PLACE, EV_MOVE, EV_REPLACE, EV_ATTACK, EV_RESULT, EV_RETREAT = 1, 2, 3, 4, 5, 6
EV_ELIM, EV_ADVANCE, EV_WITHDRAW, EV_CAPTURE, EV_RECAPTURE, EV_STACK = 7, 8, 9, 10, 11, 12
EV_TURN, EV_END, EV_FLIP, EV_ATTACKER, EV_DEFENDER = 13, 14, 15, 16, 17
# Issue 30, what an audit needs beside (none draws a random number or changes the state):
EV_DICE = 18  # a=the attacker's d6 b=the defender's d6 (rule [8]), just before EV_RESULT
EV_PATH = 19  # a=unit b=a hex its move passes through c=its place on the way (1, 2, ...),
#               one row each, just before the EV_MOVE (rules [6], [7]; logged only while
#               ``tracing``: the route is found again for the trace)
EV_SUPPLY = 20  # a=unit involved in the combat b=1 supplied, 0 not (rule [9], at the combat)
#                 c=the strength it counts with, just before EV_RESULT
EV_PHASE = 21  # a=PHASE_* b=0 begins, 1 ends; player: the phasing side
EV_DECLINE = 22  # a=the decision (players.D_*) b=the options not taken c=the unit (or -1):
#                  no replacement (D_REPLACE), the cavalry stays (D_WITHDRAW), no advance
#                  (D_ADVANCE), a unit does not join (D_JOIN), no further attack (D_ATTACKER)
PHASE_MOVEMENT, PHASE_COMBAT = 1, 2
EVENT_NAMES = {
    EV_PLACE: "place", EV_MOVE: "move", EV_REPLACE: "replace", EV_ATTACK: "attack",
    EV_RESULT: "result", EV_RETREAT: "retreat", EV_ELIM: "eliminated", EV_ADVANCE: "advance",
    EV_WITHDRAW: "withdraw", EV_CAPTURE: "capture", EV_RECAPTURE: "recapture",
    EV_STACK: "stacking removal", EV_TURN: "turn", EV_END: "end", EV_FLIP: "flip",
    EV_ATTACKER: "attacker", EV_DEFENDER: "defender hex", EV_DICE: "dice", EV_PATH: "path",
    EV_SUPPLY: "supply", EV_PHASE: "phase", EV_DECLINE: "decline",
}  # fmt: skip
