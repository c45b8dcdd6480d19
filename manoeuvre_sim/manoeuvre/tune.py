"""Tuning a heuristic style by self-play: CMA-ES over the parameter vector.

The heuristic styles are one policy driven by a parameter vector
(``engine/players/params.py``). ``run`` searches that vector with CMA-ES (the ``cma``
package, the optional extra ``tune``) for the highest win rate against a pool of styles:

- **The space.** Every parameter with known bounds (:data:`BOUNDS`) is searched, each
  mapped linearly from its bounds onto 0..10 (so one step size suits them all; CMA-ES
  handles the bounds by its own transformation). 0/1 switches (:data:`FLAGS`) are never
  searched, ``hit`` is held as the unit of value by default (``fixed``), and a parameter
  with no known bounds (one added to the engine after this module) is held at the base
  value until it is given bounds. Parameter names and their number are read from the
  engine at run time.
- **The fitness** of a candidate vector is its mean score (win 1, draw 1/2, loss 0)
  against every style of the pool on every army pairing (each army against itself, or
  every ordered pair), both seatings with the same seed. **Common random numbers:** the
  games of a generation — seeds, pairings, seats — depend only on the master seed and the
  generation number (:func:`tuning_plan`), so every candidate of a generation plays
  exactly the same games, and a better score is a better vector rather than kinder dice.
  Each generation plays new games, so the search does not fit one set of deals.
- **The result** is the search's centre (the mean of the CMA-ES distribution) after the
  last finished generation, rounded to 4 decimals, not the single best candidate: with a
  noisy fitness the top score of a generation is inflated by the selection itself. The
  centre is also played on every generation's games, so the log shows its progress on
  equal terms.
- **Held-out evaluation** (:func:`evaluate`) plays the result against each named style on
  seeds from a separate stream (:func:`heldout_plan`) that tuning never uses: each army
  against itself, both seatings; win rates with 95 % Wilson intervals.

Same seed, same result: the optimiser draws from its own generator seeded from the master
seed (the global numpy state is never used), and game i of a block is seeded from the
block seed and i alone, whatever the thread count.

The games (plans, the :class:`Arena`, :func:`evaluate`) are in ``tune_games.py``; ``tune_io``
turns the command's option strings into a :class:`TuneSpec` and writes a run's files: ``run``
takes the writer as its ``checkpoint`` function (``tune_io.checkpoint``), so this module
never imports that one.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.styles import Policy
from manoeuvre_sim.manoeuvre.tune_games import (  # the games; their names resolve here too
    Arena,
    army_pairs,
    evaluate,
    games_per_block,
    heldout_plan,
    tuning_plan,
)

# 0/1 switches: never searched (a continuous search over a flag means nothing)
FLAGS = ("switch",)
# held at the base value unless --fix says otherwise: the unit the other values are in
DEFAULT_FIXED = ("hit",)
# the searched range of each parameter (engine/players/params.py; docs/players.md)
BOUNDS: dict[str, tuple[float, float]] = {
    "hit": (0.25, 3.0),
    "elim": (0.0, 4.0),
    "own_loss": (0.3, 3.0),
    "attack_min": (-0.5, 1.5),
    "advance": (0.0, 5.0),
    "control": (0.0, 3.0),
    "terrain": (0.0, 1.5),
    "threat": (0.0, 3.0),
    "opportunity": (0.0, 4.0),
    "keep": (0.0, 8.0),
    "cycle": (0.0, 4.0),
    "card_cost": (0.0, 0.3),
    "ground": (0.0, 2.0),
    "committed_cost": (0.0, 3.0),
    "def_guess": (0.0, 5.0),
    "churn": (0.0, 5.0),
}
SCALE = 10.0  # each searched parameter spans 0..SCALE in the optimiser's space
DECIMALS = 4  # the result is rounded to this many decimals (and evaluated as rounded)
DEFAULT_POOL = ("attritional", "territorial", "balanced")
DEFAULT_AGAINST = ("random", "simple", "attritional", "territorial", "balanced")


def require_cma():
    """The ``cma`` module, or a one-line error naming the extra that installs it."""
    try:
        import cma
    except ImportError:
        raise UsageError(
            "tune: needs the optional package 'cma' (CMA-ES); install it with "
            "pip install 'manoeuvre-sim[tune]'"
        ) from None
    return cma


# --- the search space ------------------------------------------------------------------------
@dataclass(frozen=True)
class Space:
    """The searched parameters: ``free`` indices into the parameter vector with their
    bounds; every other parameter stays at ``base``."""

    names: tuple[str, ...]  # every parameter (PARAM_NAMES)
    base: tuple[float, ...]
    free: tuple[int, ...]
    lo: tuple[float, ...]
    hi: tuple[float, ...]
    held: dict[str, str] = field(default_factory=dict)  # parameter -> why it is not searched

    @property
    def dim(self) -> int:
        return len(self.free)

    def to_params(self, x: Sequence[float]) -> np.ndarray:
        """The full parameter vector for a point of the 0..SCALE space (clipped to it)."""
        p = np.array(self.base, dtype=np.float64)
        u = np.clip(np.asarray(x, dtype=np.float64), 0.0, SCALE) / SCALE
        lo, hi = np.array(self.lo), np.array(self.hi)
        p[list(self.free)] = lo + u * (hi - lo)
        return p

    def to_x(self, params: Sequence[float]) -> np.ndarray:
        p = np.asarray(params, dtype=np.float64)[list(self.free)]
        lo, hi = np.array(self.lo), np.array(self.hi)
        return SCALE * (p - lo) / (hi - lo)


def parse_bounds(items: Sequence[str]) -> dict[str, tuple[float, float]]:
    """``NAME=LO:HI`` items (``--bounds``) as a dict."""
    from manoeuvre_sim.manoeuvre.engine.players import PARAM_NAMES

    out = {}
    for item in items:
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*=\s*([^:]+):(.+)", item)
        if not m:
            raise UsageError(f"--bounds {item!r}: expected NAME=LO:HI, e.g. keep=2:7")
        name = m.group(1)
        if name not in PARAM_NAMES:
            raise UsageError(
                f"--bounds {item!r}: unknown parameter {name!r}; expected one of "
                f"{', '.join(PARAM_NAMES)}"
            )
        if name in FLAGS:
            raise UsageError(f"--bounds {item!r}: {name} is a 0/1 switch and is never searched")
        try:
            lo, hi = float(m.group(2)), float(m.group(3))
        except ValueError:
            raise UsageError(f"--bounds {item!r}: expected numbers LO:HI, e.g. keep=2:7") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise UsageError(f"--bounds {item!r}: expected finite LO < HI")
        out[name] = (lo, hi)
    return out


def search_space(
    base: Sequence[float],
    *,
    fixed: Sequence[str] = DEFAULT_FIXED,
    bounds: dict[str, tuple[float, float]] | None = None,
) -> Space:
    """The space searched around ``base``: every parameter with bounds (:data:`BOUNDS`,
    then ``bounds``) except the flags and ``fixed``."""
    from manoeuvre_sim.manoeuvre.engine.players import NPARAM, PARAM_NAMES

    names = tuple(PARAM_NAMES)
    if len(base) != NPARAM:
        raise UsageError(f"--base: expected {NPARAM} parameters, got {len(base)}")
    for n in fixed:
        if n not in names:
            raise UsageError(f"--fix: unknown parameter {n!r}; expected one of {', '.join(names)}")
    known = BOUNDS | (bounds or {})
    free, lo, hi, held = [], [], [], {}
    for i, n in enumerate(names):
        if n in FLAGS:
            held[n] = "a 0/1 switch"
        elif n in fixed:
            held[n] = "fixed"
        elif n not in known:
            held[n] = "no bounds known (give them with --bounds NAME=LO:HI)"
        else:
            a, b = known[n]
            if not a <= base[i] <= b:
                raise UsageError(
                    f"--bounds: the base value of {n} ({base[i]:g}) lies outside {a:g}..{b:g}"
                )
            free.append(i)
            lo.append(float(a))
            hi.append(float(b))
    if not free:
        raise UsageError("--fix: every parameter is held; nothing left to search")
    return Space(names, tuple(float(x) for x in base), tuple(free), tuple(lo), tuple(hi), held)


# --- the run -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TuneSpec:
    base: Policy
    pool: tuple[Policy, ...]
    armies: tuple  # model.Army
    against: tuple[Policy, ...] = ()  # the held-out opponents (empty: no evaluation)
    pairings: str = "mirror"
    games_per_eval: int = 960
    generations: int = 30
    popsize: int | None = None  # None: CMA-ES's default, 4 + 3 ln(dim)
    sigma: float = 2.0
    seed: int = 1
    eval_games: int = 4400  # per held-out opponent
    threads: int = 0
    name: str = "tuned_new"
    fixed: tuple[str, ...] = DEFAULT_FIXED
    bounds: tuple[tuple[str, float, float], ...] = ()
    command: str = ""
    sources: tuple[str, ...] = ()
    # the rule options every game is played with (manoeuvre.adapter.RuleOptions; None: the defaults)
    options: object = None

    def __post_init__(self) -> None:
        checks = (
            (self.generations >= 0, "--generations", "0 (evaluate --base only) or more"),
            (self.popsize is None or self.popsize >= 2, "--popsize", "2 or more"),
            (math.isfinite(self.sigma) and 0 < self.sigma <= SCALE, "--sigma",
             f"a step size in (0, {SCALE:g}] (the space spans 0..{SCALE:g} per parameter)"),
            (0 <= self.seed < 2**63, "--seed", "an integer in 0..2**63-1"),
            (self.eval_games >= 0, "--eval-games", "0 (no evaluation) or more"),
            (self.threads >= 0, "--threads", "0 (all cores) or more"),
            (self.games_per_eval >= 1, "--games-per-eval", "a positive number of games"),
        )  # fmt: skip
        for ok, opt, what in checks:
            if not ok:
                value = {
                    "--generations": self.generations, "--popsize": self.popsize,
                    "--sigma": self.sigma, "--seed": self.seed, "--eval-games": self.eval_games,
                    "--threads": self.threads, "--games-per-eval": self.games_per_eval,
                }[opt]  # fmt: skip
                raise UsageError(f"{opt}: expected {what}, got {value}")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", self.name):
            raise UsageError(
                f"--name: expected a style name of letters, digits, _ and -, got {self.name!r}"
            )
        from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES

        if self.name in POLICY_NAMES:
            raise UsageError(
                f"--name: {self.name!r} is a built-in policy; a styles file may not reuse it"
            )
        if self.base.base in ("random", "simple"):
            raise UsageError(
                f"--base: expected a heuristic style (attritional, territorial, balanced or a "
                f"variant of one), got {self.base.name!r}"
            )
        if not self.pool:
            raise UsageError("--pool: expected at least one policy")
        if not self.armies:
            raise UsageError("--armies: expected at least one army")
        for opt, items in (("--pool", [p.name for p in self.pool]),
                           ("--armies", [a.name for a in self.armies]),
                           ("--against", [p.name for p in self.against])):  # fmt: skip
            if len(set(items)) != len(items):
                raise UsageError(f"{opt}: a name is given twice")

    def space(self) -> Space:
        bounds = {n: (lo, hi) for n, lo, hi in self.bounds}
        return search_space(self.base.params, fixed=self.fixed, bounds=bounds)

    def pairs(self) -> list[tuple[str, str]]:
        return army_pairs([a.name for a in self.armies], self.pairings)

    def per_block(self) -> int:
        return games_per_block(self.games_per_eval, len(self.pool), len(self.pairs()))

    def eval_per_block(self) -> int:
        n = len([a.name for a in self.armies])
        return games_per_block(self.eval_games, 1, n) if self.eval_games else 0


# what ``run`` hands out after every generation: (spec, space, params, log, heldout,
# manifest) -> None (``tune_io.checkpoint`` writes the run's files)
Checkpoint = Callable[..., None]


@dataclass
class TuneResult:
    spec: TuneSpec
    space: Space
    params: np.ndarray  # the result (rounded), the full vector
    log: list[dict]
    heldout: list[dict]
    manifest: dict
    interrupted: bool = False
    stop: dict = field(default_factory=dict)


def round_params(p: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(p, dtype=np.float64), DECIMALS) + 0.0  # no -0.0


def cma_options(spec: TuneSpec, space: Space, rng: np.random.Generator) -> dict:
    opts = {
        "bounds": [0.0, SCALE],
        "seed": float("nan"),  # cma must not seed numpy's global generator...
        "randn": lambda *shape: rng.standard_normal(shape),  # ...it draws from ours
        "verbose": -9,
        "verb_disp": 0,
        "verb_log": 0,  # no outcmaes/ files
        "tolfun": 0.0,  # noisy fitness: stop only by the budget (or a flat fitness)
        "tolfunhist": 0.0,
    }
    if spec.popsize is not None:
        opts["popsize"] = spec.popsize
    return opts


def run(
    spec: TuneSpec,
    *,
    checkpoint: Checkpoint | None = None,
    progress: Callable[[int, int], None] | None = None,
    report: Callable[[str], None] | None = None,
) -> TuneResult:
    """Tune, then evaluate on held-out seeds. ``checkpoint(spec, space, params, log, heldout,
    manifest)`` is called with the run so far at the start, after every generation (and
    held-out opponent) and at the end: ``tune_io.checkpoint(out_dir)`` rewrites the run's
    files atomically, so an interrupted run leaves a complete best-so-far result. A
    KeyboardInterrupt ends the run after the last finished generation (or held-out
    opponent) with ``interrupted`` set."""
    cma = require_cma()
    space = spec.space()
    pool_names = [p.name for p in spec.pool]
    pairs = spec.pairs()
    per = spec.per_block()
    arena = _arena(spec)
    es = _strategy(cma, spec, space)
    lam = int(es.popsize)
    gen_games = (lam + 1) * 2 * len(pool_names) * len(pairs) * per
    ev_per = spec.eval_per_block()
    total = spec.generations * gen_games + len(spec.against) * 2 * len(spec.armies) * ev_per
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    say = report or (lambda line: None)
    games_per_candidate = 2 * len(pool_names) * len(pairs) * per
    manifest = _manifest(spec, space, arena, cma.__version__, lam, per, games_per_candidate)
    log: list[dict] = []
    heldout: list[dict] = []
    result = round_params(space.to_params(es.result.xfavorite))
    interrupted = False
    stop: dict = {}
    t0 = time.perf_counter()

    def save(status: str) -> None:
        manifest.update(
            status=status,
            generations_done=len(log),
            games_played=done,
            seconds=round(time.perf_counter() - t0, 1),
            stop=stop,
            result={n: float(v) for n, v in zip(space.names, result, strict=True)},
        )
        if checkpoint is not None:
            checkpoint(spec, space, result, log, heldout, manifest)

    save("running")
    try:
        for g in range(spec.generations):
            tg = time.perf_counter()
            plan = tuning_plan(spec.seed, g, pool_names, pairs, per)
            row = _generation(es, space, arena, plan, tick, generation=g, lam=lam, start=tg)
            log.append(row)
            result = round_params(space.to_params(es.result.xfavorite))
            save("running")
            say(_generation_line(row, spec.generations))
            s = es.stop()
            if s:
                stop = {k: str(v) for k, v in s.items()}
                say(f"the optimiser stopped: {', '.join(stop)}")
                break
        if spec.against and spec.eval_games:
            hp = heldout_plan(spec.seed, [p.name for p in spec.against],
                              [(a.name, a.name) for a in spec.armies], ev_per)  # fmt: skip
            for row in evaluate(arena, result, hp, tick):
                heldout.append(row)
                save("running")
    except KeyboardInterrupt:
        interrupted = True
    save("interrupted" if interrupted else "finished")
    return TuneResult(spec, space, result, log, heldout, manifest, interrupted, stop)


def _arena(spec: TuneSpec) -> Arena:
    """Where the candidates play: the spec's armies, its pool and held-out styles."""
    policies = {p.name: p for p in (*spec.pool, *spec.against)}
    return Arena(
        {a.name: a for a in spec.armies}, policies, threads=spec.threads,
        base_policy=spec.base.base, options=spec.options,
    )  # fmt: skip


def _strategy(cma, spec: TuneSpec, space: Space):
    """The CMA-ES search, started at the base vector, drawing from its own generator seeded
    from the master seed."""
    rng = np.random.default_rng(np.random.SeedSequence([spec.seed, 0x7475_6E65]))  # "tune"
    return cma.CMAEvolutionStrategy(list(space.to_x(space.base)), spec.sigma,
                                    cma_options(spec, space, rng))  # fmt: skip


def _generation_line(row: dict, generations: int) -> str:
    """A generation's line of progress, from its row of the log."""
    return (
        f"generation {row['generation'] + 1}/{generations}: centre {row['fitness_centre']:.3f}, "
        f"candidates mean {row['fitness_mean']:.3f} best {row['fitness_best']:.3f}, "
        f"sigma {row['sigma']:.2f}, {row['seconds']:.0f} s"
    )


def _generation(es, space: Space, arena: Arena, plan, tick, *, generation: int, lam: int,
                start: float) -> dict:  # fmt: skip
    """One generation of the search on the games of ``plan``: every candidate and the
    centre play them, the optimiser is told the candidates' scores. Its row of the log
    (``start``: the generation's ``perf_counter`` at its start)."""
    xs = es.ask()
    centre = round_params(space.to_params(es.result.xfavorite))
    scores = [arena.score(space.to_params(x), plan, tick) for x in xs]
    centre_score = arena.score(centre, plan, tick)
    rates = np.array([s.rate for s in scores])
    es.tell(xs, list(1.0 - rates))
    b = int(np.argmax(rates))
    best = space.to_params(xs[b])
    row = {
        "generation": generation,
        "games_per_candidate": scores[0].games,
        "candidates": lam,
        "fitness_mean": float(rates.mean()),
        "fitness_best": float(rates[b]),
        "fitness_worst": float(rates.min()),
        "fitness_centre": centre_score.rate,
        "sigma": float(es.sigma),
        "seconds": round(time.perf_counter() - start, 2),
    }
    for i in space.free:
        row[f"centre_{space.names[i]}"] = float(centre[i])
    for i in space.free:
        row[f"best_{space.names[i]}"] = float(best[i])
    return row


def _manifest(spec: TuneSpec, space: Space, arena: Arena, cma_version: str, lam: int, per: int,
              games_per_candidate: int) -> dict:  # fmt: skip
    """The run's manifest before its first game: what is tuned, against what, how."""
    from manoeuvre_sim import __version__
    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.adapter import study_data_hash
    from manoeuvre_sim.manoeuvre.runner import config_dict, sections_record

    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "command": spec.command,
        "seed": spec.seed,
        "data_hash": study_data_hash(spec.armies, arena.options),
        "options": config_dict(arena.options),
        **sections_record(arena.options.sections_file),
        "armies": [a.name for a in spec.armies],
        "army_sources": list(spec.sources),
        "pairings": spec.pairings,
        "base": {"name": spec.base.name, "policy": spec.base.base,
                 "params": list(spec.base.params)},
        "pool": {p.name: {"policy": p.base, "params": list(p.params)} for p in spec.pool},
        "games_per_candidate": games_per_candidate,
        "games_per_block": per,
        "generations_requested": spec.generations,
        "popsize": lam,
        "sigma0": spec.sigma,
        "optimiser": f"cma {cma_version} CMAEvolutionStrategy",
        "space": {
            "scale": SCALE,
            "searched": {space.names[i]: [lo, hi]
                         for i, lo, hi in zip(space.free, space.lo, space.hi, strict=True)},
            "held": space.held,
        },
        "param_names": list(space.names),
        "name": spec.name,
        "threads": spec.threads,
        "seeds": "tuning blocks: (seed, 'tune', generation, opponent, army_a, army_b); "
        "held-out: (seed, 'heldout', opponent, army_a, army_b) - disjoint streams",
    }  # fmt: skip
