"""The import contracts (pyproject.toml, ``[tool.importlinter]``) cover every registered game.

The contracts name the games' packages by hand (import-linter's wildcards cannot tell a
game from the core or the studies, which are siblings of the games under ``manoeuvre_sim``).
So the rule is checked here: a place in a contract (a layer, ``source_modules``,
``forbidden_modules``) that names one game's package must name every registered game's
package of the library (a game registered from outside ``manoeuvre_sim`` is not in the
library's import graph: its own project lints it). A game added to the registry and missing
from a contract fails this test, naming the contract and the game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

from manoeuvre_sim.core import games as G

ROOT = Path(__file__).resolve().parents[2]
# the contracts that name the games (the rule below would pass vacuously if one lost them all)
GAME_CONTRACTS = {
    "The layers: cli above the web workbench",
    "The studies reach a game only through the registry",
    "The library imports no plotting",
}


def game_package(module: str) -> str:
    """The package of a game's module: an adapter's package (``manoeuvre_sim.hexgame`` for
    ``manoeuvre_sim.hexgame.adapter``), else the module itself."""
    parts = module.split(".")
    return ".".join(parts[:-1]) if parts[-1] == "adapter" and len(parts) > 1 else module


def library_games(registry: Mapping[str, tuple[str, str | None]]) -> dict[str, str]:
    """key -> package of every registered game inside ``manoeuvre_sim``."""
    out = {k: game_package(m) for k, (m, _) in registry.items()}
    return {k: p for k, p in out.items() if p.startswith("manoeuvre_sim.")}


def _places(contract: dict) -> Iterable[tuple[str, set[str]]]:
    for i, layer in enumerate(contract.get("layers", [])):
        yield f"layer {i + 1}", {m.strip() for m in layer.replace(":", "|").split("|")}
    for field in ("source_modules", "forbidden_modules"):
        if field in contract:
            yield field, set(contract[field])


def uncovered(contracts: list[dict], packages: Mapping[str, str]) -> tuple[list[str], set]:
    """One line per registered game missing from a contract's place that names another
    game, and the names of the contracts that name a game."""
    missing, naming = [], set()
    for c in contracts:
        for place, names in _places(c):
            if names & set(packages.values()):
                naming.add(c["name"])
                missing += [f"{c['name']!r}, {place}: the game {key!r} ({pkg}) is missing"
                            for key, pkg in packages.items() if pkg not in names]  # fmt: skip
    return missing, naming


def _contracts() -> list[dict]:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return cfg["tool"]["importlinter"]["contracts"]


def _names_games(naming: set[str]) -> set[str]:
    return {want for want in GAME_CONTRACTS if any(n.startswith(want) for n in naming)}


def test_every_registered_game_is_in_every_contract_that_names_a_game():
    packages = library_games(G.GAMES)
    assert set(packages) >= {"manoeuvre", "hex"}
    missing, naming = uncovered(_contracts(), packages)
    assert not missing, "\n".join(missing)
    assert _names_games(naming) == GAME_CONTRACTS, naming


def test_a_third_registered_game_is_covered_by_the_check(monkeypatch):
    """A third game of the library registered (a fake package: its module is never
    imported) and left out of the contracts is reported for each contract naming the games."""
    monkeypatch.setitem(G.GAMES, "dice", ("manoeuvre_sim.dicegame.adapter", "Dice (a fake)"))
    missing, naming = uncovered(_contracts(), library_games(G.GAMES))
    assert _names_games(naming) == GAME_CONTRACTS
    assert len(missing) == len(GAME_CONTRACTS), missing
    assert all("the game 'dice' (manoeuvre_sim.dicegame) is missing" in m for m in missing)
    # listed beside the others, it is covered
    contracts = _contracts()
    for c in contracts:
        for field in ("source_modules", "forbidden_modules"):
            if "manoeuvre_sim.hexgame" in c.get(field, []):
                c[field] = [*c[field], "manoeuvre_sim.dicegame"]
        c["layers"] = [x + " | manoeuvre_sim.dicegame" if "manoeuvre_sim.hexgame" in x else x
                       for x in c.get("layers", [])]  # fmt: skip
    assert uncovered(contracts, library_games(G.GAMES))[0] == []


def test_a_game_outside_the_library_is_its_own_projects_to_lint(monkeypatch):
    monkeypatch.setitem(G.GAMES, "coin", ("tests.studies.coin_game", None))
    assert "coin" not in library_games(G.GAMES)
    assert game_package("my_dice.adapter") == "my_dice"
