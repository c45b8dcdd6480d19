"""The tournament of players, written once over the game interface (issue 31).

Every pair of players (x, y) plays *seats*: pairings of the game in which x and y take the
two sides, each seat a number of games. Which seats a pair plays is the game's (its
adapter's ``tournament_plan``): Manoeuvre mirrors each army in both seatings on one seed
(``manoeuvre/tournament.py``), Maneuver plays blue against red with the players swapped,
each seating on its own seed (``hexgame/adapter.py``). The rest is here once: one task per seat through ``study.play`` (so a tournament has the
study store, ``--resume`` and the Dask backend), each pair's score from x's view (a draw
half a win), and the games of the pairs that finished, every seat of them, in seat order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game, hook
from manoeuvre_sim.core.study import (
    Pairing,
    Progress,
    Seat,
    Task,
    TournamentPlan,
    pairing_seed,
    play,
)


@dataclass
class PairResult:
    """A pair's games and its score: ``wins_a``, x's wins with a draw half a win."""

    a: str
    b: str
    games: int = 0
    wins_a: float = 0.0  # draws count half
    draws: int = 0

    @property
    def win_rate_a(self) -> float:
        return self.wins_a / self.games if self.games else float("nan")


@dataclass
class TournamentResult:
    pairs: list[PairResult]
    frame: object  # pandas DataFrame: one row per game, from the view of each side
    manifest: dict = field(default_factory=dict)
    interrupted: bool = False


def play_seats(
    pairs: Sequence[tuple[str, str]],
    seats: Sequence[Seat],
    *,
    game: str,
    options=None,
    manifest: dict,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play every seat of ``pairs`` (x, y names) and score each pair.

    ``manifest``: what decides the games of a part of the store (the number of games is
    the task's own); ``store``, ``backend``, ``resume``, ``threads``: as ``study.play``.
    A pair's games enter the frame once all its seats are played, so an interrupted
    tournament reports whole pairs only."""
    import pandas as pd

    pairings = [s.pairing for s in seats]
    tasks = [Task(k, 0, s.games) for k, s in enumerate(seats)]
    results = [PairResult(x, y) for x, y in pairs]
    n_seats = [sum(s.pair == k for s in seats) for k in range(len(pairs))]
    frames: list = []
    pair_frames: dict[int, list] = {}

    def on_frame(task: Task, df, cs=None) -> None:
        s = seats[task.pairing]
        win = df["winner"].to_numpy()
        xs = "b" if s.swapped else "a"
        pr = results[s.pair]
        pr.games += len(df)
        pr.wins_a += float((win == xs).sum()) + 0.5 * float((win == "draw").sum())
        pr.draws += int((win == "draw").sum())
        df = df.drop(columns=["pairing", "label"]).assign(**s.columns)
        pair_frames.setdefault(s.pair, []).append(df)
        if len(pair_frames[s.pair]) == n_seats[s.pair]:  # the whole pair: every seat
            frames.extend(pair_frames.pop(s.pair))

    out = play(pairings, tasks, game=game, options=options, threads=threads, store=store,
               manifest=manifest, on_frame=on_frame,
               progress=Progress(progress, sum(t.count for t in tasks)), backend=backend,
               resume=resume)  # fmt: skip
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    finished = {k for k in range(len(pairs)) if k not in pair_frames and results[k].games}
    return TournamentResult(
        [r for k, r in enumerate(results) if k in finished], frame,
        {"interrupted": out.interrupted, "backend": out.backend, "seconds": out.seconds,
         "threads": out.threads, "tasks_resumed": getattr(out, "tasks_resumed", 0)},
        out.interrupted,
    )  # fmt: skip


def run(
    game: str,
    players: Sequence[Any],
    games: int,
    seed: int,
    *,
    options=None,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    **game_kw,
) -> TournamentResult:
    """The tournament of ``players`` (the game's players: names, or Manoeuvre's styles) in
    ``game`` (a key of the registry): ``games`` games per pair as the game's
    ``tournament_plan`` seats them (``game_kw``: what else it takes, e.g. Manoeuvre's
    ``armies``; a game without one: :func:`mirror_plan`), every seat one task of ``study.play``. The result's manifest is the plan's
    (what the output records) with how the run went."""
    g = get_game(game)
    own = hook(g, "tournament_plan")
    if own is not None:
        plan = own(players, games, seed, options=options, **game_kw)
    else:
        plan = mirror_plan(g, players, games, seed, options=options, **game_kw)
    res = play_seats(
        plan.pairs, plan.seats, game=g.KEY, options=plan.options, manifest=plan.ident,
        threads=threads, store=store, backend=backend, resume=resume, progress=progress,
    )  # fmt: skip
    res.manifest = plan.manifest | res.manifest  # with how the run went
    return res


def mirror_plan(g, players: Sequence[str], games: int, seed: int, *, sides: Sequence[str],
                options=None) -> TournamentPlan:  # fmt: skip
    """The seats of a game without a ``tournament_plan`` of its own: each pair of players
    (x, y) meets on each of ``sides`` (specs ``g.load_side`` reads) against itself, so no
    side's strength leaks in, x in seat a then in seat b on one seed (common random
    numbers); ``games`` per pair, rounded up to a multiple of 2 x the number of sides."""
    names = list(players)
    if len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(f"--policies: expected two or more distinct players, got {names}")
    for p in names:
        if p not in g.POLICIES:
            raise UsageError(f"--policies: {p!r} is not a player of {g.KEY} "
                             f"({', '.join(g.POLICIES)})")  # fmt: skip
    if games < 1:
        raise UsageError(f"--games: expected a positive number of games, got {games}")
    loaded = [g.load_side(s) for s in sides]
    options = options if options is not None else g.Options()
    per = -(-games // (2 * len(loaded)))  # per side and seating
    pairs = [(x, y) for i, x in enumerate(names) for y in names[i + 1 :]]
    seats = []
    for k, (x, y) in enumerate(pairs):
        for side in loaded:
            s = pairing_seed(seed, f"{x}@{side.name}", f"{y}@{side.name}")
            for swap in (False, True):
                pa, pb = (y, x) if swap else (x, y)
                seats.append(Seat(k, swap, Pairing(side, side, pa, pb, s, f"pair{k}"), per,
                                  {"pair": k, "side": side.name}))  # fmt: skip
    manifest = {
        "tool": "manoeuvre-sim", "game": g.KEY, "study": "tournament",
        "rules_version": g.RULES_VERSION, "seed": seed, "players": names,
        "sides": [s.name for s in loaded], "data_hash": g.data_hash(loaded, options),
        "games_per_pair": 2 * len(loaded) * per,
    }  # fmt: skip
    ident = {k: v for k, v in manifest.items() if k != "games_per_pair"}
    return TournamentPlan(pairs, seats, options, ident, manifest)
