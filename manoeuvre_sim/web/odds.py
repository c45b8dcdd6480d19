"""The workbench's odds pages (being written)."""

from __future__ import annotations

ROUTES: list = []
