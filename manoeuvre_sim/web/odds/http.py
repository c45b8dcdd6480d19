"""What the odds pages (:mod:`manoeuvre_sim.web.games.manoeuvre.odds`, :mod:`manoeuvre_sim.web.games.hex.odds`)
answer with: the page or its htmx fragment, with a bad input's 400 in the result area, and
the CSV and PDF downloads."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import ManoeuvreError
from manoeuvre_sim.web.render import download, page

RESULT_ID = "odds-result"  # the element the htmx fragment replaces


def query_of(request: Request) -> str:
    """The request's query without the page-only ``view``, for the download links."""
    return urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "view"])


def without_empty(request: Request) -> str | None:
    """The request's address without its empty fields (a form sends every field, typed
    or not; an empty one means the option's default, so the shorter address reproduces
    the same input), or None when it has none."""
    items = request.query_params.multi_items()
    kept = [(k, v) for k, v in items if v.strip()]
    if len(kept) == len(items):
        return None
    return f"{request.url.path}?{urlencode(kept)}" if kept else request.url.path


def field_of(message: str, fields) -> str | None:
    """The name of the form field a bad input's message is about: the one it opens with
    (``--defense: ...``, ``dice: ...``, ``defender terrain: ...``), else the first whose
    option it names; None when it names none."""
    names = {f.name: f for f in fields}
    head = message.split(":", 1)[0].strip()
    for f in fields:
        if head in (f.option, f.name, f.name.replace("_", " ")):
            return f.name
    words = head.split()
    if words and words[-1] in names:
        return words[-1]
    found = [(message.find(f.option), f.name) for f in fields
             if re.search(re.escape(f.option) + r"(?![\w-])", message)]  # fmt: skip
    return min(found)[1] if found else None


def respond(request: Request, compute, form_ctx: dict, template: str):
    """The fragment (htmx) or the whole page; a bad input is a 400 showing the command
    line's message in the result area (``#error-message``), the form as typed above it
    with the field the message is about marked (``aria-invalid``, the message beside it).
    A whole page asked with empty fields is sent on to its address without them."""
    htmx = request.headers.get("hx-request") and request.headers.get("hx-target") == RESULT_ID
    short = None if htmx else without_empty(request)
    if short is not None:
        return RedirectResponse(short, status_code=303)
    try:
        ctx, status = compute(), 200
    except ManoeuvreError as exc:
        fields = [f for _, group in form_ctx.get("groups", ()) for f in group]
        ctx = {"result_template": "odds_error.html", "message": str(exc),
               "error_field": field_of(str(exc), fields)}  # fmt: skip
        status = 400
    if htmx:
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
