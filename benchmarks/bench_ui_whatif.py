"""The workbench's what-if loop: from the click on "run" to the result page, one army's edit v the 7 others.

Starts ``manoeuvre-sim ui`` as its own process on loopback (the engines compiled first, as
the server does at its start) over a studies folder holding a balance study of the 8 armies
(``--games-per-pairing`` games per ordered pairing, played first by this benchmark), then
times, as a designer's browser would see it: the POST of the what-if form (one edit of
France: its first unit's full strength, against the other 7 base armies, both seats, on the
study's seed), polling the job's state as the jobs page does (``jobs.pages.poll_seconds``:
every 0.5 s, faster once the games are about to end), and the GET of the job's study page
once it is done. The routes, alternated run by run in one run of the benchmark:

- **reads the base**: the form started from the study (``from``, issue 41): the base games
  are read from its store, only the variant's pairings are played;
- **reads the base, --base tree** (with ``--base DIR``, a checkout with its own .venv): the
  same on that checkout's server (its own copy of the studies folder): the figure before;
- **plays the base**: the same form started from the built-in data, as before issue 41:
  the whole base study is played again with the variant.

Reported: the total and its parts as the client saw them (the POST answered, the job's
games done, its result written, the page), the job's own seconds of play (its manifest),
the games played and read, the load when each run began, and the medians' ratios; then
where the seconds of a read-the-base what-if go, timed in this process step by step
(building the study, reading and writing the base games, the games, the tables, the files).

    python -m benchmarks ui-whatif [--quick] [--games N] [--repeat N] [--base DIR]

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
    job as the jobs page does, GET the result page; the seconds of each step."""
    from manoeuvre_sim.web.jobs.pages import POLL, poll_seconds

    form = {"game": "manoeuvre", "army": "France", "u0_full": "9",
            "games_per_pairing": str(games), "seed": str(seed)}  # fmt: skip
    if source is not None:
        form["from"] = source
    t0 = time.perf_counter()
    status, headers, text = request(port, "POST", "/whatif", urlencode(form))
    if status != 303:
        raise SystemExit(f"the what-if form answered {status}: {text[:300]}")
    t = {"post": time.perf_counter() - t0}
    jid = headers["location"].split("job=")[1]
    wait = POLL
    while True:
        time.sleep(wait)
        status, _, text = request(port, "GET", f"/jobs/{jid}.json")
        job = json.loads(text)
        now = time.perf_counter() - t0
        if job.get("total") and job["done"] >= job["total"]:
            t.setdefault("games", now)
        if job["state"] not in ("queued", "running"):
            break
        wait = poll_seconds([job])
    if job["state"] != "done":
        raise SystemExit(f"the job ended {job['state']}: {job['message']}")
    t["done"] = now
    t.setdefault("games", now)
    status, _, _ = request(port, "GET", "/study?" + urlencode({"dir": job["dir"]}))
    t["total"] = time.perf_counter() - t0
    if status != 200:
        raise SystemExit(f"the study page answered {status}")
    return t | {"job": job}


def steps(root: Path, games: int, seed: int) -> list[tuple[str, float]]:
    """Where the seconds of a what-if from the study go, in this process (the engine warm,
    as in the server): each step of the job timed by its progress calls."""
    from starlette.datastructures import QueryParams

    from manoeuvre_sim.web.jobs import kinds
    from manoeuvre_sim.web.jobs import whatif_form as WG
    from manoeuvre_sim.web.params import Params

    form = {"game": "manoeuvre", "army": "France", "u0_full": "9", "from": "base",
            "games_per_pairing": str(games), "seed": str(seed)}  # fmt: skip
    marks = [time.perf_counter()]
    kind, opts = WG.any_job(Params(QueryParams(list(form.items()))), root)
    built = kinds.build(kind, opts, root)
    marks.append(time.perf_counter())
    ticks: list[float] = []
    out = root / "jobs" / "steps"
    res = built.run(out_dir=out, progress=lambda done, total: ticks.append(time.perf_counter()))
    marks += [ticks[0], ticks[-1], time.perf_counter()]
    res.write(out, paper="a4")
    marks.append(time.perf_counter())
    names = ["the form read and the study built (every edit applied, the cost checked)",
             "the base games read from the study's store and written to the what-if's",
             f"the variant's games played ({res.manifest['base_study']['variant_played']:,})",
             "the tables (the paired changes, the rating bootstrap)",
             "the files written (CSV, manifest, summary, the PDF)"]  # fmt: skip
    return [(n, b - a) for n, a, b in zip(names, marks[:-1], marks[1:], strict=True)]


def base_study(root: Path, games: int, seed: int) -> float:
    """The balance study of the 8 built-in armies a what-if starts from (``root/base``),
    played here with the default player; its seconds."""
    from manoeuvre_sim.studies import balance as B

    spec = B.command_spec("manoeuvre", games_per_pairing=games, seed=seed)
    t = time.perf_counter()
    B.run_spec(spec, out_dir=root / "base").write(root / "base")
    return time.perf_counter() - t


READS, BEFORE, PLAYS = "reads the base", "reads the base, --base tree", "plays the base"
SEED = 100


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 1000, 50, "games per ordered pairing")
    ap.size("--repeat", 3, 1, "runs of each route, alternated")
    ap.add_argument("--base", type=Path, help="a checkout with its own .venv: its server's "
                    "what-if from the study, alternated with this tree's")  # fmt: skip
    args = ap.parse_args(argv)
    exe = None
    if args.base is not None:
        exe = args.base.resolve() / ".venv" / "bin" / "manoeuvre-sim"
        if not exe.is_file():
            ap.error(f"--base {args.base}: no .venv/bin/manoeuvre-sim there (make setup in it)")
    run = Run(args, ap.name)
    scratch = Path(tempfile.mkdtemp(prefix="bench-ui-whatif-"))
    routes = [(READS, "base", "this")] + ([(BEFORE, "base", "before")] if exe else [])
    routes.append((PLAYS, None, "this"))
    rows, totals = [], {name: [] for name, _, _ in routes}
    try:
        progress(f"the base study: 8 armies, {args.games} games per pairing ...")
        t_base = base_study(scratch / "this", args.games, SEED)
        servers = {"this": Server(scratch / "this")}
        if exe:
            shutil.copytree(scratch / "this" / "base", scratch / "before" / "base")
            servers["before"] = Server(scratch / "before", exe=exe)
        try:
            for k in range(args.repeat):
                for name, source, where in routes if k % 2 == 0 else routes[::-1]:
                    progress(f"what-if from the page, run {k + 1}/{args.repeat}, {name}: "
                             f"France's first unit full=9 v 7 armies, {args.games} games per "
                             f"pairing")  # fmt: skip
                    l0 = load()
                    r = one_run(servers[where].port, args.games, SEED, source)
                    m = json.loads((scratch / where / r["job"]["dir"] / "manifest.json")
                                   .read_text())  # fmt: skip
                    origin = m.get("base_study") or {}
                    read = origin.get("base_read", 0)
                    played = m["games"] - read
                    totals[name].append(r["total"])
                    rows.append(
                        f"| {k + 1} | {name} | **{r['total']:.1f}** | {r['post']:.2f} | "
                        f"{r['games']:.1f} | {r['done'] - r['games']:.1f} | "
                        f"{r['total'] - r['done']:.2f} | {m['seconds']:.1f} | {played:,} | "
                        f"{read:,} | {l0:.1f} |"
                    )
        finally:
            for server in servers.values():
                server.stop()
        progress("where the seconds of a what-if from the study go, in this process ...")
        l_steps = load()
        parts = steps(scratch / "this", args.games, SEED)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in totals.items()}
    said = [f"Median click to result: **{med[READS]:.1f} s** reading the base"]
    if BEFORE in med:
        said.append(f"{med[BEFORE]:.1f} s on the --base tree ({args.base.name}) reading it "
                    f"({med[READS] / med[BEFORE]:.2f} of its time)")  # fmt: skip
    said.append(f"{med[PLAYS]:.1f} s playing it (the way before issue 41; reading is "
                f"{med[PLAYS] / med[READS]:.1f}x faster)")  # fmt: skip
    lines = run.header(
        "Workbench what-if loop benchmark",
        extra=[
            f"the server: `manoeuvre-sim ui` in its own process on 127.0.0.1, the engine "
            f"compiled; its studies folder holds the balance study of the 8 built-in armies "
            f"({args.games:,} games per ordered pairing, seed {SEED}, the default player; "
            f"played by this benchmark in {t_base:.0f} s); the edit: France's first unit's "
            f"full strength set to 9; {os.cpu_count()} cores; the client polls the job as "
            f"the jobs page does (every 0.5 s, every 0.15 s once its games are about to end)",
            *(
                [f"--base: {args.base} (its own server over a copy of the studies folder)"]
                if exe
                else []
            ),
            "**the figures are under load** (the machine is shared with other work: the load "
            "column): compare the routes within this file",
        ],
    ) + [
        "From the POST of the what-if form to the job's study page answered (seconds), and "
        "its parts as the client saw them: the POST answered (the form checked, the job "
        "queued), the job's games all done, then its tables and files written (the job "
        "done), then the study page answered; the job's own seconds of play, the games it "
        "played (base and variant) and read (the base, from the study) from its manifest; "
        "the 1-minute load average when the run began. The routes alternate run by run.",
        "",
        "| run | route | click to result (s) | POST (s) | to games done (s) | tables and "
        "files (s) | page (s) | playing (s) | games played | games read | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "; ".join(said) + ".",
        "",
        f"## Where the seconds go (reads the base, in this process, load {l_steps:.1f})",
        "",
        "| step | seconds |",
        "|---|---|",
        *(f"| {n} | {sec:.2f} |" for n, sec in parts),
        f"| all | {sum(sec for _, sec in parts):.2f} |",
        "",
        "Not in these steps: the POST and the page (the table's columns), the client's "
        "polling (at most 0.15 s once the games end) and, in a server's first job only, "
        "loading what a job's end needs (the worker loads it before its first job: "
        "`jobs.manager.warm_up`).",
    ]
    run.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
