"""The paired what-if, written once for every game (issues 31, 39): a base study and a
variant of it played on the same seeds (common random numbers), game by game.

Every game of the variant replays the seed of the same game of the base (a changed side
keeps the base side's seeding name), so the two differ only where the change made them
differ; the change of a rate is the mean of the per-game differences, with its interval
from those differences (Student t), far narrower than the difference of two independent
studies. An identical variant gives exactly zero everywhere.

This module is the study: its spec (:class:`WhatIfSpec`), :func:`command_spec` (a command's
option values -> the spec; ``manoeuvre-sim whatif``, ``hex whatif`` and the workbench's
jobs call it), :func:`run_spec`, the manifest (:func:`base_manifest`) and the result
(:class:`WhatIfResult`: the tables every game has, ``whatif_tables.side_tables``, and the
paired outcome table per pairing, :meth:`WhatIfResult.pairing_table`). How the pairs of games are
played and counted is :func:`play_paired` and :class:`Joint` (the fixer plays through them
too). What differs between games is asked of the game's adapter through its optional
hooks, each declared once (its signature, what it returns, its default) in
``core.games.HOOKS``: ``whatif_command`` (default :func:`spec_of`), ``whatif_pairings``,
``whatif_variant_options``, ``whatif_manifest`` (default: the balance study's manifest with
the changes, :func:`base_manifest`), ``whatif_tables`` (default ``side_tables``),
``whatif_write`` and ``WHATIF_PAGES`` (the summary and the PDF, ``games.pages_module``).

Python API (any game of the registry; the options are the game's command's)::

    from manoeuvre_sim.studies import whatif
    res = whatif.run("manoeuvre", ["France", "Russia", "Spain"],
                     edits=["France/Garde Imperial/full=9"], games_per_pairing=500, seed=1)
    res = whatif.run("hex", edits=["blue/infantry/strength=5"], games_per_pairing=2000)
    res = whatif.run("coin", ["heavy:70", "fair"], variant_sides={"heavy": "heavy:60"})
    res.whatif        # per changed side and opponent (and its "field" row)
    res.field         # per changed side: field score and rating, base vs variant
"""

from __future__ import annotations

import datetime as _dt
import functools
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game, hook, pages_module, resolve
from manoeuvre_sim.core.study import (
    Pairing,
    PlayOutcome,
    Progress,
    Task,
    blocks,
    play,
)
from manoeuvre_sim.core.study_command import PLAYERS, Option, StudyCommand, sides_option
from manoeuvre_sim.studies.rounds import WINNERS, interleave
from manoeuvre_sim.studies.whatif_spec import (
    BASE,
    DEFAULT_BLOCK,
    DEFAULT_GAMES,
    VARIANT,
    WhatIfSpec,
    balance_spec,
    spec_of,
)
from manoeuvre_sim.studies.whatif_tables import outcome_row, side_tables, summary_lines

KIND = "whatif"
ALL = "all"  # the pooled row of the pairing table
# what the result keeps of every block (its tables and the games a page lists)
KEEP = ("label", "pairing", "game", "seed", "army_a", "army_b", "policy_a", "policy_b",
        "first_player", "winner")  # fmt: skip


def _command_options(g, kw: dict) -> None:
    """The generic command's ``--variant NAME=SIDE`` items as ``variant_sides`` and its
    ``--sides`` as a list (``COMMAND.prepare``); one line naming the option."""
    variant_sides = {}
    for item in kw.pop("variant_sides"):
        name, sep, side = item.partition("=")
        if not sep or not name.strip() or not side.strip():
            raise UsageError(f"--variant {item!r}: expected NAME=SIDE")
        variant_sides[name.strip()] = side.strip()
    kw["variant_sides"] = variant_sides
    kw["edits"] = list(kw.get("edits") or ())
    if not variant_sides and not kw["edits"] and kw["variant_options"] is None:
        raise UsageError("--variant: expected a side's variant, a --set edit or a "
                         "--variant-OPTION")  # fmt: skip
    kw["sides"] = [s.strip() for s in kw["sides"].split(",") if s.strip()]


# the command and the job (core/study_command.py): a game without its own whatif command
COMMAND = StudyCommand(
    help="A changed side or rule option against the base, paired games.",
    details="A side's variant: --variant NAME=SIDE (read as --sides are) or --set edits of "
    "the game's (if it has any); a rule option's: --variant-OPTION.",
    options=(sides_option(), Option("--variant", "A side of --sides by its name, and its "
             "variant (repeatable).", name="variant_sides", multiple=True, metavar="NAME=SIDE"),
             Option("--set", "An edit of a side in the game's what-if language (repeatable).",
                    name="edits", multiple=True, metavar="EDIT"),
             *PLAYERS, Option("--games-per-pairing", "Games per ordered pairing, in the base "
             "and in the variant.", "int", default=DEFAULT_GAMES)),
    game_options=("", "variant-"), prepare=_command_options, block=DEFAULT_BLOCK,
    out_help="Directory for games.parquet/, whatif.csv, summary.txt, manifest.json.",
    job=True, edits=True, done_key="paired_games")  # fmt: skip


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
        codes = block_codes(df)
        mate = self._waiting.pop((other, pairing, first_game), None)
        if mate is None:
            self._waiting[(which, pairing, first_game)] = codes
            return
        b, v = (mate, codes) if which == VARIANT else (codes, mate)
        self.add_counts(pairing, pair_counts(b, v))

    def add_counts(self, pairing: int, counts: np.ndarray) -> None:
        """A block pair's 36 counts (:func:`pair_counts`), counted already."""
        self.counts[pairing] = self.counts.get(pairing, np.zeros(36, np.int64)) + counts

    @property
    def paired_games(self) -> int:
        return int(sum(c.sum() for c in self.counts.values()))


def block_codes(df) -> tuple[np.ndarray, np.ndarray]:
    """A block's games and each game's (first player, winner) as one code, 3 * first +
    winner (first: 0 a, 1 b; winner: 0 a, 1 b, 2 a draw): all the pairing reads of it."""
    first = (df["first_player"].to_numpy() == "b").astype(np.int64)
    w = df["winner"].to_numpy()
    winner = np.where(w == "a", 0, np.where(w == "b", 1, 2)).astype(np.int64)
    return df["game"].to_numpy(), first * 3 + winner


def pair_counts(base, variant) -> np.ndarray:
    """The 36 :class:`Joint` counts (6 x the base game's code + the variant game's) of a
    base block and a variant block of the same games (each :func:`block_codes`)."""
    (games_b, code_b), (games_v, code_v) = base, variant
    if not np.array_equal(games_b, games_v):
        raise RuntimeError("what-if: base and variant blocks do not cover the same games")
    return np.bincount(code_b * 6 + code_v, minlength=36)


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
    base_games: Mapping[int, Any] | None = None,
    base_tables: Mapping[int, Any] | None = None,
    **play_kw,
) -> PairedPlay:
    """Play ``games`` games of every ``base`` pairing and, on the same seeds, of the
    variant of each pairing in ``variant`` (base index -> its variant pairing: its own
    sides and label, the base pairing's seed).

    One ``study.play`` when the variant plays under the base's rule options (each variant
    block right after its base block, so an interruption leaves whole pairs), else two: the
    base under ``options``, then the variants under ``variant_options``. The store's parts
    are named by the pairings' labels; ``on_frame(task, frame, stats, which)`` sees every
    block; ``base_games``: base index -> its games ``0 .. k - 1`` already had (read from
    the study the what-if starts from, ``whatif_base.read_base``): handed on and written to
    the store as the blocks they would have been played in, not played (``base_tables``:
    the same games as the pyarrow Tables they were read as, written as they are); ``play_kw``: the
    rest of ``study.play``'s keywords (``threads``, ``store``, ``manifest``, ``backend``,
    ``resume``)."""
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

    have = {i: len(f) for i, f in (base_games or {}).items()}
    # per base pairing its tasks: the games it has (read), then those it plays; its
    # variant's tasks are the same blocks, so Joint pairs them block by block
    read = {i: blocks(i, 0, have.get(i, 0), block) for i in range(nb)}
    plays = {i: blocks(i, have.get(i, 0), games, block) for i in range(nb)}

    def twin(i: int, tasks: list[Task]) -> list[Task]:
        return [Task(nb + touched.index(i), t.first_game, t.count) for t in tasks]

    same = variant_options is None or variant_options == options
    calls: list[tuple[object, list[Task]]] = []
    if same:
        per = []
        for i in range(nb):
            tasks = plays[i]
            if i in variant:
                tasks = twin(i, read[i]) + [x for t in tasks for x in (t, *twin(i, [t]))]
            per.append(tasks)
        calls.append((options, interleave(per)))
    else:
        calls.append((options, interleave([plays[i] for i in range(nb)])))
        calls.append((variant_options, interleave([twin(i, read[i] + plays[i])
                                                   for i in touched])))  # fmt: skip
    tick = Progress(progress, sum(t.count for _, ts in calls for t in ts)
                    + sum(have.values()))  # fmt: skip
    from manoeuvre_sim.studies.whatif_base import hand_read

    outcome = hand_read(base_games or {}, read, pairings, g, count, tick, play_kw, base_tables)
    for opts, tasks in calls if not outcome.interrupted else ():
        out = play(pairings, tasks, game=g, options=opts, on_frame=count, progress=tick,
                   **play_kw)  # fmt: skip
        games_done = {k: outcome.games.get(k, 0) + out.games.get(k, 0)
                      for k in {*outcome.games, *out.games}}  # fmt: skip
        outcome = replace(out, games=games_done,  # the calls and the games read as one run
                          tasks_done=outcome.tasks_done + out.tasks_done,
                          tasks_resumed=outcome.tasks_resumed + out.tasks_resumed,
                          seconds=outcome.seconds + out.seconds)  # fmt: skip
        if out.interrupted:
            break
    return PairedPlay(joint, outcome)


# ------------------------------------------------------------------ the study of any game


def command_spec(game: str, *args, **options) -> WhatIfSpec:
    """The what-if a game's ``whatif`` command builds from its options by their Python
    names, with its defaults (the command line and the workbench's jobs both build it
    here): the game's ``whatif_command`` (else :func:`spec_of`), every option checked, every
    side loaded and every edit applied, before any game."""
    g = get_game(game)
    own = hook(g, "whatif_command")
    if own is None:
        return spec_of(g, *args, **options)
    return WhatIfSpec(game=g.KEY, **own(*args, **options))


def command_spec_of(game: str) -> Callable[..., WhatIfSpec]:
    """:func:`command_spec` of ``game`` with the game's options as its signature (what the
    workbench reads to know which options a job of this game takes)."""
    g = get_game(game)
    command = hook(g, "whatif_command") or functools.partial(spec_of, g)

    @functools.wraps(command)
    def build(*args, **options) -> WhatIfSpec:
        return command_spec(g.KEY, *args, **options)

    return build


def base_manifest(g, spec: WhatIfSpec, variant_options, where: Path | None = None) -> dict:
    """What decides the games (every part of the store carries it; a resumed run must
    match it): the game's ``whatif_manifest``, else the balance study's manifest with the
    changes and the variant's data hash."""
    own = hook(g, "whatif_manifest")
    if own is not None:
        return own(spec, variant_options, where)
    from manoeuvre_sim.studies import balance as B

    bs = balance_spec(g, spec)
    changed = [spec.variant_of[n] for n in spec.touched]
    return B.base_manifest(bs, "whatif", B.describe_sides) | {
        "changes": list(spec.changes),
        "variant_data_hash": g.data_hash([*changed, *spec.sides], variant_options),
    }


@dataclass
class WhatIfResult:
    """A what-if of any game: ``tables`` (name -> the table written as ``<name>.csv``:
    the game's ``whatif_tables``, else ``whatif_tables.side_tables``' ``whatif``
    and ``whatif_field``), the manifest, ``games`` (every block's :data:`KEEP` columns, base
    and variant, in pairing and game order), ``joint`` (base pairing index -> its
    :class:`Joint` counts) and ``pairings`` (the base pairings)."""

    spec: WhatIfSpec
    tables: dict
    manifest: dict
    games: Any  # pandas DataFrame
    joint: dict[int, np.ndarray]
    pairings: list[Pairing]
    interrupted: bool = False
    store: Path | None = None
    identical: bool = False

    @property
    def whatif(self):
        """The main table (``whatif.csv``)."""
        return self.tables["whatif"]

    @property
    def field(self):
        """Per changed side, its field score base vs variant (``whatif_field.csv``)."""
        import pandas as pd

        return self.tables.get("whatif_field", pd.DataFrame())

    def pairing_table(self, pooled: bool = True):
        """Per base pairing replayed (then, with ``pooled`` and more than one pairing,
        ``all`` of them pooled): the sides and players, the paired games, and for each of
        ``whatif_tables.OUTCOMES`` its rate in base and variant, the paired change and its 95 %
        interval from the per-game differences; the games whose winner changed."""
        import pandas as pd

        rows = []
        for i in sorted(self.joint):
            p = self.pairings[i]
            rows.append({"side_a": p.army_a.name, "side_b": p.army_b.name,
                         "policy_a": p.policy_a, "policy_b": p.policy_b}
                        | outcome_row(self.joint[i]))  # fmt: skip
        if pooled and len(self.pairings) > 1 and rows:
            total = sum(self.joint.values())
            rows.append({"side_a": ALL, "side_b": ALL, "policy_a": ALL, "policy_b": ALL}
                        | outcome_row(total))  # fmt: skip
        out = pd.DataFrame(rows)
        if len(out):
            out[["games", "changed_games"]] = out[["games", "changed_games"]].astype(np.int64)
        return out

    def base_groups(self) -> dict[int, np.ndarray]:
        """Per base pairing, its base games by (first player x winner): 6 counts."""
        g = self.games
        key = {(p.army_a.name, p.army_b.name): i for i, p in enumerate(self.pairings)}
        base = g[g["label"] == BASE].assign(games=1)
        t = base.groupby(["army_a", "army_b", "first_player", "winner"], observed=True)
        out: dict[int, np.ndarray] = {}
        for (a, b, f, w), n in t["games"].sum().items():
            arr = out.setdefault(key[(a, b)], np.zeros(6, np.int64))
            arr["ab".index(f) * 3 + WINNERS.index(w)] += int(n)
        return out

    def summary(self) -> list[str]:
        pages = pages_module(get_game(self.spec.game), "WHATIF_PAGES")
        return pages.summary_lines(self) if pages is not None else summary_lines(self)

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """The game's own files of the variant (``whatif_write``), each table as
        ``<name>.csv``, manifest.json, summary.txt and the game's pages (its PDF), each
        written atomically."""
        from manoeuvre_sim.core.results import write_csv, write_json, write_text

        g = get_game(self.spec.game)
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written = list(hook(g, "whatif_write")(self, out))
        written += [write_csv(df, out / f"{name}.csv") for name, df in self.tables.items()]
        written.append(write_json(out / "manifest.json", self.manifest))
        written.append(write_text(out / "summary.txt", "\n".join(self.summary()) + "\n"))
        pages = pages_module(g, "WHATIF_PAGES")
        if pages is not None:
            written += pages.write_pages(self, out, paper)
        return written


def run_spec(
    spec: WhatIfSpec,
    out_dir: str | Path | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
    resume: bool = False,
    boot: int = 200,
    command: str | None = None,
    base_study: str | Path | None = None,
) -> WhatIfResult:
    """Play the base study and, with the same seeds, every pairing of a touched side (all
    of them when the rule options change) with the variant; compare them pair by pair.
    ``out_dir``: the store (``games.parquet/``) and what the variant needs on disk (without
    it, a scratch directory for the run's length); ``boot``: the rating change's bootstrap
    resamples; ``command``: the command line, recorded in the manifest; ``base_study``: a
    balance study's directory whose games of the base are read, not played (those it lacks
    are played; ``whatif_base.read_base``), the same records either way (the manifest's
    ``base_study`` says how many games were read and played)."""
    run = functools.partial(_run, spec, progress=progress, backend=backend, resume=resume,
                            boot=boot, command=command, base_study=base_study)  # fmt: skip
    if out_dir is None:
        with tempfile.TemporaryDirectory(prefix="whatif-") as tmp:
            return run(None, Path(tmp))
    return run(Path(out_dir), Path(out_dir))


def _run(spec, out_dir, where, *, progress, backend, resume, boot, command,
         base_study) -> WhatIfResult:  # fmt: skip
    import pandas as pd

    from manoeuvre_sim.studies.balance import make_store

    g = get_game(spec.game)
    own = hook(g, "whatif_variant_options")
    if own is not None:
        v_options = own(spec, where)
    else:
        v_options = spec.variant_options if spec.variant_options is not None else spec.options
    manifest = base_manifest(g, spec, v_options, where)
    store = make_store(out_dir)
    base = spec.base_pairings()
    variant = spec.variant_pairings(base, v_options)
    read = None
    if base_study is not None:
        from manoeuvre_sim.studies.whatif_base import read_base

        read = read_base(spec, base_study, base, spec.games_per_pairing)
    kept: list = []
    played = play_paired(
        base, variant, game=g, games=spec.games_per_pairing, block=spec.block,
        options=spec.options, variant_options=v_options,
        on_frame=lambda task, df, cs, which: kept.append(df[list(KEEP)]), progress=progress,
        base_games=read.frames if read is not None else None,
        base_tables=read.tables if read is not None else None, threads=spec.threads,
        store=store, manifest=manifest, backend=backend, resume=resume,
    )  # fmt: skip
    out, joint = played.outcome, played.joint
    games = (pd.concat(kept, ignore_index=True).sort_values(["pairing", "game"], kind="stable")
             .reset_index(drop=True) if kept else pd.DataFrame(columns=list(KEEP)))  # fmt: skip
    n = spec.games_per_pairing
    reached = [out.games.get(i, 0) for i in range(len(base))]
    identical = manifest.get("identical", spec.identical)
    manifest |= {
        "games": int(sum(out.games.values())),
        "games_per_pairing_reached": {"min": min(reached) if out.interrupted else n,
                                      "max": max(reached) if out.interrupted else n},
        "paired_games": joint.paired_games,
        "identical_variant": identical,
        "interrupted": out.interrupted,
        "seconds": round(out.seconds, 3),
        "threads": out.threads,
        "backend": out.backend,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }  # fmt: skip
    if read is not None:  # where its base games came from (read from a study, played)
        from manoeuvre_sim.studies.whatif_base import base_record

        done = [out.games.get(i, 0) for i in range(len(base) + len(variant))]
        manifest["base_study"] = base_record(read, sum(done[: len(base)]) - read.games,
                                             sum(done[len(base):]))  # fmt: skip
    if command is not None:
        manifest["command"] = command
    res = WhatIfResult(spec, {}, manifest, games, joint.counts, base, out.interrupted, store,
                       identical)  # fmt: skip
    tables = hook(g, "whatif_tables")
    res.tables = tables(res) if tables is not None else side_tables(res, boot=boot)
    return res


def run(
    game: str,
    *args,
    out_dir: str | Path | None = None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    boot: int = 200,
    **options,
) -> WhatIfResult:
    """The what-if of ``game`` (a key of the registry) from its command's options
    (:func:`command_spec`), played (:func:`run_spec`)."""
    spec = command_spec(game, *args, **options)
    return run_spec(spec, out_dir, progress=progress, backend=backend, resume=resume,
                    boot=boot)  # fmt: skip


__all__ = ["ALL", "BASE", "KEEP", "KIND", "VARIANT", "WINNERS", "Joint",
           "PairedPlay", "WhatIfResult", "WhatIfSpec", "base_manifest", "command_spec",
           "command_spec_of", "play_paired", "run", "run_spec", "spec_of",
           "summary_lines"]  # fmt: skip
