"""The pairing heatmap of the balance analysis (``charts.heatmap``, imported there with the
other balance figures): each army's win rate against each opponent, one coloured cell per
pairing with its 95 % interval, the mirror matches hatched.

Like every chart it draws a tidy frame of the analysis pipeline onto an existing axes and
returns it, ``heatmap(matrix, ax, policy=None, **options) -> ax``; the style is in
``chart_style.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from manoeuvre_sim.analyses.common.chart_style import (
    _PCT,
    WIN_RATE_CMAP,
    axes_inches,
    hatch_style,
    interval_text,
    one_policy,
    pct_text,
    text_colour,
)


def heatmap(
    matrix: pd.DataFrame,
    ax,
    policy: str | None = None,
    *,
    span: float | None = None,
    colorbar: bool = True,
):
    """Pairing heatmap: rows army, columns opponent, each cell the row army's win rate.

    A cell shows the win rate in per cent (large) and its 95 % interval (small) beneath,
    coloured on :data:`WIN_RATE_CMAP` centred at 50 % (``span``: the distance from 50 % to
    either end of the colour scale; default the data's, rounded up to 5 points). The
    diagonal (mirror match) is hatched grey and shows ``1st NN``, the first mover's win
    rate. Texts carry gids ``cell`` / ``interval`` / ``mirror`` / ``mirror_interval``.
    """
    m = one_policy(matrix, policy)
    armies = list(pd.unique(m["army"]))
    opponents = armies + [o for o in pd.unique(m["opponent"]) if o not in armies]
    table = m.set_index(["army", "opponent"])

    def grid(col: str) -> np.ndarray:
        return table[col].unstack().reindex(index=armies, columns=opponents).to_numpy(float)

    wr, lo, hi = grid("win_rate"), grid("ci_low"), grid("ci_high")
    first, first_lo, first_hi = grid("win_rate_first"), grid("ci_low_first"), grid("ci_high_first")
    nr, nc = len(armies), len(opponents)
    mirror = np.array([[a == o for o in opponents] for a in armies], dtype=bool).reshape(nr, nc)

    off = wr[~mirror & ~np.isnan(wr)]
    if span is None:
        far = float(np.max(np.abs(off - 0.5))) if off.size else 0.1
        span = min(0.5, max(0.1, np.ceil(round(far / 0.05, 9)) * 0.05))
    norm = Normalize(0.5 - span, 0.5 + span, clip=True)
    shown = np.ma.masked_array(wr, mask=mirror | np.isnan(wr))
    mesh = ax.pcolormesh(
        np.arange(nc + 1),
        np.arange(nr + 1),
        shown,
        cmap=WIN_RATE_CMAP,
        norm=norm,
        edgecolors="white",
        linewidth=1.2,
    )

    w_in, h_in = axes_inches(ax)
    cell_pt = 72 * min(w_in / nc, h_in / nr)
    big = float(np.clip(0.3 * cell_pt, 6.0, 15.0))
    small = float(np.clip(0.155 * cell_pt, 4.5, 8.0))
    for i in range(nr):
        for j in range(nc):
            if mirror[i, j]:
                _mirror_cell(ax, i, j, first[i, j], first_lo[i, j], first_hi[i, j], big, small)
            elif np.isnan(wr[i, j]):
                _empty_cell(ax, i, j, big)
            else:
                ink = text_colour(WIN_RATE_CMAP(norm(wr[i, j])))
                _rate_cell(ax, i, j, wr[i, j], lo[i, j], hi[i, j], ink, big, small)
    _pairing_axes(ax, armies, opponents, cell_pt)
    if colorbar:
        _colorbar(ax, mesh)
    return ax


def _mirror_cell(ax, i: int, j: int, first, first_lo, first_hi, big: float, small: float):
    """A mirror match: hatched grey, the first mover's win rate and its interval."""
    ax.add_patch(
        Rectangle(
            (j, i),
            1,
            1,
            facecolor="0.94",
            hatch="////",
            edgecolor="white",
            lw=1.2,
            **hatch_style("0.8"),
        )
    )
    label = f"1st {pct_text(first)}"
    for text, y, size, gid in (
        (label, 0.42, 0.72 * big, "mirror"),
        (interval_text(first_lo, first_hi), 0.74, small, "mirror_interval"),
    ):
        ax.text(
            j + 0.5,
            i + y,
            text,
            ha="center",
            va="center",
            fontsize=size,
            color="0.15",
            gid=gid,
            bbox=dict(fc="0.94", ec="none", pad=0.6),
        )


def _empty_cell(ax, i: int, j: int, big: float) -> None:
    """A pairing without a win rate: a pale cell with a dash."""
    ax.add_patch(Rectangle((j, i), 1, 1, facecolor="0.97", edgecolor="white"))
    ax.text(
        j + 0.5,
        i + 0.5,
        "–",
        ha="center",
        va="center",
        fontsize=big,
        color="0.5",
        gid="cell",
    )


def _rate_cell(ax, i: int, j: int, rate, lo, hi, ink, big: float, small: float) -> None:
    """A pairing's win rate, large, over its interval, small, in ``ink``."""
    ax.text(
        j + 0.5,
        i + 0.42,
        pct_text(rate),
        ha="center",
        va="center",
        fontsize=big,
        weight="bold",
        color=ink,
        gid="cell",
    )
    ax.text(
        j + 0.5,
        i + 0.76,
        interval_text(lo, hi),
        ha="center",
        va="center",
        fontsize=small,
        color=ink,
        gid="interval",
    )


def _pairing_axes(ax, armies: list, opponents: list, cell_pt: float) -> None:
    """The armies down the left, the opponents along the top, no frame."""
    nr, nc = len(armies), len(opponents)
    ax.set_xlim(0, nc)
    ax.set_ylim(nr, 0)
    label_size = float(np.clip(0.19 * cell_pt, 7.0, 9.5))
    ax.set_xticks(
        np.arange(nc) + 0.5,
        opponents,
        fontsize=label_size,
        rotation=35,
        ha="left",
        rotation_mode="anchor",
    )
    ax.set_yticks(np.arange(nr) + 0.5, armies, fontsize=label_size)
    ax.xaxis.tick_top()
    ax.tick_params(length=0, pad=3)
    ax.set_xlabel("army (row) — its win rate against the opponent (column)", fontsize=9)
    ax.xaxis.set_label_position("bottom")
    ax.set_ylabel("army (row)", fontsize=9)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _colorbar(ax, mesh) -> None:
    cax = ax.inset_axes([1.025, 0.0, 0.028, 1.0])
    cb = ax.figure.colorbar(mesh, cax=cax)
    cb.set_label("win rate", fontsize=9)
    cb.ax.yaxis.set_major_formatter(_PCT)
    cb.ax.tick_params(labelsize=7.5)
    cb.outline.set_linewidth(0.5)
