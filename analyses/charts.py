"""Balance-analysis charts, one function per figure, in seaborn's axes-level convention:
``f(frame, ax, **options) -> ax``.

Every function draws a tidy frame produced by the analysis pipeline (win rates as fractions
0..1 with their 95 % intervals) onto an existing axes and returns it; nothing here computes
a statistic — the functions only pick a policy, pivot, sort and format. Frames holding a
``policy`` column are filtered by ``policy=``; with ``policy=None`` the frame must hold a
single policy, else :class:`ValueError`.

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
from matplotlib.colors import ListedColormap, Normalize, to_rgb  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402
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


def _hatch_ink(colour) -> dict:
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


def _pct(x: float) -> str:
    return "–" if pd.isna(x) else f"{100 * x:.0f}"


def _pp(x: float) -> str:
    """A signed whole number of percentage points, with a true minus and no "-0"."""
    v = round(100 * x)
    return "0" if v == 0 else f"{v:+d}".replace("-", "−")


def _interval(lo: float, hi: float) -> str:
    return "" if pd.isna(lo) or pd.isna(hi) else f"{100 * lo:.0f}–{100 * hi:.0f}"


def _axes_inches(ax) -> tuple[float, float]:
    fig = ax.figure
    box = ax.get_position()
    return box.width * fig.get_figwidth(), box.height * fig.get_figheight()


def _row_axis(ax, labels: Sequence[str], fontsize: float = 8) -> None:
    """Rows top to bottom in ``labels`` order, one y unit each."""
    n = len(labels)
    ax.set_yticks(np.arange(n), labels, fontsize=fontsize)
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _percent_axis(ax, label: str, lo: float = 0.0, hi: float = 1.0) -> None:
    ax.xaxis.set_major_formatter(_PCT)
    ax.set_xlim(lo, hi)
    ax.set_xlabel(label, fontsize=8)
    ax.tick_params(axis="x", labelsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)


def _fifty(ax) -> None:
    ax.axvline(0.5, color="0.25", lw=0.9, ls="--", zorder=1)


def _row_note(ax, text: str, y: float, dx: float = 6, **kw) -> None:
    """A note right of the axes, level with row ``y`` (figures beside a row chart)."""
    kw.setdefault("fontsize", 7)
    ax.annotate(text, (1.0, y), xycoords=("axes fraction", "data"), xytext=(dx, 0),
                textcoords="offset points", va="center", annotation_clip=False, **kw)  # fmt: skip


def _column_head(ax, text: str, dx: float = 6, **kw) -> None:
    """The heading of a column of row notes, above the axes' top right corner."""
    kw.setdefault("fontsize", 7)
    kw.setdefault("color", "0.3")
    ax.annotate(text, (1.0, 1.0), xycoords="axes fraction", xytext=(dx, 3),
                textcoords="offset points", va="bottom", **kw)  # fmt: skip


def _span_limits(lows, highs, pad: float = 0.05, step: float = 0.1) -> tuple[float, float]:
    """Axis limits around the intervals (and 50 %), rounded out to ``step``."""
    lo = min(0.5, float(np.nanmin(lows))) - pad
    hi = max(0.5, float(np.nanmax(highs))) + pad
    return max(0.0, np.floor(lo / step) * step), min(1.0, np.ceil(hi / step) * step)


# ----------------------------------------------------------------------------- figures


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

    w_in, h_in = _axes_inches(ax)
    cell_pt = 72 * min(w_in / nc, h_in / nr)
    big = float(np.clip(0.3 * cell_pt, 6.0, 15.0))
    small = float(np.clip(0.155 * cell_pt, 4.5, 8.0))
    for i in range(nr):
        for j in range(nc):
            if mirror[i, j]:
                ax.add_patch(
                    Rectangle(
                        (j, i),
                        1,
                        1,
                        facecolor="0.94",
                        hatch="////",
                        edgecolor="white",
                        lw=1.2,
                        **_hatch_ink("0.8"),
                    )
                )
                label = f"1st {_pct(first[i, j])}"
                for text, y, size, gid in (
                    (label, 0.42, 0.72 * big, "mirror"),
                    (_interval(first_lo[i, j], first_hi[i, j]), 0.74, small, "mirror_interval"),
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
                continue
            if np.isnan(wr[i, j]):
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
                continue
            ink = text_colour(WIN_RATE_CMAP(norm(wr[i, j])))
            ax.text(
                j + 0.5,
                i + 0.42,
                _pct(wr[i, j]),
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
                _interval(lo[i, j], hi[i, j]),
                ha="center",
                va="center",
                fontsize=small,
                color=ink,
                gid="interval",
            )

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
    if colorbar:
        cax = ax.inset_axes([1.025, 0.0, 0.028, 1.0])
        cb = ax.figure.colorbar(mesh, cax=cax)
        cb.set_label("win rate", fontsize=9)
        cb.ax.yaxis.set_major_formatter(_PCT)
        cb.ax.tick_params(labelsize=7.5)
        cb.outline.set_linewidth(0.5)
    return ax


def ratings(armies: pd.DataFrame, ax, policy: str | None = None):
    """Bradley–Terry ratings (Elo points, mean 0) with their 95 % intervals, best at top;
    each row labelled ``France  #1 (1–2)``: rank and rank interval. One error bar per army."""
    a = one_policy(armies, policy).sort_values(["rating", "army"], ascending=[False, True])
    labels = []
    for i, row in enumerate(a.itertuples(index=False)):
        lo, hi = int(row.rank_low), int(row.rank_high)
        ranks = f"({lo})" if lo == hi else f"({lo}–{hi})"
        labels.append(f"{row.army}  #{int(row.rank)} {ranks}")
        ax.errorbar(
            row.rating,
            i,
            xerr=[[row.rating - row.rating_low], [row.rating_high - row.rating]],
            fmt="o",
            color="0.1",
            ms=5.5,
            elinewidth=1.3,
            capsize=3,
        )
        ax.annotate(
            f"{row.rating:+.0f}".replace("-", "−"),
            (row.rating_high, i),
            xytext=(5, 0),
            textcoords="offset points",
            va="center",
            fontsize=7,
            color="0.2",
            bbox=_LABEL_BOX,
        )
    _row_axis(ax, labels)
    ax.axvline(0, color="0.25", lw=0.9, ls="--", zorder=1)
    lo, hi = float(a["rating_low"].min()), float(a["rating_high"].max())
    pad = 0.08 * (hi - lo or 100)
    ax.set_xlim(min(lo, 0) - pad, max(hi, 0) + 2 * pad)
    ax.set_xlabel("rating, Elo points (mean 0) — whisker: 95 % interval", fontsize=8)
    ax.tick_params(axis="x", labelsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)
    return ax


def field_win_rates(armies: pd.DataFrame, ax, policy: str | None = None):
    """Each army's win rate against the whole field, as bars with 95 % whiskers, sorted."""
    a = one_policy(armies, policy).sort_values(["field_win_rate", "army"], ascending=[False, True])
    y = np.arange(len(a))
    v = a["field_win_rate"].to_numpy(float)
    ax.barh(y, v, height=0.62, color="0.8", edgecolor="0.3", lw=0.6)
    ax.errorbar(
        v,
        y,
        xerr=[v - a["ci_low"].to_numpy(float), a["ci_high"].to_numpy(float) - v],
        fmt="none",
        ecolor="0.05",
        elinewidth=1.2,
        capsize=3,
    )
    for k, row in enumerate(a.itertuples(index=False)):
        ax.annotate(
            f"{_pct(row.field_win_rate)} %  ({_interval(row.ci_low, row.ci_high)})",
            (row.ci_high, k),
            xytext=(5, 0),
            textcoords="offset points",
            va="center",
            fontsize=7,
            color="0.2",
            bbox=_LABEL_BOX,
        )
    _row_axis(ax, list(a["army"]))
    hi = min(1.0, np.ceil((float(a["ci_high"].max()) + 0.16) / 0.1) * 0.1)
    _percent_axis(ax, "win rate against the field — whisker: 95 % interval", 0.0, hi)
    _fifty(ax)
    return ax


def first_player(first_player: pd.DataFrame, ax, policy: str | None = None):
    """Per army its win rate when moving first (filled circle) and second (open square),
    each with a 95 % whisker; rows sorted by the first-move advantage, the pooled
    ``all games`` row on top and shaded. The advantage is printed at the right."""
    f = one_policy(first_player, policy)
    pooled = f[f["army"] == ALL_GAMES]
    rest = f[f["army"] != ALL_GAMES].sort_values(["advantage", "army"], ascending=[False, True])
    rows = pd.concat([pooled, rest])
    n = len(rows)
    dy = 0.16
    for i, row in enumerate(rows.itertuples(index=False)):
        top = row.army == ALL_GAMES
        if top:
            ax.axhspan(i - 0.5, i + 0.5, color="0.9", lw=0, zorder=0)
            ax.axhline(i + 0.5, color="0.3", lw=0.8)
        ms = 7 if top else 5.5
        ax.plot(
            [row.win_rate_first, row.win_rate_second],
            [i - dy, i + dy],
            color="0.6",
            lw=1.0,
            zorder=2,
        )
        ax.errorbar(
            row.win_rate_first,
            i - dy,
            xerr=[
                [row.win_rate_first - row.ci_low_first],
                [row.ci_high_first - row.win_rate_first],
            ],
            fmt="o",
            ms=ms,
            mfc="0.1",
            mec="0.1",
            ecolor="0.1",
            elinewidth=1.2,
            capsize=2.5,
            zorder=3,
        )
        ax.errorbar(
            row.win_rate_second,
            i + dy,
            xerr=[
                [row.win_rate_second - row.ci_low_second],
                [row.ci_high_second - row.win_rate_second],
            ],
            fmt="s",
            ms=ms - 0.5,
            mfc="white",
            mec="0.1",
            mew=1.1,
            ecolor="0.35",
            elinewidth=1.2,
            capsize=2.5,
            zorder=3,
        )
        _row_note(
            ax,
            f"{_pp(row.advantage)}  ({_pp(row.advantage_low)} to {_pp(row.advantage_high)})",
            i,
            fontsize=7,
            weight="bold" if top else "normal",
        )
    _column_head(ax, "first − second,\npoints (95 %)", fontsize=7, color="0.3")
    _row_axis(ax, list(rows["army"]))
    for label in ax.get_yticklabels():
        if label.get_text() == ALL_GAMES:
            label.set_weight("bold")
    lows = np.r_[rows["ci_low_first"], rows["ci_low_second"]]
    highs = np.r_[rows["ci_high_first"], rows["ci_high_second"]]
    _percent_axis(ax, "win rate — whisker: 95 % interval", *_span_limits(lows, highs))
    _fifty(ax)
    ax.legend(
        handles=[
            Line2D([], [], marker="o", ls="none", mfc="0.1", mec="0.1", label="moving first"),
            Line2D([], [], marker="s", ls="none", mfc="white", mec="0.1", label="moving second"),
        ],
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncol=2,
        frameon=False,
        fontsize=7.5,
        borderaxespad=0.2,
        handletextpad=0.3,
    )
    ax.set_ylim(n - 0.5, -0.5)
    return ax


def victory_mix(
    victory_by_army: pd.DataFrame,
    ax,
    policy: str | None = None,
    *,
    order: Sequence[str] | None = None,
):
    """How each army's games end: stacked 100 % bars (wins by attrition / at nightfall,
    draws, losses at nightfall / by attrition), distinct by grey and hatch; the mean game
    length in turns at the bar end. ``order``: the armies top to bottom (default the
    frame's order)."""
    v = one_policy(victory_by_army, policy)
    if order is not None:
        known = set(v["army"])
        ranked = [a for a in order if a in known]
        rest = [a for a in v["army"] if a not in set(ranked)]
        v = v.set_index("army").loc[ranked + rest].reset_index()
    y = np.arange(len(v))
    left = np.zeros(len(v))
    handles = []
    for col, label, fill, hatch, hatch_ink in VICTORY_STYLE:
        share = v[col].to_numpy(float)
        ax.barh(
            y,
            share,
            left=left,
            height=0.66,
            color=fill,
            hatch=hatch,
            edgecolor="0.2",
            lw=0.5,
            label=label,
            **_hatch_ink(hatch_ink),
        )
        handles.append(
            Patch(
                facecolor=fill,
                hatch=hatch + hatch[:1],
                edgecolor="0.2",
                lw=0.5,
                label=label,
                **_hatch_ink(hatch_ink),
            )
        )
        ink = text_colour(fill)
        for k in range(len(v)):
            if share[k] >= 0.07:
                # over a hatch the figure sits on a small white label to stay legible
                ax.text(
                    left[k] + share[k] / 2,
                    k,
                    _pct(share[k]),
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color="black" if hatch else ink,
                    bbox=dict(boxstyle="round,pad=0.18", fc="white", ec="none") if hatch else None,
                )
        left += share
    for k, row in enumerate(v.itertuples(index=False)):
        note = f"{row.mean_turns:.1f}"
        if getattr(row, "turn_limit", 0) >= 0.005:
            note += f"  (limit {_pct(row.turn_limit)} %)"
        _row_note(ax, note, k, fontsize=7)
    _column_head(ax, "mean\nturns", fontsize=7, color="0.3")
    _row_axis(ax, list(v["army"]))
    _percent_axis(ax, "share of the army's games (cell: per cent)")
    ax.grid(False)
    ax.legend(
        handles=handles,
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncol=5,
        frameon=False,
        fontsize=7,
        borderaxespad=0.2,
        handlelength=1.6,
        handleheight=1.1,
        handletextpad=0.4,
        columnspacing=0.9,
    )
    return ax


def style_sensitivity(styles: pd.DataFrame, style_tau: pd.DataFrame | None, ax):
    """Each army's field win rate under every policy (one marker shape per policy, 95 %
    whiskers), armies sorted by the first policy; Kendall's tau between the policies'
    army rankings in the axes title."""
    policies = list(pd.unique(styles["policy"]))
    key = styles[styles["policy"] == policies[0]].sort_values(
        ["field_win_rate", "army"], ascending=[False, True]
    )
    armies = list(key["army"]) + [a for a in pd.unique(styles["army"]) if a not in set(key["army"])]
    pos = {a: i for i, a in enumerate(armies)}
    k = len(policies)
    offsets = (np.arange(k) - (k - 1) / 2) * min(0.28, 0.75 / max(k, 1))
    handles = []
    for p, (policy, off) in enumerate(zip(policies, offsets, strict=True)):
        marker, fill = POLICY_MARKERS[p % len(POLICY_MARKERS)]
        s = styles[styles["policy"] == policy]
        y = np.array([pos[a] for a in s["army"]]) + off
        v = s["field_win_rate"].to_numpy(float)
        ax.errorbar(
            v,
            y,
            xerr=[v - s["ci_low"].to_numpy(float), s["ci_high"].to_numpy(float) - v],
            fmt=marker,
            ms=5.5,
            mfc=fill,
            mec="0.1",
            mew=1.0,
            ecolor="0.25",
            elinewidth=1.1,
            capsize=2,
            label=str(policy),
            zorder=3,
        )
        handles.append(
            Line2D([], [], marker=marker, ls="none", mfc=fill, mec="0.1", label=str(policy))
        )
    if "rank" in styles.columns:
        ranks = styles.pivot(index="army", columns="policy", values="rank")
        for i, army in enumerate(armies):
            text = " · ".join("–" if pd.isna(r) else f"{int(r)}" for r in ranks.loc[army, policies])
            _row_note(ax, text, i, fontsize=7.5)
        _column_head(ax, "rank, per\npolicy in\nlegend order", fontsize=7, color="0.3")
    _row_axis(ax, armies)
    for i in range(1, len(armies)):
        ax.axhline(i - 0.5, color="0.9", lw=0.6, zorder=0)
    _percent_axis(
        ax,
        "win rate against the field — whisker: 95 % interval",
        *_span_limits(styles["ci_low"], styles["ci_high"]),
    )
    _fifty(ax)
    ax.legend(
        handles=handles,
        title="policy",
        loc="lower right",
        fontsize=7.5,
        title_fontsize=7.5,
        framealpha=0.95,
        edgecolor="0.6",
    )
    if style_tau is not None and len(style_tau):
        lines = [
            f"{r.policy_x} vs {r.policy_y}: τ = {r.tau:.2f} (p = {r.p_value:.2g})"
            for r in style_tau.itertuples(index=False)
        ]
        ax.set_title(
            "Kendall's τ between the policies' army rankings (1 = same order)\n" + "\n".join(lines),
            loc="left",
            fontsize=7.5,
            color="0.15",
        )
    return ax


def whatif_deltas(whatif: pd.DataFrame, ax, policy: str | None = None):
    """What-if: the change of the win rate (variant − base, percentage points) per pairing
    as bars with 95 % whiskers; each army's ``field`` row first, dark and bold; the share of
    games whose outcome changed printed at the right."""
    w = one_policy(whatif, policy)
    if w.empty:
        ax.text(
            0.5,
            0.5,
            "no pairing affected",
            transform=ax.transAxes,
            ha="center",
            va="center",
            fontsize=9,
            color="0.3",
        )
        ax.set_axis_off()
        return ax
    armies = list(pd.unique(w["army"]))
    single = len(armies) == 1
    parts = []
    for army in armies:
        g = w[w["army"] == army]
        parts.append(g[g["opponent"] == FIELD])
        parts.append(
            g[g["opponent"] != FIELD].sort_values(["delta", "opponent"], ascending=[False, True])
        )
    rows = pd.concat(parts)
    field = (rows["opponent"] == FIELD).to_numpy()
    labels = [
        (f"{a} — field (mean)" if o == FIELD else (f"vs {o}" if single else f"{a} vs {o}"))
        for a, o in zip(rows["army"], rows["opponent"], strict=True)
    ]
    d = 100 * rows["delta"].to_numpy(float)
    dlo, dhi = 100 * rows["delta_low"].to_numpy(float), 100 * rows["delta_high"].to_numpy(float)
    y = np.arange(len(rows))
    ax.barh(
        y,
        d,
        height=0.62,
        color=np.where(field, "0.5", "0.85"),
        edgecolor="0.1",
        lw=np.where(field, 1.2, 0.6),
    )
    ax.errorbar(d, y, xerr=[d - dlo, dhi - d], fmt="none", ecolor="0.0", elinewidth=1.2, capsize=3)
    for i in np.flatnonzero(field)[1:]:
        ax.axhline(i - 0.5, color="0.5", lw=0.6)
    for i, row in enumerate(rows.itertuples(index=False)):
        weight = "bold" if field[i] else "normal"
        for dx, text in (
            (6, f"{_pct(row.base_win_rate)} → {_pct(row.variant_win_rate)} %"),
            (66, f"{_pct(row.changed_games)} %"),
        ):
            _row_note(ax, text, i, dx=dx, fontsize=7, weight=weight)
    for dx, text in ((6, "win rate\nbase → variant"), (66, "games\nchanged")):
        _column_head(ax, text, dx=dx, fontsize=7, color="0.3")
    _row_axis(ax, labels)
    for label, is_field in zip(ax.get_yticklabels(), field, strict=True):
        if is_field:
            label.set_weight("bold")
    ax.axvline(0, color="0.1", lw=0.9, zorder=1)
    lo, hi = min(0.0, float(np.nanmin(dlo))), max(0.0, float(np.nanmax(dhi)))
    pad = 0.08 * (hi - lo or 10)
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_xlabel(
        "change of win rate, percentage points (variant − base) — whisker: 95 %", fontsize=8
    )
    ax.tick_params(axis="x", labelsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)
    return ax


# ----------------------------------------------------------------------------- card value
#
# The card frame holds one row per card identity of one army (``card``, ``kind``, ``unit``,
# ``copies`` and the observed / ablation columns, rates as fractions). The charts below
# group its rows by kind — leaders, then HQ cards, then unit cards — each group under a
# grey heading band; values are drawn in percentage points.

from matplotlib.transforms import Bbox  # noqa: E402

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
    row_pt = 72 * _axes_inches(ax)[1] / max(n_rows, 1)
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
        ax.annotate(
            text,
            (0.0, y),
            xycoords=("axes fraction", "data"),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=size,
            weight="bold",
            color="0.1",
            zorder=2.7,
            gid="group",
        )


def _na(ax, x: float, y: float, size: float) -> None:
    ax.annotate(
        "n/a",
        (x, y),
        xytext=(4, 0),
        textcoords="offset points",
        va="center",
        fontsize=size,
        style="italic",
        color="0.4",
        gid="na",
    )


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
    small = min(size, 7.0)
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
        _row_note(
            ax, text, y[k], fontsize=small, weight="bold" if clear[k] else "normal", gid="figure"
        )
    _column_head(ax, heading, fontsize=7, color="0.3")
    _card_axis(ax, rows, headings, n, size)
    ax.axvline(0, color="0.1", lw=0.9, zorder=1)
    ax.set_xlim(*card_value_limits(rows, metric))
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=9, steps=[1, 2, 5, 10]))
    ax.xaxis.set_major_formatter(lambda x, _: _points(x / 100).replace(".0", ""))
    ax.set_xlabel(xlabel, fontsize=8)
    ax.tick_params(axis="x", labelsize=7.5)
    ax.grid(axis="x", color="0.88", lw=0.6)
    ax.set_axisbelow(True)
    ax.legend(
        handles=[
            Patch(facecolor=_CARD_CLEAR, edgecolor="0.25", lw=0.5, label="interval clear of 0"),
            Patch(facecolor=_CARD_UNCLEAR, edgecolor="0.25", lw=0.5, label="interval includes 0"),
        ],
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncol=2,
        frameon=False,
        fontsize=7.5,
        borderaxespad=0.2,
        handlelength=1.6,
        handletextpad=0.4,
    )
    return ax


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
                f"{_pct(rate[k])} %",
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
    _percent_axis(ax, "share of the games with the card drawn in which it was played", 0.0, 1.13)
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


def _crosses(box, a, b, steps: int = 16) -> bool:
    """Whether the segment from ``a`` to ``b`` (display coordinates) runs through ``box``;
    its last sixteenth at each end (inside its own label or marker) not counted."""
    for f in np.linspace(1 / steps, 1 - 1 / steps, steps - 1):
        px, py = a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])
        if box.x0 <= px <= box.x1 and box.y0 <= py <= box.y1:
            return True
    return False


def _overlaps(box, boxes) -> bool:
    return any(box.overlaps(b) for b in boxes)


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

    fig = ax.figure
    renderer = fig.canvas.get_renderer()
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
    legend = ax.legend(
        handles=handles,
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncol=len(handles),
        frameon=False,
        fontsize=7.5,
        borderaxespad=0.2,
        handletextpad=0.3,
        columnspacing=1.0,
    )
    obstacles = [t.get_window_extent(renderer).expanded(1.04, 1.1) for t in notes]
    obstacles.append(legend.get_window_extent(renderer))
    centres = ax.transData.transform(np.c_[x, y]) if len(x) else np.empty((0, 2))
    dot = 2.8 * fig.dpi / 72  # half a marker, in pixels
    dots = [Bbox.from_extents(px - dot, py - dot, px + dot, py + dot) for px, py in centres]
    frame = ax.get_window_extent(renderer)

    # who gets a name: the best and worst by value, the largest disagreements, then the
    # others by |value| — until ``labels`` are placed
    order = list(np.argsort(-y, kind="stable")[:5]) + list(np.argsort(y, kind="stable")[:3])
    order += list(np.argsort(-np.abs(x - y), kind="stable")[:5])
    order += list(np.argsort(-np.abs(y), kind="stable"))
    picked = list(dict.fromkeys(int(i) for i in order))
    # beside the point first, then farther out on rings with a thin leader line
    spots = []
    for radius in (5, 13, 22, 32, 44):
        for deg in (20, -20, 160, 200, 90, 270, 50, -50, 130, 230):
            dx, dy = radius * np.cos(np.radians(deg)), 0.7 * radius * np.sin(np.radians(deg))
            ha = "left" if dx > 1 else ("right" if dx < -1 else "center")
            va = "bottom" if dy > 1 else ("top" if dy < -1 else "center")
            spots.append((dx, dy, ha, va, radius > 5))
    names, units = c["card"].to_numpy(), c["unit"].to_numpy() if "unit" in c else None
    placed, lines = [], []  # label boxes; leader lines as (point, label end) pairs
    for i in picked:
        if len(placed) >= labels:
            break
        name = _short_card(names[i], "" if units is None else units[i])
        others = [d for j, d in enumerate(dots) if j != i]
        for dx, dy, ha, va, line in spots:
            style = dict(
                xytext=(dx, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize=6.5,
                color="0.1",
                zorder=5,
                gid="card",
            )
            t = ax.annotate(name, (x[i], y[i]), **style)
            box = t.get_window_extent(renderer).expanded(1.02, 1.1)
            t.remove()  # measured without its leader line, which would widen the box
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1
            inside = inside and frame.y0 <= box.y0 and box.y1 <= frame.y1
            if not inside or _overlaps(box, placed + obstacles + others):
                continue
            if any(_crosses(box, a, b) for a, b in lines):
                continue
            p = centres[i]
            end = (np.clip(p[0], box.x0, box.x1), np.clip(p[1], box.y0, box.y1))
            if line and any(_crosses(b, p, end) for b in placed + others + obstacles):
                continue
            if line:
                style["arrowprops"] = dict(
                    arrowstyle="-", color="0.45", lw=0.5, shrinkA=1, shrinkB=3
                )
                lines.append((p, end))
            ax.annotate(name, (x[i], y[i]), **style)
            placed.append(box)
            break
    return ax
