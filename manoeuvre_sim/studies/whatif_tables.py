"""The tables of the paired what-if (``studies/whatif.py``), from its counts: every game of
sides has :func:`side_tables` (per changed side and opponent, both seats pooled, and its
field row; per changed side its field score and Bradley-Terry rating, base vs variant);
:func:`paired_row` one pairing's score of a seat (the fixer's confirmation reads it);
:func:`outcome_row` is one pairing's paired outcomes (side a's, side b's and the first
player's win rate and the draw rate, base and variant, the paired change and its 95 %
interval). Each reads a result's ``joint`` counts (base pairing index -> the 36 counts of
``whatif.Joint``): no game is played here. :func:`summary_lines`: the summary of a game
with no pages of its own.
"""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.core import stats
from manoeuvre_sim.core.stats import paired_interval

FIELD = "field"  # the opponent column of a side's row against the whole field
# the paired outcomes of the pairing table: (column stem, what it counts)
OUTCOMES = (("a_win", "side a wins"), ("b_win", "side b wins"),
            ("first_win", "the first player wins"), ("draw", "drawn"))  # fmt: skip


def seat_score(seat: str) -> np.ndarray:
    """Score of the side in ``seat`` for winner codes a, b, draw."""
    return np.array([1.0, 0.0, 0.5]) if seat == "a" else np.array([0.0, 1.0, 0.5])


def outcome_row(counts: np.ndarray) -> dict:
    """A pairing's paired outcomes from its 36 joint counts (``WhatIfResult.pairing_table``)."""
    c = counts.reshape(2, 3, 2, 3)  # first base, winner base, first variant, winner variant
    n = int(c.sum())
    # per (first player, winner) code: 1 where the outcome happened
    hit = {"a_win": np.array([[1, 0, 0], [1, 0, 0]]), "b_win": np.array([[0, 1, 0], [0, 1, 0]]),
           "first_win": np.array([[1, 0, 0], [0, 1, 0]]),
           "draw": np.array([[0, 0, 1], [0, 0, 1]])}  # fmt: skip
    row: dict = {"games": n}
    for stem, _ in OUTCOMES:
        h = hit[stem].astype(np.float64)
        d = h[None, None, :, :] - h[:, :, None, None]  # variant minus base, per cell
        k_base = float((c.sum(axis=(2, 3)) * h).sum())
        k_var = float((c.sum(axis=(0, 1)) * h).sum())
        mean, lo, hi = paired_interval(float((c * d).sum()), float((c * d * d).sum()), n)
        row |= {f"{stem}_rate_base": np.float64(k_base / n),
                f"{stem}_rate_variant": np.float64(k_var / n), f"{stem}_change": float(mean),
                f"{stem}_change_ci_low": float(lo), f"{stem}_change_ci_high": float(hi)}  # fmt: skip
    w = c.sum(axis=(0, 2))  # winner base x winner variant
    row["changed_games"] = int(n - np.trace(w))
    row["changed_share"] = row["changed_games"] / n
    return row


def paired_row(counts: np.ndarray, seat: str = "a") -> dict:
    """Side ``seat``'s score (a win 1, a draw 1/2) over a pairing's paired games: base,
    variant, the paired change with its 95 % interval, the share of games whose winner
    changed."""
    c = counts.reshape(2, 3, 2, 3).sum(axis=(0, 2))  # winner base x winner variant
    s = seat_score(seat)
    d = s[None, :] - s[:, None]  # variant minus base
    n = int(c.sum())
    mean, lo, hi = paired_interval(float((c * d).sum()), float((c * d * d).sum()), n)
    return {
        "games": n,
        "base_score": float((c.sum(axis=1) * s).sum()) / n,
        "variant_score": float((c.sum(axis=0) * s).sum()) / n,
        "change": float(mean),
        "change_low": float(lo),
        "change_high": float(hi),
        "changed_games": int(n - np.trace(c)),
    }


def side_tables(res, *, boot: int = 200) -> dict:
    """The tables every game of sides has: per (touched side, opponent), both seats
    pooled, side's score in base and variant, the paired change and its 95 % interval,
    the share of games whose outcome changed, then its ``field`` row (the mean over the
    opponents, a normal interval from the cells' variances); and per touched side its
    field score (the ``whatif_field`` table) with its Bradley-Terry rating and rank, base
    and variant, and the rating's change with a paired bootstrap interval."""
    import pandas as pd

    spec, pairings, joint = res.spec, res.pairings, res.joint
    names = spec.names
    z = stats.z_value()
    rows = []
    field_rows = []
    pos = {(p.army_a.name, p.army_b.name): i for i, p in enumerate(pairings)}
    for x in spec.touched:
        cells = []
        for y in names:
            if y == x:
                continue
            acc = {"n": 0, "sb": 0.0, "sv": 0.0, "d": 0.0, "d2": 0.0, "changed": 0}
            for seat, key in (("a", (x, y)), ("b", (y, x))):
                i = pos[key]
                if i not in joint:
                    continue
                c = joint[i].reshape(2, 3, 2, 3).sum(axis=(0, 2))  # winner base x variant
                s = seat_score(seat)
                d = s[None, :] - s[:, None]  # variant minus base
                acc["n"] += int(c.sum())
                acc["sb"] += float((c.sum(axis=1) * s).sum())
                acc["sv"] += float((c.sum(axis=0) * s).sum())
                acc["d"] += float((c * d).sum())
                acc["d2"] += float((c * d * d).sum())
                acc["changed"] += int(c.sum() - np.trace(c))
            if acc["n"] == 0:
                continue
            nn = acc["n"]
            mean, lo, hi = stats.paired_interval(acc["d"], acc["d2"], nn)
            var_d = max(acc["d2"] / nn - (acc["d"] / nn) ** 2, 0.0)
            cells.append((acc, var_d))
            rows.append(
                {
                    "army": x,
                    "opponent": y,
                    "games": nn,
                    "base_win_rate": acc["sb"] / nn,
                    "variant_win_rate": acc["sv"] / nn,
                    "delta": float(mean),
                    "delta_low": float(lo),
                    "delta_high": float(hi),
                    "changed_games": acc["changed"] / nn,
                }
            )
        if not cells:
            continue
        k = len(cells)
        base_f = sum(a["sb"] / a["n"] for a, _ in cells) / k
        var_f = sum(a["sv"] / a["n"] for a, _ in cells) / k
        delta = sum(a["d"] / a["n"] for a, _ in cells) / k
        se = np.sqrt(sum(v / a["n"] for a, v in cells)) / k
        half = 0.0 if all(a["d2"] == 0 for a, _ in cells) else z * se
        tot = sum(a["n"] for a, _ in cells)
        changed = sum(a["changed"] for a, _ in cells) / tot
        rows.append(
            {
                "army": x, "opponent": FIELD, "games": tot, "base_win_rate": base_f,
                "variant_win_rate": var_f, "delta": delta, "delta_low": delta - half,
                "delta_high": delta + half, "changed_games": changed,
            }
        )  # fmt: skip
        field_rows.append(
            {
                "army": x, "games": tot, "base_field_win_rate": base_f,
                "variant_field_win_rate": var_f, "delta": delta, "delta_low": delta - half,
                "delta_high": delta + half, "changed_games": changed,
            }
        )  # fmt: skip
    wi = pd.DataFrame(rows)
    fld = pd.DataFrame(field_rows)
    if len(fld):
        fld = fld.join(_rating_change(res, res.base_groups(), boot), on="army")
    return {"whatif": wi, "whatif_field": fld}


def _groups_from_joint(c: np.ndarray, which: str) -> np.ndarray:
    """(2 first x 3 winner) counts of the base or variant side of a joint table."""
    c = c.reshape(2, 3, 2, 3)
    return (c.sum(axis=(2, 3)) if which == "base" else c.sum(axis=(0, 1))).reshape(6)


def _fit_groups(pairings, groups: dict[int, np.ndarray], names, fast: bool = False) -> np.ndarray:
    """Bradley-Terry ratings (with the first-player term, as the balance study fits them)
    straight from per-pairing (first player x winner) counts; ``fast``: by
    ``stats.bradley_terry_ratings`` (a bootstrap's refits), the GLM where it fails."""
    pos = {a: k for k, a in enumerate(names)}
    order = list(groups)
    g = np.array([groups[i] for i in order], dtype=np.float64).reshape(len(order) * 2, 3)
    side = np.array([(pos[pairings[i].army_a.name], pos[pairings[i].army_b.name])
                     for i in order], dtype=np.float64).repeat(2, axis=0)  # fmt: skip
    n = g.sum(axis=1)
    # a row per (pairing, first player) with games, in that order: a's index, b's, a's
    # score, the games, +1 when a moved first (-1 when b did)
    a = np.column_stack([side, g[:, 0] + 0.5 * g[:, 2], n,
                         np.tile([1.0, -1.0], len(order))])[n > 0]  # fmt: skip
    if fast:
        got = stats.bradley_terry_ratings(len(names), a[:, 0], a[:, 1], a[:, 2], a[:, 3],
                                          first=a[:, 4])  # fmt: skip
        if got is not None:
            return got[0]
    fit = stats.bradley_terry(names, a[:, 0], a[:, 1], a[:, 2], a[:, 3], first=a[:, 4])
    return fit.ratings


def _rating_change(res, base_groups: dict[int, np.ndarray], boot: int):
    """Bradley-Terry rating and rank, base and variant, and the change with a paired
    bootstrap interval (the joint base/variant tables resampled together)."""
    import pandas as pd

    spec, pairings, joint = res.spec, res.pairings, res.joint
    names = spec.names
    if any(i not in base_groups for i in range(len(pairings))):
        nan = float("nan")
        cols = ["base_rating", "variant_rating", "rating_delta", "rating_delta_low",
                "rating_delta_high", "base_rank", "variant_rank"]  # fmt: skip
        return pd.DataFrame({c: [nan] * len(spec.touched) for c in cols}, index=spec.touched)

    def fit(groups_base, groups_var, fast=False):
        return (_fit_groups(pairings, groups_base, names, fast),
                _fit_groups(pairings, groups_var, names, fast))  # fmt: skip

    def split(jt):
        gb = dict(base_groups)
        gv = dict(base_groups)
        for i, c in jt.items():
            gb[i] = _groups_from_joint(c, "base")
            gv[i] = _groups_from_joint(c, "variant")
        return gb, gv

    rb, rv = fit(*split(joint))
    deltas = np.zeros((max(boot, 0), len(names)))
    rng = np.random.default_rng([int(spec.seed), 0x3F])
    for b in range(max(boot, 0)):
        jt = {i: rng.multinomial(int(c.sum()), c / c.sum()) for i, c in joint.items()}
        gb = {
            i: (rng.multinomial(int(g.sum()), g / g.sum()) if i not in joint else None)
            for i, g in base_groups.items()
        }
        gb = {i: g for i, g in gb.items() if g is not None}
        for i, c in jt.items():
            gb[i] = _groups_from_joint(c, "base")
        gv = dict(gb)
        for i, c in jt.items():
            gv[i] = _groups_from_joint(c, "variant")
        x, y = fit(gb, gv, fast=True)
        deltas[b] = y - x
    lo = np.quantile(deltas, 0.025, axis=0) if boot > 0 else np.full(len(names), np.nan)
    hi = np.quantile(deltas, 0.975, axis=0) if boot > 0 else np.full(len(names), np.nan)
    rkb = stats.ranks_from_ratings(rb)
    rkv = stats.ranks_from_ratings(rv)
    rows = {}
    for k, a in enumerate(names):
        if a in spec.touched:
            rows[a] = {
                "base_rating": rb[k], "variant_rating": rv[k], "rating_delta": rv[k] - rb[k],
                "rating_delta_low": lo[k], "rating_delta_high": hi[k],
                "base_rank": int(rkb[k]), "variant_rank": int(rkv[k]),
            }  # fmt: skip
    return pd.DataFrame.from_dict(rows, orient="index")


def summary_lines(res) -> list[str]:
    """The summary of a game with no ``WHATIF_PAGES`` of its own."""
    m = res.manifest
    out = [f"{m.get('game_title', res.spec.game)}: what-if "
           f"({', '.join(res.spec.changes) or 'no change'})",
           f"{m['games']:,} games ({m['paired_games']:,} paired); seed {m['seed']}; "
           f"rules {m['rules_version']}",
           "side's score (a win 1, a draw 1/2) in %, base -> variant, paired change "
           "[95 % interval]", ""]  # fmt: skip
    if m.get("base_study"):  # its base games read from a balance study, not played again
        from manoeuvre_sim.studies.whatif_base import base_line

        out.insert(2, base_line(m["base_study"]))
    for r in res.whatif.itertuples(index=False):
        out.append(f"{r.army:>12} v {r.opponent:<12} {100 * r.base_win_rate:5.1f} -> "
                   f"{100 * r.variant_win_rate:5.1f}  {100 * r.delta:+5.1f} "
                   f"[{100 * r.delta_low:+.1f}, {100 * r.delta_high:+.1f}]")  # fmt: skip
    if res.interrupted:
        out.append("INTERRUPTED: the tables cover the pairs of games finished")
    return out


__all__ = ["FIELD", "OUTCOMES", "outcome_row", "paired_row", "seat_score", "side_tables",
           "summary_lines"]  # fmt: skip
