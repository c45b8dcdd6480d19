"""The data files of every game: TOML read with errors that name the file, pydantic
validation whose errors name the file, the field and what was expected (one line each),
the package's data folder, and the strict field types the schemas share."""

from __future__ import annotations

import tomllib
import weakref
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, Strict, ValidationError

from manoeuvre_sim.core.errors import DataError

# TOML has real integers and booleans: a quoted "8" or "yes" is a mistake, not a value.
Flag = Annotated[bool, Strict()]


def Int(lo: int, hi: int):  # noqa: N802 - a type factory used in annotations
    """An integer in ``lo..hi`` that must be written as a TOML integer."""
    return Annotated[int, Strict(), Field(ge=lo, le=hi)]


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


_JSON: dict[int, tuple[Any, bytes]] = {}


def model_json(obj: BaseModel) -> bytes:
    """``obj.model_dump_json().encode()``, kept per object when the model is frozen (its
    value cannot change): a study hashes the same armies, terrain and map sections for every
    pairing it packs and every block it plays (the fixer: thousands of blocks)."""
    got = _JSON.get(id(obj))
    if got is not None and got[0]() is obj:
        return got[1]
    out = obj.model_dump_json().encode()
    if obj.model_config.get("frozen"):
        key = id(obj)
        _JSON[key] = (weakref.ref(obj, lambda _, k=key: _JSON.pop(k, None)), out)
    return out
