"""Rule primitives on the flat state: cards, hits, retreats, movement bookkeeping.

All functions are numba kernels over the state layout of ``state.py``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import roll_die, uniform_below
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.board import TP_ATK, TP_DEF, TP_REDOUBT, retreat_options

# --- trace events: rows of ndarray(int32, (n, 6)) = (event, player, a, b, c, d) ------------
EV_TURN = 1  # a=game turn
EV_DRAW = 2  # a=card
EV_DISCARD = 3  # a=card
EV_MOVE = 4  # a=unit b=from c=to d=how (0 move, 1 supply, 2 forced march, 3 skirmish)
EV_PLAY = 5  # a=card b=purpose (PURPOSE_*) c=unit or target
EV_ROLL = 6  # a=what (ROLL_*) b=total c=dice-count d=sides
EV_COMBAT = 7  # a=kind (CK_*) b=attack total c=defense total d=band/hit; rockets: b=the d10
#               c=0 d=combat.ROCKET_* outcome; Death With Honour: b=the unit eliminated
#               c=0 d=the number of adjacent enemy units hit
EV_HIT = 8  # a=unit b=new step
EV_RETREAT = 9  # a=unit b=from c=to (-1 eliminated: no square)
EV_ADVANCE = 10  # a=unit b=from c=to
EV_RESTORE = 11  # a=unit b=success
EV_REDOUBT = 12  # a=square
EV_NEGATE = 13  # a=negated card b=guerrilla card
EV_RESHUFFLE = 14  # a=cards
EV_SETUP = 15  # a=unit b=square
EV_END = 16  # a=winner b=victory c=vp0 d=vp1
EV_FIRST = 17  # a=first player
EV_MAP = 18  # a=section b=rotation c=position; player -1 (drawn or fixed) or the first
#             player who laid it (--setup rules)
EV_SPY = 19  # a=card
EV_DIG_IN = 20
EV_NO_MOVE = 21
EV_PURSUIT = 22  # a=pursuing unit b=roll c=hit
EV_WITHDRAW = 23  # a=unit b=success
EV_EDGE = 24  # rule 3 (--setup rules): player = the second player, a=the starting edge it
#               chose on the map as laid (decisions.EDGE_*), b=quarter turns clockwise the
#               whole battlefield then turns (the sections' EV_MAP rows come before it)
EV_COMMITTED = 25  # Distant Lands 8: the attacker declares unit a's attack Committed with the
#                   Committed Attack unit card b it played (+2d6, a hit at the end)
EV_SUPPORT = 26  # rule 6.4: unit a joins the attack on defending unit b as a supporting unit,
#                 led by the leader card c played for its Command value (no card of its own)
# Issue 30, what an audit needs beside (logged only into a trace with rows: none of these
# draws a random number or changes the state, so records stay the same):
EV_DIE = 27  # a=one die's face b=its sides; a roll's dice, one row each, just before its
#              EV_ROLL (whose total is theirs, plus a pursuit's leader modifier)
EV_VIA = 28  # a=unit b=the square a two-square move passes through (rule 5: the first
#              passable one, as board.move_destinations checks), just before its EV_MOVE
EV_PHASE = 29  # a=phase (PHASE_*) b=0 begins, 1 ends; player = the active player (rule 4)
EV_DECLINE = 30  # player = the seat that declined, a=the decision (decisions.D_*) b=the
#                  options it did not take, c, d = columns 1 and 2 of the option it took
#                  (decisions.py: e.g. D_WITHDRAW c=the defending unit, D_ADVANCE c=the
#                  vacated square, D_HIT_OR_RETREAT c=the unit d=the results band)

# rule 4: the five phases of a player turn (EV_PHASE)
PHASE_DISCARD, PHASE_DRAW, PHASE_MOVEMENT, PHASE_COMBAT, PHASE_RESTORATION = 1, 2, 3, 4, 5

PURPOSE_INITIATE = 1
PURPOSE_DEFENSE = 2
PURPOSE_ATTACK = 3
PURPOSE_LEADER_COMBAT = 4
PURPOSE_LEADER_COMMAND = 5
PURPOSE_COMMITTED = 6
PURPOSE_SAPPERS = 7
PURPOSE_SKIRMISH = 8
PURPOSE_WITHDRAW = 9
PURPOSE_RESTORE = 10
PURPOSE_REDOUBT = 11
PURPOSE_SUPPLY_MOVE = 12
PURPOSE_FORCED_MARCH = 13
PURPOSE_GUERRILLA = 14
PURPOSE_BANZAI = 15  # Distant Lands 9.2 Banzai Charge: c=the first unit it moves
PURPOSE_MAHARAJA = 16  # Distant Lands 9.1 Maharaja, played with a leader: c=the leader's card

ROLL_FIRST = 1
ROLL_ATTACK = 2
ROLL_PURSUIT = 3
ROLL_RALLY = 4
ROLL_WITHDRAW = 5
ROLL_FIRE = 6
ROLL_ROCKETS = 7  # Distant Lands 6.3: the d10 of a rocket attack


@kernel
def log(tr, trn, ev, p, a, b, c, d):
    """Append an event to the trace (no-op when the trace has no rows)."""
    n = trn[0]
    if n < tr.shape[0]:
        tr[n, 0] = ev
        tr[n, 1] = p
        tr[n, 2] = a
        tr[n, 3] = b
        tr[n, 4] = c
        tr[n, 5] = d
        trn[0] = n + 1


@kernel
def roll_logged(rng, count, sides, tr, trn, p):
    """The total of ``count`` dice of ``sides`` sides, as ``rng.roll_dice`` draws it, each
    die logged as an EV_DIE row (the caller logs the EV_ROLL after)."""
    total = 0
    for _ in range(count):
        v = roll_die(rng, sides)
        log(tr, trn, EV_DIE, p, v, sides, 0, 0)
        total += v
    return total


@kernel
def is_decline(dk, opts, k):
    """True if option ``k`` of a decision of kind ``dk`` declines what the others do: no
    Scout/Spy, Forced March, Supply move, Guerrilla, combat, Withdraw, (further) defence or
    step-5 card, supporting unit, advance, Skirmish move, restoration or Redoubt; the hit
    rather than the retreat (decisions.py)."""
    if dk == D.D_COMBAT:
        return opts[k, 0] == D.CK_NONE
    if dk == D.D_ATT_CARD:
        return opts[k, 0] < 0 and opts[k, 1] == D.AC_DONE
    if dk == D.D_HIT_OR_RETREAT:
        return opts[k, 0] == 0
    if (
        dk == D.D_SPY or dk == D.D_FORCED_MARCH or dk == D.D_SUPPLY_MOVE
        or dk == D.D_GUERRILLA or dk == D.D_WITHDRAW or dk == D.D_DEF_CARD
        or dk == D.D_SUPPORT or dk == D.D_ADVANCE or dk == D.D_SKIRMISH_MOVE
        or dk == D.D_RESTORE or dk == D.D_REDOUBT
    ):  # fmt: skip
        return opts[k, 0] < 0
    return False


@kernel
def owner(u):
    return u // S.MAXU_SIDE


@kernel
def strength(st, units, u):
    step = st[S.U_STEP + u]
    if step == 2:
        return units[u, S.UF_FULL]
    if step == 1:
        return units[u, S.UF_REDUCED]
    return 0


@kernel
def card_unit(cards, p, c):
    """Global unit id a unit card belongs to, -1 for other cards."""
    if cards[p, c, S.CF_KIND] != S.KIND_UNIT:
        return -1
    return p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT]


@kernel
def is_hq(cards, p, c, hq):
    return cards[p, c, S.CF_KIND] == S.KIND_HQ and cards[p, c, S.CF_HQ] == hq


@kernel
def find_hq(st, cards, p, hq):
    """Hand slot of the first HQ card of type ``hq`` in p's hand, -1 if none."""
    for s in range(st[S.HAND_N + p]):
        if is_hq(cards, p, hand_card(st, p, s), hq):
            return s
    return -1


@kernel
def _setbit(st, base, p, c):
    w = base + p * 4 + c // 32
    st[w] = st[w] | np.int32(np.int64(1) << (c % 32) if c % 32 < 31 else -(2**31))


@kernel
def hand_card(st, p, slot):
    return st[S.HAND + p * S.HMAX + slot]


@kernel
def hand_remove(st, p, slot):
    """Take the card at ``slot`` out of p's hand (the later cards shift down)."""
    base = S.HAND + p * S.HMAX
    n = st[S.HAND_N + p]
    c = st[base + slot]
    for i in range(slot, n - 1):
        st[base + i] = st[base + i + 1]
    st[base + n - 1] = 0
    st[S.HAND_N + p] = n - 1
    return c


@kernel
def hand_add(st, p, c):
    n = st[S.HAND_N + p]
    st[S.HAND + p * S.HMAX + n] = c
    st[S.HAND_N + p] = n + 1


@kernel
def discard(st, p, c):
    n = st[S.DISC_N + p]
    st[S.DISC + p * S.MAXC + n] = c
    st[S.DISC_N + p] = n + 1


@kernel
def play_to_table(st, p, slot):
    """Play the card at hand ``slot`` onto the table (discarded when the combat ends)."""
    c = hand_remove(st, p, slot)
    n = st[S.TABLE_N + p]
    st[S.TABLE + p * S.TMAX + n] = c
    st[S.TABLE_N + p] = n + 1
    st[S.CARDS_PLAYED + p] += 1
    _setbit(st, S.PLAYED, p, c)
    return c


@kernel
def play_and_discard(st, p, slot):
    """Play the card at hand ``slot`` for an immediate effect; it goes to the discards."""
    c = hand_remove(st, p, slot)
    discard(st, p, c)
    st[S.CARDS_PLAYED + p] += 1
    _setbit(st, S.PLAYED, p, c)
    return c


@kernel
def play_two(st, p, s, s2, to_table):
    """Play the cards at hand slots s and s2 together (a leader and the Maharaja played
    with it, Distant Lands 9.1), the higher slot first so that the other keeps its index:
    onto the table (``to_table``) or to the discards. Returns (card of s, card of s2)."""
    hi = max(s, s2)
    lo = min(s, s2)
    if to_table:
        a = play_to_table(st, p, hi)
        b = play_to_table(st, p, lo)
    else:
        a = play_and_discard(st, p, hi)
        b = play_and_discard(st, p, lo)
    return (b, a) if s2 > s else (a, b)


@kernel
def clear_table(st, p):
    n = st[S.TABLE_N + p]
    for i in range(n):
        discard(st, p, st[S.TABLE + p * S.TMAX + i])
        st[S.TABLE + p * S.TMAX + i] = 0
    st[S.TABLE_N + p] = 0


@kernel
def shuffle(arr, start, n, rng):
    """Fisher-Yates shuffle of arr[start:start+n] with the explicit RNG."""
    for i in range(n - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        t = arr[start + i]
        arr[start + i] = arr[start + j]
        arr[start + j] = t


@kernel
def mark_drawn(st, p, c, tr, trn):
    """Card c came into p's hand from the deck: record it (drawn set, trace)."""
    _setbit(st, S.DRAWN, p, c)
    log(tr, trn, EV_DRAW, p, c, 0, 0, 0)


@kernel
def draw_one(st, p, rng, tr, trn):
    """Draw one card (rule 4 Draw Phase). The first time the deck runs out the player has
    drawn the last card of the first deck (rule 2.3); an empty deck is rebuilt from the
    shuffled discards as often as needed. Returns False if there is nothing to draw."""
    if st[S.DECK_N + p] == 0:
        nd = st[S.DISC_N + p]
        if nd == 0:
            return False
        for i in range(nd):
            st[S.DECK + p * S.MAXC + i] = st[S.DISC + p * S.MAXC + i]
        st[S.DISC_N + p] = 0
        st[S.DECK_N + p] = nd
        shuffle(st, S.DECK + p * S.MAXC, nd, rng)
        st[S.RESHUFFLES + p] += 1
        log(tr, trn, EV_RESHUFFLE, p, nd, 0, 0, 0)
    n = st[S.DECK_N + p] - 1
    c = st[S.DECK + p * S.MAXC + n]
    st[S.DECK_N + p] = n
    hand_add(st, p, c)
    mark_drawn(st, p, c, tr, trn)
    if n == 0 and st[S.RESHUFFLES + p] == 0:
        st[S.FIRST_DECK_DONE + p] = 1  # rule 2.3: the last card of the first deck
    return True


@kernel
def draw_to_five(st, p, rng, tr, trn):
    while st[S.HAND_N + p] < 5:
        if not draw_one(st, p, rng, tr, trn):
            break


@kernel
def move_unit(st, u, to):
    """Move unit u to square ``to``; a redoubt it leaves is removed (rule 9.2 Redoubt)."""
    fr = st[S.U_SQ + u]
    st[S.OCC + fr] = -1
    st[S.REDOUBT + fr] = 0
    st[S.OCC + to] = u
    st[S.U_SQ + u] = to


@kernel
def eliminate(st, u, tr, trn):
    sq = st[S.U_SQ + u]
    if sq >= 0:
        st[S.OCC + sq] = -1
        st[S.REDOUBT + sq] = 0
    st[S.U_SQ + u] = -1
    if st[S.U_STEP + u] > 0:
        st[S.ELIM + owner(u)] += 1
    st[S.U_STEP + u] = 0
    log(tr, trn, EV_HIT, owner(u), u, 0, 0, 0)


@kernel
def hit(st, u, tr, trn):
    """One hit (rule 6.5 Hit): full -> reduced, reduced -> eliminated. Returns True if the
    unit survives."""
    if st[S.U_STEP + u] == 2:
        st[S.U_STEP + u] = 1
        log(tr, trn, EV_HIT, owner(u), u, 1, 0, 0)
        return True
    if st[S.U_STEP + u] == 1:
        eliminate(st, u, tr, trn)
    return False


@kernel
def retreat_squares(st, tprops, u, out):
    """Rule 6.5 Retreat: the squares the owner may choose among (0: eliminated instead)."""
    occ = st[S.OCC : S.OCC + 64]
    terr = st[S.TERR : S.TERR + 64]
    return retreat_options(occ, terr, tprops, st[S.U_SQ + u], owner(u), out)


@kernel
def can_retreat(st, tprops, u):
    buf = stack_empty(4, np.int32)
    return retreat_squares(st, tprops, u, buf) > 0


# --- combat totals (rule 6.1 step 6, 6.2): shared by the rules and the players' odds -------
@kernel
def hill_bonus(st, tprops, att_sq, def_sq):
    """Terrain attack bonus (reference card: +2 for a unit on a hill attacking a unit not on
    a hill): the attacker's square gives its bonus unless the defender's square is of the
    same terrain."""
    ta = st[S.TERR + att_sq]
    if tprops[ta, TP_ATK] > 0 and st[S.TERR + def_sq] != ta:
        return tprops[ta, TP_ATK]
    return 0


@kernel
def attack_base(st, units, tprops, cb, tsq, ambush):
    """The attack total before dice and leader: the strength of every attacking and
    supporting unit in ``cb`` (game.py's combat record), each with its hill bonus — none in
    an Ambush, which "originates in the square the Defender occupied" (rule 9.2,
    interpretation #23)."""
    a = 0
    for i in range(cb[D.CB_NATT]):
        v = cb[D.CB_ATT + i]
        a += strength(st, units, v)
        if not ambush:
            a += hill_bonus(st, tprops, st[S.U_SQ + v], tsq)
    return a


@kernel
def defence_base(st, units, tprops, t, sappers):
    """The defence total of unit t before cards: strength, terrain, and a redoubt's bonus
    (+3, the terrain table's) unless Sappers were played (rules 6.1 step 6, 6.2 step 4,
    9.2)."""
    tsq = st[S.U_SQ + t]
    d = strength(st, units, t) + tprops[st[S.TERR + tsq], TP_DEF]
    if st[S.REDOUBT + tsq] == 1 and not sappers:
        d += tprops[st[S.TERR + tsq], TP_REDOUBT]
    return d


@kernel
def table_defence(st, cards, q):
    """What the defender q's cards on the table add: unit cards' Defense, a leader's
    Combat (defense) value."""
    d = 0
    for j in range(st[S.TABLE_N + q]):
        c = st[S.TABLE + q * S.TMAX + j]
        if cards[q, c, S.CF_KIND] == S.KIND_UNIT:
            d += cards[q, c, S.CF_DEF]
        elif cards[q, c, S.CF_KIND] == S.KIND_LEADER:
            d += cards[q, c, S.CF_CBT_D]
    return d


@kernel
def attack_dice(cards, p, c):
    """(count, sides) card c of p rolls toward an attack total (0, 0: none): a unit card's
    Attack, the Ambush card's 1d10 (HQ_CARDS.md), a Committed Attack's 2d6 (rule 9.2), a
    Japanese leader's 1d6 Assault value for its unit (Distant Lands 9.1; not when it is the
    combat's leader for Combat or Command, which the callers skip)."""
    kind = cards[p, c, S.CF_KIND]
    if kind == S.KIND_UNIT and cards[p, c, S.CF_ATK_N] > 0:
        return cards[p, c, S.CF_ATK_N], cards[p, c, S.CF_ATK_S]
    if kind == S.KIND_LEADER and cards[p, c, S.CF_LUNIT] > 0:
        return JAPANESE_LEADER_N, JAPANESE_LEADER_S
    if kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_AMBUSH:
        return 1, 10
    if kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_COMMITTED:
        return 2, 6
    return 0, 0


# Distant Lands 9.1: a Japanese leader's "1d6 Assault value" (odds.JAPANESE_LEADER_DICE)
JAPANESE_LEADER_N, JAPANESE_LEADER_S = 1, 6


@kernel
def leader_restricted(cards, p, c):
    """Distant Lands 9.1: is leader card c of p restricted, an Indian leader to the units
    of its nationality (``CF_LNAT``) or a Japanese one to the unit it names (``CF_LUNIT``)?"""
    return cards[p, c, S.CF_LNAT] != 0 or cards[p, c, S.CF_LUNIT] != 0


@kernel
def leader_acts_for(units, cards, p, c, u):
    """Distant Lands 9.1: may leader card c of p act for unit u (-1: no unit, as an
    Ambush's attack)? A base leader, and Tokugawa, acts for every unit; an Indian leader
    only for units of its nationality, a Japanese one only for the unit it names (in
    combat, command and rally alike). A Maharaja played with it lifts this (the callers)."""
    nat = cards[p, c, S.CF_LNAT]
    lu = cards[p, c, S.CF_LUNIT]
    if nat == 0 and lu == 0:
        return True
    if u < 0:
        return False
    if nat != 0 and units[u, S.UF_NAT] != nat:
        return False
    return lu == 0 or u == p * S.MAXU_SIDE + lu - 1


@kernel
def secondary_usable(st, cards, p, c, sec):
    """Distant Lands 8: does card c of p carry the secondary effect ``sec`` (``SEC_*``) with
    its unit still on the board ("to use the special ability, that unit must still be in
    play on the board", 1.4)?"""
    if cards[p, c, S.CF_KIND] != S.KIND_UNIT or cards[p, c, S.CF_SECOND] != sec:
        return False
    return st[S.U_STEP + p * S.MAXU_SIDE + cards[p, c, S.CF_UNIT]] > 0


@kernel
def fire_dice(cards, p, c, kind):
    """(count, sides) of a Volley, Bombardment or Grand Battery with card c (rules 6.2, 9.1)."""
    if kind == D.CK_VOLLEY:
        return cards[p, c, S.CF_VOL_N], cards[p, c, S.CF_VOL_S]
    if kind == D.CK_BOMBARD:
        return cards[p, c, S.CF_BOMB_N], cards[p, c, S.CF_BOMB_S]
    return cards[p, c, S.CF_GB_N], cards[p, c, S.CF_GB_S]
