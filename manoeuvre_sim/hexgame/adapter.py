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

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import pairing_seed
from manoeuvre_sim.hexgame import GAME_KEY, GAME_TITLE, POLICIES
from manoeuvre_sim.hexgame import RULES_VERSION as _RULES_VERSION
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
class Options(HexOptions):
    """The rule options every game of a study is played with (``hex simulate``'s), and the
    scenario file (None: the built-in reconstruction, ``data/hexgame/default.toml``)."""

    scenario: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.scenario is not None:
            object.__setattr__(self, "scenario", str(Path(self.scenario).resolve()))

    def describe(self) -> str:
        """The options that differ from the defaults, in words ("" for the default game)."""
        if self == Options():
            return ""
        text = HexOptions.describe(self)
        return text + (f"; scenario {self.scenario}" if self.scenario else "")


@dataclass(frozen=True)
class Side:
    """A side of the scenario: ``blue`` (side a) or ``red`` (side b)."""

    name: str


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
    return hashlib.sha256(side.name.encode()).hexdigest()[:16]


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
    return {"packed": pack(sc, options.border), "opt": options.array(), "options": options,
            "scenario": (sc.name, sc.sha256)}  # fmt: skip


def play_block(prepared, pairing, first, count, threads, *, stats=False):
    """Games ``first .. first + count - 1`` of ``pairing`` (``hex simulate --seed
    pairing.seed --first-game first``'s rows)."""
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import to_frame

    pol, params = policy_arrays(
        pairing.policy_a, pairing.policy_b, pairing.params_a, pairing.params_b
    )
    rec = batch.play_games(
        pairing.seed, first, count, prepared["packed"], prepared["opt"], pol, params,
        threads or None,
    )  # fmt: skip
    man = {
        "army_a": SIDE_NAMES[0],
        "army_b": SIDE_NAMES[1],
        "config": {"seed": pairing.seed, "policy_a": pairing.policy_a,
                   "policy_b": pairing.policy_b},
        "options": asdict(prepared["options"]),
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


def tournament_plan(players, games: int, seed: int, *, options: Options | None = None):
    """The tournament's seats (``studies/tournament.py``): every pair (x, y) plays x blue
    against y red, then y blue against x red, ``games`` games each seating, on the seed every
    Maneuver study gives that pairing (:func:`seat_seed`)."""
    from dataclasses import fields

    from manoeuvre_sim.core.study import Pairing, Seat, TournamentPlan
    from manoeuvre_sim.hexgame.records import manifest
    from manoeuvre_sim.hexgame.scenario import default_path

    options = options if options is not None else Options()
    names = list(players)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    blue, red = load_side("blue"), load_side("red")
    seats = [
        Seat(k, swap, Pairing(blue, red, pb, pr, seat_seed(seed, pb, pr), f"pair{k}"), games)
        for k, (a, b) in enumerate(pairs)
        for swap, (pb, pr) in ((False, (a, b)), (True, (b, a)))
    ]  # fmt: skip
    rules = HexOptions(**{f.name: getattr(options, f.name) for f in fields(HexOptions)})
    source = options.scenario or default_path()
    man = manifest(_scenario(options), source, rules, seed, 0, games, ("(tournament)", ""),
                   [[], []])  # fmt: skip
    man.update(study="hex tournament", policies=names)
    ident = {k: man[k] for k in ("rules_version", "scenario_sha256", "options", "study")}
    ident |= {"seed": seed, "policies": names}
    return TournamentPlan(pairs, seats, options, ident, man)


def simulate_plan(run_manifest: dict, options: Options, *, block: int):
    """``hex simulate`` as a study of one pairing (``studies/simulate.py``): games
    ``first_game .. first_game + games - 1`` of ``run_manifest["config"]`` (seed, players,
    their parameter vectors) under ``options``."""
    from manoeuvre_sim.core.study import Pairing, SimulatePlan

    c = run_manifest["config"]
    params = [tuple(c[k]) if c.get(k) is not None else None for k in ("params_a", "params_b")]
    pairing = Pairing(load_side("blue"), load_side("red"), c["policy_a"], c["policy_b"],
                      c["seed"], "games", params_a=params[0], params_b=params[1])  # fmt: skip
    # what decides the games (a resumed store must match it; how many games and from which
    # one may differ: the tasks already on disk are checked one by one)
    ident = {k: run_manifest[k] for k in ("rules_version", "scenario_sha256", "options")}
    ident |= {"study": "hex simulate", "block": block,
              "config": {k: v for k, v in c.items() if k not in ("games", "first_game")}}  # fmt: skip
    return SimulatePlan(pairing, c["first_game"], c["games"], options, ident)


__all__ = [
    "DEFAULT_POLICY", "ENGINE_SOURCES", "EXTRA_COLUMNS", "KEY", "Options", "POLICIES",
    "RULES_VERSION", "STATS_DIR", "Side", "TITLE", "VICTORY_KINDS", "data_hash", "load_side",
    "play_block", "prepare", "read_stats", "side_hash", "simulate_plan", "STUDY_KINDS",
    "tournament_plan", "balance_cells",
    "REPORT_MODULE", "policy_cost",
]  # fmt: skip

# What one seat's decisions cost, in games of the scripted players (``policy_cost``), per
# rollout of a search player: measured on 2026-12-01 in one process on one thread (the
# built-in scenario, basic border, the other seat capital; load 9.5, each figure twice):
# search:8 cost 12-14 capital games, search:32 30-37, search:8:capital:all 71 (1.1-1.8 a
# rollout searching the moves, about 9 searching the combats too); the upper figures
# rounded up (a job's bound errs towards less work).
ROLLOUT_COST = {"moves": 2.0, "all": 10.0}


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


# ---------------------------------------------------------------------- the workbench (web)
# What the game shows in the workbench (its odds pages, board, replay, job forms and study
# pages): the module's names are documented in manoeuvre_sim/web/game_parts.py. Named,
# never imported, here (a game cannot import the web layer), as REPORT_MODULE is.
WEB_MODULE = "manoeuvre_sim.web.games.hex"
