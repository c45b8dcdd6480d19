"""The why study of one army against the field (``studies/why_field.py``) on the toy coin
game: the known values of a linear game (X's parts and each opponent's), the planted case,
efficiency, the seeds, resume and bad input.

With one flip a side, X's score against Y is 1/2 + (p_X - p_Y) / 2, so against the field it
is 1/2 + (p_X - mean p_Y) / 2: linear in the parts, each Shapley value known exactly
(+offset/200 for X's parts, -(heads - 50) / (200 m) for each of the m opponents).
"""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.studies import why_field as F
from tests.studies import coin_game

ONE_FLIP = coin_game.Options(flips=1)
X = "x:50/a=10/b=-6"
FIELD = ["y:50/a=20", "z:60", "w:40/c=5"]


@pytest.mark.parametrize("method", ["exact", "permutation"])
def test_every_part_of_a_linear_field_gets_its_known_value(method):
    res = F.run(coin_game, X, FIELD, method=method, samples=8, block=40, options=ONE_FLIP)
    c = res.contributions
    assert list(c["part"]) == ["base", "a", "b", "army y", "army z", "army w"]
    assert list(c["side"]) == ["x", "x", "x", "y", "z", "w"]
    heads = {s: coin_game.load_side(s).heads for s in FIELD}
    truth = np.array([0, 10 / 200, -6 / 200, *(-(h - 50) / 600 for h in heads.values())])
    assert np.all(np.abs(c["contribution"] - truth) <= 4 * c["se"] + 1e-12), (c, truth)
    assert c["se"].max() < 0.02
    assert res.spec.method == method
    m = res.manifest
    assert c["contribution"].sum() == pytest.approx(m["gap"], abs=1e-12)
    assert m["efficiency_residual"] < 1e-12
    per = res.spec.coalitions_per_sample()
    assert m["games"] == 8 * 2 * 3 * per * 40  # samples x seatings x opponents x coalitions
    assert m["why"]["field"] == ["y", "z", "w"]
    assert "the field (3 armies: y, z, w)" in res.summary()[0]


def test_the_planted_part_carries_the_whole_gap_against_the_field():
    """X a copy of the neutral coin with one part strengthened, the field two neutral coins:
    that part is the whole gap, every other part (the opponents among them) exactly 0."""
    res = F.run(coin_game, "x:50/a=25", ["y:50/a=0", "z"], samples=5, block=40)
    c = res.contributions.set_index(["side", "part"])
    gap = res.total("gap")
    assert c.loc[("x", "a"), "contribution"] == pytest.approx(gap["estimate"], abs=1e-12)
    assert c.loc[("x", "a"), "lo"] > 0.05
    others = c.drop(("x", "a"))
    assert (others[["contribution", "lo", "hi"]] == 0).all().all()


def test_every_coalition_of_a_pairing_keeps_its_seed_and_all_off_is_one_coin():
    spec = F.command_spec(coin_game, X, FIELD, samples=2, block=5, options=ONE_FLIP)
    for j, s, base in F._bases(spec):
        ps = [F.coalition_pairing(coin_game, spec, j, s, base, m) for m in range(1 << spec.n)]
        assert {p.seed for p in ps} == {base.seed}
        assert len({p.label for p in ps}) == len(ps)
        off = ps[0]
        assert off.army_a.heads == off.army_b.heads == 50
    assert len({b.seed for _, _, b in F._bases(spec)}) == 6  # 3 opponents x 2 seatings


def test_resume_reads_every_block_back(tmp_path):
    kw = {"samples": 3, "block": 10, "options": ONE_FLIP, "method": "permutation"}
    full = F.run(coin_game, X, FIELD, out_dir=tmp_path, **kw)
    again = F.run(coin_game, X, FIELD, out_dir=tmp_path, resume=True, **kw)
    assert again.manifest["tasks_resumed"] == full.manifest["games"] // 10
    assert again.contributions.equals(full.contributions)


@pytest.mark.parametrize("army, field, expected", [
    (X, [], "--field: expected at least one opponent"),
    ("x", ["y", "x"], "a side is named twice: x"),
])  # fmt: skip
def test_bad_input_is_one_line(army, field, expected):
    with pytest.raises(UsageError) as e:
        F.command_spec(coin_game, army, field)
    assert expected in str(e.value) and "\n" not in str(e.value)
