"""Maneuver (the introductory hex wargame, rules 001) behind ``games.Game``: the shared study
layer (tasks, the Parquet store, resume and merge, the local and Dask backends) plays it
with no copy of any of that machinery.

Maneuver's two sides are fixed by its scenario: side ``a`` is always blue (``army_a``) and
``b`` red; what a pairing varies is who plays each side (``policy_a``/``policy_b``, and
their parameter vectors), so "both seats" means each player once blue and once red. The
scenario file and every rule option (border, army quality, step losses and replacements,
the first player, turns, interpretation H6's switch) are the study's :class:`Options`.
Game ``i`` of a pairing is ``hex simulate --seed <pairing.seed>``'s game ``i``
(``hexgame.batch``: seeded from ``(seed, i)`` alone), so a study's rows replay with
``hex replay``.

Nothing here imports numba at module import: the engine loads when a block is played.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, dataclass

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import Pairing, pairing_seed
from manoeuvre_sim.hexgame import GAME_KEY, GAME_TITLE, POLICIES
from manoeuvre_sim.hexgame import RULES_VERSION as _RULES_VERSION
from manoeuvre_sim.hexgame.options import Options
from manoeuvre_sim.hexgame.records import HexOptions

KEY = GAME_KEY
TITLE = GAME_TITLE
RULES_VERSION = _RULES_VERSION
DEFAULT_POLICY = "capital"
# numba's cache (core/numba_cache.py reads these two from this file, without importing it):
# the prefix of its directories and its kernels' folder; the files under manoeuvre_sim/ its
# kernels are compiled from
NUMBA_CACHE = ("hex-", "hexgame")
ENGINE_SOURCES = ("hexgame", "core/jit.py", "core/rng.py")
VICTORY_KINDS = ("capital", "draw")
EXTRA_COLUMNS = tuple(
    f"{c}_{x}"
    for c in (
        "capital_fell_turn", "capital_captures", "captured_without_margin", "units_on_map",
        "eliminated", "replacements", "combats", "capital_captured_at_end",
    )
    for x in ("a", "b")
) + ("border", "quality_a", "quality_b", "step_losses", "step_replacements",
     "captured_capital_zoc", "retreat_apart", "capital_hex_a", "capital_hex_b")  # fmt: skip
STATS_DIR = "hex_stats"  # no per-game statistics yet: the directory is never written
SIDE_NAMES = ("blue", "red")
# the report (games.Game, optional members): the study kinds the `hex` commands write (a
# manifest's "study"), and the module that reads them back and lays out their pages
STUDY_KINDS = ("hex balance", "hex ladder", "hex setup", "hex whatif")
REPORT_MODULE = "manoeuvre_sim.analyses.hexgame.report"


@dataclass(frozen=True)
class Side:
    """A side of the scenario: ``blue`` (side a) or ``red`` (side b). The balance fixer's
    sides (:func:`scenario_sides`) also carry ``scenario``, the canonical JSON of the
    scenario content this side plays its own units from, and ``quality``, its army quality
    (rule [13] 2); None: the study's options decide (every other study)."""

    name: str
    scenario: str | None = None
    quality: str | None = None
    # the why study's sides (hexgame/why_parts.py): the border this side's pairing plays, as
    # ``blue_rows`` (a coalition's line between the two sides' territories); None: the
    # options' border
    border: tuple[int, ...] | None = None


def seat_seed(seed: int, blue: str, red: str) -> int:
    """The seed of the games of player ``blue`` (blue) against ``red`` (red), from the master
    seed and the two players' names alone: every Maneuver study and ``hex tournament``
    seed a pairing so, and the same pairing meets the same dice in each."""
    return pairing_seed(seed, f"hex:{blue}@blue", f"hex:{red}@red")


def load_side(spec: str, relax: bool = False) -> Side:
    if spec not in SIDE_NAMES:
        raise UsageError(f"side {spec!r}: expected blue or red (Maneuver's sides)")
    return Side(spec)


def side_hash(side: Side) -> str:
    if side.scenario is None and side.quality is None and side.border is None:
        return hashlib.sha256(side.name.encode()).hexdigest()[:16]
    own = json.loads(side.scenario)["sides"][side.name] if side.scenario else None
    doc = json.dumps([side.name, own, side.quality] + ([list(side.border)] if side.border
                     else []), sort_keys=True)  # fmt: skip
    return hashlib.sha256(doc.encode()).hexdigest()[:16]


def _scenario(options: Options):
    from manoeuvre_sim.hexgame.scenario import load_scenario

    return load_scenario(options.scenario)


def data_hash(sides, options: Options) -> str:
    """The scenario's sha256 with the rule options: what decides the games besides seeds."""
    doc = {"scenario": _scenario(options).sha256, "options": asdict(options) | {"scenario": 0}}
    doc["sides"] = sorted(side_hash(s) for s in sides)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def prepare(pairings, options: Options) -> dict:
    """The packed scenario for ``options.border`` and the kernels' option array."""
    from manoeuvre_sim.hexgame.scenario import pack

    for p in pairings:
        if (p.army_a.name, p.army_b.name) != SIDE_NAMES:
            raise UsageError(
                f"Maneuver pairing {p.army_a.name}-{p.army_b.name}: side a is blue and "
                "side b red; swap the players (policy_a/policy_b), not the sides"
            )
    sc = _scenario(options)
    out = {"packed": pack(sc, options.border), "opt": options.array(), "options": options,
           "scenario": (sc.name, sc.sha256)}  # fmt: skip
    own = {(p.army_a, p.army_b) for p in pairings if p.army_a.scenario or p.army_a.quality
           or p.army_b.scenario or p.army_b.quality or p.army_a.border}  # fmt: skip
    if own:  # the fixer's and the why study's sides: each pairing's units and quality its own
        out["sides"] = {ab: _own_sides(sc.sha256, options, *ab) for ab in own}
    return out


@functools.lru_cache(maxsize=1024)
def _own_sides(sha256: str, options: Options, blue: Side, red: Side) -> tuple:
    """The packed scenario and options of blue's and red's own units and quality (a side
    without them: the options'): the map stays the options' scenario's (of hash ``sha256``,
    the cache's key), and so do the borders but for the why study's sides, whose pairing
    plays its sides' ``border`` (the scenario's border of those rows if it has one, else a
    border named ``why``). Cached: the why study asks for the same coalitions sample after
    sample, and a scenario's validation costs a tenth of a second."""
    from dataclasses import replace

    from manoeuvre_sim.core.data import validate
    from manoeuvre_sim.hexgame.scenario import Scenario, pack

    sc = _scenario(options)
    raw = json.loads(sc.canonical())
    for s in (blue, red):
        if s.scenario is not None:
            theirs = json.loads(s.scenario)
            raw["sides"][s.name] = json.loads(
                Scenario.model_validate(theirs).canonical())["sides"][s.name]  # fmt: skip
    border = options.border
    if blue.border is not None or red.border is not None:
        if blue.border != red.border:
            raise ValueError(f"the why study's sides play one border, got {blue.border} and "
                             f"{red.border}")  # fmt: skip
        rows = list(blue.border)
        border = next((k for k, b in raw["borders"].items() if b["blue_rows"] == rows), "why")
        raw["borders"].setdefault(border, {"note": "the why study's coalition", "blue_rows": rows})
    own = validate(Scenario, raw, "the fixer's sides")
    opts = replace(options, border=border, **{f"quality_{s.name}": s.quality
                                              for s in (blue, red) if s.quality is not None})  # fmt: skip
    return pack(own, opts.border), opts.array(), opts


def play_block(prepared, pairing, first, count, threads, *, stats=False):
    """Games ``first .. first + count - 1`` of ``pairing`` (``hex simulate --seed
    pairing.seed --first-game first``'s rows)."""
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import to_frame

    pol, params = policy_arrays(
        pairing.policy_a, pairing.policy_b, pairing.params_a, pairing.params_b
    )
    packed, opt, options = prepared.get("sides", {}).get(
        (pairing.army_a, pairing.army_b), (prepared["packed"], prepared["opt"], prepared["options"]))  # fmt: skip
    rec = batch.play_games(pairing.seed, first, count, packed, opt, pol, params, threads or None)
    man = {
        "army_a": SIDE_NAMES[0],
        "army_b": SIDE_NAMES[1],
        "config": {"seed": pairing.seed, "policy_a": pairing.policy_a,
                   "policy_b": pairing.policy_b},
        "options": asdict(options),
    }  # fmt: skip
    return to_frame(rec, man, first), None


def read_stats(array):
    return array


def balance_cells(pairings):
    """The cells of a balance study (``studies/rounds.py``): Maneuver's sides are fixed
    (blue, red), so each pairing of players is its own cell, read as its first player's win
    rate, a draw no win (``hex balance``'s first-player table)."""
    from manoeuvre_sim.core.study import Cell

    return [Cell((k,), "first", 0.0) for k in range(len(pairings))]


def _players(players, flag: str = "--policies") -> list[str]:
    """``players`` as names, each a Maneuver player spec, two or more and distinct."""
    from manoeuvre_sim.hexgame import POLICY_SPECS, parse_policy

    names = list(players)
    bad = []
    for p in names:
        try:
            parse_policy(p)
        except ValueError:
            bad.append(p)
    if bad or len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(f"{flag}: expected two or more distinct of {', '.join(POLICY_SPECS)}, "
                         f"got {','.join(names)!r}")  # fmt: skip
    return names


def _fixed_sides(sides) -> None:
    if sides is not None and tuple(sides) != SIDE_NAMES:
        raise UsageError(f"sides {','.join(sides)}: Maneuver's sides are fixed (blue, red); "
                         "the players change seats, not the sides")  # fmt: skip


def _rules(options: Options) -> HexOptions:
    from dataclasses import fields

    return HexOptions(**{f.name: getattr(options, f.name) for f in fields(HexOptions)})


def tournament_plan(players, games: int, seed: int, *, sides=None, options: Options | None = None):
    """The tournament's seats (``studies/tournament.py``): every pair (x, y) of ``players``
    (player specs) plays x blue against y red, then y blue against x red, ``games`` games
    each seating, on the seed every Maneuver study gives that pairing (:func:`seat_seed`);
    ``sides``: None (Maneuver's are fixed, blue and red)."""
    from manoeuvre_sim.core.study import Pairing, Seat, TournamentPlan
    from manoeuvre_sim.hexgame.records import manifest
    from manoeuvre_sim.hexgame.scenario import default_path

    names = _players(players)
    _fixed_sides(sides)
    options = options if options is not None else Options()
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    blue, red = load_side("blue"), load_side("red")
    seats = [
        Seat(k, swap, Pairing(blue, red, pb, pr, seat_seed(seed, pb, pr), f"pair{k}"), games)
        for k, (a, b) in enumerate(pairs)
        for swap, (pb, pr) in ((False, (a, b)), (True, (b, a)))
    ]  # fmt: skip
    source = options.scenario or default_path()
    man = manifest(_scenario(options), source, _rules(options), seed, 0, games,
                   ("(tournament)", ""), [[], []])  # fmt: skip
    man.update(study="hex tournament", policies=names)
    ident = {k: man[k] for k in ("rules_version", "scenario_sha256", "options", "study")}
    ident |= {"seed": seed, "policies": names}
    return TournamentPlan(pairs, seats, options, ident, man)


def simulate_plan(spec):
    """``hex simulate`` as a study of one pairing (``studies/simulate.py``, its
    ``SimulateSpec``): games ``first .. first + games - 1`` of blue (``policy_a``) against
    red (``policy_b``), their parameter vectors (None: the players' own), under ``options``;
    ``side_a``, ``side_b``: blue and red (Maneuver's are fixed). The plan's manifest is
    ``records.manifest``'s."""
    from manoeuvre_sim.core.study import Pairing, SimulatePlan
    from manoeuvre_sim.hexgame import parse_policy
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import manifest
    from manoeuvre_sim.hexgame.scenario import default_path

    _fixed_sides((spec.side_a, spec.side_b))
    if spec.flags:
        raise UsageError(f"simulate flags {sorted(spec.flags)}: Maneuver's games take none")
    options = spec.options if spec.options is not None else Options()
    policies = (spec.policy_a or DEFAULT_POLICY, spec.policy_b or DEFAULT_POLICY)
    for flag, p in zip(("--policy-a", "--policy-b"), policies, strict=True):
        try:
            parse_policy(p)
        except ValueError as e:
            raise UsageError(f"{flag}: {e}") from None
    params = policy_arrays(*policies, spec.params_a, spec.params_b)[1]
    source = options.scenario or default_path()
    man = manifest(_scenario(options), source, _rules(options), spec.seed, spec.first,
                   spec.games, policies, params)  # fmt: skip
    c = man["config"]
    pairing = Pairing(load_side("blue"), load_side("red"), c["policy_a"], c["policy_b"],
                      c["seed"], "games", params_a=tuple(c["params_a"]),
                      params_b=tuple(c["params_b"]))  # fmt: skip
    # what decides the games (a resumed store must match it; how many games and from which
    # one may differ: the tasks already on disk are checked one by one)
    ident = {k: man[k] for k in ("rules_version", "scenario_sha256", "options")}
    ident |= {"study": "hex simulate", "block": spec.block,
              "config": {k: v for k, v in c.items() if k not in ("games", "first_game")}}  # fmt: skip
    return SimulatePlan(pairing, spec.first, spec.games, options, ident, None, man)


__all__ = [
    "DEFAULT_POLICY", "ENGINE_SOURCES", "EXTRA_COLUMNS", "KEY", "Options", "POLICIES",
    "RULES_VERSION", "STATS_DIR", "Side", "TITLE", "VICTORY_KINDS", "data_hash", "load_side",
    "play_block", "prepare", "read_stats", "side_hash", "simulate_plan", "STUDY_KINDS",
    "tournament_plan", "balance_cells",
    "REPORT_MODULE", "policy_cost", "rebuild_trace", "REPLAY_WARMUP",
]  # fmt: skip

# What one seat's decisions cost, in games of the scripted players (``policy_cost``), per
# rollout of a search player: measured on 2026-12-01 in one process on one thread (the
# built-in scenario, basic border, the other seat capital; load 9.5, each figure twice):
# search:8 cost 12-14 capital games, search:32 30-37, search:8:capital:all 71 (1.1-1.8 a
# rollout searching the moves, about 9 searching the combats too); the upper figures
# rounded up (a job's bound errs towards less work).
ROLLOUT_COST = {"moves": 2.0, "all": 10.0}


def rebuild_trace(header: dict, events: list[dict]) -> dict:
    """A JSONL trace's final position, from its events alone (``hexgame/trace_rebuild.py``;
    the ``rebuild_trace`` hook, ``core.trace_reader.rebuild``)."""
    from manoeuvre_sim.hexgame.trace_rebuild import rebuild_trace as rebuild

    return rebuild(header, events)


def policy_cost(spec: str) -> float:
    """One seat's share of a game's cost with the player ``spec``, in games of the scripted
    players (a game of two scripted seats costs 1): ``0.5``, plus ``budget x`` the cost of
    a rollout of its scope for a search player (the workbench bounds a job by it)."""
    from manoeuvre_sim.hexgame import parse_policy, search_scope

    try:
        name, budget, _ = parse_policy(spec)
    except ValueError as e:
        raise UsageError(f"--policies: {e}") from None
    if name != "search":
        return 0.5
    return 0.5 + budget * ROLLOUT_COST[search_scope(spec)]


# the warm-up kind (core/warmup.py): Maneuver's engine and every one of its players, the
# search player's combat plans among them, compiled in 80 s on 2026-11-28 (a fresh numba
# cache, 1-minute load average about 1 on the shared machine; 26 s before the search
# player); the ``hex`` commands play with it
WARMUP = {"hex": 80}
WARMUP_KINDS = tuple(WARMUP)
# the game the workbench replays before it serves (its traced kernels compiled: the
# REPLAY_WARMUP hook): the replay page's defaults, the built-in scenario
REPLAY_WARMUP: dict[str, str] = {}


def warmup_kernel(kind: str):
    """Maneuver's batch kernel and two games of the default player on the built-in
    scenario, as ``hexgame.batch.play_games`` calls it."""
    import numpy as np

    if kind != "hex":
        raise ValueError(f"unknown kernel {kind!r}; expected hex")
    from manoeuvre_sim.hexgame import batch as BT
    from manoeuvre_sim.hexgame import scenario as SC
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.players import policy_arrays

    pol, params = policy_arrays("capital", "capital")
    g = S.new_context(SC.pack(SC.load_scenario()), S.default_options(), pol, params)
    st = np.zeros(S.STATE_SIZE, dtype=np.int32)
    out = np.zeros((2, BT.NREC), dtype=np.int32)
    return BT.play_range, (1, 0, 0, 2, st, g, out)


# ------------------------------------------------------------ the what-if's hooks (issue 39)
# studies/whatif.py asks these of a game (declared in core.games.HOOKS): the command's
# options -> the spec (the variant is a scenario: every pairing of the players replayed on
# it), the pairings, the variant's options, the manifest, the table (whatif_variant.py); the
# summary and the PDF are the analyses' (WHATIF_PAGES)
from collections.abc import Sequence  # noqa: E402

from manoeuvre_sim.hexgame import fix_edits as _fix  # noqa: E402
from manoeuvre_sim.hexgame import variants as _variants  # noqa: E402
from manoeuvre_sim.hexgame import whatif_variant as _whatif  # noqa: E402

WHATIF_PAGES = "manoeuvre_sim.analyses.hexgame.whatif"
whatif_manifest = _whatif.whatif_manifest
whatif_tables = _whatif.whatif_tables
whatif_variant_options = _whatif.whatif_variant_options


def whatif_command(
    *,
    variant: str | None = None,
    edits: Sequence[str] = (),
    scenario: str | None = None,
    border: str = "basic",
    quality: str = "front:front",
    step_losses: bool = False,
    step_replacements: bool = False,
    policies: str | None = None,
    games_per_pairing: int = 2000,
    seed: int = 1,
    turns: int = 10,
    block: int = 1000,
    threads: int = 0,
) -> dict:
    """``manoeuvre-sim hex whatif``'s options -> the what-if's fields
    (``studies.whatif.WhatIfSpec``): the variant from the ``variant`` file or the ``edits``
    of the base ``scenario`` (None: the built-in one), every option checked before any
    game. Both sides are touched: every pairing of the players is replayed."""
    from manoeuvre_sim.hexgame.scenario import load_scenario

    edits = tuple(edits)
    if (variant is None) == (not edits):
        raise UsageError("expected the variant as either --variant FILE or --set edits, not both")
    raw = _whatif.load_raw(variant if variant else scenario)
    unit_edits, variant_quality = _whatif.split_quality(edits)  # SIDE/quality=Q: the rules'
    content = raw if variant else _whatif.apply_edits(raw, unit_edits)
    rules = _variants.one_variant(border, quality, step_losses, step_replacements)
    players = _variants.check_players(_variants.policy_names(policies))
    for sc in (load_scenario(scenario), _whatif.load_scenario_from(content)):
        if border not in sc.borders:
            raise UsageError(f"--border: {border!r} is not a border of the scenario "
                             f"({', '.join(sc.borders)})")  # fmt: skip
    options = rules.options(turns, scenario)
    sides = (load_side("blue"), load_side("red"))
    return {
        "sides": sides, "sources": ("blue", "red"),
        "policies": tuple((a, b) for a in players for b in players),
        "games_per_pairing": games_per_pairing, "seed": seed, "options": options,
        "block": block, "threads": threads, "touched": ("blue", "red"),
        "changes": edits or (f"--variant {variant}",), "edits": edits,
        "details": {"scenario": content, "file": variant, "base_file": scenario,
                    "rules": rules.record(), "variant_quality": variant_quality,
                    "players": players},
    }  # fmt: skip


def whatif_pairings(spec) -> list:
    """Every ordered pairing of the players, blue's player major, blue in seat a, on the
    seed every Maneuver study gives it (:func:`seat_seed`)."""
    from manoeuvre_sim.core.study import Pairing

    blue, red = spec.sides
    return [Pairing(blue, red, a, b, seat_seed(spec.seed, a, b), "base") for a, b in spec.policies]


__all__ += ["WHATIF_PAGES", "whatif_command", "whatif_manifest", "whatif_pairings",
            "whatif_tables", "whatif_variant_options"]  # fmt: skip


# ------------------------------------------------------------------ the balance study's hooks
# (studies/balance.py): what the study compares (the variants of the scenario's options,
# hexgame/variants.py), its players, its pairings (per variant every ordered pairing of the
# players, under the variant's options), its checks, how its manifest describes it, the
# words of its errors, and the module of analyses/ that lays out its tables (by name)

balance_command = _variants.balance_command
balance_check = _variants.balance_check
balance_manifest = _variants.balance_manifest
BALANCE_GAMES = _variants.DEFAULT_GAMES  # the command's games per pairing
BALANCE_PLAYERS = _variants.DEFAULT_POLICIES  # the players of a spec that names none


def balance_pairings(spec):
    """Per variant (in order), every ordered pairing of the players, blue's player major,
    seeded by the two players alone (:func:`seat_seed`: every variant replays the same
    seeds), each variant's pairings under its own options. The balance fixer's spec (its
    sides the scenario's two, :func:`scenario_sides`): blue against red per pair of
    players, on the same seeds (:func:`fix_pairings`)."""
    if _variants.is_scenario_sides(spec.sides):
        return fix_pairings(spec)
    blue, red = load_side("blue"), load_side("red")
    pairings = [
        Pairing(blue, red, a, b, seat_seed(spec.seed, a, b), v.name)
        for v in spec.sides
        for a in spec.policies
        for b in spec.policies
    ]
    per = len(spec.policies) ** 2
    groups = [(spec.settings.options_of(v), range(vi * per, (vi + 1) * per))
              for vi, v in enumerate(spec.sides)]  # fmt: skip
    return pairings, groups


BALANCE_STUDY = "hex balance"  # the manifests' "study"
BALANCE_ROWS = "labels"  # compare: a row per variant (the label), each game once
BALANCE_SIDES = {"flag": "variants", "one": "a variant", "least": 1,
                 "fewer": "variants: expected at least one"}  # fmt: skip
BALANCE_TABLES = "manoeuvre_sim.analyses.hexgame.balance"
TEXT_COLUMNS = {"capital_hexes": ("hex", "side")}  # hexes are CCRR: "0101", not 101


# --- this game's own study kinds (issue 39) --------------------------------------------------
# kind -> module path: the studies only Maneuver has (hexgame/studies/), each declaring KIND;
# named, never imported here (the registry, manoeuvre_sim/studies, imports on demand)
OWN_STUDIES = {
    "ladder": "manoeuvre_sim.hexgame.studies.ladder",
    "setup": "manoeuvre_sim.hexgame.studies.setup",
}


# ---------------------------------------------------------------------- the workbench (web)
# What the game shows in the workbench (its odds pages, board, replay, job forms and study
# pages): the module's names are documented in manoeuvre_sim/web/game_parts.py. Named,
# never imported, here (a game cannot import the web layer), as REPORT_MODULE is.
WEB_MODULE = "manoeuvre_sim.web.games.hex"
COMMAND_GROUP = "hex"  # manoeuvre-sim hex balance
COMMAND_FLAGS = {"targets": "--side"}  # hex fix's targets (cli/hexgame/fix.py)


# --------------------------------------------------------------- the balance fixer's hooks
# (studies/fix.py, issue 40): a side is the scenario's blue or red with its own units and
# army quality; the edits are hex whatif --set's (hexgame/fix_edits.py)
FIX_EDIT_KINDS = _fix.FIX_EDIT_KINDS
fix_edits = _fix.fix_edits
apply_side_edits = _fix.apply_side_edits


def scenario_sides(options: Options) -> tuple[Side, Side]:
    """The two sides of ``options``' scenario (None: the built-in one) with their army
    quality, as the fixer edits them: blue, red."""
    text = _fix.canonical(_whatif.load_raw(options.scenario))
    return tuple(Side(s, scenario=text, quality=getattr(options, f"quality_{s}"))
                 for s in SIDE_NAMES)  # fmt: skip


def fix_pairings(spec):
    """The fixer's balance spec: per players' part, blue (side a) against red, seeded by the
    two players alone as every Maneuver study seeds them (:func:`seat_seed`), all under
    ``spec.options``."""
    blue, red = spec.sides
    out = [Pairing(blue, red, ps.policy_a, ps.policy_b,
                   seat_seed(spec.seed, ps.policy_a, ps.policy_b), ps.label)
           for ps in spec.policies]  # fmt: skip
    return out, [(spec.options, range(len(out)))]


__all__ += ["FIX_EDIT_KINDS", "apply_side_edits", "fix_edits", "fix_pairings", "scenario_sides"]


# ---------------------------------------------------------------- the why study's hooks
# (studies/why.py, issue 42): a side's unit types, army quality and territory, each switched
# off to the built-in scenario's units, front, the half line (hexgame/why_parts.py)
from manoeuvre_sim.hexgame import why_parts as _why  # noqa: E402

WHY_REFERENCE = _why.WHY_REFERENCE
why_parts = _why.why_parts
why_pairing = _why.why_pairing


def why_sides(options: Options, edits: Sequence[str] = ()) -> tuple[Side, Side]:
    """The why study's two sides of ``options`` (its scenario, border and army quality)
    after the ``--set`` ``edits`` of either side (``why_parts.why_sides``)."""
    return _why.why_sides(scenario_sides(options), options, edits)


__all__ += ["WHY_REFERENCE", "why_pairing", "why_parts", "why_sides"]
