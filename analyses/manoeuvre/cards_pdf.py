"""The printable card-value report of one army: the card frame laid out on portrait A4 /
US Letter pages with the card charts of :mod:`analyses.charts`, each page footed with the
run's provenance (the page machinery is :mod:`analyses.common.pages`).

Pages, each left out when its mode did not run: the ablation value of every card (split
into leaders + HQ cards and unit cards when one page would make the labels too small);
the observed improvement when drawn; observed against ablation; the play rates; the
summary text.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from manoeuvre_sim.analyses.common.pages import (  # noqa: E402
    MARGIN_L,
    MARGIN_R,
    Page,
    page_rect,
    page_size,
    page_text,
    page_title,
    write_study_pdf,
)
from manoeuvre_sim.analyses.manoeuvre import card_charts  # noqa: E402

HOW_TO_READ = (
    "Value: the win rate the army loses when every copy of the card is replaced by a blank "
    "card that can only be discarded, the games replayed on the same seeds.",
    "Positive: the card helps. Whisker: the 95 % paired interval; a dark bar's interval is "
    "clear of 0. All figures in percentage points of win rate.",
    "Observed: PIW, the win rate in games the card was played minus games it was not — "
    "biased, not the card's worth (see docs/card-value.md).",
)

PART_NAMES = {"leader": "leaders", "hq": "HQ cards", "unit": "unit cards"}
MIN_ROW_INCHES = 0.145  # below this a page of bars splits (labels would shrink under 6.3 pt)
MAX_ROW_INCHES = 0.24  # a short chart keeps its rows this tall and leaves the page's foot blank
BOTTOM = 1.05  # inches kept below a chart: its tick labels, axis label and the footer
PAD = 0.08  # inches between a chart's outer texts and the margins


def _ran(cards: pd.DataFrame, column: str) -> bool:
    return column in cards.columns and bool(cards[column].notna().any())


def _fit_width(fig, ax, left: float, right: float) -> None:
    """Move ``ax`` so that its card labels start at ``left`` and the texts right of it end
    at ``right`` (inches from the page's left and right edges); height unchanged."""
    renderer = fig.canvas.get_renderer()
    w, _ = fig.get_size_inches()
    dpi = fig.dpi
    box = ax.get_window_extent(renderer)
    labels = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
    label_w = (box.x0 - min((b.x0 for b in labels), default=box.x0)) / dpi
    outer = [t.get_window_extent(renderer).x1 for t in ax.texts if t.get_text()]
    legend = ax.get_legend()
    if legend is not None:
        outer.append(legend.get_window_extent(renderer).x1)
    right_w = max(0.0, (max(outer, default=box.x1) - box.x1) / dpi)
    x0 = left + label_w + PAD
    x1 = w - right - right_w - PAD
    pos = ax.get_position()
    ax.set_position((x0 / w, pos.y0, (x1 - x0) / w, pos.height))


def _intro(fig, top: float, lines: Sequence[str]) -> float:
    """The how-to-read block under the title, one bullet per line, wrapped with a hanging
    indent; returns the inches used from the top."""
    _, h = fig.get_size_inches()
    width = 126 if fig.get_figwidth() > 8.4 else 122
    wrapped = [
        part
        for line in lines
        for part in textwrap.wrap(line, width, initial_indent="•  ", subsequent_indent="    ")
    ]
    page_text(
        fig, MARGIN_L, h - top - 0.05, "\n".join(wrapped), fontsize=8, va="top", linespacing=1.4
    )
    return top + 0.12 + len(wrapped) * 8 * 1.4 / 72


def _bars_page(
    title: str,
    subtitle: str,
    heading: str,
    chart: Callable,
    *,
    rows: int,
    intro: Sequence[str] = (),
    xlim: tuple[float, float] | None = None,
) -> Page:
    """A page of one card bar chart of ``rows`` rows (cards and kind headings) under its
    heading: as tall as the page allows, yet no row taller than :data:`MAX_ROW_INCHES`."""

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        top = page_title(fig, title, subtitle)
        if intro:
            top = _intro(fig, top, intro) + 0.05
        page_text(fig, MARGIN_L, h - top - 0.3, heading, fontsize=10.5, weight="bold", va="bottom")
        top += 0.3 + 0.42  # the heading, then the legend and column heading above the axes
        height = min(h - top - BOTTOM, rows * MAX_ROW_INCHES)
        ax = page_rect(fig, 2.5, h - top - height, w - 2.5 - 2.0, height)
        chart(ax)
        if xlim is not None:
            ax.set_xlim(*xlim)
        _fit_width(fig, ax, MARGIN_L, MARGIN_R)

    return draw


def _rows_fit(cards: pd.DataFrame, paper: str, top: float) -> bool:
    """Whether all of ``cards`` fit on one bar page whose axes start ``top`` from the top."""
    _, h = page_size(paper)
    rows = len(cards) + cards["kind"].nunique()
    return (h - top - BOTTOM) / max(rows, 1) >= MIN_ROW_INCHES


def _chunks(cards: pd.DataFrame, paper: str, top: float) -> list[pd.DataFrame]:
    """The card frame as one part, or split into leaders + HQ cards and unit cards."""
    if _rows_fit(cards, paper, top):
        return [cards]
    units = cards["kind"] == "unit"
    return [part for part in (cards[~units], cards[units]) if len(part)]


def write_cards_pdf(
    path: str | Path,
    cards: pd.DataFrame,
    provenance: dict,
    *,
    army: str,
    against: str,
    paper: str = "a4",
    summary_lines: Sequence[str] = (),
) -> Path:
    """Write the card-value report of ``army`` atomically and return its path: the pages
    of :func:`card_pages`, then with ``summary_lines`` monospace text pages.
    ``paper``: ``'a4'`` or ``'letter'``."""
    pages: list[tuple[Page, str | None]] = [
        (d, None) for d, _ in card_pages(cards, army=army, against=against, paper=paper)
    ]
    return write_study_pdf(path, pages, provenance, paper, f"Manoeuvre card value — {army}",
                           summary_lines or ())  # fmt: skip


def card_pages(
    cards: pd.DataFrame, *, army: str, against: str, paper: str = "a4"
) -> list[tuple[Page, str]]:
    """The card-value pages of ``army``, each (draw, heading for a table of contents; ``""``
    for a section's continuation page).

    ``cards``: one row per card identity (see :func:`analyses.card_charts.card_values` for the
    columns). With ablation results: the value of each card (a second page for the unit
    cards when the labels would grow too small on one). With observed results: the
    improvement when drawn and the play rates; with both, observed against ablation.
    """
    page_size(paper)
    ablation = _ran(cards, "value")
    # the observed figure: the improvement when played (PIW). In Manoeuvre nearly every card
    # is drawn in nearly every game (a day lasts until a first deck runs out), so the
    # improvement when drawn (IWD) rests on a few short games; it stands in only when no
    # PIW was computed (it stays in cards.csv)
    metric = "piw" if _ran(cards, "piw") else "iwd"
    observed = _ran(cards, metric)
    played = _ran(cards, "play_rate")
    if not (ablation or observed or played):
        raise ValueError("the card frame holds neither ablation nor observed results")
    copies = int(cards["copies"].fillna(1).sum())
    later_sub = f"{army} against {against}"
    # the first page's title and subtitle, the later pages' subtitle
    heads = (
        f"Card value — {army} against {against}",
        f"{len(cards)} card identities, {copies} cards in the deck",
        later_sub,
    )
    pages: list[tuple[Page, str]] = []

    def add_bars(section: str, heading: str, chart_of: Callable, xlim=None) -> None:
        _add_bar_pages(pages, cards, paper, heads, section, heading, chart_of, xlim)

    if ablation:
        add_bars(
            f"Ablation — {army}",
            "Win rate lost without the card (ablation), best at top of each group",
            lambda part: lambda ax: card_charts.card_values(part, ax, metric="value"),
            card_charts.card_value_limits(cards, "value"),
        )
    if observed:
        what = {"iwd": "when drawn (IWD", "piw": "when played (PIW"}[metric]
        add_bars(
            f"Observed — {army}",
            f"Improvement {what}, observed) — "
            + ("biased, read with the ablation" if ablation else "biased, not the card's worth"),
            lambda part: lambda ax: card_charts.card_values(part, ax, metric=metric),
            card_charts.card_value_limits(cards, metric),
        )
    if observed and ablation:
        scatter = _scatter_page(
            cards, f"Observed against ablation — {army}", later_sub, metric=metric
        )
        pages.append((scatter, f"Observed against ablation — {army}"))
    if played:
        add_bars(
            f"Play rates — {army}",
            "How often a drawn card is played, and in which turn",
            lambda part: lambda ax: card_charts.card_play_rates(part, ax),
        )
    return pages


# inches from the top to the axes: title, intro (about 5 lines) and heading on the first
# page; title and heading on the others
_FIRST_TOP, _LATER_TOP = 0.5 + 0.55 + 1.1 + 0.72, 0.5 + 0.55 + 0.72


def _add_bar_pages(
    pages: list[tuple[Page, str]],
    cards: pd.DataFrame,
    paper: str,
    heads: tuple[str, str, str],
    section: str,
    heading: str,
    chart_of: Callable,
    xlim=None,
) -> None:
    """Add to ``pages`` the pages of one bar chart: one, or leaders + HQ cards and unit
    cards apart. ``heads``: the first page's title and subtitle, the later pages' subtitle;
    the report's first page (``pages`` still empty) has the introduction."""
    main_title, main_sub, later_sub = heads
    first = not pages
    parts = _chunks(cards, paper, _FIRST_TOP if first else _LATER_TOP)
    for k, part in enumerate(parts):
        lead = first and k == 0
        title = main_title if lead else section + (" (continued)" if k else "")
        sub = main_sub if lead else later_sub
        if len(parts) > 1:
            shown = " and ".join(PART_NAMES.get(x, str(x)) for x in pd.unique(part["kind"]))
            sub += f" · {shown}" + ("; unit cards on the next page" if k == 0 else "")
        page = _bars_page(
            title,
            sub,
            heading,
            chart_of(part),
            rows=len(part) + part["kind"].nunique(),
            intro=HOW_TO_READ if lead else (),
            xlim=xlim,
        )
        pages.append((page, section if k == 0 else ""))


SCATTER_NOTES = (
    "Each point is a card holding both figures: across, its observed improvement (when "
    "played, or drawn); up, its value (ablation).",
    "On the dashed line the two agree. In the grey quadrants they disagree in sign: there "
    "the observed figure misleads.",
)


def _scatter_page(cards: pd.DataFrame, title: str, subtitle: str, metric: str = "iwd") -> Page:
    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        top = page_title(fig, title, subtitle)
        top = _intro(fig, top, SCATTER_NOTES) + 0.15
        page_text(
            fig,
            MARGIN_L,
            h - top - 0.3,
            f"Observed ({metric.upper()}) against ablation (value), percentage points",
            fontsize=10.5,
            weight="bold",
            va="bottom",
        )
        top += 0.3 + 0.35
        left, right = 1.0, MARGIN_R + 0.1
        height = h - top - BOTTOM - 0.1
        ax = page_rect(fig, left, h - top - height, w - left - right, height)
        card_charts.card_observed_vs_ablation(cards, ax, metric=metric)

    return draw
