"""The printable one-page chart of Maneuver's combat results table (rules 001, rule [8]) by
difference, in the house style of the Manoeuvre odds charts (:mod:`analyses.odds_chart`):
greyscale fills and hatches, the percentages printed, the provenance footer.

Top, a 100 % bar per difference (attack strength - defence strength) split into the five
results; below, the same chances as a table, with the two cumulative rows a player asks for.
Rendering only consumes the exact odds of :func:`manoeuvre_sim.hexgame.odds.result_table`;
nothing is simulated here. The page is a ``draw(fig)`` function, as the Manoeuvre pages
are, so a report can draw it too.
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
from manoeuvre_sim.analyses.common.chart_style import stamp_chart, text_colour  # noqa: E402
from manoeuvre_sim.analyses.common.pages import PAPER_INCHES, write_figures  # noqa: E402
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION  # noqa: E402
from manoeuvre_sim.hexgame.crt import RESULT_MEANING, RESULT_NAMES  # noqa: E402
from manoeuvre_sim.hexgame.odds import result_table  # noqa: E402

DIFFERENCES = tuple(range(-8, 9))

# (fill grey, hatch) per result AE..DE: distinct by grey level *and* hatch, as the
# Manoeuvre bands are, so the bars survive a greyscale printer; the attacker's losses
# hatched, the defender's plain, no effect white
RESULT_STYLE = (("0.2", "xx"), ("0.62", "..."), ("1.0", ""), ("0.8", ""), ("0.0", ""))

NOTES = (
    "How to read: add up the combat strengths of the attacking units and of the defending "
    "units; the column is attack minus defence. Each side then rolls one d6 and adds it "
    "(rule [8] steps 1-3), so the table is read at (attack + d6) - (defence + d6): DE at +4 or "
    "more, DR at +2 or +3, NE at 0 or +1, AR at -1 or -2, AE at -3 or less. Every chance is a "
    "whole number of the 36 rolls of the two dice (1/36 = 2.8 %).",
    "Supply (rule [9]): an unsupplied unit fights at its strength - 2, never below 0. "
    "The Capital (rule [11]): AE, AR and DR are no effect for the Capital and all units in "
    "its hex — an attack on the Capital's hex has DR as no effect, and its DE captures the "
    "Capital; units attacking from the Capital's hex ignore AE and AR (units beside them "
    "from other hexes do not). Step losses (advanced rule [13].3): AE and DE flip "
    "full-strength units instead; units on their reduced side are eliminated. A cavalry "
    "defender may withdraw before the roll when no attacker is cavalry (rule [8]).",
    "For one attack with its units, supply, the Capital and step losses: "
    "manoeuvre-sim hex odds combat --attack 4,3 --defend 5 (--json, --simulate N).",
)


def _cell(p: float) -> str:
    if p == 0.0:
        return "0"
    if p == 1.0:
        return "100"
    return f"{100 * p:.1f}"


def results_page(
    differences: Sequence[int] = DIFFERENCES, stamp: str | None = None, note: str | None = None
):
    """The results-table page as ``draw(fig)``; ``stamp``: the footer line of a stand-alone
    chart (None: the caller foots the page); ``note``: a last paragraph in place of the
    command hint (the report gives the units of the scenario its studies played)."""
    diffs = list(differences)
    probs = result_table(diffs)  # (n, 5) exact, AE..DE

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        dy = h - PAPER_INCHES["a4"][1]  # laid out on A4 from the top; Letter is shorter
        fig.text(0.5, 1 - 0.45 / h, GAME_TITLE, ha="center", va="top", fontsize=14,
                 weight="bold")  # fmt: skip
        fig.text(0.5, 1 - 0.78 / h, "Combat results by difference — the exact odds of the "
                 "Combat Results Table (rule [8])", ha="center", va="top", fontsize=11)  # fmt: skip
        _result_bars(fig, diffs, probs, dy)
        _result_legend(fig, dy)
        _result_table(fig, diffs, probs, dy)
        paragraphs = (*NOTES[:-1], note) if note else NOTES  # as tall either way (Letter)
        notes = "\n".join(part for line in paragraphs for part in textwrap.wrap(line, 138) + [""])
        fig.text(0.6 / w, (2.95 + dy) / h, notes.rstrip(), va="top", fontsize=7.2, linespacing=1.35)
        stamp_chart(fig, stamp)

    return draw


_LEFT, _RIGHT = 1.55, 0.45  # inches beside the bars and the table


def _result_bars(fig, diffs: list[int], probs, dy: float) -> None:
    """A 100 % bar per difference, split into the five results, AE at the bottom."""
    w, h = fig.get_size_inches()
    n = len(diffs)
    width = (w - _LEFT - _RIGHT) / w
    ax = fig.add_axes((_LEFT / w, (6.95 + dy) / h, width, 3.05 / h))
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(0, 1)
    for i in range(n):
        bottom = 0.0
        for r, (grey, hatch) in enumerate(RESULT_STYLE):
            p = probs[i, r]
            if p > 0:
                ax.add_patch(Rectangle((i - 0.36, bottom), 0.72, p, facecolor=grey,
                                       hatch=hatch, ec="0.45", lw=0))  # fmt: skip
            bottom += p
        ax.add_patch(Rectangle((i - 0.36, 0), 0.72, 1, fill=False, ec="0", lw=0.5))
    ax.set_xticks(range(n), [f"{d:+d}" if d else "0" for d in diffs], fontsize=8)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1], ["0 %", "25 %", "50 %", "75 %", "100 %"],
                  fontsize=7.5)  # fmt: skip
    ax.grid(axis="y", color="0.85", lw=0.5)
    ax.set_axisbelow(True)
    ax.tick_params(length=0)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("difference: attack strength - defence strength, before the dice",
                  fontsize=8.5)  # fmt: skip
    ax.set_ylabel("chance of each result", fontsize=8.5)


def _result_legend(fig, dy: float) -> None:
    """The legend in the bars' stacking order, bottom to top: AE .. DE."""
    w, h = fig.get_size_inches()
    short = ("attackers eliminated", "attackers retreat", "no effect", "defenders retreat",
             "defenders eliminated")  # fmt: skip
    for r, ((grey, hatch), name) in enumerate(zip(RESULT_STYLE, RESULT_NAMES, strict=True)):
        x = (_LEFT + (r % 3) * 2.1) / w
        y = (10.42 + dy - 0.27 * (r // 3)) / h
        fig.patches.append(Rectangle((x, y), 0.3 / w, 0.16 / h, transform=fig.transFigure,
                                     facecolor=grey, hatch=hatch, ec="0", lw=0.5))  # fmt: skip
        fig.text(x + 0.38 / w, y + 0.08 / h, f"{name}: {short[r]}", va="center",
                 fontsize=8)  # fmt: skip


def _result_table(fig, diffs: list[int], probs, dy: float) -> None:
    """The same chances as a table: the five results, then the two cumulative rows."""
    w, h = fig.get_size_inches()
    n = len(diffs)
    width = (w - _LEFT - _RIGHT) / w
    rows = [(f"{name}  {RESULT_MEANING[r]}", probs[:, r]) for r, name in enumerate(RESULT_NAMES)]
    rows.append(("DR or DE  (defenders hit)", probs[:, 3:].sum(axis=1)))
    rows.append(("AE or AR  (attackers hit)", probs[:, :2].sum(axis=1)))
    nr = len(rows)
    tab = fig.add_axes((_LEFT / w, (3.25 + dy) / h, width, 3.05 / h))
    tab.set_xlim(-0.5, n - 0.5)
    tab.set_ylim(nr, -1)
    tab.axis("off")
    for i, d in enumerate(diffs):
        tab.text(i, -0.5, f"{d:+d}" if d else "0", ha="center", va="center", fontsize=8.5,
                 weight="bold")  # fmt: skip
    for j, (label, vals) in enumerate(rows):
        y = j + 0.5
        tab.annotate("\n".join(textwrap.wrap(label, 22)), (-0.5, y), xycoords="data",
                     xytext=(-5, 0), textcoords="offset points", ha="right", va="center",
                     fontsize=7.2, annotation_clip=False)  # fmt: skip
        for i, p in enumerate(vals):
            fill = str(round(0.97 - 0.62 * float(p), 3))  # light to dark with the chance
            tab.add_patch(Rectangle((i - 0.5, j), 1, 1, facecolor=fill, ec="white", lw=0.8))
            tab.text(i, y, _cell(float(p)), ha="center", va="center", fontsize=7.2,
                     color=text_colour(fill), weight="bold" if p >= 0.5 else "normal")  # fmt: skip
    tab.axhline(5, color="0.1", lw=1.0)
    tab.annotate("chance in %, per difference", (0.5, 1.0), xycoords="axes fraction",
                 xytext=(0, 4), textcoords="offset points", ha="center", va="bottom",
                 fontsize=8, color="0.3")  # fmt: skip


def write_hex_odds_chart(
    path: str | Path,
    *,
    differences: Sequence[int] = DIFFERENCES,
    paper: str = "a4",
    date: _dt.date | None = None,
) -> int:
    """Write the one-page results-table chart PDF atomically; return its page count (1).

    Parameters
    ----------
    path : path of the ``.pdf`` to write
    differences : the columns, attack strength - defence strength (at most 21)
    paper : ``'a4'`` or ``'letter'``
    date : the date printed in the footer (default today)
    """
    size = PAPER_INCHES[paper]
    date = date or _dt.date.today()
    stamp = (
        f"manoeuvre-sim {__version__}, rules {RULES_VERSION} (Maneuver, rules 001), exact odds "
        f"(no simulation, no seed), {date.isoformat()} — print at 100% "
        f"({'A4' if paper == 'a4' else 'US Letter'})"
    )
    meta = {"Title": f"{GAME_TITLE}: combat odds", "Creator": f"manoeuvre-sim {__version__}"}
    write_figures(path, [results_page(differences, stamp)], size, meta)
    return 1
