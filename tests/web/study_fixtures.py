"""Real tiny studies for the study pages' tests, made with the command line (in process, so
numba's cache and the imports are shared) once per test session.

The folder holds, under ``root``: ``balance`` (3 armies, one of them named
``<script>alert(1)</script>`` from an army file, to check that names are escaped),
``cards``, ``whatif``, ``hex/balance`` (two variants: its records have two labels),
``hex/ladder``, ``hex/setup``, ``hex/whatif``, and three broken ones: ``interrupted``
(the balance study with its manifest marked interrupted), ``writing`` (game records and no
manifest yet: a run in progress) and ``garbled`` (a manifest that is not JSON).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

HOSTILE = "<script>alert(1)</script>"
REPO = Path(__file__).resolve().parents[2]

COMMANDS = {
    "balance": ["balance", "--armies", "France,Russia,{hostile}", "--relax",
                "--games-per-pairing", "12", "--policy", "random", "--block", "12"],
    "cards": ["cards", "--army", "France", "--against", "Russia", "--games-per-variant", "4",
              "--policy", "random", "--block", "50"],
    "whatif": ["whatif", "--armies", "France,Russia", "--set", "France/Garde Imperial/full=9",
               "--games-per-pairing", "6", "--policy", "random"],
    "hex/balance": ["hex", "balance", "--borders", "basic,large_blue", "--quality", "front:front",
                    "--step-losses", "off", "--step-replacements", "off",
                    "--policies", "random,capital", "--games-per-pairing", "6"],
    "hex/ladder": ["hex", "ladder", "--games", "6", "--policies", "random", "--max-k", "2"],
    "hex/setup": ["hex", "setup", "--games", "40", "--policy-a", "random", "--policy-b", "random"],
    "hex/whatif": ["hex", "whatif", "--set", "blue/infantry/strength=5", "--games-per-pairing",
                   "4", "--policies", "random"],
}  # fmt: skip

_BUILT: dict[str, Path] = {}


def hostile_army(folder: Path) -> Path:
    """An army file: Austria's, named ``<script>alert(1)</script>``."""
    text = (REPO / "data/armies/austria.toml").read_text(encoding="utf-8")
    text = text.replace('name = "Austria"', f'name = "{HOSTILE}"', 1)
    path = folder / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(args: list[str]) -> None:
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output


def make_studies(root: Path, commands: dict = COMMANDS, broken_from: str = "balance",
                 garbled: bool = True) -> Path:  # fmt: skip
    """Write every study of ``commands`` (default: the module docstring's) under ``root``,
    then the broken ones made from ``broken_from`` (interrupted, writing; and garbled);
    return ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    army = hostile_army(root.parent)
    for rel, args in commands.items():
        args = [a.replace("{hostile}", str(army)) for a in args]
        run_cli([*args, "--threads", "1", "--quiet", "--out", str(root / rel)])
    shutil.copytree(root / broken_from, root / "interrupted")
    man = root / "interrupted/manifest.json"
    doc = json.loads(man.read_text(encoding="utf-8"))
    doc["interrupted"] = True
    man.write_text(json.dumps(doc), encoding="utf-8")
    (root / "writing").mkdir()
    shutil.copytree(root / broken_from / "games.parquet", root / "writing/games.parquet")
    if garbled:
        (root / "garbled").mkdir()
        (root / "garbled/manifest.json").write_text("{not json", encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def studies_root(tmp_path_factory) -> Path:
    """The folder of tiny studies, made once per session (whichever module asks first)."""
    if "root" not in _BUILT:
        _BUILT["root"] = make_studies(tmp_path_factory.mktemp("studies") / "studies")
    return _BUILT["root"]
