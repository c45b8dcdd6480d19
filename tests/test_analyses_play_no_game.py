"""The analyses play no game (issue 39): no module under ``analyses/`` reaches what plays
games — ``core.study.play``, the backends (``core.backend``), a study's ``run_spec`` or
``run`` (the shared kinds in ``studies/`` and each game's own in ``<game>/studies/``) or an
engine module (those of the contract "The analyses never call an engine's kernels" in
pyproject.toml) — whether imported at the top, inside a function, or called as an attribute
of an imported module (``B.run_spec(...)`` after ``from manoeuvre_sim.studies import balance
as B``). A static check over the source (the AST): nothing is imported or run."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ANALYSES = ROOT / "analyses"
PACKAGE = "manoeuvre_sim.analyses"
# the study modules' entry points that play games, as full names (regular expressions)
PLAYS = (
    r"manoeuvre_sim\.core\.study\.play",
    r"manoeuvre_sim\.core\.backend(\..*)?",
    r"manoeuvre_sim\.studies\.\w+\.(run_spec|run)",
    r"manoeuvre_sim\.\w+\.studies\.\w+\.(run_spec|run)",
)


def engine_modules() -> list[str]:
    """The engine modules the import contract keeps from the analyses (pyproject.toml)."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in conf["tool"]["importlinter"]["contracts"]
        if c["name"].startswith("The analyses never call an engine's kernels")
    ]  # fmt: skip
    return contract["forbidden_modules"]


def forbidden_pattern() -> re.Pattern:
    engines = [re.escape(m) + r"(\..*)?" for m in engine_modules()]
    return re.compile("|".join(f"(?:{p})" for p in (*PLAYS, *engines)))


def module_name(path: Path) -> str:
    parts = path.relative_to(ANALYSES).with_suffix("").parts
    return ".".join((PACKAGE, *(p for p in parts if p != "__init__")))


def reached_names(source: str, module: str) -> set[str]:
    """The full names ``source`` (the module ``module``) imports anywhere, and the
    attributes it reads of the names it imported (``B.run_spec`` -> its full name)."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}
    reached: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                reached.add(a.name)
                top = a.name.split(".")[0]  # "import a.b" binds a; "import a.b as x", x
                bound[a.asname or top] = a.name if a.asname else top
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import, resolved against the module's package
                pkg = module.split(".")[: -node.level]
                base = ".".join([*pkg, base] if base else pkg)
            for a in node.names:
                full = f"{base}.{a.name}"
                reached.update((base, full))
                bound[a.asname or a.name] = full
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = []
            x = node
            while isinstance(x, ast.Attribute):
                chain.append(x.attr)
                x = x.value
            if isinstance(x, ast.Name) and x.id in bound:
                reached.add(".".join([bound[x.id], *reversed(chain)]))
    return reached


def plays(source: str, module: str) -> list[str]:
    """What of the game-playing names ``source`` reaches, sorted."""
    pattern = forbidden_pattern()
    return sorted(n for n in reached_names(source, module) if pattern.fullmatch(n))


def test_no_module_of_the_analyses_plays_a_game():
    found = {
        str(path.relative_to(ROOT)): hits
        for path in sorted(ANALYSES.rglob("*.py"))
        if (hits := plays(path.read_text(encoding="utf-8"), module_name(path)))
    }
    assert not found, f"analyses modules reaching what plays games: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "from manoeuvre_sim.core.study import play\n",
        "def f():\n    from manoeuvre_sim.core import study\n    return study.play(None)\n",
        "import manoeuvre_sim.core.backend\n",
        "from manoeuvre_sim.studies import balance as B\nB.run_spec(None)\n",
        "from manoeuvre_sim.studies.whatif import run\n",
        "from manoeuvre_sim.hexgame.studies import ladder\nladder.run(spec=None)\n",
        "from manoeuvre_sim.manoeuvre.engine.batch import play_batch\n",
        "from manoeuvre_sim.hexgame import batch\n",
        "from ...hexgame import game\n",
    ],
)
def test_a_planted_game_playing_import_is_seen(source):
    assert plays(source, f"{PACKAGE}.common.probe")


def test_reading_a_study_s_results_is_no_play():
    source = (
        "from manoeuvre_sim.studies import balance\n"
        "from manoeuvre_sim.studies.balance import BalanceResult\n"
        "from manoeuvre_sim.core.study import Task, game_of\n"
        "balance.BalanceSpec\n"
    )
    assert plays(source, f"{PACKAGE}.common.probe") == []
