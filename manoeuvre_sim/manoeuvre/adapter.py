"""Manoeuvre (GMT Games) behind the game interface of the study layer (``games.Game``).

Everything here delegates to the engine and the runner as the study layer called them before
the interface existed: the records, seeds and tables are the same (issue 25; shown by
``python -m benchmarks.check_study_identity``). Besides the interface, the Manoeuvre parts of a study
live here: :class:`RuleOptions` (the rule switches of every game of a study), the army and
study data hashes, the card patches of an ablation, and ``simulate`` as a study of one pairing
(:func:`simulate_plan`).

Nothing here imports numba at module level: the registry imports this module lazily, and the
engine is imported by the functions that play.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY, RULES_VERSION
from manoeuvre_sim.manoeuvre.engine.policy_ids import POLICY_NAMES

# the balance fixer's hooks (studies/fix.py): the edit kinds, their candidates, their checks
from manoeuvre_sim.manoeuvre.fix_edits import FIX_EDIT_KINDS, apply_side_edits, fix_edits
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.results import VICTORY

KEY = "manoeuvre"
TITLE = "Manoeuvre (GMT Games)"
POLICIES = tuple(POLICY_NAMES)
# numba's cache (core/numba_cache.py reads these two from this file, without importing it):
# the prefix of its directories and its kernels' folder (None: every kernel not in another
# game's folder, Manoeuvre's and the core's); the files under manoeuvre_sim/ its kernels are
# compiled from, its cache key
NUMBA_CACHE = ("engine-", None)
ENGINE_SOURCES = ("manoeuvre/engine", "manoeuvre/combat.py", "core/jit.py", "core/rng.py")
VICTORY_KINDS = tuple(str(v) for v in VICTORY)
EXTRA_COLUMNS = (
    "tiebreak", "turn_limit", "eliminated_a", "eliminated_b", "reduced_a", "reduced_b",
    "vp_a", "vp_b", "combats_a", "combats_b", "assaults_a", "assaults_b", "cards_played_a",
    "cards_played_b", "map_nw", "rot_nw", "map_ne", "rot_ne", "map_sw", "rot_sw", "map_se",
    "rot_se",
)  # fmt: skip
CARD_BIT_COLUMNS = ("drawn_a", "drawn_b", "played_a", "played_b")  # with flags card_bits=True
STATS_DIR = "card_stats"  # the per-game card statistics (engine/cardstats.py) beside a store
# the report (games.Game, optional members): the study kinds its commands write (a
# manifest's "study"), and the module that reads them back and lays out their pages
STUDY_KINDS = ("balance", "cards", "whatif")
REPORT_MODULE = "manoeuvre_sim.analyses.manoeuvre.report"

__all__ = [
    "KEY", "TITLE", "RULES_VERSION", "POLICIES", "DEFAULT_POLICY", "ENGINE_SOURCES", "Options",
    "VICTORY_KINDS", "EXTRA_COLUMNS", "STATS_DIR", "load_side", "side_hash", "data_hash",
    "prepare", "play_block", "read_stats", "RuleOptions", "army_hash", "study_data_hash",
    "apply_patches", "simulate_plan", "simulate_manifest", "tournament_plan", "STUDY_KINDS",
    "REPORT_MODULE", "policy_cost", "FIX_EDIT_KINDS", "fix_edits", "apply_side_edits",
]  # fmt: skip

# What one seat's decisions cost, in games of the scripted players (``policy_cost``): a
# scripted seat is half a game; a search seat adds its rollouts, each of H player turns
# (``vH``) or played to the end (about FULL_ROLLOUT_TURNS). Measured on 2026-12-01 in one
# process on one thread (France against Russia, the other seat tuned; load 7-8, so each
# figure twice): search:16:tuned:v2 cost 59-162 tuned games, search:16:tuned:v1 29-76,
# search:4:tuned 268-458, search:16:tuned:v2:m10 73-93: 1.8-5 games per rollout turn, the
# upper figure taken (a job's bound errs towards less work), and 23-25 turns a rollout to
# the end.
ROLLOUT_TURN_COST = 5.0
FULL_ROLLOUT_TURNS = 24


@dataclass(frozen=True)
class RuleOptions:
    """The rule switches every game of a study is played with (as ``simulate`` has them)."""

    tournament_hand: bool = False
    advance_to_contact: bool = False
    digging_in: bool = False
    dl_forced_march: bool = False  # Distant Lands 9.2 Forced March wording (--dl-forced-march)
    max_turns: int = 200
    include_unverified_maps: bool = False
    setup: str = "random"  # rule 3 set-up, "random" or "rules" (runner.SimConfig)
    fixed_map: tuple[int, ...] | None = None  # 4 section numbers NW, NE, SW, SE
    fixed_rot: tuple[int, ...] | None = None  # their quarter turns clockwise (default 0)
    sections_file: str | None = None  # a designer's map sections joining the pool (--sections)

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise UsageError(f"--max-turns: expected a positive number, got {self.max_turns}")
        from manoeuvre_sim.manoeuvre.engine.options import check_fixed_map, map_pool, setup_mode
        from manoeuvre_sim.manoeuvre.runner import absolute

        setup_mode(self.setup)
        object.__setattr__(self, "sections_file", absolute(self.sections_file))
        # the map pool (and a --sections file) is checked here, before any game is played
        pool, left_out = map_pool(self.include_unverified_maps, self.sections_file)
        fixed_map, fixed_rot = check_fixed_map(
            self.fixed_map, self.fixed_rot, pool=pool, unverified=left_out
        )
        object.__setattr__(self, "fixed_map", fixed_map)
        object.__setattr__(self, "fixed_rot", fixed_rot)

    @classmethod
    def of(cls, config) -> RuleOptions:
        """The rule options of a ``runner.SimConfig`` (its fields of the same names)."""
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})

    def sim_fields(self) -> dict:
        """These options as keywords of ``runner.SimConfig`` (whose fields of the same names
        decide the same things), so every command builds its games' config from one place."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def describe(self) -> str:
        """The set-up in words when it is not the default (``""`` otherwise): for summaries
        and page footers (``options.describe_setup``)."""
        from manoeuvre_sim.manoeuvre.engine.options import describe_setup

        return describe_setup(self.setup, self.fixed_map, self.fixed_rot)


Options = RuleOptions


def load_side(spec: str, relax: bool = False) -> Army:
    """A built-in army by name or an army file, refused (UsageError) if it uses a rule the
    engine does not play yet."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army

    army = find_army(str(spec), relax=relax)
    check_playable(army)
    return army


def army_hash(army: Army) -> str:
    """A short hash of one army's validated data (what changes when a designer edits it)."""
    return hashlib.sha256(army.model_dump_json().encode()).hexdigest()[:16]


side_hash = army_hash


def study_data_hash(armies: Iterable[Army], options: RuleOptions) -> str:
    """A hash of every army, the terrain table and the map pool a study plays on."""
    from manoeuvre_sim.manoeuvre.model import load_map_pool, load_terrain

    terrain = load_terrain()
    h = hashlib.sha256()
    for a in sorted(armies, key=lambda a: a.name):
        h.update(a.model_dump_json().encode())
    h.update(terrain.model_dump_json().encode())
    for s in load_map_pool(options.sections_file, terrain):
        if s.verified or options.include_unverified_maps:
            h.update(s.model_dump_json().encode())
    return h.hexdigest()[:16]


data_hash = study_data_hash


def _pack_key(p) -> tuple[str, str]:
    return (army_hash(p.army_a), army_hash(p.army_b))


def prepare(pairings: Collection, options: RuleOptions) -> dict:
    """What ``play_block`` plays from: ``{"options": options, "packed": {(hash a, hash b):
    (army a, army b, engine.pack.Packed)}}``, the packed tables of each pair of armies the
    pairings play (terrain and map pool loaded once)."""
    from manoeuvre_sim.manoeuvre.engine.pack import pack
    from manoeuvre_sim.manoeuvre.model import load_map_pool, load_terrain

    terrain = load_terrain()
    sections = load_map_pool(options.sections_file, terrain)
    packed = {}
    for p in pairings:
        key = _pack_key(p)
        if key not in packed:
            P = pack(p.army_a, p.army_b, terrain, sections,
                     include_unverified=options.include_unverified_maps)  # fmt: skip
            packed[key] = (p.army_a, p.army_b, P)
    return {"options": options, "packed": packed}


def play_block(
    prepared: dict,
    pairing,
    first: int,
    count: int,
    threads: int,
    *,
    stats: bool = False,
    card_bits: bool = False,
) -> tuple:
    """Games ``first .. first + count - 1`` of ``pairing`` (``study.Pairing``: its card
    patches and parameter vectors applied) on ``threads`` numba threads.

    Returns the games as a DataFrame (the ``simulate`` columns: ``results.to_frame``) and,
    with ``stats``, their card statistics (``int32 (count, 2, n_cards, NCS)``), else None;
    ``card_bits``: the drawn/played card-copy columns too (``CARD_BIT_COLUMNS``).
    """
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    p = pairing
    options = prepared["options"]
    a, b, P = prepared["packed"][_pack_key(p)]
    cfg = SimConfig(
        p.army_a.name, p.army_b.name, games=count, seed=p.seed, first_game=first,
        policy_a=p.policy_a, policy_b=p.policy_b, params_a=p.params_a, params_b=p.params_b,
        threads=threads, chunk=count, **options.sim_fields(),
    )  # fmt: skip
    res = simulate(cfg, prepared=(a, b, apply_patches(P, p.patches)), card_stats=stats)
    if res.interrupted:
        raise KeyboardInterrupt
    df = to_frame(res.records, res.manifest, card_bits=card_bits, first_game=first)
    return df, res.card_stats


def read_stats(cs: np.ndarray) -> np.ndarray:
    """Card statistics read back from a store as int32, those written before the use fields
    appended since (USE_BANZAI) with those fields zero."""
    from manoeuvre_sim.manoeuvre.engine.cardstats import NCS

    cs = cs.astype(np.int32)
    if cs.shape[-1] < NCS:
        cs = np.concatenate([cs, np.zeros((*cs.shape[:-1], NCS - cs.shape[-1]), np.int32)], -1)
    return cs


def apply_patches(P, patches: Sequence[tuple[int, int, int]]):
    """The packed tables with card rows replaced (see ``study.Pairing.patches``); the data
    hash records the patches."""
    if not patches:
        return P
    import dataclasses

    cards = P.cards.copy()
    for side, copy, source in patches:
        n = int(P.deck_size[side])
        if not (0 <= copy < n) or not (-1 <= source < n):
            raise UsageError(f"card patch {(side, copy, source)}: copies are 0..{n - 1}")
        cards[side, copy] = 0 if source < 0 else P.cards[side, source]
    h = hashlib.sha256((P.data_hash + repr(sorted(patches))).encode()).hexdigest()[:16]
    return dataclasses.replace(P, cards=cards, data_hash=h)


def tournament_plan(
    policies: Sequence,
    games: int,
    seed: int,
    *,
    armies: Sequence[str] | None = None,
    setup: str = "random",
    fixed_map: Sequence[int] | None = None,
    fixed_rot: Sequence[int] | None = None,
    sections_file: str | None = None,
    options=None,
) -> Any:
    """The seats of the tournament of ``policies`` (``manoeuvre/tournament.py``'s
    ``Policy``: a name, a base policy, a parameter vector), played by
    ``studies/tournament.py``: ``games`` games for every pair (rounded up to a multiple of
    2 x the number of armies), each army against itself in both seatings on one seed: one
    seat per pair, army and seating (a task of the study, a part of its store). ``setup``,
    ``fixed_map``, ``fixed_rot``: the rule 3 set-up of every game (``runner.SimConfig``);
    ``sections_file``: map sections joining the pool; ``options``: instead of those, every
    rule option (:class:`RuleOptions`)."""
    from manoeuvre_sim import __version__
    from manoeuvre_sim.core.study import Pairing, Seat, TournamentPlan
    from manoeuvre_sim.manoeuvre.engine.options import describe_setup
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army, load_builtin_armies
    from manoeuvre_sim.manoeuvre.runner import rule_record, sections_record
    from manoeuvre_sim.manoeuvre.tournament import games_per_pair
    from manoeuvre_sim.manoeuvre.tournament import seed as pair_seed

    if games < 1:
        raise UsageError(f"--games: expected a positive number of games, got {games}")
    # the set-up (a fixed map against the pool) is checked before the first game
    if (
        options is None
    ):  # ``options``: a whole manoeuvre.adapter.RuleOptions (the CLI's game options)
        options = RuleOptions(
            setup=setup, fixed_map=fixed_map, fixed_rot=fixed_rot, sections_file=sections_file
        )
    setup = options.setup
    armies = list(armies) if armies else [a.name for a in load_builtin_armies()]
    loaded = {name: find_army(name) for name in armies}
    for a in loaded.values():
        check_playable(a)
    per = games_per_pair(games, len(armies)) // (2 * len(armies))  # per army and seating
    pairs = [(i, j) for i in range(len(policies)) for j in range(i + 1, len(policies))]
    seats: list[Seat] = []  # per pair, army and seating; both seatings on one seed
    for k, (i, j) in enumerate(pairs):
        x, y = policies[i], policies[j]
        for army in armies:
            s = pair_seed(seed, x.name, y.name, army)
            for swap in (False, True):
                pa, pb = (y, x) if swap else (x, y)
                pairing = Pairing(loaded[army], loaded[army], pa.base, pb.base, s, f"pair{k}",
                                  params_a=pa.params, params_b=pb.params)  # fmt: skip
                columns = {"pair": k, "policy_a": pa.name, "policy_b": pb.name,
                           "block_seed": s, "army": army}  # fmt: skip
                seats.append(Seat(k, swap, pairing, per, columns))
    data_hash = study_data_hash(loaded.values(), options)
    manifest = {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "game": KEY,
        "study": "tournament",
        "seed": seed,
        "games_per_pair": 2 * len(armies) * per,
        "armies": armies,
        "policies": {p.name: {"base": p.base, "params": list(p.params)} for p in policies},
        "data_hash": data_hash,
        "setup": setup,
        "fixed_map": None if options.fixed_map is None else list(options.fixed_map),
        "fixed_rot": None if options.fixed_rot is None else list(options.fixed_rot),
        "setup_text": describe_setup(setup, options.fixed_map, options.fixed_rot),
        **sections_record(options.sections_file),
        **rule_record(options),
    }
    # what decides the games of a part (the number of games is the task's own)
    ident = {k: v for k, v in manifest.items() if k not in ("games_per_pair", "setup_text")}
    names = [(policies[i].name, policies[j].name) for i, j in pairs]
    return TournamentPlan(names, seats, options, ident, manifest)


def simulate_plan(config, prepared: tuple, *, block: int, card_bits: bool = False):
    """``simulate`` as a study of one pairing (``studies/simulate.py``): games
    ``config.first_game ..`` of ``config`` (``runner.SimConfig``) with ``prepared``
    (``runner.prepare``'s armies and packed data); ``card_bits``: the drawn/played columns."""
    from manoeuvre_sim.core.study import Pairing, SimulatePlan
    from manoeuvre_sim.manoeuvre.runner import config_dict

    a, b, P = prepared
    c = config
    pairing = Pairing(a, b, c.policy_a, c.policy_b, c.seed, "games",
                      params_a=c.params_a, params_b=c.params_b)  # fmt: skip
    settings = {
        k: v
        for k, v in config_dict(c).items()
        if k not in ("games", "threads", "chunk", "first_game")
    }
    ident = {"study": "simulate", "rules_version": RULES_VERSION, "data_hash": P.data_hash,
             "config": settings, "card_bits": card_bits, "block": block}  # fmt: skip
    return SimulatePlan(pairing, c.first_game, c.games, RuleOptions.of(c), ident,
                        {"card_bits": card_bits})  # fmt: skip


def simulate_manifest(config, prepared: tuple, frame, outcome, *, block: int) -> dict:
    """The manifest of ``simulate``'s output (``runner.run_manifest``) once ``outcome`` (the
    study's ``PlayOutcome``) has played ``frame``."""
    from manoeuvre_sim.manoeuvre.runner import policy_arrays, run_manifest

    a, b, P = prepared
    params = policy_arrays(config)[1]
    manifest = run_manifest(config, a, b, P, params, len(frame), outcome.interrupted,
                            outcome.threads, outcome.seconds)  # fmt: skip
    manifest["backend"] = outcome.backend
    manifest["block"] = block
    return manifest


# the warm-up kinds (core/warmup.py): about how long each batch kernel compiles cold on 2
# cores. Measured on 2026-11-28 one after another in a fresh numba cache (1-minute load
# average 1.0-2.6 on the shared machine): the engine and the heuristic players 99 s, then the
# card kernels 12 s and the search player's 131 s (they reuse the rules compiled for the
# first and add their own functions: 12 and 127). Earlier figures: 55 s for the first
# (``python -m benchmarks speed``'s cold compile, docs/benchmarks.md, RESULTS-speed.md), 112 s
# before the players went behind a function pointer.
WARMUP = {"games": 100, "cards": 15, "search": 130}


def warmup_kernel(kind: str):
    """The batch kernel ``kind`` and arguments of the types ``runner.simulate`` passes it
    through ``batch.play_games*`` (two games of the default player, France against
    Russia)."""
    import numpy as np

    from manoeuvre_sim.manoeuvre.engine import batch
    from manoeuvre_sim.manoeuvre.engine.cardstats import NCS
    from manoeuvre_sim.manoeuvre.engine.options import rule_options
    from manoeuvre_sim.manoeuvre.engine.pack import load_packed
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays, search_config

    _, _, P = load_packed("France", "Russia")
    opt = rule_options()
    n = 2
    out = np.zeros((n, batch.NREC), dtype=np.int32)
    if kind == "games":
        pol, params = policy_arrays("balanced", "balanced")
        return batch.play_range, (1, 0, 0, n, P.tables, pol, params, opt, out)
    if kind == "cards":
        pol, params = policy_arrays("balanced", "balanced")
        cs = np.zeros((n, 2, int(P.deck_size.max()), NCS), dtype=np.int32)
        return batch.play_range_cards, (1, 0, 0, n, P.tables, pol, params, opt, out, cs)
    if kind == "search":
        pol, params = policy_arrays("search:1", "balanced")
        scfg = search_config("search:1", "balanced")
        cs = np.zeros((0, 2, 0, NCS), dtype=np.int32)
        return batch.play_range_search, (1, 0, 0, n, P.tables, pol, params, scfg, opt, out, cs)
    raise ValueError(f"unknown kernel {kind!r}; expected one of {', '.join(WARMUP)}")


def policy_cost(spec: str) -> float:
    """One seat's share of a game's cost with the player ``spec``, in games of the scripted
    players (a game of two scripted seats costs 1): ``0.5`` for a scripted player, plus
    ``budget x turns x ROLLOUT_TURN_COST`` for a search player (the workbench bounds a job
    by it, ``web/jobs/kinds.py``). A bad spec raises the UsageError of ``parse_policy``."""
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import parse_policy, search_options

    name, budget, _ = parse_policy(spec, "--policy")
    if name != "search":
        return 0.5
    horizon, _, _ = search_options(spec, "--policy")
    return 0.5 + budget * (horizon or FULL_ROLLOUT_TURNS) * ROLLOUT_TURN_COST


# ---------------------------------------------------------------------- the workbench (web)
# What the game shows in the workbench (its odds pages, board, replay, job forms and study
# pages): the module's names are documented in manoeuvre_sim/web/game_parts.py. Named,
# never imported, here (a game cannot import the web layer), as REPORT_MODULE is.
WEB_MODULE = "manoeuvre_sim.web.games.manoeuvre"
