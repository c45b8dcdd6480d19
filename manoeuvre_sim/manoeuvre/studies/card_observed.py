"""The observed card figures (17lands style) of the card-value study (:mod:`.cards`): per card
identity, the win rate in games where it was drawn, in the opening hand, played, never drawn;
IWD and its kin with their intervals; how it was used. Summed per block of games
(:class:`ObservedSums`, its size fixed by the deck), turned into a table at the end
(:func:`observed_frame`). These figures are biased (docs/card-value.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from manoeuvre_sim.core import stats


class ObservedSums:
    """Per-identity and per-copy sums over games (sizes fixed by the deck, not the games)."""

    def __init__(self, ids: Sequence, n_cards: int) -> None:  # ids: cards.CardIdentity
        from manoeuvre_sim.manoeuvre.engine.cardstats import NCS

        self.ids = ids
        k = len(ids)
        self.M = np.zeros((n_cards, k), dtype=np.int64)  # copy -> identity
        for j, i in enumerate(ids):
            self.M[list(i.copies), j] = 1
        self.games = 0
        self.score = 0.0
        self.score2 = 0.0
        z = lambda: np.zeros(k)  # noqa: E731
        self.n = {w: z() for w in ("drawn", "opening", "played", "held_unplayed")}
        self.s = {w: z() for w in ("drawn", "opening", "played")}
        self.s2 = {w: z() for w in ("drawn", "opening", "played")}
        self.plays = z()
        self.turns = z()
        self.uses = np.zeros((k, NCS))
        self.copy_n = {w: np.zeros(n_cards) for w in ("drawn", "played")}
        self.copy_s = {w: np.zeros(n_cards) for w in ("drawn", "played")}

    @property
    def nbytes(self) -> int:
        arrs = [self.M, self.plays, self.turns, self.uses]
        for d in (self.n, self.s, self.s2, self.copy_n, self.copy_s):
            arrs += list(d.values())
        return sum(a.nbytes for a in arrs)

    def add(self, score: np.ndarray, cs: np.ndarray) -> None:
        """``score``: (n,) the army's score per game; ``cs``: (n, n_cards, NCS) its side's
        per-copy statistics."""
        from manoeuvre_sim.manoeuvre.engine import cardstats as C

        self.games += len(score)
        self.score += float(score.sum())
        self.score2 += float((score * score).sum())
        cs = cs[:, : self.M.shape[0], :].astype(np.int64)
        drawn = (cs[:, :, C.CS_DRAWN] @ self.M) > 0
        opening = (cs[:, :, C.CS_OPENING] @ self.M) > 0
        plays = cs[:, :, C.CS_PLAYS] @ self.M
        played = plays > 0
        s = score[:, None]
        for w, mask in (("drawn", drawn), ("opening", opening), ("played", played)):
            self.n[w] += mask.sum(axis=0)
            self.s[w] += (mask * s).sum(axis=0)
            self.s2[w] += (mask * s * s).sum(axis=0)
        self.n["held_unplayed"] += (drawn & ~played).sum(axis=0)
        self.plays += plays.sum(axis=0)
        self.turns += (cs[:, :, C.CS_TURNS] @ self.M).sum(axis=0)
        self.uses += np.einsum("gcf,ck->kf", cs, self.M)
        cd = cs[:, :, C.CS_DRAWN] > 0
        cp = cs[:, :, C.CS_PLAYS] > 0
        self.copy_n["drawn"] += cd.sum(axis=0)
        self.copy_n["played"] += cp.sum(axis=0)
        self.copy_s["drawn"] += (cd * s).sum(axis=0)
        self.copy_s["played"] += (cp * s).sum(axis=0)


def _rate(s, n):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, s / np.where(n > 0, n, 1), np.nan)


def _wilson(s, n):
    lo = np.full(len(n), np.nan)
    hi = np.full(len(n), np.nan)
    ok = n > 0
    if ok.any():
        lo[ok], hi[ok] = stats.wilson_interval(np.asarray(s)[ok], np.asarray(n)[ok])
    return lo, hi


MIN_GROUP = 20  # games each side of an observed comparison needs (else it is n/a)


def _diff(s1, q1, n1, s2, q2, n2):
    """Difference of two independent means of scores (sums, sums of squares, counts) and
    its normal 95 % interval; undefined (NaN) when either side has fewer than
    ``MIN_GROUP`` games (a normal interval on a handful of games means nothing)."""
    z = stats.z_value()
    with np.errstate(invalid="ignore", divide="ignore"):
        m1, m2 = s1 / n1, s2 / n2
        v1 = np.maximum(q1 / n1 - m1 * m1, 0) / n1
        v2 = np.maximum(q2 / n2 - m2 * m2, 0) / n2
        d = m1 - m2
        half = z * np.sqrt(v1 + v2)
    bad = (n1 < MIN_GROUP) | (n2 < MIN_GROUP)
    d = np.where(bad, np.nan, d)
    half = np.where(bad, np.nan, half)
    return d, d - half, d + half


def observed_frame(o: ObservedSums) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The observed columns per identity, and the per-copy table."""
    from manoeuvre_sim.manoeuvre.engine.cardstats import CS_USE, USE_NAMES

    n, S, S2 = o.n, o.s, o.s2
    N, T, T2 = o.games, o.score, o.score2
    rows = pd.DataFrame({"card": [i.label for i in o.ids]})
    rows["games"] = N
    rows["drawn_games"] = n["drawn"].astype(np.int64)
    rows["opening_games"] = n["opening"].astype(np.int64)
    rows["played_games"] = n["played"].astype(np.int64)
    rows["never_drawn_games"] = (N - n["drawn"]).astype(np.int64)
    for w in ("drawn", "opening", "played"):
        rows[f"{w}_win_rate"] = _rate(S[w], n[w])
        rows[f"{w}_low"], rows[f"{w}_high"] = _wilson(S[w], n[w])
    nd_s, nd_n = T - S["drawn"], N - n["drawn"]
    rows["not_drawn_win_rate"] = _rate(nd_s, nd_n)
    rows["not_drawn_low"], rows["not_drawn_high"] = _wilson(nd_s, nd_n)
    rows["iwd"], rows["iwd_low"], rows["iwd_high"] = _diff(
        S["drawn"], S2["drawn"], n["drawn"], nd_s, T2 - S2["drawn"], nd_n
    )
    rows["oiwd"], rows["oiwd_low"], rows["oiwd_high"] = _diff(
        S["opening"], S2["opening"], n["opening"], T - S["opening"], T2 - S2["opening"],
        N - n["opening"],
    )  # fmt: skip
    rows["not_played_win_rate"] = _rate(T - S["played"], N - n["played"])
    rows["piw"], rows["piw_low"], rows["piw_high"] = _diff(
        S["played"], S2["played"], n["played"], T - S["played"], T2 - S2["played"],
        N - n["played"],
    )  # fmt: skip
    rows["play_rate"] = _rate(n["played"], n["drawn"])
    rows["held_never_played"] = _rate(n["held_unplayed"], n["drawn"])
    rows["plays_per_game_drawn"] = _rate(o.plays, n["drawn"])
    rows["mean_turn_played"] = _rate(o.turns, o.plays)
    total_uses = o.uses[:, CS_USE:].sum(axis=1)
    uses = []
    for k, name in enumerate(USE_NAMES):
        if not name:
            continue
        col = o.uses[:, CS_USE + k]
        rows[f"use_{name}"] = _rate(col, total_uses)
    for j in range(len(o.ids)):
        parts = [
            (USE_NAMES[k], o.uses[j, CS_USE + k] / total_uses[j])
            for k in range(1, len(USE_NAMES))
            if total_uses[j] > 0 and o.uses[j, CS_USE + k] > 0
        ]
        parts.sort(key=lambda x: -x[1])
        uses.append(", ".join(f"{_use_word(nm, o.ids[j].kind)} {100 * v:.0f}%" for nm, v in parts))
    rows["used_as"] = uses
    copies = []
    for i in o.ids:
        for c in i.copies:
            dn, pn = o.copy_n["drawn"][c], o.copy_n["played"][c]
            copies.append(
                {
                    "card_no": c + 1,
                    "card": i.label,
                    "drawn_games": int(dn),
                    "drawn_win_rate": o.copy_s["drawn"][c] / dn if dn else np.nan,
                    "played_games": int(pn),
                    "played_win_rate": o.copy_s["played"][c] / pn if pn else np.nan,
                    "play_rate": pn / dn if dn else np.nan,
                }
            )
    return rows, pd.DataFrame(copies)


def _use_word(name: str, kind: str) -> str:
    if name == "restore" and kind == "leader":
        return "rally"
    return {"attack_start": "attack (starting)", "fire": "bombard/volley",
            "banzai": "Banzai Charge"}.get(name, name)  # fmt: skip
