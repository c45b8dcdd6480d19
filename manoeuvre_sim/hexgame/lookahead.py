"""The combat search's one-step lookahead (``search[...]`` of scope ``all``, ``search.py``):
its retreat hexes, cavalry withdrawals and advances after combat (rule [8]).

These choices come after the dice, inside one attack's resolution, so the search cannot
roll the game on from them; it values instead the position each option leaves, with the
exact results table (``crt.py``): every hex holding units is assumed attacked next by every
enemy unit that could reach a hex beside it (within its movement allowance, rule [5], plus
one; zones of control and supply ignored), and a hex's units count ``1 - P(DE)`` each (the
chance that attack does not eliminate them), the Capital ``CAPITAL_UNITS`` units. The value
is the side's expected units left minus the enemy's: a retreat into an enemy zone of control
that eliminates the unit loses it outright (rule [8]), a hex within reach of strong enemies
costs its chance of a DE, an advance toward weak enemies gains the chance of destroying
them. The style's own score (``players._score``) is added at ``STYLE_WEIGHT`` to break near
ties.

No randomness and no scratch rows: the position is changed in place for the count and put
back, so the lookahead changes neither the game nor its dice.
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import DE_FROM
from manoeuvre_sim.hexgame.scenario import MAXU, U_MA

CAPITAL_UNITS = 3.0  # the Capital's worth in units (its capture is half of a victory, rule [12])
STYLE_WEIGHT = 0.05  # the style's score, a tie-breaker (a retreat's "dies" costs it 100)


@kernel(inline="always")
def p_de(difference):
    """P(DE) for strengths' ``difference`` (attack - defence): P(difference + d6 - d6 >= 4),
    exact in 36ths (rule [8]'s table, ``crt.py``)."""
    c = 0
    for x in range(-5, 6):
        if difference + x >= DE_FROM:
            c += 6 - abs(x)
    return c / 36.0


@kernel
def exposure_value(st, g, side):
    """``side``'s expected units left minus the enemy's if every hex with units were
    attacked once by all the enemy units within reach of it (the module docstring)."""
    v = 0.0
    for u in range(S.NU):
        if not B.present(st, u):
            continue
        s = u // MAXU
        h = st[S.POS + u]
        first = True
        for w in range(s * MAXU, u):
            if st[S.POS + w] == h and B.present(st, w):
                first = False
                break
        if not first:  # each hex once, from its lowest-numbered unit
            continue
        dfc = 0
        worth = 0.0
        for w in range(u, s * MAXU + MAXU):
            if st[S.POS + w] == h and B.present(st, w):
                dfc += B.strength(st, g, w, False, False)
                worth += CAPITAL_UNITS if w % MAXU == 0 else 1.0
        att = 0
        for w in range((1 - s) * MAXU, (1 - s) * MAXU + MAXU):
            if B.present(st, w) and g.dist[st[S.POS + w], h] <= g.units[w, U_MA] + 1:
                att += B.strength(st, g, w, True, False)
        keep = worth * (1.0 - p_de(att - dfc)) if att > 0 else worth
        v += keep if s == side else -keep
    return v


@kernel
def after(st, g, side, u, o, dies):
    """The value (``exposure_value``) for ``side`` of unit ``u`` moving to hex ``o`` (a
    retreat, withdrawal or advance; ``o < 0``: it stays), eliminated there if ``dies``."""
    h0 = st[S.POS + u]
    if dies:
        st[S.POS + u] = S.DEAD
    elif o >= 0:
        st[S.POS + u] = o
    v = exposure_value(st, g, side)
    st[S.POS + u] = h0
    return v
