"""The workbench's jobs (issue 33): new studies and what-ifs started from the pages, played
one at a time by the application's :class:`~manoeuvre_sim.web.jobs.manager.JobManager`.

Routes::

    /jobs                       the queue, the running job's progress, the finished jobs
    /jobs/list                  the same list as an htmx fragment (polled ~ twice a second)
    /jobs/{id}.json             one job's state (the tests' and the benchmark's view)
    /jobs/new[?game=G]          a balance study's form (POST /jobs queues it; a game without
                                a form of its own: the generic one, ``jobs.balance_form``)
    /jobs/{id}/cancel           POST: cancel (queued: now; running: at its next task)
    /jobs/{id}/resume           POST: queue a cancelled or interrupted job again (--resume)
    /whatif/new?game=G[&from=REL][&army=A]    a what-if's form (POST /whatif queues it)
    /whatif/changed?dir=REL     a what-if's moved cells and the games that changed outcome
    /fix/new?game=G             the balance fixer's form (POST /fix queues it; a game with
                                the fixer's hooks: ``jobs.fix_form``)
    /why/new?game=G&armies=X,Y[&from=REL]   the why study's form, from a matrix cell's
                                "why?" (POST /why queues it; ``jobs.why_form``)

Every POST must come from the workbench's own pages: its ``Origin`` (or, without one, its
``Referer``) must be this server's address, so another site open in the same browser cannot
start or cancel a job on loopback. A form's values are checked by the command's own
library code (``jobs.kinds.build``) before the job is queued; an error comes back as the
form with one line in the command line's words.
"""

from __future__ import annotations

import contextlib
from urllib.parse import parse_qs, urlencode

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import ManoeuvreError, UsageError
from manoeuvre_sim.web import safety
from manoeuvre_sim.web.jobs import balance_form as BF
from manoeuvre_sim.web.jobs import fix_form as FF
from manoeuvre_sim.web.jobs import forms as WF
from manoeuvre_sim.web.jobs import whatif_form as WG
from manoeuvre_sim.web.jobs import why_form as WY
from manoeuvre_sim.web.jobs.manager import job_name
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.render import page
from manoeuvre_sim.web.studies import whatif_changed


def manager(request: Request):
    """The server's job manager (a 404 where the workbench runs no jobs: ``site``)."""
    jm = request.app.state.jobs
    if jm is None:
        from starlette.exceptions import HTTPException

        raise HTTPException(404, "this workbench runs no jobs")
    return jm


def same_origin(request: Request) -> None:
    """Refuse (403) a POST whose Origin, or else Referer, is not this server, scheme
    included (``safety.same_origin``); the Host itself was checked by the application's
    TrustedHostMiddleware."""
    from starlette.exceptions import HTTPException

    host = request.headers.get("host", "")
    sent = request.headers.get("origin") or request.headers.get("referer") or ""
    if not safety.same_origin(sent, host):
        raise HTTPException(403, "a form of another site: jobs start only from this workbench")


def _page(template: str, status_code: int = 200, **ctx) -> Response:
    from manoeuvre_sim.web.jobs.kinds import job_kinds

    # the games a finished study offers a what-if from (their web module's what-if form)
    whatif_games = WF.form_games("whatif_start")
    return page(template, status_code=status_code, version=__version__, job_kinds=job_kinds(),
                whatif_games=whatif_games, **ctx)  # fmt: skip


POLL = 0.5  # seconds between two refreshes of the jobs list while a job runs
POLL_END = 0.15  # ... once the running job's games end within ENDING seconds (or have ended)
ENDING = 1.5


def poll_seconds(jobs) -> float:
    """How soon the jobs list refreshes itself (``jobs_list.html``): every :data:`POLL`
    seconds while a job runs, every :data:`POLL_END` once a running job's games are about
    to end or have ended (its tables being written), so the page sees it done within a
    fraction of a second (issue 41); each job a :class:`~manoeuvre_sim.web.jobs.manager.Job`
    or its ``to_dict()``."""
    for j in jobs:
        j = j if isinstance(j, dict) else j.to_dict()
        left = j.get("left")
        if j.get("state") == "running" and (
            (j.get("total") and j.get("done", 0) >= j["total"])
            or (left is not None and left < ENDING)
        ):
            return POLL_END
    return POLL


def jobs_page(request: Request) -> Response:
    Params(request.query_params).only(["job"])
    listed = manager(request).listed()
    return _page("jobs.html", title="Jobs", jobs=listed,
                 poll_ms=round(1000 * poll_seconds(listed)),
                 backend=manager(request).backend.get("name", "local"),
                 new_job_links=WF.new_job_links(),
                 shown=request.query_params.get("job"))  # fmt: skip


def jobs_list(request: Request) -> Response:
    Params(request.query_params).only(["job"])
    listed = manager(request).listed()
    return _page("jobs_list.html", title="Jobs", jobs=listed,
                 poll_ms=round(1000 * poll_seconds(listed)),
                 shown=request.query_params.get("job"))  # fmt: skip


def job_json(request: Request) -> Response:
    job = manager(request).get(request.path_params["jid"])
    if job is None:
        return JSONResponse({"error": "no such job", "status": 404}, status_code=404)
    return JSONResponse(job.to_dict())


MAX_FORM_BYTES = 64 * 1024


async def _form(request: Request) -> Params:
    """The POSTed form (``application/x-www-form-urlencoded``, as the pages send it), its
    origin checked first; at most :data:`MAX_FORM_BYTES`."""
    same_origin(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise UsageError(f"form: expected application/x-www-form-urlencoded, got {kind!r}")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise UsageError(f"form: expected at most {MAX_FORM_BYTES} bytes")
    fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    query = QueryParams([(k, v) for k, vs in fields.items() for v in vs])
    return Params(query, longer={"more": WF.MAX_EDIT_CHARS})


def new_job(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["game"])
    game = WF.balance_game(p)
    ctx = BF.context(game)
    return _page("jobs_new.html", title="New study", game=game, form=ctx["defaults"],
                 error=None, **ctx)  # fmt: skip


def _submit(request: Request, p: Params, kind: str, opts: dict) -> Response:
    """A form's job submitted under the name the form gave it, and the jobs page showing it
    (a ``ManoeuvreError`` of the name or the manager goes to the form's own page)."""
    name = job_name(p.string("job_name"))
    job = manager(request).submit(kind, opts)
    manager(request).rename(job.id, name)
    return RedirectResponse(f"/jobs?{urlencode({'job': job.id})}", status_code=303)


async def post_job(request: Request) -> Response:
    p = await _form(request)
    game = WF.balance_game(p)
    try:
        return _submit(request, p, *BF.job(p, game, request.app.state.studies))
    except ManoeuvreError as e:
        return _page("jobs_new.html", 400, title="New study", game=game,
                     form=dict(p._q.items()), error=str(e),
                     **BF.context(game))  # fmt: skip


def _job_action(verb: str):
    """The POST route that asks the manager to ``verb`` (cancel, resume) a job, then shows
    the jobs page at it."""

    async def route(request: Request) -> Response:
        same_origin(request)
        job = getattr(manager(request), verb)(request.path_params["jid"])
        if job is None:
            raise UsageError("--job: no such job")
        return RedirectResponse(f"/jobs?{urlencode({'job': job.id})}", status_code=303)

    return route


cancel_job = _job_action("cancel")
resume_job = _job_action("resume")


def new_whatif(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["game", "from", "army"])
    ctx = WG.any_context(request.app.state.studies, p)
    return _page("whatif_new.html", title="What-if", error=None, **ctx)


async def post_whatif(request: Request) -> Response:
    p = await _form(request)
    try:
        return _submit(request, p, *WG.any_job(p, request.app.state.studies))
    except ManoeuvreError as e:
        ctx = WG.any_context(request.app.state.studies, p, sent=True)
        return _page("whatif_new.html", 400, title="What-if", error=str(e), **ctx)


def new_fix(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["game"])
    game = FF.fix_game(p)
    return _page("fix_new.html", title="New fix", error=None, **FF.context(game))


async def post_fix(request: Request) -> Response:
    p = await _form(request)
    game = FF.fix_game(p)
    try:
        return _submit(request, p, *FF.job(p, game))
    except ManoeuvreError as e:
        return _page("fix_new.html", 400, title="New fix", error=str(e),
                     **FF.context(game, sent=p))  # fmt: skip


def new_why(request: Request) -> Response:
    p = Params(request.query_params)
    p.only(["game", "armies", "from", "again"])
    root = request.app.state.studies
    if not p.has("again"):  # a matrix cell's "why?": the finished study of it, if any
        done = WY.finished(root, p)
        if done is not None:
            return RedirectResponse("/why/result?" + urlencode({"dir": done}), status_code=303)
    ctx = WY.context(root, p)
    return _page("why_new.html", title="Why?", error=None, **ctx)


async def post_why(request: Request) -> Response:
    p = await _form(request)
    game = WY.why_game(p)
    try:
        return _submit(request, p, *WY.job(p, game))
    except ManoeuvreError as e:
        ctx = WY.context(request.app.state.studies, p, sent=True)
        return _page("why_new.html", 400, title="Why?", error=str(e), **ctx)


ROUTES = [
    Route("/jobs", jobs_page, name="jobs"),
    Route("/jobs", post_job, methods=["POST"]),
    Route("/jobs/list", jobs_list),
    Route("/jobs/new", new_job),
    Route("/jobs/{jid:str}.json", job_json),
    Route("/jobs/{jid:str}/cancel", cancel_job, methods=["POST"]),
    Route("/jobs/{jid:str}/resume", resume_job, methods=["POST"]),
    Route("/whatif/new", new_whatif),
    Route("/whatif", post_whatif, methods=["POST"]),
    Route("/whatif/changed", whatif_changed.changed_page),
    Route("/fix/new", new_fix),
    Route("/fix", post_fix, methods=["POST"]),
    Route("/why/new", new_why),
    Route("/why", post_why, methods=["POST"]),
]


def start_manager(root, backend: dict | None = None, warm: bool = False):
    """The application's job manager over the studies folder ``root``, its worker started
    (the jobs a stopped server left unfinished are queued again first; ``warm``: it first
    loads what a job's end needs, ``manager.warm_up``)."""
    from manoeuvre_sim.web.jobs.manager import JobManager

    jm = JobManager(root, backend, warm=warm)
    jm.start()
    return jm


@contextlib.asynccontextmanager
async def lifespan(app):
    """Stop the job worker with the server: the running job is interrupted between tasks
    and left to be resumed at the next start."""
    try:
        yield
    finally:
        jm = getattr(app.state, "jobs", None)
        if jm is not None:
            jm.stop()
