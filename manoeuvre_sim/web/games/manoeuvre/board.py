"""Manoeuvre's board as SVG: the 8x8 battlefield (rule 3: four map sections of 4x4 squares)
with its terrain and the units as counters, and the key to it; every name from an army's
file escaped (``web/replay/boards.py``'s shared helpers).
"""

from __future__ import annotations

from markupsafe import Markup

from manoeuvre_sim.manoeuvre.replay.model import FILES, square_name, unit_label
from manoeuvre_sim.web.replay.boards import HIGHLIGHT, LINE, SIDE_FILL, _caption, _t, abbreviation

CELL = 56  # a Manoeuvre square, in SVG units
MARGIN = 20  # room for the file letters and rank numbers
CAPTION_LINES = 4  # under Manoeuvre's board
TERRAIN_FILL = {
    "C": "#eef0d8", "F": "#f1dc93", "H": "#cfae84", "L": "#8fc1e3", "M": "#a9c7b0",
    "T": "#c9c2c0", "W": "#77a873", "?": "#e4e4e4",
}  # fmt: skip


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
