"""The workbench's study pages (being written)."""

from __future__ import annotations

from pathlib import Path

ROUTES: list = []


def list_studies(root: Path) -> list:
    return []
