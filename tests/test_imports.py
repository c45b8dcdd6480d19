"""The import graph of the library (DESIGN.md: imports point one way, no circles) and the
size of its modules.

Every module of ``manoeuvre_sim/``, ``cli/`` and ``analyses/`` (under their installed names,
``manoeuvre_sim.cli`` and ``manoeuvre_sim.analyses``: pyproject's ``package-dir``) is parsed
with ``ast``, without importing it. An edge A -> B is any import of B in A, at module level or
inside a function: a lazy import that closes a circle is still a circle in the design, only one
that happens to run later (the circles of issue 23 were lazy ones). Imports under
``if TYPE_CHECKING:`` never run and are left out. Importing a name from a package is an edge to
the submodule of that name if there is one, else to the package.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = "manoeuvre_sim"
# the engines of the two games: they never import the study layer (DESIGN.md: two games);
# Maneuver's package is its engine but for its adapter to the study layer
ENGINES = ("manoeuvre_sim.manoeuvre.engine", "manoeuvre_sim.hexgame")
ADAPTERS = ("manoeuvre_sim.manoeuvre.adapter", "manoeuvre_sim.hexgame.adapter")
# the study layer and the user-facing layers above it
STUDY = (
    *(f"{TOP}.manoeuvre.{name}" for name in ("runner", "tournament", "matchup", "tune",
                                             "tune_io", "tune_games", "results")),
    *(f"{TOP}.core.{name}" for name in ("study", "backend", "store", "games")),
    *ADAPTERS, f"{TOP}.analyses", f"{TOP}.cli",
)  # fmt: skip
# the core (DESIGN.md: the house for two games): it imports no game (the registry imports a
# game's module by name when it is asked for) and no study
GENERIC = tuple(f"{TOP}.core.{name}" for name in ("study", "backend", "store", "games",
                                                  "errors", "fileio", "results", "stats",
                                                  "rng", "jit", "numba_cache"))  # fmt: skip
GAME_SPECIFIC = (f"{TOP}.manoeuvre", f"{TOP}.hexgame")
CLI, ANALYSES = f"{TOP}.cli", f"{TOP}.analyses"
# the rules of Manoeuvre: they call the players through the pointer the game context carries
# (engine/game.py builds it), so they compile without them and import none of them
RULES = tuple(
    f"{TOP}.manoeuvre.engine.{name}"
    for name in (
        "turns", "setup", "movement", "combat_phase", "combat_steps", "restoration", "rules",
        "checks", "board", "control", "decisions", "options", "state", "policy_ids",
    )
)  # fmt: skip
MAX_LINES = 600  # a module longer than this is split into cohesive modules (issue 23)


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Installed package name -> its directory, as pyproject's ``package-dir`` maps them."""
    cfg = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = cfg["tool"]["setuptools"]["package-dir"]
    return {pkg: root / d for pkg, d in dirs.items() if _under(pkg, (TOP,))}


def modules(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package's ``__init__``) for every module of the library."""
    dirs = package_dirs(root)
    out: dict[str, tuple[Path, bool]] = {}
    for pkg, d in dirs.items():
        for f in sorted(d.rglob("*.py")):
            parts = list(f.relative_to(d).with_suffix("").parts)
            if any(p.startswith(".") for p in parts) or "__pycache__" in parts:
                continue
            # a subdirectory that pyproject maps elsewhere (none today) belongs to that package
            if parts and any(pkg + "." + parts[0] == other for other in dirs):
                continue
            init = parts[-1] == "__init__"
            name = ".".join([pkg, *(parts[:-1] if init else parts)])
            out[name] = (f, init)
    return out


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every Import / ImportFrom node of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph(mods: dict[str, tuple[Path, bool]]) -> dict[str, dict[str, int]]:
    """Module -> {imported library module: line of the (first) import}."""
    graph: dict[str, dict[str, int]] = {}
    for name, (path, init) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: list[tuple[str, int]] = []
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets += [(a.name, node.lineno) for a in node.names]
                continue
            if node.level:  # relative: from the package of this module
                base = name.split(".") if init else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                sub = f"{mod}.{a.name}"
                targets.append((sub if sub in mods else mod, node.lineno))
        edges: dict[str, int] = {}
        for target, line in targets:
            while target and target not in mods:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as one
    circle through its modules, ``[a, b, ..., a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(_one_circle(graph, set(comp)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _one_circle(graph: dict[str, dict[str, int]], comp: set[str]) -> list[str]:
    """A shortest circle through the first module of ``comp`` (breadth-first)."""
    start = min(comp)
    prev: dict[str, str] = {}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [*reversed(path), start]
            if w in comp and w not in prev:
                prev[w] = v
                queue.append(w)
    raise AssertionError(f"no circle through {start}")


def _describe(graph: dict[str, dict[str, int]], circle: list[str]) -> str:
    return (
        " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(circle, circle[1:], strict=False))
        + f" -> {circle[-1]}"
    )


@pytest.fixture(scope="module")
def graph():
    return import_graph(modules())


def test_the_scan_sees_the_whole_library(graph):
    """The graph covers the three trees and the imports the layers are built on (a scan that
    found nothing would pass every check below)."""
    assert f"{TOP}.manoeuvre.engine.game" in graph and f"{CLI}.main" in graph
    assert f"{ANALYSES}.manoeuvre.balance" in graph and f"{TOP}.hexgame" in graph
    assert f"{TOP}.manoeuvre.engine.players.dispatch" in graph[f"{TOP}.manoeuvre.engine.game"]
    M = f"{ANALYSES}.manoeuvre"
    assert f"{M}.tally" in graph[f"{M}.balance"]  # absolute import
    assert f"{M}.charts" in graph[f"{M}.balance_pdf"]
    assert f"{TOP}.manoeuvre.runner" in graph[f"{TOP}.manoeuvre.tune_games"]  # in a function


def test_no_import_circles(graph):
    found = circles(graph)
    assert not found, "import circles (break each where it starts):\n" + "\n".join(
        _describe(graph, c) for c in found
    )


def test_the_engines_never_import_the_study_layer(graph):
    bad = [
        f"{m} imports {t} (line {line})"
        for m, edges in sorted(graph.items())
        if _under(m, ENGINES) and not _under(m, ADAPTERS)
        for t, line in edges.items()
        if _under(t, STUDY)
    ]
    assert not bad, "an engine imports the study layer:\n" + "\n".join(bad)


def test_the_generic_study_layer_imports_no_game(graph):
    assert all(m in graph for m in GENERIC), [m for m in GENERIC if m not in graph]
    bad = [
        f"{m} imports {t} (line {line})"
        for m in GENERIC
        for t, line in graph[m].items()
        if _under(t, GAME_SPECIFIC)
    ]
    assert not bad, "a generic module imports a game:\n" + "\n".join(bad)


def test_the_rules_reach_the_players_only_through_the_context(graph):
    """Nothing of the rules imports the players, the search driver or the game that builds
    the context (issue 23: the player pointer passed into the context)."""
    above = tuple(f"{TOP}.manoeuvre.engine.{m}" for m in ("players", "search", "game"))
    assert all(m in graph for m in RULES), [m for m in RULES if m not in graph]
    bad = [
        f"{m} imports {t} (line {line})"
        for m in RULES
        for t, line in graph[m].items()
        if _under(t, above)
    ]
    assert not bad, "the rules import a player:\n" + "\n".join(bad)


def test_imports_point_one_way_cli_analyses_library(graph):
    """DESIGN.md: cli -> analyses -> manoeuvre_sim; the library never imports the command
    line or the analyses, the analyses never the command line."""
    bad = []
    for m, edges in sorted(graph.items()):
        above = (CLI, ANALYSES) if not _under(m, (CLI, ANALYSES)) else (CLI,)
        if _under(m, (CLI,)):
            continue
        bad += [f"{m} imports {t} (line {line})" for t, line in edges.items() if _under(t, above)]
    assert not bad, "an import points the wrong way:\n" + "\n".join(bad)


def test_the_library_never_imports_matplotlib():
    """DESIGN.md: charts are the analyses' business; the library stays importable without a
    plotting backend."""
    bad = []
    for name, (path, _) in sorted(modules().items()):
        if _under(name, (CLI, ANALYSES)):
            continue
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            bad += [
                f"{name} (line {node.lineno})" for n in names if n.split(".")[0] == "matplotlib"
            ]
    assert not bad, "the library imports matplotlib: " + ", ".join(bad)


def test_no_module_of_the_library_is_over_600_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for path, _ in modules().values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them by what they do): {long}"


def test_a_circle_is_found_and_reported_through_its_lines(tmp_path):
    """The checks themselves: a lazy import that closes a circle (a -> b -> c -> a, c's import
    inside a function and relative), and a TYPE_CHECKING import, which is no edge."""
    files = {
        "__init__.py": "",
        "a.py": "from pkg import b\n",
        "b.py": "import pkg.c\n",
        "c.py": "def f():\n    from . import a\n",
        "d.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg import e\n",
        "e.py": "from pkg.d import something\n",
    }
    d = tmp_path / "pkg"
    d.mkdir()
    mods = {}
    for n, text in files.items():
        (d / n).write_text(text)
        mods["pkg" if n == "__init__.py" else f"pkg.{n[:-3]}"] = (d / n, n == "__init__.py")
    g = import_graph(mods)
    assert g["pkg.c"] == {"pkg.a": 2} and g["pkg.e"] == {"pkg.d": 1}
    assert g["pkg.d"] == {}  # never runs
    assert circles(g) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]
    assert _describe(g, circles(g)[0]) == (
        "pkg.a (line 1) -> pkg.b (line 1) -> pkg.c (line 2) -> pkg.a"
    )
