"""Names beside a scatter chart's points, placed where they collide with nothing (the card
charts' observed-against-ablation figure names its cards with them).

A name is tried beside its point first, then farther out on rings with a thin leader line,
and kept at the first place inside the axes where its box overlaps no other name, point or
obstacle and no leader line crosses another name or point.
"""

from __future__ import annotations

import numpy as np
from matplotlib.transforms import Bbox


def _crosses(box, a, b, steps: int = 16) -> bool:
    """Whether the segment from ``a`` to ``b`` (display coordinates) runs through ``box``;
    its last sixteenth at each end (inside its own label or marker) not counted."""
    for f in np.linspace(1 / steps, 1 - 1 / steps, steps - 1):
        px, py = a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])
        if box.x0 <= px <= box.x1 and box.y0 <= py <= box.y1:
            return True
    return False


def _overlaps(box, boxes) -> bool:
    return any(box.overlaps(b) for b in boxes)


def _spots() -> list[tuple]:
    """The places to try, in order, as (dx, dy points, ha, va, leader line): beside the
    point first, then farther out on rings."""
    spots = []
    for radius in (5, 13, 22, 32, 44):
        for deg in (20, -20, 160, 200, 90, 270, 50, -50, 130, 230):
            dx, dy = radius * np.cos(np.radians(deg)), 0.7 * radius * np.sin(np.radians(deg))
            ha = "left" if dx > 1 else ("right" if dx < -1 else "center")
            va = "bottom" if dy > 1 else ("top" if dy < -1 else "center")
            spots.append((dx, dy, ha, va, radius > 5))
    return spots


def name_points(ax, renderer, x, y, names, order, labels: int, obstacles: list) -> None:
    """Name the points ``(x[i], y[i])`` (data coordinates) with ``names[i]``, in ``order``
    (point indices), until ``labels`` are placed; a point with no free place stays unnamed.
    ``obstacles``: display boxes no name may cover (notes, the legend). Measured with
    ``renderer`` at the axes' present size and place."""
    centres = ax.transData.transform(np.c_[x, y]) if len(x) else np.empty((0, 2))
    dot = 2.8 * ax.figure.dpi / 72  # half a marker, in pixels
    dots = [Bbox.from_extents(px - dot, py - dot, px + dot, py + dot) for px, py in centres]
    names_so_far = _Names(ax, renderer, obstacles)
    for i in order:
        if len(names_so_far.placed) >= labels:
            break
        others = [d for j, d in enumerate(dots) if j != i]
        names_so_far.add(names[i], (x[i], y[i]), centres[i], others)


class _Names:
    """The names placed on one axes so far, and what a new one must keep clear of."""

    def __init__(self, ax, renderer, obstacles: list) -> None:
        self.ax, self.renderer, self.obstacles = ax, renderer, obstacles
        self.frame = ax.get_window_extent(renderer)
        self.spots = _spots()
        self.placed: list = []  # label boxes
        self.lines: list = []  # leader lines as (point, label end) pairs

    def add(self, name: str, xy, centre, others: list) -> None:
        """``name`` for the point at ``xy`` (data; ``centre`` on the display) at the first
        free spot, if there is one; ``others``: the other points' boxes."""
        for spot in self.spots:
            if self._place(name, xy, centre, others, *spot):
                return

    def _place(self, name, xy, centre, others, dx, dy, ha, va, line) -> bool:
        """Put ``name`` at the spot ``dx, dy`` if it is free there; whether it was."""
        placed, obstacles = self.placed, self.obstacles
        style = dict(
            xytext=(dx, dy),
            textcoords="offset points",
            ha=ha,
            va=va,
            fontsize=6.5,
            color="0.1",
            zorder=5,
            gid="card",
        )
        t = self.ax.annotate(name, xy, **style)
        box = t.get_window_extent(self.renderer).expanded(1.02, 1.1)
        t.remove()  # measured without its leader line, which would widen the box
        frame = self.frame
        inside = frame.x0 <= box.x0 and box.x1 <= frame.x1
        inside = inside and frame.y0 <= box.y0 and box.y1 <= frame.y1
        if not inside or _overlaps(box, placed + obstacles + others):
            return False
        if any(_crosses(box, a, b) for a, b in self.lines):
            return False
        p = centre
        end = (np.clip(p[0], box.x0, box.x1), np.clip(p[1], box.y0, box.y1))
        if line and any(_crosses(b, p, end) for b in placed + others + obstacles):
            return False
        if line:
            style["arrowprops"] = dict(arrowstyle="-", color="0.45", lw=0.5, shrinkA=1, shrinkB=3)
            self.lines.append((p, end))
        self.ax.annotate(name, xy, **style)
        placed.append(box)
        return True
