"""The benchmarks of both games, one package: ``python -m benchmarks`` lists them,
``python -m benchmarks NAME [--quick]`` runs one, ``python -m benchmarks all --quick``
runs every one in its quick form (``make bench``). See docs/benchmarks.md.

A module ``bench_x_y.py`` is the benchmark ``x-y``: its docstring's first line describes it
in the list, and its ``main(argv) -> int`` runs it. The other modules beside ``common.py``
(what the benchmarks share) are tools, run as ``python -m benchmarks.TOOL``.

Nothing here is imported by the library; run the package from the repository root (the
tests do, with the root on pytest's ``pythonpath``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import PREFIX, bench_name

HERE = Path(__file__).resolve().parent
NOT_TOOLS = ("__init__", "__main__", "common", "endings_traces")  # helpers, not run alone


@dataclass(frozen=True)
class Entry:
    """A benchmark or a tool of the package, read from its source (nothing imported)."""

    name: str  # hex-odds (a tool: its module name)
    module: str  # bench_hex_odds
    summary: str  # the docstring's first line
    needs: str  # NEEDS: what its full form needs given (a baseline, studies, ...), or ""

    @property
    def game(self) -> str:
        return "Maneuver" if self.name.startswith("hex") else "Manoeuvre"


def _entry(path: Path, name: str) -> Entry:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = (ast.get_docstring(tree) or "").strip()
    needs = ""
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) == "NEEDS"):  # fmt: skip
            needs = ast.literal_eval(node.value)
    return Entry(name, path.stem, doc.splitlines()[0] if doc else "", needs)


def benchmarks() -> list[Entry]:
    """Every benchmark, Manoeuvre's then Maneuver's, each game's by name."""
    found = [_entry(p, bench_name(p.stem)) for p in HERE.glob(f"{PREFIX}*.py")]
    return sorted(found, key=lambda e: (e.game != "Manoeuvre", e.name))


def tools() -> list[Entry]:
    """The modules that are neither benchmarks nor the package's own."""
    paths = [p for p in HERE.glob("*.py") if not p.stem.startswith(PREFIX)]
    return sorted((_entry(p, p.stem) for p in paths if p.stem not in NOT_TOOLS),
                  key=lambda e: e.name)  # fmt: skip


def find(name: str) -> Entry | None:
    """The benchmark called ``name`` (``hex-odds``; ``hex_odds`` and ``bench_hex_odds`` too)."""
    want = bench_name(name)
    return next((e for e in benchmarks() if e.name == want), None)
