"""The study commands a job runs (issue 33), one entry each in :data:`JOB_KINDS` (keyed by
the command's name: ``balance``, ``whatif``, ``hex balance``, ``hex whatif``): its game, its
study module, the table a finished study has and how its spec plans its games. Each is
built from a job's options through the builder the command's body calls (the study
module's ``command_spec``), so every option is checked, with the command line's words,
before the job is queued, and played by its ``run_spec``.

A job's options are a plain dict of the command's options by their Python names
(``games_per_pairing``, ``edits``), so it is stored as JSON beside the study and built
again to resume it after a restart. :func:`command_line` gives the command a user would
type for it (recorded in the job's state, shown on its page).
"""

from __future__ import annotations

import inspect
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game
from manoeuvre_sim.web.safety import check_players, seat_cost

# the most games one job may ask for (no unbounded work per request): 8 armies x 8 x 20,000
MAX_GAMES_PER_PAIRING = 20000
# The most one job may cost, in games of each game's scripted players (the adapters'
# ``policy_cost``: a search player's game costs its rollouts): a what-if of the eight armies
# at the most games a pairing may ask, base and variant, 2 x 64 x 20,000; some 8 minutes of
# play on 2 idle cores with the default player. A search player's job is bounded by the
# same figure, so it asks fewer games.
MAX_JOB_COST = 2 * 64 * MAX_GAMES_PER_PAIRING
# A job plays in blocks that cost at most this (in the same units; Manoeuvre's default
# block): a cancel, a stop or Ctrl-C waits for the blocks in play to end, so a block must
# end within about a second whatever the players (``block`` is made smaller for a search
# player when the form leaves it empty; a block given that costs more is refused).
MAX_BLOCK_COST = 1000


@dataclass
class Built:
    """A job's study, checked: ``run(out_dir=, progress=, backend=, resume=)`` plays it and
    returns the result whose ``write(out_dir, paper=)`` writes its tables; ``threads`` as the
    backend takes them; ``games``, the most games it plays (a precision goal's cap), and
    ``cost``, what they cost in scripted players' games (:func:`plan_of`)."""

    run: Callable[..., Any]
    threads: int
    game: str
    games: int = 0
    cost: float = 0.0


def _plan_whatif(spec) -> tuple[list, int]:
    """Manoeuvre's what-if: its base's pairings, then the variant's (the touched armies')."""
    base = spec.base
    pairings = [*base.pairings(), *(p for p in base.pairings()
                                    if p.army_a.name in spec.touched
                                    or p.army_b.name in spec.touched)]  # fmt: skip
    return pairings, base.games_per_pairing


def _plan_balance(spec) -> tuple[list, int]:
    """Manoeuvre's balance study: its pairings, its fixed N or its precision goal's cap."""
    n = spec.max_games if spec.precision is not None else spec.games_per_pairing
    return spec.pairings(), n


def _plan_paired(spec) -> tuple[list, int]:
    """Maneuver's variant study and what-if: their pairings hold base and variant."""
    n = spec.max_games if getattr(spec, "precision", None) is not None else spec.games
    return spec.pairings(), n


@dataclass(frozen=True)
class JobKind:
    """One study kind a job runs: its game (a registry key), the study module whose
    ``command_spec`` builds its spec from the command's options and whose ``run_spec`` plays
    it (today's module; ``studies.find(game, kind)`` once every kind has its home), the
    table a finished study has (a job is done only once it is written), its plan (the spec
    -> ``(pairings, games of each)``), whether it takes edits (a what-if), and ``base``: the
    kind whose options its builder takes too (its ``**base_options``; its spec then holds
    that study's spec as ``spec.base``, threads included)."""

    game: str
    module: str
    done: str
    plan: Callable[[Any], tuple[list, int]]
    edits: bool = False
    base: str | None = None

    def library(self):
        """``(command_spec, run_spec)`` of the kind's study module."""
        import importlib

        m = importlib.import_module(self.module)
        return m.command_spec, m.run_spec


# every study kind a job runs, by its command's name (the one place a kind is chosen)
JOB_KINDS = {
    "balance": JobKind("manoeuvre", "manoeuvre_sim.analyses.manoeuvre.balance", "games",
                       _plan_balance),
    "whatif": JobKind("manoeuvre", "manoeuvre_sim.analyses.manoeuvre.whatif", "paired_games",
                      _plan_whatif, edits=True, base="balance"),
    "hex balance": JobKind("hex", "manoeuvre_sim.analyses.hexgame.variants", "games",
                           _plan_paired),
    "hex whatif": JobKind("hex", "manoeuvre_sim.analyses.hexgame.whatif", "games",
                          _plan_paired, edits=True),
}  # fmt: skip
KINDS = tuple(JOB_KINDS)
# the tables a finished job's study must have (a job is done only once they are written)
DONE_KEY = {kind: k.done for kind, k in JOB_KINDS.items()}


def _games(opts: dict) -> None:
    n = opts.get("games_per_pairing")
    if n is not None and n > MAX_GAMES_PER_PAIRING:  # below 1: the study's own check
        raise UsageError(
            f"--games-per-pairing: expected at most {MAX_GAMES_PER_PAIRING} on the "
            f"workbench, got {n}"
        )


def _takes(kind: str) -> set[str]:
    """The options the builder of ``kind`` takes (a what-if's ``**base_options``: those of
    its base kind's builder, ``JobKind.base``)."""
    entry = JOB_KINDS[kind]
    params = inspect.signature(entry.library()[0]).parameters
    names = {n for n, p in params.items() if p.kind is not p.VAR_KEYWORD}
    if len(names) < len(params) and entry.base is not None:
        names |= _takes(entry.base)
    return names


def build(kind: str, opts: dict) -> Built:
    """The job's study from its options, every option checked by the command's own builder
    (``command_spec``: a UsageError in the command line's words) before any game; an option
    left empty takes the command's default, one the command does not take is refused."""
    if kind not in KINDS:
        raise UsageError(f"job: unknown study {kind!r} (one of {', '.join(KINDS)})")
    entry = JOB_KINDS[kind]
    command_spec, run_spec = entry.library()
    game = entry.game
    _games(opts)
    if entry.edits and not opts.get("edits"):
        raise UsageError("--set: expected at least one edit (a changed field or a line)")
    takes = _takes(kind)
    given = {k: v for k, v in opts.items() if v is not None and v != ""}
    for name in given:
        if name not in takes:
            raise UsageError(f"--{name.replace('_', '-')}: not an option of {kind}")
    spec = command_spec(**given)
    for flag in ("policy", "policies"):
        if given.get(flag):
            names = given[flag] if isinstance(given[flag], list | tuple) else [given[flag]]
            names = [n for x in names for n in str(x).split(",")]
            check_players(get_game(game), names, [f"--{flag}"] * len(names))
    plan = plan_of(kind, spec)
    per_game = max((c for _, c in plan), default=1.0)
    if "block" in given:
        if given["block"] * per_game > MAX_BLOCK_COST:
            raise UsageError(
                f"--block: expected at most {max(1, int(MAX_BLOCK_COST // per_game)):,} games "
                f"with these players on the workbench (a block must end within a second, for "
                f"cancel), got {given['block']:,}"
            )
    elif _block(spec) * per_game > MAX_BLOCK_COST:
        opts["block"] = given["block"] = max(1, int(MAX_BLOCK_COST // per_game))
        spec = command_spec(**given)
    games = sum(n for n, _ in plan)
    cost = sum(n * c for n, c in plan)
    if cost > MAX_JOB_COST:
        raise UsageError(_too_costly(given, games, cost))
    threads = spec.base.threads if entry.base is not None else spec.threads
    return Built(partial(run_spec, spec), threads, game, games, cost)


def _block(spec) -> int:
    return spec.base.block if hasattr(spec, "base") and hasattr(spec.base, "block") else spec.block


def plan_of(kind: str, spec) -> list[tuple[int, float]]:
    """Per pairing the job may play, ``(games, cost of one game)``: the cost the sum of the
    two seats' ``policy_cost`` (the game's adapter; without one, a seat costs half a game),
    the games its fixed N or, with a precision goal, its cap; a what-if plays its base and
    then the variant's pairings."""

    entry = JOB_KINDS[kind]
    cost = seat_cost(get_game(entry.game))
    pairings, n = entry.plan(spec)
    return [(n, cost(p.policy_a) + cost(p.policy_b)) for p in pairings]


def _too_costly(given: dict, games: int, cost: float) -> str:
    players = given.get("policy") or given.get("policies") or "the default player"
    return (
        f"--games-per-pairing: {games:,} games with {players} cost as much as {cost:,.0f} "
        f"games of the scripted players; a job from the workbench may cost at most "
        f"{MAX_JOB_COST:,} (about 8 minutes on 2 cores): ask fewer games or a smaller search "
        f"budget, or run it with the command line"
    )


_FLAGS = ("armies", "policy", "policies", "games_per_pairing", "seed", "precision", "block",
          "borders", "quality", "border", "step_losses", "step_replacements")  # fmt: skip


def command_line(kind: str, opts: dict, out: str) -> str:
    """The command a user would type for the job (``manoeuvre-sim whatif --set ...``)."""
    words = ["manoeuvre-sim", *kind.split()]
    for name in _FLAGS:
        value = opts.get(name)
        if value is None or value is False or value == "" or value == []:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        else:
            words += [flag, ",".join(value) if isinstance(value, list | tuple) else str(value)]
    for e in opts.get("edits") or ():
        words += ["--set", e]
    words += ["--out", out]
    return shlex.join(words)
