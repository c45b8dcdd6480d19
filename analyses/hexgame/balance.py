"""Maneuver's balance study of variants laid out (``BALANCE_TABLES`` of
``hexgame/adapter.py``; ``manoeuvre-sim hex balance``): the study (``studies/balance.py``,
its variants ``hexgame/variants.py``) keeps each game's few columns here (:func:`counter`,
:data:`KEEP`) and :func:`build` turns them into its tables: per variant and pairing (and
all pairings pooled) the first player's, blue's and red's win rates and the draw rate with
95 % Wilson intervals (``variants``), how games end (``endings``), and on which turn each
Capital fell (``capital_fell``). Plays no game.

Python API (what ``manoeuvre-sim hex balance`` calls)::

    from manoeuvre_sim.studies import balance
    spec = balance.command_spec("hex", borders="basic,large_blue", games_per_pairing=2000)
    res = balance.run_spec(spec, out_dir="reports/hex-balance")
    res.variants       # per variant and pairing (and all pairings pooled): rates, intervals
    res.endings        # capture with the margin, a capture short of it, a draw at the limit
    res.capital_fell   # the first turn each Capital fell (0: never), counts and shares
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.analyses.hexgame.rows import ALL, pair_name
from manoeuvre_sim.core.stats import wilson_interval
from manoeuvre_sim.core.study import Task
from manoeuvre_sim.hexgame import GAME_TITLE
from manoeuvre_sim.studies.balance import BalanceResult, BalanceSpec

OPTION_COLUMNS = ("border", "quality_blue", "quality_red", "step_losses", "step_replacements")
PDF_NAME = "hex_balance.pdf"

KEEP = ("label", "pairing", "game", "seed", "policy_a", "policy_b", "first_player", "winner",
        "victory", "game_turns", "capital_fell_turn_a", "capital_fell_turn_b",
        "captured_without_margin_a", "captured_without_margin_b")  # fmt: skip


class Counter:
    """Each game's :data:`KEEP` columns, kept (the ladder reads them game by game)."""

    def __init__(self) -> None:
        self.kept: list[pd.DataFrame] = []

    def add(self, task: Task, df: pd.DataFrame) -> None:
        self.kept.append(df[list(KEEP)])


def counter(spec: BalanceSpec, *, keep: bool) -> Counter:
    return Counter()


def build(spec: BalanceSpec, count: Counter, manifest: dict, played, *,
          boot: int = 200) -> BalanceResult:  # fmt: skip
    """The study's tables from the games kept."""
    return build_result(spec, kept_games(count.kept), manifest)


def pdf(res: BalanceResult, path: str | Path, paper: str = "a4") -> Path:
    from manoeuvre_sim.analyses.hexgame.balance_pdf import write_balance_pdf

    return write_balance_pdf(path, res, paper=paper)


def kept_games(kept: list[pd.DataFrame], keep=KEEP) -> pd.DataFrame:
    """The blocks a study kept (its ``keep`` columns), as one frame in pairing and game
    order (the variant study's and the what-if's)."""
    if not kept:
        return pd.DataFrame(columns=list(keep))
    df = pd.concat(kept, ignore_index=True)
    return df.sort_values(["pairing", "game"], kind="stable").reset_index(drop=True)


def _rate(count: str, rate: str, k, n: int) -> dict:
    """``count`` = k, ``rate`` = k / n and its 95 % Wilson interval (``rate``_ci_low/high)."""
    k = int(k)
    lo, hi = wilson_interval(k, n)
    return {count: k, rate: k / n, f"{rate}_ci_low": float(lo), f"{rate}_ci_high": float(hi)}


def _groups(spec: BalanceSpec, df: pd.DataFrame):
    """(variant, blue's player, red's player, its games) per pairing, then ``all`` pooled."""
    for v in spec.sides:
        dv = df[df["label"] == v.name]
        for a in spec.policies:
            for b in spec.policies:
                yield v, a, b, dv[(dv["policy_a"] == a) & (dv["policy_b"] == b)]
        if len(spec.policies) > 1:
            yield v, ALL, ALL, dv


def _frame(rows: list[dict], spec: BalanceSpec) -> pd.DataFrame:
    out = pd.DataFrame(rows)
    for c in ("first_wins", "second_wins", "blue_wins", "red_wins", "draws", "capture_wins",
              "turn_limit_draws", "short_of_margin", "short_of_margin_draws", "games", "turn",
              "count"):  # fmt: skip
        if c in out.columns:
            out[c] = out[c].astype(np.int64)
    return out


def build_result(spec: BalanceSpec, df: pd.DataFrame, manifest: dict) -> BalanceResult:
    rows, ends, fell = [], [], []
    for v, a, b, g in _groups(spec, df):
        n = len(g)
        if n == 0:
            continue
        key = {"variant": v.name, "policy_blue": a, "policy_red": b, "games": n}
        opts = {c: getattr(v, c) for c in OPTION_COLUMNS}
        first = int((g["winner"] == g["first_player"]).sum())
        w = g["winner"].value_counts()
        row = dict(key)
        second = n - first - int(w.get("draw", 0))
        for count, rate, k in (("first_wins", "first_win_rate", first),
                               ("second_wins", "second_win_rate", second),
                               ("blue_wins", "blue_win_rate", w.get("a", 0)),
                               ("red_wins", "red_win_rate", w.get("b", 0)),
                               ("draws", "draw_rate", w.get("draw", 0))):  # fmt: skip
            row |= _rate(count, rate, k, n)
        rows.append(row | opts)
        short = (g["captured_without_margin_a"] + g["captured_without_margin_b"]) > 0
        draw = g["victory"] == "draw"
        e = dict(key)
        for count, k in (("capture_wins", (g["victory"] == "capital").sum()),
                         ("turn_limit_draws", draw.sum()), ("short_of_margin", short.sum()),
                         ("short_of_margin_draws", (short & draw).sum())):  # fmt: skip
            e |= _rate(count, f"{count}_share", k, n)
        dec = g.loc[~draw, "game_turns"]
        e["mean_turn_decisive"] = float(dec.mean()) if len(dec) else float("nan")
        ends.append(e | opts)
        for side, col in (("blue", "capital_fell_turn_a"), ("red", "capital_fell_turn_b")):
            counts = g[col].value_counts()
            for t in range(0, spec.settings.turns + 1):
                c = int(counts.get(t, 0))
                fell.append(key | {"capital": side, "turn": t, "count": c, "share": c / n})
    tables = {"variants": _frame(rows, spec), "endings": _frame(ends, spec),
              "capital_fell": _frame(fell, spec)}  # fmt: skip
    return BalanceResult(spec, tables, manifest, games_kept=df)


def _pc(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}"


def _ci(lo: float, hi: float) -> str:
    return f"[{_pc(lo)}, {_pc(hi)}]"


def summary(res: BalanceResult) -> list[str]:
    """The plain-text summary (printed after a study, summary.txt, the PDF's last page)."""
    m, spec = res.manifest, res.spec
    reached = m.get("games_per_pairing_reached", {})
    lo, hi = reached.get("min", 0), reached.get("max", 0)
    out = [
        f"{GAME_TITLE}: variant study",
        f"{len(spec.sides)} variant(s) x {len(spec.policies) ** 2} pairing(s) of "
        f"{', '.join(spec.policies)}; {m.get('games', 0):,} games ({lo:,}"
        + (f"-{hi:,}" if lo != hi else "")
        + f" per variant and pairing); seed {m['seed']}; {spec.settings.turns} turns",
        f"rules {m['rules_version']}; scenario {m['scenario']}, sha256 {m['scenario_sha256']}",
        "win rates in %, 95 % Wilson intervals; the first player is drawn per game (rule [3])",
    ]
    if spec.settings.readings():
        out.append("readings: " + "; ".join(spec.settings.readings()))
    if res.interrupted:
        out.append("INTERRUPTED: the tables cover the games finished before the stop")
    out.append("")

    def cell(r, x: str) -> str:
        lo, hi = getattr(r, f"{x}_rate_ci_low"), getattr(r, f"{x}_rate_ci_high")
        return f"{_pc(getattr(r, f'{x}_rate')):>5} {_ci(lo, hi):<14}"

    for cols, names in ((("first_win", "draw"), ("first player wins", "drawn")),
                        (("blue_win", "red_win"), ("blue wins", "red wins"))):  # fmt: skip
        out.append(f"{'variant':<24} {'blue v red':<21} {'games':>6}  "
                   + "  ".join(f"{n:<20}" for n in names))  # fmt: skip
        for r in res.variants.itertuples(index=False):
            pair = pair_name(r)
            out.append(f"{r.variant:<24} {pair:<21} {r.games:>6}  "
                       + "  ".join(cell(r, x) for x in cols))  # fmt: skip
        out.append("")
    lead = ALL if len(spec.policies) > 1 else spec.policies[0]
    out.append("how games end, % of games (all pairings): capture = a win, the enemy Capital")
    turns = spec.settings.turns
    out.append(f"captured with rule [12]'s margin; draw = no winner after turn {turns};")
    out.append("short = a capture the two-unit margin did not let win (then drawn: of all games);")
    out.append("win turn = the mean turn a won game ended")
    out.append(f"{'variant':<24} {'capture':>8} {'draw':>6} {'short':>6} {'then drawn':>11} "
               f"{'win turn':>9}")  # fmt: skip
    for r in res.endings[res.endings["policy_blue"] == lead].itertuples():
        out.append(
            f"{r.variant:<24} {_pc(r.capture_wins_share):>8} {_pc(r.turn_limit_draws_share):>6} "
            f"{_pc(r.short_of_margin_share):>6} {_pc(r.short_of_margin_draws_share):>11} "
            f"{r.mean_turn_decisive:>9.1f}"
        )
    if spec.precision is not None:
        out.append("")
        out.append(
            f"precision goal ±{100 * spec.precision:.1f} points on every first-player rate: "
            f"widest reached ±{100 * m.get('precision_reached', float('nan')):.2f} (max "
            f"{spec.max_games:,} games per pairing)"
        )
    return out
