"""When the Capital fell in a variant study, as its "When did the Capital fall?" figures
show it (the PDF's :func:`~manoeuvre_sim.analyses.hexgame.balance_pdf.capital_fell_lines`
and the workbench's study page): read from the study's ``capital_fell`` table.

A module of its own so that both import it without importing the study (``variants``,
which imports the PDF's module).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from manoeuvre_sim.analyses.hexgame.rows import ALL


def fallen_by_turn(capital_fell: pd.DataFrame, capital: str) -> pd.DataFrame:
    """From ``capital_fell`` (the study's table): the share of games in which ``capital``'s
    (blue or red) Capital had fallen by the end of each turn from 1 on, per variant, all
    pairings pooled (the pooled rows when the table has them); columns ``variant``,
    ``turn``, ``fallen``, in the table's order of variants. The PDF's and the workbench's
    "When did the Capital fall?" draw it."""
    cf = capital_fell[capital_fell["capital"] == capital]
    if (cf["policy_blue"] == ALL).any():
        cf = cf[cf["policy_blue"] == ALL]
    out = []
    for variant, g in cf.groupby("variant", sort=False):
        g = g.groupby("turn")["count"].sum()
        n = g.sum()
        turns = g.index[g.index > 0]
        cum = np.cumsum(g.loc[turns].to_numpy()) / n
        out += [{"variant": variant, "turn": int(t), "fallen": float(c)}
                for t, c in zip(turns, cum, strict=True)]  # fmt: skip
    return pd.DataFrame(out, columns=["variant", "turn", "fallen"])
