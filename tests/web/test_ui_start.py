"""``manoeuvre-sim ui``'s first start: it says what it compiles before compiling it, shows
the warm-up's progress, and says "ready" with the seconds since the start, before it
serves. The compiles are stand-ins here (a cold compile takes minutes): the order of the
printed lines and the calls is what is checked."""

from __future__ import annotations

import re
import sys
import time

from click.testing import CliRunner


def _start(monkeypatch, tmp_path, compiled: set[str]):
    import uvicorn

    from manoeuvre_sim.cli import ui as U
    from manoeuvre_sim.cli.main import cli
    from manoeuvre_sim.core import warmup as W

    def compile_kernels(kinds, ticker=None):
        time.sleep(0.3)
        sys.stderr.write(f"<compile {' '.join(kinds)}> {ticker.line()}\n")
        return 0.3

    def warm(studies):
        time.sleep(0.2)
        sys.stderr.write("<replays>\n")

    monkeypatch.setattr(W, "is_compiled", lambda kind="games": kind in compiled)
    monkeypatch.setattr(W, "compile_kernels", compile_kernels)
    monkeypatch.setattr(U, "_warm_replays", warm)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: sys.stdout.write("<serving>\n"))
    r = CliRunner().invoke(cli, ["ui", "--studies", str(tmp_path), "--port", "9125"])
    assert r.exit_code == 0, r.output
    return r.output.splitlines()


def test_a_first_start_says_what_it_compiles_before_it_serves(monkeypatch, tmp_path):
    lines = _start(monkeypatch, tmp_path, compiled={"games"})
    at = {}
    for i, line in enumerate(lines):
        for key in ("starting the workbench", "checking", "compiling the game engine", "<compile", "compiled the game",
                    "preparing the replays", "<replays>", "ready in", "workbench: http",
                    "<serving>"):  # fmt: skip
            if key in line and key not in at:
                at[key] = i
    order = sorted(at, key=at.get)
    assert order == ["starting the workbench", "checking", "compiling the game engine", "<compile", "compiled the game",
                     "preparing the replays", "<replays>", "ready in", "workbench: http",
                     "<serving>"], lines  # fmt: skip
    # the compile is named (only the kernel numba's cache lacks) with its estimate
    assert re.search(
        r"compiling the game engine, once, about \d+ s \(hex\)",
        lines[at["compiling the game engine"]],
    )
    # the warm-up's own progress line (warmup.Ticker) is handed to the compile
    assert "compiling hex (1/1): 0 s of about" in lines[at["<compile"]]
    # "ready" counts every second since the start, the compile's and the replays'
    ready = re.search(
        r"ready in ([\d.]+) s \(compiling 0 s, replays ([\d.]+) s\)", lines[at["ready in"]]
    )
    assert ready, lines[at["ready in"]]
    assert float(ready.group(1)) >= 0.5 and float(ready.group(2)) >= 0.2


def test_a_start_with_the_engines_compiled_says_so_and_is_ready(monkeypatch, tmp_path):
    lines = _start(monkeypatch, tmp_path, compiled={"games", "hex"})
    text = "\n".join(lines)
    assert "compiling the game engine" not in text and "<compile" not in text
    assert text.index("preparing the replays") < text.index("<replays>") < text.index("ready in")
    assert re.search(r"ready in ([\d.]+) s \(replays [\d.]+ s\)", text)
    assert text.index("ready in") < text.index("<serving>")
