"""The search player (``search``): information-set Monte Carlo over a player turn's main
decisions, with rollouts played by a style.

At the start of each of its three main choices — the discard (rule 4), the first move (rule
5) and the combat (rule 6) — and at each decision of a combat it takes part in, in its own
turn or the opponent's — the defender's Withdraw or withdraw roll and defence cards (rule
6.1 steps 3-4), the attacker's step-5 cards and supporting units (step 5, rule 6.4), and
the choice between a hit and a retreat (step 7) — the search player lists the options
exactly as the rules will (the same functions), picks the candidates worth weighing
(``candidates``: its rollout style's own choice first), plays each forward to the end of
the game in sampled *worlds*, and takes the one that scores best. Every other decision
(Scout/Spy, later moves, retreat squares, advances, ...) and every decision inside a
rollout is taken by its rollout style.

A combat is searched stage by stage (``combat_phase.stage_options``, ``cb[CB_STAGE]``): a
rollout copies the state and the current combat ``cb`` and plays the combat on from the
stage the decision begins, the dice from the world's own seed — the dice already rolled in
the combat are on the state, the game's coming dice are never used.

A world is a *determinization* of what the player cannot see: the opponent's hand (unless a
Scout/Spy revealed it) and both players' draw and discard piles, dealt at random from the
cards not in sight (all of a player's cards less its visible hand and the cards on the
table, which in a combat under way includes the cards both sides have played in it; the
pile sizes are public). Nothing hidden is read: a world depends only on what the
seat may see and on a seed, and the same worlds are used for every option (common random
numbers), so options are compared on the same luck.

The seed comes from the game's own generator without advancing it (``search_seed``): the
real game's dice are the same as if the decision had been taken without search, records are
identical for any thread count, and the fair-play check takes the same decision again on a
fogged copy of the state (``checks.fog_copy``) and compares.

The budget (rollouts per decision) is spent by sequential halving (Karnin, Koren and Somekh,
2013) among the other candidates, the style's own choice being played in every round; the
best of the others is then taken only if it beats the style's choice on the same worlds by
more than ``CHALLENGE_Z`` standard errors of the paired difference — with little evidence
the search plays as its style, so a small budget cannot make it weaker by chasing noise. A
rollout scores 1 for a win, 1/2 for a draw, 0 for a loss, plus ``MARGIN`` per point of the
final margin (control points of the enemy half, rule 2.2, and twice the difference in units
eliminated), which separates outcomes that few rollouts would leave tied.

Kernels take the state ``st`` and the game context ``g`` documented in ``game.py``; the
``scfg`` array holds, per seat, the fields ``SC_*``.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import seed_state, splitmix64, uniform_below
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.checks import fog_copy
from manoeuvre_sim.manoeuvre.engine.combat_phase import (
    combat_options,
    combat_stage,
    declare_combat,
    stage_options,
)
from manoeuvre_sim.manoeuvre.engine.decisions import CB_NATT, CB_STAGE, MAXOPT
from manoeuvre_sim.manoeuvre.engine.game import Context, new_context
from manoeuvre_sim.manoeuvre.engine.movement import first_move_options
from manoeuvre_sim.manoeuvre.engine.options import (
    FLAG_FAIR_CHECK,
    POL_FLAGS,
    POL_PLAN_DK,
    POL_PLAN_K,
    POL_PLAN_N,
    POL_PLAN_SEAT,
    POL_ROLLOUT,
)
from manoeuvre_sim.manoeuvre.engine.players.features import NFEAT, features
from manoeuvre_sim.manoeuvre.engine.players.value import position_value
from manoeuvre_sim.manoeuvre.engine.policy_ids import (
    POLICY_SEARCH,
    SC_BUDGET,
    SC_HORIZON,
    SC_MOVES,
    SC_VALUE,
    SEARCH_MOVES,
    VALUE_NFEAT,
)
from manoeuvre_sim.manoeuvre.engine.rules import EV_END, EV_PHASE, EV_TURN, PHASE_COMBAT, log
from manoeuvre_sim.manoeuvre.engine.state import HMAX, MAXC, STATE_SIZE
from manoeuvre_sim.manoeuvre.engine.turns import (
    PH_COMBAT,
    PH_DISCARD,
    PH_MOVE,
    after_combat,
    continue_game,
    continue_turns,
    end_game_turn,
    set_up_game,
    turn_phases,
)

# the search configuration ``scfg``, ndarray(float64, (2, NSC)), one row per seat, has its
# fields SC_* in policy_ids.py (SC_BUDGET: rollouts per decision, 0: the seat does not search;
# SC_HORIZON: player turns before the value scores a rollout, 0: to the end; SC_MOVES: first
# moves weighed; SC_VALUE...: the packed value model)

MARGIN = 0.01  # a rollout's score per point of the final margin (the module docstring)
MOVE_CANDIDATES = SEARCH_MOVES  # first moves weighed unless the spec says (policy_ids)
CHALLENGE_Z = 1.0  # how sure the search must be to overrule its style (search_decision)
ALT_MAX = HMAX + 1  # the discards a search weighs at most (candidates)

# the parts of a turn the search decides, and the decision each begins with
_PARTS = (PH_DISCARD, PH_MOVE, PH_COMBAT)


@kernel(inline="always")
def copy_into(dst, src):
    """``dst[:] = src`` for two distinct arrays of one length, with no temporary copy (a
    slice assignment that may overlap needs numba's runtime)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel
def search_seed(rng, seat, part):
    """A seed for one decision's worlds, from the game generator's state without advancing
    it: hashed, so the worlds tell nothing of the game's coming dice."""
    h = rng[0] ^ (rng[1] << np.uint64(21)) ^ (rng[1] >> np.uint64(43))
    h ^= (rng[2] << np.uint64(42)) ^ (rng[2] >> np.uint64(22)) ^ rng[3]
    h ^= np.uint64(seat * 4 + part + 1) * np.uint64(0xD6E8FEB86659FD93)
    _, out = splitmix64(h)
    return out


@kernel
def determinize(ws, st, dsize, seat, rng):
    """Write into ``ws`` a copy of ``st`` whose hidden cards are dealt at random: for each
    player, the cards ``seat`` cannot see (all but its visible hand and the table) are
    shuffled into the hidden hand, the draw pile and the discard pile, at their sizes."""
    copy_into(ws, st)
    seen = stack_empty(MAXC, np.int8)
    pool = stack_empty(MAXC, np.int32)
    for x in range(2):
        n = dsize[x]
        seen[:n] = 0
        hidden_hand = x != seat and st[S.REVEALED + seat] == 0
        for i in range(st[S.TABLE_N + x]):
            seen[st[S.TABLE + x * S.TMAX + i]] = 1
        if not hidden_hand:
            for i in range(st[S.HAND_N + x]):
                seen[st[S.HAND + x * S.HMAX + i]] = 1
        m = 0
        for c in range(n):
            if seen[c] == 0:
                pool[m] = c
                m += 1
        for i in range(m - 1, 0, -1):  # Fisher-Yates
            j = uniform_below(rng, i + 1)
            t = pool[i]
            pool[i] = pool[j]
            pool[j] = t
        k = 0
        if hidden_hand:
            for i in range(st[S.HAND_N + x]):
                ws[S.HAND + x * S.HMAX + i] = pool[k]
                k += 1
        for i in range(st[S.DECK_N + x]):
            ws[S.DECK + x * S.MAXC + i] = pool[k]
            k += 1
        for i in range(st[S.DISC_N + x]):
            ws[S.DISC + x * S.MAXC + i] = pool[k]
            k += 1
        if k + st[S.OUT_N + x] != m:
            raise AssertionError("search: the hidden cards do not add up")


@kernel
def world(ws, st, dsize, seat, base, w):
    """World ``w`` of the decision seeded ``base`` into ``ws`` (``determinize``, its deal
    seeded by ``(base, 2 w)``): every option of the decision is played in the same worlds."""
    drng = stack_empty(4, np.uint64)
    seed_state(base, np.uint64(2 * w), drng)
    determinize(ws, st, dsize, seat, drng)


@kernel
def first_options(st, g, opt, p, part, cand):
    """The options of the decision that begins ``part`` of p's turn, into ``cand``, listed
    exactly as the rules list them: returns (decision kind, number of options)."""
    units = g.units
    tprops = g.tprops
    if part == PH_DISCARD:  # rule 4: any subset of the hand (discard_phase)
        h = st[S.HAND_N + p]
        n = 1 << h
        for m in range(n):
            cand[m, 0] = m
            cand[m, 1:] = 0
        return D.D_DISCARD, n
    if part == PH_MOVE:  # rule 5: the first move (movement_phase; Banzai Charge, digging in)
        return D.D_MOVE, first_move_options(st, units, g.cards, tprops, opt, p, cand)
    return D.D_COMBAT, combat_options(st, units, g.cards, tprops, p, cand)  # rule 6


@kernel
def rollout(ws, st, cb, gr, opt, rank, p, seat, part, dk, k, n, base, w, cfg):
    """Seat's result (1 win, 0.5 draw, 0 loss) of taking option k of its decision that
    begins ``part`` of p's player turn — or, in p's Combat Phase with a combat under way
    (``cb``, the current combat), the decision that begins the combat's current stage —
    played to the end in world ``w`` of the decision seeded ``base``. With a horizon
    (``cfg``, seat's row of ``scfg``: ``SC_HORIZON`` h > 0) the rollout stops at the start
    of the h-th player turn after this one and scores seat's chance to win by the value
    model (``engine/players/value.py``), which reads only what seat sees in the world."""
    world(ws, st, gr.dsize, seat, base, w)
    return play_out(ws, cb, gr, opt, rank, p, seat, part, dk, k, n, base, w, cfg)


@kernel
def play_out(ws, cb, gr, opt, rank, p, seat, part, dk, k, n, base, w, cfg):
    """``rollout`` from ``ws``, which holds world ``w`` (``world``), played on in place:
    the world's dice seeded by ``(base, 2 w + 1)``, never the game's."""
    seed_state(base, np.uint64(2 * w + 1), gr.rng)
    copy_into(gr.cb, cb)
    pol = gr.pol
    pol[POL_PLAN_DK] = dk
    pol[POL_PLAN_SEAT] = seat
    pol[POL_PLAN_K] = k
    pol[POL_PLAN_N] = n
    h = int(cfg[SC_HORIZON])
    if h == 0:
        continue_game(ws, gr, opt, rank, p, part)
    else:
        nxt = continue_turns(ws, gr, opt, rank, p, part, h)
        if pol[POL_PLAN_DK] != 0:
            raise AssertionError("search: a rollout never reached the planned decision")
        if nxt >= 0:
            x = stack_empty(VALUE_NFEAT, np.float64)
            return position_value(ws, gr.units, gr.cards, gr.uowner, gr.dsize, seat, nxt,
                                  cfg[SC_VALUE:], x)  # fmt: skip
    if pol[POL_PLAN_DK] != 0:
        raise AssertionError("search: a rollout never reached the planned decision")
    q = 1 - seat
    margin = ws[S.VP + seat] - ws[S.VP + q] + 2 * (ws[S.ELIM + q] - ws[S.ELIM + seat])
    v = MARGIN * margin
    if ws[S.WINNER] == seat:
        return 1.0 + v
    if ws[S.WINNER] < 0:
        return 0.5 + v
    return v


@kernel
def style_choice(st, gr, opts, p, dk, n, base, salt):
    """The option among ``opts[:n]`` the rollout style would take (tie-breaks seeded);
    ``gr.cb`` holds the current combat."""
    rng = stack_empty(4, np.uint64)
    seed_state(base, np.uint64(0xFFFF0000 + salt), rng)
    return gr.player(st, gr.units, gr.cards, gr.tprops, gr.uowner, gr.pol, gr.params, rng,
                     opts, gr.cb, p, dk, n)  # fmt: skip


@kernel
def candidates(st, cb, gr, cand, p, dk, n, base, out, moves):
    """The options the search weighs, into ``out``, the rollout style's own choice first;
    returns how many. Discard: the style's discard, keeping every card, and the style's
    discard with one card more or less. First move: the style's ``moves`` best
    (its choice, then its choice with that one struck off the list, and so on). The combat
    and the decisions of a combat under way (``cb``): every option."""
    copy_into(gr.cb, cb)
    k0 = style_choice(st, gr, cand, p, dk, n, base, 0)
    out[0] = k0
    nc = 1
    if dk == D.D_DISCARD:
        alt = stack_empty(ALT_MAX, np.int64)
        alt[0] = 0
        na = 1
        for s in range(st[S.HAND_N + p]):
            alt[na] = k0 ^ (1 << s)
            na += 1
        for i in range(na):
            new = True
            for j in range(nc):
                if out[j] == alt[i]:
                    new = False
            if new:
                out[nc] = alt[i]
                nc += 1
        return nc
    if dk == D.D_MOVE:
        left = stack_empty(MAXOPT, np.int64)  # the options not yet taken, in listed order
        tmp = stack_empty((MAXOPT, 4), np.int32)
        m = 0
        for k in range(n):
            if k != k0:
                left[m] = k
                m += 1
        while nc < moves and m > 0:
            for i in range(m):
                for f in range(4):
                    tmp[i, f] = cand[left[i], f]
            j = style_choice(st, gr, tmp, p, dk, m, base, nc) if m > 1 else 0
            out[nc] = left[j]
            nc += 1
            for i in range(j, m - 1):
                left[i] = left[i + 1]
            m -= 1
        return nc
    for k in range(n):
        if k != k0:
            out[nc] = k
            nc += 1
    return nc


@kernel(nrt=True)
def search_decision(st, cb, gr, opt, rank, p, seat, part, dk, n, budget, base, cands, nc, cfg):
    """The option seat's search takes among ``cands[:nc]`` (the style's choice first) at
    its decision in p's turn (``rollout``: ``part``, ``cb``) with
    about ``budget`` rollouts: sequential halving of the others, the style's choice played
    in every round, then the best other against it on the same worlds; it is taken only if
    it scores better by more than ``CHALLENGE_Z`` standard errors of the paired difference."""
    if nc == 1:
        return cands[0]
    rounds = 0
    while (1 << rounds) < nc - 1:
        rounds += 1
    rounds = max(rounds, 1)
    res = np.zeros((nc, budget + rounds + 1))  # each candidate's score in each world
    total = np.zeros(nc)
    alive = np.arange(1, nc)  # the challengers, by position in cands
    w0 = halving(st, cb, gr, opt, rank, p, seat, part, dk, n, budget, base, cands, nc, cfg,
                 rounds, res, total, alive)  # fmt: skip
    best = alive[0]
    d = res[best, :w0] - res[0, :w0]
    if w0 < 2:
        return cands[best] if d[0] > 0.5 else cands[0]
    se = d.std() * np.sqrt(w0 / (w0 - 1)) / np.sqrt(w0)
    if d.mean() > CHALLENGE_Z * se and d.mean() > 0:
        return cands[best]
    return cands[0]


@kernel
def halving(st, cb, gr, opt, rank, p, seat, part, dk, n, budget, base, cands, nc, cfg, rounds,
            res, total, alive):  # fmt: skip
    """``search_decision``'s rounds of sequential halving: each round plays the challengers
    left (``alive[:na]``) and the style's choice in its worlds, a world dealt once for all of
    them (``world``) and copied for each rollout; each candidate's scores go to ``res`` and
    ``total``, summed world by world; the better half of the challengers by ``total`` stays
    (ties in listed order), at the end ``alive[0]`` alone. Returns the worlds played."""
    wd = stack_empty(STATE_SIZE, np.int32)  # the world
    ws = stack_empty(STATE_SIZE, np.int32)  # a rollout's copy of it
    order = stack_empty(MAXOPT, np.int64)
    na = nc - 1
    w0 = 0
    while True:
        m = max(1, budget // ((na + 1) * rounds))
        for w in range(w0, w0 + m):
            world(wd, st, gr.dsize, seat, base, w)
            for i in range(na + 1):
                c = 0 if i == na else alive[i]
                copy_into(ws, wd)
                v = play_out(ws, cb, gr, opt, rank, p, seat, part, dk, cands[c], n, base, w,
                             cfg)  # fmt: skip
                res[c, w] = v
                total[c] += v
        w0 += m
        if na == 1:
            return w0
        # the challengers by total, highest first, ties in listed order (a stable sort)
        for i in range(na):
            j = i
            while j > 0 and total[alive[order[j - 1]]] < total[alive[i]]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        na = (na + 1) // 2
        for i in range(na):  # the better half, back in listed order
            order[i] = alive[order[i]]
        for i in range(na):
            j = i
            while j > 0 and order[j - 1] > order[i]:
                j -= 1
            v = order[i]
            for t in range(i, j, -1):
                order[t] = order[t - 1]
            order[j] = v
        for i in range(na):
            alive[i] = order[i]


@kernel
def combat_salt(st, cb):
    """Tells apart the decisions of one combat, which may share the game generator's state
    (no dice between them): ``search_seed``'s ``part`` for a stage decision (>= 8, a multiple
    of 8, so it never meets a turn part's)."""
    code = (cb[CB_STAGE] * 64 + st[S.TABLE_N] + st[S.TABLE_N + 1]) * 8 + cb[CB_NATT]
    return 8 + 8 * code


@kernel(nrt=True)  # it owns the fair-play check's fog copy
def plan_search(st, g, gr, opt, rank, p, seat, part, salt, dk, n, cfg, cand):
    """Search seat's decision (``dk``, options ``cand[:n]``) that begins ``part`` of p's turn
    or the current stage of the combat under way (``cfg``: seat's row of ``scfg``), and hand
    the choice to the rules as the planned decision (``pol[POL_PLAN_*]``, answered once by ``checks.decide``). With
    FLAG_FAIR_CHECK the same search is taken on a fogged copy of the state and must
    agree."""
    pol = g.pol
    gr.pol[0] = pol[POL_ROLLOUT + seat]  # the rollouts: both seats play seat's style
    gr.pol[1] = pol[POL_ROLLOUT + seat]
    gr.params[0] = g.params[seat]
    gr.params[1] = g.params[seat]
    cands = stack_empty(MAXOPT, np.int64)
    base = search_seed(g.rng, seat, salt)
    budget = int(cfg[SC_BUDGET])
    moves = int(cfg[SC_MOVES])
    nc = candidates(st, g.cb, gr, cand, seat, dk, n, base, cands, moves)
    k = search_decision(st, g.cb, gr, opt, rank, p, seat, part, dk, n, budget, base, cands, nc,
                        cfg)  # fmt: skip
    if (pol[POL_FLAGS] & FLAG_FAIR_CHECK) != 0:
        # fair play: the same decision on a state whose hidden cards are different
        fog = fog_copy(st, g.dsize, pol, seat, dk, n)
        nc = candidates(fog, g.cb, gr, cand, seat, dk, n, base, cands, moves)
        k2 = search_decision(fog, g.cb, gr, opt, rank, p, seat, part, dk, n, budget, base,
                             cands, nc, cfg)  # fmt: skip
        if k2 != k:
            raise AssertionError("fair play: a decision depends on cards the player may not see")
    pol[POL_PLAN_DK] = dk
    pol[POL_PLAN_SEAT] = seat
    pol[POL_PLAN_K] = k
    pol[POL_PLAN_N] = n


@kernel
def search_turn(st, g, gr, opt, rank, p, scfg, cand):
    """p's player turn with the searching seats' decisions chosen by search (the rest by
    their rollout styles, or by the policy of a seat that does not search): if p searches,
    its discard, first move and combat; in the combat that follows, every decision of a
    searching seat that begins a stage (``combat_phase.stage_options``): the defender's
    Withdraw and defence cards, the attacker's step-5 cards and supporting units, and the
    choice between a hit and a retreat. Returns True if the game ended."""
    pol = g.pol
    budget = int(scfg[p, SC_BUDGET]) if pol[p] == POLICY_SEARCH else 0
    for part in _PARTS:
        if budget > 0:
            dk, n = first_options(st, g, opt, p, part, cand)
            if n > 1:
                plan_search(st, g, gr, opt, rank, p, p, part, part, dk, n, scfg[p], cand)
        if part != PH_COMBAT:
            if turn_phases(st, g, opt, p, part, part + 1):
                return True
        else:
            st[S.ACTIVE] = p
            log(g.tr, g.trn, EV_PHASE, p, PHASE_COMBAT, 0, 0, 0)
            declare_combat(st, g, p)
        if pol[POL_PLAN_DK] != 0:
            raise AssertionError("search: the rules never asked the planned decision")
    search_combat(st, g, gr, opt, rank, p, scfg, cand)
    log(g.tr, g.trn, EV_PHASE, p, PHASE_COMBAT, 1, 0, 0)
    return after_combat(st, g, opt, p)


@kernel
def search_combat(st, g, gr, opt, rank, p, scfg, cand):
    """Play the Assault or Ambush under way in p's turn (``cb[CB_STAGE]``) stage by stage
    (rule 6.1), each stage's decision searched when a searching seat takes it."""
    pol = g.pol
    cb = g.cb
    while cb[CB_STAGE] != D.STAGE_NONE:
        seat, dk, n = stage_options(st, g, p, cand)
        if n > 1 and pol[seat] == POLICY_SEARCH and scfg[seat, SC_BUDGET] > 0:
            salt = combat_salt(st, cb)
            plan_search(st, g, gr, opt, rank, p, seat, PH_COMBAT, salt, dk, n, scfg[seat], cand)
        combat_stage(st, g, p)
        if pol[POL_PLAN_DK] != 0:
            raise AssertionError("search: the rules never asked the planned decision")


@kernel(nrt=True)
def rollout_context(g):
    """The rollouts' context beside the game's ``g``: its own policies, parameters (both
    seats play the searching seat's rollout style, set by ``plan_search``), generator,
    scratch and current combat; untraced."""
    return Context(
        g.units, g.cards, g.dsize, g.tprops, g.uowner, np.zeros_like(g.pol),
        np.empty_like(g.params), np.zeros(4, dtype=np.uint64), np.zeros_like(g.opts),
        g.cb.copy(), np.zeros((0, 6), dtype=np.int32), np.zeros(1, dtype=np.int32), g.player,
    )  # fmt: skip


@kernel(nrt=True)
def play_game_search(st, tables, pol, params, scfg, rng, opt, tr, trn):
    """``game.play_game`` with the search player in the seats whose policy is
    ``POLICY_SEARCH`` (``scfg[seat, SC_BUDGET]`` rollouts per decision)."""
    x = np.zeros((0, NFEAT), dtype=np.float64)
    meta = np.zeros((0, 3), dtype=np.int32)
    play_search_game_rows(st, tables, pol, params, scfg, rng, opt, tr, trn, x, meta)


@kernel(nrt=True)
def play_search_game_rows(st, tables, pol, params, scfg, rng, opt, tr, trn, x, meta):
    """``play_game_search``, traced into ``tr`` (none when it has no rows), that also writes,
    before each player turn of p while ``x`` has room for two more rows, seat 0's and seat
    1's features (``features.features``) into ``x[k]`` with ``meta[k]`` = (seat, p, game
    turn): the rows of ``positions.py`` (none when ``x`` has no rows). Returns the rows
    written."""
    g = new_context(tables, pol, params, rng, tr, trn)
    set_up_game(st, g, tables, opt)
    rank = tables.rank
    gr = rollout_context(g)
    cand = np.zeros_like(g.opts)
    first = st[S.FIRST]
    turn = 1
    k = 0
    while st[S.OVER] == 0:
        st[S.TURN] = turn
        log(tr, trn, EV_TURN, first, turn, 0, 0, 0)
        ended = False
        for i in range(2):
            p = first if i == 0 else 1 - first
            if k + 2 <= x.shape[0]:
                for s in range(2):
                    features(st, g.units, g.cards, g.uowner, g.dsize, s, p, x[k])
                    meta[k, 0] = s
                    meta[k, 1] = p
                    meta[k, 2] = turn
                    k += 1
            ended = search_turn(st, g, gr, opt, rank, p, scfg, cand)
            if ended:
                break  # attrition victory: the game ends at once (rule 2.1)
        if ended or end_game_turn(st, g, opt, rank, turn):
            break
        turn += 1
    log(tr, trn, EV_END, st[S.WINNER], st[S.WINNER], st[S.VICTORY], st[S.VP], st[S.VP + 1])
    return k
