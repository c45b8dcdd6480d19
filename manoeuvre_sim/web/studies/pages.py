"""The workbench's study pages: the list of the study directories under the studies folder
with each one's provenance and state, a page per study (by its kind, both games), a
pairing's drill-down with its games, and the study's tables as CSV downloads.

Routes::

    /studies                                   the list
    /study?dir=REL[&label=L]                   a study's page (REL under the studies folder)
    /study/pairing?dir=REL&pairing=P[&label=L][&page=N][&size=K]
    /study/table.csv?dir=REL&name=NAME         one of the study's CSV tables, as written

Every ``dir`` is confined to the studies folder (:func:`~manoeuvre_sim.web.safety.confine`);
a study being written, interrupted or with an unreadable manifest opens with that said.
A game of a pairing links to its replay: ``/replay/<game>?study=REL&pairing=P&game=G``
(``&label=L`` when the study's records have more than one label).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.core.errors import ManoeuvreError, UsageError
from manoeuvre_sim.web.game_parts import has_replay, web_part
from manoeuvre_sim.web.page_cache import PageCache, study_state
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import download, page
from manoeuvre_sim.web.safety import confine
from manoeuvre_sim.web.studies.charts import lengths
from manoeuvre_sim.web.studies.tables import definitions, table_view
from manoeuvre_sim.web.studies.views import study_view

MAX_PAGE_SIZE = 200  # games on one page of a pairing's table
DEFAULT_PAGE_SIZE = 50
# the columns of a pairing's games table, when the records hold them, before the game's own
# (its web module's PAIRING_COLUMNS; the rest: the CSV)
GAME_COLUMNS = ("game", "seed", "label", "army_a", "army_b", "policy_a", "policy_b",
                "first_player", "winner", "ended_by", "game_turns")  # fmt: skip
PAGES = PageCache()  # rendered study and pairing pages, by query and study state
OUTCOME_TITLES = {
    "seats": "Each seat",
    "first": "First and second player",
    "victory": "How the games ended",
}


def list_studies(root: Path) -> list[SF.StudyInfo]:
    """Every study directory under the studies folder ``root`` (bounded:
    :data:`~manoeuvre_sim.analyses.common.study_files.MAX_STUDIES`), with its state."""
    return SF.scan_studies(root)


def open_study(root: Path, rel: str | None) -> SF.StudyInfo:
    """The study directory ``rel`` under ``root``, confined to it; a UsageError naming
    ``--dir`` when it is missing, outside the folder, or not a study directory."""
    if rel is None:
        raise UsageError("--dir: expected a study directory under the studies folder")
    path = confine(root, rel, "--dir")
    if not path.is_dir():
        raise UsageError(f"--dir: {rel!r} is not a directory under the studies folder")
    if not ((path / "manifest.json").is_file() or (path / SF.STORE).is_dir()):
        raise UsageError(f"--dir: {rel!r} is not a study directory (no manifest.json, no "
                         f"{SF.STORE}/)")  # fmt: skip
    name = path.relative_to(Path(root).resolve()).as_posix()
    return SF.read_info(path, name)


def open_kind(request: Request, kind: str, noun: str) -> SF.StudyInfo:
    """The study of a result page's only parameter ``dir`` (:func:`open_study`), which must
    be of the study kind ``kind``; else one line: what it is, not ``noun``."""
    p = Params(request.query_params)
    p.only(["dir"])
    info = open_study(request.app.state.studies, p.string("dir"))
    if info.kind != kind:
        raise UsageError(f"--dir: {info.rel!r} is a {info.kind} study, not {noun}")
    return info


def studies_page(request: Request) -> Response:
    Params(request.query_params).only(())
    root = request.app.state.studies
    from manoeuvre_sim.analyses.common.compare import compared_kinds

    return page("studies.html", title="Studies", version=__version__,
                studies=list_studies(root), folder=str(root), cap=SF.MAX_STUDIES,
                compared=compared_kinds())  # fmt: skip


def _cached(request: Request, info: SF.StudyInfo, render) -> Response:
    key = (request.url.path, str(info.path), str(request.query_params),
           study_state(info.path, SF.STORE))  # fmt: skip
    return PAGES.page(key, render)


def study_page(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(("dir", "label"))
    info = open_study(request.app.state.studies, p.string("dir"))
    return _cached(request, info, lambda: _study_page(p, info))


def why_grid(info: SF.StudyInfo, view) -> dict | None:
    """Under a balance study's matrix, a "why?" link per off-diagonal cell (row army X,
    column army Y) in the heatmap's order, to ``/why/new``: the finished why study of the
    pairing under the studies folder when there is one (found at the click, so the link is
    never stale), else the why form prefilled from this study; None for a game without
    the why study's parts (``why_parts``)."""
    from manoeuvre_sim.core.games import get_game, hook

    if (
        view is None
        or info.kind != "balance"
        or hook(get_game(str(info.game)), "why_parts") is None
    ):
        return None
    specs = [spec for s in view.sections if s.id == "matrix" for _, spec in s.charts]
    order = (specs[0].get("encoding", {}).get("y", {}).get("sort") or []) if specs else []
    order = [str(a) for a in order]
    cells = {(x, y): {"href": "/why/new?" + urlencode({"game": info.game, "armies": f"{x},{y}",
                                                      "from": info.rel})}
             for x in order for y in order if x != y}  # fmt: skip
    return {"order": order, "cells": cells} if len(order) > 1 else None


def _study_page(p: Params, info: SF.StudyInfo) -> Response:
    view = study_view(info, p.string("label")) if info.manifest else None
    terms = definitions(view.tables() if view else [], view.terms if view else (),
                        interrupted=info.status == SF.INTERRUPTED)  # fmt: skip
    from manoeuvre_sim.studies.whatif_base import base_line
    from manoeuvre_sim.web.studies.views import whatif_page

    read = base_line((info.manifest or {}).get("base_study"))  # a what-if's games' origin
    return page("study.html", title=f"Study {info.rel}", version=__version__, info=info,
                heading=study_title(info), whatif=whatif_page(info.game, info.kind),
                games_origin=read,
                view=view, tables=SF.tables(info.path), q=urlencode,
                why_grid=why_grid(info, view),
                summary=_summary(info.path), definitions=terms)  # fmt: skip


def study_title(info: SF.StudyInfo) -> str:
    """The study's title as the printable report names it (``report.load_study``), or its
    kind when the report cannot read the directory (a study being written, another kind)."""
    from manoeuvre_sim.analyses.common import report

    if info.status != SF.COMPLETE and info.status != SF.INTERRUPTED:
        return "Study"
    try:
        return str(report.load_study(info.path).title)
    except (ManoeuvreError, KeyError, ValueError, OSError):
        return info.kind


def _summary(path: Path) -> str:
    f = path / "summary.txt"
    try:
        return f.read_text(encoding="utf-8")[:50_000] if f.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return ""


def replay_href(info: SF.StudyInfo, pairing: int, game: int, label: str | None) -> str:
    """The replay page of one game of a study (the replay pages' address contract)."""
    q = {"study": info.rel, "pairing": int(pairing), "game": int(game)}
    if label is not None:
        q["label"] = label
    return f"/replay/{info.game}?" + urlencode(q)


def _pairing_label(p: Params, index, pairing: int) -> tuple[str | None, list[str]]:
    """The label the pairing page shows, checked against the study's records."""
    labels = [str(x) for x in index["label"].unique()] if len(index) else []
    label = p.choice("label", labels) if labels else None
    rows = index[index["pairing"] == pairing]
    if label is not None:
        rows = rows[rows["label"].astype(str) == label]
    if rows.empty:
        known = sorted(int(x) for x in index["pairing"].unique())
        have = f"{known[0]} to {known[-1]}" if known else "none: no game records"
        raise UsageError(
            f"--pairing: no pairing {pairing} in this study"
            f"{f' under --label {label!r}' if label else ''} (pairings: {have})"
        )
    if label is None and rows["label"].nunique() > 1:
        listed = ", ".join(repr(str(x)) for x in rows["label"].unique())
        raise UsageError(f"--label: pairing {pairing} is under several labels; choose one "
                         f"of {listed}")  # fmt: skip
    return (label if label is not None else str(rows["label"].iloc[0])), labels


def pairing_page(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(("dir", "pairing", "label", "page", "size"))
    info = open_study(request.app.state.studies, p.string("dir"))
    return _cached(request, info, lambda: _pairing_page(p, info))


def _pairing_page(p: Params, info: SF.StudyInfo) -> Response:
    pairing = p.integer("pairing", lo=0)
    if pairing is None:
        raise UsageError("--pairing: expected a pairing number (an integer >= 0)")
    size = p.integer("size", DEFAULT_PAGE_SIZE, lo=1, hi=MAX_PAGE_SIZE)
    number = p.integer("page", 1, lo=1, hi=1_000_000)
    index = SF.pairing_index(info.path)
    label, labels = _pairing_label(p, index, pairing)
    games = SF.pairing_records(info.path, pairing, label)
    outcomes = SF.pairing_outcomes(games) if len(games) else {}
    pages = max(1, -(-len(games) // size))
    if number > pages:
        raise UsageError(f"--page: expected an integer from 1 to {pages}, got {number}")
    shown = SF.page_of(games, (number - 1) * size, size)
    many = len(labels) > 1
    shown = ended_by(shown, str(info.game))
    own = web_part(str(info.game), "PAIRING_COLUMNS", ())
    cols = [c for c in (*GAME_COLUMNS, *own) if c in shown.columns]
    replays = has_replay(str(info.game))  # a game without a replay: no links to one
    hrefs = [replay_href(info, pairing, g, label if many else None) for g in shown["game"]]
    hrefs = hrefs if replays else None
    table = table_view(shown[cols], "games", "Games", hrefs=hrefs)
    other = _reverse(index, games, label)
    seats = outcomes["seats"].to_dict("records") if "seats" in outcomes else []
    nav = {"dir": info.rel, "pairing": pairing, "size": size} | ({"label": label} if many else {})
    summed = {k: table_view(v, k, OUTCOME_TITLES[k]) for k, v in outcomes.items()
              if k in OUTCOME_TITLES}  # fmt: skip
    return page(
        "study_pairing.html", title=f"Pairing {pairing} · {info.rel}", version=__version__,
        info=info, pairing=pairing, label=label if many else None, games=len(games), seats=seats,
        replays=replays,
        outcomes=summed,
        definitions=definitions([*summed.values(), table],
                                interrupted=info.status == SF.INTERRUPTED),
        lengths=lengths(outcomes["lengths"].to_dict("records")) if "lengths" in outcomes else None,
        table=table, number=number, pages=pages, size=size, max_size=MAX_PAGE_SIZE,
        nav=lambda n: "/study/pairing?" + urlencode(nav | {"page": n}),
        reverse=None if other is None else "/study/pairing?" + urlencode(nav | {"pairing": other}),
        study_href="/study?" + urlencode({"dir": info.rel} | ({"label": label} if many else {})),
    )  # fmt: skip


def ended_by(games, game: str):
    """``games`` with how each ended in words (``ended_by``), as its game says (its web
    module's ``ended_by(record)``; default: the record's ``victory`` as it is)."""
    if "victory" not in games:
        return games
    words = web_part(game, "ended_by", lambda rec: str(rec["victory"]))
    return games.assign(ended_by=[words(rec) for rec in games.to_dict("records")])


def _reverse(index, games, label) -> int | None:
    """The pairing with the seats swapped (the other half of a heatmap cell), if any."""
    if games.empty or "army_a" not in games or "army_a" not in index:
        return None
    a, b = str(games["army_a"].iloc[0]), str(games["army_b"].iloc[0])
    if a == b:
        return None
    rows = index[(index["label"].astype(str) == str(label)) & (index["army_a"].astype(str) == b)
                 & (index["army_b"].astype(str) == a)]  # fmt: skip
    return int(rows["pairing"].iloc[0]) if len(rows) else None


def table_csv(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(("dir", "name"))
    info = open_study(request.app.state.studies, p.string("dir"))
    names = SF.tables(info.path)
    if not names:
        raise UsageError(f"--name: the study {info.rel!r} has no tables yet")
    name = p.choice("name", names)
    if name is None:
        raise UsageError(f"--name: expected one of {', '.join(names)}")
    f = confine(request.app.state.studies, f"{info.rel}/{name}.csv", "--name")
    return download(f.read_bytes(), f"{name}.csv", "text/csv; charset=utf-8")


ROUTES = [
    Route("/studies", studies_page, name="studies"),
    Route("/study", study_page, name="study"),
    Route("/study/pairing", pairing_page, name="study_pairing"),
    Route("/study/table.csv", table_csv, name="study_table"),
]
