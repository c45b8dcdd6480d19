"""``manoeuvre-sim ui``: the browser workbench, a local web server (docs/ui.md)."""

from __future__ import annotations

import ipaddress
import sys
import time

import click

from manoeuvre_sim.cli.common import backend_options, pop_backend
from manoeuvre_sim.core.errors import UsageError


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


REPLAY_SECONDS = 30  # about how long a game's replay's traced engine compiles cold


def _warm_replays(studies: str) -> None:
    """Replay one game of each game that names one (its ``REPLAY_WARMUP``), so that the
    traced kernels the replay pages play are compiled (or loaded from numba's cache) before
    the first visitor asks: a minute the first time after an install, a second or two
    after."""
    from manoeuvre_sim.web.params import Params
    from manoeuvre_sim.web.replay.data import replayed, warm_ups

    for key, params in warm_ups().items():
        replayed(key, Params(params), studies)


def prepare(studies: str, warm=None, t0: float | None = None) -> str:
    """Everything the workbench compiles before it serves, each step said before it starts
    and its progress shown as ``make setup``'s warm-up shows it (:class:`warmup.Ticker`):
    the game engines' batch kernels numba's cache lacks, then the replays' traced kernels.
    Returns the "ready" line: the seconds since ``t0`` (the command's start), and what
    took them."""
    from manoeuvre_sim.core import warmup as W
    from manoeuvre_sim.web.replay.data import warm_ups

    t0 = time.perf_counter() if t0 is None else t0
    say = lambda text: click.echo(text, err=True)  # noqa: E731
    say("checking which game engines numba's cache holds...")
    kinds = [k for k in W.first_kinds() if not W.is_compiled(k)]
    steps = []
    if kinds:
        say(f"{W.compiling_message(kinds)} ({', '.join(kinds)}){W.load_note()} ...")
        with W.Ticker(kinds) as ticker:
            secs = W.compile_kernels(kinds, ticker)
        say(f"compiled the game engines ({', '.join(kinds)}) in {secs:.0f} s, "
            f"{ticker.functions} functions (kept in numba's cache)")  # fmt: skip
        steps.append(f"compiling {secs:.0f} s")
    secs = REPLAY_SECONDS * len(warm_ups())
    say(f"preparing the replays: one game of each game played with its events traced "
        f"(compiled once: about {secs} s the first time){W.load_note()} ...")  # fmt: skip
    t = time.perf_counter()
    with W.Ticker(["replays"], estimate=secs):
        (warm or _warm_replays)(studies)
    steps.append(f"replays {time.perf_counter() - t:.1f} s")
    return f"ready in {time.perf_counter() - t0:.1f} s ({', '.join(steps)})"


@click.command()
@click.option(
    "--studies",
    default="reports",
    show_default=True,
    metavar="DIR",
    help="The folder of study directories the pages list; nothing outside it is served.",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on. Anything but loopback lets other machines reach the "
    "workbench (a warning says so).",
)
@click.option("--port", type=int, default=8765, show_default=True, help="The port (1-65535).")
@click.option(
    "--no-warmup",
    is_flag=True,
    help="Do not compile the game engines before serving (the first replay then compiles), "
    "nor load what a job's end needs (the first job's result then waits a second more).",
)
@backend_options(resume=False)  # where the jobs started from the pages play
def ui(studies: str, host: str, port: int, no_warmup: bool, **kw) -> None:
    """The browser workbench: both games' odds, every study to explore, any game replayed
    on its board, studies and what-ifs run as jobs. Serves http://HOST:PORT/ until Ctrl-C;
    a job stopped with the server is resumed at the next start."""
    t0 = time.perf_counter()
    if not 1 <= port <= 65535:  # a bad option is one line, before anything else is said
        raise UsageError(f"--port: expected 1..65535, got {port}")
    backend = pop_backend(kw)
    backend.pop("resume")
    click.echo("starting the workbench (its modules load first: seconds on a busy machine)...",
               err=True)  # fmt: skip
    try:
        import uvicorn

        from manoeuvre_sim.web.app import create_app
    except ImportError as e:
        raise UsageError(
            f"ui: the workbench needs the 'web' extra ({e.name} is missing): "
            "pip install 'manoeuvre-sim[web]'"
        ) from None
    if not _is_loopback(host):
        click.echo(
            f"warning: --host {host}: the workbench is reachable from other machines on "
            "this network; it has no login",
            err=True,
        )
    ready = None if no_warmup else prepare(studies, t0=t0)
    app = create_app(studies, backend, host=host, warm_jobs=not no_warmup)
    if ready:
        click.echo(ready, err=True)
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        f"manoeuvre-sim workbench: http://{shown}:{port}/  (studies: {studies}; Ctrl-C stops)"
    )
    sys.stdout.flush()
    # Ctrl-C or SIGTERM: open requests get 2 s, then the job worker its STOP_WAIT (the
    # running job stays resumable): the server is gone within about 5 s
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
