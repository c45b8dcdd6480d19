"""The report's own page layouts (:mod:`analyses.common.report`): pages of flowing styled text
(cover, methods) and the table of contents, on the page machinery of
:mod:`analyses.common.pages`. Nothing here reads a study or computes a figure."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

from matplotlib.lines import Line2D  # noqa: E402

from manoeuvre_sim.analyses.common.pages import (  # noqa: E402
    MARGIN_L,
    MARGIN_R,
    MARGIN_T,
    Page,
    page_size,
    page_text,
    page_title,
)

# ----------------------------------------------------------------------------- text pages

# (font keywords, line height in inches, wrap width in characters on A4) per line style
STYLES: dict[str, tuple[dict, float, int]] = {
    "h1": ({"fontsize": 12, "weight": "bold"}, 0.34, 80),
    "h2": ({"fontsize": 9.5, "weight": "bold"}, 0.27, 100),
    "p": ({"fontsize": 8.5}, 0.165, 112),
    "m": ({"fontsize": 7.5, "family": "monospace"}, 0.14, 112),
    "gap": ({}, 0.1, 0),
}
BOTTOM = 0.8  # inches kept for the footer (two lines from 0.32 in up)


@dataclass
class Section:
    """Pages under one contents heading: (draw, provenance of its footer, policy in the
    footer or None, sub-heading in the contents or "") each."""

    heading: str
    pages: list[tuple[Page, dict, str | None, str]]


BULLET = "•  "
# paths, hashes and option names are never split (a long one overhangs the margin instead)
NO_BREAK = {"break_long_words": False, "break_on_hyphens": False}
BULLET_INDENT = 0.17  # inches from the bullet to its text


def _wrap(items: Sequence[tuple[str, str]], paper: str) -> list[tuple[str, str, float]]:
    """Each (style, text) line wrapped to the page width: (style, text, indent in inches).
    A line starting with a bullet hangs its continuation under the bullet's text; a
    monospace line hangs by four characters."""
    out = []
    for style, text in items:
        width = STYLES[style][2]
        if paper == "letter":
            width = int(width * 1.02)
        if not width:
            out.append((style, text, 0.0))
            continue
        if text.startswith(BULLET):
            parts = textwrap.wrap(text.removeprefix(BULLET), width - 4, **NO_BREAK) or [""]
            out.append((style, "•", 0.0))
            out.extend((style, part, BULLET_INDENT) for part in parts)
            continue
        indent = "    " if style == "m" else ""
        for part in textwrap.wrap(text, width, subsequent_indent=indent, **NO_BREAK) or [""]:
            out.append((style, part, 0.0))
    return out


def _flow_page(title: str, subtitle: str, lines: Sequence[tuple[str, str, float]]) -> Page:
    def draw(fig) -> None:
        _, h = fig.get_size_inches()
        y = h - page_title(fig, title, subtitle) - 0.1
        for style, text, indent in lines:
            kw, lead, _ = STYLES[style]
            if style in ("h1", "h2") and y < h - 1.3:
                y -= 0.08
            if text == "•":  # the bullet shares the line of its text's first part
                page_text(fig, MARGIN_L, y, text, va="top", **kw)
                continue
            if text:
                page_text(fig, MARGIN_L + indent, y, text, va="top", **kw)
            y -= lead

    return draw


def flow_pages(
    title: str, items: Sequence[tuple[str, str]], paper: str, subtitle: str = ""
) -> list[Page]:
    """Pages of styled lines (``h1``, ``h2``, ``p``, ``m``, ``gap``; a ``p`` starting with
    ``"•  "`` is a bullet), wrapped and broken to fit; the pages after the first are titled
    "(continued)"."""
    _, h = page_size(paper)
    room = h - (MARGIN_T + (0.55 if subtitle else 0.35)) - 0.1 - BOTTOM
    lines = _wrap(items, paper)
    pages: list[list[tuple[str, str, float]]] = []
    cur: list[tuple[str, str, float]] = []
    used = 0.0
    for style, text, indent in lines:
        lead = STYLES[style][1] + (0.08 if style in ("h1", "h2") else 0.0)
        bullet = text == "•"  # drawn on the line of its text, which follows it
        # a heading keeps two lines of what follows it on its page
        keep = 2 * STYLES["p"][1] if style in ("h1", "h2") else 0.0
        if cur and used + lead + keep > room and cur[-1][1] != "•":
            pages.append(cur)
            cur, used = [], 0.0
        if not cur and style == "gap":
            continue
        cur.append((style, text, indent))
        used += 0.0 if bullet else lead
    pages.append(cur)
    return [
        _flow_page(title if k == 0 else f"{title} (continued)", subtitle if k == 0 else "", p)
        for k, p in enumerate(pages)
    ]


# ----------------------------------------------------------------------------- contents

TOC_LINE = 0.25  # inches per entry


def toc_page(entries: Sequence[tuple[int, str, int]], first: bool) -> Page:
    """A contents page: (level, heading, page number) per entry, dotted leaders."""

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        y = h - page_title(fig, "Contents" if first else "Contents (continued)") - 0.15
        renderer = fig.canvas.get_renderer()
        right = w - MARGIN_R
        for level, heading, page in entries:
            x = MARGIN_L + 0.3 * level
            kw = {"fontsize": 10 if level == 0 else 9, "weight": "bold" if level == 0 else None}
            if level == 0 and y < h - 1.5:
                y -= 0.08
            t = page_text(fig, x, y, heading, va="baseline", **kw)
            n = page_text(fig, right, y, str(page), ha="right", va="baseline", **kw)
            x0 = t.get_window_extent(renderer).x1 / fig.dpi + 0.06
            x1 = n.get_window_extent(renderer).x0 / fig.dpi - 0.06
            if x1 > x0:
                fig.add_artist(
                    Line2D([x0 / w, x1 / w], [y / h, y / h], color="0.55", lw=0.8, ls=(0, (1, 3)))
                )
            y -= TOC_LINE

    return draw


def toc_split(entries: Sequence[tuple[int, str, int]], paper: str) -> list[list]:
    """``entries`` cut into contents pages by the height each takes (a top-level entry
    takes a little more, as :func:`toc_page` draws it)."""
    _, h = page_size(paper)
    room = h - MARGIN_T - 0.35 - 0.15 - BOTTOM - 0.2
    pages: list[list] = [[]]
    used = 0.0
    for e in entries:
        need = TOC_LINE + (0.08 if e[0] == 0 and pages[-1] else 0.0)
        if pages[-1] and used + need > room:
            pages.append([])
            used, need = 0.0, TOC_LINE
        pages[-1].append(e)
        used += need
    return pages
