"""The paired what-if's scores read off hand-built counts (``studies/whatif.py``:
:class:`Joint` and :func:`paired_row`), with base and variant scores that differ, so a score
summed on the wrong axis of the 36 counts (the base's read as the variant's, or the first
player's axis as the winner's) gives another number."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from manoeuvre_sim.studies.whatif import Joint
from manoeuvre_sim.studies.whatif_tables import paired_row

# five paired games of one pairing: who moved first and who won, in the base and the variant
FIRST_BASE = ["a", "b", "a", "b", "b"]
WON_BASE = ["a", "a", "b", "draw", "a"]
FIRST_VARIANT = ["a", "b", "b", "a", "b"]
WON_VARIANT = ["b", "b", "a", "draw", "draw"]


def _frame(first: list[str], winners: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"game": np.arange(len(winners)), "first_player": first,
                         "winner": winners})  # fmt: skip


@pytest.mark.parametrize("variant_first", [False, True], ids=["base-first", "variant-first"])
def test_paired_scores_are_the_hand_counted_ones(variant_first):
    """Side a by hand: base 1 1 0 .5 1 = 3.5/5, variant 0 0 1 .5 .5 = 2/5, a change of
    -1.5/5 with 4 of 5 games' winner changed; side b: base 1.5/5, variant 3/5."""
    joint = Joint()
    blocks = [("base", _frame(FIRST_BASE, WON_BASE)),
              ("variant", _frame(FIRST_VARIANT, WON_VARIANT))]  # fmt: skip
    for which, df in reversed(blocks) if variant_first else blocks:
        joint.add(which, 0, 0, df)
    assert joint.paired_games == 5
    a = paired_row(joint.counts[0], "a")
    assert a["games"] == 5
    assert a["base_score"] == pytest.approx(3.5 / 5, abs=1e-12)
    assert a["variant_score"] == pytest.approx(2.0 / 5, abs=1e-12)
    assert a["change"] == pytest.approx(-1.5 / 5, abs=1e-12)
    assert a["changed_games"] == 4
    b = paired_row(joint.counts[0], "b")
    assert b["base_score"] == pytest.approx(1.5 / 5, abs=1e-12)
    assert b["variant_score"] == pytest.approx(3.0 / 5, abs=1e-12)
    assert b["change"] == pytest.approx(1.5 / 5, abs=1e-12)
