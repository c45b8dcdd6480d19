"""The turn loop of a game of Manoeuvre as numba kernels: set-up (rule 3), the five phases
of every player turn (rule 4), the attrition check and Nightfall (rule 2).

The rules enumerate the legal options at each decision (``decisions.py``), the seat's policy
chooses, and the rules apply the choice. The phases live beside this module: ``setup.py``,
``movement.py``, ``combat_phase.py`` and ``combat_steps.py``, ``restoration.py``, with every
decision passing through ``checks.py`` (``decide``) and the rule options in ``options.py``.

The kernels take the state ``st`` (ndarray(int32, (STATE_SIZE,)), state.py) first and the
game context ``g`` (``game.Context``, its fields documented in ``game.py``); ``opt``
(ndarray(int32, (N_OPTIONS,))) holds the rule options (OPT_*, options.py). The players are
reached only through the pointer the context carries (``g.player``): nothing here imports
them, and ``game.py``, which builds the context, is where they are linked in.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import roll_die
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.checks import check_invariants, decide
from manoeuvre_sim.manoeuvre.engine.combat_phase import combat_phase
from manoeuvre_sim.manoeuvre.engine.control import control_score
from manoeuvre_sim.manoeuvre.engine.movement import movement_phase
from manoeuvre_sim.manoeuvre.engine.options import OPT_CHECK, OPT_MAX_TURNS, OPT_TOURNAMENT_HAND
from manoeuvre_sim.manoeuvre.engine.restoration import restoration_phase
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_DISCARD,
    EV_FIRST,
    EV_PHASE,
    EV_ROLL,
    EV_SPY,
    EV_TURN,
    PHASE_COMBAT,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MOVEMENT,
    PHASE_RESTORATION,
    ROLL_FIRST,
    discard,
    draw_to_five,
    find_hq,
    hand_remove,
    log,
    owner,
    play_and_discard,
)
from manoeuvre_sim.manoeuvre.engine.setup import deal, place_units, set_up_battlefield


@kernel
def check_attrition(st, p):
    """Rule 2.1, checked when a combat ends: 5 eliminated units lose at once; if the active
    player's own 5th loss came in the same battle (a Committed Attack), the opponent wins
    (the pyrrhic-victory rule)."""
    if st[S.ELIM + p] >= 5:
        st[S.OVER] = 1
        st[S.WINNER] = 1 - p
        st[S.VICTORY] = S.VICTORY_ATTRITION
        return True
    if st[S.ELIM + 1 - p] >= 5:
        st[S.OVER] = 1
        st[S.WINNER] = p
        st[S.VICTORY] = S.VICTORY_ATTRITION
        return True
    return False


# ------------------------------------------------------------------------------------------
# discard, draw, Scout/Spy (rule 4, rule 9.2 Scout/Spy)
# ------------------------------------------------------------------------------------------
@kernel(inline="always")  # one call site: no compile of its own
def discard_phase(st, g, p):
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    h = st[S.HAND_N + p]
    n = 1 << h
    for m in range(n):
        opts[m, 0] = m
        opts[m, 1] = 0
        opts[m, 2] = 0
        opts[m, 3] = 0
    k = decide(st, g, p, D.D_DISCARD, n)
    mask = opts[k, 0]
    for s in range(h - 1, -1, -1):
        if mask & (1 << s):
            c = hand_remove(st, p, s)
            discard(st, p, c)
            log(tr, trn, EV_DISCARD, p, c, 0, 0, 0)


@kernel(inline="always")  # one call site: no compile of its own
def spy_step(st, g, p):
    """Scout/Spy: the active player looks at the opponent's hand, then draws back to 5 (the
    card may be played in the middle of the Draw Phase)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    s = find_hq(st, cards, p, S.HQ_SPY)
    if s < 0 or st[S.REVEALED + p] == 1:
        return
    opts[0, 0] = -1
    opts[1, 0] = s
    opts[:2, 1] = 0
    opts[:2, 2:] = 0
    k = decide(st, g, p, D.D_SPY, 2)
    if opts[k, 0] < 0:
        return
    c = play_and_discard(st, p, s)
    st[S.REVEALED + p] = 1
    log(tr, trn, EV_SPY, p, c, 0, 0, 0)
    draw_to_five(st, p, rng, tr, trn)


# ------------------------------------------------------------------------------------------
# the end (rule 2)
# ------------------------------------------------------------------------------------------
@kernel
def score_nightfall(st, units, uowner, rank, tr, trn):
    """Rule 2.2 Nightfall: more controlled squares of the enemy half; then more enemy units
    eliminated; then fewer own reduced units; then the nation listed first. Identical ranks
    (an army against a copy of itself) leave the game drawn (WINNER = -1)."""
    occ = st[S.OCC : S.OCC + 64]
    vp0 = control_score(occ, uowner, 0)
    vp1 = control_score(occ, uowner, 1)
    st[S.VP] = vp0
    st[S.VP + 1] = vp1
    st[S.OVER] = 1
    st[S.VICTORY] = S.VICTORY_NIGHTFALL
    red = stack_empty(2, np.int64)
    red[:] = 0
    for u in range(S.NUNITS):
        if st[S.U_STEP + u] == 1:
            red[owner(u)] += 1
    if vp0 != vp1:
        st[S.WINNER] = 0 if vp0 > vp1 else 1
        st[S.TIEBREAK] = 0
    elif st[S.ELIM + 1] != st[S.ELIM]:
        st[S.WINNER] = 0 if st[S.ELIM + 1] > st[S.ELIM] else 1
        st[S.TIEBREAK] = 1
    elif red[0] != red[1]:
        st[S.WINNER] = 0 if red[0] < red[1] else 1
        st[S.TIEBREAK] = 2
    elif rank[0] != rank[1]:
        st[S.WINNER] = 0 if rank[0] < rank[1] else 1
        st[S.TIEBREAK] = 3
    else:
        st[S.WINNER] = -1
        st[S.TIEBREAK] = 4


# The parts of a player turn that a search can stop before (``engine/search.py``): each
# begins with a decision of the active player (the discard, the first move, the combat), so
# a copy of the state taken there continues the game exactly. Inside the combat, an Assault
# or Ambush runs in stages (``cb[CB_STAGE]``, combat_phase.py): PH_COMBAT with a combat
# under way plays it on from its stage.
PH_DISCARD, PH_MOVE, PH_COMBAT, PH_END = 0, 1, 2, 3


@kernel
def turn_phases(st, g, opt, p, ph_from, ph_to):
    """Rule 4: p's player turn from part ``ph_from`` up to, not including, ``ph_to``
    (``PH_*``): discard, draw and Scout/Spy; movement; combat and restoration. Returns True
    if the game ended."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    check = opt[OPT_CHECK] == 1
    st[S.ACTIVE] = p
    if ph_from <= PH_DISCARD < ph_to:
        log(tr, trn, EV_PHASE, p, PHASE_DISCARD, 0, 0, 0)
        discard_phase(st, g, p)
        log(tr, trn, EV_PHASE, p, PHASE_DISCARD, 1, 0, 0)
        log(tr, trn, EV_PHASE, p, PHASE_DRAW, 0, 0, 0)
        draw_to_five(st, p, rng, tr, trn)
        spy_step(st, g, p)
        log(tr, trn, EV_PHASE, p, PHASE_DRAW, 1, 0, 0)
        if check:
            check_invariants(st, dsize, tprops)
            if st[S.HAND_N + p] > 5:
                raise AssertionError("hand above 5 after drawing")
    if ph_from <= PH_MOVE < ph_to:
        log(tr, trn, EV_PHASE, p, PHASE_MOVEMENT, 0, 0, 0)
        movement_phase(st, g, opt, p)
        log(tr, trn, EV_PHASE, p, PHASE_MOVEMENT, 1, 0, 0)
        if check:
            check_invariants(st, dsize, tprops)
    if ph_from <= PH_COMBAT < ph_to:
        log(tr, trn, EV_PHASE, p, PHASE_COMBAT, 0, 0, 0)
        combat_phase(st, g, p)  # (plays on a combat under way: a rollout's, search.py)
        log(tr, trn, EV_PHASE, p, PHASE_COMBAT, 1, 0, 0)
        return after_combat(st, g, opt, p)
    return False


@kernel
def after_combat(st, g, opt, p):
    """The end of p's player turn after its Combat Phase: the attrition check (rule 2.1),
    then the Restoration Phase (rule 7). Returns True if the game ended."""
    check = opt[OPT_CHECK] == 1
    if check:
        check_invariants(st, g.dsize, g.tprops)
    if check_attrition(st, p):
        return True
    log(g.tr, g.trn, EV_PHASE, p, PHASE_RESTORATION, 0, 0, 0)
    restoration_phase(st, g, p)
    log(g.tr, g.trn, EV_PHASE, p, PHASE_RESTORATION, 1, 0, 0)
    if check:
        check_invariants(st, g.dsize, g.tprops)
    st[S.REVEALED + p] = 0
    return False


@kernel(inline="always")  # one call site or two: no compile of its own
def player_turn(st, g, opt, p):
    """Rule 4: the five phases of p's player turn. Returns True if the game ended."""
    return turn_phases(st, g, opt, p, PH_DISCARD, PH_END)


@kernel
def end_game_turn(st, g, opt, rank, turn):
    """After both player turns of game turn ``turn``. Rule 2.3: the day ends at the end of
    the game turn in which both players have drawn the last card of their first deck (or at
    the safety turn limit). Returns True if the game ended."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player = g
    if st[S.FIRST_DECK_DONE] == 1 and st[S.FIRST_DECK_DONE + 1] == 1:
        score_nightfall(st, units, uowner, rank, tr, trn)
    elif turn >= opt[OPT_MAX_TURNS]:
        st[S.TURN_LIMIT_HIT] = 1
        score_nightfall(st, units, uowner, rank, tr, trn)
    return st[S.OVER] == 1


@kernel(inline="always")  # one call site or two: no compile of its own
def run_turns(st, g, opt, rank, turn):
    """Play game turns from ``turn`` (both player turns, first player first) to the end."""
    first = st[S.FIRST]
    tr = g.tr
    trn = g.trn
    while st[S.OVER] == 0:
        st[S.TURN] = turn
        log(tr, trn, EV_TURN, first, turn, 0, 0, 0)
        if player_turn(st, g, opt, first) or player_turn(st, g, opt, 1 - first):
            break  # attrition victory: the game ends at once (rule 2.1)
        if end_game_turn(st, g, opt, rank, turn):
            break
        turn += 1


@kernel
def continue_game(st, g, opt, rank, p, ph):
    """Play on to the end from part ``ph`` of p's player turn in the current game turn (a
    search's rollout, ``search.py``)."""
    turn = st[S.TURN]
    if turn_phases(st, g, opt, p, ph, PH_END):
        return
    if p == st[S.FIRST] and player_turn(st, g, opt, 1 - p):
        return
    if end_game_turn(st, g, opt, rank, turn):
        return
    run_turns(st, g, opt, rank, turn + 1)


@kernel
def continue_turns(st, g, opt, rank, p, ph, h):
    """Play on from part ``ph`` of p's player turn to its end and then ``h - 1`` more player
    turns, or to the end of the game if it comes first (a search's rollout cut short by the
    value, ``search.py``). Returns the seat whose player turn comes next, -1 if the game
    ended. The turn order and the end of the day are ``run_turns``'s (rule 2.3)."""
    turn = st[S.TURN]
    first = st[S.FIRST]
    if turn_phases(st, g, opt, p, ph, PH_END):
        return -1
    q = p
    left = h - 1
    while True:
        if q == first:
            q = 1 - first
        else:
            if end_game_turn(st, g, opt, rank, turn):
                return -1
            turn += 1
            st[S.TURN] = turn
            q = first
        if left <= 0:
            return q
        if player_turn(st, g, opt, q):
            return -1
        left -= 1


@kernel(inline="always")  # one call site or two: no compile of its own
def set_up_game(st, g, tables, opt):
    """Rule 3: the first player, the map, the deal and both armies' placement."""
    rng = g.rng
    tr = g.tr
    trn = g.trn
    # rule 3: the first player by d10, ties rolled again
    while True:
        r0 = roll_die(rng, 10)
        r1 = roll_die(rng, 10)
        log(tr, trn, EV_ROLL, -1, ROLL_FIRST, r0, r1, 10)
        if r0 != r1:
            break
    first = 0 if r0 > r1 else 1
    st[S.FIRST] = first
    log(tr, trn, EV_FIRST, first, 0, 0, 0, 0)
    set_up_battlefield(st, g, opt, first, tables.sections, tables.section_numbers)  # rule 3
    for p in range(2):
        deal(st, g, p, opt[OPT_TOURNAMENT_HAND])
    place_units(st, g, first)
    place_units(st, g, 1 - first)
    if opt[OPT_CHECK]:
        check_invariants(st, g.dsize, g.tprops)
