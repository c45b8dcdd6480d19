"""What every game's commands share: the option stacks declared once (the study commands'
``study_options``, the one-file commands' ``one_file_options``, ``backend_options``, the
single ``seed`` / ``threads`` / ``quiet`` ... options), the backend's checks
(:func:`pop_backend`), the progress bar, the shared ends of the commands
(:func:`run_and_write` for the study directories, :func:`play_one_file` for the one-file
runs), the command line as typed for a manifest, and plain-text tables.

No game is imported here: Manoeuvre's own options are in ``manoeuvre_options.py``,
Maneuver's in ``hexgame/_options.py``; heavy modules are imported inside the functions, so
that ``manoeuvre-sim --help`` stays instant.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import click


def stack(*options: Callable) -> Callable:
    """One decorator of several click options (or stacks), in the order given (the first
    one listed first in ``--help``)."""

    def apply(f):
        for opt in reversed(options):
            f = opt(f)
        return f

    return apply


# the single options every game's commands take alike (one definition each)
seed_option = click.option("--seed", type=int, default=1, show_default=True)
threads_option = click.option(
    "--threads", type=int, default=0, show_default=True, help="0: all cores."
)
quiet_option = click.option("--quiet", is_flag=True, help="No progress bar.")
paper_option = click.option(
    "--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the pairs as JSON.")
BLOCK_HELP = "Games per task (one Parquet file of the study store each)."


def block_option(default: int = 1000, help: str = BLOCK_HELP) -> Callable:
    """``--block``: the games of one task (``default``, ``help``: the command's)."""
    return click.option("--block", type=int, default=default, show_default=True, help=help)


def out_dir_option(default: str, help: str) -> Callable:
    """``--out DIR``: a study's directory (``default``: ``reports/<study>``)."""
    return click.option(
        "--out", type=click.Path(file_okay=False), default=default, show_default=True, help=help
    )


def force_option(what: str = "the games of an earlier study") -> Callable:
    return click.option("--force", is_flag=True, help=f"Replace {what} in --out.")


_WHERE = click.option("--backend", type=click.Choice(["local", "dask"]), default="local",
                      show_default=True, help="Where the tasks run: local (this process's "
                      "threads) or dask (a Dask cluster: --scheduler, else a LocalCluster of "
                      "worker processes).")  # fmt: skip
_BACKEND = (
    _WHERE,
    click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="With --backend dask: a running Dask scheduler, e.g. tcp://host:8786.",
    ),
    click.option(
        "--workers",
        type=int,
        default=0,
        show_default=True,
        help="With --backend dask and no --scheduler: LocalCluster worker processes "
        "(0: one per core).",
    ),
)
_RESUME = click.option(
    "--resume",
    is_flag=True,
    help="Keep the tasks already in --out (checked to be of this same study) and "
    "play only the rest.",
)


def backend_options(f=None, *, resume: bool = True):
    """``--backend``, ``--scheduler``, ``--workers`` and ``--resume`` of every long command
    (``simulate``, ``balance``, ``whatif``, ``cards``, ``tournament`` and the ``hex`` ones;
    docs/long-studies.md); :func:`pop_backend` takes them out of the keywords.
    ``@backend_options(resume=False)``: without ``--resume`` (``ui``, whose jobs resume
    themselves)."""
    if f is None:
        return lambda g: backend_options(g, resume=resume)
    return stack(*_BACKEND, *((_RESUME,) if resume else ()))(f)


def why_options(out: str) -> Callable:
    """The options of every game's ``why`` command after its own (``studies/why.py``): the
    samples, the block, the method, the seed, the threads, ``--out`` (``out`` its default),
    --force, --quiet, --paper and the backend's."""
    return stack(
        click.option("--samples", type=int, default=40, show_default=True,
                     help="Independent samples (each a random order of the parts and its "
                     "reverse, or every coalition with --method exact); the intervals are "
                     "over them."),
        block_option(100, "Games of each coalition in each seating, per sample."),
        click.option("--method", type=click.Choice(["auto", "exact", "permutation"]),
                     default="auto", show_default=True, help="Shapley values: exact (every "
                     "coalition) or by permutation sampling; auto: exact with at most 10 "
                     "parts."),
        seed_option, threads_option,
        out_dir_option(out, "Directory for contributions.csv, totals.csv, samples.csv, "
                       "waterfall.png, why.pdf, summary.txt, manifest.json and the games."),
        force_option(), quiet_option, paper_option, backend_options,
    )  # fmt: skip


def study_options(*, out: str, out_help: str, block: int | None = 1000,
                  block_help: str = BLOCK_HELP, force: str | None = None) -> Callable:  # fmt: skip
    """The options every study command that writes a directory takes (both games'
    ``balance``, ``whatif``, ``cards``, the ``hex`` ladder and set-up map, a registered
    game's): ``--seed``, ``--block`` (None: none), ``--threads``, ``--paper``, ``--out``
    (``out``: its default, ``out_help``: what it holds), ``--force``, ``--quiet`` and the
    backend's; :func:`pop_output` takes them out of the keywords for :func:`run_and_write`."""
    return stack(
        seed_option,
        *(() if block is None else (block_option(block, block_help),)),
        threads_option,
        paper_option,
        out_dir_option(out, out_help),
        force_option() if force is None else force_option(force),
        quiet_option,
        backend_options,
    )


# the options of every game's ``tournament`` but its players and games
tournament_options = stack(
    seed_option,
    threads_option,
    click.option(
        "--out",
        type=click.Path(dir_okay=False),
        help="Also write every game (.parquet/.csv); the finished tasks wait in OUT.store/.",
    ),
    json_option,
    quiet_option,
    backend_options,
)


def pop_output(kw: dict) -> dict:
    """:func:`study_options`' ``--out``, ``--force``, ``--quiet``, ``--paper`` and the
    backend's (checked: :func:`pop_backend`) out of ``kw``, as keywords of
    :func:`run_and_write`."""
    out = {k: kw.pop(k) for k in ("out", "force", "quiet", "paper")}
    return out | {"backend": pop_backend(kw)}


run_range_options = stack(
    click.option("--games", type=int, default=1000, show_default=True),
    seed_option,
    click.option(
        "--first-game",
        type=int,
        default=0,
        show_default=True,
        help="Play games K .. K+--games-1 of the seed (runs of disjoint ranges "
        "play disjoint games, to be put together).",
    ),
    click.option(
        "--out",
        required=True,
        type=click.Path(dir_okay=False),
        help="FILE.parquet or FILE.csv",
    ),
)
run_range_options.__doc__ = """``--games``, ``--seed``, ``--first-game`` and ``--out``:
which games of a seed a ``simulate`` command plays and where it writes them."""

# the options of every game's ``simulate`` but its game's own: the range of games and the
# output file, the threads, the tasks, the backend, the bar
one_file_options = stack(
    run_range_options,
    threads_option,
    block_option(5000, "Games per task (one Parquet file each in FILE.store/ while the run goes)."),
    backend_options,
    quiet_option,
)


def pop_backend(kw: dict) -> dict:
    """The backend choice out of ``kw`` (checked before any game: --scheduler and --workers
    only with dask), as keywords of ``backend.make_backend`` plus ``resume``."""
    from manoeuvre_sim.core.errors import UsageError

    name, scheduler, workers = kw.pop("backend"), kw.pop("scheduler"), kw.pop("workers")
    if name != "dask" and scheduler:
        raise UsageError("--scheduler: only with --backend dask")
    if name != "dask" and workers:
        raise UsageError("--workers: only with --backend dask (the local backend uses --threads)")
    if workers < 0:
        raise UsageError(f"--workers: expected 0 (one per core) or more, got {workers}")
    if scheduler and workers:
        raise UsageError("--workers: not with --scheduler (the cluster has its own workers)")
    return {"name": name, "scheduler": scheduler, "workers": workers,
            "resume": kw.pop("resume", False)}  # fmt: skip


def start_description(kinds: Sequence[str] = ("games",)) -> str:
    """A progress bar's description before the first block: what numba will compile first
    when the kernels ``kinds`` are not in its cache (about how long), else "playing"."""
    from manoeuvre_sim.core.warmup import compiling_message, is_compiled

    todo = tuple(k for k in kinds if not is_compiled(k))
    return compiling_message(todo) if todo else "playing"


def progress_bar(quiet: bool, what: str = "game", kinds: Sequence[str] = ("games",)):
    """A tqdm bar on stderr (None when quiet) and a ``progress(done, total)`` callback. When
    the batch kernels ``kinds`` are not compiled yet (a fresh install, an engine change), the
    first block compiles them, and the description says so until it is done."""
    if quiet:
        return None, lambda done, total: None
    from tqdm import tqdm

    bar = tqdm(total=1, unit=what, file=sys.stderr, leave=False, desc=start_description(kinds))

    def progress(done: int, total: int) -> None:
        if bar.desc != "playing":
            bar.set_description("playing")
        bar.total = max(total, 1)
        bar.n = done
        bar.refresh()

    return bar, progress


def invoked_command() -> str | None:
    """The command line as typed (``manoeuvre-sim ...``) for a study's manifest, or None
    when the command was not run as ``manoeuvre-sim`` (from Python, a test's runner)."""
    import shlex
    from pathlib import Path

    if Path(sys.argv[0]).name != "manoeuvre-sim" or len(sys.argv) < 2:
        return None
    return shlex.join(["manoeuvre-sim", *sys.argv[1:]])


def play_with_progress(backend: dict, *, threads: int, quiet: bool, kinds, play):
    """The shared middle of the one-file commands (simulate, tournament and their ``hex``
    twins): the backend starts (:func:`pop_backend`'s options, ``resume`` aside) and
    ``play(backend=, progress=)`` runs with a progress bar (``kinds``: the batch kernels it
    compiles). Returns play's result."""
    from manoeuvre_sim.core.backend import make_backend

    be = {k: v for k, v in backend.items() if k != "resume"}
    with make_backend(threads=threads, **be) as engine:
        bar, progress = progress_bar(quiet, kinds=kinds)
        try:
            return play(backend=engine, progress=progress)
        finally:
            if bar is not None:
                bar.close()


def ran_text(seconds: float, threads: int, backend: str | None) -> str:
    """``"12.3 s on 2 thread(s)"`` (``" of a Dask cluster"`` after it on dask)."""
    return (f"{seconds:.1f} s on {threads} thread(s)"
            + (" of a Dask cluster" if backend == "dask" else ""))  # fmt: skip


def play_to_file(study, backend: dict, spec, out: str | None, *, quiet: bool, kinds):
    """``study.run_spec(spec, out)`` (a one-file study: ``simulate``, ``tournament``) with
    the backend of :func:`pop_backend` and a progress bar; returns its result."""
    return play_with_progress(
        backend, threads=spec.threads, quiet=quiet, kinds=kinds,
        play=lambda **run: study.run_spec(spec, out, resume=backend["resume"], **run),
    )  # fmt: skip


def play_one_file(backend: dict, spec, out: str, *, quiet: bool, kinds,
                  summary: Callable[[object], str]):  # fmt: skip
    """The shared end of every game's ``simulate``: play ``spec`` (a
    ``studies.simulate.SimulateSpec``) into ``out`` with a progress bar, print
    ``summary(result)`` on stderr, and exit 130 when interrupted (nothing written before
    the first game; else the finished games are, and ``--resume`` goes on)."""
    from manoeuvre_sim.studies import simulate as study

    res = play_to_file(study, backend, spec, out, quiet=quiet, kinds=kinds)
    if len(res.frame) == 0:
        click.echo("interrupted before any game finished: nothing written", err=True)
        sys.exit(130)
    click.echo(summary(res), err=True)
    if res.interrupted:
        click.echo(
            f"interrupted: the finished games were written; --resume goes on from {res.store}",
            err=True,
        )
        sys.exit(130)
    return res


def wins_text(frame, a: str = "a", b: str = "b") -> str:
    """``"a won 3, b won 2, draws 1"`` of a frame's ``winner`` column (``a``, ``b``: what
    the seats are called)."""
    wins = frame["winner"].value_counts()
    return (f"{a} won {wins.get('a', 0)}, {b} won {wins.get('b', 0)}, "
            f"draws {wins.get('draw', 0)}")  # fmt: skip


def games_per_second(manifest: dict) -> str:
    """``"9,000 games/s"`` of a study's manifest (its games over its seconds of play), the
    figure a user compares with the documented ones (docs/benchmarks.md)."""
    secs = manifest.get("seconds") or 0.0
    if secs <= 0:
        return "games/s n/a"
    rate = manifest.get("games", 0) / secs
    return f"{rate:,.0f} games/s" if rate >= 10 else f"{rate:.2g} games/s"


def load_text() -> str:
    """``", load 3.9"``: the 1-minute load average as the run ends, for figures that
    compare (a shared machine plays slower); ``""`` where there is none."""
    import os

    try:
        return f", load {os.getloadavg()[0]:.1f}"
    except (AttributeError, OSError):
        return ""


def run_and_write(
    run,
    out: str,
    *,
    force: bool,
    quiet: bool,
    paper: str,
    done_key: str = "games",
    backend: dict | None = None,
    threads: int = 0,
    kinds: Sequence[str] = ("games",),
):
    """The shared end of the study commands (balance, whatif, cards): prepare ``out``
    (refusing an earlier study unless ``force`` or ``backend["resume"]``), start the backend
    (:func:`pop_backend`), ``run(out_dir, progress, backend, resume)`` with a progress bar
    (``kinds``: the batch kernels it plays with, ``engine_kernels``), write the result's
    files, print its summary; exit 130 when interrupted (the finished games are kept and
    reported)."""
    from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir

    be = dict(backend or {"name": "local"})
    resume = be.get("resume", False)
    out_dir = prepare_out_dir(out, force=force, resume=resume)
    res = play_with_progress(
        be, threads=threads, quiet=quiet, kinds=kinds,
        play=lambda **run_kw: run(out_dir=out_dir, resume=resume, **run_kw),
    )  # fmt: skip
    if res.manifest.get(done_key, 0) == 0:
        click.echo("interrupted before any game finished: no tables written", err=True)
        sys.exit(130)
    command = invoked_command()
    if command and "command" not in res.manifest:  # provenance, as Maneuver's studies keep it
        res.manifest["command"] = command
    written = res.write(out_dir, paper=paper)
    click.echo("\n".join(res.summary()))
    m = res.manifest
    click.echo(
        f"\n{m['games']:,} games in {m['seconds']:.1f} s ({games_per_second(m)} on "
        f"{m['threads']} thread(s)"
        + (" of a Dask cluster" if m.get("backend") == "dask" else "")
        + f"{load_text()}); wrote games.parquet/ and "
        f"{', '.join(p.name for p in written)} in {out_dir}",
        err=True,
    )
    if res.interrupted:
        click.echo("interrupted: the tables cover the games finished so far", err=True)
        sys.exit(130)
    return res


def trace_format_option(whose: str) -> Callable:
    """A replay's ``--format text|jsonl`` (``whose``: the trace's, in its help);
    :func:`check_format` reads it."""
    return click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default=None,
                        help=f"text (default; a PDF with --out FILE.pdf) or jsonl: {whose} "
                        "trace, one JSON record per line, every field named "
                        "(docs/traces.md).")  # fmt: skip


def check_format(fmt: str | None, suffix: str, turns: str | None) -> str:
    """A replay's output format from ``--format`` and the ``--out`` file's suffix (``.jsonl``
    means jsonl); one line naming the option when they disagree."""
    from manoeuvre_sim.core.errors import UsageError

    if fmt is None:
        fmt = "jsonl" if suffix == ".jsonl" else "text"
    if fmt == "jsonl" and suffix not in ("", ".jsonl"):
        raise UsageError(f"--format jsonl: --out must end in .jsonl (or be left out), not {suffix}")
    if fmt == "text" and suffix == ".jsonl":
        raise UsageError("--format text: --out FILE.jsonl holds a trace (--format jsonl)")
    if fmt == "jsonl" and turns is not None:
        raise UsageError("--turns: not with --format jsonl (a trace holds the whole game)")
    return fmt


def write_text(out: str | None, text: str, note: str) -> None:
    """``text`` into ``out`` atomically (``note`` and the file name on stderr), else stdout."""
    if out:
        from manoeuvre_sim.core.fileio import atomic_write

        with atomic_write(out, encoding="utf-8", newline="") as f:
            f.write(text)
        click.echo(f"{note}\nwrote {out}" if note else f"wrote {out}", err=True)
    else:
        click.echo(text, nl=False)


def run_study(spec_of: Callable, run_spec: Callable, kw: dict, *, kinds, files=None,
              done_key: str = "games"):  # fmt: skip
    """The body of a study command that writes a directory: :func:`study_options`' out of
    ``kw`` (:func:`pop_output`), the study's spec built of the rest by ``spec_of(**kw)``
    (every option checked, every side loaded, before any game), played by
    ``run_spec(spec, command=..., ...)`` and written by :func:`run_and_write`. ``kinds``:
    the batch kernels it plays with, or a function of the spec giving them; ``files``: the
    analyses' class that writes the result's tables and pages (default: the result's own
    ``write``)."""
    output = pop_output(kw)
    spec = spec_of(**kw)

    def run(**run_kw):
        res = run_spec(spec, command=invoked_command(), **run_kw)
        return res if files is None else files(res)

    return run_and_write(run, **output, threads=spec.threads, done_key=done_key,
                         kinds=kinds(spec) if callable(kinds) else kinds)  # fmt: skip


def percent(p: float, width: int = 0) -> str:
    """``p`` in percent with two decimals (the number right-aligned in ``width``
    characters), the extremes that round to 0 or 100 shown as ``<0.01%`` and ``>99.99%``."""
    if 0.0 < p < 0.00005:
        return "<0.01%"
    if 0.99995 < p < 1.0:
        return ">99.99%"
    return f"{100.0 * p:{width}.2f}%"


def run_kind(game: str, kind: str, kw: dict, *, kinds, done_key: str = "games", **run_kw):
    """:func:`run_study` of a study kind of the game of key ``game``, found by
    ``studies.find(game, kind)``: its ``command_spec(game, **kw)`` and ``run_spec``
    (with ``run_kw``: a what-if's ``base_study``; None values left out)."""
    from functools import partial

    from manoeuvre_sim.studies import find

    study = find(game, kind)
    run_spec = partial(study.run_spec, **{k: v for k, v in run_kw.items() if v is not None})
    return run_study(partial(study.command_spec, game), run_spec, kw, kinds=kinds,
                     done_key=done_key)  # fmt: skip


def pairs_table(pairs) -> str:
    """A tournament's pairs (``studies.tournament.PairResult``) as a table: the games, the
    score of a (a draw half a win) with its 95% Wilson interval, the draws."""
    from manoeuvre_sim.core.stats import wilson_interval

    rows = []
    for p in pairs:
        lo, hi = wilson_interval(p.wins_a, p.games)
        rows.append([p.a, p.b, p.games, f"{p.win_rate_a:.3f}",
                     f"[{float(lo):.3f}, {float(hi):.3f}]", p.draws])  # fmt: skip
    return format_table(["a", "b", "games", "a score", "95% CI", "draws"], rows)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> str:
    """A plain-text table; ``align`` gives 'l' or 'r' per column (default: numbers right)."""
    cells = [[str(h) for h in headers]] + [["" if v is None else str(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if not align:
        align = "".join(
            "r" if rows and all(isinstance(r[i], int | float) for r in rows) else "l"
            for i in range(len(headers))
        )
    out = []
    for n, r in enumerate(cells):
        line = "  ".join(
            c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(r, widths, align, strict=True)
        )
        out.append(line.rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
