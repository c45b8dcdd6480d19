"""The workbench's what-if loop: from the click on "run" to the result page, one army's edit v the 7 others.

Starts ``manoeuvre-sim ui`` as its own process on loopback (the engines compiled first, as
the server does at its start), then times, as a designer's browser would see it: the POST
of the what-if form (one edit of France: its first unit's full strength, against the
other 7 base armies, both seats, ``--games-per-pairing`` games per ordered pairing),
polling the job's state as the jobs page does (every 0.5 s), and the GET of the job's
study page once it is done. Reported: the total, the job's own seconds of play (its
manifest), the games played (base and variant) and the games per second.

    python -m benchmarks ui-whatif [--quick] [--games N] [--repeat N]

A benchmark, not a test: the figures depend on the machine and are recorded, not asserted.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from benchmarks.bench_ui import Server
from benchmarks.common import Parser, Run, progress

POLL = 0.5  # seconds, as the jobs page polls


def request(port: int, method: str, url: str, body: str | None = None) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    headers = {"Origin": f"http://127.0.0.1:{port}"}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, url, body=body, headers=headers)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def one_run(port: int, games: int, seed: int) -> dict:
    """POST the form, poll the job, GET the result page; the seconds of each."""
    form = {"game": "manoeuvre", "army": "France", "u0_full": "9",
            "games_per_pairing": str(games), "seed": str(seed)}  # fmt: skip
    t0 = time.perf_counter()
    status, headers, text = request(port, "POST", "/whatif", urlencode(form))
    if status != 303:
        raise SystemExit(f"the what-if form answered {status}: {text[:300]}")
    jid = headers["location"].split("job=")[1]
    while True:
        status, _, text = request(port, "GET", f"/jobs/{jid}.json")
        job = json.loads(text)
        if job["state"] not in ("queued", "running"):
            break
        time.sleep(POLL)
    if job["state"] != "done":
        raise SystemExit(f"the job ended {job['state']}: {job['message']}")
    status, _, _ = request(port, "GET", "/study?" + urlencode({"dir": job["dir"]}))
    total = time.perf_counter() - t0
    if status != 200:
        raise SystemExit(f"the study page answered {status}")
    return {"total": total, "job": job}


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 1000, 50, "games per ordered pairing")
    ap.size("--repeat", 3, 1, "runs (each a new seed, so nothing is read back)")
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    scratch = Path(tempfile.mkdtemp(prefix="bench-ui-whatif-"))
    rows = []
    try:
        server = Server(scratch)
        try:
            for k in range(args.repeat):
                progress(f"what-if from the page, run {k + 1}/{args.repeat}: France's first "
                         f"unit full=9 v 7 armies, {args.games} games per pairing")  # fmt: skip
                r = one_run(server.port, args.games, seed=100 + k)
                m = json.loads((scratch / r["job"]["dir"] / "manifest.json").read_text())
                rows.append(
                    f"| {k + 1} | {r['total']:.1f} | {m['seconds']:.1f} | {m['games']:,} | "
                    f"{m['paired_games']:,} | {m['games'] / m['seconds']:,.0f} |"
                )
        finally:
            server.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    lines = run.header(
        "Workbench what-if loop benchmark",
        extra=[
            f"the server: `manoeuvre-sim ui` in its own process on 127.0.0.1, the engine "
            f"compiled; 8 base armies, France's first unit's full strength set to 9; "
            f"{args.games:,} games per ordered pairing; {os.cpu_count()} cores; the "
            f"client polls the job every {POLL} s as the jobs page does"
        ],
    ) + [
        "From the POST of the what-if form to the job's study page answered (seconds); the "
        "job's own seconds of play and its games (the base study and the variant's "
        "pairings) from its manifest.",
        "",
        "| run | click to result (s) | playing (s) | games | paired games | games/s |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    run.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
