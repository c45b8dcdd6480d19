"""What the odds pages (:mod:`manoeuvre_sim.web.odds`, :mod:`manoeuvre_sim.web.odds_hex`)
answer with: the page or its htmx fragment, with a bad input's 400 in the result area, and
the CSV and PDF downloads."""

from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import ManoeuvreError
from manoeuvre_sim.web.render import download, page

RESULT_ID = "odds-result"  # the element the htmx fragment replaces


def query_of(request: Request) -> str:
    """The request's query without the page-only ``view``, for the download links."""
    return urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "view"])


def respond(request: Request, compute, form_ctx: dict, template: str):
    """The fragment (htmx) or the whole page; a bad input is a 400 showing the command
    line's message in the result area (``#error-message``), the form as typed above it."""
    try:
        ctx, status = compute(), 200
    except ManoeuvreError as exc:
        ctx, status = {"result_template": "odds_error.html", "message": str(exc)}, 400
    if request.headers.get("hx-request") and request.headers.get("hx-target") == RESULT_ID:
        return page(ctx["result_template"], status_code=status, **ctx)
    return page(template, status_code=status, **{"version": __version__, **form_ctx, **ctx})


def csv_response(text: str, name: str) -> Response:
    return download(text, name, "text/csv; charset=utf-8")


def pdf_response(write, name: str) -> Response:
    """Call ``write(path)`` into a temporary folder (never the repository) and answer
    with the PDF it wrote."""
    with tempfile.TemporaryDirectory(prefix="manoeuvre-sim-chart-") as tmp:
        path = Path(tmp) / name
        write(path)
        data = path.read_bytes()
    return download(data, name, "application/pdf", inline=True)
