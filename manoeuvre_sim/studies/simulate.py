"""``simulate``, the one study of games of one pairing for every game (issue 31, 39): its
spec, its command spec, its run and its output file. Games ``first .. first + games - 1``
of one pairing in tasks of ``block`` games, each a part of the study store as it finishes
(so ``--resume`` reads it back), on the local or the Dask backend.

What a game's ``simulate`` plays (its pairing, rule options, what decides the games and
what its output records) is its adapter's ``simulate_plan``, one signature for every game
(declared in ``core.games.HOOKS``; a game without one: :func:`pairing_plan`); the commands
(``simulate``, ``hex simulate``) are front ends over :func:`command_spec` and
:func:`run_spec`. Game ``i`` is seeded from the pairing's seed and
``i`` alone, so the frame is one local run's whatever the blocks, the backend or an
interruption. The one-file output (``--out FILE``, the finished tasks in ``FILE.store/``
while the run goes) is shared with the tournament (``studies/tournament.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game, hook, resolve
from manoeuvre_sim.core.study import (
    Pairing,
    PlayOutcome,
    Progress,
    SimulatePlan,
    blocks,
    play,
)
from manoeuvre_sim.core.study_command import Option, StudyCommand

KIND = "simulate"
DEFAULT_BLOCK = 5000
# the command (core/study_command.py): a game without its own simulate command
COMMAND = StudyCommand(
    help="Play many games of one pairing, one row per game.",
    options=(Option("--side-a", "Seat a's side, as the game reads one.", required=True),
             Option("--side-b", "Seat b's side, as the game reads one.", required=True),
             Option("--policy-a", "Seat a's player: {policies}.", "player",
                    default=lambda g: g.DEFAULT_POLICY),
             Option("--policy-b", "As --policy-a.", "player",
                    default=lambda g: g.DEFAULT_POLICY)),
    face="simulate")  # fmt: skip
OUTPUT_SUFFIXES = (".parquet", ".csv")


@dataclass(frozen=True)
class SimulateSpec:
    """Games ``first .. first + games - 1`` of ``side_a`` (seat a) against ``side_b`` in
    ``game`` (a key of the registry): the players (None: the game's default) and their
    parameter vectors (None: the players' own), the master seed, tasks of ``block`` games
    on ``threads`` threads (0: all cores), the game's ``options`` (None: its defaults),
    ``relax`` (the game's ``load_side`` leniency) and ``flags`` (its ``play_block``
    keywords, such as Manoeuvre's ``card_bits``)."""

    game: str
    side_a: str
    side_b: str
    policy_a: str | None = None
    policy_b: str | None = None
    params_a: tuple[float, ...] | None = None
    params_b: tuple[float, ...] | None = None
    seed: int = 1
    first: int = 0
    games: int = 1000
    block: int = DEFAULT_BLOCK
    threads: int = 0
    options: Any = None
    relax: bool = False
    flags: dict = field(default_factory=dict)


@dataclass
class SimulateResult:
    """The games in order (the game's columns, without ``pairing`` and ``label``), the
    output's manifest, ``study.play``'s outcome and the store (None without ``out``)."""

    frame: Any
    manifest: dict
    outcome: PlayOutcome
    store: Path | None = None

    @property
    def interrupted(self) -> bool:
        return self.outcome.interrupted


def check_positive(*checks: tuple[str, int, int]) -> None:
    """A UsageError naming the first ``(flag, value, least)`` whose value is below its
    least (1: a positive number; 0: 0 or more)."""
    for flag, value, least in checks:
        if value < least:
            what = "a positive number" if least else "0 or more"
            raise UsageError(f"{flag}: expected {what}, got {value}")


def one_file_store(out: str | Path | None, resume: bool, *, check_only: bool = False):
    """The store of a one-file study's ``--out FILE``: ``FILE.store/``, cleared unless
    ``resume`` (None without ``out``); ``out`` checked first (a .parquet or .csv file that
    can be written) and ``resume`` refused without it. ``check_only``: the checks alone."""
    if out is None:
        if resume:
            raise UsageError("--resume: needs --out (the finished tasks are kept in OUT.store/)")
        return None
    from manoeuvre_sim.core.results import check_output_path

    check_output_path(out, OUTPUT_SUFFIXES)
    if check_only:
        return None
    store = Path(f"{out}.store")
    if store.exists() and not resume:
        import shutil

        shutil.rmtree(store)
    return store


def write_one_file(frame, out, manifest: dict, store: Path | None, interrupted: bool) -> None:
    """``frame`` to ``out`` with ``manifest``; the store removed once the run is whole."""
    import shutil

    from manoeuvre_sim.core.results import write

    write(frame, out, manifest)
    if not interrupted and store is not None:
        shutil.rmtree(store, ignore_errors=True)


def command_spec(
    game: str,
    *,
    side_a: str,
    side_b: str,
    policy_a: str | None = None,
    policy_b: str | None = None,
    params_a=None,
    params_b=None,
    games: int = 1000,
    seed: int = 1,
    first_game: int = 0,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    options=None,
    relax: bool = False,
    flags: dict | None = None,
    out: str | Path | None = None,
    resume: bool = False,
) -> SimulateSpec:
    """The ``simulate`` a command builds from its options (named as the commands' Python
    names; ``out``, ``resume``: the output file's): every option checked, in the command
    line's words, before any game; the game's own checks (its sides, players, options) by
    making its plan once."""
    g = get_game(game)
    check_positive(("--games", games, 1), ("--block", block, 1), ("--seed", seed, 0),
                   ("--first-game", first_game, 0), ("--threads", threads, 0))  # fmt: skip
    one_file_store(out, resume, check_only=True)
    vectors = [None if v is None else tuple(float(x) for x in v) for v in (params_a, params_b)]
    spec = SimulateSpec(g.KEY, side_a, side_b, policy_a, policy_b, *vectors, seed=seed,
                        first=first_game, games=games, block=block, threads=threads,
                        options=options, relax=relax, flags=dict(flags or {}))  # fmt: skip
    plan_of(spec)
    return spec


def plan_of(spec: SimulateSpec) -> SimulatePlan:
    """What ``spec`` plays: its game's ``simulate_plan`` (or :func:`pairing_plan`)."""
    return plan(spec.game, spec.side_a, spec.side_b, policy_a=spec.policy_a,
                policy_b=spec.policy_b, params_a=spec.params_a, params_b=spec.params_b,
                seed=spec.seed, first=spec.first, games=spec.games, block=spec.block,
                threads=spec.threads, options=spec.options, relax=spec.relax,
                flags=spec.flags)  # fmt: skip


def plan(game, side_a: str, side_b: str, **kw) -> SimulatePlan:
    """What ``simulate`` plays of ``game`` (a key or a game module): its adapter's
    ``simulate_plan(side_a, side_b, **kw)`` (the keywords ``core.games.HOOKS`` declares),
    else :func:`pairing_plan`."""
    g = resolve(game)
    own = hook(g, "simulate_plan")
    if own is None:
        return pairing_plan(g, side_a, side_b, **kw)
    return own(side_a, side_b, **kw)


def run_spec(
    spec: SimulateSpec,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
) -> SimulateResult:
    """Play ``spec`` and, with ``out`` (a .parquet or .csv file), write its games with the
    output's manifest (:func:`output_manifest`): the finished tasks go to ``OUT.store/`` as
    they finish (cleared first unless ``resume``, which reads them back) and the store is
    removed once the run is whole. Nothing is written when no game finished."""
    p = plan_of(spec)
    store = one_file_store(out, resume)
    df, outcome = run(spec.game, p, block=spec.block, threads=spec.threads, store=store,
                      backend=backend, resume=resume, progress=progress)  # fmt: skip
    manifest = output_manifest(p, outcome, len(df), block=spec.block)
    if out is not None and len(df):
        write_one_file(df, out, manifest, store, outcome.interrupted)
    return SimulateResult(df, manifest, outcome, store)


def output_manifest(plan: SimulatePlan, outcome: PlayOutcome, games_done: int, *,
                    block: int) -> dict:  # fmt: skip
    """The output's manifest: the plan's (what the game records of the run before play)
    with how the run went (threads, seconds, games done, backend, block, interrupted; a key
    the plan already has keeps its place)."""
    return dict(plan.manifest) | {
        "threads": outcome.threads, "seconds": round(outcome.seconds, 3),
        "games_done": games_done, "backend": outcome.backend, "block": block,
        "interrupted": outcome.interrupted,
    }  # fmt: skip


def run(
    game,
    plan: SimulatePlan,
    *,
    block: int,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Any, PlayOutcome]:
    """Play ``plan`` (a game's ``simulate_plan``) of ``game`` (a key of the registry, or a
    game module): see :func:`play_range`."""
    return play_range(plan.pairing, plan.first, plan.games, block=block, game=game,
                      options=plan.options, manifest=plan.ident, threads=threads, store=store,
                      backend=backend, resume=resume, progress=progress,
                      flags=plan.flags)  # fmt: skip


def pairing_plan(
    game,
    side_a: str,
    side_b: str,
    *,
    policy_a: str | None = None,
    policy_b: str | None = None,
    params_a: tuple[float, ...] | None = None,
    params_b: tuple[float, ...] | None = None,
    seed: int = 1,
    first: int = 0,
    games: int = 1000,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    options=None,
    relax: bool = False,
    flags: dict | None = None,
) -> SimulatePlan:
    """What ``simulate`` plays for a game without a ``simulate_plan`` of its own (its
    signature, the game first): games ``first .. first + games - 1`` of ``side_a`` (seat a)
    against ``side_b`` (specs the game's ``load_side`` reads), seeded from ``seed`` and the
    game's number alone; ``flags``: the game's ``play_block`` keywords."""
    g = resolve(game)
    a, b = g.load_side(side_a, relax), g.load_side(side_b, relax)
    pa, pb = policy_a or g.DEFAULT_POLICY, policy_b or g.DEFAULT_POLICY
    check_positive(("--games", games, 1), ("--first-game", first, 0))
    options = options if options is not None else g.Options()
    ident = {"study": "simulate", "game": g.KEY, "rules_version": g.RULES_VERSION,
             "data_hash": g.data_hash([a, b], options), "seed": seed,
             "players": [pa, pb]}  # fmt: skip
    manifest = {"tool": "manoeuvre-sim", **ident, "sides": [a.name, b.name],
                "first_game": first, "games_requested": games}  # fmt: skip
    pairing = Pairing(a, b, pa, pb, seed, "games", params_a=params_a, params_b=params_b)
    return SimulatePlan(pairing, first, games, options, ident, dict(flags or {}) or None,
                        manifest)  # fmt: skip


def play_range(
    pairing: Pairing,
    first: int,
    games: int,
    *,
    block: int,
    game,
    options,
    manifest: dict,
    threads: int = 0,
    store=None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    flags: dict | None = None,
) -> tuple[Any, PlayOutcome]:
    """Games ``first .. first + games - 1`` of one pairing in tasks of ``block`` games
    (:func:`run`; ``game``: a key or a game module): each task a part of
    ``store`` as it finishes, so ``resume`` reads it back; game ``i`` seeded from the
    pairing's seed and ``i`` alone, so the frame is one local run's whatever the blocks,
    the backend or an interruption. Returns ``(frame, outcome)``: the games in order (the
    game's columns, without ``pairing`` and ``label``) and :func:`play`'s outcome.
    ``manifest``: what decides the games (a resumed store must match it);
    ``progress(done, games)``."""
    import pandas as pd

    if block < 1:
        raise UsageError(f"--block: expected a positive number of games, got {block}")
    frames: list[pd.DataFrame] = []
    out = play([pairing], blocks(0, first, first + games, block), game=game, options=options,
               threads=threads, store=store, manifest=manifest,
               on_frame=lambda t, df, cs: frames.append(df), progress=Progress(progress, games),
               backend=backend,
               resume=resume, flags=flags)  # fmt: skip
    df = (pd.concat(frames, ignore_index=True).drop(columns=["pairing", "label"])
          if frames else pd.DataFrame())  # fmt: skip
    return df, out
