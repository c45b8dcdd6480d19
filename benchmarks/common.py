"""What the benchmarks share: where the repository is, the machine and its load, the
command line every benchmark takes (``--quick``, ``--out``, sizes with a full and a quick
default), the header every results file opens with, and writing that file (never on a
quick run unless ``--out`` names a file).

A results file (``benchmarks/RESULTS-*.md``) is written whole by one run of one command,
named on its first line; its first lines give the rules versions of both games, the data
hash where a study has one, the machine, its load and the date. Compare its figures within
the file: the 2 cores are shared with other work.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH_DIR = ROOT / "benchmarks"
PREFIX = "bench_"  # a module bench_x_y is the benchmark x-y


def bench_name(module: str) -> str:
    """``bench_hex_odds`` (or ``benchmarks.bench_hex_odds``, or its file's path) ->
    ``hex-odds``."""
    stem = Path(module).stem if module.endswith(".py") else module.rsplit(".", 1)[-1]
    return stem.removeprefix(PREFIX).replace("_", "-")


def results_path(name: str) -> Path:
    """The results file a benchmark writes by default: ``benchmarks/RESULTS-NAME.md``."""
    return BENCH_DIR / f"RESULTS-{name}.md"


def load() -> float:
    """The 1-minute load average (nan where the system has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return float("nan")


def cpu_name() -> str:
    """The processor's model name (``/proc/cpuinfo``), else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """``Intel(R) Xeon(R) Processor, x86_64, 2 logical CPUs``."""
    return f"{cpu_name()}, {platform.machine()}, {os.cpu_count()} logical CPUs"


def versions(*extra: str) -> str:
    """``manoeuvre-sim 0.1.0, numba 0.68.1, numpy 2.4.6, Python 3.11.7`` and the version of
    each module named in ``extra`` (``"pandas"``, ``"icepool"``, ...)."""
    import importlib

    import numba
    import numpy

    from manoeuvre_sim import __version__

    out = [
        f"manoeuvre-sim {__version__}",
        f"numba {numba.__version__}",
        f"numpy {numpy.__version__}",
    ]
    for name in extra:
        mod = importlib.import_module(name)
        out.append(f"{name} {getattr(mod, '__version__', '?')}")
    return ", ".join(out) + f", Python {platform.python_version()}"


CODE = ("manoeuvre_sim", "cli", "analyses", "data", "benchmarks/*.py", "pyproject.toml")


def git_commit(tree: Path = ROOT) -> str:
    """The short commit of ``tree``, ``+ uncommitted changes`` when its code (not its docs or
    results files) differs from the commit."""
    try:
        rev = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain",
                                "--untracked-files=no", "--", *CODE], capture_output=True,
                               text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" + uncommitted changes" if dirty else "")


def rules_versions() -> str:
    from manoeuvre_sim.hexgame import RULES_VERSION as HEX
    from manoeuvre_sim.manoeuvre import RULES_VERSION as MAN

    return f"Manoeuvre `{MAN}`, Maneuver `{HEX}`"


# ---- the command line ----------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """A benchmark's command line: ``--quick`` and ``--out`` for every benchmark, and sizes
    with a full and a quick default (:meth:`size`), filled in by :meth:`parse_args`."""

    def __init__(self, module: str, doc: str | None, *, out: bool = True) -> None:
        self.name = bench_name(module)
        lines = (doc or "").strip().splitlines()
        super().__init__(
            prog=f"python -m benchmarks {self.name}",
            description=lines[0] if lines else None,
            epilog="\n".join(lines[1:]).strip() or None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        self._sizes: dict[str, tuple[object, object]] = {}
        self.add_argument(
            "--quick",
            action="store_true",
            help="a minute-sized run: the same code path with small counts; writes no "
            "results file unless --out names one",
        )
        if out:
            self.add_argument(
                "--out",
                type=Path,
                default=None,
                help=f"the results file (default {results_path(self.name).relative_to(ROOT)}; "
                "a --quick run writes none unless given)",
            )

    def size(self, flag: str, full, quick, help: str, type=int) -> None:  # noqa: A002
        """An option whose default is ``full``, or ``quick`` under ``--quick``."""
        dest = flag.lstrip("-").replace("-", "_")
        self._sizes[dest] = (full, quick)

        def show(v) -> str:
            return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v) or "''"

        self.add_argument(flag, type=type, default=None,
                          help=f"{help} (default {show(full)}; --quick {show(quick)})")  # fmt: skip

    def parse_args(self, args: Sequence[str] | None = None, namespace=None):  # type: ignore[override]
        ns = super().parse_args(args, namespace)
        for dest, (full, quick) in self._sizes.items():
            if getattr(ns, dest) is None:
                setattr(ns, dest, quick if ns.quick else full)
        ns.argv = list(sys.argv[1:] if args is None else args)
        return ns


# ---- one run and its results file ----------------------------------------------------------


class Run:
    """One run of a benchmark: its command, the load and the time it started, and the
    header and writing of its results file."""

    def __init__(self, args: argparse.Namespace, name: str) -> None:
        self.name = name
        self.quick = bool(getattr(args, "quick", False))
        self.argv = list(getattr(args, "argv", []))
        self.out: Path | None = getattr(args, "out", None)
        self.load0 = load()
        self.started = datetime.datetime.now(datetime.UTC)

    @property
    def command(self) -> str:
        """The command as typed, an absolute path written relative to the checkout
        (``../run``: a results file names no machine's folders)."""
        argv = [os.path.relpath(a, ROOT) if os.path.isabs(a) else a for a in self.argv]
        return shlex.join(["python", "-m", "benchmarks", self.name, *argv])

    def header(self, title: str, *, data_hash: str | None = None,
               extra: Iterable[str] = (), modules: Iterable[str] = ()) -> list[str]:  # fmt: skip
        """The first lines of the results file: the command, the rules versions, the data
        hash (where the study has one), the machine, the load at the start and now, the
        date; ``extra`` bullet lines after them."""
        l1 = load()
        lines = [
            f"# {title}",
            "",
            f"- written by `{self.command}` on {self.started:%Y-%m-%d %H:%M} UTC at commit "
            f"{git_commit()}" + (" (a --quick run: small counts)" if self.quick else ""),
            f"- rules: {rules_versions()}",
        ]
        if data_hash:
            lines.append(f"- data hash: `{data_hash}`")
        lines += [
            f"- machine: {machine()}; {versions(*modules)}",
            f"- load: 1-minute load average {self.load0:.2f} at the start, {l1:.2f} at the end "
            "(the cores are shared with other work: compare figures within this file)",
            *(f"- {x}" for x in extra),
            "",
        ]
        return lines

    def write(self, lines: Sequence[str], path: Path | None = None) -> Path | None:
        """Write the results file whole (atomically): ``--out``, else ``path``, else the
        benchmark's RESULTS file; a ``--quick`` run without ``--out`` prints it instead."""
        from manoeuvre_sim.core.fileio import atomic_write

        text = "\n".join(lines).rstrip("\n") + "\n"
        default = path or results_path(self.name)
        target = self.out or (None if self.quick else default)
        if target is None:
            print(text)
            print(f"(--quick: {default.name} not written)", file=sys.stderr)
            return None
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(target, encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {target}", file=sys.stderr)
        return target


def best_of(fn, repeat: int) -> float:
    """The shortest of ``repeat`` timings of ``fn()`` in seconds (the run least slowed by
    other work on the machine)."""
    import time

    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
