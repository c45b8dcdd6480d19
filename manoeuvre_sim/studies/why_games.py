"""The why study's games that show the gap (issue 42, item 3): a typical win, a typical loss
and a rare upset of side X in the pairing itself, each with its seed so it replays exactly,
and in each the decision where the learned position value swings most. Written once over
the game interface: the value is the game's ``why_value`` hook (``core/game_hooks.py``);
a game without it gets its games chosen and no decision marked.

The choice (:func:`choose`), from the games of the coalition with every part on (the
pairing as it is: the games of the observed rate), of every sample and both seatings,
each game scored for X (a win, a loss, a draw):

- **typical win**: among X's wins, the game whose length (game turns) is nearest the median
  length of X's wins;
- **typical loss**: the same among X's losses;
- **upset**: among the wins of the weaker side (the side scoring under 50 % in the
  observed rate; Y when it is exactly 50 %), the shortest (the most decisive win of the side
  that wins least), the typical game of the same kind left out;

ties by the earliest game (sample, seating, game index): the choice depends on the games
alone. A kind with no game (X never lost) is listed as missing.

The marked decision (:func:`mark`): decision k's swing is the change of the deciding
side's value from the start of decision k to the start of decision k + 1 (both from the
mover's own view: its chance to win); the decision with the largest absolute swing is
marked (ties: the earliest). The game's last decision is not a candidate: what follows it
is the result, not the learned value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

ROLES = ("typical win", "typical loss", "upset")
LENGTH = "game_turns"  # both games' records: the game turns played
_KEEP = ("game", "seed", "winner", LENGTH)  # what a chosen game's row keeps of its record


def full_frame(df, sample: int, seating: int) -> pd.DataFrame:
    """The all-parts-on coalition's games of one task (``df``: its records, with
    ``pairing`` and ``label``), as :func:`choose` reads them: ``x`` is X's result (1, 1/2,
    0); X sits in seat a in seating 0 and in seat b in seating 1."""
    mine = "a" if seating == 0 else "b"
    w = df["winner"].astype(str).to_numpy()
    cols = [c for c in (*_KEEP, "pairing", "label", "army_a", "army_b") if c in df.columns]
    out = df[cols].copy()
    out.insert(0, "seating", seating)
    out.insert(0, "sample", sample)
    out["x"] = np.where(w == mine, 1.0, np.where(w == "draw", 0.5, 0.0))
    return out.reset_index(drop=True)


def _nearest_median(games: pd.DataFrame) -> int | None:
    if games.empty:
        return None
    length = games[LENGTH].astype(float) if LENGTH in games else pd.Series(0.0, games.index)
    median = float(np.median(length))
    order = games.assign(_d=(length - median).abs()).sort_values(
        ["_d", "sample", "seating", "game"], kind="stable")  # fmt: skip
    return int(order.index[0])


def _shortest(games: pd.DataFrame) -> int | None:
    if games.empty:
        return None
    key = [LENGTH] if LENGTH in games else []
    return int(games.sort_values([*key, "sample", "seating", "game"], kind="stable").index[0])


def choose(games: pd.DataFrame, observed: float) -> list[dict]:
    """The three games (module docstring) of ``games`` (:func:`full_frame`'s rows, any
    order), each ``{"role", "rule", "index"}`` (``index``: its row's position in ``games``, None when
    there is none of its kind); ``observed``: X's score in the pairing."""
    g = games.reset_index(drop=True)
    wins, losses = g[g["x"] == 1.0], g[g["x"] == 0.0]
    win, loss = _nearest_median(wins), _nearest_median(losses)
    weaker_is_x = observed < 0.5
    pool = wins.drop(index=[win]) if weaker_is_x and win is not None else (
        losses.drop(index=[loss]) if not weaker_is_x and loss is not None else
        wins if weaker_is_x else losses)  # fmt: skip
    upset = _shortest(pool)
    who = "X" if weaker_is_x else "Y"
    return [
        {"role": ROLES[0], "index": win,
         "rule": "X's win whose length is nearest the median of X's wins"},
        {"role": ROLES[1], "index": loss,
         "rule": "X's loss whose length is nearest the median of X's losses"},
        {"role": ROLES[2], "index": upset,
         "rule": f"the shortest win of the weaker side ({who}), the typical one left out"},
    ]  # fmt: skip


def mark(rows: Sequence[dict]) -> dict | None:
    """The decision where the mover's learned value swings most (module docstring), of
    ``why_value``'s rows: that row with ``swing`` (its mover's change), ``before`` and
    ``after`` (the mover's value at its start and at the next decision's); None with fewer
    than two decisions."""
    best = None
    for k in range(len(rows) - 1):
        r, nxt = rows[k], rows[k + 1]
        side = f"value_{r['mover']}"
        before, after = float(r[side]), float(nxt[side])
        swing = after - before
        if best is None or abs(swing) > abs(best["swing"]):
            best = dict(r) | {"swing": swing, "before": before, "after": after}
    return best


def chosen_tables(
    games: pd.DataFrame,
    observed: float,
    names: Sequence[str],
    value=None,
    pairing_of=None,
    options=None,
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """``(games table, values table, model)``: the three games (:func:`choose`), each row
    with its role, rule, sample, seating, the store's ``pairing`` and ``label``, ``game``,
    ``seed``, its armies in seats a and b, ``winner`` (the army's name or ``draw``), X's
    result, its length and the marked decision (``decision``, ``event``, ``turn``,
    ``mover`` (the army), ``before``, ``after``, ``swing``; empty without a value); the
    values table every decision of each chosen game (``role``, ``decision``, ``event``,
    ``turn``, ``mover``, ``value_a``, ``value_b``). ``value``: the game's ``why_value``
    (None: no value); ``pairing_of(seating)``: the coalition pairing of that seating."""
    x, y = names
    out, curve, model = [], [], ""
    for c in choose(games, observed):
        row = {"role": c["role"], "rule": c["rule"]}
        if c["index"] is None:
            out.append(row | {"missing": True})
            continue
        g = games.reset_index(drop=True).loc[c["index"]]
        seats = (x, y) if int(g["seating"]) == 0 else (y, x)
        win = str(g["winner"])
        row |= {"missing": False, "sample": int(g["sample"]), "seating": int(g["seating"]),
                "pairing": int(g["pairing"]), "label": str(g["label"]), "game": int(g["game"]),
                "seed": int(g["seed"]), "army_a": seats[0], "army_b": seats[1],
                "winner": seats["ab".index(win)] if win in ("a", "b") else "draw",
                "x_result": float(g["x"]),
                LENGTH: int(g[LENGTH]) if LENGTH in g else None}  # fmt: skip
        if value is not None:
            model, rows = value(pairing_of(int(g["seating"])), int(g["game"]), options)
            hit = mark(rows)
            if hit is not None:
                row |= {"decision": hit["decision"], "event": hit["event"], "turn": hit["turn"],
                        "mover": seats["ab".index(hit["mover"])], "before": hit["before"],
                        "after": hit["after"], "swing": hit["swing"]}  # fmt: skip
            curve += [{"role": c["role"], **r} for r in rows]
        out.append(row)
    cols = ["role", "rule", "missing", "sample", "seating", "pairing", "label", "game", "seed",
            "army_a", "army_b", "winner", "x_result", LENGTH, "decision", "event", "turn",
            "mover", "before", "after", "swing"]  # fmt: skip
    values = pd.DataFrame(curve, columns=["role", "decision", "event", "turn", "mover",
                                          "value_a", "value_b"])  # fmt: skip
    table = pd.DataFrame(out, dtype=object).reindex(columns=cols)
    for col in (
        "sample",
        "seating",
        "pairing",
        "game",
        "seed",
        LENGTH,
        "decision",
        "event",
        "turn",
    ):  # whole numbers (a seed has 19 digits: never through a float)
        table[col] = table[col].astype("Int64")
    for col in ("x_result", "before", "after", "swing"):
        table[col] = table[col].astype("Float64")
    table["missing"] = table["missing"].astype(bool)
    return table, values, model


def summary_lines(table: pd.DataFrame, model: str) -> list[str]:
    """The summary's lines of the chosen games."""
    out = [f"the games that show it (all parts on; value: {model or 'none, no decision marked'}):"]
    for r in table.itertuples(index=False):
        if r.missing:
            out.append(f"  {r.role:<13} none ({r.rule})")
            continue
        line = (f"  {r.role:<13} game {r.game} (seed {r.seed}), {r.army_a} (a) against "
                f"{r.army_b} (b): {r.winner} wins, {getattr(r, LENGTH)} game turns")  # fmt: skip
        if not pd.isna(r.decision):
            line += (
                f"; swing at decision {int(r.decision)} (event {int(r.event)}, turn "
                f"{int(r.turn)}, {r.mover}): {100 * r.before:.0f} -> {100 * r.after:.0f} %"
            )
        out.append(line)
    return out


__all__ = ["LENGTH", "ROLES", "choose", "chosen_tables", "full_frame", "mark", "summary_lines"]
