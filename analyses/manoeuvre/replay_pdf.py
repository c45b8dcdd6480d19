"""A replayed game as a PDF: one page per player turn, the board after it drawn as coloured
terrain squares with the units on them, and the turn's events listed beneath.

Rendering only consumes a :class:`manoeuvre_sim.manoeuvre.replay.Replay` through the replay's public
reader API (and its English lines); nothing is played here, nothing of the engine is read.
"""

from __future__ import annotations

import logging
import os
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.collections import PatchCollection  # noqa: E402
from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: E402

from manoeuvre_sim import __version__  # noqa: E402
from manoeuvre_sim.analyses.common.pages import PAPER_INCHES  # noqa: E402
from manoeuvre_sim.core.fileio import temp_beside  # noqa: E402
from manoeuvre_sim.manoeuvre.replay import (  # noqa: E402
    FILES,
    Replay,
    Section,
    check_turns,
    header,
    section_lines,
    selected,
    unit_label,
)

TERRAIN_COLOUR = {
    "C": "#eef0dc",
    "F": "#f2e3a0",
    "H": "#cfa970",
    "L": "#8fc1e3",
    "M": "#a9cdb9",
    "T": "#c4c4c4",
    "W": "#7fae69",
}
SIDE_COLOUR = ("#2f5fa7", "#b83227")  # army A blue, army B red
SIDE_LIGHT = ("#a9c1e6", "#eaa9a2")  # reduced units: the same hue, lighter
FONT_LINES = 7.0


def _board(ax, replay: Replay, sec: Section) -> None:
    info, bd = replay.info, sec.board
    ax.set_xlim(0, 8)
    ax.set_ylim(8, 0)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(8)], list(FILES), fontsize=9)
    ax.set_yticks([r + 0.5 for r in range(8)], [str(8 - r) for r in range(8)], fontsize=9)
    ax.tick_params(length=0, labeltop=True, labelright=True)
    squares = [Rectangle((sq % 8, sq // 8), 1, 1) for sq in range(64)]
    colours = [TERRAIN_COLOUR.get(bd.terrain[sq], "white") for sq in range(64)]
    ax.add_collection(PatchCollection(squares, facecolors=colours, edgecolors="0.45", lw=0.5))
    boxes, fills, edges, styles, frames = [], [], [], [], []
    for sq in range(64):
        r, c = divmod(sq, 8)
        t = bd.terrain[sq]
        if t != "C":
            ax.text(c + 0.06, r + 0.16, t, fontsize=7, color="0.25", va="center")
        if sq in bd.redoubt:
            frames.append(Rectangle((c + 0.04, r + 0.04), 0.92, 0.92))
            ax.text(c + 0.94, r + 0.16, "R", fontsize=7, weight="bold", ha="right", va="center")
        u = bd.occ[sq]
        if u < 0:
            continue
        p, unit = info.unit_of(u)
        full = bd.step[u] == 2
        boxes.append(Rectangle((c + 0.1, r + 0.24), 0.8, 0.68))
        fills.append(SIDE_COLOUR[p] if full else SIDE_LIGHT[p])
        edges.append(SIDE_COLOUR[p])
        styles.append("solid" if full else "dashed")
        txt = "white" if full else "0"
        strength = unit.full if full else unit.reduced
        kind = "cav" if unit.is_cavalry else "inf"
        ax.text(c + 0.5, r + 0.4, unit_label(u), ha="center", va="center", fontsize=10,
                weight="bold", color=txt)  # fmt: skip
        name = "\n".join(textwrap.wrap(unit.name, 15, max_lines=2, placeholder="."))
        ax.text(c + 0.5, r + 0.71, f"{name}\n{kind} {strength}{'' if full else ' reduced'}",
                ha="center", va="center", fontsize=4.6, color=txt, linespacing=1.15)  # fmt: skip
    if frames:
        ax.add_collection(PatchCollection(frames, facecolors="none", edgecolors="0", lw=2.2))
    if boxes:
        ax.add_collection(
            PatchCollection(
                boxes, facecolors=fills, edgecolors=edges, linestyles=styles, lw=1.2, zorder=2
            )
        )
    # this turn's moves, retreats and advances as arrows
    for mv in sec.moves:
        y0, x0 = divmod(mv.fr, 8)
        y1, x1 = divmod(mv.to, 8)
        colour = SIDE_COLOUR[mv.side]
        ax.add_patch(
            FancyArrowPatch(
                (x0 + 0.5, y0 + 0.5),
                (x1 + 0.5, y1 + 0.5),
                arrowstyle="-|>",
                mutation_scale=9,
                lw=1.3,
                color=colour,
                ls="-" if mv.kind == "move" else ":",
                alpha=0.85,
                shrinkA=13,  # points: from the edge of one unit box to the next
                shrinkB=13,
                zorder=2.5,
            )
        )


def _legend(fig, replay: Replay, y: float) -> None:
    info = replay.info
    x = 0.08
    for letter, colour in TERRAIN_COLOUR.items():
        box = Rectangle((x, y), 0.022, 0.012, transform=fig.transFigure, facecolor=colour)
        box.set(edgecolor="0.45", linewidth=0.5)
        fig.patches.append(box)
        fig.text(x + 0.027, y + 0.006, info.terrain(letter), fontsize=6.5, va="center")
        x += 0.105
    note = (
        f"A = {info.armies[0].name} (blue, sets up on ranks 1-2), B = {info.armies[1].name} "
        "(red, ranks 7-8). Solid: full strength; light, dashed: reduced. Thick frame, R: "
        "redoubt. Arrows: this turn's moves (solid), retreats and advances (dotted)."
    )
    fig.text(0.08, y - 0.012, "\n".join(textwrap.wrap(note, 150)), fontsize=6.5, va="top")


def _lines_block(fig, lines: list[str], top: float, bottom: float, width_in: float) -> None:
    """The turn's events in one or two columns, shrinking the font to fit."""
    height_pt = (top - bottom) * fig.get_figheight() * 72
    for size in (FONT_LINES, 6.2, 5.5, 5.0):
        line_pt = size * 1.3
        per_col = max(1, int(height_pt // line_pt))
        for cols in (1, 2):
            chars = int((width_in / cols) * 72 / (size * 0.46)) - 3
            wrapped = []
            for ln in lines:
                wrapped += textwrap.wrap(ln, chars, subsequent_indent="    ") or [""]
            if len(wrapped) <= per_col * cols:
                break
        if len(wrapped) <= per_col * cols:
            break
    else:
        keep = per_col * cols - 1
        wrapped = wrapped[:keep] + [f"... {len(wrapped) - keep} more lines: see the text replay"]
    for k in range(cols):
        chunk = wrapped[k * per_col : (k + 1) * per_col]
        fig.text(0.08 + k * (0.84 / cols), top, "\n".join(chunk), fontsize=size, va="top",
                 linespacing=1.3)  # fmt: skip


def _page(pdf: PdfPages, size, replay: Replay, sec: Section, k: int, n: int) -> None:
    fig = plt.figure(figsize=size)
    head = header(replay)
    fig.text(0.5, 0.965, head[0], ha="center", fontsize=13, weight="bold")
    # the settings line grows with the set-up and the game options: wrapped, not cut off
    settings = textwrap.wrap(head[1], 140)
    fig.text(0.5, 0.957, "\n".join(settings), ha="center", va="top", fontsize=8,
             linespacing=1.2)  # fmt: skip
    fig.text(0.5, 0.936 - 0.0125 * (len(settings) - 1),
             "\n".join(textwrap.wrap(head[2], 130)), ha="center", va="top", fontsize=7.5,
             color="0.25")  # fmt: skip
    fig.text(0.08, 0.9, sec.title, fontsize=11.5, weight="bold")
    fig.text(0.92, 0.9, f"page {k} of {n}", fontsize=7.5, ha="right", color="0.3")
    w, h = size
    side = 0.66 * w  # the board is square: its height as a fraction of the page
    ax = fig.add_axes([0.17, 0.87 - side / h, 0.66, side / h])
    _board(ax, replay, sec)
    legend_y = 0.87 - side / h - 0.035
    _legend(fig, replay, legend_y)
    _lines_block(fig, section_lines(replay, sec), legend_y - 0.04, 0.045, 0.84 * w)
    fig.text(0.08, 0.022, f"manoeuvre-sim {__version__} replay", fontsize=6, color="0.4")
    pdf.savefig(fig)
    plt.close(fig)


def _fonts(replay: Replay, sections: list[Section]) -> dict:
    """The PDF's 14 standard fonts when every text is Latin-1 (twice as fast, a third of the
    size: nothing to embed), else matplotlib's embedded default font."""
    texts = header(replay) + [ln for sec in sections for ln in section_lines(replay, sec)]
    for army in replay.info.armies:
        texts += [u.name for u in army.units]
    try:
        "".join(texts).encode("latin-1")
    except UnicodeEncodeError:
        return {}
    return {
        "pdf.use14corefonts": True,
        "font.family": "sans-serif",
        "font.sans-serif": ["Helvetica"],
    }


def write_replay_pdf(
    path: str | Path,
    replay: Replay,
    *,
    turns: tuple[int, int] | None = None,
    paper: str = "a4",
) -> int:
    """Write one page per player turn (within game turns ``turns``, all when None) to
    ``path`` atomically; return the page count."""
    check_turns(replay, turns)
    sections = selected(replay, turns)
    size = PAPER_INCHES[paper]
    path = Path(path)
    tmp = temp_beside(path)
    info = replay.info
    meta = {
        "Title": f"Manoeuvre replay: {info.armies[0].name} vs {info.armies[1].name}, "
        f"seed {info.seed} game {info.game}",
        "Creator": f"manoeuvre-sim {__version__}",
    }
    # the standard fonts come in weight "medium" only: findfont would warn on every page
    fm_log = logging.getLogger("matplotlib.font_manager")
    level = fm_log.level
    fm_log.setLevel(logging.ERROR)
    try:
        with matplotlib.rc_context(_fonts(replay, sections)), PdfPages(tmp, metadata=meta) as pdf:
            for k, sec in enumerate(sections, 1):
                _page(pdf, size, replay, sec, k, len(sections))
        os.replace(tmp, path)  # never leave a half-written PDF behind
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        fm_log.setLevel(level)
    return len(sections)
