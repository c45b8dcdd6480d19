"""Field types shared by the schemas."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

# TOML has real integers and booleans: a quoted "8" or "yes" is a mistake, not a value.
Flag = Annotated[bool, Strict()]


def Int(lo: int, hi: int):  # noqa: N802 - a type factory used in annotations
    """An integer in ``lo..hi`` that must be written as a TOML integer."""
    return Annotated[int, Strict(), Field(ge=lo, le=hi)]
