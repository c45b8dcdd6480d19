"""``simulate`` written once over the game interface (issue 31): games ``first .. first +
games - 1`` of one pairing in tasks of ``block`` games, each a part of the study store as it
finishes (so ``--resume`` reads it back), on the local or the Dask backend.

What a game's ``simulate`` plays (its pairing, rule options and what decides the games) is
its adapter's ``simulate_plan``; the commands (``simulate``, ``hex simulate``) add their
output's manifest. Game ``i`` is seeded from the pairing's seed and ``i`` alone, so the
frame is one local run's whatever the blocks, the backend or an interruption.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import resolve
from manoeuvre_sim.core.study import (
    Pairing,
    PlayOutcome,
    Progress,
    SimulatePlan,
    blocks,
    play,
)


def run(
    game,
    plan: SimulatePlan,
    *,
    block: int,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Any, PlayOutcome]:
    """Play ``plan`` (a game's ``simulate_plan``) of ``game`` (a key of the registry, or a
    game module): see :func:`play_range`."""
    return play_range(plan.pairing, plan.first, plan.games, block=block, game=game,
                      options=plan.options, manifest=plan.ident, threads=threads, store=store,
                      backend=backend, resume=resume, progress=progress,
                      flags=plan.flags)  # fmt: skip


def plan(
    game,
    side_a: str,
    side_b: str,
    *,
    policy_a: str | None = None,
    policy_b: str | None = None,
    seed: int = 1,
    first: int = 0,
    games: int = 1000,
    options=None,
) -> SimulatePlan:
    """What ``simulate`` plays for a game without a ``simulate_plan`` of its own: games
    ``first .. first + games - 1`` of ``side_a`` (seat a) against ``side_b`` (specs the
    game's ``load_side`` reads), seeded from ``seed`` and the game's number alone."""
    g = resolve(game)
    a, b = g.load_side(side_a), g.load_side(side_b)
    pa, pb = policy_a or g.DEFAULT_POLICY, policy_b or g.DEFAULT_POLICY
    for flag, value, least in (("--games", games, 1), ("--first-game", first, 0)):
        if value < least:
            raise UsageError(f"{flag}: expected {'a positive number' if least else '0 or more'}"
                             f", got {value}")  # fmt: skip
    options = options if options is not None else g.Options()
    ident = {"study": "simulate", "game": g.KEY, "rules_version": g.RULES_VERSION,
             "data_hash": g.data_hash([a, b], options), "seed": seed,
             "players": [pa, pb]}  # fmt: skip
    return SimulatePlan(Pairing(a, b, pa, pb, seed, "games"), first, games, options, ident)


def play_range(
    pairing: Pairing,
    first: int,
    games: int,
    *,
    block: int,
    game,
    options,
    manifest: dict,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    flags: dict | None = None,
) -> tuple[Any, PlayOutcome]:
    """Games ``first .. first + games - 1`` of one pairing in tasks of ``block`` games
    (:func:`run`; ``game``: a key or a game module): each task a part of
    ``store`` as it finishes, so ``resume`` reads it back; game ``i`` seeded from the
    pairing's seed and ``i`` alone, so the frame is one local run's whatever the blocks,
    the backend or an interruption. Returns ``(frame, outcome)``: the games in order (the
    game's columns, without ``pairing`` and ``label``) and :func:`play`'s outcome.
    ``manifest``: what decides the games (a resumed store must match it);
    ``progress(done, games)``."""
    import pandas as pd

    if block < 1:
        raise UsageError(f"--block: expected a positive number of games, got {block}")
    frames: list[pd.DataFrame] = []
    out = play([pairing], blocks(0, first, first + games, block), game=game, options=options,
               threads=threads, store=store, manifest=manifest,
               on_frame=lambda t, df, cs: frames.append(df), progress=Progress(progress, games),
               backend=backend,
               resume=resume, flags=flags)  # fmt: skip
    df = (pd.concat(frames, ignore_index=True).drop(columns=["pairing", "label"])
          if frames else pd.DataFrame())  # fmt: skip
    return df, out
