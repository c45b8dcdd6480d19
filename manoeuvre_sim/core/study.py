"""Studies: many pairings of sides, played as tasks of (pairing, first game, count).

This layer is the same for every game (``games/``: a game prepares its data and plays blocks
of games; everything else is here): it imports no game, only the registry, and plays the
game a study names (always: there is no default game). A study (the balance matrix, a what-if, a style comparison) is a list of :class:`Pairing`
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

Every part's manifest names its game (``"game"``: a key of ``games.GAMES``); a store of one
game is never resumed or merged as another's. The one legacy rule: a manifest without a
``"game"`` (a store or study written before games had keys, issue 25) holds Manoeuvre's
games (:data:`LEGACY_GAME`, read through :func:`game_of`), so old stores still resume and
old studies still open; everything written since names its game.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import Game, load_game, resolve


@dataclass(frozen=True)
class Pairing:
    """Side A (seat a, player 0) against side B (seat b) with their policies.

    The sides are what the game plays (``games.Game.load_side``: a Manoeuvre army), each
    with a ``name``; the record columns keep the names ``army_a`` and ``army_b`` for every
    game. ``seed`` is the block seed (game i: ``(seed, i)``), ``label`` tags the records
    (the policy label of a balance study, ``base``/``variant`` in a what-if).
    """

    army_a: Any
    army_b: Any
    policy_a: str
    policy_b: str
    seed: int
    label: str = ""
    # a game's edits to its prepared data. Manoeuvre: card patches after packing, (side,
    # copy, source copy) - the copy's row becomes the source copy's row, or a blank card (it
    # can only be discarded) when source is -1; copies are card_no - 1 of `armies export`
    # (card-value ablations; manoeuvre/adapter.py apply_patches)
    patches: tuple[tuple[int, int, int], ...] = ()
    # parameter vectors overriding the policies' defaults (tournament style variants)
    params_a: tuple[float, ...] | None = None
    params_b: tuple[float, ...] | None = None


@dataclass(frozen=True)
class PolicySpec:
    """The players of one part of a balance study (seat a's and seat b's): ``label`` names
    it in the tables and the records (Manoeuvre's play style: both seats alike, a style's
    name)."""

    policy_a: str
    policy_b: str

    @property
    def label(self) -> str:
        a, b = self.policy_a, self.policy_b
        return a if a == b else f"{a}/{b}"


@dataclass(frozen=True)
class Seat:
    """One pairing of a tournament (``studies/tournament.py``): pair ``pair`` (its players
    x, y) with y on side a when ``swapped``, ``games`` games; ``columns``: what its records
    get besides the game's own (assigned in this order after the study's ``pairing`` and
    ``label`` are dropped)."""

    pair: int
    swapped: bool
    pairing: Pairing
    games: int
    columns: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TournamentPlan:
    """What a game's ``tournament_plan`` hands the tournament study: the pairs of player
    names, their seats, the rule options the seats play under, ``ident`` (what decides the
    games of a part of the store) and ``manifest`` (what the output records)."""

    pairs: list[tuple[str, str]]
    seats: list[Seat]
    options: Any
    ident: dict
    manifest: dict


@dataclass(frozen=True)
class SimulatePlan:
    """What a game's ``simulate_plan`` hands ``studies/simulate.py``: games ``first ..
    first + games - 1`` of ``pairing`` under ``options``; ``ident``: what decides the games
    (a resumed store must match it); ``flags``: the game's ``play_block`` keywords;
    ``manifest``: what the output records, as far as known before play (the study adds how
    the run went: ``studies.simulate.output_manifest``)."""

    pairing: Pairing
    first: int
    games: int
    options: Any
    ident: dict
    flags: dict | None = None
    manifest: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Cell:
    """One rate a ``--precision`` study narrows: the games of the pairings ``members``
    pooled, read as the first player's rate (``measure="first"``) or a side's (``"side"``:
    the games won by the side of that name, whichever seat it held); a draw counts ``draw``
    of a win. A pairing belongs to one cell (``studies/rounds.py``; a
    game's ``balance_cells``)."""

    members: tuple[int, ...]
    measure: str = "side"
    draw: float = 0.5


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
        "first_player_elo", "first_game", "games_planned", "incomplete_armies",
        "base_study",
    }
)  # fmt: skip


# what a manifest without a "game" field holds: it was written before games had keys, when
# Manoeuvre was the only game (a legacy rule for reading old stores and studies, never a
# default for a study: a study always names its game)
LEGACY_GAME = "manoeuvre"


def game_of(manifest: dict) -> str:
    """The game a manifest's games are of: its ``"game"``, or :data:`LEGACY_GAME` for a
    manifest written before games had keys."""
    return manifest.get("game", LEGACY_GAME)


def identity(manifest: dict) -> dict:
    """What decides a study's games: its manifest without the :data:`VOLATILE` keys and
    without where each army file was read from (its data hash stays)."""
    out = {k: v for k, v in manifest.items() if k not in VOLATILE}
    out["game"] = game_of(out)  # written before games had keys: LEGACY_GAME's
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
    if got["game"] != want["game"]:
        raise UsageError(
            f"{what} {path.parent}: the games on disk are of the game {got['game']!r}, not "
            f"{want['game']!r}; a store of one game is never mixed with another's: use another "
            "--out"
        )
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


def stats_path(store: Path, label: str, task: Task, game: Game | str) -> Path:
    """Where a task's per-game statistics go: beside the store, in the game's ``STATS_DIR``
    (Manoeuvre's card statistics: ``DIR/card_stats/``)."""
    name = part_name(label, task).replace(".parquet", ".npz")
    return store.parent / resolve(game).STATS_DIR / name


def _write_stats(path: Path, cs: np.ndarray) -> None:
    from manoeuvre_sim.core.fileio import temp_beside

    small = cs.astype(np.int16) if cs.size == 0 or int(np.abs(cs).max()) < 2**15 else cs
    tmp = temp_beside(path)
    try:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, cs=small)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _on_disk(store: Path, p: Pairing, task: Task, want: dict, stats: bool, game: Game) -> bool:
    """Whether a task is finished in the store: its part is there, of this study (else a
    UsageError), of exactly these games (an earlier run's shorter last block is not), with
    its per-game statistics when they are taken."""
    path = store / part_name(p.label, task)
    if not path.exists():
        return False
    if _check_part_identity(path, want, "--resume") != task_meta(p, task):
        return False
    return not stats or stats_path(store, p.label, task, game).exists()


def _read_done(store: Path, p: Pairing, task: Task, stats: bool, game: Game | str) -> tuple:
    import pandas as pd

    game = resolve(game)
    df = pd.read_parquet(store / part_name(p.label, task))
    cs = None
    if stats:
        cs = game.read_stats(np.load(stats_path(store, p.label, task, game))["cs"])
    return df, cs


def run_task(shared: dict, item: tuple) -> tuple:
    """Play one task: the function every backend runs (in this process or on a worker).

    ``shared``: ``{"game", "pairings", "prepared", "flags"}`` (scattered once to a cluster;
    ``game``: the game's module name, imported where the task runs); ``item``: ``(pairing
    index, first game, count, stats, threads)``. Returns the task's games as a DataFrame
    (the game's columns plus ``pairing`` and ``label``) and their per-game statistics (or
    None): ``games.Game.play_block``.
    """
    k, first, count, want, threads = item
    game = load_game(shared["game"])
    p = shared["pairings"][k]
    df, stats = game.play_block(
        shared["prepared"], p, first, count, threads, stats=want, **shared["flags"]
    )
    df["pairing"] = np.int32(k)
    df["label"] = p.label
    return df, stats


def play(
    pairings: Sequence[Pairing],
    tasks: Iterable[Task],
    *,
    game: Game | str,
    options: Any = None,
    threads: int = 0,
    store: str | Path | None = None,
    manifest: dict | None = None,
    on_frame: Callable[[Task, object], None] | None = None,
    progress: Callable[[int], None] | None = None,
    stats: bool | Collection[int] = False,
    flags: dict | None = None,
    backend=None,
    resume: bool = False,
) -> PlayOutcome:
    """Play ``tasks`` and hand each finished block, in task order, to
    ``on_frame(task, frame, stats)`` (``stats``: its per-game statistics, or None).

    Parameters
    ----------
    pairings : the study's pairings; a task names one by index.
    tasks : the blocks of games to play.
    game : the game played (``games.Game``, or its key; always given: no default).
    options : the game's rule switches (its ``Options``; None: their defaults).
    threads : 0 for all cores (the local backend's numba threads).
    store : a directory; each task's games are written to ``store/<part_name>`` (atomically)
        with ``manifest`` (plus the game's key and the task) in the Parquet metadata, its
        per-game statistics (when taken) to the game's ``STATS_DIR`` beside the store
        (Manoeuvre: ``DIR/card_stats/``). None: nothing written.
    on_frame : receives the task, its games as a DataFrame (the game's columns plus
        ``pairing`` and ``label``) and its per-game statistics (None unless taken), after
        the file is written.
    progress : called with the number of games just finished.
    stats : take the game's per-game statistics (Manoeuvre: per-card-copy statistics,
        ``engine/cardstats.py``) of every pairing (True) or of the pairings in a collection.
    flags : keywords for the game's ``play_block`` (Manoeuvre: ``{"card_bits": True}``, the
        drawn/played card-copy columns).
    backend : a :mod:`manoeuvre_sim.core.backend` backend (None: local on ``threads``).
    resume : a task already in ``store`` (same study by the manifest, same games) is read
        back instead of played; a store of another study is refused (UsageError).

    A KeyboardInterrupt ends the run between tasks (tasks in flight are discarded) and is
    reported as ``interrupted``; finished tasks are on disk and were handed to ``on_frame``.
    """
    from manoeuvre_sim.core.backend import LocalBackend

    if threads < 0:
        raise UsageError(f"--threads: expected 0 (all cores) or more, got {threads}")
    game = resolve(game)
    options = options if options is not None else game.Options()
    backend = backend if backend is not None else LocalBackend(threads)
    store = Path(store) if store is not None else None
    tasks = list(tasks)
    manifest = dict(manifest or {})
    if manifest.setdefault("game", game.KEY) != game.KEY:
        raise UsageError(f"a study of {manifest['game']!r} cannot play the game {game.KEY!r}")

    def wants_stats(k: int) -> bool:
        return stats if isinstance(stats, bool) else k in stats

    out = PlayOutcome(threads=backend.total_threads(), backend=backend.name)
    t0 = time.perf_counter()
    results = iter(())
    try:
        done_before = _resumed_tasks(pairings, tasks, store, manifest, resume, wants_stats, game)
        to_play = [t for i, t in enumerate(tasks) if i not in done_before]
        results = _start(pairings, to_play, game, options, flags, backend, wants_stats)
        for i, task in enumerate(tasks):
            p = pairings[task.pairing]
            if i in done_before:
                df, cs = _read_done(store, p, task, wants_stats(task.pairing), game)
                out.tasks_resumed += 1
            else:
                df, cs = next(results)
                _keep(store, p, task, df, cs, manifest, game)
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


def _resumed_tasks(pairings, tasks, store, manifest, resume, wants_stats, game) -> set[int]:
    """The plan's first half: the indices of ``tasks`` read back from ``store`` (with
    ``resume``: the same study by the manifest, the same games), said on stderr."""
    done_before: set[int] = set()
    if resume and store is not None and store.exists():
        check_store(store, manifest)
        want_id = identity(manifest)
        done_before = {
            i for i, t in enumerate(tasks)
            if _on_disk(store, pairings[t.pairing], t, want_id, wants_stats(t.pairing), game)
        }  # fmt: skip
    if resume and store is not None:
        say_resumed(store, sum(tasks[i].count for i in done_before),
                    sum(t.count for t in tasks))  # fmt: skip
    return done_before


def _start(pairings, to_play, game, options, flags, backend, wants_stats):
    """The plan's second half: the backend's iterator of the results of ``to_play``, in
    task order (the game's data prepared once, for the pairings they name)."""
    if not to_play:
        return iter(())
    backend.plan(len(to_play))  # the local backend: tasks at once, or each on every thread
    needed = [pairings[k] for k in sorted({t.pairing for t in to_play})]
    shared = {"game": game.__name__, "pairings": list(pairings),
              "prepared": game.prepare(needed, options), "flags": dict(flags or {})}  # fmt: skip
    items = (
        (t.pairing, t.first_game, t.count, wants_stats(t.pairing), backend.task_threads)
        for t in to_play
    )
    return backend.map(run_task, shared, items)


def _keep(store, p: Pairing, task: Task, df, cs, manifest: dict, game) -> None:
    """A played task into ``store`` (nothing without one): its games as a Parquet part with
    the manifest and the task, its per-game statistics beside the store."""
    from manoeuvre_sim.core.store import write_part

    if store is None:
        return
    if cs is not None:
        _write_stats(stats_path(store, p.label, task, game), cs)
    write_part(df, store / part_name(p.label, task), manifest | {"task": task_meta(p, task)})


def resumed_text(store: Path, read: int, total: int) -> str:
    """The line a --resume run says before playing: how many of its games it read back."""
    where = store.parent if store.name == "games.parquet" else store  # a study directory
    if not read:
        return f"resumed: no finished games of this run in {where}; playing all {total:,}"
    return f"resumed: {read:,} of {total:,} games read back from {where}"


def say_resumed(store: Path, read: int, total: int) -> None:
    """Print :func:`resumed_text` on stderr (above a progress bar when one is drawn); a
    later round of a precision study that reads nothing back says nothing."""
    import sys

    if not read and any(store.glob("*.parquet")):
        return
    from tqdm import tqdm

    tqdm.write(resumed_text(store, read, total), file=sys.stderr)


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


class Progress:
    """``study.play``'s progress callback (the games just finished) for a run that calls it
    once or several times: it adds them up and hands ``progress(done, total)`` on, ``total``
    as it stands then (a run in rounds raises it round by round)."""

    def __init__(self, progress: Callable[[int, int], None] | None, total: int = 0) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self, n: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(self.done, self.total)
