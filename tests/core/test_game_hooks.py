"""The declared game interface (``core/games.py``): every optional hook in one table, checked
when a game loads, read through one accessor; games registered from outside the library (an
entry point, ``MANOEUVRE_SIM_GAMES``); the registry of study kinds (``studies.find``); no
default game inside a study, and the one legacy rule for a manifest without a game."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from manoeuvre_sim import studies
from manoeuvre_sim.core import games as G
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import LEGACY_GAME, game_of, identity
from tests.studies import coin_game

ROOT = Path(__file__).resolve().parents[2]


def _one_line(e) -> str:
    msg = str(e.value)
    assert "\n" not in msg, msg
    return msg


def _copy_of_coin(name: str = "coin_copy", **hooks) -> types.ModuleType:
    """A module with the coin game's members and its fixer hooks, plus ``hooks``."""
    m = types.ModuleType(name)
    for n in (*G.MEMBERS, "FIX_EDIT_KINDS", "fix_edits", "apply_side_edits"):
        setattr(m, n, getattr(coin_game, n))
    for n, v in hooks.items():
        setattr(m, n, v)
    return m


# --- the table of hooks ---------------------------------------------------------------------


def test_every_hook_has_one_name_a_form_and_a_meaning():
    for name, h in G.HOOKS.items():
        assert h.name == name and h.form.startswith(name) and h.meaning, name
        assert h.name not in G.MEMBERS  # a required member is not a hook
        if h.default is not None:
            assert h.check(h.default) is None, name  # the default is of the declared form
    for group in G.TOGETHER:
        assert set(group) <= set(G.HOOKS)


@pytest.mark.parametrize("key", ["manoeuvre", "hex"])
def test_the_built_in_games_hooks_are_of_their_declared_form(key):
    g = G.get_game(key)  # checked() ran: each hook it defines passed
    defined = {n for n in G.HOOKS if hasattr(g, n)}
    assert {"policy_cost", "WARMUP", "warmup_kernel", "STUDY_KINDS", "REPORT_MODULE",
            "NUMBA_CACHE", "tournament_plan", "simulate_plan", "rebuild_trace",
            "balance_command", "balance_manifest", "BALANCE_SIDES", "BALANCE_TABLES",
            "whatif_command", "whatif_manifest", "WHATIF_PAGES", "OWN_STUDIES"} <= defined  # fmt: skip
    assert G.pages_module(g, "BALANCE_TABLES").__name__ == g.BALANCE_TABLES
    assert G.pages_module(g, "WHATIF_PAGES").__name__ == g.WHATIF_PAGES


def test_the_coin_game_is_checked_with_its_hooks():
    assert G.checked(coin_game) is coin_game
    assert G.hook(coin_game, "FIX_EDIT_KINDS") is coin_game.FIX_EDIT_KINDS


def test_a_hook_missing_takes_its_declared_default():
    g = _copy_of_coin()
    assert G.hook(g, "policy_cost")("search:100") == 0.5  # every seat half a game
    assert G.hook(g, "STUDY_KINDS") == () and G.hook(g, "WARMUP") == {}
    assert G.hook(g, "OWN_STUDIES") == {} and G.hook(g, "REPORT_MODULE") is None
    assert G.hook(g, "balance_cells") is None and G.hook(g, "rebuild_trace") is None
    assert G.hook(g, "BALANCE_SIDES") == {} and G.hook(g, "BALANCE_GAMES") is None
    assert G.hook(g, "whatif_write")(None, None) == []  # no files of its own
    assert G.pages_module(g, "BALANCE_TABLES") is None
    with pytest.raises(ValueError, match="'OWN_STUDIES' is not a hook of games.HOOKS naming"):
        G.pages_module(g, "OWN_STUDIES")
    with pytest.raises(ValueError, match="'policy_costs' is not a hook"):
        G.hook(g, "policy_costs")


@pytest.mark.parametrize(
    "name, value, expected",
    [
        ("policy_cost", 0.5, "expected a function, got float"),
        ("STUDY_KINDS", ["balance"], "expected a tuple of str, got list"),
        ("REPORT_MODULE", "not a module!", "expected a module's dotted name"),
        ("OWN_STUDIES", {"ladder": 3}, "expected a dict of kind -> module name, got dict"),
        ("WEB_MODULE", 7, "expected a module's dotted name"),
        ("NUMBA_CACHE", ("coin-",), "expected a (prefix, folder or None) tuple of str"),
        ("FIX_EDIT_KINDS", {"heads": (1, 4)}, "expected a dict of str -> (int, int, str)"),
        ("rebuild_trace", "rebuild", "expected a function, got str"),
        ("BALANCE_GAMES", 0, "expected a positive int, got int"),
        ("BALANCE_SIDES", {"flag": 2}, "expected a dict of flag, one, fewer (str) and least"),
        ("BALANCE_TABLES", "analyses/balance.py", "expected a module's dotted name"),
        ("BALANCE_ROWS", "variants", "expected sides or labels, got str"),
        ("TEXT_COLUMNS", {"capital_hexes": "hex"}, "expected a dict of table -> a tuple of"),
        ("COMMAND_FLAGS", {"armies": "armies"}, "expected a dict of keyword -> --flag"),
        ("WHATIF_PAGES", None, "expected a module's dotted name"),
        (
            "tournament_plan",
            lambda players, games, seed, *, options=None: None,
            "expected a function taking the keywords sides, options, got function",
        ),
        (
            "simulate_plan",
            lambda side_a, side_b, *, options=None: None,
            "expected a function of one argument (the spec), got function",
        ),
        (
            "apply_side_edits",
            lambda side, edits: (side, []),
            "expected a function taking the keywords relax, got function",
        ),
    ],
)
def test_a_hook_of_the_wrong_form_is_one_line_naming_the_game_and_the_hook(name, value, expected):
    with pytest.raises(UsageError) as e:
        G.checked(_copy_of_coin(**{name: value}))
    msg = _one_line(e)
    assert msg.startswith(f"game coin_copy: its hook {name}: {expected}"), msg


def test_hooks_that_go_together_are_all_defined_or_none():
    g = _copy_of_coin()
    del g.apply_side_edits
    with pytest.raises(UsageError) as e:
        G.checked(g)
    assert "defines FIX_EDIT_KINDS, fix_edits but not apply_side_edits" in _one_line(e)
    with pytest.raises(UsageError, match="defines WARMUP but not warmup_kernel"):
        G.checked(_copy_of_coin(WARMUP={"coin": 1}))


def test_shared_code_reads_hooks_through_the_accessor_only():
    """No ``getattr(x, "<hook>")`` or ``hasattr(x, "<hook>")`` outside core/games.py in the
    library: a hook read ad hoc would carry a default of its own."""
    found = []
    for folder in ("manoeuvre_sim", "cli", "analyses"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == ROOT / "manoeuvre_sim/core/games.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                        and isinstance(node.args[1], ast.Constant)
                        and node.args[1].value in G.HOOKS):  # fmt: skip
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.args[1].value}")
    assert not found, found


# --- no default game in a study; the legacy rule ---------------------------------------------


def test_a_study_names_its_game():
    assert not hasattr(G, "DEFAULT_GAME")
    with pytest.raises(UsageError, match="a study names its game"):
        G.resolve(None)
    from manoeuvre_sim.core.study import play

    with pytest.raises(TypeError, match="game"):
        play([], [])  # no game: refused, not Manoeuvre


def test_a_manifest_written_before_games_had_keys_holds_manoeuvre_games():
    assert LEGACY_GAME == "manoeuvre"
    assert game_of({"study": "balance"}) == "manoeuvre" and game_of({"game": "hex"}) == "hex"
    assert identity({"study": "balance"})["game"] == "manoeuvre"


# --- games registered from outside the library -----------------------------------------------


class _EntryPoint:
    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value


def test_games_register_by_entry_point_and_environment():
    got, bad = G._registered("dice=my_dice.adapter, coin=tests.studies.coin_game",
                             [_EntryPoint("chess", "my_chess.adapter")])  # fmt: skip
    assert bad is None
    assert got == {"chess": ("my_chess.adapter", None), "dice": ("my_dice.adapter", None),
                   "coin": ("tests.studies.coin_game", None)}  # fmt: skip
    assert G._registered("", []) == ({}, None) and G._registered(None, []) == ({}, None)


@pytest.mark.parametrize(
    "env, eps, expected",
    [
        ("coin", [], "MANOEUVRE_SIM_GAMES 'coin': expected KEY=MODULE"),
        ("Coin=x.y", [], "the key 'Coin' is not a short lower-case name"),
        ("coin=x-y", [], "'x-y' is not a module name"),
        ("hex=my.hex", [], "the game 'hex' is registered already"),
        ("coin=a.b,coin=c.d", [], "the game 'coin' is registered already"),
        ("", [_EntryPoint("coin", "my_coin:Game")], "expected a module, not an attribute"),
    ],
)
def test_a_bad_registration_is_one_line(env, eps, expected):
    _, bad = G._registered(env, eps)
    assert bad is not None and "\n" not in bad and expected in bad, bad


def _python(code: str, **env) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=path, **env), cwd=ROOT)  # fmt: skip


def test_the_coin_game_joins_the_registry_from_the_environment():
    """No edit of the library: the variable alone brings the toy game in, its title read
    from its module, its shared study kinds found; a bad value is one line, and the package
    still imports."""
    code = ("from manoeuvre_sim.core import games as G; from manoeuvre_sim import studies; "
            "print(list(G.GAMES), G.title('coin'), studies.find('coin', 'balance').__name__)")  # fmt: skip
    out = _python(code, MANOEUVRE_SIM_GAMES="coin=tests.studies.coin_game")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[0] == (
        "['manoeuvre', 'hex', 'coin'] Coin flips (a test game) manoeuvre_sim.studies.balance"
    )
    bad = _python("import manoeuvre_sim.core.games as G; print('imported'); G.get_game('hex')",
                  MANOEUVRE_SIM_GAMES="coin")  # fmt: skip
    assert bad.stdout == "imported\n" and bad.returncode != 0
    last = bad.stderr.strip().splitlines()[-1]
    assert last.endswith("UsageError: MANOEUVRE_SIM_GAMES 'coin': expected KEY=MODULE, e.g. "
                         "coin=tests.studies.coin_game")  # fmt: skip


# --- the registry of study kinds ------------------------------------------------------------


@pytest.fixture
def coin(monkeypatch):
    monkeypatch.setitem(G.GAMES, "coin", (coin_game.__name__, None))
    return "coin"


def test_every_shared_kind_is_a_study_module(coin):
    assert set(studies.SHARED_KINDS) == {"balance", "whatif", "tournament", "simulate", "fix",
                                         "why"}  # fmt: skip
    for kind, path in studies.SHARED_KINDS.items():
        assert path == f"manoeuvre_sim.studies.{kind}"
        assert studies.find(coin, kind).__name__ == path
    assert G.title(coin) == coin_game.TITLE  # read from its module when first asked


def test_a_kind_the_game_does_not_have_is_one_line(coin):
    with pytest.raises(UsageError) as e:
        studies.find(coin, "ladder")
    msg = _one_line(e)
    assert msg == ("study kind 'ladder': the game 'coin' has balance, whatif, tournament, "
                   "simulate, fix, why"), msg  # fmt: skip


def test_a_games_own_kind_is_found_through_its_adapter(coin, monkeypatch):
    monkeypatch.setattr(coin_game, "OWN_STUDIES", {"streak": "tests.studies.coin_game"},
                        raising=False)  # fmt: skip
    assert studies.find(coin, "streak") is coin_game
    assert list(studies.kinds(coin))[-1] == "streak"
    monkeypatch.setattr(coin_game, "OWN_STUDIES", {"balance": "tests.studies.coin_game"})
    with pytest.raises(UsageError, match="its own study kind 'balance' .* a shared kind's name"):
        studies.find(coin, "balance")


def test_the_guide_lists_every_hook():
    text = (ROOT / "docs/games.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    named = [row.split("`")[1].split("(")[0].split(":")[0] for row in rows]
    assert named == list(G.HOOKS)
