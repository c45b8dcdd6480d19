"""Small helpers shared by the subcommand modules (formatting, atomic file output)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import contextmanager

import click

from manoeuvre_sim.manoeuvre import DEFAULT_POLICY

POLICY_HELP = (
    "random | simple | attritional | territorial | balanced | tuned | "
    "search[:BUDGET[:STYLE[:vH[:mM][:wMODEL]]]] (docs/players.md)"
)


def army_options(f):
    """``--army-a`` / ``--army-b``, as every command that plays games takes them."""
    f = click.option("--army-b", required=True, help="Army B (player 1): a name or a .toml file.")(
        f
    )
    return click.option(
        "--army-a", required=True, help="Army A (player 0): a name or a .toml file."
    )(f)


def policy_options(f):
    """``--policy-a`` / ``--policy-b``: the players of armies A and B."""
    f = click.option(
        "--policy-b", default=DEFAULT_POLICY, show_default=True, help="As --policy-a."
    )(f)
    return click.option(
        "--policy-a",
        default=DEFAULT_POLICY,
        show_default=True,
        help=f"Army A's player: {POLICY_HELP}",
    )(f)


def run_range_options(f):
    """``--games``, ``--seed``, ``--first-game`` and ``--out``: which games of a seed a
    ``simulate`` command plays and where it writes them (both games' ``simulate``)."""
    for opt in reversed(
        (
            click.option("--games", type=int, default=1000, show_default=True),
            click.option("--seed", type=int, default=1, show_default=True),
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
    ):
        f = opt(f)
    return f


def setup_options(f):
    """``--setup`` and the fixed map ``--map`` / ``--rot`` (rule 3 set-up), as every command
    that plays games takes them; :func:`parse_setup` turns them into the config's fields."""
    for opt in reversed(
        (
            click.option(
                "--setup",
                type=click.Choice(["random", "rules"]),
                default="random",
                show_default=True,
                help="Rule 3 set-up: random (sections, rotations drawn; army A at the bottom) "
                "or rules (the first player lays the map, the second chooses its edge).",
            ),
            click.option(
                "--map",
                "fixed_map",
                metavar="NW,NE,SW,SE",
                help="A fixed battlefield: 4 section numbers, e.g. 5,9,12,18 (with --setup "
                "rules, the second player still chooses its edge).",
            ),
            click.option(
                "--rot",
                "fixed_rot",
                metavar="R,R,R,R",
                help="The --map sections' quarter turns clockwise, 0-3 each (default 0,0,0,0).",
            ),
        )
    ):
        f = opt(f)
    return f


def sections_option(f):
    """``--sections FILE``: a designer's map sections joining the built-in pool."""
    return click.option(
        "--sections",
        "sections_file",
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="A map sections file (as data/maps/sections.toml; e.g. the Distant Lands "
        "sections) whose sections join the built-in pool. See docs/authoring.md.",
    )(f)


def parse_setup(kw: dict) -> dict:
    """``kw``'s ``fixed_map`` / ``fixed_rot`` strings as tuples of ints, checked (a bad value
    exits 2 with one line naming ``--map`` or ``--rot``); returns ``kw``."""
    from manoeuvre_sim.manoeuvre.engine.options import parse_fixed_map

    kw["fixed_map"], kw["fixed_rot"] = parse_fixed_map(kw.get("fixed_map"), kw.get("fixed_rot"))
    return kw


# The options that change how a game plays: ONE definition, taken by every command that
# plays games (tests/manoeuvre/test_cli_game_options.py fails when a command lacks one), and ONE
# parser into the config (:func:`pop_game_options`), so a game replayed with the options it
# was simulated with is the same game. Each is a field of ``manoeuvre.adapter.RuleOptions`` (and of
# ``runner.SimConfig``) of the same name.
GAME_OPTION_NAMES = (
    "setup", "fixed_map", "fixed_rot", "sections_file", "tournament_hand",
    "advance_to_contact", "digging_in", "dl_forced_march", "max_turns",
)  # fmt: skip
DEFAULT_MAX_TURNS = 200


def game_options(f):
    """Every option that changes a game: the set-up (:func:`setup_options`), ``--sections``
    and the rule options; :func:`pop_game_options` parses them into a ``RuleOptions``."""
    f = sections_option(setup_options(f))
    for opt in reversed(
        (
            click.option(
                "--tournament-hand",
                is_flag=True,
                help="Rule 3 option: choose the 5 starting cards.",
            ),
            click.option(
                "--advance-to-contact", is_flag=True, help="Distant Lands: 3, 2, then 1 moves."
            ),
            click.option(
                "--digging-in", is_flag=True, help="Distant Lands: a player may skip its move."
            ),
            click.option(
                "--dl-forced-march",
                is_flag=True,
                help="Distant Lands 9.2 wording: only a move that begins in a Field or Marsh "
                "may not be Forced Marched (base: begins or ends).",
            ),
            click.option(
                "--max-turns",
                type=int,
                default=DEFAULT_MAX_TURNS,
                show_default=True,
                help="Safety turn limit.",
            ),
        )
    ):
        f = opt(f)
    return f


def pop_game_options(kw: dict):
    """The :func:`game_options` out of ``kw`` as a checked ``manoeuvre.adapter.RuleOptions`` (a bad
    ``--map``, ``--rot``, ``--sections`` or ``--max-turns`` exits 2 with one line)."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions

    parse_setup(kw)
    return RuleOptions(**{k: kw.pop(k) for k in GAME_OPTION_NAMES})


def given_game_options(kw: dict) -> list[str]:
    """The ``--options`` of :func:`game_options` in ``kw`` that differ from their defaults
    (for a command that refuses them in some case)."""
    defaults = {"setup": "random", "max_turns": DEFAULT_MAX_TURNS}
    return [
        "--"
        + {"fixed_map": "map", "fixed_rot": "rot", "sections_file": "sections"}.get(
            k, k.replace("_", "-")
        )
        for k in GAME_OPTION_NAMES
        if kw.get(k) != defaults.get(k) and not (k not in defaults and not kw.get(k))
    ]


def relax_option(f):
    return click.option(
        "--relax", is_flag=True, help="Accept armies that break the deck-composition rules."
    )(f)


def rule_options(f):
    """The options of the commands that play games between given armies (``simulate``,
    ``balance``, ``whatif``, ``cards``, ``replay``): :func:`game_options` and ``--relax``
    for armies that break the deck-composition counts."""
    return relax_option(game_options(f))


def backend_options(f=None, *, resume: bool = True):
    """``--backend``, ``--scheduler``, ``--workers`` and ``--resume`` of every long command
    (``simulate``, ``balance``, ``whatif``, ``cards``, ``tournament`` and the ``hex`` ones;
    docs/long-studies.md); :func:`pop_backend` takes them out of the keywords.
    ``@backend_options(resume=False)``: without ``--resume`` (``ui``, whose jobs resume
    themselves)."""
    if f is None:
        return lambda g: backend_options(g, resume=resume)
    for opt in reversed(
        (
            click.option(
                "--backend",
                type=click.Choice(["local", "dask"]),
                default="local",
                show_default=True,
                help="Where the tasks run: local (this process's threads) or dask (a Dask "
                "cluster: --scheduler, else a LocalCluster of worker processes).",
            ),
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
            click.option(
                "--resume",
                is_flag=True,
                help="Keep the tasks already in --out (checked to be of this same study) and "
                "play only the rest.",
            ),
        )[: 4 if resume else 3]
    ):
        f = opt(f)
    return f


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


def engine_kernels(policies: Sequence[str] = (), cards: bool = False) -> tuple[str, ...]:
    """The batch kernels (``core/warmup.py``) a run of ``policies`` plays with: the search
    player's if one searches, else the plain one; ``cards``: also the card-statistics one."""
    from manoeuvre_sim.manoeuvre.runner import is_search

    kinds = ("search",) if any(is_search(p) for p in policies) else ("games",)
    return kinds + (("cards",) if cards else ())


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
    from manoeuvre_sim.core.backend import make_backend

    be = dict(backend or {"name": "local"})
    resume = be.pop("resume", False)
    out_dir = prepare_out_dir(out, force=force, resume=resume)
    with make_backend(threads=threads, **be) as engine:
        bar, progress = progress_bar(quiet, kinds=kinds)
        try:
            res = run(out_dir=out_dir, progress=progress, backend=engine, resume=resume)
        finally:
            if bar is not None:
                bar.close()
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
        + f"{load_text()})"
        + "; wrote "
        f"games.parquet/ and {', '.join(p.name for p in written)} in {out_dir}",
        err=True,
    )
    if res.interrupted:
        click.echo("interrupted: the tables cover the games finished so far", err=True)
        sys.exit(130)
    return res


@contextmanager
def army_option(flags: dict[str, object]):
    """Name the option in an unknown-army error raised inside: ``flags`` maps each option
    (``--army-a``) to the value typed (a name, or several for ``--armies``); the error of a
    value becomes ``--army-a 'Frnace': unknown army; did you mean 'France'? ...``."""
    from manoeuvre_sim.core.errors import DataError, UsageError

    try:
        yield
    except DataError as e:
        if len(e.problems) != 1 or e.problems[0][0] != "army":
            raise
        typed = e.source
        flag = next(
            (f for f, v in flags.items() if typed == v or typed in str(v or "").split(",")),
            "/".join(flags),
        )
        raise UsageError(f"{flag} {typed!r}: {e.problems[0][1]}") from None


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
