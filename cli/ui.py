"""``manoeuvre-sim ui``: the browser workbench, a local web server (docs/ui.md)."""

from __future__ import annotations

import ipaddress
import sys

import click

from manoeuvre_sim.cli._common import backend_options, pop_backend
from manoeuvre_sim.core.errors import UsageError


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _warm_replays(studies: str) -> None:
    """Replay one game of each game, so that the traced kernels the replay pages play are
    compiled (or loaded from numba's cache) before the first visitor asks: a minute the
    first time after an install, a second or two after."""
    import time

    from manoeuvre_sim.web.params import Params
    from manoeuvre_sim.web.replay_data import replayed

    t = time.perf_counter()
    click.echo("preparing the replays (compiled once: about a minute the first time)...", err=True)
    replayed("manoeuvre", Params({"army_a": "France", "army_b": "Russia"}), studies)
    replayed("hex", Params({}), studies)
    click.echo(f"ready in {time.perf_counter() - t:.1f} s", err=True)


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
    help="Do not compile the game engines before serving (the first replay then compiles).",
)
@backend_options(resume=False)  # where the jobs started from the pages play
def ui(studies: str, host: str, port: int, no_warmup: bool, **kw) -> None:
    """The browser workbench: both games' odds, every study to explore, any game replayed
    on its board, studies and what-ifs run as jobs. Serves http://HOST:PORT/ until Ctrl-C;
    a job stopped with the server is resumed at the next start."""
    backend = pop_backend(kw)
    backend.pop("resume")
    try:
        import uvicorn

        from manoeuvre_sim.web.app import create_app
    except ImportError as e:
        raise UsageError(
            f"ui: the workbench needs the 'web' extra ({e.name} is missing): "
            "pip install 'manoeuvre-sim[web]'"
        ) from None
    if not 1 <= port <= 65535:
        raise UsageError(f"--port: expected 1..65535, got {port}")
    if not _is_loopback(host):
        click.echo(
            f"warning: --host {host}: the workbench is reachable from other machines on "
            "this network; it has no login",
            err=True,
        )
    if not no_warmup:
        from manoeuvre_sim.core.warmup import compile_kernels, is_compiled

        kinds = [k for k in ("games", "hex") if not is_compiled(k)]
        if kinds:
            click.echo(f"compiling the game engines first ({', '.join(kinds)})...", err=True)
            compile_kernels(kinds)
        _warm_replays(studies)
    app = create_app(studies, backend, host=host)
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        f"manoeuvre-sim workbench: http://{shown}:{port}/  (studies: {studies}; Ctrl-C stops)"
    )
    sys.stdout.flush()
    # Ctrl-C or SIGTERM: open requests get 2 s, then the job worker its STOP_WAIT (the
    # running job stays resumable): the server is gone within about 5 s
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
