"""The base games a what-if reads from the balance study it starts from, instead of playing
them again (issue 41): what makes a stored game the base game of a pairing, and the reading.

A what-if's base pairing plays games ``0 .. N - 1``, game ``i`` seeded from (the pairing's
seed, ``i``) alone (``core/study.py``), so a game of a balance study's store *is* that
base game when the store's games were decided by the same things: the same game and rules
version, the same sides (data hashes), players, rule options and master seed, read as the
balance study's manifest would record them (``balance.base_manifest`` of the balance study
the what-if's base is) and compared with each part's manifest through ``study.identity``
(what a ``--resume`` compares), and the same pairing (its sides' names, its seed, its label,
no card patches). The block size and the first game of a split study do not decide games
(:data:`NOT_DECIDING`); which games a part holds is read from the part itself.

:func:`read_base` returns, per base pairing, its games ``0 .. k - 1`` found in the store
(``k`` at most the what-if's N: a pairing with fewer stored games plays only the missing
ones, ``whatif.play_paired``), or says in one line why nothing was read (another study, a
game whose what-if pairs its games its own way): then every base game is played, as
without a study. Reading never changes a record: the games read are the games the what-if
would have played (a test plays both routes and compares every table and record).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game, hook
from manoeuvre_sim.core.store import META, STORE
from manoeuvre_sim.core.study import Pairing, PolicySpec, _first_difference, identity

# manifest keys that are in a balance part's identity but decide none of its pairings' games
NOT_DECIDING = frozenset({"block", "first_game", "command"})


@dataclass
class BaseGames:
    """What :func:`read_base` found: ``frames`` (base pairing index -> its games
    ``0 .. k - 1`` as the store holds them, relabelled as the what-if's base), ``tables``
    (the same games as the pyarrow Tables they were read as: what the what-if's store is
    written from, with no conversion back), ``study`` (the study read, as given), ``note``
    (why nothing was read; empty when games were)."""

    study: str
    frames: dict[int, object] = field(default_factory=dict)
    tables: dict[int, object] = field(default_factory=dict)
    note: str = ""

    @property
    def games(self) -> int:
        return int(sum(len(f) for f in self.frames.values()))

    def have(self, pairing: int) -> int:
        """The games ``0 .. k - 1`` of a base pairing read: ``k``."""
        f = self.frames.get(pairing)
        return 0 if f is None else len(f)


def _deciding(manifest: dict) -> dict:
    return {k: v for k, v in identity(manifest).items() if k not in NOT_DECIDING}


def balance_identity(spec) -> dict:
    """What decides the games of the balance study a what-if's base is (``spec``: a
    ``whatif.WhatIfSpec``): ``balance.base_manifest`` of its sides, players, seed and
    options, without :data:`NOT_DECIDING`."""
    from manoeuvre_sim.studies import balance as B
    from manoeuvre_sim.studies.whatif_spec import balance_spec

    return _deciding(B.base_manifest(balance_spec(get_game(spec.game), spec)))


def _pairing_key(p: Pairing) -> tuple:
    return (p.army_a.name, p.army_b.name, int(p.seed), PolicySpec(p.policy_a, p.policy_b).label)


def read_base(spec, study: str | Path, base: Sequence[Pairing], games: int) -> BaseGames:
    """Per pairing of ``base`` (the what-if's base pairings), its games ``0 .. k - 1``
    (``k <= games``) in the balance study ``study``'s store (the study's directory, or its
    ``games.parquet/``), when the store's games are of the same study (module docstring);
    else none, with the reason in ``note``. A store that cannot be read is a UsageError
    naming ``--base-study``."""

    study = Path(study)
    out = BaseGames(str(study))
    store = study if study.name == STORE else study / STORE
    if not store.is_dir():
        raise UsageError(f"--base-study: {study} holds no study store ({STORE}/)")
    g = get_game(spec.game)
    if hook(g, "whatif_pairings") is not None:
        out.note = f"{g.KEY}'s what-if pairs its games its own way: its base games are played"
        return out
    try:
        want = balance_identity(spec)
    except UsageError as e:
        out.note = f"the base is not a balance study of these sides ({e}): played"
        return out
    import pyarrow as pa
    import pyarrow.parquet as pq

    index = {_pairing_key(p): i for i, p in enumerate(base) if not p.patches}
    parts: dict[int, list] = {}
    mismatch = ""
    for path in sorted(p for p in store.glob("*.parquet") if not p.name.startswith(".")):
        pf = pq.ParquetFile(path)  # opened once: its manifest, then its games
        raw = (pf.schema_arrow.metadata or {}).get(META)
        if raw is None:
            raise UsageError(f"--base-study: {path} is not a part of a manoeuvre-sim study store")
        m = json.loads(raw)
        task = m.get("task") or {}
        key = (task.get("army_a"), task.get("army_b"), task.get("seed"), task.get("label"))
        i = index.get(key)
        if i is None or task.get("patches"):
            continue
        got = _deciding({k: v for k, v in m.items() if k != "task"})
        if got != want:
            mismatch = mismatch or _first_difference(got, want)
            continue
        # one thread: a part is a block of some thousand rows, and the cores play games
        parts.setdefault(i, []).append(pf.read(use_threads=False))
    for i, tables in parts.items():
        table = pa.concat_tables(tables)
        meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != META}
        table = table.replace_schema_metadata(meta)
        game = table.column("game").to_numpy()
        order = np.argsort(game, kind="stable")
        first = np.ones(len(order), dtype=bool)  # the first part's copy of each game
        first[1:] = game[order][1:] != game[order][:-1]
        order = order[first]
        ok = game[order] == np.arange(len(order))  # the games 0 .. k - 1 held
        k = min(len(ok) if ok.all() else int(np.argmin(ok)), games)
        if k:
            table = _relabel(table.take(order[:k]), i, base[i].label)
            out.tables[i] = table
            # the frame pandas.read_parquet gives (the manifest left out of the schema,
            # which makes pyarrow's conversion some 40 times slower)
            out.frames[i] = table.to_pandas()
    if not out.frames:
        out.note = ("the study's games are of another study "
                    f"({mismatch}): played" if mismatch else
                    "the study holds none of these pairings' games: played")  # fmt: skip
    return out


def _relabel(table, pairing: int, label: str):
    """A base pairing's games as the what-if's base pairing ``pairing`` of label ``label``:
    the two columns set, of their own types."""
    import pyarrow as pa

    for name, value in (("pairing", pairing), ("label", label)):
        k = table.schema.get_field_index(name)
        col = pa.array([value] * len(table), type=table.schema.field(k).type)
        table = table.set_column(k, table.schema.field(k), col)
    return table


def base_record(read: BaseGames | None, base_played: int, variant_played: int) -> dict:
    """What a what-if's manifest records of where its games came from (``base_study``:
    volatile, ``study.VOLATILE``; the games are the same either way)."""
    rec = {"base_read": 0 if read is None else read.games, "base_played": base_played,
           "variant_played": variant_played}  # fmt: skip
    if read is not None:
        rec |= {"from": read.study, "note": read.note}
    return rec


def base_line(rec: dict | None) -> str:
    """The one line a page and a summary say of it: ``base: 64,000 games read from the
    study, 0 played; variant: 15,000 played``."""
    if not rec:
        return ""
    where = " from the study" if rec.get("from") else ""
    line = (f"base: {rec['base_read']:,} games read{where}, {rec['base_played']:,} played; "
            f"variant: {rec['variant_played']:,} played")  # fmt: skip
    return line + (f" ({rec['note']})" if rec.get("note") else "")


__all__ = ["NOT_DECIDING", "BaseGames", "balance_identity", "base_line", "base_record", "hand_read",
           "read_base"]  # fmt: skip


def hand_read(frames, read, pairings, game, count, tick, play_kw: dict, tables=None):
    """The games read (``frames``: base index -> its games; ``read``: base index -> the
    tasks they fill) handed to ``count(task, frame)`` as the blocks ``study.play`` would
    have played, each written to the store (``play_kw['store']``, with
    ``play_kw['manifest']`` and its task, as a played block is; from ``tables``, base index
    -> the same games as pyarrow Tables, when given: no conversion), then to ``tick`` at
    once (so a job's games per second count only the games played); returns the
    ``study.PlayOutcome`` of the games read (``interrupted`` when ``tick`` raised
    KeyboardInterrupt, the cancel of a job: every block read is then in the store)."""
    from manoeuvre_sim.core.store import write_part
    from manoeuvre_sim.core.study import PlayOutcome, part_name, task_meta

    out = PlayOutcome()
    store = play_kw.get("store")
    manifest = dict(play_kw.get("manifest") or {})
    manifest.setdefault("game", game.KEY)
    tables = tables or {}
    for i, tasks in read.items():
        df = frames.get(i)
        for t in tasks:
            part = df.iloc[t.first_game : t.first_game + t.count].reset_index(drop=True)
            p = pairings[t.pairing]
            if store is not None:
                rows = part if i not in tables else tables[i].slice(t.first_game, t.count)
                write_part(rows, Path(store) / part_name(p.label, t),
                           manifest | {"task": task_meta(p, t)})  # fmt: skip
            count(t, part)
            out.games[t.pairing] = out.games.get(t.pairing, 0) + t.count
            out.tasks_done += 1
    try:
        if out.games:
            tick(sum(out.games.values()))
    except KeyboardInterrupt:
        out.interrupted = True
    return out
