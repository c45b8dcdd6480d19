"""The house style of the charts: colours, hatches, number formats and the small helpers
every figure shares (rows, percent axes, notes beside rows). ``charts.py`` and
``pairing_heatmap.py`` (balance and what-if figures) and ``card_charts.py`` (card value) draw
with them.

The charts survive a greyscale printer: the heatmap's colour map diverges in hue at 50 %
but darkens steadily from the lowest to the highest win rate, and the other charts use
greys, marker shapes and hatches rather than hue alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import ListedColormap, to_rgb  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

ALL_GAMES = "all games"
FIELD = "field"

# (column, legend label, fill, hatch, hatch colour), in stacking order: wins dark, losses
# light, so the bars read in greyscale as they do on screen.
VICTORY_STYLE = (
    ("win_attrition", "win by attrition", "0.12", "", "0.12"),
    ("win_nightfall", "win at nightfall", "0.45", "///", "0.15"),
    ("draw", "draw", "1.0", "", "1.0"),
    ("loss_nightfall", "loss at nightfall", "0.86", "...", "0.3"),
    ("loss_attrition", "loss by attrition", "0.66", "xxx", "0.35"),
)

# marker shape and fill per policy in style_sensitivity (shape alone tells them apart)
POLICY_MARKERS = (
    ("o", "0.1"),
    ("s", "1.0"),
    ("^", "0.55"),
    ("D", "1.0"),
    ("v", "0.1"),
    ("P", "1.0"),
)

_PCT = PercentFormatter(1.0, decimals=0)


def hatch_style(colour) -> dict:
    """``hatchcolor=`` where matplotlib has it (3.10+); before, hatches take the edge colour."""
    return {"hatchcolor": colour} if matplotlib.__version_info__ >= (3, 10) else {}


# behind value labels, so reference lines do not cross the figures
_LABEL_BOX = dict(boxstyle="square,pad=0.1", fc="white", ec="none")


# ----------------------------------------------------------------------------- helpers


def one_policy(frame: pd.DataFrame, policy: str | None) -> pd.DataFrame:
    """The rows of ``policy`` (or of the frame's only policy when ``policy`` is None)."""
    if "policy" not in frame.columns:
        return frame
    present = list(pd.unique(frame["policy"]))
    if policy is None:
        if len(present) != 1:
            raise ValueError(
                f"the frame holds {len(present)} policies ({', '.join(map(str, present))}); "
                "choose one with policy="
            )
        policy = present[0]
    elif policy not in present:
        raise ValueError(
            f"policy {policy!r} is not in the frame (it holds: {', '.join(map(str, present))})"
        )
    return frame[frame["policy"] == policy]


def _lab_to_rgb(lab: np.ndarray) -> np.ndarray:
    """CIE L*a*b* (D65) to sRGB in 0..1, clipped to the gamut."""
    L, a, b = lab[:, 0], lab[:, 1], lab[:, 2]
    fy = (L + 16) / 116
    f = np.stack([fy + a / 500, fy, fy - b / 200], axis=1)
    d = 6 / 29
    xyz = np.where(f > d, f**3, 3 * d * d * (f - 4 / 29)) * np.array([0.95047, 1.0, 1.08883])
    m = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]])
    lin = np.clip(xyz @ m.T, 0, 1)
    return np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)


def _win_rate_cmap() -> ListedColormap:
    """Orange below 50 %, neutral grey at 50 %, blue above; lightness falls linearly from
    the lowest to the highest value, so the order survives a greyscale print."""
    stops = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    lab = np.array(
        [
            [96.0, 6.0, 26.0],
            [80.0, 22.0, 48.0],
            [63.0, 0.0, 0.0],
            [46.0, -2.0, -40.0],
            [28.0, 14.0, -52.0],
        ]
    )
    x = np.linspace(0, 1, 256)
    samples = np.stack([np.interp(x, stops, lab[:, k]) for k in range(3)], axis=1)
    return ListedColormap(_lab_to_rgb(samples), name="manoeuvre_win_rate")


WIN_RATE_CMAP = _win_rate_cmap()


def _luminance(colour) -> float:
    """Relative luminance (WCAG) of a matplotlib colour."""
    rgb = np.array(to_rgb(colour))
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(lin @ np.array([0.2126, 0.7152, 0.0722]))


def text_colour(fill) -> str:
    """Black or white, whichever contrasts more with ``fill``."""
    return "black" if _luminance(fill) > 0.179 else "white"


def pct_text(x: float) -> str:
    return "–" if pd.isna(x) else f"{100 * x:.0f}"


def pp_text(x: float) -> str:
    """A signed whole number of percentage points, with a true minus and no "-0"; a dash
    where there is no figure (a cancelled study whose first games gave an army no game
    in one seat)."""
    if pd.isna(x):
        return "–"
    v = round(100 * x)
    return "0" if v == 0 else f"{v:+d}".replace("-", "−")


def interval_text(lo: float, hi: float) -> str:
    return "" if pd.isna(lo) or pd.isna(hi) else f"{100 * lo:.0f}–{100 * hi:.0f}"


def axes_inches(ax) -> tuple[float, float]:
    fig = ax.figure
    box = ax.get_position()
    return box.width * fig.get_figwidth(), box.height * fig.get_figheight()


def row_axis(ax, labels: Sequence[str], fontsize: float = 8) -> None:
    """Rows top to bottom in ``labels`` order, one y unit each."""
    n = len(labels)
    ax.set_yticks(np.arange(n), labels, fontsize=fontsize)
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def percent_axis(ax, label: str, lo: float = 0.0, hi: float = 1.0) -> None:
    ax.xaxis.set_major_formatter(_PCT)
    ax.set_xlim(lo, hi)
    ax.set_xlabel(label, fontsize=8)
    ax.tick_params(axis="x", labelsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)


def fifty_line(ax) -> None:
    ax.axvline(0.5, color="0.25", lw=0.9, ls="--", zorder=1)


def row_note(ax, text: str, y: float, dx: float = 6, **kw) -> None:
    """A note right of the axes, level with row ``y`` (figures beside a row chart)."""
    kw.setdefault("fontsize", 7)
    ax.annotate(text, (1.0, y), xycoords=("axes fraction", "data"), xytext=(dx, 0),
                textcoords="offset points", va="center", annotation_clip=False, **kw)  # fmt: skip


def column_head(ax, text: str, dx: float = 6, **kw) -> None:
    """The heading of a column of row notes, above the axes' top right corner."""
    kw.setdefault("fontsize", 7)
    kw.setdefault("color", "0.3")
    ax.annotate(text, (1.0, 1.0), xycoords="axes fraction", xytext=(dx, 3),
                textcoords="offset points", va="bottom", **kw)  # fmt: skip


def span_limits(lows, highs, pad: float = 0.05, step: float = 0.1) -> tuple[float, float]:
    """Axis limits around the intervals (and 50 %), rounded out to ``step``."""
    lo = min(0.5, float(np.nanmin(lows))) - pad
    hi = max(0.5, float(np.nanmax(highs))) + pad
    return max(0.0, np.floor(lo / step) * step), min(1.0, np.ceil(hi / step) * step)


def stamp_chart(fig, stamp: str | None) -> None:
    """The footer of a stand-alone chart page (the odds charts of both games): ``stamp``
    (the tool, rules version and date) at the left, the page's size at the right; None:
    nothing (the caller foots the page)."""
    if stamp is None:
        return
    w, h = fig.get_size_inches()
    fig.text(0.09, 0.035, stamp, fontsize=6.5, color="0.3")
    fig.text(0.96, 0.035, f"{w:.2f} x {h:.2f} in", fontsize=6.5, color="0.3", ha="right")


def legend_above(ax, handles, fontsize: float = 7.5, **kw):
    """A legend of ``handles`` in one row above the axes, flush with its left edge and
    unframed, as every chart of the reports has it (``kw``: more of matplotlib's legend
    options, ``ncol`` among them); returns the Legend."""
    style = {"loc": "lower left", "bbox_to_anchor": (0.0, 1.0), "ncol": len(handles),
             "frameon": False, "fontsize": fontsize, "borderaxespad": 0.2, **kw}  # fmt: skip
    return ax.legend(handles=handles, **style)
