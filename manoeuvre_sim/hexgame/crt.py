"""Maneuver's combat results table (rule [8]), one place for the engine, the odds and the chart.

The rulebook's table is garbled in the text (its "+4 or more" row carries the legend of all
five results); the reading here (docs/RULE_INTERPRETATIONS.md, H1) is the one the rows give:

=================  ======  ==========================================
difference         result  meaning (rule [8])
=================  ======  ==========================================
+4 or more         DE      all defenders eliminated
+2 or +3           DR      all defenders retreat one hex
0 or +1            NE      no effect
-1 or -2           AR      all attackers retreat one hex
-3 or less         AE      all attackers eliminated
=================  ======  ==========================================

The difference is (attack strength + d6) - (defence strength + d6): each side rolls one die
(rule [8] steps 1-2), so the difference is the strengths' difference plus a triangular
d6 - d6 from -5 to +5.

Result codes (``int8``), ordered from the attacker's worst to its best:
``AE = 0, AR = 1, NE = 2, DR = 3, DE = 4``.
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.core.rng import roll_die

AE, AR, NE, DR, DE = 0, 1, 2, 3, 4
N_RESULTS = 5
RESULT_NAMES = ("AE", "AR", "NE", "DR", "DE")
RESULT_MEANING = (
    "all attackers eliminated",
    "all attackers retreat one hex",
    "no effect",
    "all defenders retreat one hex",
    "all defenders eliminated",
)
# the lowest difference of each result's band, AR..DE (AE is everything below AR's)
AR_FROM, NE_FROM, DR_FROM, DE_FROM = -2, 0, 2, 4


@kernel
def crt_result(difference):
    """The result code for ``difference`` = total attack - total defence (rule [8] table)."""
    if difference >= DE_FROM:
        return DE
    if difference >= DR_FROM:
        return DR
    if difference >= NE_FROM:
        return NE
    if difference >= AR_FROM:
        return AR
    return AE


@kernel
def combat_dice(rng):
    """The attacker's d6, then the defender's (rule [8]), as ``roll_combat`` draws them."""
    attack_die = roll_die(rng, 6)
    return attack_die, roll_die(rng, 6)


@kernel
def roll_combat(attack_strength, defence_strength, rng):
    """One combat's result code: each side adds one d6 to its strength (rule [8] steps 1-3).

    ``rng`` is the game's xoshiro256** state (``manoeuvre_sim.core.rng``); the attacker's die is
    drawn first, then the defender's. The engine and the odds simulator both roll here.
    """
    attack_total = attack_strength + roll_die(rng, 6)
    defence_total = defence_strength + roll_die(rng, 6)
    return crt_result(attack_total - defence_total)
