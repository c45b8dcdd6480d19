"""Printable combat odds charts, readable in greyscale: one page per assault dice mix, and
one for bombardment, volley and rockets.

Each assault page is a grid — columns the attacker's base (strength + hill + leader + supports),
rows the defense total — and each cell holds the chance that the attack beats the defense
(``A > D``, in per cent) above a 100% bar split into the six exclusive result bands of the
Assault/Ambush Results Table (rule 6.1 step 7). Rendering only consumes the exact odds of
:func:`manoeuvre_sim.manoeuvre.odds.odds_grid`; nothing is simulated here. The bombardment / volley
page is a grid of dice mixes (fired from level ground or a hill) by defense total, each cell
the exact chance of a hit (:func:`manoeuvre_sim.manoeuvre.odds.fire_odds`, rule 6.2). Each page is a
``draw(fig)`` function, so the report (:mod:`analyses.common.report`) draws the same pages.
"""

from __future__ import annotations

import datetime as _dt
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from matplotlib.patches import Rectangle  # noqa: E402

from manoeuvre_sim import __version__  # noqa: E402
from manoeuvre_sim.analyses.common.chart_style import stamp_chart  # noqa: E402
from manoeuvre_sim.analyses.common.pages import PAPER_INCHES, write_figures  # noqa: E402
from manoeuvre_sim.manoeuvre import RULES_VERSION
from manoeuvre_sim.manoeuvre.odds import DEFAULT_MIXES, odds_grid  # noqa: E402

# (label, fill grey level, hatch) per band, in band-constant order. Distinct by grey level
# *and* hatch so the chart survives a greyscale printer or photocopier.
BAND_STYLE = (
    ("Attacker hit  (A < D)", "0.2", "xx"),
    ("No effect  (A = D)", "1.0", ""),
    ("Defender chooses retreat or hit  (A > D)", "0.88", ""),
    ("Attacker chooses retreat or hit  (A ≥ 2D)", "0.62", "..."),
    ("Hit and retreat  (A ≥ 3D)", "0.5", "////"),
    ("Eliminated  (A ≥ 4D)", "0.0", ""),
)

RULE_REFS = (
    "Rules: 6.1 step 6-7 (Assault/Ambush totals and Results Table, reference card), "
    "6.4 supporting units, 9.1 leaders, 9.2 Committed Attack (+2d6). "
    "Hill attacking a non-hill +2; defense: Hill/Woods +2, Town +3, Marsh +1, Redoubt +3."
)


def assault_page(label, strengths, defenses, probs, stamp: str | None = None):
    """The assault odds page of one dice mix as ``draw(fig)`` (the page machinery of
    :mod:`analyses.balance_pdf`): ``probs`` is :func:`odds_grid`'s slice for the mix.
    ``stamp``: the footer line of a stand-alone chart (None: the caller foots the page)."""

    def draw(fig) -> None:
        _assault(fig, label, strengths, defenses, probs, stamp)

    return draw


def _assault(fig, label, strengths, defenses, probs, stamp: str | None) -> None:
    # grid axes: leave room for title (top) and legend + footer (bottom)
    ax = fig.add_axes([0.09, 0.22, 0.87, 0.66])
    ns, nd = len(strengths), len(defenses)
    ax.set_xlim(0, ns)
    ax.set_ylim(nd, 0)
    ax.set_xticks([i + 0.5 for i in range(ns)], [str(s) for s in strengths], fontsize=8)
    ax.set_yticks([j + 0.5 for j in range(nd)], [str(d) for d in defenses], fontsize=8)
    ax.tick_params(length=0, labeltop=True, labelright=True)
    ax.set_xlabel(
        "attacker base: strength + hill + leader combat + supporting strengths", fontsize=8
    )
    ax.set_ylabel("defense total", fontsize=8)
    for spine in ax.spines.values():
        spine.set_linewidth(0.8)
    fs = 7.5 if ns <= 13 else 6.5
    for i in range(ns):
        for j in range(nd):
            _assault_cell(ax, i, j, probs[i, j], fs)
    _assault_heading(fig, label)
    _band_legend(fig)
    fig.text(0.09, 0.075, "\n".join(textwrap.wrap(RULE_REFS, 150)), fontsize=6.5, va="top")
    stamp_chart(fig, stamp)


def _assault_cell(ax, x0: int, y0: int, p, fs: float) -> None:
    """One cell of the assault grid: the chance that the attack beats the defense, over a
    bar of the result bands ``p``."""
    ax.add_patch(Rectangle((x0, y0), 1, 1, fill=False, lw=0.3, ec="0.6"))
    win = p[2:].sum()
    txt = "100" if win > 0.9995 else ("0" if win < 0.0005 else f"{100 * win:.0f}")
    if 0.0005 <= win < 0.005:
        txt = "<1"
    if 0.995 < win <= 0.9995:
        txt = ">99"
    ax.text(
        x0 + 0.5,
        y0 + 0.33,
        txt,
        ha="center",
        va="center",
        fontsize=fs,
        weight="bold" if win >= 0.5 else "normal",
    )
    left = x0 + 0.08
    for b, (_, grey, hatch) in enumerate(BAND_STYLE):
        wdt = 0.84 * p[b]
        if wdt <= 0:
            continue
        ax.add_patch(
            Rectangle((left, y0 + 0.58), wdt, 0.3, facecolor=grey, hatch=hatch, lw=0, ec="0.5")
        )
        left += wdt
    ax.add_patch(Rectangle((x0 + 0.08, y0 + 0.58), 0.84, 0.3, fill=False, lw=0.4, ec="0"))


def _assault_heading(fig, label) -> None:
    fig.text(
        0.5,
        0.955,
        f"Manoeuvre — Assault / Ambush odds — attack dice {label}",
        ha="center",
        fontsize=14,
        weight="bold",
    )
    fig.text(
        0.5,
        0.93,
        f"Attack total = base + {label} (+ 2d6 per Committed Attack: use that mix's page). "
        "Cell number: chance in % that the attack total beats the defense (A > D).",
        ha="center",
        fontsize=7.5,
    )
    fig.text(
        0.5,
        0.915,
        "Bar: how that chance splits into the result bands, left to right "
        "(each result counted once, in the highest band it reaches).",
        ha="center",
        fontsize=7.5,
    )


def _band_legend(fig) -> None:
    """The six result bands in two columns under the grid."""
    lx, ly = 0.09, 0.165
    for b, (name, grey, hatch) in enumerate(BAND_STYLE):
        col, row = b % 2, b // 2
        x = lx + col * 0.45
        y = ly - row * 0.027
        fig.patches.append(
            Rectangle(
                (x, y),
                0.035,
                0.016,
                transform=fig.transFigure,
                facecolor=grey,
                hatch=hatch,
                ec="0",
                lw=0.5,
            )
        )
        fig.text(x + 0.045, y + 0.008, name, va="center", fontsize=8)


# the dice printed on the unit cards' bombard and volley values (data/armies), and 1d8 / 2d10
# for a designer's card
FIRE_MIXES = ("1d8", "1d10", "2d6", "2d8", "2d10")
FIRE_DEFENSES = tuple(range(1, 17))

FIRE_NOTES = (
    "Bombardment and volley (rule 6.2): the attack total is the card's dice, +2 when the "
    "firing unit is on a hill and the target is not; the defense total is the target's "
    "strength + its terrain (Hill/Woods +2, Town +3, Marsh +1, Redoubt +3 — a redoubt counts "
    "against fire, RULE_INTERPRETATIONS #17). Attack > defense: the target takes a hit "
    "(6.6); otherwise no effect.",
    "Cell: the chance of a hit in per cent; darker: likelier, bold: 50 % or more. "
    "Printed on the cards: bombard 1d10, 2d6, 2d8; volley 2d6, 2d8. A bombardment reaches 2 "
    "squares through open ground (6.2 step 2); a volley, an adjacent unit.",
)


def fire_grid(mixes: Sequence[object], defenses: Sequence[int]):
    """(labels, P(hit) of shape (mixes, 2 for level / hill, defenses)), exact
    (:func:`manoeuvre_sim.manoeuvre.odds.fire_odds`)."""
    import numpy as np

    from manoeuvre_sim.manoeuvre.odds import dice_label, fire_odds, parse_mix

    labels, out = [], []
    for mix in mixes:
        dice = parse_mix(mix)
        labels.append(dice_label(dice))
        out.append(
            [[fire_odds(dice, d, hill=hill).hit for d in defenses] for hill in (False, True)]
        )
    return labels, np.array(out, dtype=float)


def fire_page(
    mixes: Sequence[object] = FIRE_MIXES,
    defenses: Sequence[int] = FIRE_DEFENSES,
    stamp: str | None = None,
):
    """The bombardment / volley odds page as ``draw(fig)``: per dice mix two columns (firing
    from level ground, from a hill onto a non-hill target), a row per defense total; and
    the rocket attack's three outcomes. ``stamp``: as :func:`assault_page`."""
    labels, hits = fire_grid(mixes, defenses)

    def draw(fig) -> None:
        from manoeuvre_sim.analyses.common.chart_style import text_colour
        from manoeuvre_sim.manoeuvre.odds import rocket_odds

        w, h = fig.get_size_inches()
        fig.text(0.5, 1 - 0.5 / h, "Manoeuvre — Bombardment and Volley odds", ha="center",
                 va="top", fontsize=14, weight="bold")  # fmt: skip
        notes = "\n".join(
            part for line in FIRE_NOTES for part in textwrap.wrap(line, 128 if w < 8.4 else 132)
        )
        fig.text(0.6 / w, 1 - 0.95 / h, notes, va="top", fontsize=8, linespacing=1.4)
        nm, nd = len(labels), len(defenses)
        left, right, top, bottom = 1.0, 0.55, 2.75, 2.3  # inches
        ax = fig.add_axes((left / w, bottom / h, (w - left - right) / w, (h - top - bottom) / h))
        nc = 2 * nm
        ax.set_xlim(0, nc)
        ax.set_ylim(nd, 0)
        for k in range(nm):
            for hill in (0, 1):
                c = 2 * k + hill
                for j in range(nd):
                    p = hits[k, hill, j]
                    fill = str(round(0.97 - 0.62 * p, 3))  # light to dark with the chance
                    ax.add_patch(Rectangle((c, j), 1, 1, facecolor=fill, ec="white", lw=0.8))
                    txt = _pct_text(p)
                    ax.text(c + 0.5, j + 0.5, txt, ha="center", va="center", fontsize=8,
                            color=text_colour(fill), weight="bold" if p >= 0.5 else "normal")  # fmt: skip
            if k:
                ax.axvline(2 * k, color="0.1", lw=1.2)
        ax.set_xticks([c + 0.5 for c in range(nc)], ["level", "hill +2"] * nm, fontsize=7.5)
        ax.set_yticks([j + 0.5 for j in range(nd)], [str(d) for d in defenses], fontsize=8)
        ax.tick_params(length=0, labeltop=True, labelbottom=False)
        for k, lab in enumerate(labels):
            ax.annotate(lab, (2 * k + 1, 0), xycoords="data", xytext=(0, 20),
                        textcoords="offset points", ha="center", va="bottom", fontsize=10,
                        weight="bold", annotation_clip=False)  # fmt: skip
        ax.set_ylabel("defense total: the target's strength + terrain", fontsize=8.5)
        ax.set_xlabel("the firing card's dice; fired from level ground or from a hill "
                      "onto a non-hill target", fontsize=8.5)  # fmt: skip
        ax.xaxis.set_label_position("top")
        ax.xaxis.labelpad = 30
        for spine in ax.spines.values():
            spine.set_visible(False)
        r = rocket_odds()
        names = {"no_effect": "no effect", "retreat_and_hit": "retreat and a hit"}
        parts = [f"{names.get(k, k.replace('_', ' '))} {100 * v:.0f} %" for k, v in r.items()]
        fig.text(0.6 / w, 1.75 / h, "Rockets (Distant Lands 6.3)", fontsize=10, weight="bold",
                 va="bottom")  # fmt: skip
        fig.text(0.6 / w, 1.68 / h, "A d10, whatever the target: 1-4, 5-8, 9-10 give "
                 + ", ".join(parts) + ".", fontsize=8, va="top")  # fmt: skip
        stamp_chart(fig, stamp)

    return draw


def _pct_text(p: float) -> str:
    if p > 0.9995:
        return "100"
    if p < 0.0005:
        return "0"
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return f"{100 * p:.0f}"


ASSAULT_STRENGTHS = tuple(range(13))
ASSAULT_DEFENSES = tuple(range(3, 17))


def write_odds_chart(
    path: str | Path,
    *,
    mixes: Sequence[object] | None = None,
    strengths: Sequence[int] = ASSAULT_STRENGTHS,
    defenses: Sequence[int] = ASSAULT_DEFENSES,
    paper: str = "a4",
    date: _dt.date | None = None,
    fire: bool = True,
) -> int:
    """Write the odds chart PDF (one assault page per dice mix, then with ``fire`` the
    bombardment / volley page) atomically; return the page count.

    Parameters
    ----------
    path : path of the ``.pdf`` to write
    mixes : dice mixes (default: the printed attack dice 1d6 .. 2d10)
    strengths, defenses : the grid's columns and rows
    paper : ``'a4'`` or ``'letter'``
    date : the date printed in the footer (default today)
    fire : add the bombardment / volley (and rockets) page
    """
    size = PAPER_INCHES[paper]
    labels, probs = odds_grid(mixes or DEFAULT_MIXES, strengths, defenses)
    date = date or _dt.date.today()
    stamp = (
        f"manoeuvre-sim {__version__}, rules {RULES_VERSION}, exact odds, "
        f"{date.isoformat()} — print at 100% ({paper.upper() if paper == 'a4' else 'US Letter'})"
    )
    meta = {"Title": "Manoeuvre combat odds", "Creator": f"manoeuvre-sim {__version__}"}
    pages = [assault_page(label, strengths, defenses, probs[k], stamp)
             for k, label in enumerate(labels)]  # fmt: skip
    if fire:
        pages.append(fire_page(stamp=stamp))
    write_figures(path, pages, size, meta)
    return len(pages)
