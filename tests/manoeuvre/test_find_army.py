"""find_army by name: the army's own built-in file is read alone, and every way of naming a
built-in army still finds the army the full scan finds."""

from __future__ import annotations

import pytest

from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.manoeuvre.model import load


@pytest.mark.parametrize(
    "typed", ["france", "France", "Great Britain", "great_britain", "great-britain",
              " OTTOMAN EMPIRE ", "united_states"],
)  # fmt: skip
def test_every_spelling_finds_the_scanned_army(typed):
    scanned = {a.name.casefold(): a for a in load.load_builtin_armies()}
    assert load.find_army(typed) == scanned[load.army_key(typed)]


def test_a_name_reads_its_own_file_only(monkeypatch):
    read = []
    real = load.load_army

    def spy(path, **kw):
        read.append(path.name)
        return real(path, **kw)

    monkeypatch.setattr(load, "load_army", spy)
    assert load.find_army("Great Britain").name == "Great Britain"
    assert read == ["great_britain.toml"]


def test_unknown_and_path_like_names_are_refused_with_the_list(monkeypatch):
    for typed in ("Frnace", "../armies/france", "armies/france"):
        with pytest.raises(DataError) as e:
            load.find_army(typed)
        assert "unknown army" in str(e.value) and "France" in str(e.value), typed
