"""Maneuver's search player (``search[:BUDGET[:STYLE[:SCOPE]]]``): Monte Carlo over its
movement plans, and over its attacks with the results table's dice stratified.

Movement is deterministic (rule [6]: no dice), the combat results table is not (rule [8]).

**Movement plans.** At the start of each of its movement phases the player draws up ``K``
candidate plans, playing the movement phase (its replacement, rule [10], included) on a
copy of the state with its scripted style (``capital`` or ``attrition``, ``players.py``):
plan 0 the style as it is, the others with noise added to every option's score, and notes
every decision a plan takes (``players.choose`` in record mode). Each distinct plan is then
valued by ``M`` rollouts: the rest of the game (from this combat phase, the whole board
seen) played on a copy of the position after the plan, both sides by the style, up to
``HORIZON`` game turns ahead; a rollout scores 1 for a win, 0 for a loss and, for a game
still open at the horizon or drawn, 1/2 plus ``MARGIN`` per combat unit ahead and
``CAPITAL`` for each Capital held against the other. Every plan meets the same rollout dice
(common random numbers). The best mean is played: the real movement phase replays the noted
decisions (``players.choose`` in replay mode).

**Attacks** (scope ``all``, the default). Before each attack of its combat phase (the game
pauses there, ``game.ATTACK_PAUSE``), ``plan_attack`` draws up the candidate attacks
(``search_combat.py``: the attack the style would build first, then every legal first
attacker and set of defending hexes, with every unit that may join or alone, and the end of
the phase where rule [8] allows it) and values each by ``M`` rollouts from the attack on:
the attack is resolved, the rest of the game played as a movement plan's rollouts are. The
attack's own roll is stratified: rollout ``m`` rolls the ``floor((m + u) 36 / M)``-th of the
36 equally likely d6 - d6 (``u`` one uniform offset per decision), so with ``M >= 36`` every
dice pair is rolled once per 36 rollouts and the value is the expectimax over the results
table (exact probabilities, ``crt.py``) of the rollouts' leaf values; below, a stratified
sample of it. Every candidate meets the same rolls and rollout dice. A candidate replaces
the style's attack only if its gain, paired rollout by rollout, is above ``Z_GAIN``
standard errors (the better lower bound wins). Retreats, cavalry withdrawals and advances
after combat come after the dice inside an attack; they are chosen by a one-step lookahead
on the position each option leaves (``lookahead.py``), at any budget. Scope ``moves`` is
the player before the combat search: its combat decisions are its style's.

**Budget.** ``BUDGET`` (``B``, default 32) sets ``K = isqrt(B)`` plans (at least 2, at most
``MAX_PLANS``) of ``M = B // K`` rollouts each: ``B`` rollouts per movement phase. Each attack
decision with more than one candidate costs ``M`` rollouts per candidate (at most
``search_combat.MAX_CAND`` candidates), so the combat search costs more than the movement
search wherever there is more than ``K`` candidate attacks.

Randomness: every plan's noise, every rollout's dice and every stratified roll come from
streams seeded by one draw of the player's own generator (``rngs[1 + side]``) per movement
phase and per attack; the game's dice (``rngs[0]``) are never read or advanced, so the
search cannot change the dice the game rolls, and records are the same on any number of
threads. A rollout never searches (its players are scripted), so the kernels do not recurse.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import next_u64, seed_state
from manoeuvre_sim.hexgame import game as G
from manoeuvre_sim.hexgame import players as PL
from manoeuvre_sim.hexgame import search_combat as SX
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.players import NPARAM
from manoeuvre_sim.hexgame.scenario import MAXU
from manoeuvre_sim.hexgame.search_combat import MAX_CAND
from manoeuvre_sim.hexgame.state import NOPT, SR_N, STATE_SIZE, TRACE_COLS

MAX_PLANS = 16
HORIZON = 3  # game turns a rollout plays ahead (rule [12]'s end comes sooner if due)
MARGIN = 0.02  # a rollout's value per combat unit ahead at the horizon
CAPITAL = 0.2  # a rollout's value per enemy Capital held at the horizon
NOISE = 300  # plans 1..K-1: noise on the scripted scores, in hundredths (up to 3 hexes)
MAX_ROLL = 256  # the most rollouts a plan or attack gets (budget 4096: 16 plans of 256)
Z_GAIN = 2.0  # an attack replaces the style's only when its paired gain is 2 s.e. above 0


@kernel
def plan_shape(budget):
    """``(K, M)``: the plans weighed and the rollouts each, for ``budget`` rollouts."""
    k = 2
    while (k + 1) * (k + 1) <= budget:
        k += 1
    k = min(k, MAX_PLANS)
    return k, max(1, budget // k)


@kernel
def value(st, side):
    """A finished rollout's value for ``side`` (the module docstring)."""
    w = st[S.WINNER]
    if w == side:
        return 1.0
    if w == 1 - side:
        return 0.0
    v = 0.5
    ahead = 0
    for u in range(side * MAXU + 1, side * MAXU + MAXU):
        if st[S.POS + u] >= 0:
            ahead += 1
    for u in range((1 - side) * MAXU + 1, (1 - side) * MAXU + MAXU):
        if st[S.POS + u] >= 0:
            ahead -= 1
    v += MARGIN * ahead + CAPITAL * (st[S.CAP_CAPTURED + 1 - side] - st[S.CAP_CAPTURED + side])
    return min(0.95, max(0.05, v))


@kernel(inline="always")
def _copy(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel(inline="always")
def _zero(a):
    for s in range(a.shape[0]):
        for i in range(a.shape[1]):
            a[s, i] = 0


@kernel(inline="always")
def _rollout_ctx(g, side, turn):
    """The rollouts' context for ``side``'s search in game turn ``turn``, its own arrays on
    the caller's stack (this kernel is inlined into its callers, so its ``stack_empty``
    arrays are theirs, living until the caller returns): the game's options without checks
    and cut at the horizon, both sides played by ``side``'s style and parameters, its own
    generators (``rngs``), no trace, its plan rows (``srch``) zeroed; the game's tables and
    scratch rows (``wk``) shared."""
    opt = stack_empty(NOPT, np.int32)
    pol = stack_empty(2, np.int32)
    params = stack_empty((2, NPARAM), np.float64)
    rngs = stack_empty((3, 4), np.uint64)
    tr = stack_empty((1, TRACE_COLS), np.int32)
    trn = stack_empty(1, np.int32)
    srch = stack_empty((2, SR_N), np.int32)
    for i in range(NOPT):
        opt[i] = g.opt[i]
    opt[S.O_CHECK] = 0
    opt[S.O_TURNS] = min(g.opt[S.O_TURNS], turn + HORIZON - 1)
    pol[0] = PL.style_of(g.pol[side])
    pol[1] = pol[0]
    for s in range(2):
        for i in range(NPARAM):
            params[s, i] = g.params[side, i]
    trn[0] = 1  # a rollout writes no trace
    _zero(srch)
    return S.Ctx(
        g.units, g.hexes, g.nbr, g.dist, opt, pol, params, rngs, g.wk, tr, trn, srch
    )  # fmt: skip


@kernel
def plan_movement(st, g, side, turn, k):
    """Draw up, value and choose ``side``'s movement plan for player turn ``k`` of game turn
    ``turn``; leaves it in ``g.srch[side]`` in replay mode."""
    p = g.pol[side]
    nplans, nroll = plan_shape(PL.budget_of(p))
    seed = next_u64(g.rngs[1 + side])  # the player's own stream: one draw per phase
    plans = stack_empty((MAX_PLANS, SR_N), np.int32)
    vals = stack_empty(MAX_PLANS, np.float64)
    sp = stack_empty(STATE_SIZE, np.int32)
    sr = stack_empty(STATE_SIZE, np.int32)
    h = _rollout_ctx(g, side, turn)
    rngs, srch = h.rngs, h.srch
    best = -1.0
    bi = 0
    for j in range(nplans):
        _copy(sp, st)
        for r in range(3):
            seed_state(seed, np.uint64(1000 + j * 3 + r), rngs[r])
        _zero(srch)
        srch[side, S.SR_MODE] = S.SR_RECORD
        srch[side, S.SR_NOISE] = 0 if j == 0 else NOISE
        G.movement_phase(sp, h, side)
        _copy(plans[j], srch[side])
        _zero(srch)
        same = -1
        for i in range(j):
            if plans[i, S.SR_LEN] == plans[j, S.SR_LEN]:
                eq = True
                for c in range(S.SR_PLAN, S.SR_PLAN + 2 * plans[j, S.SR_LEN]):
                    if plans[i, c] != plans[j, c]:
                        eq = False
                        break
                if eq:
                    same = i
                    break
        if same >= 0:
            vals[j] = vals[same]
            continue
        tot = 0.0
        for m in range(nroll):
            _copy(sr, sp)
            for r in range(3):  # the same rollout dice for every plan
                seed_state(seed, np.uint64(m * 3 + r), rngs[r])
            if G.play_from(sr, h, turn, k, G.PH_COMBAT) >= 0:
                raise RuntimeError("search: a rollout paused")
            tot += value(sr, side)
        vals[j] = tot / nroll
        if vals[j] > best + 1e-12:
            best = vals[j]
            bi = j
    _copy(g.srch[side], plans[bi])
    g.srch[side, S.SR_MODE] = S.SR_REPLAY
    g.srch[side, S.SR_CUR] = 0
    g.srch[side, S.SR_NOISE] = 0


@kernel
def plan_attack(st, g, side, turn, k):
    """Choose ``side``'s next attack (or the end of its combat phase) in player turn ``k``
    of game turn ``turn``, between two attacks: each candidate (``search_combat``) valued
    by ``M`` rollouts from the attack on, its roll stratified over the 36 dice pairs and
    the rest as a movement plan's rollouts; leaves it in ``g.srch[side]`` (SR_ATTACK)."""
    p = g.pol[side]
    _, nroll = plan_shape(PL.budget_of(p))
    seed = next_u64(g.rngs[1 + side])  # the player's own stream: one draw per attack
    cu = stack_empty(MAX_CAND, np.int32)
    cm = stack_empty(MAX_CAND, np.int32)
    cj = stack_empty(MAX_CAND, np.int32)
    sp = stack_empty(STATE_SIZE, np.int32)
    sr = stack_empty(STATE_SIZE, np.int32)
    base = stack_empty(MAX_ROLL, np.float64)
    # the game's scratch rows: between two attacks none holds anything the game reads again
    h = _rollout_ctx(g, side, turn)
    rngs, srch = h.rngs, h.srch
    for r in range(3):
        seed_state(seed, np.uint64(5000 + r), rngs[r])
    _copy(sp, st)
    nc = SX.candidates(sp, h, side, cu, cm, cj)
    if nc == 0:
        raise RuntimeError("search: paused before an attack with no attack to make")
    shift = (seed >> np.uint64(40)) % np.uint64(1024)
    best = 0.0
    bi = 0
    for c in range(nc if nc > 1 else 0):
        tot = 0.0
        tot2 = 0.0
        for m in range(nroll):
            _copy(sr, st)
            for r in range(3):  # the same rollout dice for every candidate
                seed_state(seed, np.uint64(m * 3 + r), rngs[r])
            _zero(srch)
            srch[side, S.SR_MODE] = S.SR_ATTACK
            srch[side, S.SR_A_UNIT] = cu[c]
            srch[side, S.SR_A_MASK] = cm[c]
            srch[side, S.SR_A_JOIN] = cj[c]
            j = ((m * 1024 + int(shift)) * 36) // (nroll * 1024)  # stratified: every 36th
            srch[side, S.SR_DICE] = SX.diff_at(j % 36) + 6
            if G.play_from(sr, h, turn, k, G.PH_ATTACKS) >= 0:
                raise RuntimeError("search: a rollout paused")
            v = value(sr, side)
            if c == 0:
                base[m] = v
                continue
            tot += v - base[m]
            tot2 += (v - base[m]) * (v - base[m])
        if c == 0:
            continue
        # the gain over the style's attack, paired rollout by rollout: its lower bound
        mean = tot / nroll
        var = max(0.0, tot2 / nroll - mean * mean) / max(1, nroll - 1)
        low = mean - Z_GAIN * np.sqrt(var)
        if low > best + 1e-12:
            best = low
            bi = c
    g.srch[side, S.SR_MODE] = S.SR_ATTACK
    g.srch[side, S.SR_A_UNIT] = cu[bi]
    g.srch[side, S.SR_A_MASK] = cm[bi]
    g.srch[side, S.SR_A_JOIN] = cj[bi]
    g.srch[side, S.SR_DICE] = 0


@kernel
def play_game(st, g):
    """One game from ``clear_state`` to its end, search players drawing up their plans
    and choosing their attacks (``search_combat.plan_attack``)."""
    _zero(g.srch)
    G.start_game(st, g)
    r = G.play_from(st, g, 1, 0, G.PH_MOVE)
    while r >= 0:
        at = r >= G.ATTACK_PAUSE
        r = r % G.ATTACK_PAUSE
        turn = r // 2
        k = r % 2
        side = st[S.FIRST] if k == 0 else 1 - st[S.FIRST]
        if at:
            plan_attack(st, g, side, turn, k)
            r = G.play_from(st, g, turn, k, G.PH_ATTACKS)
        else:
            plan_movement(st, g, side, turn, k)
            r = G.play_from(st, g, turn, k, G.PH_MOVE)
