"""One complete game of Manoeuvre as a numba kernel (rules 2-9): the game context, which
links the players in, and ``play_game``.

The rules enumerate the legal options at each decision (``decisions.py``), the seat's policy
chooses (``players/``), and the rules apply the choice. The turn loop is ``turns.py`` (set-up,
the five phases of a player turn, the end of the game), the phases beside it: ``setup.py``,
``movement.py``, ``combat_phase.py`` and ``combat_steps.py``, ``restoration.py``, with every
decision passing through ``checks.py`` (``decide``) and the rule options in ``options.py``.
The rules call the players only through the context's pointer: this module, which builds
the context, is the one that imports them.

The kernels of a game share one context ``g`` (a :class:`Context` named tuple, which numba
passes as a typed tuple), built once by ``play_game``:

    g = Context(units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player)

    units   ndarray(int32, (NUNITS, NUF))     unit table
    cards   ndarray(int32, (2, MAXC, NCF))    both card tables
    dsize   ndarray(int32, (2,))              deck sizes
    tprops  ndarray(int32, (n_codes, 7))      terrain properties (board.py)
    uowner  ndarray(int32, (NUNITS,))         owner of each unit id
    pol     ndarray(int32, (3,))              policy id per seat (players/), then flags (options.py)
    params  ndarray(float64, (2, NPARAM))     policy parameters per seat
    rng     ndarray(uint64, (4,))             the game's RNG state (rng.py)
    opts    ndarray(int32, (MAXOPT, 4))       scratch for decision options
    cb      ndarray(int32, (CB_SIZE,))        the current combat (decisions.py, CB_*)
    tr      ndarray(int32, (n, 6))            trace rows (n = 0: no trace)
    trn     ndarray(int32, (1,))              trace rows used
    player  the seats' policies, ``players.choose`` as a function pointer (dispatch.py,
            ``CHOOSE_SIG``): the rules call the players through it and so compile without
            them; ``new_context`` takes it, a context built in Python defaults to ``CHOOSE``

and take the state ``st`` (ndarray(int32, (STATE_SIZE,)), state.py) first; ``opt``
(ndarray(int32, (N_OPTIONS,))) holds the rule options (OPT_*, options.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from manoeuvre_sim.core.jit import kernel
from manoeuvre_sim.manoeuvre.combat import assault_band
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.checks import check_invariants, decide
from manoeuvre_sim.manoeuvre.engine.combat_phase import assault, combat_options, combat_phase
from manoeuvre_sim.manoeuvre.engine.combat_steps import retreat
from manoeuvre_sim.manoeuvre.engine.decisions import (
    CB_ATT,
    CB_DLEADER,
    CB_INIT_CARD,
    CB_KIND,
    CB_LEADER,
    CB_NATT,
    CB_SIZE,
)
from manoeuvre_sim.manoeuvre.engine.movement import movement_phase
from manoeuvre_sim.manoeuvre.engine.options import (
    FLAG_FAIR_CHECK,
    FLAG_FOG_OWN_HAND,
    N_OPTIONS,
    OPT_ADVANCE_TO_CONTACT,
    OPT_CHECK,
    OPT_DIGGING_IN,
    OPT_MAX_TURNS,
    OPT_TOURNAMENT_HAND,
)
from manoeuvre_sim.manoeuvre.engine.players.dispatch import CHOOSE, choose_entry
from manoeuvre_sim.manoeuvre.engine.restoration import restoration_phase
from manoeuvre_sim.manoeuvre.engine.rules import EV_END, log
from manoeuvre_sim.manoeuvre.engine.setup import build_map, deal, place_units, set_up_battlefield
from manoeuvre_sim.manoeuvre.engine.turns import (
    PH_COMBAT,
    PH_DISCARD,
    PH_END,
    PH_MOVE,
    check_attrition,
    discard_phase,
    player_turn,
    run_turns,
    score_nightfall,
    set_up_game,
    spy_step,
)

# Also what callers have always imported from here (tests, runner, benchmarks): the game's
# kernels by phase (turns.py and the phases' modules), the rule options, and the fields of
# the current combat.
__all__ = [
    "Context",
    "CB_ATT", "CB_DLEADER", "CB_INIT_CARD", "CB_KIND", "CB_LEADER", "CB_NATT", "CB_SIZE",
    "FLAG_FAIR_CHECK", "FLAG_FOG_OWN_HAND", "N_OPTIONS", "OPT_ADVANCE_TO_CONTACT", "OPT_CHECK",
    "OPT_DIGGING_IN", "OPT_MAX_TURNS", "OPT_TOURNAMENT_HAND",
    "PH_COMBAT", "PH_DISCARD", "PH_END", "PH_MOVE",
    "assault", "assault_band", "build_map", "check_attrition", "check_invariants",
    "combat_options", "combat_phase", "deal", "decide", "discard_phase", "movement_phase",
    "place_units", "play_game", "player_turn", "python_context", "restoration_phase", "retreat",
    "score_nightfall", "set_up_battlefield", "spy_step",
]  # fmt: skip


class Context(NamedTuple):
    """The game context ``g`` the kernels share (fields: the module docstring)."""

    units: np.ndarray
    cards: np.ndarray
    dsize: np.ndarray
    tprops: np.ndarray
    uowner: np.ndarray
    pol: np.ndarray
    params: np.ndarray
    rng: np.ndarray
    opts: np.ndarray
    cb: np.ndarray
    tr: np.ndarray
    trn: np.ndarray
    player: object = CHOOSE


@kernel(nrt=True)
def new_context(tables, pol, params, rng, tr, trn):
    """The game context ``g`` of a match-up (the module docstring). Its player pointer
    cannot be returned to Python: there, use :func:`python_context`."""
    units, cards, dsize, rank, tprops, sections, section_numbers = tables
    uowner = np.empty(S.NUNITS, dtype=np.int32)
    for u in range(S.NUNITS):
        uowner[u] = u // S.MAXU_SIDE
    opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
    cb = np.zeros(CB_SIZE, dtype=np.int32)
    cb[CB_LEADER] = -1
    cb[CB_DLEADER] = -1
    player = choose_entry()  # links the players here, not in the rules (dispatch.py)
    return Context(units, cards, dsize, tprops, uowner, pol, params, rng, opts, cb, tr, trn, player)


def python_context(tables, pol, params, rng, tr, trn):
    """:func:`new_context` built in Python (tests, benchmarks), to hand to kernels: the same
    arrays, the players through ``CHOOSE``."""
    uowner = (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)
    cb = np.zeros(CB_SIZE, dtype=np.int32)
    cb[CB_LEADER] = -1
    cb[CB_DLEADER] = -1
    opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
    return Context(tables.units, tables.cards, tables.deck_size, tables.tprops, uowner, pol,
                   params, rng, opts, cb, tr, trn)  # fmt: skip


@kernel(inline="always")  # one call site or two: no compile of its own
def play_game(st, tables, pol, params, rng, opt, tr, trn):
    """Play one whole game from an empty state; the result is in ``st``. ``tables`` is the
    match-up's :class:`~manoeuvre_sim.manoeuvre.engine.pack.Tables`."""
    g = new_context(tables, pol, params, rng, tr, trn)
    set_up_game(st, g, tables, opt)
    run_turns(st, g, opt, tables.rank, 1)
    log(tr, trn, EV_END, st[S.WINNER], st[S.WINNER], st[S.VICTORY], st[S.VP], st[S.VP + 1])
