"""Compiling the engine ahead of a run (``core/warmup.py``, ``make setup``): it knows
whether numba's cache holds a batch kernel, says so, and refuses an unknown kernel."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from manoeuvre_sim.core import warmup
from manoeuvre_sim.hexgame import adapter as HEX
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

ROOT = Path(__file__).resolve().parents[2]

EMPTY_CACHE_SNIPPET = """
from manoeuvre_sim.cli.common import start_description
from manoeuvre_sim.core.warmup import is_compiled
print(is_compiled("games"), is_compiled("cards"))
print(start_description(("games", "cards")))
print(start_description(()))
"""


def _run(code_or_args, cache_dir, module=False):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    env.pop("NUMBA_DISABLE_JIT", None)
    argv = ["-m", *code_or_args] if module else ["-c", code_or_args]
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, env=env, timeout=300
    )


def test_an_empty_cache_is_seen_and_the_bar_says_it_compiles(tmp_path):
    out = _run(EMPTY_CACHE_SNIPPET, tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "False False"
    secs = warmup.COMPILE_SECONDS["games"] + warmup.COMPILE_SECONDS["cards"]
    assert lines[1] == f"compiling the game engine, once, about {secs} s"
    assert lines[2] == "playing"
    assert not list(tmp_path.rglob("*.nbi")), "asking compiled something"


def test_a_played_kernel_is_seen_as_compiled():
    simulate(SimConfig("France", "Russia", games=2, seed=1))
    assert warmup.is_compiled("games")


def test_an_unknown_kernel_is_refused_with_one_line(tmp_path):
    out = _run(["manoeuvre_sim.core.warmup", "games", "nope"], tmp_path, module=True)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "warmup: unknown kernel 'nope'; expected one of games, cards, search, hex"
    )
    assert not list(tmp_path.rglob("*.nbi")), "a refused warm-up compiled something"


HEX_EMPTY_CACHE_SNIPPET = """
from manoeuvre_sim.cli.common import start_description
from manoeuvre_sim.core.warmup import is_compiled
from manoeuvre_sim.hexgame.adapter import WARMUP_KINDS as HEX_KINDS
print(is_compiled("hex"))
print(start_description(HEX_KINDS))
"""


def test_the_hex_engine_is_a_kind_of_its_own(tmp_path):
    """Maneuver's kernel has its warm-up kind: an empty cache is seen, and the progress bar
    says a compile comes; ``make setup``'s ``games`` does not compile it."""
    out = _run(HEX_EMPTY_CACHE_SNIPPET, tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "False"
    assert lines[1] == f"compiling the game engine, once, about {warmup.COMPILE_SECONDS['hex']} s"
    assert not list(tmp_path.rglob("*.nbi")), "asking compiled something"
    setup = (ROOT / "Makefile").read_text().split("\nsetup:")[1].split("\n\n")[0]
    assert "warmup games" in setup and "hex" not in setup  # make setup leaves it out


def test_a_played_hex_kernel_is_seen_as_compiled():
    from manoeuvre_sim.hexgame import batch as BT
    from manoeuvre_sim.hexgame import scenario as SC
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.players import policy_arrays

    pol, params = policy_arrays("random", "attrition")
    BT.play_games(1, 0, 2, SC.pack(SC.load_scenario()), S.default_options(), pol, params, 1)
    assert warmup.is_compiled("hex")


@pytest.mark.parametrize("command", ["simulate", "balance", "setup", "whatif", "ladder"])
def test_the_hex_commands_say_when_the_hex_engine_compiles(command, tmp_path, monkeypatch):
    """Every hex command's progress bar asks about the hex kernel (``hex simulate``'s bar,
    the studies' ``run_and_write``), not about none or Manoeuvre's."""
    from click.testing import CliRunner

    from manoeuvre_sim.cli import common
    from manoeuvre_sim.cli.main import cli

    seen = []

    class Stop(Exception):
        pass

    def record(*args, kinds=("games",), **kw):
        seen.append(tuple(kinds))
        raise Stop

    # simulate's bar, the studies' shared end (common.run_study)
    monkeypatch.setattr(common, "progress_bar" if command == "simulate" else "run_and_write",
                        record)  # fmt: skip
    extra = ["--set", "blue/infantry/strength=5"] if command == "whatif" else []
    res = CliRunner().invoke(cli, ["hex", command, "--out", str(tmp_path / "x.csv"), *extra])
    assert isinstance(res.exception, Stop), res.output
    assert seen == [HEX.WARMUP_KINDS]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream_type", [io.StringIO, _Terminal])
def test_the_compile_shows_its_progress_on_one_line(stream_type):
    """Issue 30 item 1: the set-up's compile is not silent: the kernel, the seconds and the
    numba functions compiled so far, a line every `every` s in a log, rewritten in place
    (carriage return) on a terminal."""
    import numba

    buf = stream_type()
    with warmup.Ticker(("games", "cards"), stream=buf, interval=0.05, every=0.05) as t:
        t.kernel(1)

        @numba.njit(cache=False)
        def twice(x):
            return 2 * x

        assert twice(21) == 42  # one function compiled while the ticker listens
        time.sleep(0.3)
    text = buf.getvalue()
    assert t.functions >= 1
    assert "compiling cards (2/2):" in text and f"of about {t.estimate} s" in text
    assert t.estimate == warmup.COMPILE_SECONDS["games"] + warmup.COMPILE_SECONDS["cards"]
    assert f"{t.functions} functions compiled" in text
    if stream_type is _Terminal:
        assert "\r" in text and "\n" not in text
    else:
        assert "\r" not in text and text.count("\n") >= 2


def test_the_set_up_compiles_what_run_and_report_play(monkeypatch):
    """make setup compiles the kernels of `make run` and `make report` at once (games,
    cards), so report announces no second compile; the busy machine is said."""
    make = (ROOT / "Makefile").read_text()
    setup = make.split("\nsetup:")[1].split("\n\n")[0]
    report = make.split("\nreport:")[1].split("\n\n")[0]
    assert "warmup games cards" in setup
    assert "warmup games cards" in report  # nothing report needs that setup left out
    monkeypatch.setattr(os, "getloadavg", lambda: (3.9, 3.0, 2.0))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert warmup.load_note() == "; load now 3.9 on 2 cores: expect longer"
    monkeypatch.setattr(os, "getloadavg", lambda: (0.4, 0.3, 0.2))
    assert warmup.load_note() == ""


def test_the_two_games_kernels_are_grouped_by_game_in_the_order_given():
    assert warmup._by_game(("search", "hex", "games")) == [("search", "games"), ("hex",)]
    assert warmup._by_game(("hex",)) == [("hex",)]


def test_side_by_side_passes_each_childs_lines_on_and_its_worst_status(capsys, monkeypatch):
    """Each group compiles in a child of its own: what a child says reaches the terminal,
    and a child that fails fails the whole (kinds the children refuse at once here: nothing
    compiles)."""
    for kind in ("nope", "nada"):
        monkeypatch.setitem(warmup.COMPILE_SECONDS, kind, 1)
    code = warmup.side_by_side([("nope",), ("games", "nada")])
    err = capsys.readouterr().err
    assert code == 2
    assert "compiling the game engines side by side" in err
    assert "warmup: unknown kernel 'nope'" in err
    assert "warmup: unknown kernel 'nada'" in err
