"""Balance-analysis charts, one function per figure, in seaborn's axes-level convention:
``f(frame, ax, **options) -> ax``.

Every function draws a tidy frame produced by the analysis pipeline (win rates as fractions
0..1 with their 95 % intervals) onto an existing axes and returns it; nothing here computes
a statistic — the functions only pick a policy, pivot, sort and format. Frames holding a
``policy`` column are filtered by ``policy=``; with ``policy=None`` the frame must hold a
single policy, else :class:`ValueError`. The style (colours, helpers) is in
``chart_style.py``; the pairing heatmap is drawn in ``pairing_heatmap.py`` (imported here
with the others); the card-value figures are in ``card_charts.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from manoeuvre_sim.analyses.common.chart_style import (  # noqa: E402
    _LABEL_BOX,
    ALL_GAMES,
    FIELD,
    POLICY_MARKERS,
    VICTORY_STYLE,
    column_head,
    fifty_line,
    hatch_style,
    interval_text,
    legend_above,
    one_policy,
    pct_text,
    percent_axis,
    pp_text,
    row_axis,
    row_note,
    span_limits,
    text_colour,
)

# the heatmap has a module of its own; it and the colour map are read from here too
from manoeuvre_sim.analyses.common.chart_style import WIN_RATE_CMAP as WIN_RATE_CMAP  # noqa: E402
from manoeuvre_sim.analyses.manoeuvre.pairing_heatmap import heatmap as heatmap  # noqa: E402

# ----------------------------------------------------------------------------- figures


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
    row_axis(ax, labels)
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
    hi = min(1.0, np.ceil((float(a["ci_high"].max()) + 0.16) / 0.1) * 0.1)
    for k, row in enumerate(a.itertuples(index=False)):
        # beside the whisker's end, or before its start when it reaches the axis's end
        right = row.ci_high + 0.16 <= hi
        ax.annotate(
            f"{pct_text(row.field_win_rate)} %  ({interval_text(row.ci_low, row.ci_high)})",
            (row.ci_high if right else row.ci_low, k),
            xytext=(5 if right else -5, 0),
            textcoords="offset points",
            ha="left" if right else "right",
            va="center",
            fontsize=7,
            color="0.2",
            bbox=_LABEL_BOX,
        )
    row_axis(ax, list(a["army"]))
    percent_axis(ax, "win rate against the field — whisker: 95 % interval", 0.0, hi)
    fifty_line(ax)
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
    for i, row in enumerate(rows.itertuples(index=False)):
        _first_and_second(ax, i, row)
    column_head(ax, "first − second,\npoints (95 %)", fontsize=7, color="0.3")
    row_axis(ax, list(rows["army"]))
    for label in ax.get_yticklabels():
        if label.get_text() == ALL_GAMES:
            label.set_weight("bold")
    lows = np.r_[rows["ci_low_first"], rows["ci_low_second"]]
    highs = np.r_[rows["ci_high_first"], rows["ci_high_second"]]
    percent_axis(ax, "win rate — whisker: 95 % interval", *span_limits(lows, highs))
    fifty_line(ax)
    legend_above(
        ax,
        [
            Line2D([], [], marker="o", ls="none", mfc="0.1", mec="0.1", label="moving first"),
            Line2D([], [], marker="s", ls="none", mfc="white", mec="0.1", label="moving second"),
        ],
        handletextpad=0.3,
    )
    ax.set_ylim(n - 0.5, -0.5)
    return ax


def _first_and_second(ax, i: int, row, dy: float = 0.16) -> None:
    """Row ``i`` of :func:`first_player`: the two win rates joined by a line, moving first
    ``dy`` above the row's middle and second below, and the advantage at the right."""
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
    row_note(
        ax,
        f"{pp_text(row.advantage)}  ({pp_text(row.advantage_low)} to {pp_text(row.advantage_high)})",
        i,
        fontsize=7,
        weight="bold" if top else "normal",
    )


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
    handles = _victory_bars(ax, v)
    for k, row in enumerate(v.itertuples(index=False)):
        note = f"{row.mean_turns:.1f}"
        if getattr(row, "turn_limit", 0) >= 0.005:
            note += f"  (limit {pct_text(row.turn_limit)} %)"
        row_note(ax, note, k, fontsize=7)
    column_head(ax, "mean\nturns", fontsize=7, color="0.3")
    row_axis(ax, list(v["army"]))
    percent_axis(ax, "share of the army's games (cell: per cent)")
    ax.grid(False)
    legend_above(
        ax,
        handles,
        fontsize=7,
        ncol=5,
        handlelength=1.6,
        handleheight=1.1,
        handletextpad=0.4,
        columnspacing=0.9,
    )
    return ax


def _victory_bars(ax, v: pd.DataFrame) -> list:
    """The stacked shares of :func:`victory_mix`, a figure on each share of 7 % or more;
    their legend handles."""
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
            **hatch_style(hatch_ink),
        )
        handles.append(
            Patch(
                facecolor=fill,
                hatch=hatch + hatch[:1],
                edgecolor="0.2",
                lw=0.5,
                label=label,
                **hatch_style(hatch_ink),
            )
        )
        ink = text_colour(fill)
        for k in range(len(v)):
            if share[k] >= 0.07:
                # over a hatch the figure sits on a small white label to stay legible
                ax.text(
                    left[k] + share[k] / 2,
                    k,
                    pct_text(share[k]),
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color="black" if hatch else ink,
                    bbox=dict(boxstyle="round,pad=0.18", fc="white", ec="none") if hatch else None,
                )
        left += share
    return handles


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
            row_note(ax, text, i, fontsize=7.5)
        column_head(ax, "rank, per\npolicy in\nlegend order", fontsize=7, color="0.3")
    row_axis(ax, armies)
    for i in range(1, len(armies)):
        ax.axhline(i - 0.5, color="0.9", lw=0.6, zorder=0)
    percent_axis(
        ax,
        "win rate against the field — whisker: 95 % interval",
        *span_limits(styles["ci_low"], styles["ci_high"]),
    )
    fifty_line(ax)
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
            (6, f"{pct_text(row.base_win_rate)} → {pct_text(row.variant_win_rate)} %"),
            (66, f"{pct_text(row.changed_games)} %"),
        ):
            row_note(ax, text, i, dx=dx, fontsize=7, weight=weight)
    for dx, text in ((6, "win rate\nbase → variant"), (66, "games\nchanged")):
        column_head(ax, text, dx=dx, fontsize=7, color="0.3")
    row_axis(ax, labels)
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
