"""Manoeuvre (GMT Games) behind the game interface of the study layer (``games.Game``).

Everything here delegates to the engine and the runner as the study layer called them before
the interface existed: the records, seeds and tables are the same (issue 25; shown by
``python -m benchmarks.check_study_identity``). Besides the interface, the Manoeuvre parts of a study
live here: :class:`RuleOptions` (the rule switches of every game of a study), the army and
study data hashes, the card patches of an ablation, the seats of a tournament
(:func:`tournament_plan`) and ``simulate`` as a study of one pairing (:func:`simulate_plan`).

Nothing here imports numba at module level: the registry imports this module lazily, and the
engine is imported by the functions that play.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from typing import Any

import numpy as np

from manoeuvre_sim.core.data import model_json
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY, RULES_VERSION
from manoeuvre_sim.manoeuvre.engine.policy_ids import POLICY_NAMES

# the balance fixer's hooks (studies/fix.py): the edit kinds, their candidates, their checks
from manoeuvre_sim.manoeuvre.fix_edits import (
    FIX_EDIT_KINDS,
    apply_side_edits,
    fix_edits,
    fix_write,
)
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.results import VICTORY
from manoeuvre_sim.manoeuvre.rule_options import RuleOptions

# the why study's hooks (studies/why.py): an army's parts and their neutral reference
from manoeuvre_sim.manoeuvre.why_parts import WHY_REFERENCE, why_pairing, why_parts

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
    "apply_patches", "simulate_plan", "tournament_plan", "STUDY_KINDS",
    "REPORT_MODULE", "policy_cost", "FIX_EDIT_KINDS", "fix_edits", "apply_side_edits",
    "fix_write", "rebuild_trace", "REPLAY_WARMUP", "WHY_REFERENCE", "why_pairing",
    "why_parts", "why_value",
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
    return hashlib.sha256(model_json(army)).hexdigest()[:16]


side_hash = army_hash


def study_data_hash(armies: Iterable[Army], options: RuleOptions) -> str:
    """A hash of every army, the terrain table and the map pool a study plays on."""
    from manoeuvre_sim.manoeuvre.model import load_map_pool, load_terrain

    terrain = load_terrain()
    h = hashlib.sha256()
    for a in sorted(armies, key=lambda a: a.name):
        h.update(model_json(a))
    h.update(model_json(terrain))
    for s in load_map_pool(options.sections_file, terrain):
        if s.verified or options.include_unverified_maps:
            h.update(model_json(s))
    return h.hexdigest()[:16]


data_hash = study_data_hash


def _pack_key(p) -> tuple[str, str]:
    return (army_hash(p.army_a), army_hash(p.army_b))


def prepare(pairings: Collection, options: RuleOptions) -> dict:
    """What ``play_block`` plays from, packed once for a study: ``{"options": options,
    "opt": the kernels' rule option array, "packed": {(hash a, hash b): (army a, army b,
    engine.pack.Packed)}}``, the packed tables of each pair of armies the pairings play
    (terrain and map pool loaded once; a fixed map was checked against the same pool when
    the options were made)."""
    from manoeuvre_sim.manoeuvre.engine.pack import pack
    from manoeuvre_sim.manoeuvre.model import load_map_pool, load_terrain
    from manoeuvre_sim.manoeuvre.runner import options_array

    terrain = load_terrain()
    sections = load_map_pool(options.sections_file, terrain)
    packed = {}
    for p in pairings:
        key = _pack_key(p)
        if key not in packed:
            P = pack(p.army_a, p.army_b, terrain, sections,
                     include_unverified=options.include_unverified_maps)  # fmt: skip
            packed[key] = (p.army_a, p.army_b, P)
    return {"options": options, "opt": options_array(options), "packed": packed}


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
    patches and parameter vectors applied) on ``threads`` numba threads, by the batch
    kernel (``runner.play_chunk``) with what :func:`prepare` packed.

    Returns the games as a DataFrame (the ``simulate`` columns: ``results.to_frame``) and,
    with ``stats``, their card statistics (``int32 (count, 2, n_cards, NCS)``), else None;
    ``card_bits``: the drawn/played card-copy columns too (``CARD_BIT_COLUMNS``).
    """
    from manoeuvre_sim.manoeuvre.engine.batch import NREC
    from manoeuvre_sim.manoeuvre.engine.cardstats import NCS
    from manoeuvre_sim.manoeuvre.engine.players import policy_arrays
    from manoeuvre_sim.manoeuvre.results import to_frame
    from manoeuvre_sim.manoeuvre.runner import play_chunk, search_chunks, set_threads

    p = pairing
    P = apply_patches(prepared["packed"][_pack_key(p)][2], p.patches)
    pol, params = policy_arrays(p.policy_a, p.policy_b, params_a=p.params_a,
                                params_b=p.params_b)  # fmt: skip
    threads = set_threads(threads)
    out = np.zeros((count, NREC), dtype=np.int32)
    cs = np.zeros((count, 2, int(P.deck_size.max()), NCS), dtype=np.int32) if stats else None
    scfg, chunk = search_chunks(p.policy_a, p.policy_b, count, threads)
    for lo in range(0, count, chunk):
        sl = slice(lo, min(lo + chunk, count))
        play_chunk(p.seed, first + lo, sl.stop - lo, P.tables, pol, params, prepared["opt"],
                   out[sl], None if cs is None else cs[sl], scfg)  # fmt: skip
    seats = {"army_a": p.army_a.name, "army_b": p.army_b.name,
             "config": {"seed": p.seed, "policy_a": p.policy_a, "policy_b": p.policy_b}}  # fmt: skip
    return to_frame(out, seats, card_bits=card_bits, first_game=first), cs


def read_stats(cs: np.ndarray) -> np.ndarray:
    """Card statistics read back from a store as int32, those written before the use fields
    appended since (USE_BANZAI) with those fields zero."""
    from manoeuvre_sim.manoeuvre.engine.cardstats import NCS

    cs = cs.astype(np.int32)
    if cs.shape[-1] < NCS:
        cs = np.concatenate([cs, np.zeros((*cs.shape[:-1], NCS - cs.shape[-1]), np.int32)], -1)
    return cs


def why_value(pairing, game: int, options) -> tuple[str, list[dict]]:
    """The learned position value along game ``game`` of ``pairing`` as a study played it
    (the why study's hook, ``core/game_hooks.py``; ``why_value.value_along``)."""
    from manoeuvre_sim.manoeuvre.why_value import value_along

    prepared = prepare([pairing], options)
    P = apply_patches(prepared["packed"][_pack_key(pairing)][2], pairing.patches)
    return value_along(pairing, game, P.tables, prepared["opt"])


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
    players: Sequence,
    games: int,
    seed: int,
    *,
    sides: Sequence[str] | None = None,
    options: RuleOptions | None = None,
) -> Any:
    """The seats of the tournament of ``players`` (policy specs, or ``styles.Policy``: a
    name, a base policy, a parameter vector), played by ``studies/tournament.py``:
    ``games`` games for every pair (rounded up to a multiple of 2 x the number of armies),
    each of ``sides`` (armies: names or files; None: every base army) against itself in
    both seatings on one seed: one seat per pair, army and seating (a task of the study, a
    part of its store); ``options``: the rule options of every game (None: the defaults)."""
    from manoeuvre_sim import __version__
    from manoeuvre_sim.core.study import Pairing, Seat, TournamentPlan
    from manoeuvre_sim.manoeuvre.engine.options import describe_setup
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies
    from manoeuvre_sim.manoeuvre.runner import rule_record, sections_record
    from manoeuvre_sim.manoeuvre.styles import Policy, games_per_pair, resolve
    from manoeuvre_sim.manoeuvre.styles import seed as pair_seed

    policies = resolve([p.name if isinstance(p, Policy) else p for p in players],
                       {p.name: p for p in players if isinstance(p, Policy)})  # fmt: skip
    if games < 1:
        raise UsageError(f"--games: expected a positive number, got {games}")
    options = options if options is not None else RuleOptions()
    setup = options.setup
    # each army checked playable before any game, and named as the records name it
    chosen = [load_side(s) for s in (sides or [a.name for a in load_builtin_armies()])]
    loaded = {a.name: a for a in chosen}
    armies = [a.name for a in chosen]
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


def simulate_plan(spec):
    """``simulate`` as a study of one pairing (``studies/simulate.py``, its
    ``SimulateSpec``): games ``first ..`` of army ``side_a`` against ``side_b`` (names or
    files, loaded with ``relax``; a fixed map checked against the pool) as
    ``runner.SimConfig`` has them; ``flags``:
    ``{"card_bits": True}`` for the drawn/played columns. The plan's manifest is
    ``runner.run_manifest``'s, the run's figures filled in by the study."""
    from manoeuvre_sim.core.study import Pairing, SimulatePlan
    from manoeuvre_sim.manoeuvre.runner import (
        SimConfig,
        config_dict,
        policy_arrays,
        prepare,
        run_manifest,
    )

    s = spec
    options = s.options if s.options is not None else RuleOptions()
    flags = dict(s.flags or {})
    unknown = set(flags) - {"card_bits"}
    if unknown:
        raise UsageError(f"simulate flags {sorted(unknown)}: Manoeuvre's are card_bits")
    card_bits = bool(flags.get("card_bits", False))
    c = SimConfig(s.side_a, s.side_b, games=s.games, seed=s.seed, first_game=s.first,
                  policy_a=s.policy_a or DEFAULT_POLICY, policy_b=s.policy_b or DEFAULT_POLICY,
                  threads=s.threads, relax=s.relax, params_a=s.params_a, params_b=s.params_b,
                  **options.sim_fields())  # fmt: skip
    a, b, P = prepare(c)  # armies loaded, a fixed map checked against the pool
    pairing = Pairing(a, b, c.policy_a, c.policy_b, c.seed, "games",
                      params_a=c.params_a, params_b=c.params_b)  # fmt: skip
    settings = {
        k: v
        for k, v in config_dict(c).items()
        if k not in ("games", "threads", "chunk", "first_game")
    }
    ident = {"study": "simulate", "rules_version": RULES_VERSION, "data_hash": P.data_hash,
             "config": settings, "card_bits": card_bits, "block": s.block}  # fmt: skip
    params = policy_arrays(c)[1]
    # the run's figures (games done, interrupted, threads, seconds) keep their places
    manifest = run_manifest(c, a, b, P, params, 0, False, 0, 0.0)
    return SimulatePlan(pairing, c.first_game, c.games, options, ident,
                        {"card_bits": card_bits}, manifest)  # fmt: skip


# the warm-up kinds (core/warmup.py): about how long each batch kernel compiles cold on 2
# cores. Measured on 2026-11-28 one after another in a fresh numba cache (1-minute load
# average 1.0-2.6 on the shared machine): the engine and the heuristic players 99 s, then the
# card kernels 12 s and the search player's 131 s (they reuse the rules compiled for the
# first and add their own functions: 12 and 127). Earlier figures: 55 s for the first
# (``python -m benchmarks speed``'s cold compile, docs/benchmarks.md, RESULTS-speed.md), 112 s
# before the players went behind a function pointer.
WARMUP = {"games": 100, "cards": 15, "search": 130}
# the game the workbench replays before it serves (its traced kernels compiled: the
# REPLAY_WARMUP hook), the built-in armies of warmup_kernel's games
REPLAY_WARMUP = {"army_a": "France", "army_b": "Russia"}


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


def rebuild_trace(header: dict, events: list[dict]) -> dict:
    """A JSONL trace's final position, from its events alone (``trace_rebuild.py``; the
    ``rebuild_trace`` hook, ``core.trace_reader.rebuild``)."""
    from manoeuvre_sim.manoeuvre.trace_rebuild import rebuild_trace as rebuild

    return rebuild(header, events)


def policy_cost(spec: str) -> float:
    """One seat's share of a game's cost with the player ``spec``, in games of the scripted
    players (a game of two scripted seats costs 1): ``0.5`` for a scripted player, plus
    ``budget x turns x ROLLOUT_TURN_COST`` for a search player (the workbench bounds a job
    by it, ``web/jobs_kinds``). A bad spec raises the UsageError of ``parse_policy``."""
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import parse_policy, search_options

    name, budget, _ = parse_policy(spec, "--policy")
    if name != "search":
        return 0.5
    horizon, _, _ = search_options(spec, "--policy")
    return 0.5 + budget * (horizon or FULL_ROLLOUT_TURNS) * ROLLOUT_TURN_COST


# ------------------------------------------------------------ the what-if's hooks (issue 39)
# studies/whatif.py asks these of a game (declared in core.games.HOOKS): the command's
# options -> the spec (the edits of a side: apply_side_edits, the fixer's hook), the manifest,
# the changed armies' files (whatif_variant.py); the summary and the PDF are the analyses'
# (WHATIF_PAGES)
from manoeuvre_sim.manoeuvre import whatif_variant as _whatif  # noqa: E402

WHATIF_PAGES = "manoeuvre_sim.analyses.manoeuvre.whatif"
whatif_write = _whatif.whatif_write


def whatif_command(
    armies: str | Sequence | None = None,
    *,
    policy: str | None = DEFAULT_POLICY,
    policy_a: str | None = None,
    policy_b: str | None = None,
    policies: str | None = None,
    games_per_pairing: int = _whatif.DEFAULT_GAMES,
    seed: int = 1,
    options=None,
    precision: float | None = None,
    max_games: int = 20000,
    block: int = _whatif.DEFAULT_BLOCK,
    threads: int = 0,
    first_game: int = 0,
    relax: bool = False,
    variant_files: Sequence[str] = (),
    edits: Sequence[str] = (),
) -> dict:
    """``manoeuvre-sim whatif``'s options (the balance study's, then the variant) -> the
    what-if's fields (``studies.whatif.WhatIfSpec``): the armies loaded, each ``--variant``
    file replacing the base army of its name, then the ``--set`` edits applied to their
    armies (:func:`apply_side_edits`, the fixer's hook); every option checked before any
    game."""
    pair = _whatif.players(policy, policy_a, policy_b, policies)
    loaded, sources = _whatif.load_field(armies, relax)
    if precision is not None:
        raise UsageError("whatif: --precision is not available; give --games-per-pairing")
    if first_game:
        raise UsageError("--first-game: not with whatif (it plays games 0 .. N - 1 of a pairing)")
    del max_games  # a fixed N: no cap to record
    variant, touched, changes = _whatif.make_variant(loaded, variant_files, edits, relax=relax)
    return {
        "sides": tuple(loaded), "sources": tuple(sources), "policies": (pair,),
        "games_per_pairing": games_per_pairing, "seed": seed,
        "options": RuleOptions() if options is None else options, "block": block,
        "threads": threads, "variant_sides": variant, "touched": touched,
        "changes": changes, "edits": tuple(edits),
    }  # fmt: skip


def whatif_manifest(spec, variant_options=None, where=None) -> dict:
    """What decides a what-if's games: the common fields, the balance study's description
    of the base armies and its one pair of players (:func:`balance_manifest`), ``study``
    ``whatif``, and the variant (the touched armies, the changes, each changed army's data
    hash)."""
    import datetime as _dt
    import platform

    from manoeuvre_sim import __version__
    from manoeuvre_sim.core.study import PolicySpec

    (pa, pb), *_ = spec.policies
    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "game": KEY,  # games.GAMES: a store of one game is never resumed as another's
        "study": "whatif",
        "seed": spec.seed,
        **describe_armies(
            spec.sides, spec.sources, spec.names, (PolicySpec(pa, pb),), 0, spec.options
        ),
        "games_per_pairing": spec.games_per_pairing,
        "precision": None,
        "max_games": None,
        "block": spec.block,
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
        "variant": {
            "touched": list(spec.touched),
            "changes": list(spec.changes),
            "armies": [
                {"name": a.name, "data_hash": army_hash(a)}
                for a in spec.variant_sides
                if a.name in spec.touched
            ],  # fmt: skip
        },
    }


__all__ += ["WHATIF_PAGES", "whatif_command", "whatif_manifest", "whatif_write"]


# ------------------------------------------------------------------ the balance study's hooks
# (studies/balance.py): what the study compares (the armies named, the play styles:
# manoeuvre/balance_setup.py), how its manifest describes them, the words of its errors,
# and the module of analyses/ that counts its games and lays out its tables (by name)
from manoeuvre_sim.manoeuvre.balance_setup import army_names, policy_specs, resolve_armies  # noqa: E402


def balance_command(
    armies: str | Sequence[str | Army] | None = None,
    *,
    policy: str | None = None,
    policy_a: str | None = None,
    policy_b: str | None = None,
    policies: str | Sequence[str] | None = None,
    options=None,
    relax: bool = False,
) -> dict:
    """``balance``'s own options -> the spec's fields: ``armies`` as typed (comma-separated)
    or a list (None: the eight built-in armies), ``policies`` as typed (comma-separated) or
    a list, ``options`` the rule options (``RuleOptions``; None: the default)."""
    if isinstance(policies, str):
        policies = [p.strip() for p in policies.split(",") if p.strip()]
    pols = policy_specs(policy, policy_a, policy_b, policies or None)
    loaded, sources = resolve_armies(army_names(armies), relax=relax)
    return {"sides": tuple(loaded), "policies": pols, "sources": tuple(sources),
            "options": RuleOptions() if options is None else options}  # fmt: skip


def balance_manifest(spec) -> dict:
    """What describes Manoeuvre's balance study in its manifest (:func:`describe_armies`)."""
    return describe_armies(spec.sides, spec.sources, spec.seed_names or spec.names,
                           spec.policies, spec.first_game, spec.options)  # fmt: skip


def describe_armies(armies, sources, seed_names, policies, first_game: int, options) -> dict:
    """Each army (its source, data hash and seeding name), the study's data hash, each
    style's players (``core.study.PolicySpec``) with their parameters, the first game, the
    rule options and the map sections: the balance study's manifest and the what-if's."""
    from manoeuvre_sim.manoeuvre.engine.players import params_for
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import value_record
    from manoeuvre_sim.manoeuvre.runner import config_dict, sections_record

    return {
        "armies": [
            {
                "name": a.name,
                "source": (sources or [None] * len(armies))[i],
                "data_hash": army_hash(a),
                "seed_name": seed_names[i],
            }
            for i, a in enumerate(armies)
        ],
        "data_hash": study_data_hash(armies, options),
        "policies": [
            {
                "label": p.label,
                "policy_a": p.policy_a,
                "policy_b": p.policy_b,
                "params_a": [float(x) for x in params_for(p.policy_a, p.policy_b)[0]],
                "params_b": [float(x) for x in params_for(p.policy_a, p.policy_b)[1]],
                **{f"{k}_a": v for k, v in value_record(p.policy_a).items()},
                **{f"{k}_b": v for k, v in value_record(p.policy_b).items()},
            }
            for p in policies
        ],
        "first_game": first_game,
        "options": config_dict(options),
        **sections_record(options.sections_file),
    }


BALANCE_SIDES = {"flag": "--armies", "one": "an army", "least": 2,
                 "fewer": "--armies: expected at least two armies"}  # fmt: skip
BALANCE_TABLES = "manoeuvre_sim.analyses.manoeuvre.balance"


# --- this game's own study kinds (issue 39) --------------------------------------------------
# kind -> module path: the studies only Manoeuvre has (manoeuvre/studies/), each declaring
# KIND; named, never imported here (the registry, manoeuvre_sim/studies, imports on demand)
OWN_STUDIES = {
    "cards": "manoeuvre_sim.manoeuvre.studies.cards",
    "neglect": "manoeuvre_sim.manoeuvre.studies.neglect",
}


# ---------------------------------------------------------------------- the workbench (web)
# What the game shows in the workbench (its odds pages, board, replay, job forms and study
# pages): the module's names are documented in manoeuvre_sim/web/game_parts.py. Named,
# never imported, here (a game cannot import the web layer), as REPORT_MODULE is.
WEB_MODULE = "manoeuvre_sim.web.games.manoeuvre"
COMMAND_GROUP = ""  # its commands are the top-level ones (manoeuvre-sim balance)
COMMAND_FLAGS = {"armies": "--armies"}  # its own commands' sides (cli/balance.py, fix.py)
