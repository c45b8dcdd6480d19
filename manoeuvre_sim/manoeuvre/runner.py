"""Run many games: configuration, seeding, chunks, threads, progress and interruption.

``simulate(config)`` returns the raw records (one row per game) plus a manifest; the
results module turns them into a DataFrame and files. The same seed gives the same rows
whatever ``threads`` and ``chunk`` are.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY, RULES_VERSION
from manoeuvre_sim.manoeuvre.engine.policy_ids import POLICY_NAMES, is_search

POLICIES = POLICY_NAMES  # the policy names (engine/policy_ids.py, a leaf: no numba)
SEARCH_CHUNK = 16  # a search player's games per thread in one kernel call (search_chunks)


def check_policy(spec: str, where: str) -> str:
    """``spec`` if it names a policy (``engine/players/dispatch.py``: a name, or
    ``search:BUDGET:STYLE``), else a UsageError naming ``where``."""
    from manoeuvre_sim.core.errors import did_you_mean
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import parse_policy
    from manoeuvre_sim.manoeuvre.engine.policy_ids import POLICY_NAMES

    try:
        parse_policy(spec, where)
    except UsageError as e:
        name = str(spec).split(":")[0]
        hint = "" if name in POLICY_NAMES else did_you_mean(name, POLICY_NAMES)
        if not hint:
            raise
        typed = f"unknown policy {spec!r}"
        raise UsageError(str(e).replace(typed, typed + hint, 1)) from None
    return spec


@dataclass(frozen=True)
class SimConfig:
    """One batch of games between army A (player 0) and army B (player 1)."""

    army_a: str
    army_b: str
    games: int = 1000
    seed: int = 1
    first_game: int = 0  # play games first_game .. first_game + games - 1 of this seed
    policy_a: str = DEFAULT_POLICY
    policy_b: str = DEFAULT_POLICY
    threads: int = 0  # 0: all cores
    chunk: int = 2048
    tournament_hand: bool = False
    advance_to_contact: bool = False
    digging_in: bool = False
    dl_forced_march: bool = False  # Distant Lands 9.2 Forced March wording (--dl-forced-march)
    max_turns: int = 200
    include_unverified_maps: bool = False
    sections_file: str | None = None  # a designer's map sections joining the pool (--sections)
    # rule 3 set-up: "random" (sections and rotations drawn, army A at the bottom) or "rules"
    # (the first player lays the map, the second chooses its edge; engine/setup.py)
    setup: str = "random"
    fixed_map: tuple[int, ...] | None = None  # 4 section numbers NW, NE, SW, SE (--map)
    fixed_rot: tuple[int, ...] | None = None  # their quarter turns clockwise (--rot; default 0)
    relax: bool = False
    check_invariants: bool = False
    check_fair_play: int = 0  # pol[2] flags (game.FLAG_*): 1 re-decides on a fogged state
    # parameter vectors overriding the named policies' defaults (style variants, tuning)
    params_a: tuple[float, ...] | None = None
    params_b: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.games < 1:
            raise UsageError(f"--games: expected a positive number of games, got {self.games}")
        if self.first_game < 0:
            raise UsageError(f"first_game: expected 0 or more, got {self.first_game}")
        if not (0 <= self.seed < 2**63):
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        for side, pol in (("a", self.policy_a), ("b", self.policy_b)):
            check_policy(pol, f"--policy-{side}")
        if self.threads < 0:
            raise UsageError(f"--threads: expected 0 (all cores) or more, got {self.threads}")
        object.__setattr__(self, "sections_file", absolute(self.sections_file))
        if self.chunk < 1:
            raise UsageError(f"chunk: expected a positive size, got {self.chunk}")
        if self.max_turns < 1:
            raise UsageError(f"max_turns: expected a positive number, got {self.max_turns}")
        from manoeuvre_sim.manoeuvre.engine.options import check_fixed_map, setup_mode

        setup_mode(self.setup)
        fixed_map, fixed_rot = check_fixed_map(self.fixed_map, self.fixed_rot)
        object.__setattr__(self, "fixed_map", fixed_map)  # as tuples, rotations filled in
        object.__setattr__(self, "fixed_rot", fixed_rot)


@dataclass
class SimResult:
    records: np.ndarray  # int32 (n_done, NREC)
    manifest: dict = field(default_factory=dict)
    interrupted: bool = False
    # with card_stats: int32 (n_done, 2, n_cards, engine.cardstats.NCS), else None
    card_stats: np.ndarray | None = None


def prepare(config: SimConfig):
    """Load and pack the data a config names (armies, terrain, map sections); a fixed map's
    sections are checked against the pool."""
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed

    prepared = load_packed(
        config.army_a,
        config.army_b,
        relax=config.relax,
        include_unverified_maps=config.include_unverified_maps,
        sections_file=config.sections_file,
    )
    check_map_pool(config, prepared[2].section_numbers)
    return prepared


def absolute(path: str | None) -> str | None:
    """``path`` made absolute (so a manifest names the same file from any directory)."""
    from pathlib import Path

    return str(Path(path).resolve()) if path else None


def config_dict(config) -> dict:
    """A config (``SimConfig``, ``study.RuleOptions``) as a manifest records it; an unset
    ``sections_file`` and an unset ``dl_forced_march`` are left out, so a manifest without
    ``--sections`` or ``--dl-forced-march`` reads as before them."""
    out = asdict(config)
    if out.get("sections_file") is None:
        out.pop("sections_file", None)
    if not out.get("dl_forced_march", True):
        out.pop("dl_forced_march", None)
    return out


RULE_DEFAULTS = {
    "tournament_hand": False, "advance_to_contact": False, "digging_in": False,
    "dl_forced_march": False, "max_turns": 200,
}  # fmt: skip


def rule_record(options) -> dict:
    """The rule options (``study.RuleOptions``, ``SimConfig``) that differ from their
    defaults, as a manifest records them beside the set-up (none: an older manifest's
    keys, unchanged)."""
    return {k: getattr(options, k) for k, v in RULE_DEFAULTS.items() if getattr(options, k) != v}


def sections_record(sections_file: str | None) -> dict:
    """The manifest's record of a designer's sections file: ``{"sections_file": path,
    "sections_hash": hash of its sections}``, or nothing without ``--sections``."""
    if not sections_file:
        return {}
    from manoeuvre_sim.manoeuvre.model import load_sections, sections_hash

    return {
        "sections_file": str(sections_file),
        "sections_hash": sections_hash(load_sections(sections_file)),
    }


def check_map_pool(config: SimConfig, section_numbers=None) -> None:
    """A UsageError naming ``--map`` unless the fixed map's sections are in the pool
    (``section_numbers``, the packed pool; None: the pool the config names)."""
    if config.fixed_map is None:
        return
    from manoeuvre_sim.manoeuvre.engine.options import check_fixed_map, map_pool

    pool, left_out = map_pool(config.include_unverified_maps, config.sections_file)
    if section_numbers is not None:
        pool = section_numbers
    check_fixed_map(config.fixed_map, config.fixed_rot, pool=pool, unverified=left_out)


def rule_options(config: SimConfig) -> np.ndarray:
    """The kernels' rule option array of ``config`` (its invariant checks as it asks)."""
    return options_array(config, check=config.check_invariants)


def options_array(options, *, check: bool = False) -> np.ndarray:
    """The kernels' rule option array of ``options`` (a ``SimConfig`` or the study's
    ``adapter.RuleOptions``: the rule switches and the set-up); ``check``: the engine's
    invariant checks too."""
    from manoeuvre_sim.manoeuvre.engine.options import rule_options as engine_options

    return engine_options(
        tournament_hand=options.tournament_hand,
        advance_to_contact=options.advance_to_contact,
        digging_in=options.digging_in,
        dl_forced_march=options.dl_forced_march,
        max_turns=options.max_turns,
        check=check,
        setup=options.setup,
        fixed_map=options.fixed_map,
        fixed_rot=options.fixed_rot,
    )


def policy_arrays(config: SimConfig) -> tuple[np.ndarray, np.ndarray]:
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays as arrays

    return arrays(
        config.policy_a,
        config.policy_b,
        fair_play=config.check_fair_play,
        params_a=config.params_a,
        params_b=config.params_b,
    )


def traced_game(
    config: SimConfig,
    game: int,
    *,
    prepared: tuple | None = None,
    max_events: int = 200_000,
    check: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of ``config.seed`` with its event trace: the game ``simulate``
    plays as that index with this config (the same packed data, rule options and policy
    arrays: every option that changes a game reaches the replay from here). Returns
    ``(state, trace)``, ``trace`` ``ndarray(int32, (n, 6))`` rows of ``engine/rules.py``
    EV_* events; ``check``: the engine's invariant checks too (they draw no random number)."""
    from dataclasses import replace

    from manoeuvre_sim.manoeuvre.engine.trace import play_tables_traced

    if prepared is None:
        prepared = prepare(config)
    opt = rule_options(replace(config, check_invariants=check))
    pol, params = policy_arrays(config)
    policies = (config.policy_a, config.policy_b)
    return play_tables_traced(
        prepared[2].tables, pol, params, opt, policies, config.seed, game, max_events
    )


def simulate(
    config: SimConfig,
    progress: Callable[[int, int], None] | None = None,
    *,
    prepared: tuple | None = None,
    card_stats: bool = False,
) -> SimResult:
    """Play ``config.games`` games (game indices from ``config.first_game``);
    ``progress(done, total)`` is called after each chunk.

    ``prepared``: what ``prepare(config)`` returns, when the caller already has it (a
    tournament plays many configs over the same armies and data).

    ``card_stats``: also take each game's per-card-copy statistics (from its event trace;
    the records are the same either way).

    A KeyboardInterrupt between chunks stops the run and returns the finished games with
    ``interrupted=True`` (a chunk in flight is discarded whole).
    """
    from manoeuvre_sim.manoeuvre.engine.batch import NREC
    from manoeuvre_sim.manoeuvre.engine.cardstats import NCS

    if prepared is None:
        prepared = prepare(config)
    else:
        check_map_pool(config, prepared[2].section_numbers)
    a, b, P = prepared
    opt = rule_options(config)
    pol, params = policy_arrays(config)
    threads = set_threads(config.threads)
    out = np.zeros((config.games, NREC), dtype=np.int32)
    cs = None
    if card_stats:
        cs = np.zeros((config.games, 2, int(P.deck_size.max()), NCS), dtype=np.int32)
    scfg, chunk = search_chunks(config.policy_a, config.policy_b, config.chunk, threads)
    done = 0
    interrupted = False
    t0 = time.perf_counter()
    try:
        while done < config.games:
            n = min(chunk, config.games - done)
            sl = slice(done, done + n)
            play_chunk(config.seed, config.first_game + done, n, P.tables, pol, params, opt,
                       out[sl], None if cs is None else cs[sl], scfg)  # fmt: skip
            done += n
            if progress:
                progress(done, config.games)
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - t0
    manifest = run_manifest(config, a, b, P, params, done, interrupted, threads, elapsed)
    return SimResult(
        records=out[:done].copy(),
        manifest=manifest,
        interrupted=interrupted,
        card_stats=cs[:done].copy() if cs is not None else None,
    )


def set_threads(threads: int) -> int:
    """Numba's thread count for the batch kernels: ``threads`` (0: all cores) at most the
    cores numba has; returns it."""
    import numba

    threads = threads or numba.config.NUMBA_NUM_THREADS
    threads = min(threads, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(threads)
    return threads


def search_chunks(policy_a: str, policy_b: str, chunk: int, threads: int):
    """``(scfg, chunk)``: the search player's configuration (None when neither seat
    searches) and the games per kernel call. A search game takes from tens of milliseconds
    (the value search) to a second: chunks of 16 games per thread keep progress moving and
    an interruption cheap, and make the threads' wait for the chunk's last game (they take
    its games one by one, ``batch.play_games_search``) a small share (the records do not
    depend on the chunking)."""
    if not (is_search(policy_a) or is_search(policy_b)):
        return None, chunk
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import search_config

    return search_config(policy_a, policy_b), min(chunk, SEARCH_CHUNK * threads)


def play_chunk(seed, first, n, tables, pol, params, opt, out, cs, scfg) -> None:
    """Games ``first .. first + n - 1`` into ``out`` (and their card statistics into ``cs``,
    unless None) by the batch kernel that fits: the search player's (``scfg`` given), the
    card statistics', or the plain one."""
    from manoeuvre_sim.manoeuvre.engine.batch import (
        TRACE_ROWS,
        play_games,
        play_games_cards,
        play_games_search,
    )
    from manoeuvre_sim.manoeuvre.engine.cardstats import NCS

    if scfg is not None:
        no_cs = np.zeros((0, 2, 0, NCS), dtype=np.int32)
        over = play_games_search(seed, first, n, tables, pol, params, scfg, opt, out,
                                 no_cs if cs is None else cs)  # fmt: skip
    elif cs is None:
        over = 0
        play_games(seed, first, n, tables, pol, params, opt, out)
    else:
        over = play_games_cards(seed, first, n, tables, pol, params, opt, out, cs)
    if over:
        raise UsageError(
            f"card statistics: a game logged more than {TRACE_ROWS} events (raise "
            "engine.batch.TRACE_ROWS or lower --max-turns)"
        )


def run_manifest(config: SimConfig, a, b, P, params, done: int, interrupted: bool,
                 threads: int, seconds: float) -> dict:  # fmt: skip
    """The manifest of a ``simulate`` output: the seed, configuration, rules version, data
    hash, map pool, games, threads, time and the policies' parameter vectors (and value
    models)."""
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import value_record

    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "config": config_dict(config),
        "army_a": a.name,
        "army_b": b.name,
        "data_hash": P.data_hash,
        "map_pool": [int(x) for x in P.section_numbers],
        **sections_record(config.sections_file),
        "games_requested": config.games,
        "games_done": done,
        "interrupted": interrupted,
        "threads": threads,
        "seconds": round(seconds, 3),
        # the parameter vectors the policies played with (engine/players/params.py PARAM_NAMES)
        "policy_params": {"a": params[0].tolist(), "b": params[1].tolist()},
        # a value search's model file (issue 26): its name and hash, per seat
        "value_models": {
            "a": value_record(config.policy_a),
            "b": value_record(config.policy_b),
        },
    }
