"""List the benchmarks, run one, or run them all.

    python -m benchmarks                        # every benchmark, a line each, and the tools
    python -m benchmarks NAME [--quick] [...]   # one benchmark (NAME --help: its options)
    python -m benchmarks all [--quick] [--skip NAME,...]   # every benchmark of both games
    python -m benchmarks.TOOL [...]             # a tool (check_study_identity, ...)

``all --quick`` (``make bench``) runs each benchmark's quick form in this process, one
after the other, writes no results file, and ends with each one's seconds; it exits 1 if
any failed. ``all`` without ``--quick`` runs the full forms (hours: ``make bench-full``) and
rewrites their results files; a benchmark whose full form needs inputs (a baseline commit,
studies played apart) is skipped there, and says which.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
import time
import traceback

import benchmarks as B


def listing() -> str:
    entries = B.benchmarks()
    width = max(len(e.name) for e in entries) + 2
    out = ["Benchmarks (python -m benchmarks NAME [--quick]; NAME --help for its options):"]
    for game in ("Manoeuvre", "Maneuver"):
        out += ["", f"{game}:"]
        for e in (e for e in entries if e.game == game):
            needs = f" [full form needs {e.needs}]" if e.needs else ""
            out.append(f"  {e.name:<{width}}{e.summary}{needs}")
    tools = B.tools()
    if tools:
        out += ["", "Tools (python -m benchmarks.TOOL --help):"]
        width = max(len(t.name) for t in tools) + 2
        out += [f"  {t.name:<{width}}{t.summary}" for t in tools]
    out += ["", "python -m benchmarks all --quick: every benchmark in its quick form (make bench)."]
    return "\n".join(out)


def run_one(entry: B.Entry, argv: list[str]) -> int:
    """Run a benchmark in this process; its exit status (0, or what it returned or
    raised with SystemExit)."""
    mod = importlib.import_module(f"benchmarks.{entry.module}")
    try:
        code = mod.main(argv)
    except SystemExit as e:
        code = e.code
    if code is None or code == 0:
        return 0
    if not isinstance(code, int):
        print(code, file=sys.stderr)
        return 1
    return code


def run_all(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks all")
    ap.add_argument("--quick", action="store_true", help="each benchmark's quick form")
    ap.add_argument("--skip", default="", help="benchmarks not to run, comma-separated")
    args = ap.parse_args(argv)
    skip = {x.strip() for x in args.skip.split(",") if x.strip()}
    rows = []
    t_all = time.perf_counter()
    for e in B.benchmarks():
        if e.name in skip:
            rows.append((e.name, None, "skipped (--skip)"))
            continue
        if e.needs and not args.quick:
            rows.append((e.name, None, f"skipped: needs {e.needs}"))
            continue
        print(f"\n===== {e.name}{' --quick' if args.quick else ''} =====", file=sys.stderr,
              flush=True)  # fmt: skip
        t = time.perf_counter()
        try:
            code = run_one(e, ["--quick"] if args.quick else [])
        except Exception:  # noqa: BLE001 - report it and go on with the others
            traceback.print_exc()
            code = 1
        secs = time.perf_counter() - t
        rows.append((e.name, secs, "ok" if code == 0 else f"FAILED (exit {code})"))
    total = time.perf_counter() - t_all
    print("\n| benchmark | seconds | |\n|---|---:|---|", file=sys.stderr)
    for name, secs, status in rows:
        print(f"| {name} | {'' if secs is None else f'{secs:.0f}'} | {status} |", file=sys.stderr)
    print(f"| all | {total:.0f} | |", file=sys.stderr)
    return 1 if any(s.startswith("FAILED") for *_, s in rows) else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "list"):
        print(listing())
        return 0
    name, rest = argv[0], argv[1:]
    if name == "all":
        return run_all(rest)
    entry = B.find(name)
    if entry is None:
        names = [e.name for e in B.benchmarks()]
        near = difflib.get_close_matches(name, names, n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        print(f"python -m benchmarks: no benchmark {name!r}{hint} (the list: python -m "
              "benchmarks)", file=sys.stderr)  # fmt: skip
        return 2
    return run_one(entry, rest)


if __name__ == "__main__":
    sys.exit(main())
