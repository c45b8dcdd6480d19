"""The why study of one army against the field (issue 42: "for a pairing, or one army
against the field"): X's score against every other army, each pairing played in both
seatings on paired seeds and pooled, shared out among X's parts and the field's.

The parts
    X's own parts (the game's ``why_parts``, as for a pairing) and one part per opponent:
    the army ``Y`` whole (kind ``army``). An opponent switched off is that army with every
    one of its parts at the game's neutral reference, so that with every part off X and
    every opponent are the same army (the reference) and the value is 1/2 in expectation,
    as the mirror of a pairing. An opponent's contribution is what that army, as printed,
    does to X's score against the field over the reference army: its share of the field's
    resistance (negative when it holds X back).
The value of a coalition
    X's mean score over the ``m`` opponents, ``block`` games in each seating of each, every
    pairing on its own seed (as a pairing's why study seeds it: X against Y and Y against X
    from (seed, the two names)), the same for every coalition (common random numbers).
Everything else is the pairing's (``studies/why.py``): the samples, the orders, the
intervals, efficiency (the contributions add up to ``v(all) - v(none)`` exactly), the
store (its parts ``s<seating>-o<opponent>-<mask>``), resume, progress.

Python API::

    from manoeuvre_sim.studies import why_field
    res = why_field.run("manoeuvre", "France", ["Austria", "Prussia"], samples=20, block=20)
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import hook, resolve
from manoeuvre_sim.core.study import Pairing, Progress, Task, pairing_seed
from manoeuvre_sim.studies import why as W

FIELD = "the field"  # how the summary names Y


@dataclass(frozen=True)
class FieldSpec(W.WhySpec):
    """A why study of side 0 (X) against sides 1..m of ``balance`` (the field)."""

    @property
    def opponents(self) -> int:
        return len(self.balance.sides) - 1

    def games_per_sample(self) -> int:
        return 2 * self.opponents * self.block * self.coalitions_per_sample()

    def record(self) -> dict:
        return super().record() | {"field": self.balance.names[1:]}


def command_spec(game, army, field: Sequence, *, policy: str | None = None,
                 samples: int = W.DEFAULT_SAMPLES, block: int = W.DEFAULT_BLOCK, seed: int = 1,
                 method: str = "auto", options=None, threads: int = 0,
                 flag: str = "--field") -> FieldSpec:  # fmt: skip
    """Every option checked (one line each) and the parts listed before any game: ``army``
    X, ``field`` the opponents (specs the game's ``load_side`` reads, or sides)."""
    g = resolve(game)
    if len(field) < 1:
        raise UsageError(f"{flag}: expected at least one opponent for the army")
    two = W.command_spec(g, [army, field[0]], policy=policy, samples=samples, block=block,
                         seed=seed, method="permutation", options=options, threads=threads,
                         flag=flag)  # fmt: skip
    from manoeuvre_sim.studies.balance import BalanceSpec

    spec = BalanceSpec.of(g, [army, *field], policy=policy, games_per_pairing=block, seed=seed,
                          options=options, block=block, threads=threads)  # fmt: skip
    cut = hook(g, "why_parts")
    parts = [W.Part(0, n, k) for n, k in cut(spec.sides[0])]
    for j, side in enumerate(spec.sides[1:], 1):
        cut(side)  # its parts can be switched off (a game may refuse a side)
        parts.append(W.Part(j, f"army {side.name}", "army"))
    n = len(parts)
    if method == "auto":
        method = "exact" if n <= W.EXACT_AUTO else "permutation"
    if method == "exact" and n > W.EXACT_MOST:
        raise UsageError(f"--method exact: {n} parts would play 2**{n} coalitions a sample; "
                         f"at most {W.EXACT_MOST} parts (use --method permutation)")  # fmt: skip
    return FieldSpec(spec, tuple(parts), method, samples, two.reference)


def _bases(spec: FieldSpec) -> list[tuple[int, int, Pairing]]:
    """(opponent j, seating s, base pairing): X against Y_j, then Y_j against X, each seeded
    as a pairing's why study seeds it."""
    b = spec.balance
    x = b.sides[0]
    pa, pb = b.policies[0].policy_a, b.policies[0].policy_b
    out = []
    for j, y in enumerate(b.sides[1:], 1):
        out.append((j, 0, Pairing(x, y, pa, pb, pairing_seed(b.seed, x.name, y.name))))
        out.append((j, 1, Pairing(y, x, pa, pb, pairing_seed(b.seed, y.name, x.name))))
    return out


def coalition_pairing(g, spec: FieldSpec, j: int, seating: int, base: Pairing,
                      mask: int) -> Pairing:  # fmt: skip
    """Base pairing ``base`` (X against opponent ``j`` in ``seating``) with the parts outside
    ``mask`` off: X's own, and all of Y_j's when its army part is off."""
    cut = hook(g, "why_parts")
    off_x = frozenset(p.name for i, p in enumerate(spec.parts)
                      if p.side == 0 and not (mask >> i) & 1)  # fmt: skip
    k = next(i for i, p in enumerate(spec.parts) if p.side == j)
    y = spec.balance.sides[j]
    off_y = frozenset(n for n, _ in cut(y)) if not (mask >> k) & 1 else frozenset()
    off_a, off_b = (off_x, off_y) if seating == 0 else (off_y, off_x)
    p = hook(g, "why_pairing")(base, off_a, off_b)
    width = (spec.n + 3) // 4
    return replace(p, seed=base.seed, label=f"s{seating}-o{j}-{mask:0{width}x}")


def play_samples(g, spec: FieldSpec, *, store=None, manifest=None, backend=None,
                 resume: bool = False, progress=None) -> W.Sampled:  # fmt: skip
    """Play (or read back) samples 0 .. ``spec.samples - 1``, one ``study.play`` each."""
    b = spec.balance
    bases = _bases(spec)
    full = (1 << spec.n) - 1
    out = W.Sampled([], [], [])
    tick = Progress(progress, spec.samples * spec.games_per_sample())
    try:
        for k in range(spec.samples):
            masks, paths = W.sample_plan(spec, k)
            pairings = [coalition_pairing(g, spec, j, s, base, m) for m in masks
                        for j, s, base in bases]  # fmt: skip
            seat_x = ["a" if s == 0 else "b" for m in masks for _, s, _ in bases]
            tasks = [Task(i, k * b.block, b.block) for i in range(len(pairings))]
            score = np.full(len(pairings), np.nan)

            def keep(task: Task, df, stats=None, score=score, seat_x=seat_x) -> None:
                w = df["winner"].to_numpy()
                mine = seat_x[task.pairing]
                score[task.pairing] = (w == mine).sum() + 0.5 * (w == "draw").sum()

            res = W.play_quietly(g, b, pairings, tasks, store=store, manifest=manifest,
                                 on_frame=keep, progress=tick, backend=backend, resume=resume)  # fmt: skip
            out.resumed += res.tasks_resumed
            if res.interrupted:
                raise KeyboardInterrupt
            per = len(bases)
            value = {m: score[i * per : (i + 1) * per].sum() / (per * b.block)
                     for i, m in enumerate(masks)}  # fmt: skip
            W.add_sample(out, value, paths, spec.n, full, len(tasks) * b.block)
    except KeyboardInterrupt:
        out.interrupted = True
    return out


def reference_hash(g, spec: FieldSpec) -> str:
    """A hash of every pairing with every part off (the neutral reference as played)."""
    h = hashlib.sha256()
    for j, s, base in _bases(spec):
        p = coalition_pairing(g, spec, j, s, base, 0)
        h.update(f"{g.side_hash(p.army_a)}{g.side_hash(p.army_b)}{p.patches!r}".encode())
    return h.hexdigest()[:16]


def run(game, army, field: Sequence, *, out_dir: str | Path | None = None, backend=None,
        resume: bool = False, progress=None, command: str | None = None, **kw) -> W.WhyResult:  # fmt: skip
    """The why study of ``army`` against ``field`` in ``game`` (:func:`command_spec`'s
    keywords); the rest as ``why.run``."""
    g = resolve(game)
    spec = command_spec(g, army, field, **kw)
    return run_spec(g, spec, out_dir=out_dir, backend=backend, resume=resume,
                    progress=progress, command=command)  # fmt: skip


def run_spec(g, spec: FieldSpec, *, out_dir=None, backend=None, resume: bool = False,
             progress=None, command: str | None = None) -> W.WhyResult:  # fmt: skip
    from manoeuvre_sim.studies import balance as B

    t0 = time.perf_counter()
    manifest = B.base_manifest(spec.balance, W.KIND, B.describe_sides) | {
        "why": spec.record(),
        "reference_hash": reference_hash(g, spec),
    }
    got = play_samples(g, spec, store=B.make_store(out_dir), manifest=manifest,
                       backend=backend, resume=resume, progress=progress)  # fmt: skip
    contributions, totals, samples, record = W.estimate(spec, got)
    W.ended(manifest, record, spec, got, t0, command)
    return W.WhyResult(spec, contributions, totals, samples, manifest, got.interrupted)


__all__ = ["FIELD", "FieldSpec", "coalition_pairing", "command_spec", "play_samples",
           "reference_hash", "run", "run_spec"]  # fmt: skip
