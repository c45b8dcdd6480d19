"""``simulate``, the one study of games of one pairing for every game (issue 31, 39): its
spec, its command spec, its run and its output file. Games ``first .. first + games - 1``
of one pairing in tasks of ``block`` games, each a part of the study store as it finishes
(so ``--resume`` reads it back), on the local or the Dask backend.

What a game's ``simulate`` plays (its pairing, rule options, what decides the games and
what its output records) is its adapter's ``simulate_plan``, one signature for every game
(declared in ``core.games.HOOKS``: it takes the :class:`SimulateSpec`; a game without one:
:func:`pairing_plan`); the commands (``simulate``, ``hex simulate``) are front ends over
:func:`command_spec` and :func:`run_spec`. Game ``i`` is seeded from the pairing's seed and
``i`` alone, so the frame is one local run's whatever the blocks, the backend or an
interruption. The one-file output (``--out FILE``, the finished tasks in ``FILE.store/``
while the run goes) and :func:`run_spec` are shared with the tournament
(``studies/one_file.py``).
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
from manoeuvre_sim.studies.one_file import (
    OUTPUT_SUFFIXES,
    Running,
    check_positive,
    one_file_store,
    run_spec,
)

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

    def play(self, running: Running) -> SimulateResult:
        """These games played as ``running`` says (``one_file.run_spec``)."""
        p = plan_of(self)
        df, outcome = play_range(p, block=self.block, game=self.game, running=running)
        return SimulateResult(df, output_manifest(p, outcome, len(df), block=self.block), outcome)


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

    @property
    def file_manifest(self) -> dict:
        """What the output file records: the manifest."""
        return self.manifest


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


def plan_of(spec: SimulateSpec, game=None) -> SimulatePlan:
    """What ``spec`` plays: its game's ``simulate_plan(spec)`` (or :func:`pairing_plan`);
    ``game``: the game module, when the caller holds it (None: the registry's of
    ``spec.game``)."""
    g = resolve(spec.game if game is None else game)
    own = hook(g, "simulate_plan")
    return pairing_plan(g, spec) if own is None else own(spec)


def plan(game, side_a: str, side_b: str, **kw) -> SimulatePlan:
    """What ``simulate`` plays of ``game`` (a key or a game module) between ``side_a`` and
    ``side_b``, ``kw`` the other fields of a :class:`SimulateSpec`: :func:`plan_of` the
    spec."""
    g = resolve(game)
    return plan_of(SimulateSpec(g.KEY, side_a, side_b, **kw), g)


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
    game module): see :func:`play_range` (``threads``, ``store``, ``backend``, ``resume``,
    ``progress``: :class:`one_file.Running`)."""
    return play_range(plan, block=block, game=game,
                      running=Running(threads, store, backend, resume, progress))  # fmt: skip


def pairing_plan(game, spec: SimulateSpec) -> SimulatePlan:
    """What ``simulate`` plays for a game without a ``simulate_plan`` of its own (its
    signature, the game first): games ``first .. first + games - 1`` of ``spec.side_a``
    (seat a) against ``side_b`` (specs the game's ``load_side`` reads), seeded from ``seed``
    and the game's number alone; ``flags``: the game's ``play_block`` keywords."""
    g, s = resolve(game), spec
    a, b = g.load_side(s.side_a, s.relax), g.load_side(s.side_b, s.relax)
    pa, pb = s.policy_a or g.DEFAULT_POLICY, s.policy_b or g.DEFAULT_POLICY
    check_positive(("--games", s.games, 1), ("--first-game", s.first, 0))
    options = s.options if s.options is not None else g.Options()
    ident = {"study": "simulate", "game": g.KEY, "rules_version": g.RULES_VERSION,
             "data_hash": g.data_hash([a, b], options), "seed": s.seed,
             "players": [pa, pb]}  # fmt: skip
    manifest = {"tool": "manoeuvre-sim", **ident, "sides": [a.name, b.name],
                "first_game": s.first, "games_requested": s.games}  # fmt: skip
    pairing = Pairing(a, b, pa, pb, s.seed, "games", params_a=s.params_a, params_b=s.params_b)
    return SimulatePlan(pairing, s.first, s.games, options, ident, dict(s.flags or {}) or None,
                        manifest)  # fmt: skip


def play_range(
    plan: SimulatePlan, *, block: int, game, running: Running
) -> tuple[Any, PlayOutcome]:
    """Games ``first .. first + games - 1`` of the plan's pairing in tasks of ``block``
    games (:func:`run`; ``game``: a key or a game module), as ``running`` says: each task a
    part of its ``store`` as it finishes, so ``resume`` reads it back; game ``i`` seeded from
    the pairing's seed and ``i`` alone, so the frame is one local run's whatever the blocks,
    the backend or an interruption. Returns ``(frame, outcome)``: the games in order (the
    game's columns, without ``pairing`` and ``label``) and :func:`play`'s outcome. The
    plan's ``ident``: what decides the games (a resumed store must match it);
    ``progress(done, games)``."""
    import pandas as pd

    if block < 1:
        raise UsageError(f"--block: expected a positive number of games, got {block}")
    frames: list[pd.DataFrame] = []
    r, first = running, plan.first
    out = play([plan.pairing], blocks(0, first, first + plan.games, block), game=game,
               options=plan.options, threads=r.threads, store=r.store, manifest=plan.ident,
               on_frame=lambda t, df, cs: frames.append(df),
               progress=Progress(r.progress, plan.games), backend=r.backend, resume=r.resume,
               flags=plan.flags)  # fmt: skip
    df = (pd.concat(frames, ignore_index=True).drop(columns=["pairing", "label"])
          if frames else pd.DataFrame())  # fmt: skip
    return df, out


__all__ = ["DEFAULT_BLOCK", "KIND", "OUTPUT_SUFFIXES", "SimulateResult", "SimulateSpec",
           "command_spec", "output_manifest", "pairing_plan", "plan", "plan_of", "play_range",
           "run", "run_spec"]  # fmt: skip
