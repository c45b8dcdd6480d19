"""The browser workbench's latency: an odds answer, the default study's matrix page and a replay step, at the 95th percentile with 20 concurrent clients.

Starts ``manoeuvre-sim ui`` as its own process on loopback (as a user runs it), over a
folder holding the default balance study (``make run``'s ``reports/balance`` when it is
there, else one played into a scratch folder), waits until it answers, warms each page
once, then for each of the three requests runs a bounded load: ``--clients`` threads,
each sending ``--requests`` requests one after the other on its own connection (HTTP/1.1
keep-alive, as a browser does), and reports the latency percentiles and the answers per
second. The goals (issue 32): p95 under 100 ms (odds), 500 ms (matrix page) and 100 ms
(replay step) with 20 clients.

    python -m benchmarks ui [--quick] [--clients N] [--requests N] [--studies DIR]

A benchmark, not a test: the figures depend on the machine and are recorded, not asserted.
The load generator shares the machine's 2 cores with the server.
"""

from __future__ import annotations

import http.client
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.common import ROOT, Parser, Run, progress

# an assault as a player asks it: 8 + 2d8 with a 6:2d6 support against defense 10
ODDS_URL = "/odds/manoeuvre/assault?strength=8&dice=2d8&support=6:2d6&defense=10"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def default_study(studies: Path | None, quick: bool, scratch: Path) -> Path:
    """The folder of studies the server is started over: ``studies`` when it holds a
    balance study, else ``reports/`` when ``make run`` wrote one, else one played now."""
    for root in [studies] if studies else [ROOT / "reports"]:
        if root and (root / "balance" / "manifest.json").is_file():
            return root
    if studies:
        raise SystemExit(f"--studies {studies}: no balance/manifest.json under it")
    games = 50 if quick else 1000
    progress(f"no default study in reports/balance: playing one ({games} games per pairing)")
    exe = Path(sys.executable).with_name("manoeuvre-sim")
    subprocess.run([str(exe), "balance", "--games-per-pairing", str(games), "--quiet",
                    "--out", str(scratch / "balance")], check=True)  # fmt: skip
    return scratch


class Server:
    """``manoeuvre-sim ui`` in its own process on a free loopback port."""

    def __init__(self, studies: Path) -> None:
        self.port = free_port()
        exe = Path(sys.executable).with_name("manoeuvre-sim")
        self.proc = subprocess.Popen(
            [str(exe), "ui", "--studies", str(studies), "--port", str(self.port)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 600  # a cold numba cache compiles first
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the workbench exited: {self.proc.stdout.read()}")
            try:
                status, _ = get(self.port, "/")
                if status == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("the workbench did not answer within 10 minutes")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def get(port: int, url: str, conn: http.client.HTTPConnection | None = None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", url)
        r = conn.getresponse()
        body = r.read()
        return r.status, body
    finally:
        if own:
            conn.close()


def load(port: int, urls: list[str], clients: int, requests: int) -> dict:
    """Latencies (s) of ``clients`` threads each sending ``requests`` GETs, cycling
    through ``urls`` (a thread starts at its own offset), over keep-alive connections."""
    lat: list[float] = []
    bad: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine = []
        start.wait()
        for i in range(requests):
            url = urls[(k + i) % len(urls)]
            t = time.perf_counter()
            status, _ = get(port, url, conn)
            mine.append(time.perf_counter() - t)
            if status != 200:
                bad.append(f"{status} {url}")
        conn.close()
        with lock:
            lat.extend(mine)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if bad:
        raise SystemExit(f"{len(bad)} requests failed, e.g. {bad[0]}")
    lat.sort()
    q = statistics.quantiles(lat, n=100, method="inclusive")
    return {"n": len(lat), "p50": q[49], "p95": q[94], "max": lat[-1], "rate": len(lat) / wall}


def replay_steps(port: int, studies: Path) -> list[str]:
    """The step requests of one game of the default study, as the replay page sends them
    when the user presses the arrow key (the page's own step URLs: ``web.replay``)."""
    from manoeuvre_sim.web.replay import step_urls

    status, body = get(port, "/replay/manoeuvre?study=balance&pairing=1&game=0")
    if status != 200:
        raise SystemExit(f"the replay page answered {status}: {body[:300]!r}")
    return step_urls(body.decode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--clients", 20, 20, "concurrent clients")
    ap.size("--requests", 50, 10, "requests per client and page")
    ap.add_argument("--studies", type=Path, default=None,
                    help="a folder holding the default study as balance/ (default: reports/, "
                    "else one is played)")  # fmt: skip
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    scratch = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    try:
        studies = default_study(args.studies, args.quick, scratch)
        server = Server(studies)
        try:
            pages = {
                "odds answer (assault)": [ODDS_URL],
                "balance matrix page (default study)": ["/study?dir=balance"],
                "replay step": replay_steps(server.port, studies),
            }
            goals = dict(zip(pages, (0.100, 0.500, 0.100), strict=True))
            rows = []
            for name, urls in pages.items():
                for u in urls[:3]:
                    get(server.port, u)  # warm: caches, first compile of a path
                progress(f"{name}: {args.clients} clients x {args.requests} requests")
                r = load(server.port, urls, args.clients, args.requests)
                ok = "yes" if r["p95"] < goals[name] else "no"
                rows.append(
                    f"| {name} | {r['n']:,} | {1e3 * r['p50']:.1f} | {1e3 * r['p95']:.1f} | "
                    f"{1e3 * r['max']:.1f} | {r['rate']:,.0f} | {1e3 * goals[name]:.0f} | {ok} |"
                )
        finally:
            server.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    manifest = (studies / "balance" / "manifest.json").read_text(encoding="utf-8")
    import json

    m = json.loads(manifest)
    lines = run.header(
        "Workbench latency benchmark",
        data_hash=m.get("data_hash"),
        extra=[f"the server: `manoeuvre-sim ui` in its own process on 127.0.0.1; the default "
               f"study: {m.get('games', '?')} games, seed {m.get('seed')}; "
               f"{args.clients} concurrent clients on keep-alive connections, "
               f"{os.cpu_count()} cores shared by the server and the clients"],
    ) + [
        "| request | answers | p50 ms | p95 ms | max ms | answers/s | goal p95 ms | met |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
        *rows,
    ]  # fmt: skip
    run.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
