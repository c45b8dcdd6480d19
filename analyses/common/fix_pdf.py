"""A fix study's page of the printable report (issue 40): the errata (each change before ->
after, its ``whatif --set`` line), the targets' field rates base and fixed, and the base and
fixed balance matrices side by side, on one page footed with the study's provenance; then
its summary as text pages. Read back from the directory ``studies/fix.py`` wrote (its CSV
tables, manifest and summary): nothing is recomputed, no game is played. A fix is a study
of every game, so the report lays it out here, whatever the game (``report.load_study``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.patches import Rectangle  # noqa: E402 (after pages: its backend)

from manoeuvre_sim.analyses.common.pages import (  # first: it sets matplotlib's backend
    MARGIN_L,
    MARGIN_R,
    MARGIN_T,
    Page,
    page_head,
    page_rect,
    study_head,
    text_pages,
)
from manoeuvre_sim.analyses.common.report_pdf import Section
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.studies.fix_result import rate_lines

KIND = "fix"
TABLES = ("errata", "targets", "matrix_base", "matrix_fixed", "moved", "targets_strong")
TITLE_NAMES = 3  # targets named in the title (more: counted, the page lists them)
LINE_CHARS = 112  # a line of the page's monospace text at most (longer ones wrapped)
MOVED_SHADE = "#fde8c8"
MOVED_LISTED = 16  # pairings listed on the page (the rest: moved.csv)


def _bad(path: Path, what: str) -> UsageError:
    return UsageError(f"--from {path}: {what}")


@dataclass
class FixStudy:
    """A fix's directory read back: its manifest, tables (:data:`TABLES`; a fix that found
    no errata has no matrices) and summary."""

    path: Path
    manifest: dict
    frames: dict[str, pd.DataFrame]
    summary: list[str] = field(default_factory=list)
    kind: str = KIND

    @property
    def game(self) -> str:
        return self.manifest["game"]

    @property
    def title(self) -> str:
        fx = self.manifest.get("fix") or {}
        lo, hi = fx.get("band") or (0, 1)
        t = fx.get("targets") or []
        names = ", ".join(t) if len(t) <= TITLE_NAMES else f"{len(t)} sides"
        return f"Fix — {names} into {100 * lo:.0f}-{100 * hi:.0f} %"

    @classmethod
    def load(cls, path: Path, manifest: dict) -> FixStudy:
        for key in ("version", "rules_version", "data_hash", "seed", "fix"):
            if key not in manifest:
                raise _bad(path, f"manifest.json: {key}: missing")
        if manifest.get("interrupted"):
            raise _bad(path, "an interrupted fix (it writes its errata when it ends): resume it")
        frames = {}
        for name in TABLES:
            f = path / f"{name}.csv"
            if not f.is_file():
                if name == "errata":
                    raise _bad(path, "errata.csv: missing (a fix's directory holds it)")
                continue
            try:
                frames[name] = pd.read_csv(f)
            except pd.errors.EmptyDataError:
                frames[name] = pd.DataFrame()
            except (OSError, ValueError) as e:
                raise _bad(path, f"{name}.csv: cannot read it as a CSV table ({e})") from None
        s = path / "summary.txt"
        summary = s.read_text(encoding="utf-8").rstrip("\n").splitlines() if s.is_file() else []
        return cls(path, manifest, frames, summary)

    @property
    def provenance(self) -> dict[str, str]:
        m = self.manifest
        return {"tool": f"manoeuvre-sim {m['version']}", "rules": m["rules_version"],
                "data": m["data_hash"], "seed": f"{m['seed']} (confirmation "
                f"{m.get('confirm_seed', '?')})", "games": f"{m.get('games', 0):,}"}  # fmt: skip

    def cover_items(self) -> list[tuple[str, str]]:
        from manoeuvre_sim.core.games import get_game

        m = self.manifest
        out = study_head(self.title, self.path, m, get_game(self.game).RULES_VERSION)
        out.append(("p", f"seed {m['seed']}, confirmation seed {m.get('confirm_seed')}; "
                         f"{m.get('games', 0):,} games; data hash {m['data_hash']}"))  # fmt: skip
        out.append(("p", verdict(m)))
        return out

    def section(self, paper: str) -> Section:
        pages: list[tuple[Page, dict, str | None, str]] = [
            (self.page(), self.provenance, None, "Errata and matrices")]  # fmt: skip
        for k, page in enumerate(text_pages(f"Summary — {self.title}", self.summary, paper)):
            pages.append((page, self.provenance, None, "Summary" if k == 0 else ""))
        return Section(self.title, pages)

    def page(self) -> Page:
        return lambda fig: draw_fix_page(fig, self)


def verdict(m: dict) -> str:
    """The fix's answer in a line: confirmed or not, its cost."""
    if not m.get("errata"):
        return "no errata: " + ("the base is already in the band" if m.get("base_distance") == 0
                                else "no candidate within the budget helped")  # fmt: skip
    how = "CONFIRMED on fresh seeds" if m.get("confirmed") else "NOT confirmed on fresh seeds"
    met = "" if m.get("meets") else " (the best of the frontier: none met the band)"
    return f"errata of cost {m.get('errata_cost')}, {how}{met}"


def matrix_ax(ax, matrix: pd.DataFrame, title: str, marked: set | None = None):
    """A balance matrix (rows ``side_a``, a column per side b: the row's score) as a grid of
    cells with its scores in %, the ``marked`` cells (``(side a, side b)``) shaded."""
    m = matrix.set_index("side_a")
    rows, cols = list(m.index), list(m.columns)
    ax.set_xlim(0, len(cols))
    ax.set_ylim(len(rows), 0)
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            v = m.loc[a, b]
            shade = MOVED_SHADE if marked and (a, b) in marked else "white"
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor=shade, edgecolor="0.75", lw=0.5))
            ax.text(j + 0.5, i + 0.5, "–" if pd.isna(v) else f"{100 * v:.1f}", ha="center",
                    va="center", fontsize=7, color="0.5" if pd.isna(v) else "black",
                    fontweight="bold" if marked and (a, b) in marked else "normal")  # fmt: skip
    ax.set_xticks(np.arange(len(cols)) + 0.5, cols, rotation=40, ha="right", fontsize=6.5)
    ax.set_yticks(np.arange(len(rows)) + 0.5, rows, fontsize=6.5)
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.set_title(title, fontsize=9, loc="left")
    return ax


def _lines(s: FixStudy, moved_rows: int = MOVED_LISTED) -> list[str]:
    """The page's text; of the pairings "what else moved" lists, the ones that moved first
    and ``moved_rows`` at most (the rest in moved.csv)."""
    m = s.manifest
    fx = m.get("fix") or {}
    out = [verdict(m), f"editable: {', '.join(fx.get('editable') or [])}; budget "
           f"{fx.get('budget')}; {m.get('candidates', 0)} candidates, "
           f"{m.get('search_games', 0):,} search games, "
           f"{m.get('confirm_games_played', 0):,} confirmation games", ""]  # fmt: skip
    errata = s.frames.get("errata", pd.DataFrame())
    out.append("The errata (before -> after; the line that replays it)")
    for r in errata.itertuples(index=False):
        out.append(f"  {r.side}: {r.field}: {r.before} -> {r.after}   (cost {r.cost})   "
                   f"whatif {r.whatif_set}")  # fmt: skip
    if not len(errata):
        out.append("  none")
    band = fx.get("band") or (0, 1)
    t = s.frames.get("targets")
    if t is not None and len(t):
        out += ["", "Field win rate, base -> fixed [interval simultaneous over the targets]"]
        out += rate_lines(t, band, 18)
    w = s.frames.get("targets_strong")
    if w is not None and len(w) and m.get("confirm_with"):
        ok = "CONFIRMED" if m.get("strong_confirmed") else "NOT confirmed"
        out += ["", f"Under {m['confirm_with']} ({m.get('strong_games_played', 0):,} games, "
                f"{m.get('confirm_with_games')} per pairing, the same fresh seed): {ok}"]  # fmt: skip
        out += rate_lines(w, band, 18)
    mv = s.frames.get("moved")
    if mv is not None and len(mv):
        mv = mv.sort_values("p_holm", kind="stable") if "p_holm" in mv else mv
        out += ["", "What else moved: row's score, base -> fixed, paired change [95 %], Holm p"
                + (f" ({int(mv['moved'].sum())} of {len(mv)} moved)" if "moved" in mv else "")]  # fmt: skip
        for r in mv.head(moved_rows).itertuples(index=False):
            out.append(f"  {r.side_a:>16} v {r.side_b:<16} {100 * r.base_score:5.1f} -> "
                       f"{100 * r.variant_score:5.1f}  {100 * r.change:+5.1f} "
                       f"[{100 * r.change_low:+.1f}, {100 * r.change_high:+.1f}]  "
                       f"{r.p_holm:.2g}{'  moved' if r.moved else ''}")  # fmt: skip
        if len(mv) > moved_rows:
            out.append(f"  ... {len(mv) - moved_rows} more in moved.csv")
    return [x for line in out for x in _wrap(line)]


def _wrap(line: str) -> list[str]:
    """A line of at most :data:`LINE_CHARS` (the page's width), else wrapped, indented."""
    import textwrap

    if len(line) <= LINE_CHARS:
        return [line]
    return textwrap.wrap(line, LINE_CHARS, subsequent_indent="      ", break_long_words=False)


def draw_fix_page(fig, s: FixStudy) -> None:
    """The page: its head and lines (the verdict, the errata, the targets), the base and
    fixed matrices side by side beneath (the fixed cells that moved shaded)."""
    w, h = fig.get_size_inches()
    base, fixed = s.frames.get("matrix_base"), s.frames.get("matrix_fixed")
    n = 0 if base is None else len(base)
    # two matrices, each with 1 inch of row labels left of it and 0.2 between: 2.2 inches;
    # the pairings listed are cut (moved first) until the matrices have their full size
    want = min((w - MARGIN_L - MARGIN_R - 2.2) / 2, 0.42 * n + 0.3)
    for rows in range(MOVED_LISTED, -1, -1):
        lines = _lines(s, rows)
        if h - (MARGIN_T + 0.55 + 0.25 + 0.135 * len(lines)) - 2.2 >= want or not n:
            break
    top = page_head(fig, s.title, f"{s.manifest.get('game_title', s.game)} · the errata of "
                    "least cost, confirmed on fresh seeds", lines, family="monospace",
                    fontsize=7)  # fmt: skip
    used = top + 0.25 + 0.135 * len(lines)
    if base is None or fixed is None or not len(base):
        return
    moved = s.frames.get("moved", pd.DataFrame())
    marked = ({(r.side_a, r.side_b) for r in moved.itertuples() if r.moved}
              if len(moved) and "moved" in moved else set())  # fmt: skip
    side = min(want, h - used - 2.2)
    bottom = h - used - 0.5 - side
    for k, (df, title, mark) in enumerate(((base, "Base: row's score v column, %", None),
                                           (fixed, "Fixed (moved cells shaded)", marked))):  # fmt: skip
        ax = page_rect(fig, MARGIN_L + 1.0 + k * (side + 1.2), bottom, side, side)
        matrix_ax(ax, df, title, mark)


__all__ = ["FixStudy", "draw_fix_page", "matrix_ax", "verdict"]
