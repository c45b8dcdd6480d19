"""Per-card-copy statistics of one game, read off its event trace (for card-value studies).

A game played with a trace (``engine/rules.py`` documents the events) is scanned once into
``ndarray(int32, (2, n_cards, NCS))``: for each player and card copy (index = ``card_no - 1``
of ``armies export``), the fields below. The scan only reads the trace, so a game's record
is the same whether or not its card statistics are taken.
"""

from __future__ import annotations

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine.rules import (
    EV_DISCARD,
    EV_DRAW,
    EV_PLAY,
    EV_SPY,
    EV_TURN,
    PURPOSE_BANZAI,
    PURPOSE_MAHARAJA,
)

CS_DRAWN = 0  # 1 if the copy was drawn (the opening hand included)
CS_OPENING = 1  # 1 if it was in the opening hand (drawn before game turn 1)
CS_PLAYS = 2  # times it was played
CS_TURNS = 3  # sum of the game turns in which it was played
CS_DISCARDS = 4  # times it was discarded unplayed (the Discard Phase, or Digging In)
CS_DISCARD_T1 = 5  # 1 if it was discarded in game turn 1 (the opening hand thrown away)
CS_USE = 6  # CS_USE + k: plays for use k, k = rules.PURPOSE_* (1..14), and:
USE_SPY = 15  # played as Scout/Spy (rules.EV_SPY)
USE_FIRE = 16  # played to start a bombardment, volley or Grand Battery (PURPOSE_INITIATE
#                is kept for starting an assault or an ambush)
USE_BANZAI = 17  # played as Banzai Charge (rules.PURPOSE_BANZAI, 15, which USE_SPY holds)
USE_MAHARAJA = 18  # played as a Maharaja with a leader (rules.PURPOSE_MAHARAJA, 16: USE_FIRE's)
NCS = CS_USE + 19

# the names of the use fields, index k -> name (manoeuvre/studies/card_observed.py reports them)
USE_NAMES = (
    "", "attack_start", "defense", "attack", "leader_combat", "leader_command", "committed",
    "sappers", "skirmish", "withdraw", "restore", "redoubt", "supply_move", "forced_march",
    "guerrilla", "spy", "fire", "banzai", "maharaja",
)  # fmt: skip


@kernel
def scan_trace(tr, trn, out):
    """Add one game's per-copy statistics to ``out`` (int32, (2, n_cards, NCS)), zeroed
    by the caller. ``tr[:trn]``: the game's trace rows (event, player, a, b, c, d)."""
    turn = 0
    nc = out.shape[1]
    for i in range(trn):
        ev = tr[i, 0]
        p = tr[i, 1]
        if ev == EV_TURN:
            turn = tr[i, 2]
        elif ev == EV_DRAW:
            c = tr[i, 2]
            if c < nc:
                out[p, c, CS_DRAWN] = 1
                if turn == 0:
                    out[p, c, CS_OPENING] = 1
        elif ev == EV_DISCARD:
            c = tr[i, 2]
            if c < nc:
                out[p, c, CS_DISCARDS] += 1
                if turn == 1:
                    out[p, c, CS_DISCARD_T1] = 1
        elif ev == EV_PLAY or ev == EV_SPY:  # noqa: SIM109 (numba)
            c = tr[i, 2]
            if c < nc:
                out[p, c, CS_PLAYS] += 1
                out[p, c, CS_TURNS] += turn
                if ev == EV_SPY:
                    use = USE_SPY
                else:
                    use = tr[i, 3]
                    if use == PURPOSE_BANZAI:
                        use = USE_BANZAI
                    elif use == PURPOSE_MAHARAJA:
                        use = USE_MAHARAJA
                    elif use == 1:  # PURPOSE_INITIATE: the combat kind is in d
                        kind = tr[i, 5]
                        if (
                            kind == D.CK_BOMBARD
                            or kind == D.CK_VOLLEY
                            or kind == D.CK_GRAND_BATTERY
                            or kind == D.CK_ROCKETS
                        ):
                            use = USE_FIRE
                out[p, c, CS_USE + use] += 1
