"""The Jinja2 environment of the pages: templates from ``templates/``, autoescape always on
(a name from a designer's army file is text, never markup), and the page helper."""

from __future__ import annotations

import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup
from starlette.responses import HTMLResponse, Response

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


def _tojson_script(value) -> Markup:
    """``value`` as JSON safe inside a ``<script>`` element: ``<``, ``>``, ``&`` and the
    line separators escaped, so a name like ``</script>`` cannot end the element."""
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):  # fmt: skip
        text = text.replace(ch, esc)
    return Markup(text)


def _pct(p, digits: int = 1) -> str:
    if p is None:
        return ""
    return f"{100.0 * float(p):.{digits}f}%"


ENV = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters["script_json"] = _tojson_script
ENV.filters["pct"] = _pct


def _odds_pages() -> list[dict]:
    """Every game's odds page (its web module's ``ODDS_HOME``: ``{"href", "nav", "title",
    "blurb"}``), in the registry's order: the menu's and the front page's links."""
    from manoeuvre_sim.web.game_parts import web_modules

    return [m.ODDS_HOME for m in web_modules().values() if hasattr(m, "ODDS_HOME")]


ENV.globals["odds_pages"] = _odds_pages


def page(template: str, status_code: int = 200, **context) -> HTMLResponse:
    """A whole page (or an htmx fragment) from ``template`` with ``context``."""
    return HTMLResponse(ENV.get_template(template).render(**context), status_code=status_code)


def download(body: str | bytes, name: str, media_type: str, *, inline: bool = False) -> Response:
    """A file the pages hand out (a table, a trace, a chart): ``body`` named ``name`` for
    the browser, saved (``attachment``) or shown (``inline``, a PDF)."""
    disposition = "inline" if inline else "attachment"
    return Response(body, media_type=media_type,
                    headers={"content-disposition": f'{disposition}; filename="{name}"'})  # fmt: skip
