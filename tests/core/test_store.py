"""core.store.read_parts: the frame pandas' own reading of a store's parts gives (issue 41),
sooner: the same values and column types, with columns, filters, and parts that differ."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from manoeuvre_sim.core.store import read_parts, read_store, write_part


def _part(pairing: int, n: int, first: int = 0, **extra) -> pd.DataFrame:
    games = np.arange(first, first + n)
    df = pd.DataFrame({"label": "tuned", "pairing": np.int32(pairing), "game": games,
                       "army_a": "France", "winner": np.where(games % 3 == 0, "a", "b"),
                       "game_turns": (games % 7).astype(np.int16)})  # fmt: skip
    return df.assign(**extra)


def _old(files, columns=None, filters=None):
    import pyarrow.parquet as pq

    frames = []
    for f in files:
        names = pq.read_schema(f).names
        cols = [c for c in columns if c in names] if columns else None
        frames.append(pd.read_parquet(f, columns=cols, filters=filters))
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("odd", [False, True], ids=["same-columns", "a-part-with-another-column"])
def test_read_parts_is_pandas_own_reading(tmp_path, odd):
    store = tmp_path / "games.parquet"
    for p in range(3):
        for first in (0, 40):
            extra = {"cards": 1.5} if odd and (p, first) == (1, 40) else {}
            write_part(_part(p, 40, first, **extra), store / f"t-p{p}-g{first}.parquet",
                       {"study": "test", "task": {"pairing": p}})  # fmt: skip
    files = sorted(store.glob("*.parquet"))
    for kw in ({}, {"columns": ["pairing", "game", "winner", "cards"]},
               {"filters": [("pairing", "==", 1), ("game", ">=", 30)]}):  # fmt: skip
        got, want = read_parts(files, **kw), _old(files, **kw)
        pd.testing.assert_frame_equal(got, want, check_exact=True)
        assert list(got.dtypes) == list(want.dtypes)
    whole = read_store(store)
    assert len(whole) == 240 and whole["game"].is_monotonic_increasing is False
    assert whole[["pairing", "game"]].equals(whole[["pairing", "game"]].sort_values(["pairing",
                                                                                    "game"]))  # fmt: skip
