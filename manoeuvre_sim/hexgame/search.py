"""Maneuver's search player (``search[:BUDGET[:STYLE]]``): Monte Carlo over movement plans.

Movement is deterministic (rule [6]: no dice), the combat results table is not (rule [8]),
so the player searches its *movement plans*. At the start of each of its movement phases it
draws up ``K`` candidate plans, playing the movement phase on a copy of the state with its
scripted style (``capital`` or ``attrition``, ``players.py``): plan 0 the style as it is,
the others with noise added to every option's score, and notes every decision a plan takes
(``players.choose`` in record mode). Each distinct plan is then valued by ``M`` rollouts:
the rest of the game (from this combat phase, the whole board seen) played on a copy of the
position after the plan, both sides by the style, up to ``HORIZON`` game turns ahead; a
rollout scores 1 for a win, 0 for a loss and, for a game still open at the horizon or drawn,
1/2 plus ``MARGIN`` per combat unit ahead and ``CAPITAL`` for each Capital held against the
other. Every plan meets the same rollout dice (common random numbers), so plans are
compared on the same luck. The best mean is played: the real movement phase replays the
noted decisions (``players.choose`` in replay mode). Its combat-phase decisions are its
style's. The budget (``K * M``) is the rollouts per movement phase: ``K = isqrt(budget)``
plans (at least 2, at most ``MAX_PLANS``), ``M = budget // K`` rollouts each.

Randomness: every plan's noise and every rollout's dice come from streams seeded by one draw
of the player's own generator (``rngs[1 + side]``) per movement phase; the game's dice
(``rngs[0]``) are never read or advanced, so the search cannot change the dice the game
rolls. A rollout never searches (its players are scripted), so the kernels do not recurse.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.hexgame import game as G
from manoeuvre_sim.hexgame import players as PL
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.players import NPARAM
from manoeuvre_sim.hexgame.scenario import MAXU
from manoeuvre_sim.hexgame.state import NOPT, SR_N, STATE_SIZE, TRACE_COLS
from manoeuvre_sim.jit import kernel, stack_empty
from manoeuvre_sim.rng import next_u64, seed_state

MAX_PLANS = 16
HORIZON = 3  # game turns a rollout plays ahead (rule [12]'s end comes sooner if due)
MARGIN = 0.02  # a rollout's value per combat unit ahead at the horizon
CAPITAL = 0.2  # a rollout's value per enemy Capital held at the horizon
NOISE = 300  # plans 1..K-1: noise on the scripted scores, in hundredths (up to 3 hexes)


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


@kernel
def _ctx(g, opt, pol, params, rngs, tr, trn, srch):
    return S.Ctx(
        g.units, g.hexes, g.nbr, g.dist, opt, pol, params, rngs, g.wk, tr, trn, srch
    )  # fmt: skip


@kernel
def plan_movement(st, g, side, turn, k):
    """Draw up, value and choose ``side``'s movement plan for player turn ``k`` of game turn
    ``turn``; leaves it in ``g.srch[side]`` in replay mode."""
    p = g.pol[side]
    style = PL.style_of(p)
    nplans, nroll = plan_shape(PL.budget_of(p))
    seed = next_u64(g.rngs[1 + side])  # the player's own stream: one draw per phase
    opt = stack_empty(NOPT, np.int32)
    pol = stack_empty(2, np.int32)
    params = stack_empty((2, NPARAM), np.float64)
    rngs = stack_empty((3, 4), np.uint64)
    tr = stack_empty((1, TRACE_COLS), np.int32)
    trn = stack_empty(1, np.int32)
    srch = stack_empty((2, SR_N), np.int32)
    plans = stack_empty((MAX_PLANS, SR_N), np.int32)
    vals = stack_empty(MAX_PLANS, np.float64)
    sp = stack_empty(STATE_SIZE, np.int32)
    sr = stack_empty(STATE_SIZE, np.int32)
    for i in range(NOPT):
        opt[i] = g.opt[i]
    opt[S.O_CHECK] = 0
    opt[S.O_TURNS] = min(g.opt[S.O_TURNS], turn + HORIZON - 1)
    pol[0] = style
    pol[1] = style
    for s in range(2):
        for i in range(NPARAM):
            params[s, i] = g.params[side, i]
    trn[0] = 1  # a rollout writes no trace
    _zero(srch)
    h = _ctx(g, opt, pol, params, rngs, tr, trn, srch)
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
def play_game(st, g):
    """One game from ``clear_state`` to its end, search players drawing up their plans."""
    _zero(g.srch)
    G.start_game(st, g)
    r = G.play_from(st, g, 1, 0, G.PH_MOVE)
    while r >= 0:
        turn = r // 2
        k = r % 2
        side = st[S.FIRST] if k == 0 else 1 - st[S.FIRST]
        plan_movement(st, g, side, turn, k)
        r = G.play_from(st, g, turn, k, G.PH_MOVE)
