"""The workbench's replay pages: any game of either game on its board, event by event.

Routes (the studies pages link to them; docs/ui.md):

- ``/replay``: a small form choosing the game, the armies or players, the seed and game.
- ``/replay/manoeuvre?study=DIR&pairing=P&game=G[&label=L]``, or
  ``/replay/manoeuvre?army_a=France&army_b=Russia&seed=1&game=0[&...]`` with ``replay``'s
  options; ``/replay/hex?...`` the same with ``hex replay``'s. The page: the board after
  event ``event=N`` (numbered from 1, as the page says "event N of M"; without it the
  set-up's last event, every unit deployed; ``mark=N-M``: those events marked on the
  timeline and in the log, a why study's decision), the controls, the standing of the game after
  that event, the key to the board, the event log, the record of the game. An old address
  with ``step=K`` (steps counted from 0) is sent on to ``event=K+1``, the same board.
- ``/replay/<game>/board.svg?...&event=N``: the board after event N (what the page
  fetches when it steps; the game is kept in memory, ``replay.data``, so a step only
  draws). ``step=K`` (from 0) is read too: the static site's export asks for it.
- ``/replay/<game>/trace.jsonl?...``: the trace, as ``--format jsonl`` writes it.

The page computes nothing: the steps, their words and boards come from the replay library
(``manoeuvre/replay/steps.py``, ``hexgame/replay_game.py``), through each game's web
module (its ``replay_game``) and :mod:`.data`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.game_parts import short_title, web_modules
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import download, page
from manoeuvre_sim.web.replay.data import event_of, mark_of, old_step, replay_games, replayed


def replay_url(game: str, **params) -> str:
    """The address of a replay page: ``replay_url("manoeuvre", study="bal", pairing=3,
    game=7)`` or ``replay_url("hex", seed=1, game=0)`` (None values left out)."""
    games = replay_games()
    if game not in games:
        raise ValueError(f"game: expected one of {', '.join(games)}, got {game!r}")
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return f"/replay/{game}" + (f"?{query}" if query else "")


def _game(request: Request) -> str:
    game = request.path_params["game"]
    games = replay_games()
    if game not in games:
        raise UsageError(f"no replay of {game!r}: expected "
                         f"{' or '.join('/replay/' + k for k in games)}")  # fmt: skip
    return game


def _query(request: Request) -> str:
    """The page's query without ``event`` or ``step`` (the game's identity, for the
    board's address)."""
    return urlencode([(k, v) for k, v in request.query_params.multi_items()
                      if k not in ("event", "step")])  # fmt: skip


def index(request: Request) -> Response:
    """The form: which game, armies or players, seed and game index (each game's form
    ``templates/games/<key>/replay_form.html``, what it shows from its web module's
    ``replay_form``)."""
    Params(request.query_params).only(())
    ctx: dict = {}
    for m in web_modules().values():
        if hasattr(m, "replay_form"):
            ctx |= m.replay_form()
    return page("replay_index.html", title="Replay a game", version=__version__,
                replay_games=replay_games(), **ctx)  # fmt: skip


def replay_page(request: Request) -> Response:
    """A game on its board: the controls, the log, the record."""
    game = _game(request)
    params = Params(request.query_params)
    rep = replayed(game, params, request.app.state.studies)
    query = _query(request)
    old = None if params.has("event") else old_step(params, rep)
    if old is not None:  # an address of before events were numbered from 1
        sep = "&" if query else ""
        return RedirectResponse(f"/replay/{game}?{query}{sep}event={old + 1}", status_code=301)
    step = event_of(params, rep)
    mark = mark_of(params, rep)
    data = {
        "n": len(rep.steps),
        "step": step,
        "turns": rep.turns,
        "steps": [{"turn": s["turn"], "kind": s["kind"], "standing": s["standing"]}
                  for s in rep.steps],
        "board": f"/replay/{game}/board.svg?{query}",
        "page": f"/replay/{game}?{query}",
    }  # fmt: skip
    return page(
        "replay.html", title=f"Replay · {rep.title}", game=game, game_title=short_title(game),
        rep=rep, step=step, svg=rep.svg(step), data=data, standing=rep.steps[step]["standing"],
        mark=mark,
        terrain_fill=rep.terrain_fill,
        trace_url=f"/replay/{game}/trace.jsonl?{query}", version=__version__,
    )  # fmt: skip


def board_svg(request: Request) -> Response:
    """The board after event ``event`` (from 1; or ``step``, from 0) as an SVG document."""
    game = _game(request)
    params = Params(request.query_params)
    rep = replayed(game, params, request.app.state.studies)
    old = None if params.has("event") else old_step(params, rep)
    step = event_of(params, rep) if old is None else old
    return Response(
        str(rep.svg(step)),
        media_type="image/svg+xml",
        headers={"Cache-Control": "private, max-age=600"},
    )


def trace_jsonl(request: Request) -> Response:
    """The game's trace as ``--format jsonl`` writes it (a download)."""
    game = _game(request)
    params = Params(request.query_params)
    rep = replayed(game, params, request.app.state.studies)
    return download(rep.jsonl, rep.filename, "application/x-ndjson")


ROUTES = [
    Route("/replay", index, name="replay"),
    Route("/replay/{game}/board.svg", board_svg, name="replay_board"),
    Route("/replay/{game}/trace.jsonl", trace_jsonl, name="replay_trace"),
    Route("/replay/{game}", replay_page, name="replay_game"),
]
