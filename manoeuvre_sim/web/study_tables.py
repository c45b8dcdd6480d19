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

from manoeuvre_sim.web.study_charts import clean

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


@dataclass
class TableView:
    name: str
    title: str
    columns: list[Column]
    rows: list[list[tuple[str, object]]]  # (shown text, sort key) per cell
    total: int
    note: str = ""
    hrefs: list[str | None] = field(default_factory=list)  # a link per row (or None)
    link: int = 0  # the column whose cells carry the row's link


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


def _num(x, percent: bool, plain: bool = False) -> str:
    if x is None:
        return ""
    if plain:  # a number that names something (a seed, a game): no separators
        return str(x)
    if percent:
        return f"{100 * x:.1f}%"
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e15):
        return f"{int(x):,}"
    return f"{x:.4g}"


def interval_text(lo, hi, percent: bool = True) -> str:
    """``[a, b]`` of an interval (in % when ``percent``), blank when it is not defined."""
    lo, hi = clean(lo), clean(hi)
    if lo is None or hi is None:
        return ""
    if percent:
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]"
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
        out.append(Column(c, label, numeric, percent, *(pair or (None, None))))
    return out


def _cell(row: dict, col: Column) -> tuple[str, object]:
    v = clean(row[col.key])
    if not col.numeric:
        return ("" if v is None else str(v)), ("" if v is None else str(v))
    text = _num(v, col.percent, col.key in PLAIN)
    if col.low:
        text = f"{text} {interval_text(row[col.low], row[col.high], col.percent)}".strip()
    key = v if v is not None and not (isinstance(v, float) and math.isnan(v)) else ""
    return text, key


def table_view(
    df: pd.DataFrame, name: str, title: str, *, hrefs=None, note: str = "", link: str | None = None
) -> TableView:
    """``df`` (a study's table ``name``) as a page shows it, its first :data:`MAX_ROWS`
    rows; ``hrefs``: a link per row of ``df``, carried by the cells of column ``link``
    (default: the first)."""
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
    return TableView(name, title, cols, rows, len(df), note, links, at)
