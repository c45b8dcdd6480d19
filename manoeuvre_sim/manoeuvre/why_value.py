"""Manoeuvre's learned position value along one game of a study (what the adapter's
``why_value`` hook returns, ``core/game_hooks.py``; docs/why.md, "The games that show it").

The game is played again exactly as the study played it (the pairing's packed armies and
card patches, its players, the rule options, generator (seed, game)) by the search
driver's game with its rows (``engine/search.py`` ``play_search_game_rows``, what the
value's training positions are made by), which writes each seat's features at the start
of every player turn; the learned value (``engine/players/value.py``, model
:data:`~manoeuvre_sim.manoeuvre.engine.policy_ids.VALUE_MODEL`) turns them into each
seat's chance to win, from what that seat sees. Its trace is checked to be the trace the
replay page plays (a test), and each player turn is placed on the replay page's event
numbers (:func:`page_events`: the events the page steps through, counted from 1).

A *decision* is a player turn (rule 4: the active player's discard, draw, movement,
combat and restoration). Decision k's row holds the value at its start and the event it
starts at.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.manoeuvre.engine import rules as R

MAX_TURNS = 400  # player turns kept (200 game turns: far beyond any game's limit)
MAX_EVENTS = 200_000  # trace rows (the replay's own bound)


def _model():
    from manoeuvre_sim.manoeuvre.engine.players.value import load_value
    from manoeuvre_sim.manoeuvre.engine.policy_ids import VALUE_MODEL

    return VALUE_MODEL, load_value(VALUE_MODEL)


def values_of(model: dict, x: np.ndarray) -> np.ndarray:
    """The learned value (``value.value_of``, the same logistic in numpy) of feature rows
    ``x`` (n, NFEAT)."""
    z = model["intercept"] + ((x - model["mean"]) / model["scale"]) @ model["coef"]
    return 1.0 / (1.0 + np.exp(-np.maximum(z, -30.0)))


def page_events(trace: np.ndarray) -> list[int]:
    """Per player turn of ``trace`` (its EV_PHASE discard-begins, in order), the replay
    page's number of the first event it shows of it: the page steps through every trace
    row but the detail rows (EV_DIE, EV_VIA: part of the next event) and the bookkeeping
    ones (EV_PHASE, EV_DECLINE; ``replay/steps.py`` SILENT), numbered from 1."""
    out, shown = [], 0
    for row in trace:
        ev = int(row[0])
        if ev == R.EV_PHASE:
            if int(row[2]) == R.PHASE_DISCARD and int(row[3]) == 0:
                out.append(shown + 1)  # the next event the page shows
            continue
        if ev in (R.EV_DIE, R.EV_VIA, R.EV_DECLINE):
            continue
        shown += 1
    return out


def played_rows(pairing, game: int, tables, opt):
    """``(trace, x, meta, rows)`` of game ``game`` of ``pairing`` as a study plays it (the
    module docstring) from its packed ``tables`` (its patches applied) and the kernels'
    rule options ``opt`` (the adapter's ``prepare``); ``x[:rows]``/``meta[:rows]`` the
    features and (seat, mover, game turn) of each seat at the start of each player turn."""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays, search_config
    from manoeuvre_sim.manoeuvre.engine.players.features import NFEAT
    from manoeuvre_sim.manoeuvre.engine.search import play_search_game_rows

    pol, params = policy_arrays(pairing.policy_a, pairing.policy_b, params_a=pairing.params_a,
                                params_b=pairing.params_b)  # fmt: skip
    scfg = search_config(pairing.policy_a, pairing.policy_b)
    st = S.new_state()
    tr = np.zeros((MAX_EVENTS, 6), dtype=np.int32)
    trn = np.zeros(1, dtype=np.int32)
    x = np.zeros((2 * MAX_TURNS, NFEAT), dtype=np.float64)
    meta = np.zeros((2 * MAX_TURNS, 3), dtype=np.int32)
    rng = new_state(pairing.seed, game)
    rows = play_search_game_rows(st, tables, pol.copy(), params, scfg, rng, opt, tr, trn, x,
                                 meta)  # fmt: skip
    return tr[: trn[0]].copy(), x, meta, int(rows)


def value_along(pairing, game: int, tables, opt) -> tuple[str, list[dict]]:
    """The learned value along game ``game`` of ``pairing`` (the module docstring; the
    adapter's ``why_value`` packs its ``tables`` and ``opt``): the model's name and one row
    per decision (player turn): ``decision`` (1..), ``event`` (the replay page's event it
    starts at), ``turn`` (the game turn), ``mover`` ("a"/"b"), ``value_a``, ``value_b``
    (each seat's chance to win at its start, from its own view)."""
    name, model = _model()
    trace, x, meta, rows = played_rows(pairing, game, tables, opt)
    v = values_of(model, x[:rows])
    events = page_events(trace)
    out = []
    for k in range(rows // 2):
        a, b = 2 * k, 2 * k + 1  # seat 0's row, then seat 1's
        out.append({"decision": k + 1, "event": events[k] if k < len(events) else None,
                    "turn": int(meta[a, 2]), "mover": "ab"[int(meta[a, 1])],
                    "value_a": float(v[a]), "value_b": float(v[b])})  # fmt: skip
    return name, out


__all__ = ["page_events", "played_rows", "value_along", "values_of"]
