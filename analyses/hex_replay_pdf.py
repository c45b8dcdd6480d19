"""A replayed game of Maneuver as a PDF: one page per game turn, the hex map at the start of
the turn (each nation's hexes tinted, the units as their letters in their side's colour)
and the turn's events beneath; a last page with the final board.

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
from manoeuvre_sim.fileio import temp_beside  # noqa: E402
from manoeuvre_sim.hexgame.scenario import H_SIDE  # noqa: E402

PAPER_INCHES = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}
SIDE_COLOUR = ("#2f5fa7", "#b83227")
SIDE_TINT = ("#e3ecf8", "#f8e4e1")


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Centre of a flat-topped odd-q hex of radius 1 (odd columns half a hex lower)."""
    return 1.5 * col, math.sqrt(3) * (row + 0.5 * (col & 1))


def _board(ax, rep, sec, hexes) -> None:
    g = rep.grid
    patches, colours = [], []
    for h in range(g.n):
        c, r = g.col_row(h)
        patches.append(RegularPolygon(hex_centre(c, r), 6, radius=1.0, orientation=math.pi / 6))
        colours.append(SIDE_TINT[hexes[h, H_SIDE]])
    ax.add_collection(PatchCollection(patches, facecolor=colours, edgecolor="#999999", lw=0.5))
    cells = sec.board.cells()
    for h in range(g.n):
        x, y = hex_centre(*g.col_row(h))
        ax.text(x, y - 0.55, g.label(h), ha="center", va="center", fontsize=4, color="#777777")
        if h in cells:
            text = cells[h]
            side = 0 if text[0].isupper() else 1
            ax.text(x, y + 0.1, text, ha="center", va="center", fontsize=7, weight="bold",
                    color=SIDE_COLOUR[side])  # fmt: skip
    ax.set_xlim(-1.2, 1.5 * (g.columns - 1) + 1.2)
    ax.set_ylim(math.sqrt(3) * (g.rows + 0.5), -1.2)
    ax.set_aspect("equal")
    ax.axis("off")


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
                lines = sec.lines if sec.title != "end" else [rep.result]
                wrapped = [w for ln in lines for w in textwrap.wrap(ln, 110) or [""]]
                cols = [wrapped[i : i + 60] for i in range(0, min(len(wrapped), 180), 60)]
                for j, col in enumerate(cols):
                    fig.text(0.06 + 0.31 * j, 0.40, "\n".join(col), fontsize=4.6, va="top",
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
