"""A game's own study kinds (``manoeuvre_sim/<game>/studies/``, named by its adapter's
``OWN_STUDIES``) sit at the study layer (issue 39): they may use the shared study kinds and
their game, never analyses, the web, the other game or plotting; the rest of their game (its
engines, its adapter) never imports them, nor do the shared kinds. Each rule is checked by
planting an import in a copy of the tree import-linter reads (``scripts/lint_imports.py``),
laid out in the test's own directory (so that parallel tests do not share one)."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_layout import ROOT, SCRIPT, pytestmark  # noqa: F401 (skipped without it)


def _tree(where: Path) -> Path:
    """``scripts/lint_imports.py``'s tree of links, laid out under ``where``."""
    spec = importlib.util.spec_from_file_location("lint_imports_kinds", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.TREE = where / "import-tree"
    return mod.build_tree()


def _lint(tmp_path: Path, plant: dict[str, str]) -> subprocess.CompletedProcess:
    """lint-imports over the tree with ``plant`` (path in the tree -> source) added: new
    files only (a path of the library is a link to its real file)."""
    tree = _tree(tmp_path)
    for rel, src in plant.items():
        assert not (tree / rel).exists(), rel
        (tree / rel).write_text(src, encoding="utf-8")
    return _run(tree)


def _run(tree: Path) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(exe), str(ROOT / "pyproject.toml"), "--no-cache"], cwd=tree,
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_a_games_own_kind_may_use_the_shared_study_kinds(tmp_path):
    out = _lint(tmp_path, {"manoeuvre_sim/hexgame/studies/_probe.py":
                 "import manoeuvre_sim.studies\nfrom manoeuvre_sim.studies import rounds\n"})  # fmt: skip
    assert out.returncode == 0, out.stdout[-3000:]


@pytest.mark.parametrize(
    ("where", "source", "contract"),
    [
        ("manoeuvre_sim/hexgame/studies/_probe.py", "from manoeuvre_sim.analyses.common import pages\n",
         "The layers"),
        ("manoeuvre_sim/manoeuvre/studies/_probe.py", "from manoeuvre_sim.hexgame import scenario\n",
         "The layers"),
        ("manoeuvre_sim/manoeuvre/studies/_probe.py", "import matplotlib\n",
         "The library imports no plotting"),
        ("manoeuvre_sim/manoeuvre/engine/_probe.py",
         "def f():\n    from manoeuvre_sim.manoeuvre.studies import cards\n",
         "The engines never import the study layer"),
        ("manoeuvre_sim/studies/_probe.py", "from manoeuvre_sim.hexgame.studies import ladder\n",
         "The studies reach a game only through the registry"),
    ],
)  # fmt: skip
def test_a_planted_import_of_or_by_a_games_own_kind_breaks_its_contract(
    tmp_path, where, source, contract
):
    out = _lint(tmp_path, {where: source})
    assert out.returncode != 0
    broken = out.stdout.split("Broken contracts")[-1]
    assert contract in broken and "_probe" in broken


@pytest.mark.parametrize("key", ["manoeuvre", "hex"])
def test_each_own_kind_named_by_the_adapter_declares_its_kind(key):
    from manoeuvre_sim.core.games import get_game

    own = get_game(key).OWN_STUDIES
    assert own
    for kind, path in own.items():
        module = importlib.import_module(path)
        assert kind == module.KIND
        assert path.startswith(f"{get_game(key).__name__.rpartition('.')[0]}.studies.")
        assert callable(module.run_spec)


def test_an_adapter_importing_its_own_kind_breaks_the_contract(tmp_path):
    adapter = _tree(tmp_path) / "manoeuvre_sim" / "hexgame" / "adapter.py"
    text = adapter.read_text(encoding="utf-8")
    adapter.unlink()  # the tree's link, not the file: a copy with one import more instead
    adapter.write_text(text + "\n\ndef _probe():\n    from manoeuvre_sim.hexgame.studies "
                       "import setup  # noqa: F401\n", encoding="utf-8")  # fmt: skip
    out = _run(adapter.parents[2])
    broken = out.stdout.split("Broken contracts")[-1]
    assert out.returncode != 0 and "A game's own study kinds are its top" in broken
    assert "manoeuvre_sim.hexgame.adapter -> manoeuvre_sim.hexgame.studies.setup" in broken
