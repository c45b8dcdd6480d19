"""One game with its full event log: for replays, golden transcripts and debugging."""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.manoeuvre.engine import state as S


def play_traced(
    army_a: str,
    army_b: str,
    *,
    seed: int,
    game: int = 0,
    policies: tuple[str, str] = ("simple", "simple"),
    max_events: int = 20000,
    check: bool = True,
    fair_play: int = 0,
    setup: str = "random",
    fixed_map: tuple[int, ...] | None = None,
    fixed_rot: tuple[int, ...] | None = None,
    include_unverified_maps: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of master ``seed`` (the same game ``simulate`` plays with that seed
    and index) and return ``(state, trace)``; ``trace`` is ``ndarray(int32, (n, 6))`` rows
    of (event, player, a, b, c, d) as documented in ``engine/rules.py``. ``setup``,
    ``fixed_map``, ``fixed_rot``, ``include_unverified_maps``: as ``runner.SimConfig``."""
    from manoeuvre_sim.manoeuvre.engine.options import rule_options
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays

    # the same arrays simulate() builds from a SimConfig with these fields (runner.py)
    _, _, P = load_packed(army_a, army_b, include_unverified_maps=include_unverified_maps)
    pol, params = policy_arrays(policies[0], policies[1], fair_play=fair_play)
    opt = rule_options(check=check, setup=setup, fixed_map=fixed_map, fixed_rot=fixed_rot)
    return play_tables_traced(P.tables, pol, params, opt, policies, seed, game, max_events)


def play_tables_traced(tables, pol, params, opt, policies, seed, game, max_events):
    """Game ``game`` of master ``seed`` from the packed ``tables``, policy arrays and rule
    options (as ``batch.play_games`` receives them) with its event trace: ``(state,
    trace)``. The search player's driver plays it when either of ``policies`` searches."""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine.game import play_game
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import search_config
    from manoeuvre_sim.manoeuvre.engine.policy_ids import is_search
    from manoeuvre_sim.manoeuvre.engine.search import play_game_search

    st = S.new_state()
    tr = np.zeros((max_events, 6), dtype=np.int32)
    trn = np.zeros(1, dtype=np.int32)
    rng = new_state(seed, game)
    if is_search(policies[0]) or is_search(policies[1]):
        scfg = search_config(policies[0], policies[1])
        # the search hands its choices to the rules through pol: play on a copy
        play_game_search(st, tables, pol.copy(), params, scfg, rng, opt, tr, trn)
    else:
        play_game(st, tables, pol, params, rng, opt, tr, trn)
    return st, tr[: trn[0]].copy()
