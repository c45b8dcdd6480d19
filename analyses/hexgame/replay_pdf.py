"""A replayed game of Maneuver as a PDF: one page per game turn, the hex map at the start of
the turn (each nation's hexes tinted, the units as their letters in their side's colour,
the columns' and rows' numbers around it, a key to the letters under it) and the turn's
events beneath; a last page with the final board.

It only reads a :class:`manoeuvre_sim.hexgame.replay.GameReplay`; nothing is played here.
"""

from __future__ import annotations

import math
import os
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.collections import PatchCollection  # noqa: E402
from matplotlib.patches import RegularPolygon  # noqa: E402

from manoeuvre_sim import __version__  # noqa: E402
from manoeuvre_sim.core.fileio import temp_beside  # noqa: E402
from manoeuvre_sim.hexgame.scenario import H_SIDE  # noqa: E402

PAPER_INCHES = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}
SIDE_COLOUR = ("#2f5fa7", "#b83227")
SIDE_TINT = ("#e3ecf8", "#f8e4e1")


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Centre of a flat-topped odd-q hex of radius 1 (odd columns half a hex lower)."""
    return 1.5 * col, math.sqrt(3) * (row + 0.5 * (col & 1))


def nation_hexes(ax, grid, hexes, edgecolor: str, lw: float) -> None:
    """Every hex of ``grid`` on ``ax``, tinted by the nation it lies in (``SIDE_TINT``; the
    scenario's ``hexes`` table gives each hex's side)."""
    cells = [grid.col_row(h) for h in range(grid.n)]
    patches = [RegularPolygon(hex_centre(c, r), 6, radius=1.0, orientation=math.pi / 6)
               for c, r in cells]  # fmt: skip
    colours = [SIDE_TINT[hexes[h, H_SIDE]] for h in range(grid.n)]
    ax.add_collection(PatchCollection(patches, facecolor=colours, edgecolor=edgecolor, lw=lw))


def _board(ax, rep, sec, hexes) -> None:
    g = rep.grid
    nation_hexes(ax, g, hexes, "#999999", 0.5)
    cells = sec.board.cells()
    for h in range(g.n):
        x, y = hex_centre(*g.col_row(h))
        ax.text(x, y - 0.55, g.label(h), ha="center", va="center", fontsize=4, color="#777777")
        if h in cells:
            text = cells[h]
            side = 0 if text[0].isupper() else 1
            ax.text(x, y + 0.1, text, ha="center", va="center", fontsize=7, weight="bold",
                    color=SIDE_COLOUR[side])  # fmt: skip
    # coordinates: a hex is named CCRR, its column's number over the map, its row's at the left
    for c in range(g.columns):
        x, y = hex_centre(c, 0)
        ax.text(x, y - 1.45, f"{c + 1:02d}", ha="center", va="center", fontsize=6, color="#333333")
    for r in range(g.rows):
        x, y = hex_centre(0, r)
        ax.text(x - 1.45, y, f"{r + 1:02d}", ha="center", va="center", fontsize=6, color="#333333")
    ax.set_xlim(-2.2, 1.5 * (g.columns - 1) + 1.2)
    ax.set_ylim(math.sqrt(3) * (g.rows + 0.5), -2.2)
    ax.set_aspect("equal")
    ax.axis("off")


LEGEND = (
    "Key: K Capital (X captured), I infantry, C cavalry, A artillery; UPPER CASE blue, lower "
    "case red; * on its reduced side. Hexes are named CCRR: column (over the map), row (at "
    "the left)."
)


def _legend(fig) -> None:
    """The key to the map, under it: the letters, the cases, the sides' colours."""
    fig.text(0.06, 0.415, LEGEND, fontsize=5.5, va="center")
    for i, (name, tint) in enumerate(zip(("blue's side", "red's side"), SIDE_TINT, strict=True)):
        x = 0.06 + 0.14 * i
        fig.patches.append(plt.Rectangle((x, 0.398), 0.012, 0.008, transform=fig.transFigure,
                                         facecolor=tint, edgecolor="#999999", lw=0.5))  # fmt: skip
        fig.text(x + 0.016, 0.402, name, fontsize=5.5, va="center", color=SIDE_COLOUR[i])


def write_hex_replay_pdf(path: str | Path, rep, hexes, paper: str = "a4") -> int:
    """Write the PDF atomically; returns its number of pages."""
    path = Path(path)
    size = PAPER_INCHES[paper]
    boards = [s for s in rep.sections if s.board is not None]
    tmp = temp_beside(path)
    meta = {"Title": rep.header[0], "Creator": f"manoeuvre-sim {__version__}"}
    try:
        with PdfPages(tmp, metadata=meta) as pdf:
            for k, sec in enumerate(boards):
                fig = plt.figure(figsize=size)
                fig.text(0.06, 0.97, rep.header[0], fontsize=10, weight="bold", va="top")
                fig.text(0.06, 0.95, "\n".join(rep.header[1:]), fontsize=6.5, va="top")
                fig.text(0.94, 0.97, f"{sec.title} ({k + 1}/{len(boards)})", ha="right",
                         va="top", fontsize=10)  # fmt: skip
                ax = fig.add_axes((0.05, 0.42, 0.9, 0.5))
                _board(ax, rep, sec, hexes)
                _legend(fig)
                lines = sec.lines if sec.title != "end" else [rep.result]
                wrapped = [w for ln in lines for w in textwrap.wrap(ln, 110) or [""]]
                cols = [wrapped[i : i + 60] for i in range(0, min(len(wrapped), 180), 60)]
                for j, col in enumerate(cols):
                    fig.text(0.06 + 0.31 * j, 0.385, "\n".join(col), fontsize=4.6, va="top",
                             family="monospace")  # fmt: skip
                if len(wrapped) > 180:
                    fig.text(0.06, 0.02, f"(+{len(wrapped) - 180} more lines: see the text replay)",
                             fontsize=6)  # fmt: skip
                pdf.savefig(fig)
                plt.close(fig)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(boards)
