"""Card-value charts, one function per figure, ``f(cards, ax, **options) -> ax``.

The card frame holds one row per card identity of one army (``card``, ``kind``, ``unit``,
``copies`` and the observed / ablation columns, rates as fractions). The charts group its
rows by kind — leaders, then HQ cards, then unit cards — each group under a grey heading
band; values are drawn in percentage points. The card names on the observed-against-ablation
scatter are placed by ``point_names.py``.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from manoeuvre_sim.analyses.common.chart_style import (  # noqa: E402
    axes_inches,
    column_head,
    legend_above,
    pct_text,
    percent_axis,
    row_note,
    text_colour,
)
from manoeuvre_sim.analyses.manoeuvre.point_names import name_points  # noqa: E402

CARD_KINDS = ("leader", "hq", "unit")
_KIND_HEADING = {"leader": "Leaders", "hq": "HQ cards", "unit": "Unit cards"}

# metric -> (column prefix, axis label, column heading)
CARD_METRICS = {
    "value": (
        "value",
        "win rate lost without the card, percentage points — whisker: 95 % paired interval",
        "value, points\n(95 % interval)",
    ),
    "iwd": (
        "iwd",
        "win rate when drawn − when never drawn, percentage points — whisker: 95 % interval",
        "IWD, points\n(95 % interval)",
    ),
    "piw": (
        "piw",
        "win rate when played − when not played, percentage points — whisker: 95 % interval",
        "PIW, points\n(95 % interval)",
    ),
}

# marker, fill per kind in card_observed_vs_ablation (shape alone tells them apart)
CARD_MARKERS = {"leader": ("D", "0.1"), "hq": ("s", "1.0"), "unit": ("o", "0.6")}

_CARD_CLEAR, _CARD_UNCLEAR = "0.5", "0.86"  # bar fills: interval clear of 0 / includes 0
_HEADING_FILL = "0.92"


def _points(x: float) -> str:
    """Percentage points of a fraction, one decimal, true minus, no "-0.0"."""
    v = round(100 * x, 1)
    return "0.0" if v == 0 else f"{v:+.1f}".replace("-", "−")


def _card_label(row) -> str:
    copies = getattr(row, "copies", 1)
    many = not pd.isna(copies) and int(copies) > 1
    return f"{row.card} ×{int(copies)}" if many else str(row.card)


def _card_groups(cards: pd.DataFrame, column: str, kind: str | None, sort: bool):
    """The card rows in drawing order and their layout: a frame with a ``y`` column (one
    unit per row, a heading row before each kind) and the headings as (y, kind, text)."""
    if kind is not None and kind not in CARD_KINDS:
        raise ValueError(f"kind must be one of {', '.join(CARD_KINDS)} or None, not {kind!r}")
    kinds = [k for k in CARD_KINDS if (cards["kind"] == k).any()]
    kinds += [k for k in pd.unique(cards["kind"]) if k not in CARD_KINDS]
    if kind is not None:
        kinds = [kind]
    parts, headings, y = [], [], 0
    for k in kinds:
        g = cards[cards["kind"] == k]
        if sort:
            g = g.assign(_key=g[column].astype(float)).sort_values(
                ["_key", "card"], ascending=[False, True], na_position="last", kind="stable"
            )
            g = g.drop(columns="_key")
        copies = int(g["copies"].fillna(1).sum()) if "copies" in g.columns else len(g)
        name = _KIND_HEADING.get(k, str(k))
        if k == "leader":
            text = f"{name} ({len(g)})"
        else:
            noun = "types" if k == "hq" else "variants"
            text = f"{name} ({len(g)} {noun}, {copies} cards)"
        headings.append((y, k, text))
        parts.append(g.assign(y=np.arange(y + 1, y + 1 + len(g))))
        y += 1 + len(g)
    rows = pd.concat(parts) if parts else cards.iloc[:0].assign(y=[])
    return rows, headings, y


def _card_row_size(ax, n_rows: int) -> float:
    """Label font size from the height of one row on the page."""
    row_pt = 72 * axes_inches(ax)[1] / max(n_rows, 1)
    return float(np.clip(0.6 * row_pt, 5.5, 8.5))


def _card_axis(ax, rows: pd.DataFrame, headings, n_rows: int, size: float) -> None:
    """Card labels at their rows, the kind headings as grey bands with a separator above."""
    labels = [_card_label(r) for r in rows.itertuples(index=False)]
    ax.set_yticks(rows["y"].to_numpy(float), labels, fontsize=size)
    ax.set_ylim(n_rows - 0.5, -0.5)
    ax.tick_params(axis="y", length=0, pad=3)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for y, _, text in headings:
        ax.axhspan(y - 0.5, y + 0.5, color=_HEADING_FILL, lw=0, zorder=2.5)
        if y > 0:
            ax.axhline(y - 0.5, color="0.35", lw=0.7, zorder=2.6)
        _beside(ax, text, (0.0, y), size, xycoords=("axes fraction", "data"), weight="bold",
                color="0.1", zorder=2.7, gid="group")  # fmt: skip


def _beside(ax, text: str, xy, size: float, **style) -> None:
    """``text`` 4 points right of ``xy``, centred on it (``style``: ``annotate``'s)."""
    ax.annotate(text, xy, xytext=(4, 0), textcoords="offset points", va="center",
                fontsize=size, **style)  # fmt: skip


def _na(ax, x: float, y: float, size: float) -> None:
    _beside(ax, "n/a", (x, y), size, style="italic", color="0.4", gid="na")


def card_value_limits(cards: pd.DataFrame, metric: str = "value") -> tuple[float, float]:
    """The x limits (points) :func:`card_values` gives ``cards``: the whiskers and 0, padded;
    for pages that split one army's cards yet keep one scale."""
    col = CARD_METRICS[metric][0]
    v = 100 * cards[col].to_numpy(float)
    lo = 100 * cards[f"{col}_low"].to_numpy(float)
    hi = 100 * cards[f"{col}_high"].to_numpy(float)
    ok = np.isfinite(v)
    if not ok.any():
        return -5.0, 5.0
    a = min(0.0, float(np.where(np.isfinite(lo), lo, v)[ok].min()))
    b = max(0.0, float(np.where(np.isfinite(hi), hi, v)[ok].max()))
    pad = 0.05 * (b - a or 10)
    return a - pad, b + pad


def card_values(
    cards: pd.DataFrame,
    ax,
    *,
    metric: str = "value",
    kind: str | None = None,
    sort: bool = True,
):
    """Each card's ``metric`` (``'value'``: ablation; ``'iwd'``: improvement when drawn;
    ``'piw'``: improvement when played) as horizontal bars in percentage points with the
    ``_low``/``_high`` 95 % whiskers; dark bar: the interval is clear of 0.

    Rows grouped leaders, HQ cards, unit cards (``kind=`` draws one group), each under a
    grey heading band; within a group best at top (``sort=False``: the frame's order). The
    label ends ``×3`` for a card with three copies. A row without the metric reads ``n/a``.
    The figure and interval are printed in a column at the right."""
    if metric not in CARD_METRICS:
        raise ValueError(f"metric must be one of {', '.join(CARD_METRICS)}, not {metric!r}")
    col, xlabel, heading = CARD_METRICS[metric]
    rows, headings, n = _card_groups(cards, col, kind, sort)
    size = _card_row_size(ax, n)
    _value_bars(ax, rows, col, min(size, 7.0))
    column_head(ax, heading, fontsize=7, color="0.3")
    _card_axis(ax, rows, headings, n, size)
    _value_axis(ax, rows, metric, xlabel)
    return ax


def _value_bars(ax, rows: pd.DataFrame, col: str, small: float) -> None:
    """The bars of :func:`card_values`, their whiskers and the figures at the right."""
    v = 100 * rows[col].to_numpy(float)
    lo = 100 * rows[f"{col}_low"].to_numpy(float)
    hi = 100 * rows[f"{col}_high"].to_numpy(float)
    y = rows["y"].to_numpy(float)
    ok = np.isfinite(v)
    clear = ok & ((lo > 0) | (hi < 0))
    ax.barh(
        y[ok],
        v[ok],
        height=0.64,
        color=np.where(clear[ok], _CARD_CLEAR, _CARD_UNCLEAR),
        edgecolor="0.25",
        lw=0.5,
        zorder=2,
    )
    whisk = ok & np.isfinite(lo) & np.isfinite(hi)
    if whisk.any():
        ax.errorbar(
            v[whisk],
            y[whisk],
            xerr=[v[whisk] - lo[whisk], hi[whisk] - v[whisk]],
            fmt="none",
            ecolor="0.0",
            elinewidth=0.9,
            capsize=2,
            capthick=0.9,
            zorder=3,
        )
    for k, row in enumerate(rows.itertuples(index=False)):
        if not ok[k]:
            _na(ax, 0.0, y[k], small)
            continue
        lo_k, hi_k = getattr(row, f"{col}_low"), getattr(row, f"{col}_high")
        text = _points(getattr(row, col))
        if not (pd.isna(lo_k) or pd.isna(hi_k)):
            text += f"  ({_points(lo_k)} to {_points(hi_k)})"
        row_note(
            ax, text, y[k], fontsize=small, weight="bold" if clear[k] else "normal", gid="figure"
        )


def _value_axis(ax, rows: pd.DataFrame, metric: str, xlabel: str) -> None:
    """The points axis of :func:`card_values` with its 0 line, and the legend of the fills."""
    ax.axvline(0, color="0.1", lw=0.9, zorder=1)
    ax.set_xlim(*card_value_limits(rows, metric))
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=9, steps=[1, 2, 5, 10]))
    ax.xaxis.set_major_formatter(lambda x, _: _points(x / 100).replace(".0", ""))
    ax.set_xlabel(xlabel, fontsize=8)
    ax.tick_params(axis="x", labelsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)
    legend_above(
        ax,
        [
            Patch(facecolor=_CARD_CLEAR, edgecolor="0.25", lw=0.5, label="interval clear of 0"),
            Patch(facecolor=_CARD_UNCLEAR, edgecolor="0.25", lw=0.5, label="interval includes 0"),
        ],
        handlelength=1.6,
        handletextpad=0.4,
    )


def card_play_rates(cards: pd.DataFrame, ax, *, kind: str | None = None, sort: bool = True):
    """Each card's play rate (the share of the games with it drawn in which it was played)
    as horizontal bars, grouped and sorted like :func:`card_values`; the per cent inside the
    bar and ``t 7.2`` at its end: the mean game turn in which it was played."""
    rows, headings, n = _card_groups(cards, "play_rate", kind, sort)
    size = _card_row_size(ax, n)
    small = min(size, 7.0)
    rate = rows["play_rate"].to_numpy(float)
    y = rows["y"].to_numpy(float)
    ok = np.isfinite(rate)
    fill = "0.72"
    ax.barh(y[ok], rate[ok], height=0.64, color=fill, edgecolor="0.25", lw=0.5, zorder=2)
    ink = text_colour(fill)
    for k, row in enumerate(rows.itertuples(index=False)):
        if not ok[k]:
            _na(ax, 0.0, y[k], small)
            continue
        if rate[k] >= 0.12:
            ax.annotate(
                f"{pct_text(rate[k])} %",
                (rate[k], y[k]),
                xytext=(-3, 0),
                textcoords="offset points",
                ha="right",
                va="center",
                fontsize=small - 0.5,
                color=ink,
                zorder=4,
                gid="rate",
            )
        turn = getattr(row, "mean_turn_played", np.nan)
        ax.annotate(
            "" if pd.isna(turn) else f"t {turn:.1f}",
            (rate[k], y[k]),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=small,
            color="0.15",
            gid="turn",
        )
    _card_axis(ax, rows, headings, n, size)
    percent_axis(ax, "share of the games with the card drawn in which it was played", 0.0, 1.13)
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.spines["bottom"].set_bounds(0, 1)
    ax.annotate(
        "t: mean game turn when played",
        (1.0, 1.0),
        xycoords="axes fraction",
        xytext=(0, 3),
        textcoords="offset points",
        ha="right",
        va="bottom",
        fontsize=7,
        color="0.3",
    )
    return ax


def _short_card(card: str, unit: str = "", width: int = 28) -> str:
    """``card`` cut to ``width`` characters; a unit card keeps its variant whole and loses
    the end of its unit's name instead ("6th Chasseurs à… pursuit 1d8/4")."""
    card, unit = str(card), str(unit or "")
    if len(card) <= width:
        return card
    if unit and card.startswith(unit):
        variant = card[len(unit) :].strip()
        keep = width - len(variant) - 2
        if keep >= 6:
            return f"{unit[:keep].rstrip()}… {variant}"
    return card[: width - 1].rstrip() + "…"


OBSERVED_METRICS = {
    "iwd": ("IWD", "observed: win rate when drawn − when never drawn (IWD), percentage points"),
    "piw": ("PIW", "observed: win rate when played − when not played (PIW), percentage points"),
    "oiwd": ("OIWD", "observed: win rate in the opening hand − not (OIWD), percentage points"),
}


def card_observed_vs_ablation(cards: pd.DataFrame, ax, *, labels: int = 14, metric: str = "iwd"):
    """The observed improvement (``metric``: iwd when drawn, piw when played, oiwd in the
    opening hand; x) against the ablation value (y), both
    in percentage points, one point per card holding both; marker shape by kind. The
    dashed 1:1 line is where the two agree; in the shaded quadrants they disagree in sign
    (the observed figure misleads). Up to ``labels`` points are named — the best and worst
    by value and those farthest from the line first — where the name collides with no
    other name or point; the names are placed for the axes' size and place on the figure
    at the call, so size and place the axes first."""
    if metric not in OBSERVED_METRICS:
        raise ValueError(f"metric: expected one of {', '.join(OBSERVED_METRICS)}, got {metric!r}")
    short, axis_label = OBSERVED_METRICS[metric]
    c = cards[np.isfinite(cards[metric].astype(float)) & np.isfinite(cards["value"].astype(float))]
    x = 100 * c[metric].to_numpy(float)
    y = 100 * c["value"].to_numpy(float)
    handles = _kind_points(ax, c, x, y)
    _agreement_axes(ax, x, y, short, axis_label, handles)
    renderer = ax.figure.canvas.get_renderer()
    obstacles = _notes_and_legend(ax, renderer, handles)
    # who gets a name: the best and worst by value, the largest disagreements, then the
    # others by |value| — until ``labels`` are placed
    order = list(np.argsort(-y, kind="stable")[:5]) + list(np.argsort(y, kind="stable")[:3])
    order += list(np.argsort(-np.abs(x - y), kind="stable")[:5])
    order += list(np.argsort(-np.abs(y), kind="stable"))
    picked = list(dict.fromkeys(int(i) for i in order))
    units = c["unit"].to_numpy() if "unit" in c else None
    names = [
        _short_card(card, "" if units is None else units[i])
        for i, card in enumerate(c["card"].to_numpy())
    ]
    name_points(ax, renderer, x, y, names, picked, labels, obstacles)
    return ax


def _kind_points(ax, c: pd.DataFrame, x: np.ndarray, y: np.ndarray) -> list:
    """The points of each kind of card, leaders first; their legend handles."""
    handles = []
    kinds = [k for k in CARD_KINDS if (c["kind"] == k).any()]
    kinds += [k for k in pd.unique(c["kind"]) if k not in CARD_KINDS]
    for k in kinds:
        marker, fill = CARD_MARKERS.get(k, ("v", "0.35"))
        m = (c["kind"] == k).to_numpy()
        ax.scatter(
            x[m],
            y[m],
            s=30,
            marker=marker,
            c=fill,
            edgecolors="0.1",
            linewidths=0.8,
            zorder=4,
            label=_KIND_HEADING.get(k, str(k)),
            gid=f"points_{k}",
        )
        handles.append(
            Line2D(
                [],
                [],
                marker=marker,
                ls="none",
                mfc=fill,
                mec="0.1",
                label=_KIND_HEADING.get(k, str(k)),
            )
        )
    return handles


def _agreement_axes(ax, x, y, short: str, axis_label: str, handles: list) -> None:
    """The limits around the points and 0, the shaded quadrants of disagreement, the axes
    through 0 and the dashed 1:1 line (its handle added to ``handles``), the ticks in
    points."""
    both = np.r_[x, y, 0.0]
    xa, xb = min(0.0, float(x.min(initial=0))), max(0.0, float(x.max(initial=0)))
    ya, yb = min(0.0, float(y.min(initial=0))), max(0.0, float(y.max(initial=0)))
    xp, yp = 0.08 * (xb - xa or 10), 0.1 * (yb - ya or 10)
    xlim, ylim = (xa - xp, xb + xp), (ya - yp, yb + yp)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    # quadrants where observed and ablation disagree in sign
    for x0, x1, y0, y1 in ((0, xlim[1], ylim[0], 0), (xlim[0], 0, 0, ylim[1])):
        ax.add_patch(
            Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor="0.94", edgecolor="none", zorder=0)
        )
    ax.axhline(0, color="0.3", lw=0.8, zorder=1)
    ax.axvline(0, color="0.3", lw=0.8, zorder=1)
    span = np.array([np.nanmin(both) - 100, np.nanmax(both) + 100])
    ax.plot(span, span, ls="--", color="0.35", lw=0.9, zorder=2)
    handles.append(Line2D([], [], ls="--", color="0.35", lw=0.9, label=f"{short} = value"))
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    fmt = lambda v, _: _points(v / 100).replace(".0", "")  # noqa: E731
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=9, steps=[1, 2, 5, 10]))
        axis.set_major_formatter(fmt)
    ax.set_xlabel(axis_label, fontsize=8)
    ax.set_ylabel("ablation: win rate lost without the card (value), points", fontsize=8)
    ax.tick_params(labelsize=7.5)
    ax.grid(color="0.9", lw=0.5)
    ax.set_axisbelow(True)


def _notes_and_legend(ax, renderer, handles: list) -> list:
    """The notes in the two quadrants of disagreement and the legend above the axes; their
    boxes (display coordinates), which no card name may cover."""
    notes = []
    for text, pos, ha, va in (
        ("looks good observed,\nyet the card does not help", (0.99, 0.02), "right", "bottom"),
        ("looks bad observed,\nyet the card helps", (0.01, 0.98), "left", "top"),
    ):
        notes.append(
            ax.text(
                *pos,
                text,
                transform=ax.transAxes,
                ha=ha,
                va=va,
                fontsize=6.5,
                style="italic",
                color="0.35",
                zorder=3,
            )
        )
    legend = legend_above(
        ax,
        handles,
        handletextpad=0.3,
        columnspacing=1.0,
    )
    obstacles = [t.get_window_extent(renderer).expanded(1.04, 1.1) for t in notes]
    obstacles.append(legend.get_window_extent(renderer))
    return obstacles
