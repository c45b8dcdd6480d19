"""Invariants of a Maneuver position, checked after every phase when ``O_CHECK`` is set
(the tests play thousands of random games so): each broken one sets a ``CHK_*`` bit."""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.scenario import MAXU

CHK_STACKING = 1  # rule [6]: over the stacking limit after a phase
CHK_MIXED = 2  # rule [6]: units of both sides in one hex (a captured Capital aside)
CHK_CAPITAL_MOVED = 4  # rule [11]: a Capital off its set-up hex
CHK_CONSERVATION = 8  # a unit neither on the map nor in the dead pile, or the dead pile
#                       not equal to eliminations minus replacements (rule [10])
CHK_END = 16  # rule [12]: a game that ended otherwise than by the rules
CHK_CAPITAL_DUTY = 32  # rule [11]: an attack owed that only units of the Capital's hex could
#                        make (set by ``combat.combat_phase``)
CHK_NAMES = ("stacking", "mixed hex", "capital moved", "conservation", "end", "capital duty")


@kernel
def check_state(st, g, ended):
    bad = 0
    B.refresh(st, g)
    for u in range(S.NU):
        p = st[S.POS + u]
        if g.units[u, 0] < 0:
            continue
        if p < S.DEAD:
            bad |= CHK_CONSERVATION
        if p >= 0 and B.present(st, u):
            if not B.fits(st, g, u, p, 0):
                bad |= CHK_STACKING
            if g.wk[S.W_OCC + 1 - u // MAXU, p] > 0:
                bad |= CHK_MIXED
    for s in range(2):
        if st[S.POS + s * MAXU] != st[S.CAP_HOME + s]:
            bad |= CHK_CAPITAL_MOVED
        dead = 0
        for u in range(s * MAXU, s * MAXU + MAXU):
            if st[S.POS + u] == S.DEAD:
                dead += 1
        if dead != st[S.ELIM + s] - st[S.REPL_IN + s]:
            bad |= CHK_CONSERVATION
    if ended:
        w = st[S.WINNER]
        if st[S.TURN] > g.opt[S.O_TURNS] or w < 0:
            bad |= CHK_END
        if st[S.VICTORY] == S.VIC_CAPITAL:
            if (
                w > 1
                or st[S.CAP_CAPTURED + 1 - w] == 0
                or B.combat_units_on_map(st, w) < B.combat_units_on_map(st, 1 - w) + 2
            ):
                bad |= CHK_END
        elif st[S.VICTORY] == S.VIC_DRAW:
            if w != 2 or st[S.TURN] != g.opt[S.O_TURNS]:
                bad |= CHK_END
        else:
            bad |= CHK_END
    return bad
