"""Printable assault odds charts: one PDF page per attack dice mix, readable in greyscale.

Each page is a grid — columns the attacker's base (strength + hill + leader + supports),
rows the defense total — and each cell holds the chance that the attack beats the defense
(``A > D``, in per cent) above a 100% bar split into the six exclusive result bands of the
Assault/Ambush Results Table (rule 6.1 step 7). Rendering only consumes the exact odds of
:func:`manoeuvre_sim.odds.odds_grid`; nothing is simulated here.
"""

from __future__ import annotations

import datetime as _dt
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from manoeuvre_sim import RULES_VERSION, __version__  # noqa: E402
from manoeuvre_sim.fileio import temp_beside  # noqa: E402
from manoeuvre_sim.odds import DEFAULT_MIXES, odds_grid  # noqa: E402

PAPER_INCHES = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}

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


def _page(pdf: PdfPages, size, label, strengths, defenses, probs, stamp: str) -> None:
    fig = plt.figure(figsize=size)
    w, h = size
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
            p = probs[i, j]
            x0, y0 = i, j
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
                    Rectangle(
                        (left, y0 + 0.58), wdt, 0.3, facecolor=grey, hatch=hatch, lw=0, ec="0.5"
                    )
                )
                left += wdt
            ax.add_patch(Rectangle((x0 + 0.08, y0 + 0.58), 0.84, 0.3, fill=False, lw=0.4, ec="0"))
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
    # legend
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
    fig.text(0.09, 0.075, "\n".join(textwrap.wrap(RULE_REFS, 150)), fontsize=6.5, va="top")
    fig.text(0.09, 0.035, stamp, fontsize=6.5, color="0.3")
    fig.text(0.96, 0.035, f"{w:.2f} x {h:.2f} in", fontsize=6.5, color="0.3", ha="right")
    pdf.savefig(fig)
    plt.close(fig)


def write_odds_chart(
    path: str | Path,
    *,
    mixes: Sequence[object] | None = None,
    strengths: Sequence[int] = tuple(range(13)),
    defenses: Sequence[int] = tuple(range(3, 17)),
    paper: str = "a4",
    date: _dt.date | None = None,
) -> int:
    """Write the odds chart PDF (one page per dice mix) atomically; return the page count.

    Parameters
    ----------
    path : path of the ``.pdf`` to write
    mixes : dice mixes (default: the printed attack dice 1d6 .. 2d10)
    strengths, defenses : the grid's columns and rows
    paper : ``'a4'`` or ``'letter'``
    date : the date printed in the footer (default today)
    """
    size = PAPER_INCHES[paper]
    labels, probs = odds_grid(mixes or DEFAULT_MIXES, strengths, defenses)
    date = date or _dt.date.today()
    stamp = (
        f"manoeuvre-sim {__version__}, rules {RULES_VERSION}, exact odds, "
        f"{date.isoformat()} — print at 100% ({paper.upper() if paper == 'a4' else 'US Letter'})"
    )
    path = Path(path)
    tmp = temp_beside(path)
    meta = {"Title": "Manoeuvre assault odds", "Creator": f"manoeuvre-sim {__version__}"}
    try:
        with PdfPages(tmp, metadata=meta) as pdf:
            for k, label in enumerate(labels):
                _page(pdf, size, label, strengths, defenses, probs[k], stamp)
        os.replace(tmp, path)  # never leave a half-written PDF behind
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(labels)
