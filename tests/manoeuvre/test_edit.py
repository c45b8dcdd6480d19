"""Inline army edits (``--set PATH=VALUE``) and field-level army differences."""

from __future__ import annotations

import pytest

from manoeuvre_sim.core.data import validate
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.model import Army, data_dir, load_army, load_builtin_armies
from manoeuvre_sim.manoeuvre.model.edit import apply_edits, describe_changes

ARMIES = {a.name: a for a in load_builtin_armies()}


def _flat(node: object, prefix: tuple = ()) -> dict[tuple, object]:
    """Every leaf of a ``model_dump()`` keyed by its path (dict keys and list indices)."""
    if isinstance(node, dict):
        out: dict[tuple, object] = {}
        for k, v in node.items():
            out |= _flat(v, prefix + (k,))
        return out
    if isinstance(node, list | tuple):
        out = {}
        for i, v in enumerate(node):
            out |= _flat(v, prefix + (i,))
        return out
    return {prefix: node}


def _changed(before: Army, after: Army) -> dict[tuple, object]:
    """The leaves of ``after`` that differ from ``before`` (new value, or ``'<gone>'``)."""
    a, b = _flat(before.model_dump()), _flat(after.model_dump())
    return {k: b.get(k, "<gone>") for k in a.keys() | b.keys() if a.get(k) != b.get(k)}


def _as_input(army: Army) -> dict:
    """The army as a plain validation input to change by hand (each leader's combat once)."""
    data = army.model_dump()
    data["units"] = [dict(u) for u in data["units"]]
    data["leaders"] = [dict(ld) for ld in data["leaders"]]
    data["hq"] = [dict(h) for h in data["hq"]]
    for ld in data["leaders"]:
        if ld["combat"] is None:
            del ld["combat"]
        else:
            del ld["combat_attack"], ld["combat_defense"]
    return data


# GI = France's Garde Imperial (unit #8, index 7); Ney, Murat, Napoleon are leaders 4, 2, 5.
PATH_CASES = [
    ("France", ["France/Garde Imperial/full=9"], {("units", 7, "full"): 9}),
    ("France", ["france/imperial guard/reduced=4"], {("units", 7, "reduced"): 4}),
    ("France", ["France/Garde Imperial/type=Cavalry"], {("units", 7, "type"): "cavalry"}),
    ("France", ["France/Garde Imperial/name=Old Guard"], {("units", 7, "name"): "Old Guard"}),
    ("France", [" France / Garde Imperial / full = 9 "], {("units", 7, "full"): 9}),
    ("Great Britain", ["great_britain/1st Foot Guards/full=9"], {("units", 0, "full"): 9}),
    ("France", ["France/Garde Imperial/card1/attack=2D10"],
     {("units", 7, "cards", 0, "attack"): "2d10"}),
    ("France", ["France/Garde Imperial/card1/attack=none"],
     {("units", 7, "cards", 0, "attack"): None}),
    ("France", ["France/Garde Imperial/card2/defense=6"],
     {("units", 7, "cards", 1, "defense"): 6}),
    ("France", ["France/Garde Imperial/card3/withdraw_max=2"],
     {("units", 7, "cards", 2, "withdraw_max"): 2}),
    ("France", ["France/Guard Cavalry/card1/pursuit_max=none"],
     {("units", 6, "cards", 0, "pursuit_max"): None}),
    ("France", ["France/Guard Cavalry/card2/pursuit_max=6"],
     {("units", 6, "cards", 1, "pursuit_max"): 6}),
    ("France", ["France/Garde Imperial/card4/not_required_to_advance=FALSE"],
     {("units", 7, "cards", 3, "not_required_to_advance"): False}),
    ("France", ["France/Garde Imperial/card5/bombard=1d10"],
     {("units", 7, "cards", 4, "bombard"): "1d10"}),
    ("France", ["France/Garde Imperial/card5/artillery=false"],
     {("units", 7, "cards", 4, "artillery"): False}),
    ("France", ["France/Garde Imperial/card2/range=1", "France/Garde Imperial/card2/volley=2d8"],
     {("units", 7, "cards", 1, "range"): 1, ("units", 7, "cards", 1, "volley"): "2d8"}),
    ("France", ["France/leaders/Napoleon/command=5"], {("leaders", 4, "command"): 5}),
    ("France", ["France/leaders/michel ney/combat=5"],
     {("leaders", 3, "combat"): 5, ("leaders", 3, "combat_attack"): 5,
      ("leaders", 3, "combat_defense"): 5}),
    ("France", ["France/leaders/Ney/combat_attack=6"],
     {("leaders", 3, "combat"): None, ("leaders", 3, "combat_attack"): 6}),
    ("France", ["France/leaders/Ney/combat_defense=1"],
     {("leaders", 3, "combat"): None, ("leaders", 3, "combat_defense"): 1}),
    ("France", ["France/leaders/Ney/rally=auto"], {("leaders", 3, "rally"): "auto"}),
    ("France", ["France/leaders/Ney/rally=2"], {("leaders", 3, "rally"): 2}),
    ("France", ["France/leaders/Murat/pursuit_mod=none"], {("leaders", 1, "pursuit_mod"): None}),
    ("France", ["France/leaders/Murat/pursuit_mod=-2"], {("leaders", 1, "pursuit_mod"): -2}),
    ("France", ["France/leaders/Napoleon/grand_battery=none"],
     {("leaders", 4, "grand_battery"): None}),
    ("France", ["France/leaders/Davout/grand_battery=2d8"],
     {("leaders", 2, "grand_battery"): "2d8"}),
    ("Spain", ["Spain/leaders/palafox/combat=3"],
     {("leaders", 4, "combat"): 3, ("leaders", 4, "combat_attack"): 3,
      ("leaders", 4, "combat_defense"): 3}),
    # Two edits of the same field: the last wins.
    ("France", ["France/Garde Imperial/full=10", "France/Garde Imperial/full=9"],
     {("units", 7, "full"): 9}),
]  # fmt: skip


@pytest.mark.parametrize(("army", "edits", "expected"), PATH_CASES, ids=lambda x: str(x))
def test_each_path_changes_exactly_its_value(army, edits, expected):
    out, lines = apply_edits(ARMIES, edits)
    assert _changed(ARMIES[army], out[army]) == expected
    assert len(lines) == len(edits)
    assert all(line.startswith(f"{army} / ") and " -> " in line for line in lines)
    assert all("unchanged" not in line for line in lines)


def test_change_line_names_army_unit_field_and_values():
    _, lines = apply_edits(ARMIES, ["france/imperial guard/full=9"])
    assert lines == ["France / Garde Imperial / full: 8 -> 9"]
    _, lines = apply_edits(ARMIES, ["France/Garde Imperial/card1/attack=2d10"])
    assert lines == ["France / Garde Imperial / card1 / attack: 2d8 -> 2d10"]
    _, lines = apply_edits(ARMIES, ["France/leaders/napoleon/command=3"])
    assert lines == ["France / leaders / Napoléon Bonaparte / command: 4 -> 3"]


def test_untouched_armies_are_the_same_objects():
    out, _ = apply_edits(ARMIES, ["France/Garde Imperial/full=9"])
    assert list(out) == list(ARMIES)
    assert out is not ARMIES
    for name, army in ARMIES.items():
        if name == "France":
            assert out[name] is not army
            assert isinstance(out[name], Army)
        else:
            assert out[name] is army


def test_no_edits_change_nothing():
    out, lines = apply_edits(ARMIES, [])
    assert lines == []
    assert all(out[k] is ARMIES[k] for k in ARMIES)


# --------------------------------------------------------------------------- HQ counts


def test_hq_count_is_balanced_against_the_most_numerous_other_type():
    russia = ARMIES["Russia"]  # Committed Attack 3, Guerrilla 2, Redoubt 2, Skirmish 1, Supply 4
    out, lines = apply_edits(ARMIES, ["Russia/cards/supply=3"])
    new = out["Russia"]
    assert new.deck_size == 60 and new.hq_count == 20
    counts, before = new.hq_counts(), russia.hq_counts()
    assert counts["Supply"] == 3 and counts["Committed Attack"] == 4
    assert {k: v for k, v in counts.items() if k not in ("Supply", "Committed Attack")} == {
        k: v for k, v in before.items() if k not in ("Supply", "Committed Attack")
    }
    assert lines[0] == "Russia / cards / Supply: 4 -> 3"
    assert lines[1].startswith("Russia / cards / Committed Attack: 3 -> 4")
    assert "60" in lines[1] and len(lines) == 2


def test_hq_balancing_skips_named_types_and_breaks_ties_in_file_order():
    # Supply and Committed Attack are both named, so neither balances the other; Guerrilla,
    # Redoubt and Withdraw tie at 2 and Guerrilla comes first in the file.
    out, lines = apply_edits(ARMIES, ["Russia/cards/Supply=2", "Russia/cards/Committed Attack=1"])
    counts = out["Russia"].hq_counts()
    assert (counts["Supply"], counts["Committed Attack"], counts["Guerrilla"]) == (2, 1, 6)
    assert (counts["Redoubt"], counts["Withdraw"]) == (2, 2)
    assert out["Russia"].deck_size == 60
    assert sum("Guerrilla" in line for line in lines) == 2


def test_hq_type_with_a_slash_is_added_and_a_type_at_zero_disappears():
    out, lines = apply_edits(ARMIES, ["Russia/cards/scout/spy=2"])
    assert out["Russia"].hq_counts()["Scout/Spy"] == 2
    assert out["Russia"].hq_counts()["Supply"] == 2
    assert out["Russia"].hq_count == 20
    assert lines[0] == "Russia / cards / Scout/Spy: 0 -> 2"
    # France: Forced March 3, Redoubt 1, Sappers 1, Skirmish 1, Supply 4, Withdraw 4.
    out, lines = apply_edits(ARMIES, ["France/cards/Redoubt=5"])
    types = [h.type for h in out["France"].hq]
    assert "Supply" not in types and out["France"].hq_counts()["Withdraw"] == 4
    assert out["France"].deck_size == 60
    assert lines[1].startswith("France / cards / Supply: 4 -> 0")
    out, _ = apply_edits(ARMIES, ["Ottoman Empire/cards/Regroup=0"])
    assert "Regroup" not in [h.type for h in out["Ottoman Empire"].hq]
    assert out["Ottoman Empire"].hq_counts()["Withdraw"] == 12


def test_relax_changes_the_deck_size_without_balancing():
    out, lines = apply_edits(ARMIES, ["Russia/cards/Supply=5"], relax=True)
    new, old = out["Russia"], ARMIES["Russia"]
    assert new.deck_size == 61 and new.hq_count == 21
    assert new.hq_counts() == old.hq_counts() | {"Supply": 5}
    assert len(lines) == 1
    assert lines[0].startswith("Russia / cards / Supply: 4 -> 5")
    assert "relax" in lines[0] and "61" in lines[0]


# --------------------------------------------------------------------------- no-op edits


@pytest.mark.parametrize(
    "edit",
    [
        "France/Garde Imperial/full=8",
        "France/Garde Imperial/card1/attack=2D8",
        "France/Garde Imperial/card1/bombard=none",
        "France/leaders/Napoleon/combat=5",
        "France/leaders/Napoleon/combat_attack=5",
        "Spain/leaders/Palafox/combat_defense=5",
        "France/cards/Supply=4",
        "Russia/cards/Scout/Spy=0",
    ],
)
def test_setting_the_current_value_gives_an_equal_army(edit):
    army = edit.split("/")[0]
    out, lines = apply_edits(ARMIES, [edit])
    assert out[army] == ARMIES[army]
    assert describe_changes(ARMIES[army], out[army]) == []
    assert len(lines) == 1 and "unchanged" in lines[0]


# --------------------------------------------------------------------------- errors

ERROR_CASES = [
    # (edits, relax, the edit the message must name, what it must say)
    (["France/Garde Imperial/full=abc"], False, None,
     ["expected an integer for full, got 'abc'"]),
    (["Frnace/Garde Imperial/full=8"], False, None,
     ["unknown army 'Frnace'", "France", "Great Britain"]),
    (["France/Old Guard/full=8"], False, None,
     ["unknown unit 'Old Guard'", "Garde Imperial", "1st Cuirassiers"]),
    (["France/Garde Imperial/strength=8"], False, None,
     ["unknown unit field 'strength'", "full, reduced, type, name"]),
    (["France/Garde Imperial/card1/power=8"], False, None,
     ["unknown unit card field 'power'", "attack", "withdraw_max", "artillery"]),
    (["France/leaders/Ney/charisma=8"], False, None,
     ["unknown leader field 'charisma'", "command", "grand_battery"]),
    (["France/Garde Imperial/card6/defense=5"], False, None, ["card 6", "card1..card5"]),
    (["France/Garde Imperial/card0/defense=5"], False, None, ["card 0", "card1..card5"]),
    (["France/Garde Imperial/sixth/defense=5"], False, None, ["card1..card5", "'sixth'"]),
    (["France/leaders/Wellington/command=3"], False, None,
     ["unknown leader 'Wellington'", "Michel Ney", "Napoléon Bonaparte"]),
    (["Russia/leaders/count/command=3"], False, None,
     ["ambiguous leader 'count'", "Count of Sayn-Wittgenstein",
      "Levin August Count of Bennigsen"]),
    (["France/cards/Spies=1"], False, None,
     ["unknown HQ card type 'Spies'", "Scout/Spy", "Committed Attack", "Withdraw"]),
    (["France/Garde Imperial/card1/attack=3x7"], False, None,
     ["expected dice notation", "or none for attack", "'3x7'"]),
    (["France/Garde Imperial/card1/artillery=yes"], False, None,
     ["expected true or false for artillery, got 'yes'"]),
    (["France/Garde Imperial/type=dragoons"], False, None,
     ["expected infantry or cavalry for type, got 'dragoons'"]),
    (["France/Garde Imperial/card1/withdraw_max=often"], False, None,
     ["expected an integer or none for withdraw_max, got 'often'"]),
    (["France/Garde Imperial/card5/range=far"], False, None,
     ["expected 1, 2 or none for range, got 'far'"]),
    (["France/leaders/Ney/rally=sometimes"], False, None,
     ["expected an integer or auto for rally, got 'sometimes'"]),
    (["France/leaders/Ney/combat=2.5"], False, None, ["expected an integer for combat, got '2.5'"]),
    (["France/Garde Imperial/name="], False, None, ["expected a non-empty name"]),
    (["France/cards/Supply=-1"], False, None, ["expected a count", "for Supply, got '-1'"]),
    (["France/cards/Supply=lots"], False, None, ["expected a count", "got 'lots'"]),
    # Range checks and rules come from the pydantic model.
    (["France/Garde Imperial/full=99"], False, None,
     ['units #8 "Garde Imperial" > full', "30", "99"]),
    (["France/Garde Imperial/card1/range=3"], False, None, ["cards #1 > range", "2", "got 3"]),
    (["France/leaders/Ney/command=9"], False, None, ["leaders #4", "command", "8", "got 9"]),
    (["France/Garde Imperial/reduced=9"], False, None,
     ["reduced strength (9) must be below full strength (8)"]),
    (["France/Garde Imperial/card5/attack=2d6"], False, None,
     ["cards #5", "an artillery card has no attack value"]),
    (["France/1st Cuirassiers/type=infantry"], False, None,
     ["pursuit_max", "only cavalry units have pursuit values"]),
    (["France/Garde Imperial/name=Guard Cavalry"], False, None,
     ["unit names must be unique", "Guard Cavalry"]),
    # The grammar.
    (["France/Garde Imperial/full"], False, None, ["expected PATH=VALUE"]),
    (["France/Garde Imperial=8"], False, None, ["expected ARMY/UNIT/FIELD", "ARMY/cards/HQTYPE"]),
    (["France//full=8"], False, None, ["expected ARMY/UNIT/FIELD"]),
    (["France/Garde Imperial/card1/attack/x=2d8"], False, None, ["expected ARMY/UNIT/FIELD"]),
    (["France/leaders/Ney=3"], False, None, ["expected ARMY/leaders/LEADER/FIELD"]),
    # The deck size.
    (["France/cards/Supply=9"], False, None,
     ["cannot keep the deck at 60 cards", "Withdraw", "relax"]),
    (["Ottoman Empire/cards/Regroup=8", "Ottoman Empire/cards/Withdraw=5",
      "Ottoman Empire/cards/Committed Attack=4"], False, "Ottoman Empire/cards/Regroup=8",
     ["no other HQ type to balance", "relax"]),
    (["Russia/cards/Supply=60"], True, None, ["a deck holds at most 99 cards", "116"]),
    (["Russia/cards/Supply=61"], True, None, ["hq #5 > count", "60", "got 61"]),
    # The first bad edit is reported; a later problem names only the edit that caused it.
    (["France/Garde Imperial/full=9", "France/Guard Cavalry/card1/defense=30"], False,
     "France/Guard Cavalry/card1/defense=30", ["cards #1 > defense", "20", "got 30"]),
    (["France/Garde Imperial/full=9", "France/Garde Imperial/card1/defense=30"], False,
     "France/Garde Imperial/card1/defense=30", ["cards #1 > defense", "got 30"]),
    (["France/Garde Imperial/full=x", "Frnace/a/b=1"], False, "France/Garde Imperial/full=x",
     ["expected an integer for full"]),
]  # fmt: skip


@pytest.mark.parametrize(("edits", "relax", "culprit", "expected"), ERROR_CASES, ids=str)
def test_a_bad_edit_is_one_line_naming_the_edit_and_the_expectation(
    edits, relax, culprit, expected
):
    culprit = culprit or edits[0]
    with pytest.raises(UsageError) as err:
        apply_edits(ARMIES, edits, relax=relax)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f'--set "{culprit}": ')
    for other in set(edits) - {culprit}:
        assert other not in msg
    for text in expected:
        assert text in msg


def test_a_line_break_in_an_edit_does_not_break_the_message_line():
    with pytest.raises(UsageError) as err:
        apply_edits(ARMIES, ["France/Garde\nImperial/full=8"])
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith('--set "France/Garde\\nImperial/full=8": unknown unit')


def test_leader_names_ignore_accents_and_an_exact_name_beats_a_longer_one():
    data = _as_input(ARMIES["France"])
    leaders = data["leaders"]
    leaders[3]["name"] = "Michél Ney"
    leaders[0]["name"] = "Michél Ney the Younger"
    army = validate(Army, data, "test")
    out, lines = apply_edits({"France": army}, ["France/leaders/michel ney/command=5"])
    assert out["France"].leaders[3].command == 5
    assert lines == ["France / leaders / Michél Ney / command: 2 -> 5"]
    out, _ = apply_edits({"France": army}, ["France/leaders/NAPOLEON BONAPARTE/command=3"])
    assert out["France"].leaders[4].command == 3
    with pytest.raises(UsageError, match="ambiguous leader 'ney': matches Michél Ney the Younger"):
        apply_edits({"France": army}, ["France/leaders/ney/command=5"])


def test_several_model_problems_are_joined_on_one_line():
    edits = ["France/Garde Imperial/full=99", "France/Guard Cavalry/card1/defense=30"]
    with pytest.raises(UsageError) as err:
        apply_edits(ARMIES, edits)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith('--set "') and "; --set " in msg
    assert f'--set "{edits[0]}": units #8 "Garde Imperial" > full' in msg
    assert f'--set "{edits[1]}": units #7 "Guard Cavalry" > cards #1 > defense' in msg
    assert "got 99" in msg and "got 30" in msg


def test_a_bad_edit_leaves_the_input_armies_alone():
    before = {k: a.model_dump() for k, a in ARMIES.items()}
    with pytest.raises(UsageError):
        apply_edits(ARMIES, ["France/Garde Imperial/full=9", "France/Garde Imperial/full=x"])
    assert {k: a.model_dump() for k, a in ARMIES.items()} == before


# --------------------------------------------------------------------------- differences


def test_describe_changes_of_identical_armies_is_empty():
    for army in ARMIES.values():
        assert describe_changes(army, army) == []
        assert describe_changes(army, load_army(data_dir() / "armies" / f"{army.slug}.toml")) == []


def test_describe_changes_finds_a_one_card_difference_in_a_variant_file(tmp_path):
    text = (data_dir() / "armies" / "france.toml").read_text(encoding="utf-8")
    line = '  { attack = "2d8", defense = 7, not_required_to_advance = true },\n'
    i = text.index(line)  # the Garde Imperial's first card
    variant = tmp_path / "my_france.toml"
    variant.write_text(
        text[:i] + line.replace("defense = 7", "defense = 6") + text[i + len(line) :]
    )
    changes = describe_changes(ARMIES["France"], load_army(variant))
    assert changes == ["France / Garde Imperial / card1 / defense: 7 -> 6"]


def test_describe_changes_lists_units_leaders_and_hq_counts():
    data = _as_input(ARMIES["Spain"])
    data["units"][2]["full"] += 1
    data["leaders"][4]["combat_attack"] = 2  # Palafox, 1/5
    data["leaders"][0]["rally"] = "auto"
    data["hq"][0]["count"] -= 1  # Guerrilla 5 -> 4
    data["hq"].append({"type": "Ambush", "count": 1})
    spain = ARMIES["Spain"]
    variant = validate(Army, data, "test")
    changes = describe_changes(spain, variant)
    unit = spain.units[2]
    assert changes == [
        f"Spain / {unit.name} / full: {unit.full} -> {unit.full + 1}",
        f"Spain / leaders / {spain.leaders[0].name} / rally: {spain.leaders[0].rally} -> auto",
        "Spain / leaders / José de Palafox y Melzi / combat_attack: 1 -> 2",
        "Spain / cards / Guerrilla: 5 -> 4",
        "Spain / cards / Ambush: 0 -> 1",
    ]


def test_describe_changes_lists_a_new_hq_title():
    data = _as_input(ARMIES["France"])
    data["hq"][2]["title"] = None  # Sappers/Engineers, printed "French Sappers"
    changes = describe_changes(ARMIES["France"], validate(Army, data, "test"))
    assert changes == [
        "France / cards / Sappers/Engineers / title: French Sappers -> Sappers/Engineers"
    ]


def test_describe_changes_agrees_with_the_edit_lines():
    edits = [
        "France/Garde Imperial/full=9",
        "France/Guard Cavalry/card2/attack=2d10",
        "France/leaders/Ney/combat=5",
        "France/cards/Skirmish=2",
    ]
    out, lines = apply_edits(ARMIES, edits)
    described = describe_changes(ARMIES["France"], out["France"])
    assert sorted(described) == sorted(line.split(" (")[0] for line in lines)
