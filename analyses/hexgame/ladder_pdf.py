"""The printable page of Maneuver's handicap ladder (``hex_ladder.pdf``): the favoured side's
score per rung with its 95 % interval, the fitted curve, the even point k* and its interval,
then the summary; every page footed with the provenance through :mod:`analyses.common.pages`."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import PercentFormatter

from manoeuvre_sim.analyses.common.pages import MARGIN_L, page_head, page_rect
from manoeuvre_sim.analyses.hexgame.study_footer import study_footer, text_block, write_hex_pdf
from manoeuvre_sim.hexgame import GAME_TITLE

HOW_TO_READ = (
    "Each dot is one rung of the ladder: the favoured side's score (a win 1, a draw 1/2) when "
    "k of its combat units start on their weak side, with its 95% interval; every rung "
    "played the same seeds. The line is the fitted logistic curve; the grey band and the "
    "dashed line mark the even point k*, where the fitted score is 1/2, and its 95% interval."
)


def ladder_chart(ladder: pd.DataFrame, fit: dict, ax, favoured: str) -> None:
    """The ladder's scores with whiskers, the fitted curve, k* and its interval."""
    k = ladder["k"].to_numpy()
    s = ladder["score"].to_numpy()
    err = np.vstack([s - ladder["score_ci_low"], ladder["score_ci_high"] - s])
    ax.axhline(0.5, color="0.55", lw=0.8, ls=":")
    if fit.get("k_star") is not None:
        lo, hi = fit["k_star_ci_low"], fit["k_star_ci_high"]
        ax.axvspan(lo, hi, color="0.88", lw=0, zorder=0)
        ax.axvline(fit["k_star"], color="0.2", lw=1.0, ls="--")
        ax.annotate(
            f"k* = {fit['k_star']:.2f}\n({lo:.2f}–{hi:.2f})", (fit["k_star"], 0.5),
            xytext=(8, 18), textcoords="offset points", fontsize=8,
            bbox={"boxstyle": "round", "fc": "white", "ec": "0.6", "lw": 0.5},
        )  # fmt: skip
    grid = np.linspace(k.min(), k.max(), 200)
    curve = 1.0 / (1.0 + np.exp(-(fit["intercept"] + fit["slope"] * grid)))
    ax.plot(grid, curve, color="0.1", lw=1.4, label="fitted (fractional logit)")
    ax.errorbar(k, s, yerr=err, fmt="o", color="#1f4e9c" if favoured == "blue" else "#b2182b",
                ms=4.5, capsize=2.5, lw=1, label=f"{favoured}'s score, 95% interval")  # fmt: skip
    ax.plot(k, ladder["draw_rate"], "s", ms=3, mfc="white", mec="0.45", label="draw rate")
    ax.set_xticks(k)
    ax.set_xlim(k.min() - 0.4, k.max() + 0.4)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"handicap k: {favoured}'s combat units on their weak side", fontsize=8.5)
    ax.set_ylabel(f"{favoured}'s score", fontsize=8.5)
    ax.tick_params(labelsize=7.5)
    ax.grid(axis="y", color="0.9", lw=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.legend(fontsize=7, frameon=False, loc="lower left")


def ladder_page(ladder: pd.DataFrame, fit: dict, manifest: dict, summary: list[str]):
    """The ladder's page from its table, its fit (``fit.json``), its manifest and its
    summary lines (as the study computed them, or read back by the report)."""
    favoured = manifest["favoured"]
    border = (manifest.get("variants") or [{}])[0].get("border", "?")
    order = manifest.get("order")
    order = f"units weakened by type: {order}" if order else "units in scenario order"

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        how = textwrap.wrap(f"{favoured.capitalize()} handicapped, {order}. " + HOW_TO_READ, 110)
        top = page_head(
            fig,
            "The handicap ladder: which handicap makes the game even?",
            f"{GAME_TITLE}; border {border}, first player {manifest.get('first', '?')}, "
            f"players {', '.join(manifest['policies'])}",
            how,
            fontsize=8,
        )
        ax = page_rect(
            fig, MARGIN_L + 0.5, h * 0.38, w - 2 * MARGIN_L - 0.7, h - top - 1.1 - h * 0.38
        )
        ladder_chart(ladder, fit, ax, favoured)
        lines = [x for line in summary[3:] for x in (textwrap.wrap(line, 100) or [""])]
        text_block(fig, h * 0.38 - 0.55, lines, fontsize=7, linespacing=1.3)

    return draw


def provenance(manifest: dict) -> dict[str, str]:
    """The footer of every page."""
    return study_footer(manifest)


def write_ladder_pdf(path: str | Path, res, *, paper: str = "a4") -> Path:
    """Write ``hex_ladder.pdf`` atomically: the ladder page, then the summary."""
    pages = [(ladder_page(res.ladder, res.fit, res.manifest, res.summary()), None)]
    return write_hex_pdf(path, pages, provenance(res.manifest), paper, "handicap ladder",
                         res.summary())  # fmt: skip
