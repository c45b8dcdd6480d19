"""Maneuver's map as SVG: the hexes coloured by their side of the border, the border line,
the Capitals as stars and the units as counters, and the key to it; every name from a
scenario's file escaped (``web/replay/boards.py``'s shared helpers).
"""

from __future__ import annotations

import math

from markupsafe import Markup

from manoeuvre_sim.hexgame.scenario import MAXU, U_ATT0, U_ATT1, U_DEF0, U_DEF1, U_TYPE
from manoeuvre_sim.web.replay.boards import HIGHLIGHT, SIDE_FILL, _caption, _t

HEX_CAPTION_LINES = 14  # beside Maneuver's map
HEX_CAPTION_WIDTH = 210
HEX_SIDE_FILL = ("#dde8f6", "#f6e0df")
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
