"""The why study's waterfall (``studies/why.py``): from 50 % to the observed win rate, one bar
per part, and its page: the figure as a PNG and a PDF of the figure and the summary, footed
with the study's provenance. Nothing here computes a figure: it lays out the study's
contributions and totals tables.

The bars, top to bottom: the mirror's offset (every part off, 50 % in expectation: what the
measured all-off pairing differs from 50 % by noise), then the parts by the size of their
contribution, each from the running total before it to the running total after it with its
95 % interval as a whisker at its end; the last row is the observed rate with its interval.
Side X's parts are dark, side Y's light (hatched): a greyscale printer tells them apart.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from manoeuvre_sim.analyses.common import chart_style as CS  # noqa: E402
from manoeuvre_sim.analyses.common.pages import (  # noqa: E402
    MARGIN_L,
    page_head,
    page_rect,
    write_study_pdf,
)

PDF_NAME = "why.pdf"
PNG_NAME = "waterfall.png"
STYLE = ({"color": "0.25", "hatch": ""}, {"color": "0.78", "hatch": "///"})  # side X, side Y
MOST_ROWS = 40  # the rest folded into one row


def rows(contributions, totals, most: int = MOST_ROWS) -> list[dict]:
    """The waterfall's rows (label, start, end, lo, hi, side: 0 X, 1 Y, None a total), from
    50 % through the mirror's offset and each part (largest first; beyond ``most`` rows the
    rest in one) to the observed rate."""
    t = totals.set_index("quantity")
    sides = list(dict.fromkeys(contributions["side"]))
    c = contributions.reindex(contributions["contribution"].abs()
                              .sort_values(ascending=False, kind="stable").index)  # fmt: skip
    off = t.loc["mirror_offset"]
    out = [{"label": "all parts off − 50 %", "start": 0.5, "end": 0.5 + off["estimate"],
            "lo": 0.5 + off["lo"], "hi": 0.5 + off["hi"], "side": None}]  # fmt: skip
    at = out[0]["end"]
    shown, rest = c.iloc[:most], c.iloc[most:]
    for r in shown.itertuples(index=False):
        out.append({"label": f"{r.side}: {r.part}", "start": at, "end": at + r.contribution,
                    "lo": at + r.lo, "hi": at + r.hi, "side": int(r.side != sides[0])})  # fmt: skip
        at += r.contribution
    if len(rest):
        s = float(rest["contribution"].sum())
        out.append({"label": f"{len(rest)} smaller parts", "start": at, "end": at + s,
                    "lo": np.nan, "hi": np.nan, "side": None})  # fmt: skip
        at += s
    obs = t.loc["observed"]
    out.append({"label": "observed", "start": 0.5, "end": obs["estimate"], "lo": obs["lo"],
                "hi": obs["hi"], "side": None})  # fmt: skip
    return out


def waterfall(contributions, totals, ax, names=None):
    """The waterfall on ``ax`` (module docstring); ``names``: the two sides for the legend."""
    rs = rows(contributions, totals)
    labels = [r["label"] for r in rs]
    CS.row_axis(ax, labels, fontsize=6.5 if len(rs) > 25 else 8)
    for i, r in enumerate(rs):
        lo, hi = sorted((r["start"], r["end"]))
        style = STYLE[r["side"]] if r["side"] is not None else {"color": "white", "hatch": ""}
        ax.barh(i, hi - lo, left=lo, height=0.7, color=style["color"], hatch=style["hatch"],
                edgecolor="0.1", lw=0.6, zorder=2, **CS.hatch_style("0.35"))  # fmt: skip
        if not np.isnan(r["lo"]):
            ax.plot([r["lo"], r["hi"]], [i, i], color="black", lw=0.9, zorder=3)
        if 0 < i < len(rs) - 1:
            ax.plot([r["end"]] * 2, [i + 0.35, i + 0.65], color="0.5", lw=0.5, zorder=1)
        CS.row_note(ax, CS.pp_text(r["end"] - r["start"]) if i < len(rs) - 1
                    else f"{100 * r['end']:.1f} %", i)  # fmt: skip
    ends = [v for r in rs for v in (r["start"], r["end"], r["lo"], r["hi"]) if not np.isnan(v)]
    CS.percent_axis(ax, "side X's score (a win 1, a draw ½)", *CS.span_limits(
        [min(ends)], [max(ends)], pad=0.02, step=0.05))  # fmt: skip
    CS.fifty_line(ax)
    CS.column_head(ax, "points")
    if names is not None:
        CS.legend_above(ax, [Patch(facecolor=STYLE[k]["color"], hatch=STYLE[k]["hatch"],
                                   edgecolor="0.1", label=f"{'XY'[k]}: {n}")
                             for k, n in enumerate(names)])  # fmt: skip
    return ax


def provenance(m: dict) -> dict[str, str]:
    """The footer of the why pages: tool, rules, data and reference hashes, seed, games,
    policy, date."""
    games = f"{m.get('games', 0):,} ({m.get('samples_done', 0)} samples)"
    if m.get("interrupted"):
        games += ", interrupted"
    return {"tool": f"manoeuvre-sim {m['version']}", "rules": m["rules_version"],
            "data": m["data_hash"], "reference": m["reference_hash"], "seed": str(m["seed"]),
            "games": games, "policy": m["why"]["policy"],
            "date": str(m.get("finished", m.get("started", "")))[:10]}  # fmt: skip


def write_pages(result, out_dir, paper: str = "a4") -> list[Path]:
    """``waterfall.png`` (the figure alone) and ``why.pdf`` (the figure with how to read it,
    then the summary), each written atomically; nothing when no sample finished."""
    from manoeuvre_sim.core.fileio import temp_beside

    if len(result.contributions) == 0:
        return []
    out = Path(out_dir)
    names = result.sides_named()  # X and Y, or X and the field (every opponent's bars Y's)
    n = len(result.contributions)
    height = min(9.0, 1.2 + 0.2 * (min(n, MOST_ROWS) + 3))
    fig = plt.figure(figsize=(7.5, height + 1.2))
    try:
        waterfall(result.contributions, result.totals, page_rect(fig, 2.9, 0.7, 3.8, height), names)
        png = out / PNG_NAME
        tmp = temp_beside(png)
        fig.savefig(tmp, dpi=110, format="png")
        Path(tmp).replace(png)
    finally:
        plt.close(fig)
    m = result.manifest
    gap = m["gap"]

    def page(f) -> None:
        top = page_head(f, f"Why {names[0]} scores what it does against {names[1]}",
                        f"{m['game_title']} · {m['why']['method']} Shapley values, "
                        f"{m['samples_done']} samples on paired seeds", [
            "Each bar is a part's contribution to X's score: what switching it on from the "
            "neutral reference adds, averaged over the orders",
            "in which the parts are switched on (Shapley value); the whisker is its 95 % "
            f"interval. The parts add up to the gap, {100 * gap:+.1f} points, exactly.",
            *textwrap.wrap(f"Neutral reference: {m['why']['reference']}.", 125)])  # fmt: skip
        w, h = f.get_size_inches()
        ax = page_rect(f, MARGIN_L + 2.4, 0.9, w - MARGIN_L - 2.4 - 1.0, h - top - 1.9)
        waterfall(result.contributions, result.totals, ax, names)

    pdf = write_study_pdf(out / PDF_NAME, [(page, None)], provenance(m), paper,
                          f"why: {names[0]} against {names[1]}", result.summary())  # fmt: skip
    return [out / PNG_NAME, pdf]
