"""Game records -> small count tables, and count tables -> the balance frames.

A study never keeps its games in memory: each block of games is reduced to counts per
(label, army_a, army_b, first_player, winner, victory, tiebreak, turn_limit) with the sum
and sum of squares of the game length (:class:`Tally`). Every table of the balance study is
computed from those counts, so a million-game study needs the memory of a thousand-game
one. Pure pandas/numpy/scipy/statsmodels (through ``manoeuvre_sim.core.stats``).

Conventions: a game's score for a side is 1 for a win, 1/2 for a draw, 0 for a loss, and a
"win rate" is the mean score (draws count half). Intervals are 95 %: Wilson for a single
proportion (computed on wins + draws/2), normal for means of several cells, Wald for
Bradley-Terry ratings, percentile bootstrap for ranks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from manoeuvre_sim.core import stats

KEYS = ["label", "army_a", "army_b", "first_player", "winner", "victory", "tiebreak", "turn_limit"]
TIEBREAKS = ("squares", "eliminations", "reduced", "nation", "none")


class Tally:
    """Counts of games by :data:`KEYS`, with ``games``, ``turns_sum`` and ``turns_sq``."""

    def __init__(self) -> None:
        self._parts: list[pd.DataFrame] = []
        self._table: pd.DataFrame | None = None

    def add(self, games: pd.DataFrame) -> None:
        """Add a block of game records (the ``simulate`` columns plus ``label``)."""
        g = games[KEYS].copy()
        t = games["game_turns"].astype(np.int64)
        g["games"] = 1
        g["turns_sum"] = t
        g["turns_sq"] = t * t
        self._parts.append(g.groupby(KEYS, sort=False, observed=True).sum().reset_index())
        if len(self._parts) >= 64:
            self._compact()

    def _compact(self) -> None:
        parts = ([self._table] if self._table is not None else []) + self._parts
        if parts:
            df = pd.concat(parts, ignore_index=True)
            self._table = df.groupby(KEYS, sort=False, observed=True).sum().reset_index()
        self._parts = []

    @property
    def table(self) -> pd.DataFrame:
        self._compact()
        if self._table is None:
            return pd.DataFrame(columns=KEYS + ["games", "turns_sum", "turns_sq"])
        return self._table.sort_values(KEYS, kind="stable").reset_index(drop=True)


def perspective(t: pd.DataFrame) -> pd.DataFrame:
    """Each tally row seen from each side: ``army, opponent, seat, first`` (did ``army``
    move first), ``wins, draws, losses`` (counts), ``mirror``. A mirror game appears twice,
    once from each seat."""
    rows = []
    for seat, other in (("a", "b"), ("b", "a")):
        d = pd.DataFrame(
            {
                "label": t["label"],
                "army": t[f"army_{seat}"],
                "opponent": t[f"army_{other}"],
                "seat": seat,
                "first": t["first_player"] == seat,
                "games": t["games"],
                "wins": t["games"] * (t["winner"] == seat),
                "draws": t["games"] * (t["winner"] == "draw"),
                "losses": t["games"] * (t["winner"] == other),
                "victory": t["victory"],
                "tiebreak": t["tiebreak"],
                "turn_limit": t["turn_limit"],
                "turns_sum": t["turns_sum"],
            }
        )
        rows.append(d)
    p = pd.concat(rows, ignore_index=True)
    p["mirror"] = p["army"] == p["opponent"]
    return p


def _rate_columns(g: pd.DataFrame, suffix: str = "") -> pd.DataFrame:
    n = g["games"].to_numpy(dtype=np.float64)
    k = g["wins"].to_numpy(dtype=np.float64) + 0.5 * g["draws"].to_numpy(dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)
    lo = np.full(len(n), np.nan)
    hi = np.full(len(n), np.nan)
    ok = n > 0
    if ok.any():
        lo[ok], hi[ok] = stats.wilson_interval(k[ok], n[ok])
    return pd.DataFrame(
        {
            f"games{suffix}": n.astype(np.int64),
            f"win_rate{suffix}": rate,
            f"ci_low{suffix}": lo,
            f"ci_high{suffix}": hi,
        },
        index=g.index,
    )


def _order(df: pd.DataFrame, order: Sequence[str], cols=("army", "opponent")) -> pd.DataFrame:
    pos = {a: i for i, a in enumerate(order)}
    key = [df[c].map(pos) for c in cols if c in df]
    out = df.assign(**{f"_k{i}": k for i, k in enumerate(key)})
    by = ["label"] + [f"_k{i}" for i in range(len(key))] if "label" in df else []
    by = by or [f"_k{i}" for i in range(len(key))]
    return out.sort_values(by, kind="stable").drop(columns=[f"_k{i}" for i in range(len(key))])


def matrix(t: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """One row per (label, army, opponent): the army's win rate against the opponent with
    seats pooled, then split by seat and by who moved first. In a mirror row the pooled
    rate is 1/2 by construction (interval NaN) and ``games`` counts each game once."""
    p = perspective(t)
    cells = ["label", "army", "opponent"]
    g = p.groupby(cells, observed=True)[["games", "wins", "draws"]].sum()
    out = _rate_columns(g)
    mirror = g.index.get_level_values("army") == g.index.get_level_values("opponent")
    out.loc[mirror, "games"] = out.loc[mirror, "games"] // 2
    out.loc[mirror, ["ci_low", "ci_high"]] = np.nan
    out.insert(1, "wins", g["wins"].where(~mirror, g["wins"] / 2))
    out.insert(2, "draws", g["draws"].where(~mirror, g["draws"] / 2))
    for col, val, suffix in (
        ("seat", "a", "_seat_a"),
        ("seat", "b", "_seat_b"),
        ("first", True, "_first"),
        ("first", False, "_second"),
    ):
        s = p[p[col] == val].groupby(cells, observed=True)[["games", "wins", "draws"]].sum()
        s = s.reindex(g.index, fill_value=0)
        out = out.join(_rate_columns(s, suffix))
    out = out.reset_index()
    out["games"] = out["games"].astype(np.int64)
    return _order(out, order).reset_index(drop=True)


def _bt_groups(t: pd.DataFrame, order: Sequence[str]):
    """Groups of games for the Bradley-Terry fit: (i, j, wins, draws, games, first)."""
    g = t.groupby(["army_a", "army_b", "first_player", "winner"], observed=True)["games"].sum()
    g = g.unstack("winner", fill_value=0)
    for c in ("a", "b", "draw"):
        if c not in g:
            g[c] = 0
    g = g.reset_index()
    pos = {a: i for i, a in enumerate(order)}
    i = g["army_a"].map(pos).to_numpy()
    j = g["army_b"].map(pos).to_numpy()
    w = g["a"].to_numpy(dtype=np.float64)
    d = g["draw"].to_numpy(dtype=np.float64)
    n = (g["a"] + g["b"] + g["draw"]).to_numpy(dtype=np.float64)
    f = np.where(g["first_player"].to_numpy() == "a", 1, -1)
    return i, j, w, d, n, f


def ratings(t: pd.DataFrame, order: Sequence[str], *, boot: int = 200, seed: int = 0):
    """Bradley-Terry ratings (with a first-player term) for one label's tally, and rank
    intervals by a parametric bootstrap over games (each group of games resampled from its
    own win/draw/loss shares, the model refitted).

    Returns (fit, ranks, rank_low, rank_high).
    """
    i, j, w, d, n, f = _bt_groups(t, order)
    fit = stats.bradley_terry(order, i, j, w + 0.5 * d, n, first=f)
    rank = stats.ranks_from_ratings(fit.ratings)
    if boot <= 0 or not fit.converged:
        return fit, rank, rank.copy(), rank.copy()
    rng = np.random.default_rng([int(seed), 0xB7])
    probs = np.column_stack([w, d, n - w - d]) / n[:, None]
    ranks = np.empty((boot, len(order)), dtype=np.int64)
    for b in range(boot):
        draw = np.array([rng.multinomial(int(nn), pp) for nn, pp in zip(n, probs, strict=True)])
        bf = stats.bradley_terry(order, i, j, draw[:, 0] + 0.5 * draw[:, 1], n, first=f)
        r = bf.ratings if bf.converged else fit.ratings
        ranks[b] = stats.ranks_from_ratings(r)
    lo = np.quantile(ranks, 0.025, axis=0, method="inverted_cdf").astype(np.int64)
    hi = np.quantile(ranks, 0.975, axis=0, method="inverted_cdf").astype(np.int64)
    return fit, rank, lo, hi


def armies(
    t: pd.DataFrame, m: pd.DataFrame, order: Sequence[str], *, boot: int = 200, seed: int = 0
) -> tuple[pd.DataFrame, dict]:
    """One row per (label, army): the field win rate (mean over opponents, mirrors
    excluded) with its interval, the Bradley-Terry rating (Elo points, mean 0) with its
    interval, the rank with its bootstrap interval. Also returns per label the fitted
    first-player term (Elo points, with its interval)."""
    p = perspective(t)
    rows = []
    first_terms = {}
    for label in pd.unique(t["label"]):
        tl = t[t["label"] == label]
        pl = p[(p["label"] == label) & ~p["mirror"]]
        cell = pl.groupby(["army", "opponent"], observed=True)[["games", "wins", "draws"]].sum()
        fit, rank, rlo, rhi = ratings(tl, order, boot=boot, seed=seed)
        first_terms[label] = (fit.first_player, fit.first_player_low, fit.first_player_high)
        for k, army in enumerate(order):
            c = cell.loc[army] if army in cell.index.get_level_values(0) else None
            if c is None or len(c) == 0:
                fr = lo = hi = float("nan")
                games = 0
            else:
                mean, var = stats.outcome_moments(c["wins"], c["draws"], c["games"])
                fr, lo, hi = stats.mean_of_rates_interval(mean, var, c["games"])
                games = int(c["games"].sum())
            rows.append(
                {
                    "label": label,
                    "army": army,
                    "games": games,
                    "field_win_rate": fr,
                    "ci_low": lo,
                    "ci_high": hi,
                    "rating": fit.ratings[k],
                    "rating_low": fit.low[k],
                    "rating_high": fit.high[k],
                    "rank": int(rank[k]),
                    "rank_low": int(rlo[k]),
                    "rank_high": int(rhi[k]),
                }
            )
    return pd.DataFrame(rows), first_terms


ALL_GAMES = "all games"


def first_player(t: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """Per (label, army): its win rate when it moved first and when second, and the
    difference (normal interval); plus per label a row ``all games``: the first player's
    win rate over every game (Wilson), the second player's being its complement."""
    p = perspective(t)
    rows = []
    for label in pd.unique(t["label"]):
        tl = t[t["label"] == label]
        n = int(tl["games"].sum())
        w = float(tl.loc[tl["winner"] == tl["first_player"], "games"].sum())
        d = float(tl.loc[tl["winner"] == "draw", "games"].sum())
        k = w + 0.5 * d
        lo, hi = stats.wilson_interval(k, n)
        r = k / n
        rows.append(
            {
                "label": label, "army": ALL_GAMES,
                "games_first": n, "win_rate_first": r,
                "ci_low_first": float(lo), "ci_high_first": float(hi),
                "games_second": n, "win_rate_second": 1 - r,
                "ci_low_second": 1 - float(hi), "ci_high_second": 1 - float(lo),
                "advantage": 2 * r - 1,
                "advantage_low": 2 * float(lo) - 1, "advantage_high": 2 * float(hi) - 1,
            }
        )  # fmt: skip
        pl = p[p["label"] == label]
        for army in order:
            pa = pl[pl["army"] == army]
            rec = {"label": label, "army": army}
            moments = []
            for first, suffix in ((True, "_first"), (False, "_second")):
                s = pa[pa["first"] == first][["games", "wins", "draws"]].sum()
                n = int(s["games"])
                if n == 0:
                    rec |= {f"games{suffix}": 0, f"win_rate{suffix}": np.nan,
                            f"ci_low{suffix}": np.nan, f"ci_high{suffix}": np.nan}  # fmt: skip
                    moments.append((np.nan, np.nan, 0))
                    continue
                k = float(s["wins"]) + 0.5 * float(s["draws"])
                lo, hi = stats.wilson_interval(k, n)
                m, v = stats.outcome_moments(s["wins"], s["draws"], n)
                moments.append((float(m), float(v), n))
                rec |= {f"games{suffix}": n, f"win_rate{suffix}": k / n,
                        f"ci_low{suffix}": float(lo), f"ci_high{suffix}": float(hi)}  # fmt: skip
            (m1, v1, n1), (m2, v2, n2) = moments
            adv = m1 - m2
            se = np.sqrt(v1 / n1 + v2 / n2) if n1 and n2 else np.nan
            z = stats.z_value()
            rec |= {"advantage": adv, "advantage_low": adv - z * se, "advantage_high": adv + z * se}
            rows.append(rec)
    return pd.DataFrame(rows)


def victory(t: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """Per (label, ordered pairing): how its games ended and how long they lasted. Shares
    are of all the pairing's games; ``nightfall_<tiebreak>`` split the nightfall share by
    the rule 2.2 step that decided it (``squares`` is the plain count of held squares)."""
    rows = []
    for (label, a, b), g in t.groupby(["label", "army_a", "army_b"], observed=True, sort=False):
        n = g["games"].sum()
        win = g.groupby("winner")["games"].sum()
        vic = g.groupby("victory")["games"].sum()
        rec = {
            "label": label,
            "army_a": a,
            "army_b": b,
            "games": int(n),
            "a_win_rate": (win.get("a", 0) + 0.5 * win.get("draw", 0)) / n,
            "draws": win.get("draw", 0) / n,
            "attrition": vic.get("attrition", 0) / n,
            "nightfall": vic.get("nightfall", 0) / n,
        }
        night = g[g["victory"] == "nightfall"]
        tb = night.groupby("tiebreak")["games"].sum()
        for name in TIEBREAKS:
            rec[f"nightfall_{name}"] = tb.get(name, 0) / n
        rec["turn_limit"] = g.loc[g["turn_limit"].astype(bool), "games"].sum() / n
        mean = g["turns_sum"].sum() / n
        rec["mean_turns"] = mean
        rec["sd_turns"] = float(np.sqrt(max(g["turns_sq"].sum() / n - mean * mean, 0.0)))
        rows.append(rec)
    out = pd.DataFrame(rows)
    return _order(out, order, cols=("army_a", "army_b")).reset_index(drop=True)


def victory_by_army(t: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """Per (label, army): shares of its games won or lost by attrition or at nightfall,
    drawn; the nightfall tie-break mix; the turn-limit share; the mean game length."""
    p = perspective(t)
    rows = []
    for (label, army), g in p.groupby(["label", "army"], observed=True, sort=False):
        n = g["games"].sum()
        att = g["victory"] == "attrition"
        night = g["victory"] == "nightfall"
        rec = {
            "label": label,
            "army": army,
            "games": int(n),
            "win_attrition": g.loc[att, "wins"].sum() / n,
            "win_nightfall": g.loc[night, "wins"].sum() / n,
            "loss_attrition": g.loc[att, "losses"].sum() / n,
            "loss_nightfall": g.loc[night, "losses"].sum() / n,
            "draw": g["draws"].sum() / n,
        }
        nn = g.loc[night, "games"].sum()
        tb = g[night].groupby("tiebreak")["games"].sum()
        for name in TIEBREAKS:
            rec[f"tb_{name}"] = tb.get(name, 0) / nn if nn else np.nan
        rec["turn_limit"] = g.loc[g["turn_limit"].astype(bool), "games"].sum() / n
        rec["mean_turns"] = g["turns_sum"].sum() / n
        rows.append(rec)
    out = pd.DataFrame(rows)
    return _order(out, order, cols=("army",)).reset_index(drop=True)
