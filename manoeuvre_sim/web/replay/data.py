"""The replay pages' data: one game of any game with a replay, replayed by its web module
(``web/games/<game>/replay.py``: the library the game's ``replay`` command calls), as a
:class:`Replayed` — its steps for the page, its
record, its JSONL trace and a function drawing the board after any step — kept in a small
in-memory LRU cache so that stepping never plays the game again.

A game is named by the page's parameters, with the command line's names and checks: a
game of a study directory (``study``, ``pairing``, ``game``, ``label``), or one given by its
seed and options (the game's ``REPLAY_PARAMS``, its replay command's). One replay is one game: bounded work;
the cache holds :data:`CACHE_SIZE` games, and games are played one at a time.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.page_cache import Memo
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.safety import confine

CACHE_SIZE = 8  # games kept; each keeps at most SVG_KEPT boards drawn
SVG_KEPT = 600
MAX_GAME_INDEX = 10**9
STUDY_PARAMS = ("study", "pairing", "game", "label", "event", "step")


@dataclass
class Replayed:
    """One replayed game, ready for the page.

    ``steps``: per event ``{"turn", "kind", "player", "seq", "words", "standing"}`` (the
    standing: ``{"turn", "phase", "active", "values"}``, ``values`` one ``[side 0's, side
    1's]`` per row of ``standing_rows``); ``turns``: ``(game turn, its first step)``;
    ``facts``: the record of the game as (name, value) rows; ``final``: ``{counter id:
    (where, step)}`` after the last event; ``jsonl``: the trace as ``--format jsonl``
    writes it; ``draw(i)``: the board SVG after step ``i`` (0-based; the pages number
    events from 1); ``sides``: the two sides' names; ``legend``: the key to the board
    (``{"counters": [(codes, meaning)], "terrain": [(letter, name)], "marks": [(mark,
    meaning)]}``); ``start``: the step a page opens on, the last of the set-up (every unit
    deployed).
    """

    game: str
    title: str
    steps: list[dict]
    turns: list[tuple[int, int]]
    facts: list[tuple[str, str]]
    final: dict
    jsonl: str
    filename: str
    draw: Callable[[int], Markup]
    sides: tuple[str, str] = ("", "")
    standing_rows: tuple[str, ...] = ()
    legend: dict = field(default_factory=dict)
    start: int = 0
    terrain_fill: dict = field(default_factory=dict)  # the key's terrain letters' colours
    _svg: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def svg(self, i: int) -> Markup:
        """The board after step ``i`` (drawn once, then kept)."""
        with self._lock:
            hit = self._svg.get(i)
        if hit is None:
            hit = self.draw(i)
            with self._lock:
                if len(self._svg) >= SVG_KEPT:
                    self._svg.clear()
                self._svg[i] = hit
        return hit


# the games replayed, kept whole (their boards drawn on demand); one game is played at a
# time, whatever the number of clients
_REPLAYS = Memo(CACHE_SIZE)


def replayed(game: str, params: Params, root: Path) -> Replayed:
    """The replay the parameters name (from the cache when it is there), played by the
    game's web module (its ``replay_game(params, root)``; a seed's game takes its
    ``REPLAY_PARAMS``)."""
    from manoeuvre_sim.web.game_parts import web_part

    play = web_part(game, "replay_game")
    if play is None:
        raise UsageError(f"no replay of {game!r}: expected one of "
                         f"{', '.join('/replay/' + k for k in replay_games())}")  # fmt: skip
    allowed = STUDY_PARAMS if params.has("study") else web_part(game, "REPLAY_PARAMS")
    params.only((*allowed, "mark"))  # mark: a span of events shown marked (:func:`mark_of`)
    key = (game, str(Path(root).resolve()),
           tuple(sorted((k, params.raw(k) or "") for k in allowed if k not in ("event", "step"))))  # fmt: skip
    return _REPLAYS.get_or_build(key, lambda: _titled(play(params, root), params, root))


def replay_games() -> list[str]:
    """The games whose web module replays a game (their keys: ``/replay/<key>``), in the
    registry's order."""
    from manoeuvre_sim.web.game_parts import web_modules

    return [k for k, m in web_modules().items() if hasattr(m, "replay_game")]


def warm_ups() -> dict[str, dict[str, str]]:
    """The replay parameters of the one game each game's replay warms up with (its
    ``REPLAY_WARMUP`` hook), by key, for the games that have a replay and the hook."""
    from manoeuvre_sim.core.games import get_game, hook

    out = {}
    for key in replay_games():
        params = hook(get_game(key), "REPLAY_WARMUP")
        if params is not None:
            out[key] = dict(params)
    return out


def event_of(params: Params, rep: Replayed) -> int:
    """The step (0-based) the ``event`` parameter names: events are numbered from 1, as
    the page shows them; without it the last step of the set-up (:attr:`Replayed.start`)."""
    if not params.has("event"):
        return rep.start
    return params.integer("event", lo=1, hi=len(rep.steps)) - 1


def mark_of(params: Params, rep: Replayed) -> tuple[int, int] | None:
    """The steps (0-based, first and last) of the ``mark`` parameter, ``N`` or ``N-M``
    (events numbered from 1 as ``event``): the span the page marks on its timeline and in
    its log (a why study's decision where the learned value swings most); None without
    it."""
    text = params.string("mark")
    if text is None:
        return None
    n = len(rep.steps)
    lo, _, hi = text.partition("-")
    try:
        first, last = int(lo), int(hi or lo)
    except ValueError:
        raise UsageError(f"--mark {text!r}: expected an event N or events N-M (from 1)") from None
    if not 1 <= first <= last <= n:
        raise UsageError(f"--mark {text!r}: expected events within 1..{n}, the first not after "
                         "the last")  # fmt: skip
    return first - 1, last - 1


def old_step(params: Params, rep: Replayed) -> int | None:
    """The step (0-based) of an old ``step=`` address (steps were counted from 0 before
    events were numbered from 1), or None when the address has none."""
    if not params.has("step"):
        return None
    return params.integer("step", lo=0, hi=len(rep.steps) - 1)


def study_game(params: Params, root: Path) -> tuple[Path, str, int, int, str | None]:
    rel = params.string("study")
    path = confine(root, rel, "--study")
    if not path.is_dir():
        raise UsageError(f"--study: {rel!r} is not a study directory under the studies folder")
    if not params.has("pairing"):
        raise UsageError("--pairing: required with --study (the pairing's number)")
    pairing = game_index(params, "pairing", "a pairing number")
    return path, rel, pairing, game_index(params, "game"), params.string("label")


def game_index(params: Params, name: str, what: str = "a game index") -> int:
    """A game index (or pairing number), as ``replay --game`` checks it."""
    value = params.integer(name, 0)
    if value < 0:
        raise UsageError(f"--{name}: expected {what} >= 0, got {value}")
    if value > MAX_GAME_INDEX:
        raise UsageError(f"--{name}: expected {what} <= {MAX_GAME_INDEX}, got {value}")
    return value


def page_steps(steps, sides: tuple[str, str]) -> list[dict]:
    return [{"turn": s.record["game_turn"], "kind": s.record["kind"], "seq": s.record["seq"],
             "player": s.record["player"], "words": s.words,
             "standing": _standing(s.standing, sides)} for s in steps]  # fmt: skip


def _standing(st, sides: tuple[str, str]) -> dict:
    """A step's standing (the replay library's) for the page: the values as the trace
    gives them, the phase and the side to play in words."""
    return {"turn": st.game_turn, "phase": st.phase or "-",
            "active": sides[st.active] if st.active in (0, 1) else "-",
            "values": [list(r) for r in st.rows]}  # fmt: skip


def start_of(steps) -> int:
    """The last step of the set-up (game turn 0): every unit deployed, no move yet."""
    last = 0
    for i, s in enumerate(steps):
        if s.record["game_turn"] > 0:
            break
        last = i
    return last


def turns_of(steps) -> list[tuple[int, int]]:
    """``(game turn, the index of its first step)`` for each game turn (0: the set-up)."""
    out: list[tuple[int, int]] = []
    for i, s in enumerate(steps):
        t = s.record["game_turn"]
        if not out or out[-1][0] != t:
            out.append((t, i))
    return out


def _titled(rep: Replayed, params: Params, root: Path) -> Replayed:
    """A what-if's game titled as the base's or the variant's, with the edit: both are the
    same armies on the same seed (``studies.whatif_changed.version_title``)."""
    if params.has("study"):
        from manoeuvre_sim.web.studies.whatif_changed import version_title

        path = confine(root, params.string("study"), "--study")
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        rep.title += version_title(manifest, params.string("label"))
    return rep


def bounded_players(key: str, policies) -> None:
    """A replay asked by its seed plays its players' game: bounded by its cost
    (``safety.check_players``), as a job is; a study's games replay with the study's."""
    from manoeuvre_sim.core.games import get_game
    from manoeuvre_sim.web.safety import MAX_REPLAY_COST, check_players

    check_players(get_game(key), policies, ("--policy-a", "--policy-b"), cap=MAX_REPLAY_COST)
