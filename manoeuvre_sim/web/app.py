"""The workbench's Starlette application: each game's own pages (its web module's
``ROUTES``, found through the registry: ``web.game_parts``), the studies, replay and jobs pages,
the static files, and the error pages.

Every error a user can act on (:class:`~manoeuvre_sim.core.errors.ManoeuvreError`: a
malformed parameter, a path outside the studies folder, a bad army file) becomes a 400 page
that says which input and why, in the command line's words; an unknown address is a 404
page; anything else is a 500 page with one line, its traceback only on the server's
standard error. No page ever shows a traceback.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import ManoeuvreError
from manoeuvre_sim.web.render import STATIC, page
from manoeuvre_sim.web.safety import allowed_hosts

log = logging.getLogger("manoeuvre_sim.web")


def _wants_json(request: Request) -> bool:
    return request.url.path.endswith(".json") or "application/json" in request.headers.get(
        "accept", ""
    )


def _error(request: Request, status: int, title: str, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return page(
        "error.html",
        status_code=status,
        title=title,
        message=message,
        path=request.url.path,
        version=__version__,
    )


async def _bad_input(request: Request, exc: ManoeuvreError) -> Response:
    return _error(request, 400, "Bad request", str(exc))


async def _http_error(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 404:
        return _error(request, 404, "Not found", f"no page at {request.url.path}")
    return _error(request, exc.status_code, "Error", str(exc.detail))


async def _crash(request: Request, exc: Exception) -> Response:
    traceback.print_exception(exc, file=sys.stderr)
    return _error(
        request,
        500,
        "Internal error",
        f"the server failed on this page ({type(exc).__name__}); the details are on the "
        "server's terminal",
    )


def home(request: Request) -> Response:
    from manoeuvre_sim.web.studies.pages import list_studies

    studies = list_studies(request.app.state.studies)
    return page(
        "home.html",
        title="manoeuvre-sim workbench",
        studies=studies,
        folder=str(request.app.state.studies),
        version=__version__,
    )


def favicon(request: Request) -> Response:
    """Browsers ask for /favicon.ico whatever the page says: the same icon, not a 404."""
    from starlette.responses import FileResponse

    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


def create_app(
    studies: str | Path = "reports",
    backend: dict | None = None,
    *,
    run_jobs: bool = True,
    host: str | None = None,
    warm_jobs: bool = False,
) -> Starlette:
    """The workbench over the study directories under ``studies``.

    Parameters
    ----------
    studies : path
        The folder whose study directories the pages list and serve; nothing outside it is
        read (``safety.confine``). It need not exist yet.
    backend : dict, optional
        Where jobs play (``cli.common.pop_backend``'s options; None: local threads).
    run_jobs : bool
        Start the job worker (which also resumes the jobs a stopped server left). False
        for a workbench that only renders pages (``site``): its job pages answer 404.
    host : str, optional
        The address ``ui --host`` listens on. Requests whose ``Host`` header names anything
        but loopback (``127.0.0.1``, ``localhost``, ``[::1]``) or this address are refused
        with a 400 (``safety.allowed_hosts``: DNS rebinding).
    warm_jobs : bool
        The job worker first loads what a job's end needs (``jobs.manager.warm_up``), so
        the first job's result is as quick as the next one's (``ui`` without
        ``--no-warmup``).
    """
    from manoeuvre_sim.web.game_parts import web_modules
    from manoeuvre_sim.web.jobs import edit as jobs_edit
    from manoeuvre_sim.web.jobs import pages as jobs
    from manoeuvre_sim.web.replay import pages as replay
    from manoeuvre_sim.web.studies import compare as compare_pages
    from manoeuvre_sim.web.studies import fix_page, why_page
    from manoeuvre_sim.web.studies import pages as study_pages

    routes = [
        Route("/", home, name="home"),
        Route("/favicon.ico", favicon),
        *(r for m in web_modules().values() for r in getattr(m, "ROUTES", ())),
        *study_pages.ROUTES,
        *compare_pages.ROUTES,
        *fix_page.ROUTES,
        *why_page.ROUTES,
        *replay.ROUTES,
        *jobs.ROUTES,
        *jobs_edit.ROUTES,
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ManoeuvreError: _bad_input,
            HTTPException: _http_error,
            Exception: _crash,
        },
        lifespan=jobs.lifespan,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(host))],
    )
    app.state.studies = Path(studies)
    app.state.jobs = (jobs.start_manager(Path(studies), backend, warm=warm_jobs) if run_jobs
                      else None)  # fmt: skip
    return app
