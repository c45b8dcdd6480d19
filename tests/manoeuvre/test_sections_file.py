"""``--sections FILE``: a designer's map sections join the built-in pool (issue 14).

The file in ``tests/fixtures/distant_lands/sections.toml`` holds made-up grids numbered
25..32 (not the printed Distant Lands sections). It is validated exactly as
``data/maps/sections.toml``, refused with one line naming the file and field before any
game, and recorded in the manifests (path and hash of its sections).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from manoeuvre_sim.cli.main import main
from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.manoeuvre.model import load_map_pool, load_sections, sections_hash

SECTIONS = Path(__file__).parents[1] / "fixtures" / "distant_lands" / "sections.toml"
TEXT = SECTIONS.read_text(encoding="utf-8")


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: a bad file must be refused before."""
    import manoeuvre_sim.manoeuvre.runner as R

    def boom(*a, **k):
        raise AssertionError("a game was played before the sections file was checked")

    monkeypatch.setattr(R, "simulate", boom)


def test_the_file_joins_the_built_in_pool():
    builtin = load_sections()
    pool = load_map_pool(SECTIONS)
    assert pool[: len(builtin)] == builtin
    assert [s.number for s in pool[len(builtin) :]] == list(range(25, 33))
    assert not pool[-1].verified and all(s.verified for s in pool[len(builtin) : -1])
    assert load_map_pool(None) == builtin


# (id, file text, what the one line must say)
BAD_FILES = [
    ("built-in-number", TEXT.replace("number = 25", "number = 5"),
     ["sections #1 (section 5) > number", "section 5 is a built-in section", "from 25"]),
    ("unknown-letter", TEXT.replace('"CMMC"', '"CMXC"'),
     ["sections #1 (section 25) > rows", "unknown terrain letter(s) X"]),
    ("short-row", TEXT.replace('"FCCF"', '"FCC"'), ["row 4 'FCC': expected 4 letters"]),
    ("repeated-number", TEXT.replace("number = 26", "number = 25"),
     ["section numbers must be unique, repeated: [25]"]),
    ("too-few-verified", "[[sections]]\nnumber = 40\nrows = [\"CCCC\", \"CCCC\", \"CCCC\", \"CCCC\"]\n",
     ["at least 4 verified sections"]),
    ("not-toml", TEXT.replace("number = 25", "number = "), ["malformed TOML", "line"]),
    ("number-as-string", TEXT.replace("number = 25", 'number = "25"'),
     ["sections #1 (section 25) > number", "expected an integer"]),
]  # fmt: skip


def _simulate(path, out):
    return ["simulate", "--army-a", "France", "--army-b", "Russia", "--games", "2",
            "--sections", str(path), "--out", str(out)]  # fmt: skip


@pytest.mark.parametrize("text,needles", [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES])
def test_bad_sections_file(tmp_path, capsys, no_games, text, needles):
    path = tmp_path / "my_sections.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError):
        load_map_pool(path)
    out = tmp_path / "games.parquet"
    with pytest.raises(SystemExit) as ex:
        main(_simulate(path, out))
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert str(path) in err
    for n in needles:
        assert n in err, f"{n!r} not in:\n{err}"
    assert not out.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["balance", "--armies", "France,Russia", "--games-per-pairing", "2"],
        ["whatif", "--armies", "France,Russia", "--set", "France/cards/Supply=3"],
        ["cards", "--army", "France", "--against", "Russia", "--games-per-variant", "4"],
        [
            "tournament",
            "--policies",
            "random,simple",
            "--games",
            "4",
            "--armies",
            "France",
            "--quiet",
        ],
    ],
    ids=["balance", "whatif", "cards", "tournament"],
)
def test_every_command_with_the_map_pool_takes_and_checks_it(tmp_path, capsys, no_games, argv):
    bad = tmp_path / "bad.toml"
    bad.write_text(TEXT.replace("number = 25", "number = 5"), encoding="utf-8")
    with pytest.raises(SystemExit) as ex:
        main([*argv, "--sections", str(bad)])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert f"{bad}: sections #1 (section 5) > number" in err
    with pytest.raises(SystemExit) as ex:
        main([*argv, "--sections", str(tmp_path / "missing.toml")])
    assert ex.value.code == 2
    assert "missing.toml: file not found" in capsys.readouterr().err


def test_simulate_plays_on_the_file_and_records_it(tmp_path, capsys):
    out = tmp_path / "g.parquet"
    main([*_simulate(SECTIONS, out), "--games", "6", "--map", "25,26,27,28", "--rot", "0,1,2,3"])
    games = pd.read_parquet(out)
    assert games[["map_nw", "map_ne", "map_sw", "map_se"]].drop_duplicates().values.tolist() == [
        [25, 26, 27, 28]
    ]
    man = json.loads(Path(f"{out}.manifest.json").read_text())
    assert man["sections_file"] == str(SECTIONS.resolve())
    assert man["sections_hash"] == sections_hash(load_sections(SECTIONS))
    assert man["config"]["sections_file"] == str(SECTIONS.resolve())
    assert man["map_pool"][-7:] == list(range(25, 32))  # 32 is unverified: left out
    # without --sections: the manifest reads as before the option existed
    plain = tmp_path / "p.parquet"
    main(["simulate", "--army-a", "France", "--army-b", "Russia", "--games", "2",
          "--out", str(plain)])  # fmt: skip
    pman = json.loads(Path(f"{plain}.manifest.json").read_text())
    assert "sections_file" not in pman and "sections_file" not in pman["config"]
    assert pman["data_hash"] != man["data_hash"] and max(pman["map_pool"]) == 24
    # a section of the file in --map needs the file
    with pytest.raises(SystemExit) as ex:
        main(["simulate", "--army-a", "France", "--army-b", "Russia", "--games", "2",
              "--map", "25,26,27,28", "--out", str(tmp_path / "x.parquet")])  # fmt: skip
    assert ex.value.code == 2
    assert "--map: section 25: no such section" in capsys.readouterr().err


def test_balance_records_the_sections(tmp_path, capsys):
    out = tmp_path / "study"
    main(["balance", "--armies", "France,Russia", "--games-per-pairing", "4", "--quiet",
          "--sections", str(SECTIONS), "--map", "29,30,31,25", "--out", str(out)])  # fmt: skip
    man = json.loads((out / "manifest.json").read_text())
    assert man["sections_hash"] == sections_hash(load_sections(SECTIONS))
    assert man["options"]["sections_file"] == str(SECTIONS.resolve())
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions, study_data_hash
    from manoeuvre_sim.manoeuvre.model import find_army

    armies = [find_army("France"), find_army("Russia")]
    assert man["data_hash"] == study_data_hash(armies, RuleOptions(sections_file=str(SECTIONS)))
    assert man["data_hash"] != study_data_hash(armies, RuleOptions())
    games = pd.read_parquet(out / "games.parquet")
    assert set(games["map_nw"]) == {29} and set(games["map_se"]) == {25}
    # a resume against another sections file is another study: refused with one line
    other = tmp_path / "other.toml"
    other.write_text(TEXT.replace('"CCCC", "CHHC"', '"CCCC", "CHWC"'), encoding="utf-8")
    with pytest.raises(SystemExit) as ex:
        main(["balance", "--armies", "France,Russia", "--games-per-pairing", "4", "--quiet",
              "--sections", str(other), "--map", "29,30,31,25", "--out", str(out),
              "--resume"])  # fmt: skip
    assert ex.value.code == 2
    assert "another study" in capsys.readouterr().err


def test_tournament_records_the_sections(tmp_path):
    out = tmp_path / "t.parquet"
    main(["tournament", "--policies", "random,simple", "--games", "4", "--armies", "France",
          "--quiet", "--sections", str(SECTIONS), "--map", "25,26,27,28", "--out", str(out)])  # fmt: skip
    man = json.loads(Path(f"{out}.manifest.json").read_text())
    assert man["sections_hash"] == sections_hash(load_sections(SECTIONS))
    assert set(pd.read_parquet(out)["map_ne"]) == {26}
