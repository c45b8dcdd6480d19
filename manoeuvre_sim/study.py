"""Studies: many pairings of armies, played as tasks of (pairing, first game, count).

A study (the balance matrix, a what-if, a style comparison) is a list of :class:`Pairing`
— two armies, two policies and a block seed — and a list of :class:`Task`. Game ``i`` of a
pairing is seeded from ``(pairing.seed, i)`` alone, and a pairing's seed from the master
seed and the two armies' *seeding names* alone (:func:`pairing_seed`), so:

- the records do not depend on the thread count, the task size or the order of the tasks;
- adding an army to a study changes no other pairing's games;
- a what-if variant that keeps an army's seeding name replays the base run's games exactly
  (common random numbers), and the same holds between play styles.

Each finished task is written, atomically, as one Parquet file of the study store
(``DIR/games.parquet/<label>-p<pairing>-g<first game>.parquet``; pyarrow and pandas read the
directory as one table) and handed to the caller's ``on_frame`` to aggregate, so memory
stays flat in the number of games. A KeyboardInterrupt stops the run after the task in
flight is discarded; everything finished stays on disk.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from manoeuvre_sim.errors import UsageError
from manoeuvre_sim.model import Army


@dataclass(frozen=True)
class RuleOptions:
    """The rule switches every game of a study is played with (as ``simulate`` has them)."""

    tournament_hand: bool = False
    advance_to_contact: bool = False
    digging_in: bool = False
    max_turns: int = 200
    include_unverified_maps: bool = False
    setup: str = "random"  # rule 3 set-up, "random" or "rules" (runner.SimConfig)
    fixed_map: tuple[int, ...] | None = None  # 4 section numbers NW, NE, SW, SE
    fixed_rot: tuple[int, ...] | None = None  # their quarter turns clockwise (default 0)

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise UsageError(f"--max-turns: expected a positive number, got {self.max_turns}")
        from manoeuvre_sim.engine.options import check_fixed_map, map_pool, setup_mode

        setup_mode(self.setup)
        # the map pool is checked here, before any game of the study is played
        pool, left_out = map_pool(self.include_unverified_maps)
        fixed_map, fixed_rot = check_fixed_map(
            self.fixed_map, self.fixed_rot, pool=pool, unverified=left_out
        )
        object.__setattr__(self, "fixed_map", fixed_map)
        object.__setattr__(self, "fixed_rot", fixed_rot)

    def describe(self) -> str:
        """The set-up in words when it is not the default (``""`` otherwise): for summaries
        and page footers (``options.describe_setup``)."""
        from manoeuvre_sim.engine.options import describe_setup

        return describe_setup(self.setup, self.fixed_map, self.fixed_rot)


@dataclass(frozen=True)
class Pairing:
    """Army A (seat a, player 0) against army B (seat b) with their policies.

    ``seed`` is the block seed (game i: ``(seed, i)``), ``label`` tags the records (the
    policy label of a balance study, ``base``/``variant`` in a what-if).
    """

    army_a: Army
    army_b: Army
    policy_a: str
    policy_b: str
    seed: int
    label: str = ""
    # card patches after packing: (side, copy, source copy) - the copy's row becomes the
    # source copy's row, or a blank card (it can only be discarded) when source is -1;
    # copies are card_no - 1 of `armies export` (card-value ablations)
    patches: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class Task:
    """Games ``first_game .. first_game + count - 1`` of pairing number ``pairing``."""

    pairing: int
    first_game: int
    count: int


def pairing_seed(master: int, key_a: str, key_b: str) -> int:
    """The block seed of the ordered pairing (key_a in seat a, key_b in seat b): from the
    master seed and the two seeding names alone (a 63-bit integer)."""
    key = hashlib.sha256(f"balance\x00{key_a}\x00{key_b}".encode()).digest()
    ss = np.random.SeedSequence([int(master), int.from_bytes(key[:8], "little")])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def army_hash(army: Army) -> str:
    """A short hash of one army's validated data (what changes when a designer edits it)."""
    return hashlib.sha256(army.model_dump_json().encode()).hexdigest()[:16]


def study_data_hash(armies: Iterable[Army], options: RuleOptions) -> str:
    """A hash of every army, the terrain table and the map pool a study plays on."""
    from manoeuvre_sim.model import load_sections, load_terrain

    terrain = load_terrain()
    h = hashlib.sha256()
    for a in sorted(armies, key=lambda a: a.name):
        h.update(a.model_dump_json().encode())
    h.update(terrain.model_dump_json().encode())
    for s in load_sections(terrain=terrain):
        if s.verified or options.include_unverified_maps:
            h.update(s.model_dump_json().encode())
    return h.hexdigest()[:16]


def part_name(label: str, task: Task) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", label) or "games"
    return f"{safe}-p{task.pairing:04d}-g{task.first_game:09d}.parquet"


@dataclass
class PlayOutcome:
    games: dict[int, int] = field(default_factory=dict)  # pairing -> games finished
    tasks_done: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    threads: int = 0


def play(
    pairings: Sequence[Pairing],
    tasks: Iterable[Task],
    *,
    options: RuleOptions = RuleOptions(),
    threads: int = 0,
    store: str | Path | None = None,
    manifest: dict | None = None,
    on_frame: Callable[[Task, object], None] | None = None,
    progress: Callable[[int], None] | None = None,
    card_bits: bool = False,
    card_stats: bool | Collection[int] = False,
) -> PlayOutcome:
    """Play ``tasks`` (in order) and hand each finished block to
    ``on_frame(task, frame, stats)`` (``stats``: its card statistics, or None).

    Parameters
    ----------
    pairings : the study's pairings; a task names one by index.
    tasks : the blocks of games to play.
    options : rule switches.
    threads : 0 for all cores.
    store : a directory; each task's games are written to ``store/<part_name>`` (atomically)
        with ``manifest`` (plus the task) in the Parquet metadata. None: nothing written.
    on_frame : receives the task, its games as a DataFrame (the ``simulate`` columns plus
        ``pairing`` and ``label``) and its card statistics (None unless taken), after the
        file is written.
    progress : called with the number of games just finished.
    card_bits : add the drawn/played card-copy columns.
    card_stats : take each game's per-card-copy statistics (``engine/cardstats.py``) of
        every pairing (True) or of the pairings in a collection (not written to the store).

    A KeyboardInterrupt ends the run between tasks (the task in flight is discarded) and is
    reported as ``interrupted``; finished tasks are on disk and were handed to ``on_frame``.
    """
    import numba

    from manoeuvre_sim.engine.pack import pack
    from manoeuvre_sim.model import load_sections, load_terrain
    from manoeuvre_sim.results import to_frame, write_part
    from manoeuvre_sim.runner import SimConfig, simulate

    if threads < 0:
        raise UsageError(f"--threads: expected 0 (all cores) or more, got {threads}")
    terrain = load_terrain()
    sections = load_sections(terrain=terrain)
    packed: dict[int, tuple] = {}
    out = PlayOutcome(threads=min(threads or numba.config.NUMBA_NUM_THREADS,
                                  numba.config.NUMBA_NUM_THREADS))  # fmt: skip
    store = Path(store) if store is not None else None
    t0 = time.perf_counter()
    try:
        for task in tasks:
            p = pairings[task.pairing]
            cfg = SimConfig(
                p.army_a.name, p.army_b.name, games=task.count, seed=p.seed,
                first_game=task.first_game, policy_a=p.policy_a, policy_b=p.policy_b,
                threads=threads, chunk=task.count, tournament_hand=options.tournament_hand,
                advance_to_contact=options.advance_to_contact, digging_in=options.digging_in,
                max_turns=options.max_turns,
                include_unverified_maps=options.include_unverified_maps,
                setup=options.setup, fixed_map=options.fixed_map, fixed_rot=options.fixed_rot,
            )  # fmt: skip
            if task.pairing not in packed:
                P = pack(p.army_a, p.army_b, terrain, sections,
                         include_unverified=options.include_unverified_maps)  # fmt: skip
                packed[task.pairing] = (p.army_a, p.army_b, apply_patches(P, p.patches))
            want = card_stats if isinstance(card_stats, bool) else task.pairing in card_stats
            res = simulate(cfg, prepared=packed[task.pairing], card_stats=want)
            if res.interrupted:
                raise KeyboardInterrupt
            df = to_frame(
                res.records, res.manifest, card_bits=card_bits, first_game=task.first_game
            )
            df["pairing"] = np.int32(task.pairing)
            df["label"] = p.label
            if store is not None:
                meta = dict(manifest or {})
                meta["task"] = {
                    "pairing": task.pairing,
                    "patches": [list(x) for x in p.patches],
                    "label": p.label,
                    "army_a": p.army_a.name,
                    "army_b": p.army_b.name,
                    "seed": p.seed,
                    "first_game": task.first_game,
                    "count": task.count,
                }
                write_part(df, store / part_name(p.label, task), meta)
            if on_frame is not None:
                on_frame(task, df, res.card_stats)
            out.games[task.pairing] = out.games.get(task.pairing, 0) + task.count
            out.tasks_done += 1
            if progress is not None:
                progress(task.count)
    except KeyboardInterrupt:
        out.interrupted = True
    out.seconds = time.perf_counter() - t0
    return out


def apply_patches(P, patches: Sequence[tuple[int, int, int]]):
    """The packed tables with card rows replaced (see ``Pairing.patches``); the data hash
    records the patches."""
    if not patches:
        return P
    import dataclasses

    cards = P.cards.copy()
    for side, copy, source in patches:
        n = int(P.deck_size[side])
        if not (0 <= copy < n) or not (-1 <= source < n):
            raise UsageError(f"card patch {(side, copy, source)}: copies are 0..{n - 1}")
        cards[side, copy] = 0 if source < 0 else P.cards[side, source]
    h = hashlib.sha256((P.data_hash + repr(sorted(patches))).encode()).hexdigest()[:16]
    return dataclasses.replace(P, cards=cards, data_hash=h)


def blocks(pairing: int, start: int, stop: int, size: int) -> list[Task]:
    """Tasks covering games ``start .. stop - 1`` of a pairing in blocks of ``size``
    (aligned to multiples of ``size``, so block boundaries do not depend on how a run grew)."""
    out = []
    g = start
    while g < stop:
        end = min(stop, (g // size + 1) * size)
        out.append(Task(pairing, g, end - g))
        g = end
    return out
