"""A balance study's pairings played in rounds: up to a fixed number of games each, or round
after round until every cell's interval is narrow enough (``--precision``), the games going
where the intervals are widest (adaptive allocation).

The balance study (``studies/balance.py``, every game's) plays so: :func:`play_balance`.
What differs between games is what a *cell* is, the rate a ``--precision`` goal narrows
(:class:`Cell`, the adapter's optional ``balance_cells``: by default :func:`side_cells`, a
pair of sides with both seatings pooled, a mirror by its first player) and which pairings
share their rule options (``groups``: a study of variants plays each variant's pairings
under its own options). Everything else is
here once: the tasks of a round (each pairing's next blocks, round-robin over the pairings
so that an interrupted round has covered them evenly), the calls to ``study.play`` (store,
resume, backend, progress), the intervals and the next round's targets, and what the rounds
add up to.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from manoeuvre_sim.core.games import hook, resolve
from manoeuvre_sim.core.stats import wilson_interval, z_value
from manoeuvre_sim.core.study import Cell, Pairing, Progress, Task, blocks, play


@dataclass
class Rounds:
    """What the rounds played: ``done`` (pairing index -> the games played or read back,
    counted from its start), ``total`` (the games planned by every round, the progress
    bar's total), whether a round was ``interrupted``, the seconds spent playing and the
    threads and backend of the last round."""

    done: dict[int, int]
    total: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    threads: int = 0
    backend: str = "local"


def interleave(per_pairing: Sequence[Sequence[Task]]) -> list[Task]:
    """Round-robin over pairings, so an interrupted run has covered every pairing evenly."""
    out = []
    for d in range(max((len(x) for x in per_pairing), default=0)):
        out.extend(x[d] for x in per_pairing if d < len(x))
    return out


def games_for_halfwidth(rate: float, precision: float) -> int:
    """Games for a Wilson half-width of about ``precision`` at ``rate`` (the normal
    approximation; ``rate`` kept within [0.02, 0.98] so a rate of 0 or 1 still asks for
    games)."""
    p = min(max(rate, 0.02), 0.98)
    return int(math.ceil(z_value() ** 2 * p * (1 - p) / precision**2))


def next_target(need: int, done: int, block: int, max_games: int) -> int:
    """A pairing's next target: the games it ``need``s (2 % more, in whole blocks), at
    least one block more than it has ``done``, at most ``max_games``."""
    need = -(-int(need * 1.02) // block) * block
    return min(max_games, max(done + block, need))


def play_rounds(
    pairings: Sequence[Pairing],
    groups: Sequence[tuple[object, Sequence[int]]],
    first: Mapping[int, int],
    *,
    start: Mapping[int, int],
    block: int,
    next_targets: Callable[[dict[int, int]], Mapping[int, int]] | None = None,
    progress: Callable[[int, int], None] | None = None,
    **play_kw,
) -> Rounds:
    """Play ``pairings`` up to the targets ``first`` (pairing index -> the game count to
    reach, counted as ``start`` is), then, while ``next_targets(done)`` names more, round
    after round; stop at an interrupted round.

    ``groups``: ``(options, pairing indices)`` — the rule options each pairing plays under;
    a round plays each group's tasks in one ``study.play`` call, group after group, each
    pairing's in the order its targets list it. ``play_kw``: the rest of ``study.play``'s
    keywords (``game``, ``threads``, ``store``, ``manifest``, ``on_frame``, ``backend``,
    ``resume``)."""
    r = Rounds(done=dict(start))
    tick = Progress(progress)  # its total grows as each round is planned

    def one_round(targets: Mapping[int, int]) -> bool:
        plan = []
        for options, members in groups:
            ks = set(members)
            tasks = interleave([blocks(k, r.done[k], n, block) for k, n in targets.items()
                                if k in ks and n > r.done[k]])  # fmt: skip
            if tasks:
                plan.append((options, tasks))
                r.total += sum(t.count for t in tasks)
                tick.total = r.total
        for options, tasks in plan:
            out = play(pairings, tasks, options=options, progress=tick, **play_kw)
            for k, n in out.games.items():
                r.done[k] += n
            r.seconds += out.seconds
            r.threads, r.backend = out.threads, out.backend
            if out.interrupted:
                return True
        return False

    r.interrupted = one_round(first)
    while next_targets is not None and not r.interrupted:
        targets = next_targets(r.done)
        if not targets:
            break
        r.interrupted = one_round(targets)
    return r


# ----------------------------------------------------------------- cells and their intervals

WINNERS = ("a", "b", "draw")


def side_cells(pairings: Sequence[Pairing]) -> list[Cell]:
    """The cells of a study of sides x sides (the default of every game): per label, each
    pair of sides with both seatings pooled (side X's rate against Y), and each mirror by
    its first player's rate; a draw half a win."""
    cells: dict[tuple, list[int]] = {}
    for k, p in enumerate(pairings):
        a, b = p.army_a.name, p.army_b.name
        cells.setdefault((p.label, *sorted((a, b))), []).append(k)
    return [Cell(tuple(ks), "first" if key[1] == key[2] else "side") for key, ks in cells.items()]


@dataclass
class Outcomes:
    """Per pairing, its games counted by (first player a/b) x (winner a/b/draw): the six
    numbers every cell's rate is read from."""

    counts: dict[int, np.ndarray] = field(default_factory=dict)

    def add(self, pairing: int, df) -> None:
        f = (df["first_player"].to_numpy() == "b").astype(np.int64)
        w = np.zeros(len(df), dtype=np.int64)
        winner = df["winner"].to_numpy()
        w[winner == "b"] = 1
        w[winner == "draw"] = 2
        c = np.bincount(f * 3 + w, minlength=6)
        self.counts[pairing] = self.counts.get(pairing, np.zeros(6, np.int64)) + c

    def score(self, cell: Cell, pairings: Sequence[Pairing], side: str | None = None):
        """``(score, games)`` of ``cell``: the first player's wins, or side ``side``'s, plus
        ``cell.draw`` of each draw."""
        wins = draws = n = 0
        for k in cell.members:
            c = self.counts.get(k)
            if c is None:
                continue
            c = c.reshape(2, 3)
            n += int(c.sum())
            draws += int(c[:, 2].sum())
            if cell.measure == "first":
                wins += int(c[0, 0] + c[1, 1])
            else:
                seat = 0 if pairings[k].army_a.name == side else 1
                wins += int(c[:, seat].sum())
        return wins + cell.draw * draws, n

    def halfwidth(self, cell: Cell, pairings: Sequence[Pairing]) -> float | None:
        """The 95 % Wilson half-width of ``cell``'s rate (None: no game yet), read from its
        last pairing's side a (the pooled rate of the other side has the same width)."""
        side = pairings[cell.members[-1]].army_a.name
        k, n = self.score(cell, pairings, side)
        if n == 0:
            return None
        lo, hi = wilson_interval(k, n)
        return (float(hi) - float(lo)) / 2


def precision_targets(
    cells: Sequence[Cell],
    pairings: Sequence[Pairing],
    outcomes: Outcomes,
    done: Mapping[int, int],
    *,
    precision: float,
    block: int,
    max_games: int,
) -> dict[int, int]:
    """The next round: each pairing of a cell whose interval is still wider than
    ``precision`` gets its share of the games the cell's rate so far needs (the cell's
    games split evenly over its pairings; the rate read from the pairing's side a, or its
    first player), at least one block more than it has, at most ``max_games``."""
    of = {k: c for c in cells for k in c.members}
    hws = {c: outcomes.halfwidth(c, pairings) for c in cells}
    targets: dict[int, int] = {}
    for k in sorted(done):
        cell = of[k]
        hw = hws[cell]
        if hw is None or hw <= precision or done[k] >= max_games:
            continue
        score, n = outcomes.score(cell, pairings, pairings[k].army_a.name)
        need = -(-games_for_halfwidth(score / n, precision) // len(cell.members))
        target = next_target(need, done[k], block, max_games)
        if target > done[k]:
            targets[k] = target
    return targets


# ------------------------------------------------------------------------ the whole driver


@dataclass
class BalancePlay(Rounds):
    """What :func:`play_balance` played: :class:`Rounds` with each pairing's
    :class:`Outcomes`, the widest cell half-width reached (with ``precision``) and the
    manifest's closing fields (:meth:`closing`)."""

    outcomes: Outcomes = field(default_factory=Outcomes)
    precision_reached: float | None = None
    first_game: int = 0

    def closing(self) -> dict:
        """What a study's manifest records once it has played: games, the games per
        pairing reached, whether it was interrupted, seconds, threads, backend, when."""
        n = sorted(v - self.first_game for v in self.done.values())
        out = {
            "games": int(sum(n)),
            "games_per_pairing_reached": {"min": n[0], "max": n[-1]},
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 3),
            "threads": self.threads,
            "backend": self.backend,
            "finished": _dt.datetime.now().isoformat(timespec="seconds"),
        }
        if self.precision_reached is not None:
            out["precision_reached"] = round(self.precision_reached, 6)
        return out


def play_balance(
    pairings: Sequence[Pairing],
    groups: Sequence[tuple[object, Sequence[int]]],
    *,
    game,
    games: int,
    first_game: int = 0,
    precision: float | None = None,
    max_games: int = 20000,
    block: int,
    cells: Sequence[Cell] | None = None,
    on_frame: Callable | None = None,
    progress: Callable[[int, int], None] | None = None,
    **play_kw,
) -> BalancePlay:
    """Play a balance study's ``pairings``: ``games`` each (from ``first_game``), or with
    ``precision`` round after round (the first round ``min(games, max_games)``) until
    every cell's 95 % interval is within ``precision`` or its pairings reached
    ``max_games``.

    ``game``: a key or a game module; ``cells``: the cells the
    intervals are read for (None: the game's ``balance_cells(pairings)`` if it has one,
    else :func:`side_cells`); ``groups``: ``(options, pairing indices)``, as
    :func:`play_rounds`; ``on_frame``: also called with every block (as ``study.play``
    calls it); ``play_kw``: the rest of ``study.play``'s keywords (``threads``, ``store``,
    ``manifest``, ``backend``, ``resume``)."""
    g = resolve(game)
    if cells is None:
        own = hook(g, "balance_cells")
        cells = own(pairings) if own is not None else side_cells(pairings)
    outcomes = Outcomes()

    def count(task: Task, df, stats=None) -> None:
        outcomes.add(task.pairing, df)
        if on_frame is not None:
            on_frame(task, df, stats)

    ks = range(len(pairings))
    first = first_game + games if precision is None else min(games, max_games)
    more = None
    if precision is not None:

        def more(done: dict[int, int]) -> Mapping[int, int]:
            return precision_targets(cells, pairings, outcomes, done, precision=precision,
                                     block=block, max_games=max_games)  # fmt: skip

    r = play_rounds(
        pairings, groups, dict.fromkeys(ks, first), start=dict.fromkeys(ks, first_game),
        block=block, next_targets=more, progress=progress, game=g, on_frame=count, **play_kw,
    )  # fmt: skip
    out = BalancePlay(done=r.done, total=r.total, interrupted=r.interrupted,
                      seconds=r.seconds, threads=r.threads, backend=r.backend,
                      outcomes=outcomes, first_game=first_game)  # fmt: skip
    if precision is not None:
        hws = [h for c in cells if (h := outcomes.halfwidth(c, pairings)) is not None]
        out.precision_reached = max(hws) if hws else None
    return out
