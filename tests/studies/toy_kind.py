"""A toy study kind living in tests/ (issue 39's proof that a new kind is one module): seat
a's score in every ordered pairing of ``--sides``, the games played as study tasks
(``core.study.play``: the store, ``--resume``, the backends), reduced to counts as they
come, written as ``seats.csv``, ``summary.txt`` and ``manifest.json`` (the seed, the rules
version, the data hash). Its ``COMMAND`` is all the command line and the workbench need:
registered in ``studies.SHARED_KINDS`` (or a game's ``OWN_STUDIES``) by a test, it is a
command of every game's group and a job kind, with no other file edited."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import Pairing, blocks, pairing_seed, play
from manoeuvre_sim.core.study_command import Option, StudyCommand, sides_option

KIND = "seats"
DEFAULT_BLOCK = 25

COMMAND = StudyCommand(
    help="Seat a's score in each ordered pairing of --sides (a toy kind of the tests).",
    options=(
        sides_option(),
        Option("--policy", "Both seats' player: {policies}.", "player",
               default=lambda g: g.DEFAULT_POLICY),
        Option("--games-per-pairing", "Games per ordered pairing.", "int", default=40),
        Option("--note", "A word kept in the manifest (the coin game's command only).",
               games=("coin",)),
    ),
    block=DEFAULT_BLOCK,
    out_help="Directory for games.parquet/, seats.csv, summary.txt, manifest.json.",
    job=True,
    done_key="games",
)  # fmt: skip


@dataclass(frozen=True)
class SeatsSpec:
    game: str
    sides: tuple
    policy: str
    games_per_pairing: int
    seed: int = 1
    block: int = DEFAULT_BLOCK
    threads: int = 0
    options: Any = None
    note: str | None = None

    def pairings(self) -> list[Pairing]:
        return [Pairing(a, b, self.policy, self.policy, pairing_seed(self.seed, a.name, b.name))
                for a in self.sides for b in self.sides if a is not b]  # fmt: skip


def command_spec(game: str, *, sides, policy: str | None = None, games_per_pairing: int = 40,
                 seed: int = 1, block: int = DEFAULT_BLOCK, threads: int = 0, options=None,
                 note: str | None = None) -> SeatsSpec:  # fmt: skip
    g = get_game(game)
    names = [s.strip() for s in sides.split(",")] if isinstance(sides, str) else list(sides)
    if len(names) < 2:
        raise UsageError("--sides: expected at least two sides")
    if games_per_pairing < 1:
        raise UsageError(
            f"--games-per-pairing: expected a positive number, got {games_per_pairing}"
        )
    return SeatsSpec(g.KEY, tuple(g.load_side(n) for n in names), policy or g.DEFAULT_POLICY,
                     games_per_pairing, seed, block, threads,
                     options if options is not None else g.Options(), note)  # fmt: skip


def command_spec_of(game: str):
    return functools.partial(command_spec, game)


@dataclass
class SeatsResult:
    spec: SeatsSpec
    rows: list = field(default_factory=list)
    manifest: dict = field(default_factory=dict)
    interrupted: bool = False

    def summary(self) -> list[str]:
        return [f"seats study of {len(self.spec.sides)} sides, seed {self.spec.seed}"] + [
            f"{a} (a) vs {b} (b): a scored {s:.3f} in {n} games" for a, b, n, s in self.rows
        ]

    def write(self, out_dir, paper: str = "a4") -> list[Path]:
        from manoeuvre_sim.core.fileio import atomic_write

        out = Path(out_dir)
        files = {"seats.csv": "a,b,games,a_score\n" + "".join(
                     f"{a},{b},{n},{s:.6f}\n" for a, b, n, s in self.rows),
                 "summary.txt": "\n".join(self.summary()) + "\n",
                 "manifest.json": json.dumps(self.manifest, indent=2)}  # fmt: skip
        for name, text in files.items():
            with atomic_write(out / name, encoding="utf-8") as f:
                f.write(text)
        return [out / n for n in files]


def run_spec(spec: SeatsSpec, out_dir=None, *, resume: bool = False, progress=None,
             backend=None, command: str | None = None) -> SeatsResult:  # fmt: skip
    g = get_game(spec.game)
    pairings = spec.pairings()
    tasks = [t for k in range(len(pairings))
             for t in blocks(k, 0, spec.games_per_pairing, spec.block)]  # fmt: skip
    points = [0.0] * len(pairings)
    manifest = {"study": KIND, "game": g.KEY, "seed": spec.seed,
                "rules_version": g.RULES_VERSION, "data_hash": g.data_hash(spec.sides, spec.options),
                "note": spec.note, "command": command}  # fmt: skip
    total, done = spec.games_per_pairing * len(pairings), [0]

    def on_frame(task, df, stats) -> None:
        w = df["winner"]
        points[task.pairing] += float((w == "a").sum() + 0.5 * (w == "draw").sum())

    def step(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(done[0], total)

    store = Path(out_dir) / STORE if out_dir is not None else None
    outcome = play(pairings, tasks, game=g, options=spec.options, threads=spec.threads,
                   store=store, manifest=dict(manifest), on_frame=on_frame, progress=step,
                   backend=backend, resume=resume)  # fmt: skip
    rows = [(p.army_a.name, p.army_b.name, outcome.games.get(k, 0),
             points[k] / max(outcome.games.get(k, 0), 1)) for k, p in enumerate(pairings)]  # fmt: skip
    manifest |= {"games": sum(outcome.games.values()), "seconds": outcome.seconds,
                 "threads": outcome.threads, "backend": outcome.backend}  # fmt: skip
    return SeatsResult(spec, rows, manifest, outcome.interrupted)
