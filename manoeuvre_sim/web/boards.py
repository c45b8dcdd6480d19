"""Both games' boards as SVG, drawn in Python from a replay's positions (pgx's ``save_svg``
is the model): Manoeuvre's 8x8 battlefield (rule 3: four map sections of 4x4 squares) with
its terrain and the units as counters, and Maneuver's hex map with the border between the
sides, the Capitals and the counters.

Every name from a data file (an army's unit names, a scenario's) is escaped here: the SVG is
inserted into pages as markup. Each counter carries ``data-unit``, ``data-square`` (or
``data-hex``) and ``data-step`` so a test can read the position drawn.
"""

from __future__ import annotations

import math
import textwrap
from html import escape

from markupsafe import Markup

from manoeuvre_sim.hexgame.scenario import MAXU, U_ATT0, U_ATT1, U_DEF0, U_DEF1, U_TYPE
from manoeuvre_sim.manoeuvre.replay.model import FILES, square_name, unit_label

CELL = 56  # a Manoeuvre square, in SVG units
MARGIN = 20  # room for the file letters and rank numbers
CAPTION_LINES = 4  # under Manoeuvre's board
HEX_CAPTION_LINES = 14  # beside Maneuver's map
HEX_CAPTION_WIDTH = 210
LINE = 16
TERRAIN_FILL = {
    "C": "#eef0d8", "F": "#f1dc93", "H": "#cfae84", "L": "#8fc1e3", "M": "#a9c7b0",
    "T": "#c9c2c0", "W": "#77a873", "?": "#e4e4e4",
}  # fmt: skip
SIDE_FILL = ("#2456a6", "#b3312b")  # army A / blue, army B / red
HEX_SIDE_FILL = ("#dde8f6", "#f6e0df")
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


# ------------------------------------------------------------------------------------------
# Manoeuvre
# ------------------------------------------------------------------------------------------
def manoeuvre_svg(info, board, combat=None, caption: list[str] | None = None) -> Markup:
    """The battlefield ``board`` (a :class:`~manoeuvre_sim.manoeuvre.replay.Board`) of the
    game ``info`` (:class:`~manoeuvre_sim.manoeuvre.replay.MatchInfo`): rank 8 (army B's
    edge) at the top; ``combat``: the squares to mark (``attacker_sq``, ``defender_sq``);
    ``caption``: lines written under the board (the combat's dice and result)."""
    side = 8 * CELL
    width, height = side + 2 * MARGIN, side + 2 * MARGIN + CAPTION_LINES * LINE + 12
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board manoeuvre" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'font-family="DejaVu Sans, sans-serif" role="img" aria-label="The battlefield">']  # fmt: skip
    for sq in range(64):
        x, y = MARGIN + (sq % 8) * CELL, MARGIN + (sq // 8) * CELL
        t = board.terrain[sq]
        name = info.terrain(t) if t != "?" else "not laid yet"
        out.append(f'<rect class="square" id="sq-{square_name(sq)}" x="{x}" y="{y}" '
                   f'width="{CELL}" height="{CELL}" fill="{TERRAIN_FILL.get(t, "#ddd")}" '
                   f'stroke="#9a9a86" stroke-width="0.6"><title>{square_name(sq)}: '
                   f'{_t(name)}</title></rect>')  # fmt: skip
        if t not in ("C", "?"):
            out.append(f'<text class="terrain-letter" x="{x + CELL - 5}" y="{y + CELL - 5}" '
                       f'font-size="10" text-anchor="end" fill="#4a4a3a">{_t(t)}</text>')  # fmt: skip
        if sq in board.redoubt:
            out.append(f'<rect class="redoubt" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                       f'height="{CELL - 4}" fill="none" stroke="#6b4a1f" stroke-width="4" '
                       f'stroke-dasharray="6 3"><title>redoubt</title></rect>')  # fmt: skip
    for i in range(8):
        out.append(f'<text x="{MARGIN + i * CELL + CELL / 2}" y="{MARGIN + side + 14}" '
                   f'font-size="12" text-anchor="middle">{FILES[i]}</text>')  # fmt: skip
        out.append(f'<text x="{MARGIN / 2}" y="{MARGIN + i * CELL + CELL / 2 + 4}" '
                   f'font-size="12" text-anchor="middle">{8 - i}</text>')  # fmt: skip
    if combat is not None:
        for role, sq in (("attacker", combat.attacker_sq), ("defender", combat.defender_sq)):
            if sq >= 0:
                x, y = MARGIN + (sq % 8) * CELL, MARGIN + (sq // 8) * CELL
                out.append(f'<rect class="highlight {role}" x="{x + 1.5}" y="{y + 1.5}" '
                           f'width="{CELL - 3}" height="{CELL - 3}" fill="none" '
                           f'stroke="{HIGHLIGHT[role]}" stroke-width="3"/>')  # fmt: skip
    for u, sq in enumerate(board.square):
        if sq >= 0:
            out.append(_counter(info, u, sq, board.step[u]))
    out += _caption(caption or [], 0, MARGIN + side + 22, side + MARGIN, CAPTION_LINES)
    out.append("</svg>")
    return Markup("".join(out))


def _counter(info, u: int, sq: int, step: int) -> str:
    p, unit = info.unit_of(u)
    x, y = MARGIN + (sq % 8) * CELL + 6, MARGIN + (sq // 8) * CELL + 6
    w = CELL - 12
    reduced = step == 1
    strength = unit.reduced if reduced else unit.full
    fill = SIDE_FILL[p]
    label = unit_label(u)
    state = "reduced" if reduced else "full"
    parts = [
        f'<g class="counter {state}" data-unit="{label}" data-square="{square_name(sq)}" '
        f'data-step="{step}" data-side="{p}">',
        f"<title>{label} {_t(unit.name)} ({_t(info.armies[p].name)}), {unit.type}, "
        f"{state} strength {strength}</title>",
        f'<rect x="{x}" y="{y}" width="{w}" height="{w}" rx="4" fill="{fill}" '
        f'stroke="#1b1b1b" stroke-width="1"/>',
        f'<text class="code" x="{x + 4}" y="{y + 12}" font-size="10" fill="#fff">{label}</text>',
        f'<text class="code" x="{x + w / 2}" y="{y + 25}" font-size="10" fill="#fff" '
        f'text-anchor="middle">{_t(abbreviation(unit.name))}</text>',
    ]
    if reduced:  # the reduced side: a white band with the strength in the army's colour
        parts.append(f'<rect x="{x}" y="{y + w - 15}" width="{w}" height="15" fill="#fff" '
                     f'stroke="{fill}" stroke-width="1"/>')  # fmt: skip
        parts.append(f'<text x="{x + w / 2}" y="{y + w - 3.5}" font-size="11" '
                     f'font-weight="bold" fill="{fill}" text-anchor="middle">'
                     f"{strength} r</text>")  # fmt: skip
    else:
        parts.append(f'<text x="{x + w / 2}" y="{y + w - 4}" font-size="12" '
                     f'font-weight="bold" fill="#fff" text-anchor="middle">{strength}</text>')  # fmt: skip
    parts.append("</g>")
    return "".join(parts)


def manoeuvre_legend(info, board) -> dict:
    """The key to Manoeuvre's board, from the game's own data: each counter's codes (its
    label and its name's abbreviation, :func:`abbreviation`) with the unit's name, army,
    type and strengths (the army files); each terrain letter drawn on ``board`` (the laid
    battlefield) with its name (``data/terrain.toml``); the marks."""
    counters = []
    for p, army in enumerate(info.armies):
        for u, unit in zip(info.unit_ids(p), army.units, strict=True):
            counters.append(((unit_label(u), abbreviation(unit.name)),
                             f"{unit.name} ({army.name}, army {'AB'[p]}), {unit.type}, "
                             f"strength {unit.full} full, {unit.reduced} reduced"))  # fmt: skip
    letters = sorted({t for t in board.terrain if t not in ("C", "?")})
    terrain = [(t, info.terrain(t)) for t in letters]
    marks = [
        ("number", "the unit's strength, full side"),
        ("4 r", "a white band: the unit is reduced, at its reduced strength"),
        ("no letter", f"{info.terrain('C')} terrain"),
        ("dashed frame", "a redoubt (rule 9.2)"),
        ("yellow / pink outline", "the attacker's and the defender's squares in a combat"),
    ]
    return {"counters": counters, "terrain": terrain, "marks": marks}


# ------------------------------------------------------------------------------------------
# Maneuver
# ------------------------------------------------------------------------------------------
HEX_R = 23  # a hex's circumradius
HEX_PAD = 22
_SQ3 = math.sqrt(3)


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """A hex's centre: flat-topped hexes, odd columns (counted from 0) half a hex lower, as
    the text map draws them (``hexgame/replay.py``)."""
    x = HEX_PAD + HEX_R + col * 1.5 * HEX_R
    y = HEX_PAD + _SQ3 / 2 * HEX_R * (1 + (col % 2)) + row * _SQ3 * HEX_R
    return x, y


def _corners(cx: float, cy: float, r: float = HEX_R) -> str:
    return " ".join(
        f"{cx + r * math.cos(math.radians(60 * k)):.1f},{cy + r * math.sin(math.radians(60 * k)):.1f}"
        for k in range(6)
    )


def hex_svg(packed, grid, position, combat=None, caption: list[str] | None = None) -> Markup:
    """Maneuver's map: each hex coloured by its side of the border (blue's, red's), the
    border line thick, hexes named ``CCRR``; the units of ``position`` (a
    ``hexgame.replay.Position``) as counters (type letter, attack-defence of the side
    showing), the Capitals as stars; ``combat``: the attackers' hexes and the defending hex
    marked; ``caption``: lines under the map."""
    from manoeuvre_sim.hexgame.scenario import H_SIDE

    sides = [int(x) for x in packed.hexes[:, H_SIDE]]
    map_w = HEX_PAD * 2 + HEX_R * (1.5 * grid.columns + 0.5)
    width = map_w + HEX_CAPTION_WIDTH + 4
    height = HEX_PAD * 2 + _SQ3 * HEX_R * (grid.rows + 0.5)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board hex" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
           f'font-family="DejaVu Sans, sans-serif" role="img" aria-label="The hex map">']  # fmt: skip
    for h in range(grid.n):
        c, r = grid.col_row(h)
        cx, cy = hex_centre(c, r)
        out.append(f'<polygon class="hexcell" id="hex-{grid.label(h)}" points="{_corners(cx, cy)}" '
                   f'fill="{HEX_SIDE_FILL[sides[h]]}" stroke="#a9a9a9" stroke-width="0.7">'
                   f"<title>{grid.label(h)}: {('blue', 'red')[sides[h]]}'s side</title></polygon>")  # fmt: skip
        out.append(f'<text x="{cx:.1f}" y="{cy - HEX_R * 0.62:.1f}" font-size="7.5" '
                   f'fill="#7a7a7a" text-anchor="middle">{grid.label(h)}</text>')  # fmt: skip
    out += _border(grid, sides)
    if combat is not None:
        marks = [("attacker", h) for h in combat.attackers]
        marks += [("defender", combat.defender)] if combat.defender >= 0 else []
        for role, h in marks:
            cx, cy = hex_centre(*grid.col_row(h))
            out.append(f'<polygon class="highlight {role}" points="{_corners(cx, cy, HEX_R - 2)}" '
                       f'fill="none" stroke="{HIGHLIGHT[role]}" stroke-width="3.5"/>')  # fmt: skip
    stacks: dict[int, list[int]] = {}
    for u in sorted(position.pos):
        stacks.setdefault(position.pos[u], []).append(u)
    for h, units in stacks.items():
        # a Capital is drawn last, in the stack's bottom row when units stand on it
        units.sort(key=lambda u: packed.units[u][U_TYPE] == 3)
        for k, u in enumerate(units):
            out.append(_hex_counter(packed, grid, position, u, h, k, len(units)))
    out += _caption(caption or [], map_w, HEX_PAD, HEX_CAPTION_WIDTH, HEX_CAPTION_LINES)
    out.append("</svg>")
    return Markup("".join(out))


def _border(grid, sides) -> list[str]:
    """The border line: each edge between two hexes on different sides (rule [2])."""
    out = []
    for h in range(grid.n):
        c, r = grid.col_row(h)
        cx, cy = hex_centre(c, r)
        for dc, dr in ((1, 0), (1, -1), (0, 1), (1, 1)):
            nc, nr = c + dc, r + dr
            if not grid.on_map(nc, nr):
                continue
            nx, ny = hex_centre(nc, nr)
            if abs(nx - cx) > 2 * HEX_R or math.hypot(nx - cx, ny - cy) > _SQ3 * HEX_R + 1:
                continue  # not a neighbour in this column parity
            n = grid.hex_id(nc, nr)
            if sides[n] == sides[h]:
                continue
            ang = math.atan2(ny - cy, nx - cx)
            pts = [(cx + HEX_R * math.cos(ang + s * math.pi / 6),
                    cy + HEX_R * math.sin(ang + s * math.pi / 6)) for s in (-1, 1)]  # fmt: skip
            out.append(f'<line class="border" x1="{pts[0][0]:.1f}" y1="{pts[0][1]:.1f}" '
                       f'x2="{pts[1][0]:.1f}" y2="{pts[1][1]:.1f}" stroke="#3a2a1a" '
                       f'stroke-width="4" stroke-linecap="round"/>')  # fmt: skip
    return out


STACK_W, STACK_TOP, STACK_BAND = 26, 12, 30  # a stack's counters: rows in the hex's band


def _hex_counter(packed, grid, position, u: int, h: int, k: int, n: int) -> str:
    """Counter ``u``, the ``k``-th of the ``n`` in hex ``h``: alone, a large counter (type
    letter over attack-defence) or star; in a stack, one row each of the band under the
    hex's number (``I 4-3`` on one line, the Capital a small star), so that no counter
    hides another or the number."""
    p = u // MAXU
    row = packed.units[u]
    t = int(row[U_TYPE])
    cx, cy = hex_centre(*grid.col_row(h))
    name = _t(packed.names[u])
    side = ("blue", "red")[p]
    step = position.step.get(u, 0)
    rh = (STACK_BAND - (n - 1)) / n  # a row's height in a stack
    ry = cy - STACK_TOP + k * (rh + 1)  # its top
    if t == 3:  # the Capital
        captured = position.captured[p]
        star = _star(cx, ry + rh / 2, rh / 2, rh / 4.4) if n > 1 else _star(cx, cy + 2, 13, 5.5)
        fill = "#f7f7f7" if captured else SIDE_FILL[p]
        state = "captured" if captured else "held"
        return (f'<g class="counter capital {state}" data-unit="{u}" data-hex="{grid.label(h)}" '
                f'data-step="{step}" data-side="{p}"><title>{side} {name}, {state}</title>'
                f'<polygon points="{star}" fill="{fill}" stroke="{SIDE_FILL[p]}" '
                f'stroke-width="{2 if n == 1 else 1.5}"/></g>')  # fmt: skip
    att, dfn = (row[U_ATT1], row[U_DEF1]) if step == 1 else (row[U_ATT0], row[U_DEF0])
    state = "reduced" if step == 1 else "full"
    fill = SIDE_FILL[p]
    text_fill = fill if step == 1 else "#fff"
    body = "#fff" if step == 1 else fill
    head = (f'<g class="counter {state}" data-unit="{u}" data-hex="{grid.label(h)}" '
            f'data-step="{step}" data-side="{p}"><title>{side} {name}, {state} side, '
            f"attack {att} defence {dfn}</title>")  # fmt: skip
    if n > 1:
        x, fs = cx - STACK_W / 2, min(9.0, rh - 2)
        return (head + f'<rect x="{x:.1f}" y="{ry:.1f}" width="{STACK_W}" height="{rh:.1f}" '
                f'rx="2" fill="{body}" stroke="{fill}" stroke-width="1.5"/>'
                f'<text class="code" x="{cx:.1f}" y="{ry + rh / 2 + fs * 0.36:.1f}" '
                f'font-size="{fs:.1f}" font-weight="bold" text-anchor="middle" '
                f'fill="{text_fill}">{"ICAK"[t]} {att}-{dfn}</text></g>')  # fmt: skip
    s = 30
    x, y = cx - s / 2, cy - s / 2 + 3
    return (head + f'<rect x="{x:.1f}" y="{y:.1f}" width="{s}" height="{s}" rx="3" fill="{body}" '
            f'stroke="{fill}" stroke-width="2"/>'
            f'<text class="code" x="{cx:.1f}" y="{y + 12:.1f}" font-size="10" font-weight="bold" '
            f'text-anchor="middle" fill="{text_fill}">{"ICAK"[t]}</text>'
            f'<text x="{cx:.1f}" y="{y + 25:.1f}" font-size="10" text-anchor="middle" '
            f'fill="{text_fill}">{att}-{dfn}</text></g>')  # fmt: skip


def hex_legend(packed) -> dict:
    """The key to Maneuver's map, from the scenario's own data: each type letter drawn on
    a counter (``hexgame.replay.LETTER``, the scenario's type names) with every kind of
    unit of that type per side (its names, attack-defence front and reduced, movement
    allowance); the marks (no terrain: the map has only the two sides of the border)."""
    from manoeuvre_sim.hexgame.replay import LETTER
    from manoeuvre_sim.hexgame.scenario import TYPE_NAMES, U_MA

    kinds: dict[int, dict[str, dict[str, int]]] = {}
    for u, row in enumerate(packed.units):
        t = int(row[U_TYPE])
        if t < 0 or t == 3 or not packed.names[u]:
            continue
        a0, d0, a1, d1, ma = (int(row[i]) for i in (U_ATT0, U_DEF0, U_ATT1, U_DEF1, U_MA))
        what = f"{a0}-{d0} (reduced {a1}-{d1}), MA {ma}"
        side = kinds.setdefault(t, {}).setdefault(("blue", "red")[u // MAXU], {})
        side[what] = side.get(what, 0) + 1
    counters = []
    for t in sorted(kinds):
        per_side = "; ".join(f"{side} " + ", ".join(f"{n} × {w}" for w, n in v.items())
                             for side, v in kinds[t].items())  # fmt: skip
        counters.append(((LETTER[t],), f"{TYPE_NAMES[t]}: {per_side}"))
    marks = [
        ("4-3", "attack-defence of the side showing (rule [5])"),
        ("white counter", "the unit is on its reduced side (rule [13])"),
        ("star", "the Capital (rule [11]); white when captured"),
        ("0305", "a hex's number, CCRR: column 03, row 05"),
        ("thick line", "the border between blue's side and red's (rule [2])"),
        ("stack", "several counters in one hex: one row each (rule [6] stacking)"),
        ("yellow / pink outline", "the attackers' hexes and the defending hex in a combat"),
    ]
    return {"counters": counters, "terrain": [], "marks": marks}


def _star(cx: float, cy: float, r1: float, r2: float) -> str:
    pts = []
    for k in range(10):
        r = r1 if k % 2 == 0 else r2
        a = math.radians(-90 + 36 * k)
        pts.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(pts)
