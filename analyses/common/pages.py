"""The page machinery every PDF of the tool is built on (the balance, card-value and
what-if reports and the combined report): portrait A4 / US Letter pages, each drawn by a
``Page`` function on a blank figure, placed in inches, and footed with its study's
provenance and "page n of m"; monospace text pages; the PDF written atomically.

Nothing here knows a kind of study or a game: the report modules (``balance_pdf``,
``cards_pdf``, ``report_pdf``, ``report``, ``hex_report``) lay out their pages with these
functions; ``study_head`` reads only the manifest fields every study of either game writes.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

from manoeuvre_sim.core.fileio import temp_beside  # noqa: E402

PAPER_INCHES = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}

MARGIN_L, MARGIN_R, MARGIN_T = 0.6, 0.55, 0.5  # inches
FOOTER_CHARS = 135

Page = Callable[[plt.Figure], None]


def page_size(paper: str) -> tuple[float, float]:
    if paper not in PAPER_INCHES:
        raise ValueError(f"paper must be one of {', '.join(PAPER_INCHES)}, not {paper!r}")
    return PAPER_INCHES[paper]


def page_rect(fig, left: float, bottom: float, width: float, height: float):
    """An axes placed in inches from the page's lower left corner."""
    w, h = fig.get_size_inches()
    return fig.add_axes((left / w, bottom / h, width / w, height / h))


def page_text(fig, x: float, y: float, s: str, **kw):
    """Text placed in inches from the page's lower left corner."""
    w, h = fig.get_size_inches()
    return fig.text(x / w, y / h, s, **kw)


def page_title(fig, title: str, subtitle: str = "") -> float:
    """Page title (and optional one-line subtitle); returns the inches used from the top."""
    _, h = fig.get_size_inches()
    page_text(fig, MARGIN_L, h - MARGIN_T, title, fontsize=14, weight="bold", va="top")
    if not subtitle:
        return MARGIN_T + 0.35
    page_text(fig, MARGIN_L, h - MARGIN_T - 0.3, subtitle, fontsize=8.5, va="top", color="0.25")
    return MARGIN_T + 0.55


def page_head(fig, title: str, subtitle: str, lines: Sequence[str], gap: float = 0.05, **text):
    """A page's title and subtitle (:func:`page_title`) and, ``gap`` inches beneath, its
    ``lines`` of text (how to read the page; 7.5 pt, line spacing 1.35 unless ``text`` says
    otherwise); returns the inches the title used from the top, as ``page_title`` does."""
    _, h = fig.get_size_inches()
    top = page_title(fig, title, subtitle)
    style = {"fontsize": 7.5, "va": "top", "linespacing": 1.35, **text}
    page_text(fig, MARGIN_L, h - top - gap, "\n".join(lines), **style)
    return top


def _footer_lines(provenance: Mapping[str, str], policy: str | None) -> list[str]:
    prov = dict(provenance)
    if policy is not None and "policy" in prov:
        prov["policy"] = policy
    items = [f"{k} {v}" for k, v in prov.items()]
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= FOOTER_CHARS:
            lines[-1] += " · " + item
        else:
            lines.append(item)
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" · ".join(lines[1:]), FOOTER_CHARS, placeholder=" …")]
    return lines


def _footer(fig, provenance: Mapping[str, str], policy: str | None, n: int, m: int) -> None:
    w, _ = fig.get_size_inches()
    lines = _footer_lines(provenance, policy)
    page_text(
        fig,
        MARGIN_L,
        0.32,
        "\n".join(lines),
        fontsize=6.5,
        color="0.3",
        va="bottom",
        linespacing=1.35,
    )
    page_text(
        fig,
        w - MARGIN_R,
        0.32,
        f"page {n} of {m}",
        fontsize=7,
        color="0.3",
        ha="right",
        va="bottom",
    )


def text_page(title: str, lines: Sequence[str]) -> Page:
    def draw(fig) -> None:
        page_head(fig, title, "", lines, gap=0.15, family="monospace", linespacing=1.3)

    return draw


def text_pages(title: str, lines: Sequence[str], paper: str) -> list[Page]:
    """Monospace pages of ``lines``; a line too long for the page wraps with an indent."""
    width = 110 if paper == "a4" else 114
    lines = [
        part
        for line in lines
        for part in (
            textwrap.wrap(str(line), width, subsequent_indent="    ", drop_whitespace=False) or [""]
        )
    ]
    per = 70 if paper == "a4" else 65
    chunks = [list(lines[i : i + per]) for i in range(0, len(lines), per)] or [[]]
    return [text_page(title, chunk) for chunk in chunks]


def write_study_pdf(
    path,
    pages: list[tuple[Page, str | None]],
    provenance,
    paper,
    title,
    summary: Sequence[str] = (),
    summary_title: str = "Summary",
) -> Path:
    """Write ``pages`` (draw, policy shown in the footer), then the ``summary`` lines as text
    pages headed ``summary_title``, all footed with one ``provenance``."""
    pages = [*pages, *((p, None) for p in text_pages(summary_title, summary, paper) if summary)]
    return write_pages(path, [(d, provenance, p) for d, p in pages], paper, title)


def write_pages(
    path,
    pages: Sequence[tuple[Page, Mapping[str, str], str | None]],
    paper: str,
    title: str,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Write a PDF of ``pages`` atomically: each (draw, provenance of its footer, policy in
    the footer or None), numbered "page n of m"; return its path. ``progress(n)`` after
    page n."""
    tool = next((str(p.get("tool")) for _, p, _ in pages if p.get("tool")), "manoeuvre-sim")

    def footed(n: int, draw: Page, provenance, policy) -> Page:
        def page(fig) -> None:
            draw(fig)
            _footer(fig, provenance, policy, n, len(pages))

        return page

    draws = [footed(n, *page) for n, page in enumerate(pages, start=1)]
    return write_figures(path, draws, page_size(paper), {"Title": title, "Creator": tool}, progress)


def write_figures(
    path,
    draws: Sequence[Page],
    size: tuple[float, float],
    meta: Mapping[str, str],
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Write a PDF atomically, a page of ``size`` inches drawn by each of ``draws``, with the
    document ``meta`` (Title, Creator); return its path. ``progress(n)`` after page n."""
    path = Path(path)
    tmp = temp_beside(path)
    try:
        with PdfPages(tmp, metadata=dict(meta)) as pdf:
            for n, draw in enumerate(draws, start=1):
                fig = plt.figure(figsize=size)
                try:
                    draw(fig)
                    pdf.savefig(fig)
                finally:
                    plt.close(fig)
                if progress is not None:
                    progress(n)
        os.replace(tmp, path)  # never leave a half-written PDF behind
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def study_head(title: str, path, m: Mapping, rules_version: str, *, backend: bool = False):
    """The first lines of a study's block on a report's cover, for either game: its title,
    directory, the tool and rules that made it (flagged when they are not this tool's) and
    when, where and how long it ran; (style, text) pairs for ``text_pages``."""
    made = f"made with manoeuvre-sim {m['version']}, rules {m['rules_version']}"
    if m["rules_version"] != rules_version:
        made += f" — NOT the rules of this tool ({rules_version}): rerun it to compare"
    when = str(m.get("finished") or m.get("started") or "?").replace("T", " ")
    secs = m.get("seconds")
    run = f"{secs:,.1f} s on {m.get('threads', '?')} thread(s)" if secs is not None else "?"
    ran = f"finished {when} on {m.get('machine', '?')}; run time {run}"
    if backend:
        ran += f" ({m.get('backend', 'local')} backend)"
    return [("h2", title), ("p", f"directory: {path}"), ("p", made), ("p", ran)]


def section(title: str, *paragraphs: str) -> list[tuple[str, str]]:
    """A text section after another on a report's pages: a gap, its heading ``title`` and its
    ``paragraphs``, (style, text) pairs for ``text_pages``."""
    return [("gap", ""), ("h2", title), *(("p", p) for p in paragraphs)]
