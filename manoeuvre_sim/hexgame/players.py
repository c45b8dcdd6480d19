"""Maneuver's players: every choice the rules give, decided over the whole board.

A decision is a list of options in ``Ctx.wk[W_OPTS, :n]`` (hexes, units, masks: see the
``D_*`` kinds) and two context integers ``a``, ``b``; a player returns an index in
``0..n-1``, drawing any randomness from its own generator (``Ctx.rngs[1 + side]``).

- ``random`` (0): uniform over the legal options, the rules' reference.
- ``capital`` (1): goes for the enemy Capital; attacks whenever its estimate is at least
  ``params[1]``; advances toward the Capital.
- ``attrition`` (2): holds a line on its own side, attacks only at an estimated difference
  of ``params[1]`` or better (default +3), never advances.

Scripted players score each option and take the best, ties broken at random.
``params[side]``: ``ndarray(float64, shape=(NPARAM,))``: 0 weight on the distance to the
target (enemy Capital or nearest enemy unit), 1 the estimated difference (attack minus
defence strengths, dice excluded) from which it attacks voluntarily, 2 weight on staying on
its own side of the border, 3 the cost of a retreat that eliminates the unit.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core.jit import kernel, stack_empty
from manoeuvre_sim.core.rng import keep_best, uniform_below
from manoeuvre_sim.hexgame import POLICIES, parse_policy, search_scope
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import lookahead as LA
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.scenario import CAVALRY, H_BORDER_DIST, H_SIDE, INFANTRY, MAXU, U_TYPE

P_RANDOM, P_CAPITAL, P_ATTRITION = 0, 1, 2
# the search player (``search.py``): pol = P_SEARCH + 8 * budget + 4 * (1 if it searches
# its movement plans only, scope ``moves``) + its style (1 or 2)
P_SEARCH = 4
NPARAM = 4
# a study device, not a rule: an optional fifth parameter, > 0: the player sets its Capital
# up uniformly among the hexes rule [3] allows (``hex setup --capital random``); parameter
# arrays of NPARAM columns (every player's default) never read it
P_CAPITAL_ANYWHERE = NPARAM
DEFAULT_PARAMS = {
    "random": (0.0, 0.0, 0.0, 0.0),
    "capital": (1.0, 1.0, 0.0, 100.0),
    "attrition": (1.0, 3.0, 5.0, 100.0),
}

# decision kinds
D_SETUP, D_REPLACE, D_MOVE, D_KEEP, D_ATTACKER = 0, 1, 2, 3, 4
D_DEFENDERS, D_JOIN, D_WITHDRAW, D_RETREAT, D_ADVANCE = 5, 6, 7, 8, 9
DECISION_NAMES = (
    "setup", "replacement", "move", "stacking keep", "attacker", "defenders", "join",
    "withdraw", "retreat", "advance",
)  # fmt: skip


def policy_arrays(policy_blue, policy_red, params_blue=None, params_red=None):
    """``pol`` int32[2] and ``params`` float64[2, NPARAM] for two named policies."""
    pol = np.zeros(2, dtype=np.int32)
    wide = any(p is not None and len(p) > NPARAM for p in (params_blue, params_red))
    params = np.zeros((2, NPARAM + 1 if wide else NPARAM), dtype=np.float64)
    for s, (name, p) in enumerate(((policy_blue, params_blue), (policy_red, params_red))):
        base, budget, style = parse_policy(name)  # ValueError for an unknown spec
        if base == "search":
            moves_only = 0 if search_scope(name) == "all" else 1
            pol[s] = P_SEARCH + 8 * budget + 4 * moves_only + POLICIES.index(style)
            name = style
        else:
            pol[s] = POLICIES.index(base)
        p = DEFAULT_PARAMS[name] if p is None else p
        params[s, : len(p)] = p
    return pol, params


@kernel(inline="always")
def style_of(p):
    """The scripted style a policy id plays (a search player's own style)."""
    return p if p < P_SEARCH else p & 3


@kernel(inline="always")
def budget_of(p):
    """A search player's rollouts per movement phase (0 for the other players)."""
    return (p - P_SEARCH) >> 3 if p >= P_SEARCH else 0


@kernel(inline="always")
def searches_combat(p):
    """A search player of scope ``all``: it searches its combat decisions too."""
    return p >= P_SEARCH and ((p - P_SEARCH) >> 2) & 1 == 0


@kernel(inline="always")
def _dies(st, g, side, h):
    """A unit of ``side`` retreating into ``h`` is eliminated (rule [8]). Needs refresh."""
    if g.wk[S.W_ZOC + 1 - side, h] == 0:
        return False
    for v in range(side * MAXU, side * MAXU + MAXU):
        if st[S.POS + v] == h and B.present(st, v) and not (st[S.FLAGS + v] & S.F_RETREATING):
            return False
    return True


@kernel(inline="always")
def _nearest_enemy(st, g, side, h):
    best = 99
    for v in range((1 - side) * MAXU, (1 - side) * MAXU + MAXU):
        if B.present(st, v):
            d = g.dist[h, st[S.POS + v]]
            if d < best:
                best = d
    return best


@kernel(inline="always")
def _hex_defence(st, g, side, k):
    """Defence strength of the enemy units in hex ``k`` (supply ignored)."""
    t = 0
    for v in range((1 - side) * MAXU, (1 - side) * MAXU + MAXU):
        if st[S.POS + v] == k and B.present(st, v):
            t += B.strength(st, g, v, False, False)
    return t


@kernel(inline="always")
def _hex_odds(st, g, side, k):
    """Estimated difference if every unused friendly unit beside ``k`` attacked it."""
    a = 0
    for v in range(side * MAXU, side * MAXU + MAXU):
        h = st[S.POS + v]
        if h >= 0 and B.present(st, v) and not (st[S.FLAGS + v] & S.F_USED) and g.dist[h, k] == 1:
            a += B.strength(st, g, v, True, False)
    return a - _hex_defence(st, g, side, k)


@kernel(inline="always")
def _score(st, g, side, kind, o, a, b, p):
    """A scripted player's value of option ``o`` (higher is better)."""
    style = style_of(g.pol[side])
    ec = B.capital_hex(st, 1 - side)
    oc = B.capital_hex(st, side)
    if kind == D_SETUP:
        if a % MAXU == 0:  # the Capital: far from the enemy side
            return float(g.hexes[o, H_BORDER_DIST])
        if ec >= 0 and style == P_CAPITAL:
            return -float(g.dist[o, ec])
        return -abs(float(g.hexes[o, H_BORDER_DIST]) - 2.5)
    if kind == D_MOVE:
        own = 1.0 if g.hexes[o, H_SIDE] == side else 0.0
        if style == P_CAPITAL and ec >= 0:
            return -p[0] * g.dist[o, ec] + p[2] * own
        return -p[0] * _nearest_enemy(st, g, side, o) + p[2] * own
    if kind == D_REPLACE:
        if o < 0:
            return -1.0
        return float(B.strength(st, g, o % S.NU, True, False)) + 1.0
    if kind == D_KEEP:
        return float(B.strength(st, g, o, True, False) + B.strength(st, g, o, False, False))
    if kind == D_ATTACKER:
        if o < 0:
            return p[1] - 0.5
        u = o
        h = st[S.POS + u]
        best = -99.0
        for d in range(6):
            k = g.nbr[h, d]
            if k >= 0 and g.wk[S.W_OCC + 1 - side, k] > 0:
                v = float(_hex_odds(st, g, side, k))
                if k == ec:
                    v += 1.0 if style == P_CAPITAL else 0.0
                best = max(best, v)
        return best
    if kind == D_DEFENDERS:
        h = st[S.POS + a]
        n = 0
        dsum = 0
        for d in range(6):
            if o & (1 << d):
                n += 1
                dsum += _hex_defence(st, g, side, g.nbr[h, d])
        return -10.0 * n - dsum
    if kind == D_JOIN:
        return float(o)
    if kind == D_WITHDRAW or kind == D_RETREAT:  # noqa: SIM109 (numba)
        if o < 0:
            return 0.0
        v = 0.5 - p[3] * _dies(st, g, side, o)
        if oc >= 0:
            v -= 0.1 * g.dist[o, oc]
        if g.wk[S.W_OCC + side, o] > 0:
            v -= 2.0  # a chain retreat
        return v
    if kind == D_ADVANCE:
        if o < 0:
            return 0.0
        if style != P_CAPITAL or ec < 0:
            return -0.5
        return float(g.dist[st[S.POS + a], ec] - g.dist[o, ec])
    return 0.0


@kernel
def choose(st, g, side, kind, n, a, b):
    """The index of the option ``side``'s player takes among ``wk[W_OPTS, :n]``."""
    rng = g.rngs[1 + side]
    if n == 1:
        return 0
    if kind == D_SETUP and a % MAXU == 0 and g.params.shape[1] > NPARAM:
        if g.params[side, P_CAPITAL_ANYWHERE] > 0.0:  # the study device (above)
            return uniform_below(rng, n)
    sr = g.srch[side]
    if sr[S.SR_MODE] == S.SR_REPLAY:  # the search player's chosen movement plan
        c = sr[S.SR_CUR]
        if c >= sr[S.SR_LEN] or sr[S.SR_PLAN + 2 * c] != n:
            raise RuntimeError("search: the movement plan replayed out of step")
        sr[S.SR_CUR] = c + 1
        return sr[S.SR_PLAN + 2 * c + 1]
    if sr[S.SR_MODE] == S.SR_ATTACK and kind >= D_ATTACKER and kind <= D_JOIN:
        # the attack the combat search chose (search.py), built as the rules ask (combat.py)
        if kind == D_ATTACKER:
            want = sr[S.SR_A_UNIT]
        elif kind == D_DEFENDERS:
            want = sr[S.SR_A_MASK]
        else:
            want = (sr[S.SR_A_JOIN] >> (a % MAXU)) & 1
        for i in range(n):
            if g.wk[S.W_OPTS, i] == want:
                return i
        raise RuntimeError("search: the chosen attack is not a legal one")
    if g.pol[side] == P_RANDOM:
        return uniform_below(rng, n)
    p = g.params[side]
    noise = sr[S.SR_NOISE] * 0.01 if sr[S.SR_MODE] == S.SR_RECORD else 0.0
    # the combat search's retreats, withdrawals and advances: a one-step lookahead
    look = kind >= D_WITHDRAW and searches_combat(g.pol[side]) and sr[S.SR_MODE] == S.SR_OFF
    if noise == 0.0 and not look and (kind == D_MOVE or kind == D_SETUP):  # noqa: SIM109
        bi = _choose_hex(st, g, side, kind, n, a, p, rng)
    elif kind == D_ATTACKER:
        bi = _choose_attacker(st, g, side, n, p, rng, noise)
    else:
        bi = _choose_scored(st, g, side, kind, n, a, b, p, rng, noise, look)
    if sr[S.SR_MODE] == S.SR_RECORD:  # a candidate plan being drawn up (search.py)
        c = sr[S.SR_LEN]
        if c < S.SR_MAXD:
            sr[S.SR_PLAN + 2 * c] = n
            sr[S.SR_PLAN + 2 * c + 1] = bi
            sr[S.SR_LEN] = c + 1
    return bi


@kernel(inline="always")
def _choose_hex(st, g, side, kind, n, a, p, rng):
    """``choose`` among the hexes of a set-up or a move without noise or lookahead: the
    values ``_score`` gives, computed with what does not change between the options (the
    style, the target, the weights) read once, the same draws in the same order."""
    opts = g.wk[S.W_OPTS]
    style = style_of(g.pol[side])
    ec = B.capital_hex(st, 1 - side)
    best = -np.inf
    bi = 0
    ties = 0
    if kind == D_SETUP:
        cap = a % MAXU == 0
        toward = ec >= 0 and style == P_CAPITAL
        for i in range(n):
            o = opts[i]
            if cap:
                v = float(g.hexes[o, H_BORDER_DIST])
            elif toward:
                v = -float(g.dist[o, ec])
            else:
                v = -abs(float(g.hexes[o, H_BORDER_DIST]) - 2.5)
            best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
        return bi
    w0 = p[0]
    w2 = p[2]
    if style == P_CAPITAL and ec >= 0:
        for i in range(n):
            o = opts[i]
            own = 1.0 if g.hexes[o, H_SIDE] == side else 0.0
            v = -w0 * g.dist[o, ec] + w2 * own
            best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
        return bi
    # the nearest enemy unit: its hexes listed once (``_nearest_enemy``)
    eh = stack_empty(MAXU, np.int64)
    ne = 0
    for v in range((1 - side) * MAXU, (1 - side) * MAXU + MAXU):
        if B.present(st, v):
            eh[ne] = st[S.POS + v]
            ne += 1
    for i in range(n):
        o = opts[i]
        own = 1.0 if g.hexes[o, H_SIDE] == side else 0.0
        near = 99
        for j in range(ne):
            d = g.dist[o, eh[j]]
            if d < near:
                near = d
        v = -w0 * near + w2 * own
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@kernel(inline="always")
def _choose_attacker(st, g, side, n, p, rng, noise):
    """``choose``'s first attacker: ``_score``'s values with each enemy hex's estimate
    (``_hex_odds``) found once per decision, not once per unit beside it."""
    opts = g.wk[S.W_OPTS]
    style = style_of(g.pol[side])
    ec = B.capital_hex(st, 1 - side)
    kh = stack_empty(MAXU, np.int64)  # the enemy hexes estimated so far
    kv = stack_empty(MAXU, np.float64)  # and their estimates
    nk = 0
    best = -np.inf
    bi = 0
    ties = 0
    for i in range(n):
        o = opts[i]
        if o < 0:
            v = p[1] - 0.5
        else:
            h = st[S.POS + o]
            v = -99.0
            for d in range(6):
                k = g.nbr[h, d]
                if k >= 0 and g.wk[S.W_OCC + 1 - side, k] > 0:
                    j = 0
                    while j < nk and kh[j] != k:
                        j += 1
                    if j == nk:
                        kh[j] = k
                        kv[j] = float(_hex_odds(st, g, side, k))
                        nk += 1
                    x = kv[j]
                    if k == ec:
                        x += 1.0 if style == P_CAPITAL else 0.0
                    v = max(v, x)
        if noise > 0.0:
            v += noise * uniform_below(rng, 1024) / 1024.0
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@kernel(inline="always")
def _choose_scored(st, g, side, kind, n, a, b, p, rng, noise, look):
    """``choose``'s argmax over ``_score`` (with the search's noise or lookahead)."""
    best = -np.inf
    bi = 0
    ties = 0
    for i in range(n):
        v = _score(st, g, side, kind, g.wk[S.W_OPTS, i], a, b, p)
        if look:
            o = g.wk[S.W_OPTS, i]
            dies = o >= 0 and kind != D_ADVANCE and _dies(st, g, side, o)
            v = LA.after(st, g, side, a, o, dies) + LA.STYLE_WEIGHT * v
        if noise > 0.0:
            v += noise * uniform_below(rng, 1024) / 1024.0
        best, bi, ties = keep_best(v, i, best, bi, ties, 1e-9, rng)
    return bi


@kernel(inline="always")
def is_line(g, u):
    t = g.units[u, U_TYPE]
    return t == INFANTRY or t == CAVALRY  # noqa: SIM109 (numba)
