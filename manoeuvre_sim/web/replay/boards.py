"""What every game's board drawing shares (pgx's ``save_svg`` is the model: a board as SVG,
drawn in Python from a replay's positions): the escaping of every name from a data file
(the SVG is inserted into pages as markup), a unit's abbreviation on its counter, the
combat's caption box, the two sides' colours and the marks of a combat's hexes or squares.
Each game draws its own board in its web module (``web/games/<game>/board.py``); each
counter carries ``data-unit``, ``data-square`` (or ``data-hex``) and ``data-step`` so a test
can read the position drawn.
"""

from __future__ import annotations

import textwrap
from html import escape

LINE = 16
SIDE_FILL = ("#2456a6", "#b3312b")  # army A / blue, army B / red
HIGHLIGHT = {"attacker": "#f2b705", "defender": "#e0115f"}


def _t(text) -> str:
    return escape(str(text), quote=True)


def abbreviation(name: str, width: int = 7) -> str:
    """A unit's name shortened to fit a counter: initials of a long name's words, else the
    name cut to ``width`` letters (``'Garde Imperial'`` -> ``'GI'``)."""
    words = name.split()
    if len(name) <= width:
        return name
    if len(words) > 1:
        return "".join(w[0] for w in words if w[0].isalnum())[:width]
    return name[: width - 1] + "."


def _caption(lines: list[str], x: float, y: float, width: float, rows: int) -> list[str]:
    """The combat's lines in a box of ``rows`` lines at (x, y), wrapped to ``width``."""
    out = [f'<g class="caption" transform="translate({x:.0f},{y:.0f})">']
    width_chars = int(width / 8.2)  # DejaVu Sans at 13 px, bold first line: ~8 px a character
    wrapped = [part for ln in lines for part in textwrap.wrap(ln, width_chars) or [""]]
    if len(wrapped) > rows:
        wrapped = [*wrapped[: rows - 1], "…"]
    if wrapped:
        out.append(f'<rect class="caption-box" x="0" y="0" width="{width:.0f}" '
                   f'height="{len(wrapped) * LINE + 8}" fill="#fff8df" stroke="#d6c48a"/>')  # fmt: skip
    for i, ln in enumerate(wrapped):
        weight = ' font-weight="bold"' if i == 0 else ""
        out.append(f'<text x="8" y="{LINE * (i + 1)}" font-size="13"{weight}>{_t(ln)}</text>')
    out.append("</g>")
    return out
