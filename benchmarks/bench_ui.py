"""The workbench's latency (manoeuvre-sim ui): odds answer, matrix page, replay step, 20 clients.

The 95th percentile of each answer's latency with 20 concurrent clients on loopback.

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
import json
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

# an assault as a player types it: strength 0..12 with 2d8 and a 6:2d6 support against
# defense 3..16 (each keystroke a new question, as the form sends them)
ODDS_URLS = [
    f"/odds/manoeuvre/assault?strength={s}&dice=2d8&support=6%3A2d6&defense={d}"
    for s in range(13)
    for d in (3, 6, 10, 16)
]
# a client's pause between an answer and its next request: a user, not a flood. The odds
# form sends at most one request per 250 ms of typing (its htmx delay); a page is opened
# about once a second; a held arrow key steps about ten times a second.
THINK = (0.25, 1.0, 0.1)


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

    def __init__(self, studies: Path, exe: Path | None = None) -> None:
        self.port = free_port()
        exe = exe or Path(sys.executable).with_name("manoeuvre-sim")  # another checkout's
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


# what htmx sends when the odds form redraws its result as the user types
HTMX = {"HX-Request": "true", "HX-Target": "odds-result"}


def get(port: int, url: str, conn: http.client.HTTPConnection | None = None, headers=None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", url, headers=headers or {})
        r = conn.getresponse()
        body = r.read()
        return r.status, body
    finally:
        if own:
            conn.close()


def load(port: int, urls: list[str], clients: int, requests: int, headers=None,
         think: float = 0.0) -> dict:  # fmt: skip
    """Latencies (s) of ``clients`` threads each sending ``requests`` GETs, cycling
    through ``urls`` (a thread starts at its own offset), over keep-alive connections;
    each client waits ``think`` seconds after an answer (and starts at a random offset
    within it, so the clients do not move in step)."""
    import random

    offsets = random.Random(2026).sample(range(1000), clients)
    lat: list[float] = []
    bad: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine = []
        start.wait()
        time.sleep(think * offsets[k] / 1000)
        for i in range(requests):
            url = urls[(k + i) % len(urls)]
            t = time.perf_counter()
            status, _ = get(port, url, conn, headers)
            mine.append(time.perf_counter() - t)
            if status != 200:
                bad.append(f"{status} {url}")
            if think:
                time.sleep(think)
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


def replay_steps(port: int, steps: int = 60) -> list[str]:
    """The board requests the replay page sends as the user presses the arrow key through
    the first ``steps`` events of one game of the default study (its ``replay-data``: the
    board's address, to which the page adds ``&step=N``)."""
    import json
    import re

    status, body = get(port, "/replay/manoeuvre?study=balance&pairing=1&game=0")
    if status != 200:
        raise SystemExit(f"the replay page answered {status}: {body[:300]!r}")
    m = re.search(rb'<script type="application/json" id="replay-data">(.*?)</script>', body, re.S)
    data = json.loads(m.group(1))
    return [f"{data['board']}&step={i}" for i in range(min(steps, data["n"]))]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--clients", 20, 20, "concurrent clients")
    ap.size("--requests", 50, 10, "requests per client, page and load")
    ap.add_argument("--studies", type=Path, default=None,
                    help="a folder holding the default study as balance/ (default: reports/, "
                    "else one is played)")  # fmt: skip
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    scratch = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    try:
        studies = default_study(args.studies, args.quick, scratch)
        m = json.loads((studies / "balance" / "manifest.json").read_text(encoding="utf-8"))
        server = Server(studies)
        try:
            pages = {
                "odds answer (assault, the form's htmx redraw)": ODDS_URLS,
                "balance matrix page (default study)": ["/study?dir=balance"],
                "replay step (a board, as the page asks for it)": replay_steps(server.port),
            }
            goals = (0.100, 0.500, 0.100)
            rows = []
            for (name, urls), goal, think in zip(pages.items(), goals, THINK, strict=True):
                for u in urls[:3]:
                    get(server.port, u)  # warm: the first answer compiles or reads the study
                headers = HTMX if name.startswith("odds") else None
                for pause in (think, 0.0):
                    progress(f"{name}: {args.clients} clients x {args.requests} requests, "
                             f"{1e3 * pause:.0f} ms between")  # fmt: skip
                    r = load(server.port, urls, args.clients, args.requests, headers, pause)
                    met = ("yes" if r["p95"] < goal else "no") if pause else "-"
                    rows.append(
                        f"| {name} | {1e3 * pause:.0f} | {r['n']:,} | {1e3 * r['p50']:.1f} | "
                        f"{1e3 * r['p95']:.1f} | {1e3 * r['max']:.1f} | {r['rate']:,.0f} | "
                        f"{1e3 * goal:.0f} | {met} |"
                    )
        finally:
            server.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    lines = run.header(
        "Workbench latency benchmark",
        data_hash=m.get("data_hash"),
        extra=[f"the server: `manoeuvre-sim ui` in its own process on 127.0.0.1; the default "
               f"study: {m.get('games', '?')} games, seed {m.get('seed')}; "
               f"{args.clients} concurrent clients on keep-alive connections, "
               f"{os.cpu_count()} cores shared by the server and the clients"],
    ) + [
        "Each request twice: as users send it (a client waits the pause after each answer: "
        "the odds form's 250 ms typing delay, a page opened each second, a held arrow key's "
        "ten steps a second), which the goal is about, and as a flood (no pause: every "
        "client sends again at once, the server never idle).",
        "",
        "| request | pause ms | answers | p50 ms | p95 ms | max ms | answers/s | goal p95 ms "
        "| met |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        *rows,
    ]  # fmt: skip
    run.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
