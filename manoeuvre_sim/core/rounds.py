"""A study's pairings played in rounds: up to a fixed number of games each, or round after
round until every pairing's interval is narrow enough (``--precision``).

Both games' balance studies (``analyses/manoeuvre/balance.py``, ``analyses/hexgame/variants.py``) play
so; what differs is how a game reads its games so far into the next round's targets (a
function the study passes in) and which pairings share their rule options (``groups``: a
variant study plays each variant's pairings under its own options). Everything else is
here once: the tasks of a round (each pairing's next blocks, round-robin over the pairings
so that an interrupted round has covered them evenly), the calls to ``study.play`` (store,
resume, backend, progress), and what the rounds add up to.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from manoeuvre_sim.core.stats import z_value
from manoeuvre_sim.core.study import Pairing, Progress, Task, blocks, play


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
