"""Read the TOML data files, validate them and report every problem readably.

Every error names the file, the field path and what was expected (``DataError``); malformed
TOML reports its line and column.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from manoeuvre_sim.errors import DataError, did_you_mean
from manoeuvre_sim.model.army import Army
from manoeuvre_sim.model.maps import MapSection, SectionSet, TerrainTable


def data_dir() -> Path:
    """The directory holding the built-in data (``armies/``, ``maps/``, ``terrain.toml``).

    Works for an editable install (the repository's ``data/``) and for a built wheel
    (installed as the package ``manoeuvre_sim.data``).
    """
    root = resources.files("manoeuvre_sim.data")
    path = Path(str(root))
    if not (path / "terrain.toml").is_file():  # pragma: no cover - broken install
        raise DataError(str(path), [("", "built-in data not found: reinstall manoeuvre-sim")])
    return path


def read_toml(path: Path | str) -> dict[str, Any]:
    """Parse a TOML file; a syntax error becomes a ``DataError`` with line and column."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError(str(path), [("", "file not found")]) from None
    except IsADirectoryError:
        raise DataError(str(path), [("", "is a directory, expected a .toml file")]) from None
    except OSError as e:
        raise DataError(str(path), [("", f"cannot read: {e.strerror}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError(
            str(path), [("", f"not UTF-8 text (byte {e.start}): expected a UTF-8 TOML file")]
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # Python 3.11 puts "(at line L, column C)" in the message.
        raise DataError(str(path), [("", f"malformed TOML: {e}")]) from None


def _field_path(loc: tuple[Any, ...], data: Any) -> str:
    """Readable field path: ``units #3 "4th Regiment" > cards #5 > attack`` (1-based)."""
    parts: list[str] = []
    node = data
    i = 0
    while i < len(loc):
        key = loc[i]
        if isinstance(key, int):
            label = f"#{key + 1}"
            item = node[key] if isinstance(node, list | tuple) and key < len(node) else None
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                label += f' "{item["name"]}"'
            elif isinstance(item, dict) and "number" in item:
                label += f" (section {item['number']})"
            if parts:
                parts[-1] += " " + label
            else:
                parts.append(label)
            node = item
        elif isinstance(key, str):
            if key in ("function-after", "function-before", "function-plain") or "[" in key:
                i += 1
                continue  # pydantic's internal union/validator markers
            if key in ("int", "str", "bool", "literal['auto']", "constrained-int"):
                i += 1
                continue
            parts.append(key)
            node = node.get(key) if isinstance(node, dict) else None
        i += 1
    return " > ".join(parts)


_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string in quotes",
    "tuple_type": "a list [ ... ]",
    "list_type": "a list [ ... ]",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}


def _messages(err: ValidationError, data: Any, model: type[BaseModel]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for e in err.errors(include_url=False):
        loc = tuple(e["loc"])
        typ = e["type"]
        inp = e.get("input")
        if typ == "missing":
            msg = "required field is missing"
        elif typ == "extra_forbidden":
            parent = _parent_model(model, loc[:-1])
            allowed = ", ".join(parent.model_fields) if parent else ""
            msg = f"unknown field {loc[-1]!r}" + (
                f"; expected one of: {allowed}" if allowed else ""
            )
        elif typ in _TYPE_WORDS:
            msg = f"expected {_TYPE_WORDS[typ]}, got {inp!r}"
        elif typ == "literal_error":
            msg = f"expected {e['ctx']['expected']}, got {inp!r}"
        elif typ in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            ctx = e.get("ctx", {})
            msg = f"{e['msg'].replace('Input should be', 'expected a value').replace('Input should', 'expected a value')}, got {inp!r}"
            del ctx
        elif typ in ("value_error", "assertion_error"):
            msg = str(e["msg"]).removeprefix("Value error, ")
        else:
            msg = f"{e['msg']}, got {inp!r}" if inp is not None else str(e["msg"])
        key = (_field_path(loc, data), msg)
        # A union (e.g. rally: integer or "auto") reports one error per member; keep one.
        if any(k[0] == key[0] for k in seen) and typ in _TYPE_WORDS | {"literal_error": ""}:
            continue
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def _parent_model(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """Follow ``loc`` through nested model fields to the model that holds the last key."""
    import typing

    current: Any = model
    for key in loc:
        if isinstance(key, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        field = current.model_fields.get(key)
        if field is None:
            return None
        ann = field.annotation
        # unwrap tuple[X, ...] / dict[str, X] / Optional
        for _ in range(3):
            args = typing.get_args(ann)
            if not args:
                break
            ann = next(
                (a for a in args if isinstance(a, type) and issubclass(a, BaseModel)),
                args[-1] if args[-1] is not Ellipsis else args[0],
            )
        current = ann
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def validate(model: type[BaseModel], data: Any, source: str, context: dict | None = None):
    try:
        return model.model_validate(data, context=context or {})
    except ValidationError as e:
        raise DataError(source, _messages(e, data, model)) from None


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


def find_army(name_or_path: str, *, relax: bool = False) -> Army:
    """A built-in army by name (case-insensitive; ``france``, ``Great Britain``,
    ``great_britain``), or an army file by path."""
    p = Path(name_or_path)
    if p.suffix.lower() == ".toml" or p.exists():
        return load_army(p, relax=relax)
    key = name_or_path.strip().casefold().replace("_", " ").replace("-", " ")
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
        h.update(s.model_dump_json().encode())
    return h.hexdigest()[:16]
