"""Read the TOML data files, validate them and report every problem readably.

Every error names the file, the field path and what was expected (``DataError``); malformed
TOML reports its line and column.
"""

from __future__ import annotations

from pathlib import Path

from manoeuvre_sim.core.data import data_dir, model_json, read_toml, validate
from manoeuvre_sim.core.errors import DataError, did_you_mean
from manoeuvre_sim.manoeuvre.model.army import Army
from manoeuvre_sim.manoeuvre.model.maps import MapSection, SectionSet, TerrainTable

# an army kept as validation input in JSON (``write_army_data``): what a what-if study keeps
# of each changed army, so that its variant's games can be replayed
ARMY_DATA_SUFFIX = ".army.json"


def write_army_data(army: Army, path: Path | str) -> Path:
    """``army`` as the data its validation reads (JSON), written atomically to ``path``
    (ending in ``.army.json``); :func:`find_army` loads it back equal to ``army``."""
    import json

    from manoeuvre_sim.core.fileio import atomic_write
    from manoeuvre_sim.manoeuvre.model.edit import army_data

    path = Path(path)
    with atomic_write(path, encoding="utf-8") as f:
        json.dump(army_data(army), f, ensure_ascii=False, indent=1)
    return path


def load_army_data(path: Path | str, *, relax: bool = False) -> Army:
    """An army written by :func:`write_army_data`, validated as an army file is."""
    import json

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DataError(str(path), [("", f"not a readable army data file ({e})")]) from None
    return validate(Army, data, str(path), {"relax": relax})


def load_army(path: Path | str, *, relax: bool = False) -> Army:
    """Load and validate one army file.

    Parameters
    ----------
    path : path of a TOML army file.
    relax : lift the deck-composition counts (8 units, 5 cards each, 20 HQ, 60 cards) as if
        the file said ``relax_deck_rules = true``. Structural checks always apply.
    """
    data = read_toml(path)
    return validate(Army, data, str(path), {"relax": relax})


def builtin_army_paths() -> list[Path]:
    return sorted((data_dir() / "armies").glob("*.toml"))


def load_builtin_armies() -> list[Army]:
    """The 8 base armies, in the rule 2.2 tie-breaker order."""
    armies = [load_army(p) for p in builtin_army_paths()]
    return sorted(armies, key=lambda a: a.tiebreak_rank)


def army_key(name: str) -> str:
    """A built-in army's name as typed, for matching its ``name.casefold()``: case, ``_``
    and ``-`` aside (``great_britain`` is Great Britain)."""
    return name.strip().casefold().replace("_", " ").replace("-", " ")


def find_army(name_or_path: str, *, relax: bool = False) -> Army:
    """A built-in army by name (case-insensitive; ``france``, ``Great Britain``,
    ``great_britain``), or an army file by path."""
    p = Path(name_or_path)
    if p.name.lower().endswith(ARMY_DATA_SUFFIX):
        return load_army_data(p, relax=relax)
    if p.suffix.lower() == ".toml" or p.exists():
        return load_army(p, relax=relax)
    key = army_key(name_or_path)
    # the built-in file named after the army (``great_britain.toml``, one of the 8 files'
    # own names: a name is never a path) is read alone when it holds it, not all 8 (the
    # what-if and the fixer prepare a study per candidate)
    own = data_dir() / "armies" / (key.replace(" ", "_") + ".toml")
    if own in builtin_army_paths():
        a = load_army(own)
        if a.name.casefold() == key:
            return a
    armies = load_builtin_armies()
    for a in armies:
        if a.name.casefold() == key:
            return a
    known = ", ".join(a.name for a in armies)
    raise DataError(
        name_or_path,
        [("army", f"unknown army{did_you_mean(key, [a.name for a in armies])}; expected one "
                  f"of: {known}, or a path to an army .toml file")],
    )  # fmt: skip


def load_terrain(path: Path | str | None = None) -> TerrainTable:
    path = Path(path) if path else data_dir() / "terrain.toml"
    return validate(TerrainTable, read_toml(path), str(path))


def load_sections(
    path: Path | str | None = None, terrain: TerrainTable | None = None
) -> tuple[MapSection, ...]:
    """All map sections of a sections file, checked against the terrain table's letters."""
    path = Path(path) if path else data_dir() / "maps" / "sections.toml"
    terrain = terrain or load_terrain()
    s = validate(SectionSet, read_toml(path), str(path), {"letters": terrain.letters})
    return s.sections


def load_map_pool(
    sections_file: Path | str | None = None, terrain: TerrainTable | None = None
) -> tuple[MapSection, ...]:
    """The built-in map sections, joined by a designer's sections file (``--sections``; the
    Distant Lands sections, say) validated exactly as ``data/maps/sections.toml``. Its
    section numbers must differ from the built-in ones (they name sections in ``--map``,
    the trace and the manifest)."""
    terrain = terrain or load_terrain()
    builtin = load_sections(terrain=terrain)
    if not sections_file:
        return builtin
    extra = load_sections(sections_file, terrain)
    taken = {s.number for s in builtin}
    for i, s in enumerate(extra, 1):
        if s.number in taken:
            free = max(taken) + 1
            raise DataError(
                str(sections_file),
                [(f"sections #{i} (section {s.number}) > number",
                  f"section {s.number} is a built-in section; expected a number the built-in "
                  f"sections do not use (from {free}), as the file joins their pool")],
            )  # fmt: skip
    return builtin + extra


def sections_hash(sections: tuple[MapSection, ...]) -> str:
    """A short hash of a list of map sections (the manifests' ``sections_hash``)."""
    import hashlib

    h = hashlib.sha256()
    for s in sections:
        h.update(model_json(s))
    return h.hexdigest()[:16]
