"""Draws in a what-if (studies/whatif.py): a drawn game scores a half for the changed army
in either seat. A Manoeuvre game is drawn only when every nightfall tie-break is equal, the
nation's rank included, so only an army against a copy of itself (another name, the same
rank) draws, and the balance tests' fields never do (issue 30)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm, ttest_1samp

from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.manoeuvre.balance_setup import resolve_armies
from manoeuvre_sim.studies import whatif as W
from manoeuvre_sim.studies.whatif import Joint
from manoeuvre_sim.studies.whatif_tables import side_tables

SCORE = {"a": {"a": 1.0, "b": 0.0, "draw": 0.5}, "b": {"a": 0.0, "b": 1.0, "draw": 0.5}}


def _frame(first: str, winners: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"game": np.arange(len(winners)), "first_player": first, "winner": winners})


# X's games against Y: in seat a (pairing X-Y) and in seat b (pairing Y-X), base and variant
AS_A = (["a", "draw", "b", "draw", "a", "b"], ["draw", "draw", "a", "b", "a", "draw"])
AS_B = (["draw", "a", "b", "draw", "draw", "a"], ["b", "draw", "b", "a", "b", "draw"])


def test_draws_score_a_half_in_both_seats_of_a_hand_made_whatif():
    """X's scores by hand: seat a, base 1 .5 0 .5 1 0 = 3, variant .5 .5 1 0 1 .5 = 3.5;
    seat b, base .5 0 1 .5 .5 0 = 2.5, variant 1 .5 1 0 1 .5 = 4. So 5.5/12 -> 7.5/12,
    a change of +2/12 in 9 games of 12 whose outcome changed; a seat-b draw scored 0 would
    give 4/12 -> 6.5/12, +2.5/12."""
    joint = Joint()  # the what-if's pairs of games (studies/whatif.py), as the study fills it
    for i, (base, variant) in enumerate((AS_A, AS_B)):
        joint.add("base", i, 0, _frame("a", base))
        joint.add("variant", i, 0, _frame("a", variant))
    pair = [
        SimpleNamespace(army_a=SimpleNamespace(name=a), army_b=SimpleNamespace(name=b))
        for a, b in (("X", "Y"), ("Y", "X"))
    ]
    spec = SimpleNamespace(touched=("X",), names=["X", "Y"], seed=1)
    res = SimpleNamespace(spec=spec, pairings=pair, joint=joint.counts, base_groups=dict)
    tables = side_tables(res, boot=0)
    wi, fld = tables["whatif"], tables["whatif_field"]
    row = wi.set_index(["army", "opponent"]).loc[("X", "Y")]
    assert row["games"] == 12
    assert row["base_win_rate"] == pytest.approx(5.5 / 12, abs=1e-12)
    assert row["variant_win_rate"] == pytest.approx(7.5 / 12, abs=1e-12)
    assert row["changed_games"] == pytest.approx(9 / 12, abs=1e-12)
    # the interval from the per-game differences, against scipy
    d = np.array(
        [SCORE[seat][v] - SCORE[seat][b] for seat, games in (("a", AS_A), ("b", AS_B))
         for b, v in zip(*games, strict=True)]
    )  # fmt: skip
    assert d.sum() == pytest.approx(2.0)
    ci = ttest_1samp(d, 0.0).confidence_interval()
    assert row["delta"] == pytest.approx(2 / 12, abs=1e-12)
    assert (row["delta_low"], row["delta_high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)
    # one opponent: the field is that cell, with a normal interval of the mean difference
    f = fld.set_index("army").loc["X"]
    half = norm.ppf(0.975) * d.std() / np.sqrt(len(d))
    assert (f["base_field_win_rate"], f["variant_field_win_rate"]) == pytest.approx(
        (5.5 / 12, 7.5 / 12), abs=1e-12
    )
    assert (f["delta"], f["delta_low"], f["delta_high"]) == pytest.approx(
        (2 / 12, 2 / 12 - half, 2 / 12 + half), abs=1e-12
    )


def test_whatif_of_an_army_against_its_renamed_copy_scores_real_draws(tmp_path):
    """End to end: France against a copy of itself under another name (same tie-break rank)
    draws some games; the what-if's rates equal the per-game scores counted from the stored
    records, a draw a half in whichever seat France sat."""
    france = resolve_armies(["France"])[0][0]
    copy = france.model_copy(update={"name": "France copy"})
    res = W.run("manoeuvre", [france, copy], edits=["France/cards/Supply=0"],
                 games_per_pairing=150, seed=4, threads=1, out_dir=tmp_path, boot=0)  # fmt: skip
    g = pd.read_parquet(tmp_path / STORE)
    drawn = g[g["winner"] == "draw"]
    for a, b in (("France", "France copy"), ("France copy", "France")):
        assert ((drawn["army_a"] == a) & (drawn["army_b"] == b)).sum() > 0, (a, b)
    rates = {}
    for label in ("base", "variant"):
        s = []
        for (a, b), seat in ((("France", "France copy"), "a"), (("France copy", "France"), "b")):
            w = g[(g["label"] == label) & (g["army_a"] == a) & (g["army_b"] == b)]["winner"]
            s.append(w.map(SCORE[seat]).to_numpy())
        rates[label] = np.concatenate(s).mean()
    row = res.whatif.set_index(["army", "opponent"]).loc[("France", "France copy")]
    assert row["base_win_rate"] == pytest.approx(rates["base"], abs=1e-12)
    assert row["variant_win_rate"] == pytest.approx(rates["variant"], abs=1e-12)
    assert row["delta"] == pytest.approx(rates["variant"] - rates["base"], abs=1e-12)
