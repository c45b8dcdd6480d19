"""One complete game of Manoeuvre as a numba kernel: set-up, the five phases of every
player turn, combat, restoration, and the end of the game (rules 2-9).

The rules enumerate the legal options at each decision (``decisions.py``), the seat's policy
chooses (``players.py``), and the rules apply the choice.

The kernels of a game share one context tuple ``g``, built once by ``play_game``:

    g = (units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn)

    units   ndarray(int32, (NUNITS, NUF))     unit table
    cards   ndarray(int32, (2, MAXC, NCF))    both card tables
    dsize   ndarray(int32, (2,))              deck sizes
    tprops  ndarray(int32, (n_codes, 7))      terrain properties (board.py)
    uowner  ndarray(int32, (NUNITS,))         owner of each unit id
    pol     ndarray(int32, (3,))              policy id per seat (players.py), then flags
    params  ndarray(float64, (2, NPARAM))     policy parameters per seat
    rng     ndarray(uint64, (4,))             the game's RNG state (rng.py)
    opts    ndarray(int32, (MAXOPT, 4))       scratch for decision options
    cb      ndarray(int32, (CB_SIZE,))        the current combat (below)
    tr      ndarray(int32, (n, 6))            trace rows (n = 0: no trace)
    trn     ndarray(int32, (1,))              trace rows used

and take the state ``st`` (ndarray(int32, (STATE_SIZE,)), state.py) first; ``opt``
(ndarray(int32, (N_OPTIONS,))) holds the rule options (OPT_*).
"""

from __future__ import annotations

import numba as nb
import numpy as np

# the one results table (rule 6.1 step 7) and the one test of each d6 roll (6.6, 7, 8)
from manoeuvre_sim.combat import assault_band, pursuit_hits, within
from manoeuvre_sim.engine import decisions as D
from manoeuvre_sim.engine import state as S
from manoeuvre_sim.engine.board import (
    TP_ENTER,
    TP_NO_ASSAULT,
    adjacent,
    control_score,
    forced_march_destinations,
    in_fire_range,
    move_destinations,
)
from manoeuvre_sim.engine.decisions import (  # the current combat's fields (cb)
    CB_A,
    CB_ATT,
    CB_ATT_P,
    CB_CA,
    CB_D,
    CB_DEF_U,
    CB_DLEADER,
    CB_INIT_CARD,
    CB_KIND,
    CB_LEADER,
    CB_LMODE,
    CB_NATT,
    CB_SAPPERS,
    CB_SIZE,
    CB_STEP5,
)
from manoeuvre_sim.engine.players import choose
from manoeuvre_sim.engine.rules import (
    EV_ADVANCE,
    EV_COMBAT,
    EV_DIG_IN,
    EV_DISCARD,
    EV_END,
    EV_FIRST,
    EV_MAP,
    EV_MOVE,
    EV_NEGATE,
    EV_NO_MOVE,
    EV_PLAY,
    EV_PURSUIT,
    EV_REDOUBT,
    EV_RESTORE,
    EV_RETREAT,
    EV_ROLL,
    EV_SETUP,
    EV_SPY,
    EV_TURN,
    EV_WITHDRAW,
    PURPOSE_ATTACK,
    PURPOSE_COMMITTED,
    PURPOSE_DEFENSE,
    PURPOSE_FORCED_MARCH,
    PURPOSE_GUERRILLA,
    PURPOSE_INITIATE,
    PURPOSE_LEADER_COMBAT,
    PURPOSE_LEADER_COMMAND,
    PURPOSE_REDOUBT,
    PURPOSE_RESTORE,
    PURPOSE_SAPPERS,
    PURPOSE_SKIRMISH,
    PURPOSE_SUPPLY_MOVE,
    PURPOSE_WITHDRAW,
    ROLL_ATTACK,
    ROLL_FIRE,
    ROLL_FIRST,
    ROLL_PURSUIT,
    ROLL_RALLY,
    ROLL_WITHDRAW,
    attack_base,
    attack_dice,
    can_retreat,
    card_unit,
    clear_table,
    defence_base,
    discard,
    draw_to_five,
    eliminate,
    fire_dice,
    hand_add,
    hand_card,
    hand_remove,
    hill_bonus,
    hit,
    is_hq,
    log,
    mark_drawn,
    move_unit,
    owner,
    play_and_discard,
    play_to_table,
    retreat_squares,
    shuffle,
    table_defence,
)
from manoeuvre_sim.rng import next_u64, roll_dice, roll_die, seed_state, uniform_below

# --- rule options: ndarray(int32, (N_OPTIONS,)) ---------------------------------------------
OPT_TOURNAMENT_HAND = 0  # rule 3: each player chooses its 5 starting cards
OPT_ADVANCE_TO_CONTACT = 1  # Distant Lands: 3, then 2, then 1 moves in the first game turns
OPT_DIGGING_IN = 2  # Distant Lands: skip the move, discard the whole hand
OPT_MAX_TURNS = 3  # safety limit on game turns (see docs/RULE_INTERPRETATIONS.md)
OPT_CHECK = 4  # 1: check invariants after every step and raise on a violation
N_OPTIONS = 5

FLAG_FAIR_CHECK = 1  # pol[2] bit: re-decide every decision on a fogged state (tests)
FOG_SEED = 0x9E3779B97F4A7C15  # master seed of fair_check's scrambling
FLAG_FOG_OWN_HAND = 2  # pol[2] bit: fog the deciding player's own hand too, which every real
# policy reads: the mutation test that shows fair_check can fail

MAX_ATT = 5


@nb.njit(cache=True)
def decide(st, g, seat, dk, n):
    """Ask seat's policy to choose among ``opts[:n]``; an illegal answer raises.

    With ``pol[2] & FLAG_FAIR_CHECK`` (tests), every decision is taken a second time on a
    copy of the state whose hidden cards are scrambled (``fair_check``)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    fair = pol.shape[0] > 2 and (pol[2] & FLAG_FAIR_CHECK) != 0
    rng0 = rng.copy() if fair else rng
    k = choose(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n)
    if k < 0 or k >= n:
        raise ValueError("policy chose an option that is not legal")
    if fair:
        fair_check(st, g, seat, dk, n, k, rng0)
    return k


@nb.njit(cache=True)
def fair_check(st, g, seat, dk, n, k, rng0):
    """Raise unless seat's policy takes the same decision when everything it may not see is
    different: both draw piles (order and contents), both discard piles, the drawn/played
    records, and the opponent's hand unless a Scout/Spy revealed it (``REVEALED``). The fog
    uses its own generator, not the game's."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    fog = st.copy()
    fr = np.zeros(4, dtype=np.uint64)  # the fog's own stream (rng.py), never the game's
    seed_state(np.uint64(FOG_SEED), np.uint64(st[S.TURN] * 1000003 + dk * 7919 + n), fr)
    for p in range(2):
        # the draw piles; the discard piles, which may not be searched; the drawn/played
        # records, which are the analysis's, not the players'
        for i in range(st[S.DECK_N + p]):
            fog[S.DECK + p * S.MAXC + i] = uniform_below(fr, dsize[p])
        for i in range(st[S.DISC_N + p]):
            fog[S.DISC + p * S.MAXC + i] = uniform_below(fr, dsize[p])
        for i in range(4):
            fog[S.DRAWN + p * 4 + i] = np.int32(next_u64(fr) >> np.uint64(33))
            fog[S.PLAYED + p * 4 + i] = np.int32(next_u64(fr) >> np.uint64(33))
    q = 1 - seat
    if (pol[2] & FLAG_FOG_OWN_HAND) != 0:
        q = seat
    if st[S.REVEALED + seat] == 0 or q == seat:
        for i in range(st[S.HAND_N + q]):
            fog[S.HAND + q * S.HMAX + i] = uniform_below(fr, dsize[q])
    k2 = choose(fog, units, cards, tprops, uowner, pol, params, rng0, opts, cb, seat, dk, n)
    if k2 != k:
        raise AssertionError("fair play: a decision depends on cards the player may not see")


@nb.njit(cache=True)
def check_invariants(st, dsize, tprops):
    """Raise if the state breaks a rule invariant (used by tests and OPT_CHECK)."""
    for p in range(2):
        tot = (
            st[S.DECK_N + p]
            + st[S.HAND_N + p]
            + st[S.DISC_N + p]
            + st[S.TABLE_N + p]
            + st[S.OUT_N + p]
        )
        if tot != dsize[p]:
            raise AssertionError("card conservation broken")
        if st[S.HAND_N + p] > S.HMAX:
            raise AssertionError("hand overflow")
    alive = 0
    for u in range(S.NUNITS):
        sq = st[S.U_SQ + u]
        if st[S.U_STEP + u] > 0:
            if sq < 0 or st[S.OCC + sq] != u:
                raise AssertionError("unit and board disagree")
            if tprops[st[S.TERR + sq], TP_ENTER] == 0:
                raise AssertionError("unit on a lake")
            alive += 1
        elif sq != -1:
            raise AssertionError("eliminated unit on the board")
    on_board = 0
    for sq in range(64):
        u = st[S.OCC + sq]
        if u >= 0:
            on_board += 1
            if st[S.U_SQ + u] != sq:
                raise AssertionError("board and unit disagree")
        elif st[S.REDOUBT + sq] != 0:
            raise AssertionError("redoubt without a unit")
    if on_board != alive:
        raise AssertionError("unit count mismatch")


# ------------------------------------------------------------------------------------------
# set-up (rule 3)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def build_map(st, sections, section_numbers, rng, tr, trn):
    """Rule 3 / 1.1: four distinct sections from the pool, each in any of 4 rotations, in a
    2x2 pattern (random)."""
    ns = sections.shape[0]
    picked = np.empty(4, dtype=np.int64)
    for pos in range(4):
        while True:
            k = uniform_below(rng, ns)
            ok = True
            for j in range(pos):
                if picked[j] == k:
                    ok = False
            if ok:
                break
        picked[pos] = k
        rot = uniform_below(rng, 4)
        st[S.MAP + pos] = section_numbers[k]
        st[S.MAP + 4 + pos] = rot
        log(tr, trn, EV_MAP, -1, section_numbers[k], rot, pos, 0)
        r0 = (pos // 2) * 4
        c0 = (pos % 2) * 4
        for r in range(4):
            for c in range(4):
                # clockwise rotation by `rot` quarter turns: dest (r, c) <- source cell
                sr, sc = r, c
                for _ in range(rot):
                    sr, sc = 3 - sc, sr
                st[S.TERR + (r0 + r) * 8 + c0 + c] = sections[k, sr * 4 + sc]


@nb.njit(cache=True)
def deal(st, g, p, tournament):
    """Shuffle p's deck and draw 5 (or choose 5 in the tournament option, rule 3)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    n = dsize[p]
    for i in range(n):
        st[S.DECK + p * S.MAXC + i] = i
    st[S.DECK_N + p] = n
    if tournament:
        for _ in range(min(5, n)):
            m = st[S.DECK_N + p]
            for i in range(m):
                opts[i, 0] = i
                opts[i, 1] = st[S.DECK + p * S.MAXC + i]
                opts[i, 2] = 0
                opts[i, 3] = 0
            k = decide(st, g, p, D.D_PICK_START, m)
            pos = opts[k, 0]
            c = st[S.DECK + p * S.MAXC + pos]
            st[S.DECK + p * S.MAXC + pos] = st[S.DECK + p * S.MAXC + m - 1]
            st[S.DECK_N + p] = m - 1
            st[S.HAND + p * S.HMAX + st[S.HAND_N + p]] = c
            st[S.HAND_N + p] += 1
            mark_drawn(st, p, c, tr, trn)  # the chosen cards are drawn cards too
        shuffle(st, S.DECK + p * S.MAXC, st[S.DECK_N + p], rng)
    else:
        shuffle(st, S.DECK + p * S.MAXC, n, rng)
        draw_to_five(st, p, rng, tr, trn)


@nb.njit(cache=True)
def place_units(st, g, p):
    """Rule 3: p sets up its units in the 2 rows nearest its starting edge, one per square."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    rows0 = 6 if p == 0 else 0
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if units[u, S.UF_EXISTS] == 0:
            continue
        n = 0
        for r in range(rows0, rows0 + 2):
            for c in range(8):
                sq = r * 8 + c
                if st[S.OCC + sq] < 0 and tprops[st[S.TERR + sq], TP_ENTER] == 1:
                    opts[n, 0] = sq
                    opts[n, 1] = u
                    opts[n, 2] = 0
                    opts[n, 3] = 0
                    n += 1
        if n == 0:
            raise ValueError("no square left to set up a unit")
        k = decide(st, g, p, D.D_PLACE, n)
        sq = opts[k, 0]
        st[S.OCC + sq] = u
        st[S.U_SQ + u] = sq
        st[S.U_STEP + u] = 2
        log(tr, trn, EV_SETUP, p, u, sq, 0, 0)


# ------------------------------------------------------------------------------------------
# helpers shared by the phases
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def find_hq(st, cards, p, hq):
    """Hand slot of the first HQ card of type ``hq`` in p's hand, -1 if none."""
    for s in range(st[S.HAND_N + p]):
        if is_hq(cards, p, hand_card(st, p, s), hq):
            return s
    return -1


@nb.njit(cache=True)
def guerrilla(st, g, p, negated_card):
    """Rule 9.2 Guerrilla: the opponent of the active player p may cancel the card just
    played; both cards are discarded. Returns True if negated."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    q = 1 - p
    s = find_hq(st, cards, q, S.HQ_GUERRILLA)
    if s < 0:
        return False
    opts[0, 0] = -1
    opts[1, 0] = s
    opts[:2, 1] = negated_card
    opts[:2, 2:] = 0
    k = decide(st, g, q, D.D_GUERRILLA, 2)
    if opts[k, 0] < 0:
        return False
    g = play_and_discard(st, q, s)
    log(tr, trn, EV_PLAY, q, g, PURPOSE_GUERRILLA, negated_card, 0)
    log(tr, trn, EV_NEGATE, q, negated_card, g, 0, 0)
    return True


@nb.njit(cache=True)
def retreat(st, g, u):
    """Rule 6.5 Retreat with its priority; the owner picks among equal choices. Returns True
    if the unit retreated, False if it could not and was eliminated."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    p = owner(u)
    buf = np.empty(4, dtype=np.int32)
    n = retreat_squares(st, tprops, u, buf)
    fr = st[S.U_SQ + u]
    if n == 0:
        eliminate(st, u, tr, trn)
        log(tr, trn, EV_RETREAT, p, u, fr, -1, 0)
        return False
    k = 0
    if n > 1:
        opts[:n, 0] = buf[:n]
        opts[:n, 1] = u
        opts[:n, 2:] = 0
        k = decide(st, g, p, D.D_RETREAT_SQ, n)
        k = opts[k, 0]
    else:
        k = buf[0]
    move_unit(st, u, k)
    log(tr, trn, EV_RETREAT, p, u, fr, k, 0)
    return True


@nb.njit(cache=True)
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
@nb.njit(cache=True)
def discard_phase(st, g, p):
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
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


@nb.njit(cache=True)
def spy_step(st, g, p):
    """Scout/Spy: the active player looks at the opponent's hand, then draws back to 5 (the
    card may be played in the middle of the Draw Phase)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
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
# movement (rule 5, Supply, Forced March, Guerrilla; Distant Lands options)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def move_options(st, units, tprops, p, moved, opts, start):
    """Append (unit, to) options for p's units not in ``moved``; returns the new count."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    buf = np.empty(16, dtype=np.int32)
    n = start
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0 or moved[i]:
            continue
        m = move_destinations(occ, terr, tprops, st[S.U_SQ + u], units[u, S.UF_CAV], buf)
        for j in range(m):
            if n >= D.MAXOPT:
                break
            opts[n, 0] = u
            opts[n, 1] = buf[j]
            opts[n, 2] = 0
            opts[n, 3] = 0
            n += 1
    return n


@nb.njit(cache=True)
def forced_march(st, g, p, u, start_sq):
    """Rule 9.2 Forced March: the unit that just moved may move one more square."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    s = find_hq(st, cards, p, S.HQ_FORCED_MARCH)
    if s < 0 or st[S.U_STEP + u] == 0:
        return
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    buf = np.empty(4, dtype=np.int32)
    m = forced_march_destinations(occ, terr, tprops, start_sq, st[S.U_SQ + u], buf)
    if m == 0:
        return
    opts[0, 0] = -1
    opts[0, 1] = -1
    for j in range(m):
        opts[j + 1, 0] = s
        opts[j + 1, 1] = buf[j]
    opts[: m + 1, 2] = u
    opts[: m + 1, 3] = 0
    k = decide(st, g, p, D.D_FORCED_MARCH, m + 1)
    if opts[k, 0] < 0:
        return
    to = opts[k, 1]
    c = play_and_discard(st, p, s)
    log(tr, trn, EV_PLAY, p, c, PURPOSE_FORCED_MARCH, u, 0)
    if guerrilla(st, g, p, c):
        return  # rule 5: no second Forced March for the same unit
    fr = st[S.U_SQ + u]
    move_unit(st, u, to)
    log(tr, trn, EV_MOVE, p, u, fr, to, 2)


@nb.njit(cache=True)
def movement_phase(st, g, opt, p):
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    moved = np.zeros(S.MAXU_SIDE, dtype=np.int32)
    nmoves = 1
    if opt[OPT_ADVANCE_TO_CONTACT]:
        t = st[S.TURN]
        nmoves = 3 if t == 1 else (2 if t == 2 else 1)
    for mv in range(nmoves):
        n = 0
        if opt[OPT_DIGGING_IN] and mv == 0:
            opts[0, 0] = -1
            opts[0, 1] = -1
            opts[0, 2] = 0
            opts[0, 3] = 0
            n = 1
        n = move_options(st, units, tprops, p, moved, opts, n)
        if n == 0:
            log(tr, trn, EV_NO_MOVE, p, 0, 0, 0, 0)
            break
        k = decide(st, g, p, D.D_MOVE, n)
        u = opts[k, 0]
        if u < 0:
            # Distant Lands, Digging In: no move; the whole hand is discarded
            while st[S.HAND_N + p] > 0:
                c = hand_remove(st, p, st[S.HAND_N + p] - 1)
                discard(st, p, c)
                log(tr, trn, EV_DISCARD, p, c, 0, 0, 0)
            log(tr, trn, EV_DIG_IN, p, 0, 0, 0, 0)
            return
        fr = st[S.U_SQ + u]
        move_unit(st, u, opts[k, 1])
        moved[u - p * S.MAXU_SIDE] = 1
        st[S.MOVES + p] += 1
        log(tr, trn, EV_MOVE, p, u, fr, opts[k, 1], 0)
        forced_march(st, g, p, u, fr)
    # rule 5 / 9.2 Supply: one Supply card per Movement Phase moves a second unit
    s = find_hq(st, cards, p, S.HQ_SUPPLY)
    if s < 0:
        return
    opts[0, 0] = -1
    opts[0, 1] = -1
    opts[0, 2] = 0
    opts[0, 3] = 0
    n = move_options(st, units, tprops, p, moved, opts, 1)
    if n <= 1:
        return
    for i in range(1, n):
        opts[i, 2] = opts[i, 1]
        opts[i, 1] = opts[i, 0]
        opts[i, 0] = s
    k = decide(st, g, p, D.D_SUPPLY_MOVE, n)
    if opts[k, 0] < 0:
        return
    u = opts[k, 1]
    to = opts[k, 2]
    c = play_and_discard(st, p, s)
    log(tr, trn, EV_PLAY, p, c, PURPOSE_SUPPLY_MOVE, u, 0)
    if guerrilla(st, g, p, c):
        return
    fr = st[S.U_SQ + u]
    move_unit(st, u, to)
    st[S.MOVES + p] += 1
    log(tr, trn, EV_MOVE, p, u, fr, to, 1)
    forced_march(st, g, p, u, fr)


# ------------------------------------------------------------------------------------------
# combat (rule 6)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def combat_options(st, units, cards, tprops, p, opts):
    """Every combat the active player p may declare (rule 6): none; Assault (6.1 step 1:
    a unit card with an Attack value for a unit not in a Marsh, an adjacent enemy); Ambush
    (any enemy unit); Bombardment (range 2 with line of sight, 6.2); Volley (adjacent);
    Napoleon's Grand Battery (9.1: from any unit, range 2). Row: (kind, unit, slot, target)."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    q = 1 - p
    opts[0, 0] = D.CK_NONE
    opts[0, 1] = -1
    opts[0, 2] = -1
    opts[0, 3] = -1
    n = 1
    h = st[S.HAND_N + p]
    for s in range(h):
        c = hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_UNIT:
            u = card_unit(cards, p, c)
            if st[S.U_STEP + u] == 0:
                continue
            sq = st[S.U_SQ + u]
            for i in range(S.MAXU_SIDE):
                t = q * S.MAXU_SIDE + i
                if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                    continue
                tsq = st[S.U_SQ + t]
                if cards[p, c, S.CF_ATK_N] > 0 and adjacent(sq, tsq):
                    if tprops[terr[sq], TP_NO_ASSAULT] == 0:
                        opts[n, 0] = D.CK_ASSAULT
                        opts[n, 1] = u
                        opts[n, 2] = s
                        opts[n, 3] = t
                        n += 1
                if n < D.MAXOPT and cards[p, c, S.CF_BOMB_N] > 0:
                    if in_fire_range(occ, terr, tprops, sq, tsq, cards[p, c, S.CF_RANGE]):
                        opts[n, 0] = D.CK_BOMBARD
                        opts[n, 1] = u
                        opts[n, 2] = s
                        opts[n, 3] = t
                        n += 1
                if n < D.MAXOPT and cards[p, c, S.CF_VOL_N] > 0:
                    if in_fire_range(occ, terr, tprops, sq, tsq, 1):
                        opts[n, 0] = D.CK_VOLLEY
                        opts[n, 1] = u
                        opts[n, 2] = s
                        opts[n, 3] = t
                        n += 1
        elif kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_AMBUSH:
            for i in range(S.MAXU_SIDE):
                t = q * S.MAXU_SIDE + i
                if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                    continue
                opts[n, 0] = D.CK_AMBUSH
                opts[n, 1] = -1
                opts[n, 2] = s
                opts[n, 3] = t
                n += 1
        elif kind == S.KIND_LEADER and cards[p, c, S.CF_GB_N] > 0:
            for i in range(S.MAXU_SIDE):
                u = p * S.MAXU_SIDE + i
                if st[S.U_STEP + u] == 0:
                    continue
                for j in range(S.MAXU_SIDE):
                    t = q * S.MAXU_SIDE + j
                    if st[S.U_STEP + t] == 0 or n >= D.MAXOPT:
                        continue
                    if in_fire_range(occ, terr, tprops, st[S.U_SQ + u], st[S.U_SQ + t], 2):
                        opts[n, 0] = D.CK_GRAND_BATTERY
                        opts[n, 1] = u
                        opts[n, 2] = s
                        opts[n, 3] = t
                        n += 1
    return n


@nb.njit(cache=True)
def fire(st, units, cards, tprops, p, kind, u, c, t, rng, tr, trn):
    """Rule 6.2 Bombardment / Volley (and 9.1 Grand Battery): dice + hill bonus against the
    target's strength + terrain + redoubt; a greater total is one hit."""
    nd, sd = fire_dice(cards, p, c, kind)
    dice = roll_dice(rng, nd, sd)
    log(tr, trn, EV_ROLL, p, ROLL_FIRE, dice, nd, sd)
    tsq = st[S.U_SQ + t]
    a = dice + hill_bonus(st, tprops, st[S.U_SQ + u], tsq)
    d = defence_base(st, units, tprops, t, False)
    h = 1 if a > d else 0
    log(tr, trn, EV_COMBAT, p, kind, a, d, h)
    if h:
        hit(st, t, tr, trn)


@nb.njit(cache=True)
def involved(cb, u):
    for i in range(cb[CB_NATT]):
        if cb[CB_ATT + i] == u:
            return i
    return -1


@nb.njit(cache=True)
def pursue_and_advance(st, g, p, vacated, retreated_u):
    """Rule 6.5 Advance After Combat and 6.6 Pursuit (assaults only). ``vacated``: the
    defender's old square; ``retreated_u``: the defender if it retreated/withdrew alive."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    # who may advance: any living attacking/supporting unit; none only if every involved
    # unit played a "not required to advance" card (rule 6.5)
    all_nrta = True
    n = 0
    for i in range(cb[CB_NATT]):
        u = cb[CB_ATT + i]
        if st[S.U_STEP + u] == 0:
            continue
        has = False
        for j in range(st[S.TABLE_N + p]):
            c = st[S.TABLE + p * S.TMAX + j]
            if card_unit(cards, p, c) == u and cards[p, c, S.CF_NRTA] == 1:
                has = True
        if not has:
            all_nrta = False
        opts[n, 0] = u
        opts[n, 1] = vacated
        opts[n, 2] = 0
        opts[n, 3] = 0
        n += 1
    if n == 0:
        return
    if all_nrta:
        opts[n, 0] = -1
        opts[n, 1] = vacated
        opts[n, 2] = 0
        opts[n, 3] = 0
        n += 1
    k = 0
    if n > 1:
        k = decide(st, g, p, D.D_ADVANCE, n)
    u = opts[k, 0]
    if u >= 0:
        advance_into(st, g, p, u, vacated, retreated_u)


@nb.njit(cache=True)
def advance_into(st, g, p, u, vacated, retreated_u):
    """Unit u advances into the vacated square; if it is cavalry and the defender
    retreated or withdrew (``retreated_u`` >= 0, still on the board), rule 6.6 Pursuit: a d6
    per unit card u played in the combat, plus the attacker's leader's pursuit modifier;
    within the card's range is a hit."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    fr = st[S.U_SQ + u]
    move_unit(st, u, vacated)
    log(tr, trn, EV_ADVANCE, p, u, fr, vacated, 0)
    if units[u, S.UF_CAV] == 0 or retreated_u < 0:
        return
    pmod = 0
    if cb[CB_LEADER] >= 0:
        pmod = cards[p, cb[CB_LEADER], S.CF_PMOD]
    for j in range(st[S.TABLE_N + p]):
        c = st[S.TABLE + p * S.TMAX + j]
        if card_unit(cards, p, c) != u or cards[p, c, S.CF_PURSUIT] == 0:
            continue
        if st[S.U_STEP + retreated_u] == 0:
            break
        d6 = roll_die(rng, 6)
        h = 1 if pursuit_hits(d6, cards[p, c, S.CF_PURSUIT], pmod) else 0
        r = d6 + pmod  # the modified roll, as the trace shows it
        log(tr, trn, EV_ROLL, p, ROLL_PURSUIT, r, 1, 6)
        log(tr, trn, EV_PURSUIT, p, u, r, h, 0)
        if h:
            hit(st, retreated_u, tr, trn)


@nb.njit(cache=True)
def end_combat(st, p):
    clear_table(st, p)
    clear_table(st, 1 - p)


@nb.njit(cache=True)
def defender_steps(st, g, p, t, ambush):
    """Rule 6.1 steps 3-4 for the defender (player q, unit t). Returns True if the defender
    withdrew (the combat is then over but for advance and pursuit)."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    q = 1 - p
    # step 3: Withdraw (HQ card, or a US unit card's withdraw attempt, rule 8); only if the
    # unit has somewhere to go
    if can_retreat(st, tprops, t):
        opts[0, 0] = -1
        n = 1
        for s in range(st[S.HAND_N + q]):
            c = hand_card(st, q, s)
            if is_hq(cards, q, c, S.HQ_WITHDRAW) or (
                card_unit(cards, q, c) == t and cards[q, c, S.CF_WITHDRAW] > 0
            ):
                opts[n, 0] = s
                n += 1
        opts[:n, 1] = t
        opts[:n, 2:] = 0
        if n > 1:
            k = decide(st, g, q, D.D_WITHDRAW, n)
            s = opts[k, 0]
            if s >= 0:
                c = hand_card(st, q, s)
                if is_hq(cards, q, c, S.HQ_WITHDRAW):
                    play_to_table(st, q, s)
                    log(tr, trn, EV_PLAY, q, c, PURPOSE_WITHDRAW, t, 0)
                    log(tr, trn, EV_WITHDRAW, q, t, 1, 0, 0)
                    return True
                # US unit card: d6 within 1..withdraw succeeds; if not, the card's defense
                # counts as a defense card played (rule 8 Withdraw)
                play_to_table(st, q, s)
                log(tr, trn, EV_PLAY, q, c, PURPOSE_WITHDRAW, t, 0)
                r = roll_die(rng, 6)
                log(tr, trn, EV_ROLL, q, ROLL_WITHDRAW, r, 1, 6)
                ok = within(r, cards[q, c, S.CF_WITHDRAW])
                log(tr, trn, EV_WITHDRAW, q, t, 1 if ok else 0, 0, 0)
                if ok:
                    return True
    # step 4: unit cards of the defending unit, and one leader for its combat value
    while True:
        opts[0, 0] = -1
        n = 1
        for s in range(st[S.HAND_N + q]):
            c = hand_card(st, q, s)
            if card_unit(cards, q, c) == t or (
                cards[q, c, S.CF_KIND] == S.KIND_LEADER and cb[CB_DLEADER] < 0
            ):
                opts[n, 0] = s
                n += 1
        if n == 1:
            break
        opts[:n, 1] = t
        opts[:n, 2:] = 0
        k = decide(st, g, q, D.D_DEF_CARD, n)
        s = opts[k, 0]
        if s < 0:
            break
        c = play_to_table(st, q, s)
        if cards[q, c, S.CF_KIND] == S.KIND_LEADER:
            cb[CB_DLEADER] = c
            log(tr, trn, EV_PLAY, q, c, PURPOSE_LEADER_COMBAT, t, 0)
        else:
            log(tr, trn, EV_PLAY, q, c, PURPOSE_DEFENSE, t, 0)
    return False


@nb.njit(cache=True)
def attacker_step5(st, g, p, t, ambush):
    """Rule 6.1 step 5. Returns True if a Skirmish cancelled the combat."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    tsq = st[S.U_SQ + t]
    while True:
        opts[0, 0] = -1
        opts[0, 1] = D.AC_DONE
        opts[0, 2] = -1
        n = 1
        for s in range(st[S.HAND_N + p]):
            if n >= D.MAXOPT - 8:
                break
            c = hand_card(st, p, s)
            kind = cards[p, c, S.CF_KIND]
            if kind == S.KIND_UNIT:
                u = card_unit(cards, p, c)
                if cards[p, c, S.CF_ATK_N] > 0 and involved(cb, u) >= 0:
                    opts[n, 0] = s
                    opts[n, 1] = D.AC_UNIT
                    opts[n, 2] = u
                    n += 1
            elif kind == S.KIND_LEADER and cb[CB_LEADER] < 0:
                # one leader per combat, for Combat or Command (rule 9.1); a Skirmish ends
                # the combat, so no leader is ever played with one
                opts[n, 0] = s
                opts[n, 1] = D.AC_LEADER_COMBAT
                opts[n, 2] = -1
                n += 1
                if cards[p, c, S.CF_CMD] >= 2:
                    opts[n, 0] = s
                    opts[n, 1] = D.AC_LEADER_COMMAND
                    opts[n, 2] = -1
                    n += 1
            elif kind == S.KIND_HQ:
                hq = cards[p, c, S.CF_HQ]
                if hq == S.HQ_COMMITTED:
                    # one Committed Attack per attacking/supporting unit (rule 9.2)
                    for i in range(cb[CB_NATT]):
                        if cb[CB_CA + i] == 0:
                            opts[n, 0] = s
                            opts[n, 1] = D.AC_COMMITTED
                            opts[n, 2] = cb[CB_ATT + i]
                            n += 1
                elif hq == S.HQ_SAPPERS and cb[CB_SAPPERS] == 0 and st[S.REDOUBT + tsq] == 1:
                    opts[n, 0] = s
                    opts[n, 1] = D.AC_SAPPERS
                    opts[n, 2] = -1
                    n += 1
                elif hq == S.HQ_SKIRMISH and not ambush and cb[CB_STEP5] == 0:
                    opts[n, 0] = s
                    opts[n, 1] = D.AC_SKIRMISH
                    opts[n, 2] = cb[CB_ATT]
                    n += 1
        # opts[:, 0] may repeat a slot (leader combat/command, CA for several units)
        if n == 1:
            return False
        opts[:n, 3] = t
        k = decide(st, g, p, D.D_ATT_CARD, n)
        s = opts[k, 0]
        what = opts[k, 1]
        if s < 0:
            return False
        ukey = opts[k, 2]
        c = play_to_table(st, p, s)
        cb[CB_STEP5] += 1
        if what == D.AC_UNIT:
            log(tr, trn, EV_PLAY, p, c, PURPOSE_ATTACK, ukey, 0)
        elif what == D.AC_COMMITTED:
            cb[CB_CA + involved(cb, ukey)] = 1
            log(tr, trn, EV_PLAY, p, c, PURPOSE_COMMITTED, ukey, 0)
        elif what == D.AC_SAPPERS:
            cb[CB_SAPPERS] = 1
            log(tr, trn, EV_PLAY, p, c, PURPOSE_SAPPERS, t, 0)
        elif what == D.AC_SKIRMISH:
            log(tr, trn, EV_PLAY, p, c, PURPOSE_SKIRMISH, ukey, 0)
            return True
        elif what == D.AC_LEADER_COMBAT:
            cb[CB_LEADER] = c
            cb[CB_LMODE] = 1
            log(tr, trn, EV_PLAY, p, c, PURPOSE_LEADER_COMBAT, -1, 0)
        else:
            cb[CB_LEADER] = c
            cb[CB_LMODE] = 2
            log(tr, trn, EV_PLAY, p, c, PURPOSE_LEADER_COMMAND, -1, 0)
            # rule 6.4: command value N leads N units (an Ambush card counts as the first);
            # supporting units: adjacent to the defender, not in a Marsh
            limit = cards[p, c, S.CF_CMD] - 1 - (cb[CB_NATT] - (0 if ambush else 1))
            while limit > 0 and cb[CB_NATT] < MAX_ATT:
                opts[0, 0] = -1
                n = 1
                for i in range(S.MAXU_SIDE):
                    u = p * S.MAXU_SIDE + i
                    if st[S.U_STEP + u] == 0 or involved(cb, u) >= 0:
                        continue
                    usq = st[S.U_SQ + u]
                    if adjacent(usq, tsq) and tprops[st[S.TERR + usq], TP_NO_ASSAULT] == 0:
                        opts[n, 0] = u
                        n += 1
                if n == 1:
                    break
                opts[:n, 1] = t
                opts[:n, 2:] = 0
                k = decide(st, g, p, D.D_SUPPORT, n)
                u = opts[k, 0]
                if u < 0:
                    break
                cb[CB_ATT + cb[CB_NATT]] = u
                cb[CB_NATT] += 1
                limit -= 1


@nb.njit(cache=True)
def assault(st, g, p, kind, u, t):
    """Rule 6.1, Assault and Ambush, steps 3 to 7 and the results of 6.5 / 6.6."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    q = 1 - p
    ambush = kind == D.CK_AMBUSH
    tsq = st[S.U_SQ + t]
    if not ambush:
        cb[CB_ATT] = u
        cb[CB_NATT] = 1
    # step 3 / 4
    if defender_steps(st, g, p, t, ambush):
        # Withdraw: retreat exactly as a Retreat; in an Assault the attacking unit must
        # advance and may pursue (rule 6.1 step 3) — unless its card says "Not required to
        # advance" (rule 6.5 names Withdrawal; docs/RULE_INTERPRETATIONS.md)
        alive = retreat(st, g, t)
        if not ambush:
            pursue_and_advance(st, g, p, tsq, t if alive else -1)
        end_combat(st, p)
        return
    # step 5
    if attacker_step5(st, g, p, t, ambush):
        # rule 9.2 Skirmish: the initiating card returns to the hand, the defender's cards
        # are discarded, the attacking unit may move up to 2 squares
        for j in range(st[S.TABLE_N + p]):
            c = st[S.TABLE + p * S.TMAX + j]
            if c == cb[CB_INIT_CARD]:
                for jj in range(j, st[S.TABLE_N + p] - 1):
                    st[S.TABLE + p * S.TMAX + jj] = st[S.TABLE + p * S.TMAX + jj + 1]
                st[S.TABLE_N + p] -= 1
                hand_add(st, p, c)
                break
        occ = st[S.OCC : S.OCC + 64]
        terr = st[S.TERR : S.TERR + 64]
        buf = np.empty(16, dtype=np.int32)
        m = move_destinations(occ, terr, tprops, st[S.U_SQ + u], 1, buf)
        opts[0, 0] = -1
        for j in range(m):
            opts[j + 1, 0] = buf[j]
        opts[: m + 1, 1] = u
        opts[: m + 1, 2:] = 0
        k = decide(st, g, p, D.D_SKIRMISH_MOVE, m + 1)
        if opts[k, 0] >= 0:
            fr = st[S.U_SQ + u]
            move_unit(st, u, opts[k, 0])
            log(tr, trn, EV_MOVE, p, u, fr, opts[k, 0], 3)
        end_combat(st, p)
        return
    # step 6: totals
    a = attack_base(st, units, tprops, cb, tsq, ambush)
    for j in range(st[S.TABLE_N + p]):
        c = st[S.TABLE + p * S.TMAX + j]
        nd, sd = attack_dice(cards, p, c)
        if nd > 0:
            dv = roll_dice(rng, nd, sd)
            log(tr, trn, EV_ROLL, p, ROLL_ATTACK, dv, nd, sd)
            a += dv
    if cb[CB_LMODE] == 1:
        a += cards[p, cb[CB_LEADER], S.CF_CBT_A]
    d = defence_base(st, units, tprops, t, cb[CB_SAPPERS] == 1) + table_defence(st, cards, q)
    cb[CB_A] = a
    cb[CB_D] = d
    # step 7: the Assault/Ambush Results Table
    band = assault_band(a, d)
    log(tr, trn, EV_COMBAT, p, kind, a, d, band)
    retreated = -1
    vacated = False
    if band == 0:
        for i in range(cb[CB_NATT]):
            hit(st, cb[CB_ATT + i], tr, trn)
    elif band == 2 or band == 3:
        chooser = q if band == 2 else p
        opts[0, 0] = 0
        n = 1
        # the attacker may choose Retreat even when it is impossible (it eliminates); the
        # defender is offered Retreat only when there is a square to go to
        if band == 3 or can_retreat(st, tprops, t):
            opts[1, 0] = 1
            n = 2
        opts[:n, 1] = t
        opts[:n, 2] = band
        opts[:n, 3] = 0
        k = 0
        if n > 1:
            k = decide(st, g, chooser, D.D_HIT_OR_RETREAT, n)
        if opts[k, 0] == 0:
            if not hit(st, t, tr, trn):
                vacated = True
        else:
            if retreat(st, g, t):
                retreated = t
            vacated = True
    elif band == 4:
        vacated = True
        if hit(st, t, tr, trn):
            if retreat(st, g, t):
                retreated = t
    elif band == 5:
        eliminate(st, t, tr, trn)
        vacated = True
    if vacated and not ambush:
        pursue_and_advance(st, g, p, tsq, retreated)
    # rule 9.2 Committed Attack: each unit a card was played for takes a hit at the end
    for i in range(cb[CB_NATT]):
        if cb[CB_CA + i] == 1 and st[S.U_STEP + cb[CB_ATT + i]] > 0:
            hit(st, cb[CB_ATT + i], tr, trn)
    end_combat(st, p)


@nb.njit(cache=True)
def combat_phase(st, g, p):
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    n = combat_options(st, units, cards, tprops, p, opts)
    k = decide(st, g, p, D.D_COMBAT, n)
    kind = opts[k, 0]
    if kind == D.CK_NONE:
        return
    u = opts[k, 1]
    s = opts[k, 2]
    t = opts[k, 3]
    for i in range(CB_SIZE):
        cb[i] = 0
    cb[CB_KIND] = kind
    cb[CB_ATT_P] = p
    cb[CB_DEF_U] = t
    cb[CB_LEADER] = -1
    cb[CB_DLEADER] = -1
    st[S.COMBATS + p] += 1
    c = play_to_table(st, p, s)
    cb[CB_INIT_CARD] = c
    log(tr, trn, EV_PLAY, p, c, PURPOSE_INITIATE, t, kind)
    if kind == D.CK_ASSAULT or kind == D.CK_AMBUSH:
        st[S.ASSAULTS + p] += 1
        assault(st, g, p, kind, u, t)
    else:
        fire(st, units, cards, tprops, p, kind, u, c, t, rng, tr, trn)
        end_combat(st, p)


# ------------------------------------------------------------------------------------------
# restoration (rule 7) and redoubts (rule 9.2)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
def restoration_phase(st, g, p):
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    opts[0, 0] = -1
    opts[0, 1] = -1
    opts[0, 2] = 0
    opts[0, 3] = 0
    n = 1
    for s in range(st[S.HAND_N + p]):
        c = hand_card(st, p, s)
        kind = cards[p, c, S.CF_KIND]
        for i in range(S.MAXU_SIDE):
            u = p * S.MAXU_SIDE + i
            if st[S.U_STEP + u] != 1 or n >= D.MAXOPT:
                continue
            ok = False
            if kind == S.KIND_LEADER:
                ok = True
            elif kind == S.KIND_UNIT:
                ok = card_unit(cards, p, c) == u
            elif kind == S.KIND_HQ:
                hq = cards[p, c, S.CF_HQ]
                ok = hq == S.HQ_SUPPLY or hq == S.HQ_REGROUP
            if ok:
                opts[n, 0] = s
                opts[n, 1] = u
                opts[n, 2] = 0
                opts[n, 3] = 0
                n += 1
    if n > 1:
        k = decide(st, g, p, D.D_RESTORE, n)
        s = opts[k, 0]
        if s >= 0:
            u = opts[k, 1]
            c = play_and_discard(st, p, s)
            log(tr, trn, EV_PLAY, p, c, PURPOSE_RESTORE, u, 0)
            ok = True
            if cards[p, c, S.CF_KIND] == S.KIND_LEADER:
                # rally: a d6 within the leader's range (Palafox: automatic)
                if cards[p, c, S.CF_RALLY_AUTO] == 0:
                    r = roll_die(rng, 6)
                    log(tr, trn, EV_ROLL, p, ROLL_RALLY, r, 1, 6)
                    ok = within(r, cards[p, c, S.CF_RALLY])
            elif guerrilla(st, g, p, c):
                ok = False  # Supply, Regroup or a Reinforcement negated (rule 9.2 Guerrilla)
            if ok:
                st[S.U_STEP + u] = 2
            log(tr, trn, EV_RESTORE, p, u, 1 if ok else 0, 0, 0)
    # one Redoubt card after any restoration attempt (rule 7), under one of p's units on a
    # square without a redoubt
    s = find_hq(st, cards, p, S.HQ_REDOUBT)
    if s < 0:
        return
    opts[0, 0] = -1
    opts[0, 1] = -1
    n = 1
    for i in range(S.MAXU_SIDE):
        u = p * S.MAXU_SIDE + i
        if st[S.U_STEP + u] == 0 or st[S.REDOUBT + st[S.U_SQ + u]] == 1:
            continue
        opts[n, 0] = s
        opts[n, 1] = u
        n += 1
    opts[:n, 2:] = 0
    if n == 1:
        return
    k = decide(st, g, p, D.D_REDOUBT, n)
    if opts[k, 0] < 0:
        return
    u = opts[k, 1]
    c = play_and_discard(st, p, s)
    st[S.REDOUBT + st[S.U_SQ + u]] = 1
    log(tr, trn, EV_PLAY, p, c, PURPOSE_REDOUBT, u, 0)
    log(tr, trn, EV_REDOUBT, p, st[S.U_SQ + u], 0, 0, 0)


# ------------------------------------------------------------------------------------------
# the end (rule 2)
# ------------------------------------------------------------------------------------------
@nb.njit(cache=True)
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
    red = np.zeros(2, dtype=np.int64)
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


@nb.njit(cache=True)
def player_turn(st, g, opt, p):
    """Rule 4: the five phases of p's player turn. Returns True if the game ended."""
    units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn = g
    check = opt[OPT_CHECK] == 1
    st[S.ACTIVE] = p
    discard_phase(st, g, p)
    draw_to_five(st, p, rng, tr, trn)
    spy_step(st, g, p)
    if check:
        check_invariants(st, dsize, tprops)
        if st[S.HAND_N + p] > 5:
            raise AssertionError("hand above 5 after drawing")
    movement_phase(st, g, opt, p)
    if check:
        check_invariants(st, dsize, tprops)
    combat_phase(st, g, p)
    if check:
        check_invariants(st, dsize, tprops)
    if check_attrition(st, p):
        return True
    restoration_phase(st, g, p)
    if check:
        check_invariants(st, dsize, tprops)
    st[S.REVEALED + p] = 0
    return False


@nb.njit(cache=True)
def play_game(
    st, units, cards, dsize, rank, tprops, sections, section_numbers, pol, params, rng, opt, tr, trn
):
    """Play one whole game from an empty state; the result is in ``st``."""
    uowner = np.empty(S.NUNITS, dtype=np.int32)
    for u in range(S.NUNITS):
        uowner[u] = u // S.MAXU_SIDE
    opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
    cb = np.zeros(CB_SIZE, dtype=np.int32)
    cb[CB_LEADER] = -1
    cb[CB_DLEADER] = -1
    g = (units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn)
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
    build_map(st, sections, section_numbers, rng, tr, trn)
    for p in range(2):
        deal(st, g, p, opt[OPT_TOURNAMENT_HAND])
    place_units(st, g, first)
    place_units(st, g, 1 - first)
    if opt[OPT_CHECK]:
        check_invariants(st, dsize, tprops)
    turn = 1
    while st[S.OVER] == 0:
        st[S.TURN] = turn
        log(tr, trn, EV_TURN, first, turn, 0, 0, 0)
        for k in range(2):
            if player_turn(st, g, opt, first if k == 0 else 1 - first):
                break  # attrition victory: the game ends at once (rule 2.1)
        if st[S.OVER] == 1:
            break
        # rule 2.3: the day ends at the end of the game turn in which both players have
        # drawn the last card of their first deck
        if st[S.FIRST_DECK_DONE] == 1 and st[S.FIRST_DECK_DONE + 1] == 1:
            score_nightfall(st, units, uowner, rank, tr, trn)
        elif turn >= opt[OPT_MAX_TURNS]:
            st[S.TURN_LIMIT_HIT] = 1
            score_nightfall(st, units, uowner, rank, tr, trn)
        turn += 1
    log(tr, trn, EV_END, st[S.WINNER], st[S.WINNER], st[S.VICTORY], st[S.VP], st[S.VP + 1])
