"""A what-if's result beside its study page (issue 33): each pairing's change with its
interval, the cells that moved beyond it marked, the ranking of all armies before and
after the change, and the games whose outcome changed, a page of them at a time, each with
its replay in the base and in the variant.

Route::

    /whatif/changed?dir=REL[&page=N]   (REL: a what-if study under the studies folder;
                                        N: the page of changed games, 500 to a page)

The figures are the study's own tables (``whatif.csv``, written by the what-if commands),
:func:`~manoeuvre_sim.analyses.common.whatif_changes.changed_outcomes` and the game's
rankings (its web module's ``WHATIF_PAGES``: ``views.WhatifPage``); nothing is computed here.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.whatif_changes import MAX_LISTED, changed_outcomes
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import game_of
from manoeuvre_sim.web.game_parts import has_replay
from manoeuvre_sim.web.page_cache import Memo, study_state
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import page
from manoeuvre_sim.web.studies.pages import open_study, replay_href
from manoeuvre_sim.web.studies.views import WhatifPage, whatif_page

DELTA = ("delta", "delta_low", "delta_high")
PAGE_SIZE = MAX_LISTED  # changed games to a page
RANKINGS = Memo(8)  # a study's rankings (a bootstrap: seconds), by its files' state


def _cells(info) -> list[dict]:
    """whatif.csv's rows; ``moved``: the 95 % interval of the change excludes zero."""
    import pandas as pd

    path = info.path / "whatif.csv"
    if not path.is_file():
        return []
    w = pd.read_csv(path)
    if not set(DELTA) <= set(w.columns):
        return []
    rows = w.to_dict("records")
    for r in rows:
        r["moved"] = bool(r["delta_low"] > 0 or r["delta_high"] < 0)
    return rows


def winner_name(code: str, side_a: str, side_b: str, seats: tuple[str, str] | None) -> str:
    """A game's winner in the study's words: the army's name (a mirror match's seat
    beside it), or the player with its seat (``seats``: Maneuver's blue, red); ``draw`` as
    it is."""
    if code not in ("a", "b"):
        return str(code)
    name = side_a if code == "a" else side_b
    if seats is not None:
        return f"{name} ({seats[0] if code == 'a' else seats[1]})"
    return f"{name} ({code.upper()})" if side_a == side_b else str(name)


def _ranking(info, how: WhatifPage) -> list[dict]:
    """Every side's rank, rating and field win rate before and after the change (the
    game's ``rankings``; none for a what-if of pairs of players, not of a field)."""
    if how.rankings is None:
        return []
    from manoeuvre_sim.core.store import STORE

    key = (str(info.path), study_state(info.path, STORE))
    return RANKINGS.get_or_build(key, lambda: how.rankings(info.path).to_dict("records"))


def version_title(info, label: str | None) -> str:
    """What a what-if's game is, for its replay's title: `` · base`` or `` · variant:
    EDITS``; a fix's confirmation game: `` · base ...`` or `` · fixed: ERRATA`` (empty for
    any other study's game)."""
    if info.get("study") == "fix":  # its confirmation's games (studies.fix's "replay")
        said = info.get("replay") or {}
        if label == said.get("base"):
            return " · base (before the errata), on the confirmation's seed"
        if label == said.get("fixed"):
            return " · fixed: " + ("; ".join(map(str, info.get("errata") or [])) or "errata")
        return ""
    kind = whatif_page(str(game_of(info)), info.get("study"))
    if kind is None or label not in ("base", "variant"):
        return ""
    if label == "base":
        return " · base (before the edit)"
    changes = (info.get("variant") or {}).get("changes") or []
    return " · variant: " + ("; ".join(map(str, changes)) or "the edited data")


def changed_page(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["dir", "page"])
    info = open_study(request.app.state.studies, p.string("dir"))
    how = whatif_page(info.game, info.kind)
    if how is None:
        raise UsageError(f"--dir: {info.rel!r} is a {info.kind} study, not a what-if")
    number = p.integer("page", 1, lo=1)
    games, total = changed_outcomes(info.path, PAGE_SIZE, (number - 1) * PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    if number > pages:
        raise UsageError(f"--page: expected a page from 1 to {pages} ({total:,} changed "
                         f"games, {PAGE_SIZE} to a page), got {number}")  # fmt: skip
    seats = how.seat_names
    replayed = has_replay(info.game)
    other = {"army_a": "policy_a", "army_b": "policy_b", "policy_a": "army_a",
             "policy_b": "army_b"}  # fmt: skip
    rows = []
    for r in games.to_dict("records"):
        a, b = (r.get(col, r.get(other.get(col, col))) for col in how.sides)
        rows.append(r | {"side_a": a, "side_b": b,
                         "winner_base": winner_name(r["winner_base"], a, b, seats),
                         "winner_variant": winner_name(r["winner_variant"], a, b, seats),
                         "base_href": replay_href(info, r["pairing_base"], r["game"], "base")
                         if replayed else None,
                         "variant_href": replay_href(info, r["pairing_variant"], r["game"],
                                                     "variant") if how.variant_replayed else None})  # fmt: skip
    first = (number - 1) * PAGE_SIZE + 1
    return page("whatif_changed.html", title=f"What-if {info.rel}", version=__version__,
                info=info, cells=_cells(info), ranking=_ranking(info, how), games=rows,
                total=total, page=number, pages=pages, first=first,
                last=first + len(rows) - 1, seats=seats, replayed=replayed,
                variant_replayed=how.variant_replayed)  # fmt: skip
