"""A whole game of Maneuver: set-up (rule [3]), the turn (rule [4]), movement (rules [6],
[7], [9]), replacements (rules [10], [13] 4), combat (``combat.py``) and victory (rule [12]).
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, lowest_bit, stack_empty
from manoeuvre_sim.core.rng import uniform_below
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import checks as K
from manoeuvre_sim.hexgame import combat as C
from manoeuvre_sim.hexgame import players as PL
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.scenario import H_CAPITAL_OK, H_SETUP, H_SIDE, MAXU

REACH_WORDS = 32  # movement_phase's bit set of the hexes reached: maps of up to 1,024 hexes


@kernel
def place(st, g, u):
    """Rule [3]: ``u``'s player sets it up on its side, not beside the border; the Capital
    also off the edge hexes and two hexes from the corners (H3); within stacking (H4)."""
    s = u // MAXU
    nl = _setup_hexes(g, s, u % MAXU == 0)
    B.mark_stacks(st, g, s, 0)  # u is unplaced: never marked
    _place_listed(st, g, u, nl)
    B.clear_stacks(st, g, s)


@kernel
def _setup_hexes(g, s, capital):
    """``W_SETUP``: the hexes of side ``s`` where rule [3] lets it set up a unit (its
    Capital: ``capital``), in hex order; returns how many."""
    col = H_CAPITAL_OK if capital else H_SETUP
    n = 0
    for h in range(g.nbr.shape[0]):
        if g.hexes[h, H_SIDE] == s and g.hexes[h, col] == 1:
            g.wk[S.W_SETUP, n] = h
            n += 1
    return n


@kernel
def _place_listed(st, g, u, nl):
    """``place`` with u's set-up hexes listed (``W_SETUP[:nl]``) and ``W_STACK`` marking its
    side's units set up so far; marks ``u`` there once placed."""
    s = u // MAXU
    opts = g.wk[S.W_OPTS]
    n = 0
    for i in range(nl):
        h = g.wk[S.W_SETUP, i]
        if B.fits_marked(g, u, h):
            opts[n] = h
            n += 1
    if n == 0:
        raise RuntimeError("no set-up hex left (the scenario's validation should prevent it)")
    h = opts[PL.choose(st, g, s, PL.D_SETUP, n, u, 0)]
    st[S.POS + u] = h
    c = B.stack_class(g, u)
    if c < 2:
        g.wk[S.W_STACK, h] |= 1 << c
    if u % MAXU != 0:
        # rule [13] 2, army quality: the side's first K combat units set up reduced
        mask = g.opt[S.O_WEAK + s]  # or the units chosen (a bit mask; 0: the first K)
        if mask != 0:
            st[S.STEP + u] = (mask >> (u % MAXU - 1)) & 1
        else:
            st[S.STEP + u] = 1 if u % MAXU <= g.opt[S.O_QUALITY + s] else 0
    S.log(g, st, S.EV_PLACE, u, h, st[S.STEP + u])  # rule [13] 2: 1 reduced


@kernel
def setup(st, g, first):
    """Rule [3]'s order: the first player's Capital, the second player's army, then the
    first player's remaining units. (Each side's set-up hexes are listed once per kind of
    unit, and ``W_STACK`` marks the units set up as they are: the two sides' set-up hexes
    never meet, rule [3].)"""
    second = 1 - first
    st[S.FIRST] = first
    st[S.PLAYER] = first
    _place_listed(st, g, first * MAXU, _setup_hexes(g, first, True))
    st[S.CAP_HOME + first] = st[S.POS + first * MAXU]
    st[S.PLAYER] = second
    listed = -1  # which list W_SETUP holds: 0 the Capital's hexes, 1 the other units'
    nl = 0
    for u in range(second * MAXU, second * MAXU + MAXU):
        if st[S.POS + u] == S.UNPLACED:
            kind = 0 if u % MAXU == 0 else 1
            if kind != listed:
                nl = _setup_hexes(g, second, kind == 0)
                listed = kind
            _place_listed(st, g, u, nl)
    st[S.CAP_HOME + second] = st[S.POS + second * MAXU]
    st[S.PLAYER] = first
    nl = _setup_hexes(g, first, False)
    for u in range(first * MAXU + 1, first * MAXU + MAXU):
        if st[S.POS + u] == S.UNPLACED:
            _place_listed(st, g, u, nl)
    B.clear_stacks(st, g, first)
    B.clear_stacks(st, g, second)


@kernel
def replacement(st, g, side):
    """Rule [10]: from game turn 2, one unit of the dead pile at the Capital (full
    strength; reduced under army quality, rule [13] 2), none while the Capital is
    besieged or captured. Rule [13] 4: one step instead (a dead unit reduced at the
    Capital, or a supplied reduced unit on the map flipped). The player may decline."""
    if st[S.TURN] < 2 or st[S.CAP_CAPTURED + side] == 1:
        return
    B.refresh(st, g)
    if B.besieged(st, g, side):
        return
    steps = g.opt[S.O_STEP_REPL] == 1
    if steps:
        B.supply_map(st, g, side)
    opts = g.wk[S.W_OPTS]
    n = 0
    opts[n] = -1
    n += 1
    for u in range(side * MAXU + 1, side * MAXU + MAXU):
        p = st[S.POS + u]
        if p == S.DEAD:
            opts[n] = u
            n += 1
        elif steps and p >= 0 and st[S.STEP + u] == 1 and B.supplied(st, g, u):
            opts[n] = u + S.NU
            n += 1
    if n == 1:
        return
    o = opts[PL.choose(st, g, side, PL.D_REPLACE, n, 0, 0)]
    if o < 0:
        S.log(g, st, S.EV_DECLINE, PL.D_REPLACE, n - 1, -1)
        return
    st[S.REPL + side] += 1
    if o >= S.NU:  # rule [13] 4: a step, flipping a supplied reduced unit
        st[S.STEP + o - S.NU] = 0
        S.log(g, st, S.EV_FLIP, o - S.NU, st[S.POS + o - S.NU], 0)
        return
    weak = steps or g.opt[S.O_QUALITY] + g.opt[S.O_QUALITY + 1] > 0
    weak = weak or g.opt[S.O_WEAK] + g.opt[S.O_WEAK + 1] > 0
    st[S.STEP + o] = 1 if weak else 0
    st[S.FLAGS + o] = 0
    st[S.REPL_IN + side] += 1
    st[S.POS + o] = B.capital_hex(st, side)
    S.log(g, st, S.EV_REPLACE, o, st[S.POS + o], st[S.STEP + o])


@kernel
def movement_phase(st, g, side):
    """Rules [6], [7], [9]: replacements, the supply check, then each unit's move (the
    player choosing its end hex among those it can reach), then stacking."""
    replacement(st, g, side)
    B.refresh(st, g)
    B.supply_map(st, g, side)
    for u in range(side * MAXU, side * MAXU + MAXU):
        f = st[S.FLAGS + u] & ~(S.F_UNSUPPLIED | S.F_MOVED)
        if st[S.POS + u] >= 0 and not B.supplied(st, g, u):
            f |= S.F_UNSUPPLIED
        st[S.FLAGS + u] = f
    opts = g.wk[S.W_OPTS]
    n_hex = g.nbr.shape[0]
    q = g.wk[S.W_QUEUE]
    # the hexes a unit reaches as a bit set, to list them in hex order without a pass over
    # the map (32 hexes a word; larger maps than the scenario's 30 x 30 pass over it)
    bits = stack_empty(REACH_WORDS, np.int64)
    for w in range(REACH_WORDS):
        bits[w] = 0
    # W_STACK marks the units moved so far (board.mark_stacks with F_MOVED), one by one
    for u in range(side * MAXU + 1, side * MAXU + MAXU):
        h0 = st[S.POS + u]
        if h0 < 0:
            continue
        m = B.reach(st, g, u, B.movement_allowance(st, g, u))
        n = 0  # the options: the hexes reached, in hex order; u is unmoved: never marked
        if n_hex <= 32 * REACH_WORDS:
            for i in range(m):
                k = np.int64(q[i])  # int64 shifts, also in plain Python (NumPy keeps int32)
                bits[k >> 5] |= np.int64(1) << (k & 31)
            for w in range((n_hex + 31) >> 5):
                x = bits[w]
                bits[w] = 0
                while x != 0:
                    h = (w << 5) + lowest_bit(x)
                    x &= x - 1
                    if B.fits_marked(g, u, h):
                        opts[n] = h
                        n += 1
        else:
            for h in range(n_hex):
                if g.wk[S.W_REACH, h] >= 0 and B.fits_marked(g, u, h):
                    opts[n] = h
                    n += 1
        if n == 0:  # only over-stacked hexes: stay (stacking removes the excess, rule [6])
            opts[n] = h0
            n += 1
        h = opts[PL.choose(st, g, side, PL.D_MOVE, n, u, 0)]
        if h != h0:
            if S.tracing(g):
                log_path(st, g, u, h)
            S.log(g, st, S.EV_MOVE, u, h0, h)
            B.enter(st, g, u, h)
        st[S.FLAGS + u] |= S.F_MOVED
        c = B.stack_class(g, u)
        if c < 2:
            g.wk[S.W_STACK, h] |= 1 << c
    B.clear_stacks(st, g, side)
    C.enforce_stacking(st, g, side)


@kernel
def log_path(st, g, u, h):
    """EV_PATH: the hexes u passes through on its way to ``h`` (rules [6], [7]), for the
    trace only: the hexes it can reach found again (as the move's options were) and a
    shortest route walked back from ``h``, each hex before it one step nearer the start and
    outside the enemy's zones of control (entering one ends a move)."""
    B.reach(st, g, u, B.movement_allowance(st, g, u))
    e = 1 - u // MAXU
    way = stack_empty(64, np.int64)
    cur = h
    for i in range(g.wk[S.W_REACH, h] - 1, 0, -1):
        nxt = -1
        for d in range(6):
            k = g.nbr[cur, d]
            if k >= 0 and g.wk[S.W_REACH, k] == i and g.wk[S.W_ZOC + e, k] == 0:
                nxt = k
                break
        if nxt < 0:
            raise RuntimeError("a move's route cannot be found again")
        way[i] = nxt
        cur = nxt
    for i in range(1, g.wk[S.W_REACH, h]):
        S.log(g, st, S.EV_PATH, u, way[i], i)


@kernel
def victory_check(st, g, ended):
    """Rule [12], at the end of ``ended``'s player turn (an enemy player turn for the
    other side): the other side wins if ``ended``'s Capital is captured and it has at
    least two more combat units on the map. Returns True when the game is over."""
    w = 1 - ended
    if st[S.CAP_CAPTURED + ended] == 0:
        return False
    if B.combat_units_on_map(st, w) >= B.combat_units_on_map(st, ended) + 2:
        st[S.WINNER] = w
        st[S.VICTORY] = S.VIC_CAPITAL
        return True
    st[S.NO_MARGIN + w] += 1
    return False


PH_MOVE, PH_COMBAT, PH_ATTACKS = 0, 1, 2
ATTACK_PAUSE = 1 << 16  # added to play_from's pause code: paused before an attack


@kernel
def play_from(st, g, turn, k, phase):
    """Play on from phase ``phase`` (PH_MOVE, PH_COMBAT; PH_ATTACKS: on in the combat phase
    between two attacks) of the ``k``-th player turn (0, 1) of game turn ``turn`` to the
    end of the game; returns -1 then. Pauses before the movement phase of a search player
    that has no plan to play (``search.py`` draws one up and calls again) and returns
    ``2 * turn + k`` then; before an attack of a search player searching its combat, with
    none chosen, ``2 * turn + k + ATTACK_PAUSE``."""
    first = st[S.FIRST]
    for t in range(turn, g.opt[S.O_TURNS] + 1):
        if st[S.TURN] != t:
            st[S.TURN] = t
            S.log(g, st, S.EV_TURN, t, 0, 0)
        for kk in range(k if t == turn else 0, 2):
            side = first if kk == 0 else 1 - first
            st[S.PLAYER] = side
            if t != turn or kk != k or phase == PH_MOVE:
                if g.pol[side] >= PL.P_SEARCH and g.srch[side, S.SR_MODE] != S.SR_REPLAY:
                    return 2 * t + kk
                S.log(g, st, S.EV_PHASE, S.PHASE_MOVEMENT, 0, 0)
                movement_phase(st, g, side)
                S.log(g, st, S.EV_PHASE, S.PHASE_MOVEMENT, 1, 0)
                g.srch[side, S.SR_MODE] = S.SR_OFF
                if g.opt[S.O_CHECK]:
                    st[S.VIOLATIONS] |= K.check_state(st, g, False)
            fresh = t != turn or kk != k or phase != PH_ATTACKS
            if fresh:
                S.log(g, st, S.EV_PHASE, S.PHASE_COMBAT, 0, 0)
            if C.combat_phase(st, g, side, fresh):
                return 2 * t + kk + ATTACK_PAUSE
            S.log(g, st, S.EV_PHASE, S.PHASE_COMBAT, 1, 0)
            if g.opt[S.O_CHECK]:
                st[S.VIOLATIONS] |= K.check_state(st, g, False)
            if victory_check(st, g, side):
                S.log(g, st, S.EV_END, st[S.WINNER], st[S.VICTORY], 0)
                if g.opt[S.O_CHECK]:
                    st[S.VIOLATIONS] |= K.check_state(st, g, True)
                return -1
    st[S.WINNER] = 2
    st[S.VICTORY] = S.VIC_DRAW
    S.log(g, st, S.EV_END, 2, S.VIC_DRAW, 0)
    if g.opt[S.O_CHECK]:
        st[S.VIOLATIONS] |= K.check_state(st, g, True)
    return -1


@kernel
def start_game(st, g):
    """Rule [3]: who moves first (H5: a fair draw from the dice unless set), the set-up."""
    first = g.opt[S.O_FIRST]
    if first < 0:
        first = uniform_below(g.rngs[0], 2)  # H5: the players "decide": a fair draw
    setup(st, g, first)


@kernel
def play_game(st, g):
    """One game from ``clear_state`` to its end; ``g.rngs`` seeded (``batch.seed_game``).
    A game with a search player is played by ``search.play_game``."""
    start_game(st, g)
    return play_from(st, g, 1, 0, PH_MOVE)
