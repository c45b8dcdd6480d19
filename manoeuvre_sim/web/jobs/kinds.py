"""The study commands a job runs (issue 33): every study kind of every game of the registry
that declares itself a job (its ``COMMAND.job``, ``core/study_command.py``: the balance
study and the what-if; :func:`job_kinds`, keyed by the command's name: ``balance``,
``whatif``, ``hex balance``, ``hex whatif``, ``coin balance`` ...), each found by (game,
kind) in the kinds registry (``studies.kinds``, ``studies.find``) and built from a job's
options through the builder the command's body calls (the study module's
``command_spec_of(game)``), so every option is
checked, with the command line's words, before the job is queued, and played by its
``run_spec``.

A job's options are a plain dict of the command's options by their Python names
(``games_per_pairing``, ``edits``; a game's rule options, ``options``, as a dict of its
``Options`` fields: ``{"flips": 7}``), so it is stored as JSON beside the study and built
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
from manoeuvre_sim.core.games import get_game, hook
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
    status: bool = False  # its run takes status=, a line of its state (a fix's)


@dataclass(frozen=True)
class JobKind:
    """One study a job runs: its game (a registry key) and its kind (a name of the kinds
    registry, ``studies.find``: ``balance``, ``whatif`` ...), whose module's
    ``command_spec_of(game)`` builds its spec from the command's options (its signature: the
    options it takes) and whose ``run_spec`` plays it; whether it needs edits (a what-if)
    and the manifest's count of the games a finished one played (its ``COMMAND``'s
    ``edits`` and ``done_key``: a job is done only once that is written and not zero)."""

    game: str
    study: str
    edits: bool = False
    done_key: str = "games"

    def library(self):
        """``(command_spec, run_spec)`` of the kind's study module for this game."""
        from manoeuvre_sim.studies import find

        m = find(self.game, self.study)
        # a study whose run_spec takes the game first (the why study) names its job's run
        return m.command_spec_of(self.game), getattr(m, "run_job", m.run_spec)


def job_kinds() -> dict[str, JobKind]:
    """Every study a job may run, by its command's name (``balance``, ``hex whatif``,
    ``coin balance``: the game's command group, ``games.command_group``, then the kind), for
    every game of the registry that is installed: its kinds (``studies.kinds``) whose
    ``COMMAND`` says ``job``."""
    from manoeuvre_sim.core.games import command_group, installed
    from manoeuvre_sim.core.study_command import command_of
    from manoeuvre_sim.studies import find, kinds

    out = {}
    for key in installed():
        group = command_group(key)
        for study in kinds(key):
            cmd = command_of(find(key, study))
            if cmd is not None and cmd.job and all(hook(get_game(key), h) for h in cmd.requires):
                out[f"{group} {study}".strip()] = JobKind(key, study, cmd.edits, cmd.done_key)
    return out


def _games(opts: dict) -> None:
    n = opts.get("games_per_pairing")
    if n is not None and n > MAX_GAMES_PER_PAIRING:  # below 1: the study's own check
        raise UsageError(
            f"--games-per-pairing: expected at most {MAX_GAMES_PER_PAIRING} on the "
            f"workbench, got {n}"
        )


def _takes(command_spec) -> set[str]:
    """The options a builder takes (its signature's names)."""
    params = inspect.signature(command_spec).parameters
    return {n for n, p in params.items() if p.kind is not p.VAR_KEYWORD}


def build(kind: str, opts: dict, root=None) -> Built:
    """The job's study from its options, every option checked by the command's own builder
    (``command_spec``: a UsageError in the command line's words) before any game; an option
    left empty takes the command's default, one the command does not take is refused. A
    what-if's ``base_study`` (a study under the studies folder ``root``, as the form gave
    it) is the balance study whose base games it reads instead of playing
    (``studies.whatif_base``)."""
    kinds = job_kinds()
    if kind not in kinds:
        raise UsageError(f"job: unknown study {kind!r} (one of {', '.join(kinds)})")
    entry = kinds[kind]
    command_spec, run_spec = entry.library()
    game = entry.game
    _games(opts)
    if entry.edits and not any(opts.get(k) for k in ("edits", "variant_sides", "variant_options")):
        raise UsageError("--set: expected at least one edit (a changed field or a line)")
    takes = _takes(command_spec)
    given = {k: v for k, v in opts.items() if v is not None and v != ""}
    base_study = given.pop("base_study", None)
    if base_study is not None and not entry.edits:
        raise UsageError(f"--base-study: not an option of {kind}")
    for name in given:
        if name not in takes:
            raise UsageError(f"--{name.replace('_', '-')}: not an option of {kind}")
    for name in ("options", "variant_options"):  # a game's rule options, as JSON holds them
        if isinstance(given.get(name), dict):
            given[name] = rule_options(game, given[name])
    spec = command_spec(**given)
    for flag in ("policy", "policies"):
        if given.get(flag):
            names = given[flag] if isinstance(given[flag], list | tuple) else [given[flag]]
            names = [n for x in names for n in str(x).split(",")]
            check_players(get_game(game), names, [f"--{flag}"] * len(names))
    plan = plan_of(entry, spec)
    per_game = max((c for _, c in plan), default=1.0)
    if "block" in given:
        if given["block"] * per_game > MAX_BLOCK_COST:
            raise UsageError(
                f"--block: expected at most {max(1, int(MAX_BLOCK_COST // per_game)):,} games "
                f"with these players on the workbench (a block must end within a second, for "
                f"cancel), got {given['block']:,}"
            )
    elif spec.block * per_game > MAX_BLOCK_COST and "block" not in takes:  # a fix's look
        raise UsageError(
            f"--games-per-look: expected at most {max(1, int(MAX_BLOCK_COST // per_game)):,} "
            f"games with these players on the workbench (a look is a block, which must end "
            f"within a second, for cancel), got {spec.block:,}"
        )
    elif spec.block * per_game > MAX_BLOCK_COST:
        opts["block"] = given["block"] = max(1, int(MAX_BLOCK_COST // per_game))
        spec = command_spec(**given)
    games = sum(n for n, _ in plan)
    cost = sum(n * c for n, c in plan)
    if cost > MAX_JOB_COST:
        raise UsageError(_too_costly(given, games, cost, takes))
    threads = spec.threads
    # a study that says its state in words (a fix: candidates tried, the best so far)
    status = "status" in inspect.signature(run_spec).parameters
    run = partial(run_spec, spec)
    if base_study is not None:
        from manoeuvre_sim.web.safety import confine

        if root is None:
            raise UsageError("--base-study: a study of the workbench's studies folder only")
        run = partial(run_spec, spec, base_study=confine(root, str(base_study), "--from"))
    return Built(run, threads, game, games, cost, status)


def rule_options(game: str, fields: dict):
    """The game's ``Options`` of a job's ``options`` (a dict of its fields, as JSON holds
    them), the others at their defaults; a field the game's ``Options`` lacks refused."""
    import dataclasses

    cls = get_game(game).Options
    names = {f.name for f in dataclasses.fields(cls)}
    for name in fields:
        if name not in names:
            raise UsageError(f"--{name.replace('_', '-')}: not a rule option of {game}")
    return cls(**fields)


def plan_of(entry: JobKind, spec) -> list[tuple[int, float]]:
    """Per pairing the job may play, ``(games, cost of one game)``: the cost the sum of the
    two seats' ``policy_cost`` (the game's adapter; without one, a seat costs half a game),
    the games its fixed N or, with a precision goal, its cap; a what-if plays its base and
    then the variant's pairings."""
    cost = seat_cost(get_game(entry.game))
    if hasattr(spec, "planned_games"):  # its own bound, (pairing, games): a fix's
        return [(n, cost(p.policy_a) + cost(p.policy_b)) for p, n in spec.planned_games()]
    if hasattr(spec, "planned_pairings"):  # a what-if's, base and variant
        pairings, n = spec.planned_pairings(), spec.games_per_pairing
    else:
        pairings = spec.pairings()
        precision = getattr(spec, "precision", None)
        n = spec.max_games if precision is not None else spec.games_per_pairing
    return [(n, cost(p.policy_a) + cost(p.policy_b)) for p in pairings]


def _too_costly(given: dict, games: int, cost: float, takes=("games_per_pairing",)) -> str:
    players = given.get("policy") or given.get("policies") or "the default player"
    flag = "--games-per-pairing" if "games_per_pairing" in takes else "--max-games"
    return (
        f"{flag}: {games:,} games with {players} cost as much as {cost:,.0f} "
        f"games of the scripted players; a job from the workbench may cost at most "
        f"{MAX_JOB_COST:,} (about 8 minutes on 2 cores): ask fewer games or a smaller search "
        f"budget, or run it with the command line"
    )


def _words(flag: str, value, option) -> list[str]:
    """One option of a job as typed: a flag alone when on, once per item when the option
    is repeated (a table's items as ``NAME=VALUE``), a list's items joined by commas."""
    if value is True:
        return [flag]
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (flag, f"{k}={v}")]
    if option is not None and option.multiple and isinstance(value, list | tuple):
        return [w for v in value for w in (flag, str(v))]
    return [flag, ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)]


def _flags(game: str, study: str) -> tuple[dict, dict]:
    """The kind's declared options by keyword (its ``COMMAND``) and the game's own flags
    (its ``COMMAND_FLAGS``)."""
    from manoeuvre_sim.core.study_command import command_of
    from manoeuvre_sim.studies import find

    cmd = command_of(find(game, study))
    return {o.key: o for o in cmd.options}, hook(get_game(game), "COMMAND_FLAGS")


def option_flag(game: str, study: str, name: str) -> str:
    """The flag of the option ``name`` (a keyword) of ``game``'s command of ``study`` as
    typed: the game's own word, else the kind's declared flag, else the name's words."""
    declared, own = _flags(game, study)
    o = declared.get(name)
    return own.get(name) or (o.flag if o is not None else "--" + name.replace("_", "-"))


def command_line(kind: str, opts: dict, out: str) -> str:
    """The command a user would type for the job (``manoeuvre-sim whatif --set ...``), in
    the words of its study kind's declared options (its ``COMMAND``'s: the flag, whether
    repeated, the file a table is written to), the game's own (its ``COMMAND_FLAGS``) and
    its rule options (each ``COMMAND.game_options`` prefix: ``--flips``, ``--variant-flips``);
    any other option by its name (``games_per_pairing``: ``--games-per-pairing``)."""
    from manoeuvre_sim.core.study_command import command_of
    from manoeuvre_sim.studies import find

    entry = job_kinds()[kind]
    declared, _ = _flags(entry.game, entry.study)
    cmd = command_of(find(entry.game, entry.study))
    rules = {f"{p.replace('-', '_')}options": p for p in cmd.game_options}
    words = ["manoeuvre-sim", *kind.split()]
    given = {k: v for k, v in opts.items() if v is not None and v is not False
             and v != "" and v != [] and k not in rules and k != "base_study"}  # fmt: skip
    for name in [*(k for k in declared if k in given), *(k for k in given if k not in declared)]:
        o = declared.get(name)
        flag = option_flag(entry.game, entry.study, name)
        if o is not None and o.file is not None and isinstance(given[name], dict):
            words += [flag, f"{out}/{o.file}"]  # the table the study writes in its directory
        else:
            words += _words(flag, given[name], o)
    for key, prefix in rules.items():  # the game's rule options, as JSON holds them
        for name, value in (opts.get(key) or {}).items():
            words += ["--" + prefix + name.replace("_", "-"), str(value)]
    if opts.get("base_study"):  # the study under the studies folder its base games are of
        words += ["--base-study", str(opts["base_study"])]
    words += ["--out", out]
    return shlex.join(words)
