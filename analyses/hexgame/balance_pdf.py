"""The printable pages of Maneuver's variant study (``hex_balance.pdf``): a page per question
— who wins each variant (dot-and-whisker, 95 % intervals), how games end, the turn each
Capital fell — then the summary, every page footed with the study's provenance through
:mod:`analyses.common.pages`. Each chart is one function drawing the study's frames on an Axes;
nothing is computed here beyond laying the rows out.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import PercentFormatter

from manoeuvre_sim.analyses.common.chart_style import axes_inches, interval_text, pct_text
from manoeuvre_sim.analyses.common.pages import (
    MARGIN_L,
    page_head,
    page_rect,
)
from manoeuvre_sim.analyses.hexgame.capital_fell import fallen_by_turn
from manoeuvre_sim.analyses.hexgame.rows import ALL, pair_name
from manoeuvre_sim.analyses.hexgame.study_footer import games_played, study_footer, write_hex_pdf
from manoeuvre_sim.hexgame import GAME_TITLE

RATES = (
    ("first_win_rate", "first player wins"),
    ("blue_win_rate", "blue wins"),
    ("red_win_rate", "red wins"),
    ("draw_rate", "drawn"),
)
# (fill, hatch, label) of the endings' stacked bars: blue's captures dark, red's hatched,
# the draws white, so the bars read in greyscale
ENDING_STYLE = (
    ("blue_win_rate", "0.15", "", "blue captures with the margin"),
    ("red_win_rate", "0.6", "///", "red captures with the margin"),
    ("draw_rate", "1.0", "", "drawn after the last turn"),
)
LINES = (("o", "-"), ("s", "--"), ("^", ":"), ("D", "-."), ("v", "-"), ("P", "--"), ("X", ":"))


def row_layout(frame: pd.DataFrame) -> tuple[list[str], list[float], list[bool], list[tuple]]:
    """Rows top to bottom: a heading per variant, then its pairings and the pooled row.
    Returns (labels, y of each frame row in order, pooled flags, (y, variant) headings)."""
    labels, ys, pooled, heads = [], [], [], []
    y = 0.0
    for variant, g in frame.groupby("variant", sort=False):
        heads.append((y, str(variant)))
        labels.append("")
        y += 1
        for r in g.itertuples(index=False):
            labels.append(pair_name(r))
            ys.append(y)
            pooled.append(r.policy_blue == ALL)
            y += 1
    return labels, ys, pooled, heads


def _rows_axis(ax, labels, heads, show_labels: bool) -> None:
    n = len(labels)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_yticks(np.arange(n), labels if show_labels else [""] * n, fontsize=6.5)
    ax.tick_params(axis="y", length=0)
    for y, _ in heads:
        ax.axhline(y - 0.5, color="0.75", lw=0.5)
        if show_labels:
            ax.annotate(_, (0, y), xycoords=("axes fraction", "data"), xytext=(-4, 0),
                        textcoords="offset points", ha="right", va="center", fontsize=7,
                        weight="bold", annotation_clip=False)  # fmt: skip
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _pct_axis(ax, lo: float, hi: float, label: str = "") -> None:
    """A percent axis from ``lo`` to ``hi`` with a margin on either side, so that a dot at
    0 % or 100 % is drawn whole; its ticks stay within [lo, hi]."""
    margin = 0.05 * (hi - lo)
    ax.set_xlim(lo - margin, hi + margin)
    ax.set_xticks([t for t in ax.get_xticks() if lo - 1e-9 <= t <= hi + 1e-9])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.tick_params(axis="x", labelsize=6.5)
    ax.set_xlabel(label, fontsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)


def _limits(lo: np.ndarray, hi: np.ndarray) -> tuple[float, float]:
    a, b = float(np.nanmin(lo)), float(np.nanmax(hi))
    pad = max(0.03, (b - a) * 0.08)
    return max(0.0, np.floor((a - pad) * 10) / 10), min(1.0, np.ceil((b + pad) * 10) / 10)


def _panel_title(ax, title: str) -> None:
    """A panel's title above it, where the eye starts (the page is tall), wrapped to the
    panel's width."""
    import textwrap

    chars = max(12, int(axes_inches(ax)[0] * 72 / (8 * 0.5)))
    ax.set_title("\n".join(textwrap.wrap(title, chars)), fontsize=8, weight="bold", loc="left",
                 pad=4, linespacing=1.1)  # fmt: skip


VALUE_FONT = 5.5  # points: the figures beside the dots
VALUE_GAP = 3.0  # points between a whisker's end and its figures


def _value_inches(text: str, bold: bool) -> float:
    """The width of ``text`` in the figures' font (its outline, measured without drawing,
    and 12 % for the glyphs' side bearings, which the outline leaves out), with the gap to
    the whisker and the white box's pad."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    prop = FontProperties(weight="bold" if bold else "normal")
    path = TextPath((0, 0), text, size=VALUE_FONT, prop=prop)
    return (1.12 * path.get_extents().width + VALUE_GAP + 1.5) / 72


def _values_beside(ax, x, lo, hi, y, pooled) -> None:
    """Each row's share and interval in figures ("31 (26–37)", %) beside its whisker, on
    the side with more room; the x-limits are widened (beyond the ticks) until every row's
    figures fit inside the panel on one side of its whisker."""
    rows = []
    for xi, a, b, yi, p in zip(x, lo, hi, y, pooled, strict=True):
        if not np.isnan(xi):
            a, b = (xi, xi) if np.isnan(a) or np.isnan(b) else (a, b)
            rows.append((f"{pct_text(xi)} ({interval_text(a, b)})", a, b, yi, p))
    width = axes_inches(ax)[0]
    left, right = ax.get_xlim()
    shares = [min(_value_inches(t, p) / width, 0.9) for t, _, _, _, p in rows]
    span = right - left
    for _ in range(50):  # widening one side may take room from a row drawn on the other
        if right - left > 2 * span:
            break
        moved = False
        for (_, a, b, _, _), f in zip(rows, shares, strict=True):  # f: the figures' share
            if right - b >= f * (right - left) or a - left >= f * (right - left):
                continue
            to_right, to_left = (b - f * left) / (1 - f), (a - f * right) / (1 - f)
            if to_right - right <= left - to_left:
                right = to_right
            else:
                left = to_left
            moved = True
        if not moved:
            ax.set_xlim(left, right)
            break
    # else (the figures too wide for the panel to hold them all): the limits stay, and each
    # row's figures go to its roomier side
    left, right = ax.get_xlim()
    for text, a, b, yi, p in rows:
        on_right = right - b >= a - left
        ax.annotate(text, (b if on_right else a, yi),
                    xytext=(VALUE_GAP if on_right else -VALUE_GAP, 0),
                    textcoords="offset points", ha="left" if on_right else "right",
                    va="center", fontsize=VALUE_FONT, color="0.1" if p else "0.3",
                    weight="bold" if p else "normal", zorder=3,
                    bbox=dict(boxstyle="square,pad=0.05", fc="white", ec="none"))  # fmt: skip


def rate_whiskers(variants: pd.DataFrame, ax, rate: str, label: str, show_labels: bool = True):
    """One rate of the variant table as dots with their 95 % Wilson whiskers, a row per
    variant and pairing (the pooled row a filled square), the figures beside each, 50 %
    dashed; ``label`` titles the panel."""
    labels, ys, pooled, heads = row_layout(variants)
    lo, hi = variants[f"{rate}_ci_low"].to_numpy(), variants[f"{rate}_ci_high"].to_numpy()
    x = variants[rate].to_numpy()
    y = np.array(ys)
    ax.hlines(y, lo, hi, color="0.1", lw=1.1)
    p = np.array(pooled)
    ax.plot(x[~p], y[~p], "o", ms=3.6, mfc="white", mec="0.1", mew=0.9)
    ax.plot(x[p], y[p], "s", ms=4.2, color="0.1")
    _rows_axis(ax, labels, heads, show_labels)
    _pct_axis(ax, *_limits(lo, hi))
    _panel_title(ax, label)
    _values_beside(ax, x, lo, hi, y, p)
    if ax.get_xlim()[0] < 0.5 < ax.get_xlim()[1]:
        ax.axvline(0.5, color="0.35", lw=0.8, ls="--", zorder=0)


def endings_bars(variants: pd.DataFrame, ax, show_labels: bool = True) -> None:
    """How each variant and pairing's games end: blue's and red's wins (each a capture of
    the enemy Capital with rule [12]'s margin) and the draws, as 100 % bars."""
    labels, ys, _, heads = row_layout(variants)
    left = np.zeros(len(ys))
    for col, fill, hatch, name in ENDING_STYLE:
        w = variants[col].to_numpy()
        ax.barh(ys, w, left=left, height=0.7, color=fill, hatch=hatch, edgecolor="0.2",
                lw=0.5, label=name)  # fmt: skip
        left += w
    _rows_axis(ax, labels, heads, show_labels)
    _pct_axis(ax, 0.0, 1.0, "share of games")
    ax.legend(fontsize=6.5, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=3,
              frameon=False, handlelength=1.5)  # fmt: skip


def short_whiskers(endings: pd.DataFrame, ax, show_labels: bool = False) -> None:
    """The share of games in which a side held the enemy Capital at a victory check without
    rule [12]'s two-unit margin (a capture that did not win then), with 95 % whiskers."""
    frame = endings.rename(columns=lambda c: c.replace("short_of_margin_share", "short"))
    rate_whiskers(frame, ax, "short", "games with a capture short of the margin", show_labels)


def capital_fell_lines(capital_fell: pd.DataFrame, ax, capital: str) -> None:
    """The share of games in which ``capital``'s (blue or red) Capital had fallen by the end
    of each turn, a line per variant (all pairings pooled)."""
    cf = capital_fell[capital_fell["capital"] == capital]
    fallen = fallen_by_turn(capital_fell, capital)
    for i, (variant, g) in enumerate(fallen.groupby("variant", sort=False)):
        m, ls = LINES[i % len(LINES)]
        ax.plot(g["turn"], g["fallen"], marker=m, ls=ls, ms=3.5, lw=1.0, color="0.1",
                mfc="white" if i % 2 else "0.1", label=str(variant))  # fmt: skip
    ax.set_xlabel("game turn", fontsize=7.5)
    ax.set_ylabel(f"{capital}'s Capital fallen by then", fontsize=7.5)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylim(0, 1)
    if len(cf):
        ax.set_xticks(range(1, int(cf["turn"].max()) + 1))
    ax.tick_params(labelsize=6.5)
    ax.grid(color="0.88", lw=0.6)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


HOW_TO_READ = {
    "win": "Each row: a variant and a pairing (blue's player v red's), or all its pairings "
    "pooled (filled square). Dot: the share of games; whisker: its 95 % Wilson interval; "
    "beside it both in figures, % (interval). The "
    "first player is drawn per game (rule [3]); a draw is no win for either side. A whisker "
    "shorter than its dot is hidden by it.",
    "end": "Every game ends by a capture of the enemy Capital with rule [12]'s two-unit margin "
    "(a win) or in a draw after the last turn. Right: games in which a side held the enemy "
    "Capital at a victory check without the margin (the capture did not win then).",
    "fell": "The first turn each Capital fell (captured by a DE, rule [11]), all pairings "
    "pooled: the share of games in which it had fallen by the end of each turn. A Capital "
    "may be recaptured; capital_fell.csv has the counts per turn, variant and pairing.",
}


def _page(title: str, how: str, charts, left: float, label_width: float):
    """A page of side-by-side charts over the same rows: ``charts`` (draw(ax, first), width
    share)."""

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        top = page_head(fig, title, GAME_TITLE, textwrap.wrap(how, 118))
        y0, y1 = 1.25, h - top - 1.05
        x = left + label_width
        gap = 0.35
        avail = w - x - 0.45 - gap * (len(charts) - 1)
        total = sum(s for _, s in charts)
        for i, (f, share) in enumerate(charts):
            width = avail * share / total
            f(page_rect(fig, x, y0, width, y1 - y0), i == 0)
            x += width + gap

    return draw


def _fell_page(capital_fell: pd.DataFrame):
    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        top = page_head(fig, "When did the Capital fall?", GAME_TITLE,
                        textwrap.wrap(HOW_TO_READ["fell"], 118))  # fmt: skip
        height = (h - top - 1.0 - 1.3 - 0.9) / 2
        for i, side in enumerate(("blue", "red")):
            ax = page_rect(
                fig, 1.1, h - top - 1.0 - (i + 1) * height - i * 0.9, w - 1.1 - 2.6, height
            )
            capital_fell_lines(capital_fell, ax, side)
            ax.set_title(f"{side}'s Capital", fontsize=9, loc="left", weight="bold")
            if i == 0:
                ax.legend(fontsize=6.5, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                          frameon=False, title="variant", title_fontsize=7)  # fmt: skip

    return draw


def provenance(manifest: dict) -> dict[str, str]:
    """The footer of every page."""
    reached = manifest.get("games_per_pairing_reached") or {}
    lo, hi = reached.get("min", 0), reached.get("max", 0)
    each = f"{lo:,}" + (f"–{hi:,}" if lo != hi else "")
    return study_footer(manifest, games=games_played(manifest, each))


def variant_pages(frames: dict[str, pd.DataFrame]) -> list[tuple[object, str]]:
    """The study's chart pages, (draw, heading) each, from its tables (``variants``,
    ``endings``, ``capital_fell``: as the study computed them, or read back from its CSV
    files by the report)."""
    v, e = frames["variants"], frames["endings"]
    win = [
        (lambda ax, first, r=r, lab=lab: rate_whiskers(v, ax, r, lab, first), 1.0)
        for r, lab in RATES
    ]
    ends = [
        (lambda ax, first: endings_bars(v, ax, first), 1.6),
        (lambda ax, first: short_whiskers(e, ax, first), 1.0),
    ]
    return [
        (_page("Who wins each variant?", HOW_TO_READ["win"], win, MARGIN_L, 1.65),
         "Who wins each variant?"),
        (_page("How do games end?", HOW_TO_READ["end"], ends, MARGIN_L, 1.65),
         "How do games end?"),
        (_fell_page(frames["capital_fell"]), "When did the Capital fall?"),
    ]  # fmt: skip


def write_balance_pdf(path: str | Path, res, *, paper: str = "a4") -> Path:
    """Write ``hex_balance.pdf`` atomically: the three question pages and the summary."""
    pages = [(d, None) for d, _ in variant_pages(res.frames())]
    return write_hex_pdf(path, pages, provenance(res.manifest), paper, "variant study",
                         res.summary())  # fmt: skip
