"""The tournament of players, the one tournament study of every game (issue 31, 39): its
spec, its command spec, its run and its output file.

Every pair of players (x, y) plays *seats*: pairings of the game in which x and y take the
two sides, each seat a number of games. Which seats a pair plays is the game's (its
adapter's ``tournament_plan``, declared in ``core.games.HOOKS``): Manoeuvre mirrors
each army in both seatings on one seed, Maneuver plays blue against red with the players
swapped, each seating on its own seed; a game without one: :func:`mirror_plan`. The rest is
here once: one task per seat through ``study.play`` (so a tournament has the study store,
``--resume`` and the Dask backend), each pair's score from x's view (a draw half a win), the
games of the pairs that finished, every seat of them, in seat order. The output file
(``--out FILE``, its finished tasks in ``FILE.store/`` while the run goes) and
:func:`run_spec` are the one-file studies' (``studies/one_file.py``), shared with
``simulate``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
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
from manoeuvre_sim.core.study_command import Option, StudyCommand, sides_option
from manoeuvre_sim.studies.one_file import Running, check_positive, one_file_store, run_spec

KIND = "tournament"
# the command (core/study_command.py): a game without its own tournament command
COMMAND = StudyCommand(
    help="Every pair of players on each side against itself, both seatings.",
    details="Each pair's score (a win 1, a draw 1/2) with its 95% Wilson interval.",
    options=(sides_option("Comma-separated sides the pairs meet on, each against itself."),
             Option("--policies", "Comma-separated players; every pair of them is played.",
                    default=lambda g: ",".join(g.POLICIES)),
             Option("--games", "Games per pair.", "int", default=1000)),
    face="tournament")  # fmt: skip


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament of ``players`` (the game's player specs, or player objects of its own
    such as Manoeuvre's style variants) in ``game`` (a key of the registry): ``games``
    games per pair as the game's ``tournament_plan`` seats them, on ``sides`` (specs the
    game's ``load_side`` reads; None: the game's own choice), under ``options`` (the game's
    ``Options``; None: its defaults), on ``threads`` threads (0: all cores)."""

    game: str
    players: tuple
    games: int
    seed: int = 1
    sides: tuple[str, ...] | None = None
    options: Any = None
    threads: int = 0

    def play(self, running: Running) -> TournamentResult:
        """This tournament played as ``running`` says (``one_file.run_spec``, :func:`run`).
        The result's manifest is the plan's (what the output records) with how the run
        went."""
        p = plan(self)
        res = play_seats(p.pairs, p.seats, game=self.game, options=p.options, manifest=p.ident,
                         running=running)  # fmt: skip
        res.manifest = p.manifest | res.manifest  # with how the run went
        return res


def _items(value) -> tuple:
    """A comma-separated option's items (or a sequence's, as given)."""
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return tuple(value)


def command_spec(
    game: str,
    *,
    policies,
    games: int,
    seed: int = 1,
    sides=None,
    threads: int = 0,
    options=None,
    out: str | Path | None = None,
    resume: bool = False,
) -> TournamentSpec:
    """The tournament a command builds from its options (``policies`` and ``sides``:
    comma-separated or sequences; ``out``, ``resume``: the output file's options): every
    option checked, in the command line's words, before any game; the game's own checks of
    the players and sides by making its plan once."""
    g = get_game(game)
    check_positive(("--games", games, 1), ("--seed", seed, 0), ("--threads", threads, 0))
    one_file_store(out, resume, check_only=True)
    spec = TournamentSpec(g.KEY, _items(policies), games, seed,
                          None if sides is None else _items(sides), options, threads)  # fmt: skip
    plan(spec)
    return spec


def plan(spec: TournamentSpec) -> TournamentPlan:
    """The seats of ``spec``: its game's ``tournament_plan``, or :func:`mirror_plan`."""
    g = get_game(spec.game)
    own = hook(g, "tournament_plan") or functools.partial(mirror_plan, g)
    return own(list(spec.players), spec.games, spec.seed, sides=spec.sides,
                options=spec.options)  # fmt: skip


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
    store: Path | None = None  # run_spec's OUT.store/ (removed once whole), else None

    @property
    def file_manifest(self) -> dict:
        """What the output file records: the manifest without ``tasks_resumed`` (a resumed
        run writes what one run writes)."""
        return {k: v for k, v in self.manifest.items() if k != "tasks_resumed"}


def play_seats(
    pairs: Sequence[tuple[str, str]],
    seats: Sequence[Seat],
    *,
    game: str,
    options=None,
    manifest: dict,
    running: Running,
) -> TournamentResult:
    """Play every seat of ``pairs`` (x, y names) of ``game`` (a key of the registry) and
    score each pair, as ``running`` says (its fields: as ``study.play``'s keywords).

    ``manifest``: what decides the games of a part of the store (the number of games is
    the task's own).
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

    r = running
    out = play(pairings, tasks, game=game, options=options, threads=r.threads, store=r.store,
               manifest=manifest, on_frame=on_frame,
               progress=Progress(r.progress, sum(t.count for t in tasks)), backend=r.backend,
               resume=r.resume)  # fmt: skip
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
    sides: Sequence[str] | None = None,
    options=None,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """The tournament of ``players`` (the game's player specs or player objects) in ``game``
    (a key of the registry): ``games`` games per pair as the game's ``tournament_plan``
    seats them on ``sides`` (None: the game's own), every seat one task of ``study.play``
    (``threads``, ``store``, ``backend``, ``resume``, ``progress``: as there,
    :class:`one_file.Running`). The result's manifest is the plan's (what the output
    records) with how the run went."""
    spec = TournamentSpec(get_game(game).KEY, tuple(players), games, seed,
                          None if sides is None else tuple(sides), options, threads)  # fmt: skip
    return spec.play(Running(threads, store, backend, resume, progress))


def mirror_plan(g, players: Sequence[str], games: int, seed: int, *,
                sides: Sequence[str] | None = None, options=None) -> TournamentPlan:  # fmt: skip
    """The seats of a game ``g`` without a ``tournament_plan`` of its own (its signature,
    ``g`` first): each pair of players (x, y) meets on each of ``sides`` (specs
    ``g.load_side`` reads; required) against itself, so no side's strength leaks in, x in
    seat a then in seat b on one seed (common random numbers); ``games`` per pair, rounded
    up to a multiple of 2 x the number of sides."""
    if not sides:
        raise UsageError(f"--sides: a tournament of {g.KEY} needs the sides its pairs meet on")
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


__all__ = ["KIND", "PairResult", "TournamentResult", "TournamentSpec", "command_spec",
           "mirror_plan", "plan", "play_seats", "run", "run_spec"]  # fmt: skip
