"""A game's web module (its adapter's ``WEB_MODULE``, ``web/games/<key>/``) imports no other
game: neither another game's package nor another game's web module. What two games' pages
share lives in the shared web code (``web/``) or the core, reached by both.

The check reads the registry (every registered game of the library and its web module), so
a game added to the registry is covered without editing this test; imports inside functions
count (the web modules import their game lazily)."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Mapping
from pathlib import Path

from manoeuvre_sim.core import games as G
from tests.core.test_contracts import game_package


def _sources(module: str) -> list[Path]:
    """The files of ``module``: a package's every ``.py``, else the module's file."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, module
    origin = Path(spec.origin)
    return sorted(origin.parent.rglob("*.py")) if spec.submodule_search_locations else [origin]


def _imported(path: Path, package: str) -> set[str]:
    """Every module ``path`` imports (relative imports resolved against ``package``, the
    package the file is in), at any depth of the file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            out |= {base, *(f"{base}.{a.name}" for a in node.names)}
    return out


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def foreign_imports(web: Mapping[str, str], packages: Mapping[str, str]) -> list[str]:
    """One line per import of a game's web module (``web``: key -> its module) of another
    game's package (``packages``: key -> package) or another game's web module."""
    lines = []
    for key, module in web.items():
        others = {k: p for k, p in packages.items() if k != key}
        others |= {f"{k} (web)": m for k, m in web.items() if k != key}
        root = Path(importlib.util.find_spec(module).origin).parent
        for path in _sources(module):
            rel = path.relative_to(root).with_suffix("")
            parts = [*module.split("."), *rel.parts]
            package = ".".join(parts[:-1])  # the package the file is in
            for name in sorted(_imported(path, package)):
                for other, pkg in others.items():
                    if _within(name, pkg):
                        lines.append(f"{module} ({path.name}) imports {name}: the game "
                                     f"{other.split()[0]!r}'s {pkg}")  # fmt: skip
    return lines


def _library_web_modules() -> tuple[dict[str, str], dict[str, str]]:
    """key -> web module, key -> package, of every registered game of the library."""
    web, packages = {}, {}
    for key, (module, _) in G.GAMES.items():
        if not module.startswith("manoeuvre_sim."):
            continue
        packages[key] = game_package(module)
        name = G.hook(G.get_game(key), "WEB_MODULE")
        if name:
            web[key] = name
    return web, packages


def test_no_game_web_module_imports_another_game():
    web, packages = _library_web_modules()
    assert set(web) >= {"manoeuvre", "hex"}, web  # vacuous if the registry lost them
    assert foreign_imports(web, packages) == []


def test_a_planted_import_of_another_game_is_reported(tmp_path, monkeypatch):
    """Two fake games' web packages on the path: one imports the other game's package
    (inside a function, relatively too) and the other game's web module; each is reported."""
    for name, src in {
        "webgames_probe/__init__.py": "",
        "webgames_probe/red/__init__.py": "from . import views\n",
        "webgames_probe/red/views.py": (
            "import json\n\n\ndef f():\n    from redgame.replay import steps\n"
            "    from ..blue import board\n    return steps, board, json\n"
        ),
        "webgames_probe/blue/__init__.py": "from bluegame import model\n",
        "webgames_probe/blue/board.py": "from ..red import views\nfrom .. import red\n",
    }.items():  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(src, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    web = {"red": "webgames_probe.red", "blue": "webgames_probe.blue"}
    found = foreign_imports(web, {"red": "redgame", "blue": "bluegame"})
    assert any("views.py) imports webgames_probe.blue.board" in x for x in found), found
    assert any("board.py) imports webgames_probe.red.views" in x for x in found), found
    assert any("board.py) imports webgames_probe.red:" in x for x in found), found
    # its own game's package is fine
    assert not any("redgame" in x or "bluegame" in x for x in found), found
    # another game's is not, inside a function too
    found = foreign_imports(web, {"red": "bluegame", "blue": "redgame"})
    assert any("views.py) imports redgame.replay.steps: the game 'blue'" in x for x in found)
    assert any("__init__.py) imports bluegame.model: the game 'red'" in x for x in found)
