"""A what-if's result beside its study page (issue 33): each pairing's change with its
interval, the cells that moved beyond it marked, and the games whose outcome changed, each
with its replay in the base and in the variant.

Route::

    /whatif/changed?dir=REL     (REL: a what-if study under the studies folder)

The figures are the study's own tables (``whatif.csv``, written by the what-if commands)
and :func:`~manoeuvre_sim.analyses.common.whatif_changes.changed_outcomes`; nothing is
computed here.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.whatif_changes import MAX_LISTED, changed_outcomes
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import page
from manoeuvre_sim.web.studies import open_study, replay_href

DELTA = ("delta", "delta_low", "delta_high")


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


def changed_page(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["dir"])
    info = open_study(request.app.state.studies, p.string("dir"))
    if info.kind not in ("whatif", "hex whatif"):
        raise UsageError(f"--dir: {info.rel!r} is a {info.kind} study, not a what-if")
    games, total = changed_outcomes(info.path)
    rows = []
    for r in games.to_dict("records"):
        sides = r.get("army_a", r.get("policy_a")), r.get("army_b", r.get("policy_b"))
        rows.append(r | {"side_a": sides[0], "side_b": sides[1],
                         "base_href": replay_href(info, r["pairing_base"], r["game"], "base"),
                         "variant_href": replay_href(info, r["pairing_variant"], r["game"],
                                                     "variant")})  # fmt: skip
    return page("whatif_changed.html", title=f"What-if {info.rel}", version=__version__,
                info=info, cells=_cells(info), games=rows, total=total,
                cap=MAX_LISTED)  # fmt: skip
