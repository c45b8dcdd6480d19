"""The printable pages of Maneuver's set-up study (``hex_setup.pdf``): the hex map coloured by
the first player's win rate over the hex the first player's Capital stood on, the same for
the second player's Capital, then the summary; every page footed with the provenance
through :mod:`analyses.common.pages`. The map is drawn as ``hex_replay_pdf`` draws it (flat-topped,
odd-q, its ``hex_centre``); nothing is computed here beyond laying the rows out.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.patches import RegularPolygon  # noqa: E402

from manoeuvre_sim.analyses.common.chart_style import WIN_RATE_CMAP, text_colour  # noqa: E402
from manoeuvre_sim.analyses.common.pages import (  # noqa: E402
    MARGIN_L,
    page_head,
    page_rect,
)
from manoeuvre_sim.analyses.hexgame.replay_pdf import hex_centre, nation_hexes  # noqa: E402
from manoeuvre_sim.analyses.hexgame.study_footer import write_hex_pdf  # noqa: E402

HOW_TO_READ = (
    "Each hex on which rule [3] lets a Capital stand is coloured by the first player's win rate "
    "in the games where {whose} Capital stood there: {warm} above the overall rate "
    "({overall}), {cool} below, grey at it (the scale spans the largest departure of a hex with enough games). The number is the games; hexes with fewer than "
    "{few} games are hatched (their rate is shown but barely measured); a blank legal hex was "
    "never chosen. The thick line is the border; pale blue and red are the two nations."
)


def capital_map(table, ax, who: str, grid, hexes, overall: float, few: int) -> object:
    """The map of ``who`` (``first``/``second``)'s Capital hexes on ``ax``; returns the
    ScalarMappable for a colour bar."""

    t = table[table["capital"] == who].set_index("hex")
    seen = t[t["games"] >= few]["first_win_rate"]
    span = max(0.05, float((seen - overall).abs().max()) if len(seen) else 0.05)
    norm = TwoSlopeNorm(vcenter=overall, vmin=max(0.0, overall - span) - 1e-9,
                        vmax=min(1.0, overall + span) + 1e-9)  # fmt: skip
    nation_hexes(ax, grid, hexes, "#bbbbbb", 0.4)
    for h in range(grid.n):
        lab = grid.label(h)
        x, y = hex_centre(*grid.col_row(h))
        if lab not in t.index:
            ax.text(x, y - 0.58, lab, ha="center", va="center", fontsize=4.2, color="#888888")
            continue
        row = t.loc[lab]
        n = int(row["games"])
        colour = WIN_RATE_CMAP(norm(row["first_win_rate"])) if n else "white"
        poly = RegularPolygon((x, y), 6, radius=0.92, orientation=math.pi / 6, facecolor=colour,
                              edgecolor="0.2", lw=0.8, hatch="////" if 0 < n < few else None)  # fmt: skip
        ax.add_patch(poly)
        ink = text_colour(colour)
        ax.text(x, y - 0.5, lab, ha="center", va="center", fontsize=4.2, color=ink, alpha=0.8)
        if n:
            ax.text(x, y - 0.02, f"{n:,}", ha="center", va="center", fontsize=6.5,
                    weight="bold", color=ink)  # fmt: skip
            ax.text(x, y + 0.4, f"{100 * row['first_win_rate']:.0f}%", ha="center",
                    va="center", fontsize=5, color=ink)  # fmt: skip
    ax.add_collection(LineCollection(border_segments(grid, hexes), colors="black", lw=2.2))
    ax.set_xlim(-1.2, 1.5 * (grid.columns - 1) + 1.2)
    ax.set_ylim(math.sqrt(3) * (grid.rows + 0.5), -1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    return matplotlib.cm.ScalarMappable(norm=norm, cmap=WIN_RATE_CMAP)


def border_segments(grid, hexes) -> list:
    """The edges between hexes of different nations (the border line)."""
    from manoeuvre_sim.hexgame.scenario import H_SIDE

    nb = grid.neighbours()
    segs = []
    for h in range(grid.n):
        for k in nb[h]:
            if k > h and hexes[h, H_SIDE] != hexes[k, H_SIDE]:
                p = np.array(hex_centre(*grid.col_row(h)))
                q = np.array(hex_centre(*grid.col_row(int(k))))
                m, d = (p + q) / 2, (q - p) / np.linalg.norm(q - p)
                u = np.array([-d[1], d[0]]) * 0.5  # the shared side is 1 long
                segs.append([m - u, m + u])
    return segs


def map_page(table, manifest: dict, who: str, grid, hexes):
    """The map of ``who``'s Capital hexes from the study's table (``capital_hexes``) and
    manifest (its overall rates, concentration and few-games threshold)."""
    overall = manifest["overall"]
    rate = overall["first_win_rate"]
    c = manifest["concentration"].get(who, {})
    few = manifest["few_games"]
    sub = (f"{overall['games']:,} games; the first player wins {100 * rate:.1f} % "
           f"overall; chosen on {c.get('hexes_chosen', 0)} of {c.get('legal_hexes', 0)} "
           "legal hexes")  # fmt: skip

    def draw(fig) -> None:
        w, h = fig.get_size_inches()
        text = HOW_TO_READ.format(whose=f"the {who} player's", warm="blue", cool="orange",
                                  overall=f"{100 * rate:.1f} %", few=few)  # fmt: skip
        top = page_head(fig, f"Where the {who} player's Capital stood", sub,
                        textwrap.wrap(text, 120), color="0.2", linespacing=None)  # fmt: skip
        ax = page_rect(fig, MARGIN_L, 1.3, w - MARGIN_L - 1.4, h - top - 2.1)
        sm = capital_map(table, ax, who, grid, hexes, rate, few)
        cax = page_rect(fig, w - 1.1, 2.5, 0.18, h - top - 4.5)
        cb = fig.colorbar(sm, cax=cax)
        cb.set_label("first player's win rate", fontsize=8)
        cb.ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
        cb.ax.tick_params(labelsize=7)

    return draw


def setup_pages(table, manifest: dict, scenario) -> list[tuple[object, str]]:
    """The two map pages, (draw, heading) each, on ``scenario`` (the one the study played,
    its border from the manifest's variant)."""
    from manoeuvre_sim.hexgame.scenario import hex_table

    hexes = hex_table(scenario, manifest["variant"]["border"])
    return [
        (
            map_page(table, manifest, w, scenario.grid, hexes),
            f"Where the {w} player's Capital stood",
        )
        for w in ("first", "second")
    ]


def setup_provenance(manifest: dict) -> dict[str, str]:
    """The footer of the study's pages (the variant study's, with its games)."""
    from manoeuvre_sim.analyses.hexgame.balance_pdf import provenance

    m = dict(manifest)
    m.setdefault("games_per_pairing_reached", {"min": m["games"], "max": m["games"]})
    return provenance(m)


def write_setup_pdf(path: str | Path, res, *, paper: str = "a4") -> Path:
    """Write ``hex_setup.pdf`` atomically: the two maps and the summary."""
    pages = [(d, None) for d, _ in setup_pages(res.hexes, res.manifest, res.spec.load_scenario())]
    return write_hex_pdf(path, pages, setup_provenance(res.manifest), paper,
                         "where the Capital stands", res.summary())  # fmt: skip
