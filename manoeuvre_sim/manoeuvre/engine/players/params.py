"""The heuristic policy's parameter vector: one slot per weight (``H_*``), and the
styles as vectors of it (``attritional``, ``territorial``, ``balanced``, ``tuned``).
"""

from __future__ import annotations

import numpy as np

# --- parameters: ndarray(float64, (NPARAM,)) per seat ---------------------------------------
H_HIT = 0  # value of one step taken off an enemy unit (full -> reduced)
H_ELIM = 1  # value of eliminating a reduced enemy unit (a full one: H_HIT + H_ELIM)
H_OWN = 2  # multiplier on own losses (risk aversion)
H_ATTACK = 3  # least expected value for which a combat is started
H_ADVANCE = 4  # value of moving a unit from its home edge to the enemy edge (per 7 rows)
H_CONTROL = 5  # value of a unit standing in the enemy half (nightfall squares, rule 2.2)
H_TERRAIN = 6  # value per point of terrain defence where enemies are near
H_THREAT = 7  # weight of the expected loss from adjacent enemy units
H_OPP = 8  # weight of the attack opportunities a square gives next turn
H_KEEP = 9  # discard cards whose value is below this
H_CYCLE = 10  # added to H_KEEP when ahead late in the day (play for nightfall)
H_CARD = 11  # cost of spending a card, per point of card value
H_GROUND = 12  # value of ground won (defender retreats, attacker advances)
H_CA = 13  # multiplier on the cost of a Committed Attack's hit
H_DEFGUESS = 14  # defence the defender's unseen cards are expected to add
H_SWITCH = 15  # 1: balanced posture switch on
H_CHURN = 16  # a full hand sheds its weakest card if worth less than H_KEEP + H_CHURN
NPARAM = 17

PARAM_NAMES = (
    "hit", "elim", "own_loss", "attack_min", "advance", "control", "terrain", "threat",
    "opportunity", "keep", "cycle", "card_cost", "ground", "committed_cost", "def_guess",
    "switch", "churn",
)  # fmt: skip

# fmt: off
#                        hit  elim own  atk   adv  ctl  ter   thr  opp  keep cyc  card  grd   ca   dg   sw   churn
ATTRITIONAL = np.array([1.0, 1.6, 1.0, 0.0,  1.0, 0.3, 0.25, 0.8, 1.5, 3.0, 0.0, 0.03, 0.35, 0.8, 1.5, 0.0, 2.0])
TERRITORIAL = np.array([1.0, 1.3, 1.3, 0.1,  2.0, 1.2, 0.35, 1.1, 0.6, 3.5, 1.0, 0.05, 0.6,  1.5, 2.0, 0.0, 3.0])
BALANCED = np.array(   [1.0, 1.6, 1.0, 0.0,  1.6, 0.6, 0.25, 0.5, 1.5, 4.5, 1.0, 0.03, 0.35, 0.8, 1.5, 1.0, 2.0])
# fmt: on


def _style(base: np.ndarray, **values: float) -> np.ndarray:
    """``base`` with the named parameters changed (a parameter appended later keeps the
    base's value)."""
    out = np.array(base, dtype=np.float64)
    for name, v in values.items():
        out[PARAM_NAMES.index(name)] = v
    return out


# tuned by self-play (docs/tuning.md, "The tuned style"): CMA-ES from balanced against attritional, territorial and balanced, the 8 armies
# mirrored, both seatings; 40 generations of 12 candidates, 960 games each (521,200 games,
# 1,587 s on a loaded machine), rules 2026.11-4 with the players' card-play fixes, data
# 8886f7b0b3b32164:
#   manoeuvre-sim tune --base balanced --pool attritional,territorial,balanced \
#       --pairings mirror --games-per-eval 960 --generations 40 --sigma 2 --seed 2026 \
#       --eval-games 4400 --out reports/tune
# held-out (4,400 games each, 95% Wilson): balanced 0.562 [0.548, 0.577], attritional 0.755
# [0.742, 0.767], territorial 0.819 [0.808, 0.830], simple 0.936 [0.928, 0.943], random 1.000
# [0.999, 1.000].
# Kept after the players' card worth became saturating (2026-11-24): on those players it
# beats balanced 0.553 [0.538, 0.567] (tournament --games 4400 --seed 7), and it beats
# 0.529 [0.514, 0.544] the vector the same command makes on them (tuned_new; docs/tuning.md).
# The default player since then (manoeuvre_sim.DEFAULT_POLICY).
TUNED = _style(
    BALANCED, hit=1.0, elim=1.6328, own_loss=1.5781, attack_min=-0.278, advance=4.6242,
    control=0.0938, terrain=0.2524, threat=0.1403, opportunity=1.9923, keep=5.6117,
    cycle=1.7128, card_cost=0.0758, ground=0.4326, committed_cost=0.558, def_guess=1.5112,
    switch=1.0, churn=2.4942,
)  # fmt: skip
