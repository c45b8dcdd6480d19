"""What a study's page shows, by its kind: the sections (charts and tables) its game's web
module lays out for it (``STUDY_VIEWS``: ``web/games/<game>/views.py``), then every other
table of the study as it is; a study of a kind no game lays out (any game's, the toy
game's too) shows all its tables. This module holds what those views share: a study's
tables read once (:class:`Ctx`), the sections and the page's content (:class:`View`).

Every number comes from the study's own files (its CSV tables, ``fit.json``) or from the
library function its command used; the views only lay them out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pandas as pd

from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.core.errors import UsageError, did_you_mean
from manoeuvre_sim.web.studies.tables import TableView, table_view


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    charts: list[tuple[str, dict]] = field(default_factory=list)  # (element id, spec)
    tables: list[TableView] = field(default_factory=list)


@dataclass
class View:
    """A study page's content: its sections, the labels (policies, variants) it can show
    and the one shown."""

    sections: list[Section]
    labels: list[str] = field(default_factory=list)
    label: str | None = None
    shown: set[str] = field(default_factory=set)  # the tables drawn (the rest: "other")
    terms: set[str] = field(default_factory=set)  # the definitions its charts use

    def tables(self) -> list[TableView]:
        return [t for s in self.sections for t in s.tables]


def pairing_href(rel: str, pairing: int, label: str | None, many: bool) -> str:
    q = {"dir": rel, "pairing": int(pairing)}
    if many and label is not None:
        q["label"] = label
    return "/study/pairing?" + urlencode(q)


class Ctx:
    """One study directory being laid out: its tables read once, its pairings' index."""

    def __init__(self, path: Path, rel: str, names: list[str], game: str | None = None):
        self.path, self.rel, self.names, self.game = path, rel, names, game
        self._frames: dict[str, pd.DataFrame] = {}
        self._index: pd.DataFrame | None = None
        self.shown: set[str] = set()

    def has(self, *names: str) -> bool:
        return all(n in self.names for n in names)

    def frame(self, name: str) -> pd.DataFrame:
        if name not in self._frames:
            self._frames[name] = SF.read_table(self.path, name, self.game)
        return self._frames[name]

    def table(self, name: str, title: str, df: pd.DataFrame | None = None, **kw) -> TableView:
        self.shown.add(name)
        return table_view(self.frame(name) if df is None else df, name, title, **kw)

    @property
    def index(self) -> pd.DataFrame:
        if self._index is None:
            self._index = SF.pairing_index(self.path)
        return self._index

    def pairing_of(self, label: str, **sides) -> int | None:
        ix = self.index
        if ix.empty:
            return None
        hit = ix["label"].astype(str) == str(label)
        for col, value in sides.items():
            if col not in ix:
                return None
            hit &= ix[col].astype(str) == str(value)
        rows = ix[hit]
        return int(rows["pairing"].iloc[0]) if len(rows) else None

    def href(self, label: str, **sides) -> str | None:
        p = self.pairing_of(label, **sides)
        many = self.index["label"].nunique() > 1 if not self.index.empty else False
        return None if p is None else pairing_href(self.rel, p, label, many)


def pick_label(labels: list[str], wanted: str | None) -> str | None:
    """The label (policy, variant) to show: ``wanted``, checked, or the study's first."""
    if wanted is None:
        return labels[0] if labels else None
    if wanted not in labels:
        listed = ", ".join(repr(x) for x in labels)
        raise UsageError(f"--label: {wanted!r} is not one of {listed}"
                         f"{did_you_mean(wanted, labels)}")  # fmt: skip
    return wanted


def rows_of(df: pd.DataFrame, col: str, label: str | None) -> pd.DataFrame:
    return df[df[col].astype(str) == str(label)] if col in df and label is not None else df


def in_order(df: pd.DataFrame, col: str, order: list[str]) -> pd.DataFrame:
    """``df``'s rows with ``col`` in ``order`` (the heatmap's), the others (a pooled row:
    ``all games``) first, as they were."""
    if col not in df:
        return df
    pos = {a: i for i, a in enumerate(order)}
    key = df[col].astype(str).map(pos).fillna(-1)
    return df.assign(_k=key).sort_values("_k", kind="stable").drop(columns="_k")


@dataclass(frozen=True)
class WhatifPage:
    """How a game's what-if (a kind of its web module's ``WHATIF_PAGES``) reads on this
    page: ``sides``, the record columns that name a game's two sides (an army's, or a
    player's); ``seat_names``, the seats' words when the sides are players (Maneuver's blue
    and red), else None (a mirror match's seat as A or B); ``variant_replayed``: the
    variant's games open on the replay page; ``rankings(path) -> DataFrame``: every side's
    rank before and after (or None: a what-if of pairs, not of a field)."""

    sides: tuple[str, str] = ("army_a", "army_b")
    seat_names: tuple[str, str] | None = None
    variant_replayed: bool = True
    rankings: Callable | None = None


def whatif_page(game: str, kind: str) -> WhatifPage | None:
    """The game's reading of a what-if of ``kind`` (None: not a what-if of that game); a
    game whose web module lays out none (no ``WHATIF_PAGES``: the toy coin game) reads its
    shared what-if (``studies.whatif.KIND``) as a what-if of sides, without rankings, its
    games replayed if the game has a replay."""
    from manoeuvre_sim.web.game_parts import has_replay, web_part

    own = web_part(game, "WHATIF_PAGES")
    if own is not None:
        return own.get(kind)
    from manoeuvre_sim.studies.whatif import KIND

    return WhatifPage(variant_replayed=has_replay(game)) if kind == KIND else None


def study_view(info: SF.StudyInfo, wanted_label: str | None) -> View:
    """The page's content for the study ``info`` (its kind's view when the directory holds
    the tables it needs), then every other table of the directory as it is."""
    ctx = Ctx(info.path, info.rel, SF.tables(info.path), info.game)
    from manoeuvre_sim.web.game_parts import web_part

    views = web_part(info.game, "STUDY_VIEWS")
    fn, needs = (views or {}).get(info.kind, (None, ()))
    view = fn(ctx, wanted_label) if fn is not None and ctx.has(*needs) else View([])
    rest = [n for n in ctx.names if n not in ctx.shown]
    if rest:
        tables = [ctx.table(n, n) if views is not None else _linked(ctx, n) for n in rest]
        view.sections.append(Section("tables", "Tables" if not view.sections else "Other tables",
                                     tables=tables))  # fmt: skip
    view.shown = ctx.shown
    return view


def _linked(ctx: Ctx, name: str) -> TableView:
    """A table of a game with no study pages of its own, each row of a pairing (its
    ``label``, ``side_a`` and ``side_b``: the generic balance study's ``pairings``) linked
    to the pairing's page."""
    df = ctx.frame(name)
    if not {"label", "side_a", "side_b"} <= set(df.columns):
        return ctx.table(name, name)
    hrefs = [ctx.href(r["label"], army_a=r["side_a"], army_b=r["side_b"])
             for r in df.to_dict("records")]  # fmt: skip
    return ctx.table(name, name, hrefs=hrefs)
