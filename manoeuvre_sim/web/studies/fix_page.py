"""A fix's result page (issue 40): the errata sheet (each change before -> after and its
``whatif --set`` line), the targets' field rates base and fixed, the base and fixed balance
matrices side by side, what else moved (every touched pairing's paired change with its
interval and Holm's p), the search trail, the frontier, and for each touched pairing some
of its confirmation games, each replayed as the base played it and as the fixed sides did,
on the same seed (the fix's games are paired: common random numbers).

Route::

    /fix/result?dir=REL        (REL: a fix study under the studies folder)

Every figure is the study's own (its CSV tables and manifest, written by
``studies/fix.py``); the changed games come from
:func:`~manoeuvre_sim.analyses.common.whatif_changes.changed_outcomes` over the
confirmation's store; nothing is computed here.
"""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common import study_files as SF
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.game_parts import has_replay
from manoeuvre_sim.web.page_cache import Memo, study_state
from manoeuvre_sim.web.render import page
from manoeuvre_sim.web.studies.pages import open_kind, replay_href

REPLAYS_PER_PAIRING = 4  # games of a touched pairing listed with their two replays
TRAIL_SHOWN = 30  # the trail's rows shown open (the rest behind "show all")
CHANGED = Memo(8)  # a fix's changed confirmation games, by its files' state


def _records(info, name: str) -> list[dict]:
    if name not in SF.tables(info.path):
        return []
    df = SF.read_table(info.path, name, info.game)
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
            for r in df.to_dict("records")]  # fmt: skip


def _matrix(info, name: str) -> tuple[list[str], list[dict]]:
    rows = _records(info, name)
    cols = [c for c in (rows[0] if rows else {}) if c != "side_a"]
    return cols, rows


def _changed(info, said: dict):
    """The confirmation's paired games whose winner the errata changed (all of them: a page
    lists a few per pairing)."""
    from manoeuvre_sim.analyses.common.whatif_changes import changed_outcomes

    store = said.get("store")
    if not store or not (info.path / store).is_dir():
        return None
    key = (str(info.path), study_state(info.path / store.rsplit("/", 1)[0], "games.parquet"))
    return CHANGED.get_or_build(key, lambda: changed_outcomes(
        info.path, 10**9, 0, store=store, labels=(said["base"], said["fixed"]))[0])  # fmt: skip


def replay_pairs(info) -> list[dict]:
    """Per touched pairing of the fix ``info`` (``moved.csv``'s rows), its games with the
    replay of each as the base played it and as the fixed sides did (:func:`_replays`)."""
    return _replays(info, _records(info, "moved"))


def _replays(info, moved: list[dict]) -> list[dict]:
    """Per touched pairing (``moved.csv``'s rows), its games listed with the replay of each
    as the base played it and as the fixed sides did (``base``, ``fixed``: the addresses;
    ``base_pairing``, ``base_label`` ...: what they name): those whose winner changed
    first, at most :data:`REPLAYS_PER_PAIRING`; none for a game without a replay."""
    m = info.manifest or {}
    said = m.get("replay") or {}
    if not has_replay(str(info.game)) or not said or not m.get("fixed_sides"):
        return []  # no replay, or no data kept of the fixed sides (the game's fix_write)
    changed = _changed(info, said)
    index = SF.pairing_index(info.path / said["store"].rsplit("/", 1)[0])
    if changed is None or index.empty or "army_a" not in index:
        return []
    out = []
    for r in moved:
        a, b = str(r["side_a"]), str(r["side_b"])
        pair = {}
        for which in ("base", "fixed"):
            hit = index[(index["label"].astype(str) == said[which])
                        & (index["army_a"].astype(str) == a) & (index["army_b"].astype(str) == b)]  # fmt: skip
            pair[which] = int(hit["pairing"].iloc[0]) if len(hit) else None
        if None in pair.values():
            continue
        mine = changed[(changed["army_a"].astype(str) == a) & (changed["army_b"].astype(str) == b)]
        games = [(int(g.game), str(g.winner_base), str(g.winner_variant))
                 for g in mine.head(REPLAYS_PER_PAIRING).itertuples()]  # fmt: skip
        if not games:  # no winner changed: the first games, the same either way
            games = [(k, "", "") for k in range(min(REPLAYS_PER_PAIRING, int(r["games"])))]
        out.append({"side_a": a, "side_b": b, "changed": len(mine), "games": [
            {"game": k, "winner_base": wb, "winner_fixed": wf,
             "base": replay_href(info, pair["base"], k, said["base"]),
             "fixed": replay_href(info, pair["fixed"], k, said["fixed"]),
             "base_pairing": pair["base"], "fixed_pairing": pair["fixed"],
             "base_label": said["base"], "fixed_label": said["fixed"]}
            for k, wb, wf in games]})  # fmt: skip
    return out


def fix_result(request: Request) -> Response:
    info = open_kind(request, "fix", "a fix")
    if info.status != SF.COMPLETE:
        raise UsageError(f"--dir: {info.rel!r} is {info.status}: the fix writes its errata "
                         "when it ends (resume it from the jobs page)")  # fmt: skip
    m = info.manifest
    moved = _records(info, "moved")
    trail = _records(info, "trail")
    cols, base = _matrix(info, "matrix_base")
    _, fixed = _matrix(info, "matrix_fixed")
    marked = {(r["side_a"], r["side_b"]) for r in moved if r.get("moved")}
    rates = [c for c in (trail[0] if trail else {}) if c.startswith("rate ")]
    fx = m.get("fix") or {}
    return page(
        "fix_result.html", title=f"Fix {info.rel}", version=__version__, info=info, m=m,
        fx=fx, band=fx.get("band") or [0, 1], errata=_records(info, "errata"),
        targets=_records(info, "targets"), moved=moved, trail=trail, rates=rates,
        trail_shown=TRAIL_SHOWN, frontier=_records(info, "frontier"), columns=cols,
        base=base, fixed=fixed, marked=marked, replays=_replays(info, moved),
        replayable=has_replay(str(info.game)),
    )  # fmt: skip


ROUTES = [Route("/fix/result", fix_result, name="fix_result")]
