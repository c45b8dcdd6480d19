"""The house's layout (issue 31): the layers are import-linter contracts (pyproject.toml,
``[tool.importlinter]``), run by ``make lint`` through ``scripts/lint_imports.py`` over the
installed tree (``manoeuvre_sim`` with ``cli/`` and ``analyses/`` under it). These tests
check that the contracts hold, that each can fail (a forbidden import planted in the tree
is reported), and the size of the modules."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "lint_imports.py"
MAX_LINES = 600  # a module longer than this is split into cohesive modules (issue 23)

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("importlinter") is None, reason="import-linter not installed"
)


def _lint(tree_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """lint-imports over the installed tree, with ``tree_extra`` (path in the tree -> source)
    planted in it first."""
    spec = importlib.util.spec_from_file_location("lint_imports", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tree = mod.build_tree()
    for rel, src in (tree_extra or {}).items():
        (tree / rel).write_text(src, encoding="utf-8")
    exe = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(exe), str(ROOT / "pyproject.toml"), "--no-cache"], cwd=tree,
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_the_contracts_hold_and_see_the_whole_library():
    out = _lint()
    assert out.returncode == 0, out.stdout[-3000:]
    assert "broken" not in out.stdout.split("Contracts:")[-1].replace("0 broken", "")
    # cli/ and analyses/ are in the graph (a walk of manoeuvre_sim/ alone never sees them)
    assert "cli above the web workbench, above analyses" in out.stdout
    files = int(out.stdout.split("Analyzed ")[1].split(" files")[0])
    assert files >= sum(1 for d in ("manoeuvre_sim", "cli", "analyses")
                        for _ in (ROOT / d).rglob("*.py"))  # fmt: skip


@pytest.mark.parametrize(
    ("where", "source", "contract"),
    [
        ("manoeuvre_sim/core/_probe.py", "import manoeuvre_sim.hexgame.adapter\n", "The layers"),
        ("manoeuvre_sim/web/_probe.py", "import manoeuvre_sim.cli.main\n", "The layers"),
        ("manoeuvre_sim/studies/_probe.py", "from manoeuvre_sim.manoeuvre import model\n",
         "The studies reach a game only through the registry"),
        ("manoeuvre_sim/hexgame/_probe.py", "def f():\n    from manoeuvre_sim.manoeuvre import dice\n",
         "The layers"),
        ("manoeuvre_sim/analyses/common/_probe.py", "from manoeuvre_sim.hexgame import batch\n",
         "The analyses never call an engine's kernels"),
        ("manoeuvre_sim/manoeuvre/_probe.py", "import matplotlib\n", "The library imports no plotting"),
    ],
)  # fmt: skip
def test_a_planted_forbidden_import_breaks_its_contract(where, source, contract):
    out = _lint({where: source})
    assert out.returncode != 0
    broken = out.stdout.split("Broken contracts")[-1]
    assert contract in broken and "_probe" in broken


def test_no_module_of_the_library_is_over_600_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for d in ("manoeuvre_sim", "cli", "analyses")
        for path in (ROOT / d).rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them by what they do): {long}"
