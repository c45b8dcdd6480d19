"""Manoeuvre's parts for the why study (``manoeuvre/why_parts.py``): what an army is cut into,
what switching a part off changes (and nothing else), that every part of both armies off
plays one army against itself, and the planted case on the engine at a small size."""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import Pairing
from manoeuvre_sim.manoeuvre import adapter
from manoeuvre_sim.manoeuvre import why_parts as WP
from manoeuvre_sim.manoeuvre.model.export import card_rows


def _pairing(a, b):
    return Pairing(adapter.load_side(a) if isinstance(a, str) else a,
                   adapter.load_side(b) if isinstance(b, str) else b, "tuned", "tuned", 7)  # fmt: skip


def _packed(p):
    prep = adapter.prepare([p], adapter.Options())
    return adapter.apply_patches(prep["packed"][adapter._pack_key(p)][2], p.patches)


def test_an_army_is_cut_into_units_leaders_hq_types_and_its_tie_break_place():
    france = adapter.load_side("France")
    parts = WP.why_parts(france)
    kinds = [k for _, k in parts]
    assert kinds.count("unit") == 8 and kinds.count("leader") == len(france.leaders) == 6
    assert ("HQ Supply x4", "hq") in parts and ("HQ Withdraw x4", "hq") in parts
    assert kinds.count("hq") == len({h.type for h in france.hq})
    assert parts[-1] == ("tie-break place 8", "tiebreak")
    assert len({n for n, _ in parts}) == len(parts)


def test_the_neutral_unit_is_the_median_infantry_unit_of_the_base_armies():
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    scores = sorted(WP.unit_score(u) for a in load_builtin_armies() for u in a.units
                    if not u.is_cavalry)  # fmt: skip
    u = WP.neutral_unit()
    assert u.type == "infantry" and len(u.cards) == 5
    assert WP.unit_score(u) == scores[(len(scores) - 1) // 2]


def test_switching_a_part_off_changes_that_part_alone():
    france = adapter.load_side("France")
    rows = card_rows(france)
    p = _pairing(france, "United States")
    # a leader: its one card blank, nothing else
    q = WP.why_pairing(p, {"leader Napoléon Bonaparte"}, set())
    napoleon = next(int(r["card_no"]) - 1 for r in rows if r["name"] == "Napoléon Bonaparte")
    assert q.patches == ((0, napoleon, -1),) and q.army_a == france
    # an HQ type: each of its copies blank (seat b's copies: side 1)
    q = WP.why_pairing(p, set(), {"HQ Ambush x4"})
    us = card_rows(p.army_b)
    assert [c for _, c, _ in q.patches] == [int(r["card_no"]) - 1 for r in us
                                            if r["hq_type"] == "Ambush"]  # fmt: skip
    assert {s for s, _, _ in q.patches} == {1}
    # a unit: the neutral unit in its slot, its cards with it; the other units unchanged
    q = WP.why_pairing(p, {"unit Garde Imperial"}, set())
    i = [u.name for u in france.units].index("Garde Imperial")
    assert q.army_a.units[i].name == f"(neutral {i + 1})" and not q.patches
    assert q.army_a.units[i].cards == WP.neutral_unit().cards
    assert [u for k, u in enumerate(q.army_a.units) if k != i] == [
        u for k, u in enumerate(france.units) if k != i]  # fmt: skip
    # the tie-break place
    q = WP.why_pairing(p, {"tie-break place 8"}, set())
    assert q.army_a.tiebreak_rank == WP.NEUTRAL_RANK
    with pytest.raises(UsageError, match="has no part 'unit Old Guard'; its parts: unit 1st"):
        WP.why_pairing(p, {"unit Old Guard"}, set())


def test_every_part_of_both_armies_off_is_one_army_against_itself():
    p = _pairing("France", "United States")
    off = [frozenset(n for n, _ in WP.why_parts(a)) for a in (p.army_a, p.army_b)]
    P = _packed(WP.why_pairing(p, *off))
    half = P.units.shape[0] // 2
    assert np.array_equal(P.units[:half], P.units[half:])
    assert P.deck_size[0] == P.deck_size[1] == 60
    assert np.array_equal(P.cards[0], P.cards[1])
    assert P.rank[0] == P.rank[1]
    # and with one part on the two differ
    P1 = _packed(WP.why_pairing(p, off[0] - {"HQ Supply x4"}, off[1]))
    assert not np.array_equal(P1.cards[0], P1.cards[1])


def test_the_neutral_army_is_its_own_reference_and_expansion_armies_are_refused():
    n = WP.neutral_army()
    parts = [name for name, _ in WP.why_parts(n)]
    assert WP.switch_off(n, parts, 0) == (n, [])
    from manoeuvre_sim.manoeuvre.model import find_army

    with pytest.raises(UsageError, match="Distant Lands rules"):
        WP.why_parts(find_army("tests/fixtures/distant_lands/india.toml"))


def test_the_planted_unit_carries_the_whole_gap_on_the_engine():
    """Two copies of the neutral army, one unit 3 points stronger on one side: that unit's
    contribution is the whole measured gap, every other part exactly zero (same seeds)."""
    from manoeuvre_sim.studies import why

    base = WP.neutral_army("Neutral", units=8)
    strong, _ = adapter.apply_side_edits(base, ["Neutral/(neutral 3)/full=9"], relax=True)
    strong = strong.model_copy(update={"name": "Strong"})
    res = why.run("manoeuvre", [base, strong], samples=2, block=6, method="permutation")
    c = res.contributions.set_index(["side", "part"])
    planted = c.loc[("Strong", "unit (neutral 3)")]
    assert planted["contribution"] == pytest.approx(res.total("gap")["estimate"], abs=1e-12)
    others = c.drop(("Strong", "unit (neutral 3)"))
    assert (others[["contribution", "lo", "hi"]] == 0).all().all()
    assert res.manifest["games"] == 2 * 2 * 2 * 18 * 6  # samples x seatings x 2n x block
