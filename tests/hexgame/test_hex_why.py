"""Maneuver's parts for the why study (``hexgame/why_parts.py``): a side's unit types, army
quality and territory; what switching each off changes; the two seatings (the second on the
map turned half round); every part off is one army on a halved map; every part on plays
the variant's own games; the planted case on the engine; ``hex why`` on the command line."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import Pairing
from manoeuvre_sim.hexgame import adapter as A
from manoeuvre_sim.hexgame import why_parts as WP
from manoeuvre_sim.studies import why

FIXED = ["blue/Infantry/count=5", "blue/Artillery/count=1"]  # hex fix's errata of large_blue


def _sides(border="basic", edits=(), **kw):
    options = A.Options(border=border, **kw)
    return options, A.why_sides(options, edits)


def _packed(p, options):
    """What the engine plays of pairing ``p``: its packed units, hexes and options array."""
    prep = A.prepare([p], options)
    packed, opt, opts = prep.get("sides", {}).get((p.army_a, p.army_b),
                                                  (prep["packed"], prep["opt"], options))  # fmt: skip
    return packed, opt, opts


def _all(side):
    return frozenset(n for n, _ in WP.why_parts(side))


def test_a_side_is_cut_into_its_unit_types_its_quality_and_its_territory():
    _, (blue, red) = _sides("large_blue", FIXED, quality_red="back")
    assert WP.why_parts(blue) == [
        ("infantry x5", "unit"), ("cavalry x2", "unit"), ("artillery x1", "unit"),
        ("Capital", "unit"), ("army quality front", "quality"),
        ("territory +20 hexes", "territory")]  # fmt: skip
    assert [n for n, _ in WP.why_parts(red)][4:] == ["army quality back", "territory +0 hexes"]
    _, (blue, red) = _sides("large_red")
    assert WP.why_parts(red)[-1] == ("territory +16 hexes", "territory")  # 2,2,2,1,1,1,1,2,2,2
    assert WP.why_parts(blue)[-1] == ("territory +0 hexes", "territory")


def test_the_reference_is_the_built_in_scenarios_order_of_battle():
    units = [json.loads(u) for u in WP.reference_units()]
    said = {"infantry": "6 x 4-2 MA 3", "cavalry": "2 x 2-0 MA 5", "artillery": "2 x 5-3/2-1 MA 2",
            "capital": "the Capital 1-0/4-0"}  # fmt: skip
    for u in units:  # WHY_REFERENCE says what the reference is, as the file has it
        if u["type"] == "capital":
            text = (
                f"the Capital {u['attack'][0]}-{u['attack'][1]}/{u['defence'][0]}-{u['defence'][1]}"
            )
        elif u.get("strength"):
            text = f"{u['count']} x {u['strength'][0]}-{u['strength'][1]} MA {u['ma']}"
        else:
            text = (f"{u['count']} x {u['attack'][0]}-{u['attack'][1]}/{u['defence'][0]}-"
                    f"{u['defence'][1]} MA {u['ma']}")  # fmt: skip
        assert text == said[u["type"]] and text in WP.WHY_REFERENCE


def test_switching_a_part_off_changes_that_part_alone():
    options, (blue, red) = _sides("large_blue", FIXED, quality_blue="2")
    own = json.loads(blue.scenario)["sides"]["blue"]["units"]
    ref = [json.loads(u) for u in WP.reference_units()]
    units, quality, gain = WP.switch_off(blue, {"infantry x5"})
    assert [u for u in units if u["type"] == "infantry"] == [
        u for u in ref if u["type"] == "infantry"
    ]
    assert [u for u in units if u["type"] != "infantry"] == [
        u for u in own if u["type"] != "infantry"
    ]
    assert (quality, gain) == ("2", (2,) * 10)
    assert WP.switch_off(blue, {"army quality 2"})[1:] == ("front", (2,) * 10)
    assert WP.switch_off(blue, {"territory +20 hexes"})[2] == (0,) * 10
    assert WP.switch_off(blue, set())[0] == own
    with pytest.raises(UsageError, match="blue has no part 'infantry x6'; its parts: infantry x5"):
        WP.switch_off(blue, {"infantry x6"})


def test_every_part_on_plays_the_variants_own_games():
    options, (blue, red) = _sides("large_blue", FIXED, quality_red="back")
    plain = A.apply_side_edits(A.scenario_sides(options)[0], FIXED)[0]
    p = Pairing(plain, A.scenario_sides(options)[1], "capital", "capital", 3)
    q = WP.why_pairing(Pairing(blue, red, "capital", "capital", 3), set(), set())
    (u0, o0, opts0), (u1, o1, opts1) = _packed(p, options), _packed(q, options)
    assert np.array_equal(u0.units, u1.units) and np.array_equal(u0.hexes, u1.hexes)
    assert np.array_equal(o0, o1) and opts0 == opts1  # the border by its own name
    assert A.play_block(A.prepare([p], options), p, 0, 30, 1)[0]["winner"].equals(
        A.play_block(A.prepare([q], options), q, 0, 30, 1)[0]["winner"])  # fmt: skip


def test_every_part_off_is_one_army_on_a_halved_map_in_both_seatings():
    options, (blue, red) = _sides("large_blue", FIXED, quality_blue="back")
    seen = []
    for a, b in ((blue, red), (red, blue)):
        q = WP.why_pairing(Pairing(a, b, "capital", "capital", 3), _all(a), _all(b))
        packed, opt, opts = _packed(q, options)
        assert np.array_equal(packed.units[:16], packed.units[16:])
        assert q.army_a.border == (7,) * 10 and opts.border == "basic"
        assert (opts.quality_blue, opts.quality_red) == ("front", "front")
        seen.append((packed.units, packed.hexes, opt))
    assert all(np.array_equal(x, y) for x, y in zip(*seen, strict=True))  # one scenario
    # and with one part on the two sides differ
    q = WP.why_pairing(Pairing(blue, red, "capital", "capital", 3), _all(blue) - {"artillery x1"},
                       _all(red))  # fmt: skip
    packed = _packed(q, options)[0]
    assert not np.array_equal(packed.units[:16], packed.units[16:])


def test_the_second_seating_turns_the_map_half_round():
    """Red in seat a plays from the top: each side's land keeps its shape, turned (column c
    to column 9 - c), and its own units and quality."""
    options, (blue, red) = _sides("basic", quality_blue="back")
    bent = (9, 8, 7, 7, 7, 7, 7, 7, 7, 7)  # blue's gain 2 and 1 in the first two columns
    blue, red = replace(blue, border=bent), replace(red, border=bent)
    assert WP.gains(blue) == (2, 1) + (0,) * 8 and WP.gains(red) == (0,) * 10
    q = WP.why_pairing(Pairing(red, blue, "capital", "capital", 3), set(), set())
    assert q.army_a.name == "blue" and q.army_a.border == (7,) * 8 + (6, 5)
    assert (q.army_a.quality, q.army_b.quality) == ("front", "back")  # blue's quality in seat b
    packed, _, opts = _packed(q, options)
    side = packed.hexes[:, 0]
    assert int((side == 1).sum()) == 73  # blue's 70 + 3 hexes, from the bottom
    assert opts.border == "why"  # no border of the scenario has these rows


def test_bad_sides_are_one_line():
    options, (blue, red) = _sides()
    with pytest.raises(UsageError, match="carries no scenario and border"):
        WP.why_parts(A.load_side("blue"))
    raw = json.loads(blue.scenario)
    odd = replace(blue, scenario=json.dumps(raw | {"rows": 13}))
    with pytest.raises(UsageError, match="map is 10 x 13 hexes; expected an even number"):
        WP.why_parts(odd)
    units = raw["sides"]["blue"]["units"]
    raw["sides"]["blue"]["units"] = [units[0], units[3], units[1], units[2]]  # artillery first
    with pytest.raises(UsageError, match="list their types in another order"):
        WP.why_parts(replace(blue, scenario=json.dumps(raw)))
    with pytest.raises(UsageError, match="--border: 'nope' is not a border"):
        A.why_sides(A.Options(border="nope"))


def test_the_planted_type_carries_the_whole_gap_on_the_engine():
    """Two copies of the reference army (the built-in scenario), blue's infantry a point
    stronger: that part's contribution is the whole measured gap, every other part exactly
    zero (same seeds), and the mirror holds 1/2."""
    options, sides = _sides("basic", ["blue/Infantry/strength=5:2"])
    res = why.run("hex", list(sides), samples=4, block=60, options=options, threads=1)
    c = res.contributions.set_index(["side", "part"])
    gap = res.total("gap")
    planted = c.loc[("blue", "infantry x6")]
    assert planted["contribution"] == pytest.approx(gap["estimate"], abs=1e-12)
    assert planted["lo"] > 0.03  # a stronger line raises blue's score
    others = c.drop(("blue", "infantry x6"))
    assert (others[["contribution", "lo", "hi"]] == 0).all().all()
    off = res.total("all_off")
    assert off["lo"] <= 0.5 <= off["hi"]
    assert res.manifest["games"] == 4 * 2 * 24 * 60  # samples x seatings x 2n x block


def test_hex_why_on_the_command_line(tmp_path, capsys):
    from manoeuvre_sim.cli.main import main

    out = tmp_path / "why"
    args = ["hex", "why", "--border", "large_blue", "--set", "blue/quality=3", "--samples", "2",
            "--block", "4", "--quiet", "--threads", "1", "--out", str(out)]  # fmt: skip
    main(args)
    text = capsys.readouterr().out
    assert "blue             army quality 3" in text and "territory +20 hexes" in text
    m = json.loads((out / "manifest.json").read_text())
    assert m["study"] == "why" and m["games"] == 2 * 2 * 24 * 4
    assert (out / "waterfall.png").is_file() and (out / "why.pdf").is_file()
    with pytest.raises(SystemExit):
        main(["hex", "why", "--set", "blue/Cavalry/strength=3:1", "--out", str(tmp_path / "b")])
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("error: --set 'blue/Cavalry/strength=3:1': sides > blue: expected "
                       "exactly two combat units whose reduced side is 0 (rule [5]), got 0")  # fmt: skip
