"""A what-if's result beside its study page (issue 33): each pairing's change with its
interval, the cells that moved beyond it marked, the ranking of all armies before and
after the change, and the games whose outcome changed, a page of them at a time, each with
its replay in the base and in the variant.

Route::

    /whatif/changed?dir=REL[&page=N]   (REL: a what-if study under the studies folder;
                                        N: the page of changed games, 500 to a page)

The figures are the study's own tables (``whatif.csv``, written by the what-if commands),
:func:`~manoeuvre_sim.analyses.common.whatif_changes.changed_outcomes` and
:func:`~manoeuvre_sim.analyses.manoeuvre.whatif.rankings`; nothing is computed here.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.whatif_changes import MAX_LISTED, changed_outcomes
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.page_cache import Memo, study_state
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import page
from manoeuvre_sim.web.studies import open_study, replay_href

DELTA = ("delta", "delta_low", "delta_high")
PAGE_SIZE = MAX_LISTED  # changed games to a page
WHATIF_KINDS = ("whatif", "hex whatif")
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


def winner_name(code: str, side_a: str, side_b: str, hex_game: bool) -> str:
    """A game's winner in the study's words: the army's name (a mirror match's seat
    beside it), Maneuver's player with its side; ``draw`` as it is."""
    if code not in ("a", "b"):
        return str(code)
    name = side_a if code == "a" else side_b
    if hex_game:
        return f"{name} ({'blue' if code == 'a' else 'red'})"
    return f"{name} ({code.upper()})" if side_a == side_b else str(name)


def _ranking(info) -> list[dict]:
    """Every army's rank, rating and field win rate before and after the change (a
    Manoeuvre what-if; Maneuver's compares pairs of players, not a field)."""
    if info.kind != "whatif":
        return []
    from manoeuvre_sim.analyses.manoeuvre.whatif import rankings
    from manoeuvre_sim.core.store import STORE

    key = (str(info.path), study_state(info.path, STORE))
    return RANKINGS.get_or_build(key, lambda: rankings(info.path).to_dict("records"))


def version_title(info, label: str | None) -> str:
    """What a what-if's game is, for its replay's title: `` · base`` or `` · variant:
    EDITS`` (empty for any other study's game)."""
    if info.get("study") not in WHATIF_KINDS or label not in ("base", "variant"):
        return ""
    if label == "base":
        return " · base (before the edit)"
    changes = (info.get("variant") or {}).get("changes") or []
    return " · variant: " + ("; ".join(map(str, changes)) or "the edited data")


def changed_page(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["dir", "page"])
    info = open_study(request.app.state.studies, p.string("dir"))
    if info.kind not in WHATIF_KINDS:
        raise UsageError(f"--dir: {info.rel!r} is a {info.kind} study, not a what-if")
    number = p.integer("page", 1, lo=1)
    games, total = changed_outcomes(info.path, PAGE_SIZE, (number - 1) * PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    if number > pages:
        raise UsageError(f"--page: expected a page from 1 to {pages} ({total:,} changed "
                         f"games, {PAGE_SIZE} to a page), got {number}")  # fmt: skip
    hex_game = info.kind == "hex whatif"
    rows = []
    for r in games.to_dict("records"):
        if hex_game:  # Maneuver's sides are blue and red; its players are the policies
            a, b = r.get("policy_a", r.get("army_a")), r.get("policy_b", r.get("army_b"))
        else:
            a, b = r.get("army_a", r.get("policy_a")), r.get("army_b", r.get("policy_b"))
        rows.append(r | {"side_a": a, "side_b": b,
                         "winner_base": winner_name(r["winner_base"], a, b, hex_game),
                         "winner_variant": winner_name(r["winner_variant"], a, b, hex_game),
                         "base_href": replay_href(info, r["pairing_base"], r["game"], "base"),
                         # Maneuver's variant is a scenario file, which the replay page
                         # does not load (it replays the built-in scenario's games)
                         "variant_href": None if hex_game else replay_href(
                             info, r["pairing_variant"], r["game"], "variant")})  # fmt: skip
    first = (number - 1) * PAGE_SIZE + 1
    return page("whatif_changed.html", title=f"What-if {info.rel}", version=__version__,
                info=info, cells=_cells(info), ranking=_ranking(info), games=rows,
                total=total, page=number, pages=pages, first=first,
                last=first + len(rows) - 1, hex_game=hex_game)  # fmt: skip
