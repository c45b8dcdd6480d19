"""A workbench server on loopback for the browser tests and the latency benchmark: uvicorn
in a thread on a free port, stopped on exit."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

from benchmarks.bench_ui import free_port  # the benchmark's: a port loopback has free


@contextlib.contextmanager
def serve(studies: Path, port: int | None = None):
    """Yield the base URL (``http://127.0.0.1:PORT``) of a workbench over ``studies``."""
    import uvicorn

    from manoeuvre_sim.web.app import create_app

    port = port or free_port()
    config = uvicorn.Config(
        create_app(studies), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the workbench did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


LOCAL = "http://127.0.0.1:8765"  # the workbench answers loopback's names only (safety.py)


def local_client(app, **kw):
    """Starlette's TestClient of ``app``, sending ``Host: 127.0.0.1:8765`` as a browser on
    loopback does (its own ``testserver`` is a foreign Host, refused)."""
    from starlette.testclient import TestClient

    return TestClient(app, base_url=LOCAL, **kw)


def ui_process(root: Path, port: int):
    """``manoeuvre-sim ui`` over ``root`` as a child process on ``port`` (no warm-up),
    returned once it answers; its output dropped."""
    import subprocess
    import sys
    import urllib.request

    exe = Path(sys.executable).with_name("manoeuvre-sim")
    proc = subprocess.Popen([str(exe), "ui", "--studies", str(root), "--port", str(port),
                             "--no-warmup"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/jobs", timeout=2)
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the workbench did not start")


@contextlib.contextmanager
def ui_running(root: Path):
    """Yield the base URL of ``manoeuvre-sim ui`` over ``root``, run as a child process on a
    free port (:func:`ui_process`: a game registered by the environment is the child's
    too), stopped on exit."""
    port = free_port()
    proc = ui_process(root, port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def wait(get, until, timeout: float = 90.0):
    """``get()`` polled until ``until`` of it holds (a job's state, read from its page or its
    manager), returned; an AssertionError with the last one after ``timeout`` seconds."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        job = get()
        if until(job):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job not there in {timeout} s: {job}")


def finished(job: dict) -> bool:
    """Whether a job (its ``/jobs/<id>.json``) has ended: neither queued nor running."""
    return job["state"] not in ("queued", "running")


def job_done(client, jid: str, timeout: float = 120.0) -> dict:
    """The job ``jid`` of the workbench ``client`` once it has ended."""
    return wait(lambda: client.get(f"/jobs/{jid}.json").json(), finished, timeout)
