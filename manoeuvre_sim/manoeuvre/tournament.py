"""Policy tournaments: every pair of policies on mirrored armies and swapped seats.

For a pair (X, Y) the games are split evenly over the armies; each army plays itself (so no
army advantage leaks in), and each block of games is played twice with the same seed, X as
army A then X as army B (common random numbers: the same maps and first-player rolls for
both seatings). A drawn game (an army against itself can tie on every nightfall
tie-breaker) counts half a win to each side.

Policies are the named ones of ``engine/players/`` or variants defined in a styles file
(TOML) — a base policy and the parameters it changes::

    [styles.cautious]
    base = "balanced"
    attack_min = 0.3
    threat = 1.4
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.core.tournament import Seat, TournamentResult
from manoeuvre_sim.core.tournament import run as play_seats


@dataclass(frozen=True)
class Policy:
    """A player for the tournament: a named policy and its parameter vector."""

    name: str
    base: str
    params: tuple[float, ...]


def builtin_policies() -> dict[str, Policy]:
    from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES, POLICY_PARAMS

    return {n: Policy(n, n, tuple(float(x) for x in POLICY_PARAMS[n])) for n in POLICY_NAMES}


def load_styles(path: str | Path) -> dict[str, Policy]:
    """Style variants from a TOML file (see the module docstring)."""
    from manoeuvre_sim.manoeuvre.engine.players import PARAM_NAMES, POLICY_NAMES, POLICY_PARAMS

    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(str(path), [("", "file not found")]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise DataError(str(path), [("", f"not a valid UTF-8 TOML file: {e}")]) from None
    styles = doc.get("styles")
    if not isinstance(styles, dict) or not styles:
        raise DataError(str(path), [("styles", "expected a table of [styles.NAME] sections")])
    out = {}
    for name, spec in styles.items():
        where = f"styles.{name}"
        if not isinstance(spec, dict):
            raise DataError(str(path), [(where, "expected a table")])
        base = spec.get("base")
        if base not in POLICY_NAMES or base in ("random", "simple", "search"):
            raise DataError(
                str(path),
                [
                    (
                        f"{where}.base",
                        f"expected attritional, territorial, balanced or tuned; got {base!r}",
                    )
                ],
            )
        if name in POLICY_NAMES:
            raise DataError(str(path), [(where, "a style may not reuse a built-in policy name")])
        params = np.array(POLICY_PARAMS[base], dtype=np.float64)
        for key, value in spec.items():
            if key == "base":
                continue
            if key not in PARAM_NAMES:
                raise DataError(
                    str(path),
                    [
                        (
                            f"{where}.{key}",
                            f"unknown parameter; expected one of {', '.join(PARAM_NAMES)}",
                        )
                    ],
                )
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DataError(
                    str(path), [(f"{where}.{key}", f"expected a number, got {value!r}")]
                )
            if not math.isfinite(value):
                raise DataError(
                    str(path), [(f"{where}.{key}", f"expected a finite number, got {value!r}")]
                )
            if key == "switch" and value not in (0, 1):
                raise DataError(str(path), [(f"{where}.{key}", f"expected 0 or 1, got {value!r}")])
            params[PARAM_NAMES.index(key)] = float(value)
        out[name] = Policy(name, base, tuple(float(x) for x in params))
    return out


def resolve(names: Sequence[str], styles: dict[str, Policy] | None = None) -> list[Policy]:
    known = builtin_policies() | (styles or {})
    out = []
    for n in names:
        if n not in known and n.startswith("search:"):
            from manoeuvre_sim.manoeuvre.engine.players import params_for
            from manoeuvre_sim.manoeuvre.runner import check_policy

            check_policy(n, "--policies")
            known[n] = Policy(n, n, tuple(float(x) for x in params_for(n, n)[0]))
        if n not in known:
            raise UsageError(
                f"--policies: unknown policy {n!r}; expected one of {', '.join(known)}"
            )
        out.append(known[n])
    if len({p.name for p in out}) != len(out):
        raise UsageError("--policies: a policy is named twice")
    if len(out) < 2:
        raise UsageError("--policies: expected at least two policies")
    return out


def _seed(master: int, a: str, b: str, army: str) -> int:
    """The seed of one block: from the master seed and the pair's and army's names, so a
    pair plays the same games whatever other policies are in the tournament."""
    key = hashlib.sha256(f"{a}\x00{b}\x00{army}".encode()).digest()
    ss = np.random.SeedSequence([master, int.from_bytes(key[:8], "little")])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def games_per_pair(games: int, n_armies: int) -> int:
    """The games a pair of players plays for ``games`` asked: each army in both seats
    equally often, so ``games`` rounded up to a multiple of 2 x ``n_armies``."""
    step = 2 * n_armies
    return -(-games // step) * step


def run(
    policies: Sequence[Policy],
    games: int,
    seed: int,
    *,
    armies: Sequence[str] | None = None,
    threads: int = 0,
    progress: Callable[[int, int], None] | None = None,
    setup: str = "random",
    fixed_map: Sequence[int] | None = None,
    fixed_rot: Sequence[int] | None = None,
    store: str | Path | None = None,
    backend=None,
    resume: bool = False,
    sections_file: str | None = None,
    options=None,
) -> TournamentResult:
    """Play ``games`` games for every pair of ``policies`` (rounded up to a multiple of
    2 x the number of armies). ``setup``, ``fixed_map``, ``fixed_rot``: the rule 3 set-up
    of every game (``runner.SimConfig``); ``sections_file``: map sections joining the pool; ``options``:
    instead of those, every rule option (``manoeuvre.adapter.RuleOptions``).

    The games are a study (``study.play``): one task per pair, army and seating, each a
    part of ``store`` when given (``resume``: the parts already there are read back), run
    on ``backend`` (None: local threads)."""
    from manoeuvre_sim import __version__
    from manoeuvre_sim.core.study import Pairing
    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.adapter import KEY as GAME_KEY
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions, study_data_hash
    from manoeuvre_sim.manoeuvre.engine.options import describe_setup
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army, load_builtin_armies
    from manoeuvre_sim.manoeuvre.runner import rule_record, sections_record

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
            s = _seed(seed, x.name, y.name, army)
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
        "game": GAME_KEY,
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
    res = play_seats(
        [(policies[i].name, policies[j].name) for i, j in pairs], seats, options=options,
        manifest=ident, threads=threads, store=store, backend=backend, resume=resume,
        progress=progress,
    )  # fmt: skip
    res.manifest = manifest | {"interrupted": res.interrupted, "backend": res.manifest["backend"]}
    return res


def policy_stats(frame) -> object:
    """Per policy, over all its games: win rate, victory mix, game length, combats and cards
    played per player turn, eliminations suffered and inflicted."""
    import pandas as pd

    rows = []
    f = frame
    for side, other in (("a", "b"), ("b", "a")):
        # player turns of this side: each game turn has one of each, but the first player
        # plays one more in a game ended by attrition mid-turn; game_turns is a fair measure
        rows.append(
            pd.DataFrame(
                {
                    "policy": f[f"policy_{side}"],
                    "win": (f["winner"] == side) + 0.5 * (f["winner"] == "draw"),
                    "attrition_win": (f["winner"] == side) & (f["victory"] == "attrition"),
                    "nightfall_win": (f["winner"] == side) & (f["victory"] == "nightfall"),
                    "game_turns": f["game_turns"],
                    "turn_limit": f["turn_limit"],
                    "combats_per_turn": f[f"combats_{side}"] / f["game_turns"],
                    "assaults_per_turn": f[f"assaults_{side}"] / f["game_turns"],
                    "cards_per_turn": f[f"cards_played_{side}"] / f["game_turns"],
                    "lost": f[f"eliminated_{side}"],
                    "eliminated": f[f"eliminated_{other}"],
                }
            )
        )
    d = pd.concat(rows, ignore_index=True)
    g = d.groupby("policy", sort=False)
    out = g.agg(
        games=("win", "size"),
        win_rate=("win", "mean"),
        attrition_wins=("attrition_win", "mean"),
        nightfall_wins=("nightfall_win", "mean"),
        game_turns=("game_turns", "mean"),
        turn_limit=("turn_limit", "mean"),
        combats_per_turn=("combats_per_turn", "mean"),
        assaults_per_turn=("assaults_per_turn", "mean"),
        cards_per_turn=("cards_per_turn", "mean"),
        units_lost=("lost", "mean"),
        units_eliminated=("eliminated", "mean"),
    )
    return out.reset_index()


def pairs_json(result: TournamentResult, confidence: float = 0.95) -> dict:
    from manoeuvre_sim.core.stats import wilson_interval

    out = []
    for pr in result.pairs:
        lo, hi = wilson_interval(pr.wins_a, pr.games, confidence)
        out.append(
            {
                "a": pr.a,
                "b": pr.b,
                "games": pr.games,
                "win_rate_a": round(pr.win_rate_a, 6),
                "ci_low": round(float(lo), 6),
                "ci_high": round(float(hi), 6),
                "draws": pr.draws,
            }
        )
    return {"pairs": out}
