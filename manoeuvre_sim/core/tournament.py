"""The tournament of players, written once over the game interface (issue 31).

Every pair of players (x, y) plays *seats*: pairings of the game in which x and y take the
two sides, each seat a number of games. Which seats a pair plays is the game's: Manoeuvre
mirrors each army in both seatings on one seed (``tournament.py``), Maneuver plays blue
against red with the players swapped, each seating on its own seed (``hex tournament``).
The rest is here once: one task per seat through ``study.play`` (so a tournament has the
study store, ``--resume`` and the Dask backend), each pair's score from x's view (a draw
half a win), and the games of the pairs that finished, every seat of them, in seat order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from manoeuvre_sim.core.study import Pairing, Progress, Task, play


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


@dataclass(frozen=True)
class Seat:
    """One pairing of a tournament: pair ``pair`` (its players x, y) with y on side a when
    ``swapped``, ``games`` games; ``columns``: what its records get besides the game's own
    (assigned in this order after the study's ``pairing`` and ``label`` are dropped)."""

    pair: int
    swapped: bool
    pairing: Pairing
    games: int
    columns: dict = field(default_factory=dict)


def run(
    pairs: Sequence[tuple[str, str]],
    seats: Sequence[Seat],
    *,
    game: str | None = None,
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

    kw = {} if game is None else {"game": game}
    out = play(pairings, tasks, options=options, threads=threads, store=store,
               manifest=manifest, on_frame=on_frame,
               progress=Progress(progress, sum(t.count for t in tasks)), backend=backend,
               resume=resume, **kw)  # fmt: skip
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    finished = {k for k in range(len(pairs)) if k not in pair_frames and results[k].games}
    return TournamentResult(
        [r for k, r in enumerate(results) if k in finished], frame,
        {"interrupted": out.interrupted, "backend": out.backend, "seconds": out.seconds,
         "threads": out.threads, "tasks_resumed": getattr(out, "tasks_resumed", 0)},
        out.interrupted,
    )  # fmt: skip
