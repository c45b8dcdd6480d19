"""A study's tables as the pages show them: each rate beside its 95 % interval and its
games, sortable in the browser, every value from the study's CSV as written.

:func:`table_view` turns a table into columns and rows for ``study_macros.html``; a rate
and its interval columns (``x`` with ``x_ci_low``/``x_ci_high``, ``x_low``/``x_high``,
``win_rate_s`` with ``ci_low_s``/``ci_high_s``, ``y_win_rate`` with ``y_low``/``y_high``)
become one column, its cells sorting by the rate.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pandas as pd

from manoeuvre_sim.web.studies.charts import clean

MAX_ROWS = 1000  # rows of one table drawn on a page (the CSV download has them all)
# columns holding fractions (shown in %): rates, shares, their differences
PERCENT = re.compile(
    r"(rate|share|delta|change|advantage|^value$|^iwd$|^piw$|^oiwd$|^score$|^draws$|"
    r"attrition|nightfall|turn_limit|^draw$|^win_|^loss_|^tb_|^use_|ci_low|ci_high)"
)
COUNTS = {"draws", "draw", "wins", "losses"}  # names of counts in one table, shares in another
PLAIN = {"seed", "game", "pairing", "first_game", "k", "card_no"}
NOT_PERCENT = re.compile(r"(rating|rank|turns|games|count|^k$|elo)")
SHARES = {"changed_games"}  # a what-if's share of games whose winner changed, not a count


@dataclass
class Column:
    key: str
    label: str
    numeric: bool
    percent: bool
    low: str | None = None
    high: str | None = None
    places: int | None = None  # decimals of every value of a column of fractional numbers


@dataclass
class TableView:
    name: str
    title: str
    columns: list[Column]
    rows: list[list[tuple[str, object, str]]]  # (shown text, sort key, interval) per cell
    total: int
    note: str = ""
    hrefs: list[str | None] = field(default_factory=list)  # a link per row (or None)
    link: int = 0  # the column whose cells carry the row's link
    sorted: tuple[int, str] | None = None  # (column, "asc" or "desc"): the rows' order
    collapsed: bool = False  # drawn folded (a long table a chart above sums up)


def _interval_of(col: str, cols: set[str]) -> tuple[str, str] | None:
    candidates = [(f"{col}_ci_low", f"{col}_ci_high"), (f"{col}_low", f"{col}_high")]
    m = re.fullmatch(r"win_rate(_\w+)?", col)
    if m:
        s = m.group(1) or ""
        candidates.append((f"ci_low{s}", f"ci_high{s}"))
    m = re.fullmatch(r"(\w+)_win_rate", col)
    if m:
        candidates.append((f"{m.group(1)}_low", f"{m.group(1)}_high"))
        candidates.append(("ci_low", "ci_high"))  # armies.csv: field_win_rate, ci_low, ...
    for lo, hi in candidates:
        if lo in cols and hi in cols:
            return lo, hi
    return None


def is_percent(col: str) -> bool:
    return col in SHARES or (bool(PERCENT.search(col)) and not NOT_PERCENT.search(col))


def _num(x, percent: bool, plain: bool = False, places: int | None = None) -> str:
    if x is None:
        return ""
    if plain:  # a number that names something (a seed, a game): no separators
        return str(x)
    if percent:
        return f"{100 * x:.1f}%"
    if places is not None:
        return f"{x:,.{places}f}"
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e15):
        return f"{int(x):,}"
    return f"{x:.4g}"


def places_of(values) -> int | None:
    """The decimals one column of numbers is written with, the same for every row: enough
    for three significant figures of its largest value (at most 3), none for a column of
    whole numbers (``None``: each as it is)."""
    xs = [v for v in (clean(x) for x in values) if isinstance(v, int | float)]
    if not xs or all(float(x).is_integer() for x in xs):
        return None
    big = max(abs(x) for x in xs)
    return min(3, max(0, 2 - math.floor(math.log10(big)))) if big > 0 else 1


def interval_text(lo, hi, percent: bool = True, places: int | None = None) -> str:
    """``[a, b]`` of an interval (in % when ``percent``, else with ``places`` decimals or
    four significant figures), blank when it is not defined."""
    lo, hi = clean(lo), clean(hi)
    if lo is None or hi is None:
        return ""
    if percent:
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    if places is not None:
        return f"[{lo:,.{places}f}, {hi:,.{places}f}]"
    return f"[{lo:.4g}, {hi:.4g}]"


def columns_of(df: pd.DataFrame) -> list[Column]:
    """The shown columns of ``df``: each interval folded into its rate's column."""
    cols = set(df.columns)
    used: set[str] = set()
    out = []
    for c in df.columns:
        pair = _interval_of(c, cols)
        if pair:
            used.update(pair)
    for c in df.columns:
        if c in used:
            continue
        numeric = pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
        pair = _interval_of(c, cols)
        label = c.replace("_", " ") + (" [95% interval]" if pair else "")
        # a fraction's column never holds a value beyond 1 (matrix.csv's draws: a count)
        # (an integer column is a count, unless it is a rate that happened to be whole)
        whole = pd.api.types.is_integer_dtype(df[c])
        percent = (numeric and is_percent(c) and not (whole and c in COUNTS)
                   and bool(df[c].dropna().abs().le(1).all()))  # fmt: skip
        places = None
        if numeric and not percent and c not in PLAIN:
            places = places_of([*df[c], *(df[pair[0]] if pair else ()),
                                *(df[pair[1]] if pair else ())])  # fmt: skip
        out.append(Column(c, label, numeric, percent, *(pair or (None, None)), places))
    return out


def _cell(row: dict, col: Column) -> tuple[str, object, str]:
    """A cell's (value's text, sort key, interval's text: blank when it has none)."""
    v = clean(row[col.key])
    if isinstance(v, bool):  # a flag in words, not Python's True/False
        return ("yes" if v else "no"), int(v), ""
    if not col.numeric:
        return ("" if v is None else str(v)), ("" if v is None else str(v)), ""
    text = _num(v, col.percent, col.key in PLAIN, col.places)
    ci = interval_text(row[col.low], row[col.high], col.percent, col.places) if col.low else ""
    key = v if v is not None and not (isinstance(v, float) and math.isnan(v)) else ""
    return text, key, ci


def table_view(
    df: pd.DataFrame,
    name: str,
    title: str,
    *,
    hrefs=None,
    note: str = "",
    link: str | None = None,
    sorted_by: tuple[str, str] | None = None,
    collapsed: bool = False,
) -> TableView:
    """``df`` (a study's table ``name``) as a page shows it, its first :data:`MAX_ROWS`
    rows; ``hrefs``: a link per row of ``df``, carried by the cells of column ``link``
    (default: the first); ``sorted_by``: (column, ``"asc"`` or ``"desc"``) when ``df``'s
    rows come in that column's order (its head shows the arrow); ``collapsed``: drawn folded."""
    cols = columns_of(df)
    shown = df.head(MAX_ROWS)
    rows = []
    for rec in shown.to_dict("records"):
        rows.append([_cell(rec, c) for c in cols])
    if len(df) > MAX_ROWS:
        note = (note + " " if note else "") + (
            f"The first {MAX_ROWS:,} of {len(df):,} rows; the CSV has them all."
        )
    links = list(hrefs[:MAX_ROWS]) if hrefs is not None else []
    at = next((i for i, c in enumerate(cols) if c.key == link), 0)
    order = None
    if sorted_by is not None:
        order = next(((i, sorted_by[1]) for i, c in enumerate(cols) if c.key == sorted_by[0]),
                     None)  # fmt: skip
    return TableView(name, title, cols, rows, len(df), note, links, at, order, collapsed)


# The definitions section's terms, in the order it lists them; a page lists those of the
# columns (and charts) it shows (:func:`definitions`).
DEFINITIONS = {
    "win rate": "The share of the games a side won, a draw counting half (a win scores 1, a "
    "draw 1/2, a loss 0). It is always shown with its games: a rate over a few games says "
    "little.",
    "95% interval": "The range in brackets after a rate: the values the true rate could take "
    "given these games (Wilson's interval for a single rate; a paired interval for a what-if's "
    "change, whose two runs share their seeds). Two rates whose intervals overlap are not "
    "shown to differ.",
    "first-player advantage": "The first player's win rate minus the second player's (for an "
    "army: its rate when it moved first minus its rate when it moved second). 0 means moving "
    "first is worth nothing; its interval says whether the games show any.",
    "rating": "A Bradley-Terry rating on the Elo scale, fitted to every game of the study (100 "
    "points: about a 64% expected score); the rank's interval comes from a bootstrap.",
    "mirror": "An army against itself: its pooled rate is 1/2 by construction, so only the "
    "seats' rates tell something (the heatmap shows the first mover's).",
    "ablation value": "How much win rate an army loses when a card is blanked (it can only be "
    "discarded), on the same seeds: a card's causal worth. The observed improvement (drawn "
    "against never drawn, played against not) mixes the card with the games in which it "
    "happens to show up.",
    "interrupted": "The run stopped before its planned games: its tables cover the games "
    "finished before the stop.",
}


def _terms_of(t: TableView) -> set[str]:
    keys = {c.key for c in t.columns}
    out = set()
    if any("rate" in k or k in ("score", "share") for k in keys):
        out.add("win rate")
    if any(c.low for c in t.columns):
        out.add("95% interval")
    if any("advantage" in k for k in keys):
        out.add("first-player advantage")
    if any(k.startswith("rating") for k in keys):
        out.add("rating")
    if {"army", "opponent"} <= keys:
        out.add("mirror")
    if "value" in keys:
        out.add("ablation value")
    return out


def definitions(tables, terms=(), interrupted: bool = False) -> list[tuple[str, str]]:
    """The (term, definition) pairs of a page showing ``tables`` (TableViews) and charts
    of ``terms``: only the terms its columns and charts use."""
    used = set(terms) | ({"interrupted"} if interrupted else set())
    for t in tables:
        used |= _terms_of(t)
    return [(k, v) for k, v in DEFINITIONS.items() if k in used]
