"""The workbench's what-if loop: from the click on "run" to the result page, one army's edit v the 7 others.

Starts ``manoeuvre-sim ui`` as its own process on loopback (the engines compiled first, as
the server does at its start) over a studies folder holding a balance study of the 8 armies
(``--games-per-pairing`` games per ordered pairing, played first by this benchmark), then
times, as a designer's browser would see it: the POST of the what-if form (one edit of
France: its first unit's full strength, against the other 7 base armies, both seats, on the
study's seed), polling the job's state as the jobs page does (every 0.5 s), and the GET of
the job's study page once it is done. Two routes, alternated run by run in one process:

- **reads the base**: the form started from the study (``from``, issue 41): the base games
  are read from its store, only the variant's pairings are played;
- **plays the base**: the same form started from the built-in data, as before issue 41:
  the whole base study is played again with the variant.

Reported: the total, the job's own seconds of play (its manifest), the games played and
read, the load when each run began, and the ratio of the two routes' medians.

    python -m benchmarks ui-whatif [--quick] [--games N] [--repeat N]

A benchmark, not a test: the figures depend on the machine and are recorded, not asserted.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from benchmarks.bench_ui import Server
from benchmarks.common import Parser, Run, load, progress

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


def one_run(port: int, games: int, seed: int, source: str | None) -> dict:
    """POST the form (started from the study ``source``, or from the built-in data), poll the
    job, GET the result page; the seconds of each."""
    form = {"game": "manoeuvre", "army": "France", "u0_full": "9",
            "games_per_pairing": str(games), "seed": str(seed)}  # fmt: skip
    if source is not None:
        form["from"] = source
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


def base_study(root: Path, games: int, seed: int) -> float:
    """The balance study of the 8 built-in armies a what-if starts from (``root/base``),
    played here with the default player; its seconds."""
    from manoeuvre_sim.studies import balance as B

    spec = B.command_spec("manoeuvre", games_per_pairing=games, seed=seed)
    t = time.perf_counter()
    B.run_spec(spec, out_dir=root / "base").write(root / "base")
    return time.perf_counter() - t


ROUTES = (("reads the base", "base"), ("plays the base", None))
SEED = 100


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 1000, 50, "games per ordered pairing")
    ap.size("--repeat", 3, 1, "runs of each route, alternated")
    args = ap.parse_args(argv)
    run = Run(args, ap.name)
    scratch = Path(tempfile.mkdtemp(prefix="bench-ui-whatif-"))
    rows, totals = [], {name: [] for name, _ in ROUTES}
    try:
        progress(f"the base study: 8 armies, {args.games} games per pairing ...")
        t_base = base_study(scratch, args.games, SEED)
        server = Server(scratch)
        try:
            for k in range(args.repeat):
                for name, source in ROUTES if k % 2 == 0 else ROUTES[::-1]:
                    progress(f"what-if from the page, run {k + 1}/{args.repeat}, {name}: "
                             f"France's first unit full=9 v 7 armies, {args.games} games per "
                             f"pairing")  # fmt: skip
                    l0 = load()
                    r = one_run(server.port, args.games, SEED, source)
                    m = json.loads((scratch / r["job"]["dir"] / "manifest.json").read_text())
                    origin = m.get("base_study") or {}
                    read = origin.get("base_read", 0)
                    played = m["games"] - read
                    totals[name].append(r["total"])
                    rows.append(
                        f"| {k + 1} | {name} | {r['total']:.1f} | {m['seconds']:.1f} | "
                        f"{played:,} | {read:,} | {m['paired_games']:,} | {l0:.1f} |"
                    )
        finally:
            server.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in totals.items()}
    (after, _), (before, _) = ROUTES
    lines = run.header(
        "Workbench what-if loop benchmark",
        extra=[
            f"the server: `manoeuvre-sim ui` in its own process on 127.0.0.1, the engine "
            f"compiled; its studies folder holds the balance study of the 8 built-in armies "
            f"({args.games:,} games per ordered pairing, seed {SEED}, the default player; "
            f"played by this benchmark in {t_base:.0f} s); the edit: France's first unit's "
            f"full strength set to 9; {os.cpu_count()} cores; the client polls the job every "
            f"{POLL} s as the jobs page does",
            "**the figures are under load** (the machine is shared with other work: the load "
            "column): compare the two routes within this file",
        ],
    ) + [
        "From the POST of the what-if form to the job's study page answered (seconds); the "
        "job's own seconds of play, the games it played (base and variant) and read (the "
        "base, from the study) from its manifest; the 1-minute load average when the run "
        "began. The routes alternate run by run.",
        "",
        "| run | route | click to result (s) | playing (s) | games played | games read | "
        "paired games | load |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"Median click to result: {med[after]:.1f} s reading the base, {med[before]:.1f} s "
        f"playing it (the way before issue 41): {med[after] / med[before]:.2f} of the time, "
        f"{med[before] / med[after]:.1f}x faster.",
    ]
    run.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
