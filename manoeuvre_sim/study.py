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
import json
import os
import re
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, fields
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
    dl_forced_march: bool = False  # Distant Lands 9.2 Forced March wording (--dl-forced-march)
    max_turns: int = 200
    include_unverified_maps: bool = False
    setup: str = "random"  # rule 3 set-up, "random" or "rules" (runner.SimConfig)
    fixed_map: tuple[int, ...] | None = None  # 4 section numbers NW, NE, SW, SE
    fixed_rot: tuple[int, ...] | None = None  # their quarter turns clockwise (default 0)
    sections_file: str | None = None  # a designer's map sections joining the pool (--sections)

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise UsageError(f"--max-turns: expected a positive number, got {self.max_turns}")
        from manoeuvre_sim.engine.options import check_fixed_map, map_pool, setup_mode
        from manoeuvre_sim.runner import absolute

        setup_mode(self.setup)
        object.__setattr__(self, "sections_file", absolute(self.sections_file))
        # the map pool (and a --sections file) is checked here, before any game is played
        pool, left_out = map_pool(self.include_unverified_maps, self.sections_file)
        fixed_map, fixed_rot = check_fixed_map(
            self.fixed_map, self.fixed_rot, pool=pool, unverified=left_out
        )
        object.__setattr__(self, "fixed_map", fixed_map)
        object.__setattr__(self, "fixed_rot", fixed_rot)

    @classmethod
    def of(cls, config) -> RuleOptions:
        """The rule options of a ``runner.SimConfig`` (its fields of the same names)."""
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})

    def sim_fields(self) -> dict:
        """These options as keywords of ``runner.SimConfig`` (whose fields of the same names
        decide the same things), so every command builds its games' config from one place."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

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
    # parameter vectors overriding the policies' defaults (tournament style variants)
    params_a: tuple[float, ...] | None = None
    params_b: tuple[float, ...] | None = None


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
    from manoeuvre_sim.model import load_map_pool, load_terrain

    terrain = load_terrain()
    h = hashlib.sha256()
    for a in sorted(armies, key=lambda a: a.name):
        h.update(a.model_dump_json().encode())
    h.update(terrain.model_dump_json().encode())
    for s in load_map_pool(options.sections_file, terrain):
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
    tasks_resumed: int = 0  # of tasks_done: read back from the store, not played
    interrupted: bool = False
    seconds: float = 0.0
    threads: int = 0
    backend: str = "local"


# Manifest keys that do not decide any game (when, where, how fast, how many): a resumed or
# merged store may differ in them; every other key must be equal (``identity``).
VOLATILE = frozenset(
    {
        "version", "started", "finished", "machine", "games", "seconds", "threads",
        "interrupted", "games_per_pairing", "games_per_pairing_reached", "precision",
        "max_games", "precision_reached", "paired_games", "identical_variant", "backend",
        "first_player_elo", "first_game",
    }
)  # fmt: skip


def identity(manifest: dict) -> dict:
    """What decides a study's games: its manifest without the :data:`VOLATILE` keys and
    without where each army file was read from (its data hash stays)."""
    out = {k: v for k, v in manifest.items() if k not in VOLATILE}
    if isinstance(out.get("armies"), list):
        out["armies"] = [
            {k: v for k, v in a.items() if k != "source"} if isinstance(a, dict) else a
            for a in out["armies"]
        ]
    return json.loads(json.dumps(out, default=str))  # tuples as lists, as read back


def _first_difference(old, new, where: str = "") -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new), key=str):
            if old.get(k) != new.get(k):
                return _first_difference(old.get(k), new.get(k), f"{where}.{k}" if where else k)
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    short = lambda x: s if len(s := json.dumps(x, default=str)) <= 40 else s[:37] + "..."  # noqa: E731
    return f"{where or 'manifest'}: {short(old)} on disk, {short(new)} now"


def part_manifest(path: Path) -> dict:
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(b"manoeuvre_sim")
    if raw is None:
        raise UsageError(f"--resume: {path} is not a part of a manoeuvre-sim study store")
    return json.loads(raw)


def check_store(store: str | Path, manifest: dict, what: str = "--resume") -> int:
    """Refuse, with one line, a store holding games of another study (another
    configuration, data hash or rules version than ``manifest``): mixing them in would make
    tables of two studies. Returns the number of parts found."""
    store = Path(store)
    parts = sorted(p for p in store.glob("*.parquet") if not p.name.startswith("."))
    want = identity(manifest)
    for path in parts[:1] + parts[-1:]:  # every part is checked again when it is read
        _check_part_identity(path, want, what)
    return len(parts)


def _check_part_identity(path: Path, want: dict, what: str) -> dict:
    m = part_manifest(path)
    got = identity({k: v for k, v in m.items() if k != "task"})
    if got != want:
        raise UsageError(
            f"{what} {path.parent}: the games on disk are of another study "
            f"({_first_difference(got, want)}); they are not mixed in: use another --out, or "
            "start afresh without --resume"
        )
    return m["task"]


def task_meta(p: Pairing, task: Task) -> dict:
    """What a part's metadata records of its task (a resumed task must match it exactly)."""
    return {
        "pairing": task.pairing,
        "patches": [list(x) for x in p.patches],
        "label": p.label,
        "army_a": p.army_a.name,
        "army_b": p.army_b.name,
        "seed": p.seed,
        "first_game": task.first_game,
        "count": task.count,
    }


def stats_path(store: Path, label: str, task: Task) -> Path:
    """Where a task's card statistics go (beside the store: ``DIR/card_stats/``)."""
    return store.parent / "card_stats" / part_name(label, task).replace(".parquet", ".npz")


def _write_stats(path: Path, cs: np.ndarray) -> None:
    from manoeuvre_sim.fileio import temp_beside

    small = cs.astype(np.int16) if cs.size == 0 or int(np.abs(cs).max()) < 2**15 else cs
    tmp = temp_beside(path)
    try:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, cs=small)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _on_disk(store: Path, p: Pairing, task: Task, want: dict, stats: bool) -> bool:
    """Whether a task is finished in the store: its part is there, of this study (else a
    UsageError), of exactly these games (an earlier run's shorter last block is not), with
    its card statistics when they are taken."""
    path = store / part_name(p.label, task)
    if not path.exists():
        return False
    if _check_part_identity(path, want, "--resume") != task_meta(p, task):
        return False
    return not stats or stats_path(store, p.label, task).exists()


def _read_done(store: Path, p: Pairing, task: Task, stats: bool) -> tuple:
    import pandas as pd

    from manoeuvre_sim.engine.cardstats import NCS

    df = pd.read_parquet(store / part_name(p.label, task))
    cs = np.load(stats_path(store, p.label, task))["cs"].astype(np.int32) if stats else None
    if cs is not None and cs.shape[-1] < NCS:
        # written before the use fields appended since (USE_BANZAI): none of those uses
        cs = np.concatenate([cs, np.zeros((*cs.shape[:-1], NCS - cs.shape[-1]), np.int32)], -1)
    return df, cs


def run_task(shared: dict, item: tuple) -> tuple:
    """Play one task: the function every backend runs (in this process or on a worker).

    ``shared``: ``{"pairings", "packed", "options"}`` (scattered once to a cluster);
    ``item``: ``(pairing index, first game, count, card_stats, card_bits, threads)``.
    Returns the task's games as a DataFrame (the ``simulate`` columns plus ``pairing`` and
    ``label``) and its card statistics (``int32 (count, 2, n_cards, NCS)``, or None).
    """
    from manoeuvre_sim.results import to_frame
    from manoeuvre_sim.runner import SimConfig, simulate

    k, first, count, want, card_bits, threads = item
    p = shared["pairings"][k]
    options = shared["options"]
    a, b, P = shared["packed"][_pack_key(p)]
    cfg = SimConfig(
        p.army_a.name, p.army_b.name, games=count, seed=p.seed, first_game=first,
        policy_a=p.policy_a, policy_b=p.policy_b, params_a=p.params_a, params_b=p.params_b,
        threads=threads, chunk=count, **options.sim_fields(),
    )  # fmt: skip
    res = simulate(cfg, prepared=(a, b, apply_patches(P, p.patches)), card_stats=want)
    if res.interrupted:
        raise KeyboardInterrupt
    df = to_frame(res.records, res.manifest, card_bits=card_bits, first_game=first)
    df["pairing"] = np.int32(k)
    df["label"] = p.label
    return df, res.card_stats


def _pack_key(p: Pairing) -> tuple[str, str]:
    return (army_hash(p.army_a), army_hash(p.army_b))


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
    backend=None,
    resume: bool = False,
) -> PlayOutcome:
    """Play ``tasks`` and hand each finished block, in task order, to
    ``on_frame(task, frame, stats)`` (``stats``: its card statistics, or None).

    Parameters
    ----------
    pairings : the study's pairings; a task names one by index.
    tasks : the blocks of games to play.
    options : rule switches.
    threads : 0 for all cores (the local backend's numba threads).
    store : a directory; each task's games are written to ``store/<part_name>`` (atomically)
        with ``manifest`` (plus the task) in the Parquet metadata, its card statistics (when
        taken) to ``DIR/card_stats/``. None: nothing written.
    on_frame : receives the task, its games as a DataFrame (the ``simulate`` columns plus
        ``pairing`` and ``label``) and its card statistics (None unless taken), after the
        file is written.
    progress : called with the number of games just finished.
    card_bits : add the drawn/played card-copy columns.
    card_stats : take each game's per-card-copy statistics (``engine/cardstats.py``) of
        every pairing (True) or of the pairings in a collection.
    backend : a :mod:`manoeuvre_sim.backend` backend (None: local on ``threads``).
    resume : a task already in ``store`` (same study by the manifest, same games) is read
        back instead of played; a store of another study is refused (UsageError).

    A KeyboardInterrupt ends the run between tasks (tasks in flight are discarded) and is
    reported as ``interrupted``; finished tasks are on disk and were handed to ``on_frame``.
    """
    from manoeuvre_sim.backend import LocalBackend
    from manoeuvre_sim.engine.pack import pack
    from manoeuvre_sim.model import load_map_pool, load_terrain
    from manoeuvre_sim.store import write_part

    if threads < 0:
        raise UsageError(f"--threads: expected 0 (all cores) or more, got {threads}")
    backend = backend if backend is not None else LocalBackend(threads)
    store = Path(store) if store is not None else None
    tasks = list(tasks)
    manifest = dict(manifest or {})
    want_id = identity(manifest)

    def wants_stats(k: int) -> bool:
        return card_stats if isinstance(card_stats, bool) else k in card_stats

    out = PlayOutcome(threads=backend.total_threads(), backend=backend.name)
    t0 = time.perf_counter()
    results = iter(())
    try:
        # the plan: each task read back from the store (resume) or played
        done_before: set[int] = set()
        if resume and store is not None and store.exists():
            check_store(store, manifest)
            done_before = {
                i for i, t in enumerate(tasks)
                if _on_disk(store, pairings[t.pairing], t, want_id, wants_stats(t.pairing))
            }  # fmt: skip
        to_play = [t for i, t in enumerate(tasks) if i not in done_before]
        shared = None
        if to_play:
            terrain = load_terrain()
            sections = load_map_pool(options.sections_file, terrain)
            packed = {}
            for k in sorted({t.pairing for t in to_play}):
                p = pairings[k]
                key = _pack_key(p)
                if key not in packed:
                    P = pack(p.army_a, p.army_b, terrain, sections,
                             include_unverified=options.include_unverified_maps)  # fmt: skip
                    packed[key] = (p.army_a, p.army_b, P)
            shared = {"pairings": list(pairings), "packed": packed, "options": options}
        items = (
            (t.pairing, t.first_game, t.count, wants_stats(t.pairing), card_bits,
             backend.task_threads)
            for t in to_play
        )  # fmt: skip
        results = backend.map(run_task, shared, items) if to_play else iter(())
        for i, task in enumerate(tasks):
            p = pairings[task.pairing]
            if i in done_before:
                df, cs = _read_done(store, p, task, wants_stats(task.pairing))
                out.tasks_resumed += 1
            else:
                df, cs = next(results)
                if store is not None:
                    if cs is not None:
                        _write_stats(stats_path(store, p.label, task), cs)
                    meta = manifest | {"task": task_meta(p, task)}
                    write_part(df, store / part_name(p.label, task), meta)
            if on_frame is not None:
                on_frame(task, df, cs)
            out.games[task.pairing] = out.games.get(task.pairing, 0) + task.count
            out.tasks_done += 1
            if progress is not None:
                progress(task.count)
    except KeyboardInterrupt:
        out.interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # a cluster cancels the tasks still in flight
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


def simulate_tasks(
    config,
    prepared: tuple,
    *,
    block: int,
    store: str | Path | None = None,
    card_bits: bool = False,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
):
    """``simulate`` as a study of one pairing: games ``config.first_game ..`` in tasks of
    ``block`` games (each a part of ``store`` when given), on ``backend``.

    Returns ``(frame, manifest, interrupted)``: the games in order (the ``simulate``
    columns), the output's manifest (``runner.run_manifest``) and whether it was stopped.
    """
    import pandas as pd

    from manoeuvre_sim import RULES_VERSION
    from manoeuvre_sim.runner import config_dict, policy_arrays, run_manifest

    if block < 1:
        raise UsageError(f"--block: expected a positive number of games, got {block}")
    a, b, P = prepared
    c = config
    pairing = Pairing(a, b, c.policy_a, c.policy_b, c.seed, "games",
                      params_a=c.params_a, params_b=c.params_b)  # fmt: skip
    options = RuleOptions.of(c)
    tasks = blocks(0, c.first_game, c.first_game + c.games, block)
    settings = {
        k: v
        for k, v in config_dict(c).items()
        if k not in ("games", "threads", "chunk", "first_game")
    }
    ident = {"study": "simulate", "rules_version": RULES_VERSION, "data_hash": P.data_hash,
             "config": settings, "card_bits": card_bits, "block": block}  # fmt: skip
    frames: list[pd.DataFrame] = []
    state = {"done": 0}

    def tick(n: int) -> None:
        state["done"] += n
        if progress is not None:
            progress(state["done"], c.games)

    out = play([pairing], tasks, options=options, threads=c.threads, store=store,
               manifest=ident, on_frame=lambda t, df, cs: frames.append(df), progress=tick,
               card_bits=card_bits, backend=backend, resume=resume)  # fmt: skip
    df = (
        pd.concat(frames, ignore_index=True).drop(columns=["pairing", "label"])
        if frames
        else pd.DataFrame()
    )
    params = policy_arrays(c)[1]
    manifest = run_manifest(c, a, b, P, params, len(df), out.interrupted, out.threads, out.seconds)
    manifest["backend"] = out.backend
    manifest["block"] = block
    return df, manifest, out.interrupted
