"""Bad input gets a clear message naming file, field and expectation; never a traceback.

Each case mutates a copy of a real army file (or writes a map/terrain file) and checks the
message through the command line, which must exit with status 2.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from manoeuvre_sim.cli.main import main
from manoeuvre_sim.manoeuvre.model import data_dir

FRANCE = (data_dir() / "armies" / "france.toml").read_text(encoding="utf-8")


def _sub(pattern: str, repl: str, count: int = 1) -> str:
    out, n = re.subn(pattern, repl, FRANCE, count=count, flags=re.M)
    assert n, f"test setup: {pattern!r} not found"
    return out


# (id, file text, substrings the message must contain)
ARMY_CASES = [
    ("toml-syntax", FRANCE.replace('name = "France"', 'name = "France'), ["malformed TOML", "line 6"]),
    ("toml-duplicate-key", FRANCE.replace("tiebreak_rank = 8", "tiebreak_rank = 8\ntiebreak_rank = 7"),
     ["malformed TOML", "line"]),
    ("missing-name", _sub(r'^name = "France"\n', ""), ["name: required field is missing"]),
    ("missing-tiebreak", _sub(r"^tiebreak_rank = 8\n", ""), ["tiebreak_rank: required field is missing"]),
    ("unknown-top-field", _sub(r"^tiebreak_rank = 8", "tiebreak_rank = 8\ncolour = 'blue'"),
     ["unknown field 'colour'", "expected one of: name, tiebreak_rank"]),
    ("tiebreak-string", _sub(r"^tiebreak_rank = 8", 'tiebreak_rank = "last"'),
     ["tiebreak_rank", "expected an integer", "'last'"]),
    ("bad-dice-letter", _sub(r'attack = "2d10"', 'attack = "3x7"'),
     ['units #1 "1st Cuirassiers" > cards #1 > attack', "NdS", "'3x7'"]),
    ("dice-sides-too-big", _sub(r'attack = "2d10"', 'attack = "2d30"'),
     ["cards #1 > attack", "S in 4..20", "'2d30'"]),
    ("dice-sides-too-small", _sub(r'attack = "2d10"', 'attack = "2d3"'), ["cards #1 > attack", "'2d3'"]),
    ("dice-number", _sub(r'attack = "2d10"', "attack = 12"), ["cards #1 > attack", "NdS", "12"]),
    ("reduced-not-below-full", _sub(r"^reduced = 4", "reduced = 9"),
     ['units #1 "1st Cuirassiers"', "reduced strength (9) must be below full strength (7)"]),
    ("negative-strength", _sub(r"^full = 7", "full = -7"),
     ['units #1 "1st Cuirassiers" > full', "greater than or equal to 1", "-7"]),
    ("unit-type", _sub(r'^type = "cavalry"', 'type = "dragoons"'),
     ['units #1 "1st Cuirassiers" > type', "'infantry' or 'cavalry'", "'dragoons'"]),
    ("card-unknown-field", _sub(r"defense = 3, pursuit_max = 4", "defence = 3, pursuit_max = 4"),
     ["cards #1 > defence", "unknown field 'defence'", "expected one of: attack, defense"]),
    ("card-missing-defense", _sub(r", defense = 3, pursuit_max = 4", ", pursuit_max = 4"),
     ["cards #1 > defense: required field is missing"]),
    ("four-cards", _sub(r'  \{ attack = "2d10", defense = 3, pursuit_max = 4 \},\n', ""),
     ["unit '1st Cuirassiers': expected 5 unit cards (rule 1.4), found 4", "relax_deck_rules"]),
    ("seven-units", re.sub(r"\[\[units\]\]\nname = \"Guard Cavalry\".*?\]\n", "", FRANCE, flags=re.S),
     ["expected 8 units (rule 1.3), found 7"]),
    ("hq-count", _sub(r'type = "Supply"\ncount = 4', 'type = "Supply"\ncount = 5'),
     ["expected 20 HQ cards with the leaders (rule 1.4), found 21"]),
    ("unknown-hq-type", _sub(r'type = "Supply"', 'type = "Cannonade"'),
     ["hq #5 > type", "'Supply'", "'Cannonade'"]),
    ("artillery-without-bombard", _sub(r'defense = 5, range = 2, bombard = "1d10", artillery = true',
                                       "defense = 5, artillery = true"),
     ["cards #5", "artillery card needs bombard dice"]),
    ("pursuit-on-infantry", _sub(r'\{ attack = "2d6", defense = 6 \}', '{ attack = "2d6", defense = 6, pursuit_max = 3 }'),
     ['units #2 "2nd Regiment Legere"', "only cavalry units have pursuit values"]),
    ("leader-rally", _sub(r"^rally = 5", 'rally = "sometimes"'),
     ['leaders #1 "Jean Lannes" > rally', "'sometimes'"]),
    ("leader-combat-missing", _sub(r"^combat = 2\n", ""),
     ['leaders #1 "Jean Lannes"', "a leader needs combat"]),
    ("leader-combat-both", _sub(r"^combat = 2", "combat = 2\ncombat_attack = 1"),
     ['leaders #1 "Jean Lannes"', "either combat, or combat_attack"]),
    ("duplicate-unit", _sub(r'name = "2nd Regiment Legere"', 'name = "1st Cuirassiers"'),
     ["unit names must be unique, repeated: 1st Cuirassiers"]),
    ("units-not-a-list", re.sub(r"\[\[units\]\].*?(?=\[\[leaders\]\])", 'units = "all of them"\n', FRANCE, flags=re.S),
     ["units: expected a list", "'all of them'"]),
    ("volley-range", _sub(r'range = 1, volley = "2d6"', 'range = 2, volley = "2d6"', 0) if 'volley = "2d6"' in FRANCE else
     _sub(r'\{ attack = "2d6", defense = 6 \}', '{ attack = "2d6", defense = 6, range = 2, volley = "2d6" }'),
     ["volley dice needs range = 1"]),
    ("bool-as-string", _sub(r"artillery = true", 'artillery = "yes"'),
     ["cards #5 > artillery", "true or false", "'yes'"]),
]  # fmt: skip


@pytest.mark.parametrize(
    "text,needles", [c[1:] for c in ARMY_CASES], ids=[c[0] for c in ARMY_CASES]
)
def test_bad_army_file(tmp_path, capsys, text, needles):
    path = tmp_path / "my_army.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as ex:
        main(["armies", "validate", str(path)])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert str(path) in err
    for n in needles:
        assert n in err, f"{n!r} not in message:\n{err}"


def test_relaxed_deck_is_explicit(tmp_path, capsys):
    text = _sub(r'  \{ attack = "2d10", defense = 3, pursuit_max = 4 \},\n', "")
    path = tmp_path / "small.toml"
    path.write_text(text, encoding="utf-8")
    main(["armies", "validate", "--relax", str(path)])
    assert "deck rules relaxed" in capsys.readouterr().out
    path.write_text("relax_deck_rules = true\n" + text, encoding="utf-8")
    main(["armies", "validate", str(path)])
    # Structural rules still apply when relaxed.
    path.write_text(
        "relax_deck_rules = true\n" + text.replace('"2d10"', '"2d99"'), encoding="utf-8"
    )
    with pytest.raises(SystemExit) as ex:
        main(["armies", "validate", str(path)])
    assert ex.value.code == 2


def test_missing_file_and_unknown_army(tmp_path, capsys):
    with pytest.raises(SystemExit) as ex:
        main(["armies", "validate", str(tmp_path / "nope.toml")])
    assert ex.value.code == 2
    assert "nope.toml: file not found" in capsys.readouterr().err
    with pytest.raises(SystemExit) as ex:
        main(["armies", "show", "Atlantis"])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "Atlantis: army: unknown army; expected one of: United States" in err


def test_not_utf8(tmp_path, capsys):
    p = tmp_path / "latin1.toml"
    p.write_bytes(FRANCE.replace("Napoléon", "Napol\xe9on").encode("latin-1"))
    with pytest.raises(SystemExit):
        main(["armies", "validate", str(p)])
    assert "not UTF-8" in capsys.readouterr().err


def test_bad_map_sections_and_terrain(tmp_path):
    from manoeuvre_sim.core.errors import DataError
    from manoeuvre_sim.manoeuvre.model import load_sections, load_terrain

    p = tmp_path / "sections.toml"
    p.write_text('[[sections]]\nnumber = 1\nrows = ["CCCC", "CCXC", "CCCC", "CCC"]\n')
    with pytest.raises(DataError) as ex:
        load_sections(p)
    msg = str(ex.value)
    assert "sections #1 (section 1) > rows" in msg and "unknown terrain letter(s) X" in msg
    p.write_text('[[sections]]\nnumber = 1\nrows = ["CCCC", "CCCC", "CCCC", "CCC"]\n')
    with pytest.raises(DataError, match="row 4 'CCC': expected 4 letters"):
        load_sections(p)
    t = tmp_path / "terrain.toml"
    t.write_text("redoubt_defense = 3\n[terrain.C]\nname = 'Clear'\ndefense = 'high'\n")
    with pytest.raises(DataError, match=r"terrain > C > defense: expected an integer, got 'high'"):
        load_terrain(t)


def test_cli_bad_map_number():
    proc = subprocess.run(
        [sys.executable, "-m", "manoeuvre_sim.cli", "maps", "show", "99"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "map section 99: no such section" in proc.stderr
    assert "Traceback" not in proc.stderr
