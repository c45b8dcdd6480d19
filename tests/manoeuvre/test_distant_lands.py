"""Distant Lands army files (issue 14): the new fields, their validation, their packing.

The armies in ``tests/fixtures/distant_lands/`` are made-up test armies, not the published
decks (which are not public). Each bad-file case mutates one of them (or a base army) and
checks the one-line message through the command line (exit status 2).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from manoeuvre_sim.cli.main import main
from manoeuvre_sim.manoeuvre.adapter import army_hash
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.pack import check_playable, engine_support, pack
from manoeuvre_sim.manoeuvre.model import (
    data_dir,
    find_army,
    load_army,
    load_sections,
    load_terrain,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "distant_lands"
NATIONS = {"india": "India", "china": "China", "japan": "Japan", "sweden": "Sweden"}
TEXT = {k: (FIXTURES / f"{k}.toml").read_text(encoding="utf-8") for k in NATIONS}
FRANCE = (data_dir() / "armies" / "france.toml").read_text(encoding="utf-8")


def _sub(text: str, pattern: str, repl: str, count: int = 1) -> str:
    out, n = re.subn(pattern, repl, text, count=count, flags=re.M)
    assert n, f"test setup: {pattern!r} not found"
    return out


def test_fixtures_are_labelled_and_valid():
    for key, nation in NATIONS.items():
        assert TEXT[key].startswith("# MADE-UP TEST ARMY"), key
        assert "NOT the published Distant Lands deck" in TEXT[key]
        a = load_army(FIXTURES / f"{key}.toml")
        assert a.distant_lands == nation and a.deck_size == 60 and len(a.units) == 8
    india = load_army(FIXTURES / "india.toml")
    assert {u.nationality for u in india.units} == {"Mysore", "Punjab", "Maratha", "Hyderabad"}
    assert {c.secondary for u in india.units for c in u.cards} == {
        None, "redoubt", "guerrillas", "committed attack"
    }  # fmt: skip
    assert all(ld.nationality for ld in india.leaders)
    assert india.hq_counts()["Maharaja"] == 2 and india.hq_counts()["Rockets"] == 3
    japan = load_army(FIXTURES / "japan.toml")
    assert [ld.unit for ld in japan.leaders] == [
        None, "Test Samurai 1", "Test Samurai 2", "Test Horse 1"
    ]  # fmt: skip
    counts = japan.hq_counts()
    assert counts["Banzai Charge"] == 3 and counts["Death With Honour"] == 2


def test_base_armies_serialise_and_hash_as_before():
    # recorded before the Distant Lands fields were added: unset, they leave no trace
    before = {
        "United States": "b28073accbff0f89", "Ottoman Empire": "ef692df4f1e9e82e",
        "Spain": "1e2ade094faaf0b4", "Austria": "cbbc4ea83f4cca69",
        "Prussia": "b94fcfcb75842401", "Russia": "f0c6413a88ab3297",
        "Great Britain": "06e8ba383a86cb0e", "France": "e294029d83dec385",
    }  # fmt: skip
    for name, h in before.items():
        a = find_army(name)
        assert army_hash(a) == h, name
        assert "nationality" not in a.model_dump_json() and "distant_lands" not in a.model_dump()
    india = load_army(FIXTURES / "india.toml")
    dumped = india.model_dump()
    assert dumped["distant_lands"] == "India" and dumped["units"][0]["nationality"] == "Mysore"


# (id, file text, substrings the message must contain)
BAD_CASES = [
    ("base-unit-nationality", _sub(FRANCE, r'^type = "cavalry"', 'type = "cavalry"\nnationality = "Mysore"'),
     ['units #1 "1st Cuirassiers" > nationality', "a base-game army cannot have",
      'expected distant_lands = "India"']),
    ("base-card-secondary", _sub(FRANCE, r'defense = 3, pursuit_max = 4 \}', 'defense = 3, pursuit_max = 4, secondary = "guerrillas" }'),
     ['units #1 "1st Cuirassiers" > cards #1 > secondary', "a base-game army cannot have", "rule 8"]),
    ("base-leader-nationality", _sub(FRANCE, r"^rally = 5", 'rally = 5\nnationality = "Mysore"'),
     ['leaders #1 "Jean Lannes" > nationality', "a base-game army cannot have"]),
    ("base-leader-unit", _sub(FRANCE, r"^rally = 5", 'rally = 5\nunit = "1st Cuirassiers"'),
     ['leaders #1 "Jean Lannes" > unit', "a base-game army cannot have a leader bound to one unit"]),
    ("base-hq-rockets", _sub(FRANCE, r'type = "Skirmish"', 'type = "Rockets"'),
     ["hq #4 > type", "a base-game army cannot have Rockets cards", "rule 9.2"]),
    ("unknown-nation", _sub(TEXT["china"], r'^distant_lands = "China"', 'distant_lands = "Persia"'),
     ["distant_lands", "'India', 'China', 'Japan' or 'Sweden'", "'Persia'"]),
    ("unknown-secondary", _sub(TEXT["india"], r'secondary = "redoubt"', 'secondary = "fortify"'),
     ['units #1 "Mysore Test Infantry" > cards #2 > secondary', "'committed attack'", "'fortify'"]),
    ("committed-without-attack", _sub(TEXT["india"], r'artillery = true \}', 'artillery = true, secondary = "committed attack" }'),
     ['units #1 "Mysore Test Infantry" > cards #5', "needs attack dice"]),
    ("nationality-not-a-string", _sub(TEXT["india"], r'^nationality = "Mysore"', "nationality = 3"),
     ['units #1 "Mysore Test Infantry" > nationality', "expected a string in quotes", "3"]),
    ("india-unit-without-nationality", _sub(TEXT["india"], r'^nationality = "Mysore"\n', ""),
     ['units #1 "Mysore Test Infantry" > nationality: required field is missing', "rules 8, 9.1"]),
    ("india-leader-without-nationality", _sub(TEXT["india"], r'^nationality = "Mysore"\n\n', "\n"),
     ['leaders #1 "Test Leader Mysore" > nationality: required field is missing',
      "expected one of: Hyderabad, Maratha, Mysore, Punjab"]),
    ("india-leader-unknown-nationality", _sub(TEXT["india"], r'^nationality = "Punjab"\n\n', 'nationality = "Sikh"\n\n'),
     ['leaders #2 "Test Leader Punjab" > nationality', "no unit of the army has nationality 'Sikh'"]),
    ("japan-leader-unknown-unit", _sub(TEXT["japan"], r'^unit = "Test Samurai 2"', 'unit = "Test Ronin"'),
     ['leaders #3 "Test Daimyo 2" > unit', "no unit of the army is called 'Test Ronin'",
      "expected one of: Test Samurai 1"]),
    ("leader-nationality-and-unit", _sub(TEXT["india"], r'^nationality = "Mysore"\n\n', 'nationality = "Mysore"\nunit = "Mysore Test Cavalry"\n\n'),
     ['leaders #1 "Test Leader Mysore"', "a nationality (an Indian leader) or a unit"]),
    ("maharaja-outside-india", _sub(TEXT["japan"], r'^type = "Ambush"', 'type = "Maharaja"'),
     ["hq #6 > type", "only a Distant Lands army of India can have Maharaja cards", "rule 9.1"]),
    ("death-with-honour-outside-japan", _sub(TEXT["india"], r'^type = "Rockets"', 'type = "Death With Honour"'),
     ["hq #2 > type", "only a Distant Lands army of Japan can have Death With Honour", "rule 9.2"]),
    ("nationality-outside-india", _sub(TEXT["japan"], r'^type = "infantry"', 'type = "infantry"\nnationality = "Satsuma"'),
     ['units #1 "Test Samurai 1" > nationality', "only a Distant Lands army of India",
      "distant_lands = 'Japan'"]),
    ("leader-unit-outside-japan", _sub(TEXT["china"], r"^rally = 3", 'rally = 3\nunit = "Test Banner 1"'),
     ['leaders #1 "Test General 1" > unit', "only a Distant Lands army of Japan"]),
    ("secondary-outside-india", _sub(TEXT["sweden"], r'defense = 4 \}', 'defense = 4, secondary = "guerrillas" }'),
     ['units #1 "Test Regiment 1" > cards #2 > secondary', "only a Distant Lands army of India"]),
    ("too-few-hq-types", re.sub(r'\[\[hq\]\]\ntype = "(Withdraw|Guerrilla|Redoubt)"\ncount = \d+\n', "",
                                _sub(TEXT["china"], r'^type = "Supply"\ncount = 4', 'type = "Supply"\ncount = 12')),
     ["hq: expected 3 to 8 HQ card types besides the leaders (Distant Lands rule 1.4), found 2",
      "Rockets, Supply", "relax_deck_rules"]),
    ("no-leaders", re.sub(r"\[\[leaders\]\]\n(.+\n)+?\n", "", TEXT["china"]).replace("count = 4", "count = 9"),
     ["leaders: expected at least one leader", "rule 1.4"]),
    ("hq-count", _sub(TEXT["japan"], r'^type = "Ambush"\ncount = 1', 'type = "Ambush"\ncount = 2'),
     ["expected 20 HQ cards with the leaders (rule 1.4), found 21"]),
]  # fmt: skip


@pytest.mark.parametrize("text,needles", [c[1:] for c in BAD_CASES], ids=[c[0] for c in BAD_CASES])
def test_bad_distant_lands_file(tmp_path, capsys, text, needles):
    path = tmp_path / "my_army.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as ex:
        main(["armies", "validate", str(path)])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(path) in err
    assert sum(str(path) in line for line in err.splitlines()) == 1, err  # one problem line
    for n in needles:
        assert n in err, f"{n!r} not in message:\n{err}"


def test_relax_lifts_the_nation_only_hq_types_and_type_count_not_the_fields(tmp_path, capsys):
    path = tmp_path / "japan_maharaja.toml"
    path.write_text(_sub(TEXT["japan"], r'^type = "Ambush"', 'type = "Maharaja"'), "utf-8")
    main(["armies", "validate", "--relax", str(path)])
    assert "ok" in capsys.readouterr().out
    # a field that only India has stays refused under relax (it is a rule, not a count)
    path.write_text(_sub(TEXT["japan"], r'^type = "infantry"', 'type = "infantry"\nnationality = "X"'), "utf-8")  # fmt: skip
    with pytest.raises(SystemExit):
        main(["armies", "validate", "--relax", str(path)])
    assert "only a Distant Lands army of India" in capsys.readouterr().err


def _packed(a, b):
    terrain = load_terrain()
    return pack(a, b, terrain, load_sections(terrain=terrain), check_rules=False)


def test_packing_of_the_new_fields():
    india, japan = load_army(FIXTURES / "india.toml"), load_army(FIXTURES / "japan.toml")
    P = _packed(india, japan)
    assert P.units.shape == (S.NUNITS, S.NUF) and P.cards.shape == (2, S.MAXC, S.NCF)
    # India: nationality codes in order of first use, the same for a unit and its leader
    nat = P.units[: len(india.units), S.UF_NAT]
    assert nat.tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    cards = P.cards[0, : P.deck_size[0]]
    leaders = cards[cards[:, S.CF_KIND] == S.KIND_LEADER]
    assert leaders[:, S.CF_LNAT].tolist() == [1, 2, 3, 4] and not leaders[:, S.CF_LUNIT].any()
    units = cards[cards[:, S.CF_KIND] == S.KIND_UNIT]
    want = [S.SEC_NAMES.index(c.secondary) for u in india.units for c in u.cards]
    assert units[:, S.CF_SECOND].tolist() == want and set(want) == {0, 1, 2, 3}
    hq = cards[cards[:, S.CF_KIND] == S.KIND_HQ, S.CF_HQ]
    assert (hq == S.HQ_MAHARAJA).sum() == 2 and (hq == S.HQ_ROCKETS).sum() == 3
    # Japan: the leader's one unit as 1 + its index, Tokugawa 0; the new HQ codes
    cards = P.cards[1, : P.deck_size[1]]
    leaders = cards[cards[:, S.CF_KIND] == S.KIND_LEADER]
    assert leaders[:, S.CF_LUNIT].tolist() == [0, 1, 2, 7] and not leaders[:, S.CF_LNAT].any()
    assert not P.units[S.MAXU_SIDE :, S.UF_NAT].any()
    hq = cards[cards[:, S.CF_KIND] == S.KIND_HQ, S.CF_HQ]
    assert (hq == S.HQ_BANZAI).sum() == 3 and (hq == S.HQ_DEATH_WITH_HONOUR).sum() == 2
    assert S.HQ_NAMES[S.HQ_ROCKETS] == "Rockets" and S.HQ_NAMES[S.HQ_MAHARAJA] == "Maharaja"


def test_base_armies_pack_as_before():
    a, b = find_army("France"), find_army("Spain")
    P = _packed(a, b)
    for col in (S.CF_SECOND, S.CF_LNAT, S.CF_LUNIT):
        assert not P.cards[:, :, col].any()
    assert not P.units[:, S.UF_NAT].any()
    assert P.cards[:, :, S.CF_HQ].max() <= S.HQ_WITHDRAW
    assert P.data_hash == pack(a, b, load_terrain(), load_sections()).data_hash


def test_the_engine_plays_every_test_army():
    """Issue 14: with Maharaja, the leader restrictions and the Indian secondary effects in
    the engine, no rule of the file format is refused any more."""
    for a in (*(find_army(n) for n in ("France", "Spain", "United States")),
              *(load_army(FIXTURES / f"{k}.toml") for k in ("china", "india", "japan", "sweden"))):  # fmt: skip
        assert engine_support(a) == [], a.name
        check_playable(a)
    pack(load_army(FIXTURES / "india.toml"), load_army(FIXTURES / "japan.toml"), load_terrain(),
         load_sections())  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "2", "--army-a", "{f}", "--army-b", "France"],
        ["balance", "--games-per-pairing", "2", "--armies", "France,{f}"],
        ["cards", "--army", "{f}", "--games-per-variant", "2"],
        ["tournament", "--games", "2", "--armies", "{f}"],
    ],
    ids=["simulate", "balance", "cards", "tournament"],
)
def test_commands_refuse_an_army_the_engine_does_not_play(tmp_path, capsys, monkeypatch, argv):
    """The refusal kept for an HQ type the engine cannot play yet (none today: one is
    pretended here): one line, exit status 2, no output file."""
    from manoeuvre_sim.manoeuvre.engine import pack as pack_mod

    monkeypatch.setitem(pack_mod.NOT_YET_IMPLEMENTED_HQ, "Death With Honour",
                        "Distant Lands rule 9.2 Death With Honour")  # fmt: skip
    f = str(FIXTURES / "japan.toml")
    out = tmp_path / ("out.parquet" if argv[0] in ("simulate", "tournament") else "out")
    argv = [a.replace("{f}", f) for a in argv]
    with pytest.raises(SystemExit) as ex:
        main([*argv, "--out", str(out)])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "army 'Test Japan': not yet implemented: Distant Lands rule 9.2 Death" in err
    assert not out.exists()


def test_an_expansion_army_using_only_played_rules_plays(tmp_path):
    """`distant_lands` alone changes no rule the engine plays (the expansion's differences
    are rule options: --advance-to-contact, --digging-in), so a test army with its
    unplayed cards swapped for base ones plays; random and styled games keep every
    invariant and the players' fair play (a violation raises)."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    path = tmp_path / "china_base_cards.toml"
    path.write_text(_sub(TEXT["china"], r'^type = "Rockets"', 'type = "Ambush"'), "utf-8")
    assert engine_support(load_army(path)) == []
    for pol, games in (("random", 150), ("balanced", 30)):
        cfg = SimConfig(str(path), "France", games=games, seed=3, policy_a=pol, policy_b=pol,
                        threads=1, check_invariants=True, check_fair_play=1,
                        advance_to_contact=True)  # fmt: skip
        res = simulate(cfg)
        assert len(res.records) == games
        assert res.manifest["army_a"] == "Test Qing"
