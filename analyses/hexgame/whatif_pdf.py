"""The printable page of Maneuver's what-if (``hex_whatif.pdf``): per pairing and pooled, the
paired change (variant - base) in blue's, red's and the first player's win rate and the draw
rate as dots with their 95 % intervals, a zero line, footed with the provenance through
:mod:`analyses.common.pages`. Each chart is one function drawing the what-if table on an Axes;
nothing is computed here beyond laying the rows out.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from manoeuvre_sim.analyses.common.pages import MARGIN_L, page_head, page_rect
from manoeuvre_sim.analyses.hexgame.rows import ALL, OUTCOMES, pair_name
from manoeuvre_sim.analyses.hexgame.study_footer import study_footer, text_block, write_hex_pdf
from manoeuvre_sim.hexgame import GAME_TITLE

HOW_TO_READ = (
    "Each row plays the base scenario and the variant on the same seeds (game i of a pairing "
    "seeded alike in both). A dot is the change in a rate, variant minus base, in percentage "
    "points; the whisker its 95 % interval from the per-game differences (paired); the "
    "filled square pools every pairing. A whisker clear of the zero line is a change the "
    "games show; the right column counts the games whose outcome changed."
)


def _labels(frame: pd.DataFrame) -> list[str]:
    return [pair_name(r) for r in frame.itertuples(index=False)]


def common_span(whatif: pd.DataFrame) -> float:
    """The half-width of an x axis that holds every change and interval of the table, so
    that the four charts share one scale."""
    cols = [f"{s}_change_ci_{e}" for s, _ in OUTCOMES for e in ("low", "high")]
    span = float(np.nanmax(np.abs(np.r_[whatif[cols].to_numpy(np.float64).ravel(), 0.0])))
    return max(0.01, float(np.ceil(span * 1.15 * 100) / 100))


def change_whiskers(
    whatif: pd.DataFrame, ax, stem: str, label: str, show_labels: bool = True, span=None
):
    """One rate's paired change as dots with 95 % whiskers, a row per pairing (pooled: a
    filled square), the zero line solid; x from -span to +span (None: the table's)."""
    n = len(whatif)
    y = np.arange(n, dtype=float)
    x = whatif[f"{stem}_change"].to_numpy(np.float64)
    lo = whatif[f"{stem}_change_ci_low"].to_numpy(np.float64)
    hi = whatif[f"{stem}_change_ci_high"].to_numpy(np.float64)
    pooled = (whatif["policy_blue"] == ALL).to_numpy()
    ax.axvline(0.0, color="0.35", lw=0.9, zorder=0)
    ax.hlines(y, lo, hi, color="0.1", lw=1.1)
    ax.plot(x[~pooled], y[~pooled], "o", ms=3.8, mfc="white", mec="0.1", mew=0.9)
    ax.plot(x[pooled], y[pooled], "s", ms=4.4, color="0.1")
    span = common_span(whatif) if span is None else span
    ax.set_xlim(-span, span)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_yticks(y, _labels(whatif) if show_labels else [""] * n, fontsize=7)
    ax.tick_params(axis="y", length=0)
    ax.tick_params(axis="x", labelsize=6.5)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:+.0f}" if v else "0"))
    ax.set_title(label, fontsize=8.5, weight="bold", loc="left")
    ax.set_xlabel("change, points", fontsize=7.5)
    ax.grid(axis="x", color="0.9", lw=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def changed_counts(whatif: pd.DataFrame, ax) -> None:
    """The games whose outcome changed, per row, as text beside the charts."""
    n = len(whatif)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.axis("off")
    ax.set_title("changed outcome", fontsize=8.5, weight="bold", loc="left")
    for i, r in enumerate(whatif.itertuples(index=False)):
        ax.text(0.0, i, f"{r.changed_games:,} of {r.games:,}", fontsize=7, va="center")


def rate_lines(whatif: pd.DataFrame) -> list[str]:
    """The rates behind the dots, base -> variant, per row (a small table under the charts)."""
    out = [f"{'rates in %, base -> variant':<26}" + "".join(f"{lab:>20}" for _, lab in OUTCOMES)]
    for lab, r in zip(_labels(whatif), whatif.itertuples(index=False), strict=True):
        cells = [
            f"{100 * getattr(r, f'{s}_rate_base'):.1f} -> {100 * getattr(r, f'{s}_rate_variant'):.1f}"
            for s, _ in OUTCOMES
        ]
        out.append(f"{lab:<26}" + "".join(f"{c:>20}" for c in cells))
    return out


def whatif_page(whatif: pd.DataFrame, manifest: dict):
    """The what-if's page from its table and manifest (as the study computed them, or read
    back by the report)."""

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        m = manifest
        edits = "; ".join(m.get("edits") or []) or f"the file {m['variant_scenario_file']}"
        head = f"Variant: {edits}." + (" Identical to the base." if m["identical"] else "")
        how = textwrap.wrap(head, 118) + textwrap.wrap(HOW_TO_READ, 118)
        top = page_head(fig, "What changes with the variant?", GAME_TITLE, how)
        rows = len(whatif)
        height = min(h - top - 3.0, max(2.6, 0.5 * rows + 0.6))
        y0 = h - top - 1.6 - height
        span = common_span(whatif)
        label_w, count_w, gap = 1.55, 0.9, 0.3
        x = MARGIN_L + label_w
        width = (w - x - 0.45 - count_w - gap * len(OUTCOMES)) / len(OUTCOMES)
        for i, (stem, label) in enumerate(OUTCOMES):
            ax = page_rect(fig, x, y0, width, height)
            change_whiskers(whatif, ax, stem, label, i == 0, span)
            x += width + gap
        changed_counts(whatif, page_rect(fig, x, y0, count_w, height))
        text_block(fig, y0 - 0.75, rate_lines(whatif), fontsize=7.5, linespacing=1.4)

    return draw


def provenance(manifest: dict) -> dict[str, str]:
    """The footer of the page."""
    scenarios = (f"base sha256 {manifest['base_scenario_sha256'][:12]}, variant "
                 f"{manifest['variant_scenario_sha256'][:12]}")  # fmt: skip
    return study_footer(manifest, scenario=scenarios)


def write_whatif_pdf(path: str | Path, res, *, paper: str = "a4") -> Path:
    """Write ``hex_whatif.pdf`` atomically: one page."""
    pages = [(whatif_page(res.whatif, res.manifest), None)]
    return write_hex_pdf(path, pages, provenance(res.manifest), paper, "what-if")
