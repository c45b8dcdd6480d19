"""The rule options of a game and the policy flags (the ``opt`` and ``pol`` arrays that
``play_game`` takes).

``opt``: ndarray(int32, (N_OPTIONS,)), one slot per option below; ``pol``: ndarray(int32,
(POL_SIZE,)), slots ``POL_*`` below: the policy id of each seat (``players``), the FLAG_*
bits, a planned decision (the search player's choice, ``search.py``) and the rollout policy
of a search player's seat.
"""

from __future__ import annotations

import numpy as np

# --- rule options: ndarray(int32, (N_OPTIONS,)) ---------------------------------------------
OPT_TOURNAMENT_HAND = 0  # rule 3: each player chooses its 5 starting cards
OPT_ADVANCE_TO_CONTACT = 1  # Distant Lands: 3, then 2, then 1 moves in the first game turns
OPT_DIGGING_IN = 2  # Distant Lands: skip the move, discard the whole hand
OPT_MAX_TURNS = 3  # safety limit on game turns (see docs/RULE_INTERPRETATIONS.md)
OPT_CHECK = 4  # 1: check invariants after every step and raise on a violation
N_OPTIONS = 5

# --- the policies: ndarray(int32, (POL_SIZE,)) -----------------------------------------------
POL_FLAGS = 2  # slots 0 and 1: the policy id of each seat; then the FLAG_* bits
POL_PLAN_DK = 3  # a planned decision: its kind (0 none), seat, option index and option count;
POL_PLAN_SEAT = 4  # ``checks.decide`` answers it without asking the policy, once
POL_PLAN_K = 5
POL_PLAN_N = 6
POL_ROLLOUT = 7  # 2 slots: per seat, the policy a search player plays its other decisions with
POL_SIZE = 9

FLAG_FAIR_CHECK = 1  # pol[2] bit: re-decide every decision on a fogged state (tests)
FLAG_FOG_OWN_HAND = 2  # pol[2] bit: fog the deciding player's own hand too, which every real
# policy reads: the mutation test that shows fair_check can fail


def rule_options(
    *,
    tournament_hand: bool = False,
    advance_to_contact: bool = False,
    digging_in: bool = False,
    max_turns: int = 200,
    check: bool = False,
) -> np.ndarray:
    """The ``opt`` array for the named rule options."""
    opt = np.zeros(N_OPTIONS, dtype=np.int32)
    opt[OPT_TOURNAMENT_HAND] = int(tournament_hand)
    opt[OPT_ADVANCE_TO_CONTACT] = int(advance_to_contact)
    opt[OPT_DIGGING_IN] = int(digging_in)
    opt[OPT_MAX_TURNS] = max_turns
    opt[OPT_CHECK] = int(check)
    return opt
