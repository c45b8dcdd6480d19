"""The paired what-if, written once over the game interface (issue 31): a base study and a
variant of it played on the same seeds (common random numbers), game by game.

Every game of the variant replays the seed of the same game of the base (a changed side
keeps the base side's seeding name), so the two differ only where the change made them
differ; the change of a rate is the mean of the per-game differences, with its interval
from those differences (Student t), far narrower than the difference of two independent
studies. An identical variant gives exactly zero everywhere.

What a game may edit (a unit's strengths, a card, a leader; Maneuver's scenario and rules)
is the game's (its what-if front end: ``analyses/manoeuvre/whatif.py``,
``analyses/hexgame/whatif.py``, or any game's :func:`run` with ``variant_sides`` /
``variant_options``); how the pairs of games are played and counted is here once:
:func:`play_paired` and :class:`Joint`.

Python API (any game of the registry)::

    from manoeuvre_sim.studies import whatif
    res = whatif.run("coin", ["heavy:70", "fair"], variant_sides={"heavy": "heavy:60"},
                     games_per_pairing=400, seed=1)
    res.table         # per pairing: side a's score in base and variant, the paired change
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import resolve
from manoeuvre_sim.core.stats import paired_interval
from manoeuvre_sim.core.study import Pairing, PlayOutcome, Progress, Task, blocks, play
from manoeuvre_sim.studies.rounds import WINNERS, interleave

BASE, VARIANT = "base", "variant"


class Joint:
    """Per base pairing, its paired games counted by (first player, winner) of the base game
    and (first player, winner) of the variant game: 2 x 3 x 2 x 3 = 36 numbers, from which
    every paired rate and change is read. A variant block is paired with the base block of
    the same games (played before it, or after: whichever comes second pairs them)."""

    def __init__(self) -> None:
        self.counts: dict[int, np.ndarray] = {}
        self._waiting: dict[tuple[str, int, int], object] = {}

    def add(self, which: str, pairing: int, first_game: int, df) -> None:
        """A block of ``which`` (BASE or VARIANT) of base pairing ``pairing``."""
        other = VARIANT if which == BASE else BASE
        mate = self._waiting.pop((other, pairing, first_game), None)
        if mate is None:
            self._waiting[(which, pairing, first_game)] = df[["game", "first_player", "winner"]]
            return
        b, v = (mate, df) if which == VARIANT else (df, mate)
        if not np.array_equal(b["game"].to_numpy(), v["game"].to_numpy()):
            raise RuntimeError("what-if: base and variant blocks do not cover the same games")
        idx = ((_code(b, "first") * 3 + _code(b, "winner")) * 2 + _code(v, "first")) * 3
        c = np.bincount(idx + _code(v, "winner"), minlength=36)
        self.counts[pairing] = self.counts.get(pairing, np.zeros(36, np.int64)) + c

    @property
    def paired_games(self) -> int:
        return int(sum(c.sum() for c in self.counts.values()))


def _code(df, what: str) -> np.ndarray:
    if what == "first":
        return (df["first_player"].to_numpy() == "b").astype(np.int64)
    w = df["winner"].to_numpy()
    return np.where(w == "a", 0, np.where(w == "b", 1, 2)).astype(np.int64)


@dataclass
class PairedPlay:
    """What :func:`play_paired` played: the :class:`Joint` counts and how the run went
    (``outcome.games``: the games each base and variant pairing finished)."""

    joint: Joint
    outcome: PlayOutcome


def play_paired(
    base: Sequence[Pairing],
    variant: Mapping[int, Pairing],
    *,
    game,
    games: int,
    block: int,
    options=None,
    variant_options=None,
    on_frame: Callable | None = None,
    progress: Callable[[int, int], None] | None = None,
    **play_kw,
) -> PairedPlay:
    """Play ``games`` games of every ``base`` pairing and, on the same seeds, of the
    variant of each pairing in ``variant`` (base index -> its variant pairing: its own
    sides and label, the base pairing's seed).

    One ``study.play`` when the variant plays under the base's rule options (each variant
    block right after its base block, so an interruption leaves whole pairs), else two: the
    base under ``options``, then the variants under ``variant_options``. The store's parts
    are named by the pairings' labels; ``on_frame(task, frame, stats, which)`` sees every
    block; ``play_kw``: the rest of ``study.play``'s keywords (``threads``, ``store``,
    ``manifest``, ``backend``, ``resume``)."""
    g = resolve(game)
    nb = len(base)
    touched = list(variant)
    pairings = [*base, *(variant[i] for i in touched)]
    base_of = {nb + k: i for k, i in enumerate(touched)}
    joint = Joint()

    def count(task: Task, df, stats=None) -> None:
        which = BASE if task.pairing < nb else VARIANT
        i = task.pairing if which == BASE else base_of[task.pairing]
        if i in variant:
            joint.add(which, i, task.first_game, df)
        if on_frame is not None:
            on_frame(task, df, stats, which)

    same = variant_options is None or variant_options == options
    calls: list[tuple[object, list[Task]]] = []
    if same:
        per = []
        for i in range(nb):
            tasks = blocks(i, 0, games, block)
            if i in variant:
                k = nb + touched.index(i)
                tasks = [x for t in tasks for x in (t, Task(k, t.first_game, t.count))]
            per.append(tasks)
        calls.append((options, interleave(per)))
    else:
        calls.append((options, interleave([blocks(i, 0, games, block) for i in range(nb)])))
        calls.append((variant_options, interleave([blocks(nb + k, 0, games, block)
                                                   for k in range(len(touched))])))  # fmt: skip
    tick = Progress(progress, sum(t.count for _, ts in calls for t in ts))
    outcome = None
    for opts, tasks in calls:
        out = play(pairings, tasks, game=g, options=opts, on_frame=count, progress=tick,
                   **play_kw)  # fmt: skip
        if outcome is None:
            outcome = out
        else:  # the two calls as one run
            outcome = replace(out, games={**outcome.games, **out.games},
                              tasks_done=outcome.tasks_done + out.tasks_done,
                              tasks_resumed=outcome.tasks_resumed + out.tasks_resumed,
                              seconds=outcome.seconds + out.seconds)  # fmt: skip
        if out.interrupted:
            break
    return PairedPlay(joint, outcome)


# ------------------------------------------------------------------ the study of any game


def paired_row(counts: np.ndarray, seat: str = "a") -> dict:
    """Side ``seat``'s score (a win 1, a draw 1/2) over a pairing's paired games: base,
    variant, the paired change with its 95 % interval, the share of games whose winner
    changed."""
    c = counts.reshape(2, 3, 2, 3).sum(axis=(0, 2))  # winner base x winner variant
    s = np.array([1.0, 0.0, 0.5]) if seat == "a" else np.array([0.0, 1.0, 0.5])
    d = s[None, :] - s[:, None]  # variant minus base
    n = int(c.sum())
    mean, lo, hi = paired_interval(float((c * d).sum()), float((c * d * d).sum()), n)
    return {
        "games": n,
        "base_score": float((c.sum(axis=1) * s).sum()) / n,
        "variant_score": float((c.sum(axis=0) * s).sum()) / n,
        "change": float(mean),
        "change_low": float(lo),
        "change_high": float(hi),
        "changed_games": int(n - np.trace(c)),
    }


@dataclass
class WhatIfResult:
    """A what-if of any game: ``table`` (per base pairing with a variant: the sides, side
    a's score in base and variant, the paired change and its interval), the manifest."""

    table: object  # pandas DataFrame
    manifest: dict
    interrupted: bool = False
    store: Path | None = None

    def summary(self) -> list[str]:
        m = self.manifest
        out = [f"{m['game_title']}: what-if ({', '.join(m['changes']) or 'no change'})",
               f"{m['games']:,} games ({m['paired_games']:,} paired); seed {m['seed']}; "
               f"rules {m['rules_version']}",
               "side a's score (a win 1, a draw 1/2) in %, base -> variant, paired change "
               "[95 % interval]", ""]  # fmt: skip
        for r in self.table.itertuples(index=False):
            out.append(f"{r.side_a:>12} v {r.side_b:<12} {100 * r.base_score:5.1f} -> "
                       f"{100 * r.variant_score:5.1f}  {100 * r.change:+5.1f} "
                       f"[{100 * r.change_low:+.1f}, {100 * r.change_high:+.1f}]")  # fmt: skip
        if self.interrupted:
            out.append("INTERRUPTED: the table covers the pairs of games finished")
        return out

    def write(self, out_dir: str | Path) -> list[Path]:
        """whatif.csv, manifest.json and summary.txt into ``out_dir`` (each atomically)."""
        from manoeuvre_sim.studies.balance import write_study

        return write_study(out_dir, {"whatif": self.table}, self.manifest, self.summary())


def run(
    game: str,
    sides: Sequence[str],
    *,
    variant_sides: Mapping[str, str] | None = None,
    variant_options=None,
    options=None,
    policy: str | None = None,
    games_per_pairing: int = 1000,
    seed: int = 1,
    block: int = 1000,
    threads: int = 0,
    out_dir: str | Path | None = None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> WhatIfResult:
    """The what-if of ``game`` (a key of the registry): the balance study of ``sides`` (as
    ``studies.balance.run``) against its variant, game by game on the same seeds.
    ``variant_sides``: side name -> the spec (``load_side``) of its variant (seeded as the
    base side); ``variant_options``: the variant's rule options (None: the base's). Every
    pairing with a changed side (all of them when the options change) is replayed."""
    import pandas as pd

    from manoeuvre_sim.studies import balance as B

    g = resolve(game)
    spec = B.BalanceSpec.of(g, sides, policy=policy, games_per_pairing=games_per_pairing,
                            seed=seed, options=options, block=block, threads=threads)  # fmt: skip
    changed = {}
    for name, text in (variant_sides or {}).items():
        if name not in spec.names:
            raise UsageError(f"variant side {name!r}: not a side of the study "
                             f"({', '.join(spec.names)})")  # fmt: skip
        changed[name] = g.load_side(text)
    v_options = variant_options if variant_options is not None else spec.options
    if not changed and variant_options is None:
        raise UsageError("whatif: nothing to change: give a variant side or rule options")
    base = [replace(p, label=BASE) for p in spec.pairings()]
    every = v_options != spec.options
    variant = {
        i: replace(p, army_a=changed.get(p.army_a.name, p.army_a),
                   army_b=changed.get(p.army_b.name, p.army_b), label=VARIANT)
        for i, p in enumerate(base)
        if every or p.army_a.name in changed or p.army_b.name in changed
    }  # fmt: skip
    changes = [f"{n}: {g.side_hash(spec.sides[spec.names.index(n)])} -> {g.side_hash(s)}"
               for n, s in changed.items()]  # fmt: skip
    if every:
        changes.append(f"rules: {v_options.describe() or 'the defaults'}")
    manifest = B.base_manifest(g, spec, "whatif") | {
        "changes": changes,
        "variant_data_hash": g.data_hash([*changed.values(), *spec.sides], v_options),
    }
    store = B.make_store(out_dir)
    played = play_paired(
        base, variant, game=g, games=spec.games_per_pairing, block=spec.block,
        options=spec.options, variant_options=v_options, threads=spec.threads, store=store,
        manifest=manifest, backend=backend, resume=resume, progress=progress,
    )  # fmt: skip
    rows = []
    for i in sorted(played.joint.counts):
        p = base[i]
        rows.append({"side_a": p.army_a.name, "side_b": p.army_b.name,
                     "policy_a": p.policy_a, "policy_b": p.policy_b}
                    | paired_row(played.joint.counts[i]))  # fmt: skip
    out = played.outcome
    manifest |= {
        "games": int(sum(played.outcome.games.values())),
        "paired_games": played.joint.paired_games,
        "interrupted": out.interrupted,
        "seconds": round(out.seconds, 3),
        "threads": out.threads,
        "backend": out.backend,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    return WhatIfResult(pd.DataFrame(rows), manifest, out.interrupted, store)


__all__ = ["BASE", "VARIANT", "WINNERS", "Joint", "PairedPlay", "WhatIfResult", "paired_row",
           "play_paired", "run"]  # fmt: skip
