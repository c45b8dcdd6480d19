"""The workbench's replay pages (being written)."""

from __future__ import annotations

ROUTES: list = []
