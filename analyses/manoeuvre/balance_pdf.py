"""The printable balance report: the analysis frames laid out on portrait A4 / US Letter
pages with :mod:`analyses.charts`, each page footed with the run's provenance (the page
machinery, shared by every PDF, is :mod:`analyses.common.pages`).

Nothing is computed here beyond choosing which policy a page shows; the frames come from
the analysis pipeline (see :mod:`analyses.charts` for the columns each chart reads).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from manoeuvre_sim.analyses.common.pages import (  # noqa: E402
    MARGIN_L,
    MARGIN_T,
    Page,
    page_head,
    page_rect,
    page_size,
    page_text,
    page_title,
    write_study_pdf,
)
from manoeuvre_sim.analyses.manoeuvre import charts  # noqa: E402

INCOMPLETE = "* in a pairing with fewer games (interrupted): rank and field win rate not comparable"

HOW_TO_READ = (
    "Each cell: the row army's win rate against the column army, both seats pooled, a draw "
    "counting half a win.",
    "Large: the win rate in per cent; small, beneath: its 95 % Wilson interval. Darker: better "
    "for the row army (orange < 50 % < blue).",
    "Hatched diagonal: the mirror match (an army against itself); '1st 55': the side moving "
    "first won 55 % of those games.",
)


def _titled(title: str, status: str) -> str:
    """A short title with the study's status (``"INTERRUPTED: 41,000 of 64,000 games"``)."""
    return f"{title} — {status}" if status else title


def _head(fig, title: str, subtitle: str, status: str) -> float:
    """A chart page's title; with ``status`` (an interrupted study), the status on a second
    title line in red beneath it, and the subtitle below that. Returns the inches used."""
    if not status:
        return page_title(fig, title, subtitle)
    _, h = fig.get_size_inches()
    page_text(fig, MARGIN_L, h - MARGIN_T, title, fontsize=14, weight="bold", va="top")
    page_text(fig, MARGIN_L, h - MARGIN_T - 0.3, status, fontsize=12.5, weight="bold", va="top",
          color="#a50f15")  # fmt: skip
    page_text(fig, MARGIN_L, h - MARGIN_T - 0.57, subtitle, fontsize=8.5, va="top", color="0.25")
    return MARGIN_T + 0.82


def _marked(frames: Mapping[str, pd.DataFrame], marked) -> dict[str, pd.DataFrame]:
    """``frames`` with each army of ``marked`` (policy -> armies in an incomplete pairing)
    named ``"Prussia *"`` in every chart of its policy."""
    out = dict(frames)
    for name, df in frames.items():
        if df is None or "policy" not in df.columns:
            continue
        df = df.copy()
        for policy, armies in (marked or {}).items():
            rename = {a: f"{a} *" for a in armies}
            rows = df["policy"] == policy
            for col in ("army", "opponent"):
                if col in df.columns:
                    df.loc[rows, col] = df.loc[rows, col].replace(rename)
        out[name] = df
    return out


def _heatmap_page(matrix: pd.DataFrame, policy: str, span: float, status: str = "") -> Page:
    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        sub = f"policy: {policy}" + (f"; {INCOMPLETE}" if status else "")
        top = _head(fig, "Manoeuvre — win rate of each pairing", sub, status)
        body = "\n".join(HOW_TO_READ)
        page_text(fig, MARGIN_L, h - top - 0.05, body, fontsize=8, va="top", linespacing=1.4)
        left, right = 1.45, 0.95
        width = w - left - right
        top_of_axes = h - top - 1.5
        height = min(top_of_axes - 1.3, width * 1.2)
        ax = page_rect(fig, left, top_of_axes - height, width, height)
        charts.heatmap(matrix, ax, policy=policy, span=span)

    return draw


def _two_charts(
    title: str, subtitle: str, first, second, *, gap: float = 1.25, status: str = ""
) -> Page:
    """Two charts stacked, their heights in proportion to their rows; ``first``/``second``:
    (draw(ax), rows, left margin, right margin in inches, heading)."""

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        top = _head(fig, title, subtitle, status) + 0.55
        avail = h - top - 1.3 - gap
        (f1, n1, l1, r1, t1), (f2, n2, l2, r2, t2) = first, second
        h1 = avail * (n1 + 1.5) / (n1 + n2 + 3)
        h2 = avail - h1
        y1 = h - top - h1
        ax1 = page_rect(fig, l1, y1, w - l1 - r1, h1)
        f1(ax1)
        page_text(fig, MARGIN_L, h - top + 0.35, t1, fontsize=10.5, weight="bold", va="bottom")
        ax2 = page_rect(fig, l2, y1 - gap - h2, w - l2 - r2, h2)
        f2(ax2)
        page_text(fig, MARGIN_L, y1 - gap + 0.35, t2, fontsize=10.5, weight="bold", va="bottom")

    return draw


def write_balance_pdf(
    path: str | Path,
    frames: Mapping[str, pd.DataFrame],
    provenance: dict,
    *,
    paper: str = "a4",
    summary_lines: Sequence[str] = (),
    status: str = "",
    incomplete: Mapping[str, Sequence[str]] | None = None,
) -> Path:
    """Write the balance report PDF atomically and return its path.

    ``frames``: ``matrix``, ``armies``, ``first_player``, ``victory_by_army`` and, for a
    play-style comparison, ``styles`` (and ``style_tau``); the pages are
    :func:`balance_pages`'. With ``summary_lines``, a monospace text page follows.
    ``paper``: ``'a4'`` or ``'letter'``. ``status``: an interrupted study's
    ``"INTERRUPTED: 41,000 of 64,000 games"``, in every page's title; ``incomplete``: per
    policy, the armies in a pairing with fewer games, marked ``*`` on every chart.
    """
    page_size(paper)
    shown = _marked(frames, incomplete) if status else frames
    pages: list[tuple[Page, str | None]] = [
        (d, p) for d, p, _ in balance_pages(shown, status=status)
    ]
    title = _titled("Manoeuvre balance report", status)
    return write_study_pdf(path, pages, provenance, paper, title, summary_lines or (),
                           _titled("Summary", status))  # fmt: skip


def balance_pages(
    frames: Mapping[str, pd.DataFrame], status: str = ""
) -> list[tuple[Page, str | None, str]]:
    """The balance study's chart pages, each (draw, policy it shows, heading for a table of
    contents): the first policy's pairing heatmap; its ratings and field win rates; its
    first-player advantage and victory mix; with ``styles``, a heatmap per further policy
    and the style-sensitivity chart. The report (:mod:`analyses.common.report`) reuses them."""
    matrix = frames["matrix"]
    policies = list(pd.unique(matrix["policy"]))
    if not policies:
        raise ValueError("the matrix frame is empty")
    lead = policies[0]
    span = _common_span(matrix)
    armies = charts.one_policy(frames["armies"], lead)
    order = list(armies.sort_values(["rating", "army"], ascending=[False, True])["army"])
    fp = charts.one_policy(frames["first_player"], lead)
    sub = f"policy: {lead}" + (f"; {INCOMPLETE}" if status else "")

    pages: list[tuple[Page, str | None, str]] = [
        (_heatmap_page(matrix, lead, span, status), lead, f"Win rate of each pairing ({lead})")
    ]
    strength = _strength_page(armies, sub, status)
    pages.append((strength, lead, f"Army strength: ratings and field win rates ({lead})"))
    vba = charts.one_policy(frames["victory_by_army"], lead)
    seats = _seat_page(fp, vba, order, sub, status)
    pages.append((seats, lead, f"Seat and game ends: first player, victory types ({lead})"))
    styles = frames.get("styles")
    if styles is not None and len(styles):
        pages.extend(
            (_heatmap_page(matrix, p, span, status), p, f"Win rate of each pairing ({p})")
            for p in policies[1:]
        )
        sensitivity = _sensitivity_page(styles, frames.get("style_tau"), status)
        shown = ", ".join(map(str, pd.unique(styles["policy"])))
        pages.append((sensitivity, shown, "Play-style sensitivity"))
    return pages


def _common_span(matrix: pd.DataFrame) -> float:
    """One colour scale for every heatmap, so that the policies' pages compare at a glance:
    the farthest win rate from 50 % of any policy, rounded up to 5 points."""
    off = matrix.loc[matrix["army"] != matrix["opponent"], "win_rate"].dropna()
    far = float((off - 0.5).abs().max()) if len(off) else 0.1
    return min(0.5, max(0.1, math.ceil(round(far / 0.05, 9)) * 0.05))


def _strength_page(armies: pd.DataFrame, sub: str, status: str) -> Page:
    """The ratings over the field win rates."""
    n_armies = len(armies)
    return _two_charts(
        "Army strength",
        sub,
        (
            lambda ax: charts.ratings(armies, ax),
            n_armies,
            2.0,
            0.5,
            "Bradley–Terry rating, best at top  (label: rank and its 95 % interval)",
        ),
        (
            lambda ax: charts.field_win_rates(armies, ax),
            n_armies,
            2.0,
            0.5,
            "Win rate against the field (all opponents pooled)",
        ),
        status=status,
    )


def _seat_page(fp: pd.DataFrame, vba: pd.DataFrame, order: list, sub: str, status: str) -> Page:
    """The first-player advantage over the victory mix (armies in ``order``)."""
    return _two_charts(
        "Seat and game ends",
        sub,
        (
            lambda ax: charts.first_player(fp, ax),
            len(fp),
            1.45,
            1.5,
            "Moving first against moving second, sorted by the first-move advantage",
        ),
        (
            lambda ax: charts.victory_mix(vba, ax, order=order),
            len(vba),
            1.45,
            1.3,
            "How the games end (armies in rating order)",
        ),
        gap=1.45,
        status=status,
    )


def _sensitivity_page(styles: pd.DataFrame, tau: pd.DataFrame | None, status: str) -> Page:
    """Each army's field win rate under every policy, Kendall's tau in the title."""

    def sensitivity(fig) -> None:
        w, h = fig.get_size_inches()
        top = _head(
            fig,
            "Play-style sensitivity",
            "the same armies played by each policy; a robust balance keeps the order",
            status,
        )
        n_tau = 0 if tau is None else len(tau)
        top += 0.3 + 0.16 * n_tau
        rows = styles["army"].nunique()
        height = min(h - top - 1.4, 0.34 * rows * styles["policy"].nunique() + 0.9)
        ax = page_rect(fig, 1.5, h - top - height, w - 1.5 - 1.2, height)
        charts.style_sensitivity(styles, tau, ax)

    return sensitivity


def write_whatif_pdf(
    path: str | Path,
    whatif: pd.DataFrame,
    provenance: dict,
    *,
    paper: str = "a4",
    changes: Sequence[str] = (),
    summary_lines: Sequence[str] = (),
) -> Path:
    """Write the what-if report PDF atomically and return its path: the edits applied
    (``changes``) and the change of each affected pairing's win rate (:func:`whatif_page`);
    with ``summary_lines``, a monospace text page. ``paper``: ``'a4'`` or ``'letter'``."""
    page_size(paper)
    pages: list[tuple[Page, str | None]] = [(whatif_page(whatif, changes), None)]
    return write_study_pdf(path, pages, provenance, paper, "Manoeuvre what-if report",
                           summary_lines or ())  # fmt: skip


def whatif_page(whatif: pd.DataFrame, changes: Sequence[str] = (), title: str = "") -> Page:
    """The what-if page: the edits applied and the change of each affected pairing's win
    rate (``title`` replaces the page title)."""

    def page(fig) -> None:
        w, h = fig.get_size_inches()
        lines = ["Changes applied:"]
        for change in changes or ["(none listed)"]:
            wrapped = textwrap.wrap(str(change), 110) or [""]
            lines += ["  • " + wrapped[0]] + ["    " + x for x in wrapped[1:]]
        top = page_head(
            fig,
            title or "Manoeuvre — what if",
            "the variant's win rates against the base run",
            lines,
            fontsize=8.5,
            linespacing=1.45,
        )
        top += 0.25 + 0.2 * len(lines) + 0.45
        rows = len(whatif)
        height = min(h - top - 1.3, 0.4 * rows + 0.5)
        left = 2.2 if whatif["army"].nunique() > 1 else 1.7
        ax = page_rect(fig, left, h - top - height, w - left - 1.55, height)
        charts.whatif_deltas(whatif, ax)
        page_text(
            fig,
            MARGIN_L,
            h - top + 0.2,
            "Change of win rate per pairing (variant − base), field row first",
            fontsize=10.5,
            weight="bold",
            va="bottom",
        )

    return page
