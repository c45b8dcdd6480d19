"""The balance fixer (issue 40), written once over the game interface: the errata of least
cost that brings the chosen sides' field win rates into a band, found on paired seeds with
a sequential test and confirmed on fresh seeds.

The question
    the sides of a study, the sides that may be edited (``editable``; default all), the
    *targets* (default all sides) and the band ``lo:hi`` (default 0.45:0.55) their field
    win rates must reach (a side's field rate: its mean score, a win 1 and a draw 1/2, over
    its games against the other sides in both seats, mirrors left out: the balance study's
    side table); the edits allowed and what each costs (``costs``: kind -> (cost, range));
    the budget (a total cost).
The objective
    D = the sum over the targets of the distance of the field rate from the band (0 inside).
The test (one candidate errata against a reference: the base, or the errata it extends)
    Every candidate plays the base's seeds (common random numbers: a pairing's variant keeps
    the base pairing's seed, game ``i`` is seeded from ``(seed, i)`` alone), so per game
    index the target's field score of the candidate minus that of the reference is a paired
    difference. It is played in *looks* of ``games_per_look`` games per pairing, and after
    each look two confidence sequences per target are formed: one for the reference's field
    rate r and one for the paired change m. They are the asymptotic normal-mixture
    confidence sequences of Waudby-Smith, Arnold, Wu & Ramdas (2021), "Time-uniform central
    limit theory and asymptotic confidence sequences", arXiv:2103.06476, Theorem 2.2
    (:func:`cs_radius`): valid at every look at once, so the candidate may be looked at as
    often as we like. Each holds with probability 1 - alpha / (2 x targets) (Bonferroni), so
    the whole box of (r, m) of every target holds with probability >= 1 - alpha at every
    look. The candidate is *helpful* when D(r + m) < D(r) at every point of the box, *not
    helpful* when D(r + m) >= D(r) at every point, and plays another look otherwise, up to
    ``max_games`` per pairing (then *inconclusive*). So a candidate that does not improve
    the objective is called helpful with probability <= alpha, and one that does is called
    not helpful with probability <= alpha (alpha = beta = 0.05 by default; asymptotic
    guarantees, measured in tests/studies/test_fix.py). A candidate whose games are all the
    reference's games after a look is *unchanged* (the edit changed no game on these seeds).
    Stopping when a fixed 95 % interval excludes the target, looked at after every look,
    would be wrong far more than 5 % of the time (measured in the same test).
The search
    Every single edit of the editable sides within the budget, least cost first; then,
    greedily, the helpful singles added one at a time to the best errata so far (the
    combination played on the same seeds and tested against the errata it extends; of the
    helpful additions the cheapest that meets the objective, else the one of the smallest
    estimated D), until the estimate is in the band or the budget is spent. An errata *meets* the objective when it is helpful and
    every target's estimated rate is in the band; the answer is the meeting errata of least
    cost (then fewest printed changes, then the smallest D), else the best errata of the
    frontier (the smallest estimated D at each cost).
The confirmation
    The answer played against the base on a fresh master seed (``confirm_seed``, never used
    in the search), ``confirm_games`` per pairing, paired: per pairing the paired change
    with its 95 % interval and a Holm-adjusted p-value over the pairings ("what else
    moved"); each target's fixed field rate with a Bonferroni interval over the targets;
    *confirmed* when every target's interval lies in the band.

The game's hooks (optional members of a game module, found with ``getattr``; another issue
declares them in ``core/games.py``)::

    FIX_EDIT_KINDS: dict[str, tuple[int, int, str]]
        edit kind -> (default cost of one step, default range in steps, what it changes)
    fix_edits(side, costs: dict[str, tuple[int, int]]) -> list[tuple[str, str, int]]
        the candidate edits of a side under ``costs`` (kind -> (cost of a step, range)):
        (the edit in the game's what-if language, its kind, its cost), each legal by the
        game's own validation
    apply_side_edits(side, edits: list[str]) -> tuple[side, list[str]]
        the side with ``edits`` applied in order, validated by the game's edit code
        (UsageError when illegal), and the change lines ("WHERE: BEFORE -> AFTER")

Python API::

    from manoeuvre_sim.studies import fix
    res = fix.run("manoeuvre", ["France", "Russia", "Austria"], editable=["France"],
                  band=(0.45, 0.55), out_dir="reports/fix")
    res.errata      # the chosen edits; res.trail: every candidate tried
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import io
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import resolve
from manoeuvre_sim.core.study import Pairing, Task, blocks, play
from manoeuvre_sim.studies.whatif import BASE, VARIANT, Joint, paired_row, play_paired

DEFAULT_BAND = (0.45, 0.55)
DEFAULT_BUDGET = 6
DEFAULT_ALPHA = 0.05
BASE_LABEL = "base"
SCORE = {"a": np.array([1.0, 0.0, 0.5]), "b": np.array([0.0, 1.0, 0.5])}  # by winner a, b, draw


# ----------------------------------------------------------------------- the statistics


def cs_radius(n, var, alpha: float, t_star: float, v0: float):
    """Half-width at ``n`` samples of the two-sided asymptotic confidence sequence for a
    mean (Waudby-Smith, Arnold, Wu & Ramdas 2021, arXiv:2103.06476, Theorem 2.2, the
    normal-mixture boundary of Robbins 1970)::

        sqrt( 2 (n v rho^2 + 1) / (n^2 rho^2) * log( sqrt(n v rho^2 + 1) / alpha ) )

    ``var``: the sample variance of one sample; ``rho`` is fixed before any game so that the
    width is least at ``t_star`` samples for a variance ``v0`` (their Eq. for the optimal
    rho: ``rho^2 v0 t_star = -2 log alpha + log(1 - 2 log alpha)``). Every look may be read:
    with probability >= 1 - alpha (asymptotically) the mean is inside at every n at once."""
    n = np.asarray(n, dtype=np.float64)
    c = -2.0 * math.log(alpha) + math.log(1.0 - 2.0 * math.log(alpha))
    rho2 = c / (t_star * v0)
    tv = n * np.asarray(var, dtype=np.float64) * rho2 + 1.0
    return np.sqrt(2.0 * tv / (n * n * rho2) * np.log(np.sqrt(tv) / alpha))


def distance(x, band: tuple[float, float]) -> float:
    """How far a rate is from the band (0 inside)."""
    lo, hi = band
    return float(max(lo - x, 0.0, x - hi))


def gain_range(r: tuple[float, float], m: tuple[float, float], band) -> tuple[float, float]:
    """The least and the greatest of ``distance(r) - distance(r + m)`` over the rectangle
    ``r x m`` (the objective's improvement for one target). The function is piecewise linear
    with kinks on the lines r = lo, r = hi, r + m = lo, r + m = hi, so its extremes are at
    the rectangle's corners or where those lines cross its edges or each other."""
    (r0, r1), (m0, m1) = r, m
    cuts = band
    rs = {r0, r1} | {c for c in cuts if r0 <= c <= r1}
    rs |= {c - x for c in cuts for x in (m0, m1) if r0 <= c - x <= r1}
    vals = []
    for rv in rs:
        ms = {m0, m1} | {c - rv for c in cuts if m0 <= c - rv <= m1}
        vals += [distance(rv, band) - distance(rv + mv, band) for mv in ms]
    return min(vals), max(vals)


@dataclass(frozen=True)
class TargetStats:
    """One target's field rate over ``n`` games per pairing: the reference's mean and the
    variance of its per-game-index field score, the paired change's mean and variance."""

    n: int
    ref: float
    ref_var: float
    change: float
    change_var: float
    changed_games: int
    ref_n: int | None = None  # the reference's own games per pairing (None: n)

    @property
    def rate(self) -> float:
        return self.ref + self.change


@dataclass(frozen=True)
class Judgement:
    verdict: str  # helpful, not helpful, unchanged, continue
    gain_low: float
    gain_high: float


def judge(stats: Sequence[TargetStats], band, alpha: float, t_star: float, v0: float,
          last: bool = False) -> Judgement:  # fmt: skip
    """The sequential verdict on one candidate after a look (module docstring): the box of
    every target's reference rate and paired change, each from its confidence sequence at
    ``alpha / (2 x targets)``; ``last``: the cap is reached (``continue`` becomes
    ``inconclusive``)."""
    a = alpha / (2 * len(stats))
    low = high = 0.0
    for s in stats:
        wr = float(cs_radius(s.ref_n or s.n, s.ref_var, a, t_star, v0))
        wm = float(cs_radius(s.n, s.change_var, a, t_star, v0))
        g0, g1 = gain_range((s.ref - wr, s.ref + wr), (s.change - wm, s.change + wm), band)
        low, high = low + g0, high + g1
    if all(s.changed_games == 0 for s in stats):
        return Judgement("unchanged", low, high)
    if low > 0:
        return Judgement("helpful", low, high)
    if high <= 0:
        return Judgement("not helpful", low, high)
    return Judgement("inconclusive" if last else "continue", low, high)


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error over the pairings)."""
    p = np.asarray(p, dtype=np.float64)
    order = np.argsort(p)
    adj = np.empty_like(p)
    run = 0.0
    for k, i in enumerate(order):
        run = max(run, min(1.0, (len(p) - k) * p[i]))
        adj[i] = run
    return adj


# ----------------------------------------------------------------------- the question


@dataclass(frozen=True)
class Edit:
    """One edit a game offers: its text in the game's what-if language, its kind, its cost,
    the side it edits."""

    side: str
    text: str
    kind: str
    cost: int

    @property
    def slot(self) -> str:
        """What it sets (the text before '='): two edits of one slot never combine."""
        return f"{self.side}\x00{self.text.rsplit('=', 1)[0].strip().casefold()}"


def parse_band(text: str | tuple, flag: str = "--target") -> tuple[float, float]:
    """``LO:HI`` (fractions 0..1, or a tuple) -> (lo, hi), a one-line UsageError else."""
    if isinstance(text, tuple):
        lo, hi = text
    else:
        try:
            lo, hi = (float(x) for x in str(text).split(":"))
        except ValueError:
            raise UsageError(f"{flag} {text!r}: expected LO:HI, e.g. 0.45:0.55") from None
    if not (0.0 <= lo < hi <= 1.0):
        raise UsageError(f"{flag} {text!r}: expected LO:HI with 0 <= LO < HI <= 1 (win rates "
                         "as fractions, e.g. 0.45:0.55)")  # fmt: skip
    return float(lo), float(hi)


def edit_kinds(g) -> dict[str, tuple[int, int, str]]:
    """The game's edit kinds (its ``FIX_EDIT_KINDS`` hook), a UsageError without them."""
    kinds = getattr(g, "FIX_EDIT_KINDS", None)
    if not kinds or not hasattr(g, "fix_edits") or not hasattr(g, "apply_side_edits"):
        raise UsageError(f"fix: the game {g.KEY!r} offers no edits to the fixer (it has no "
                         "FIX_EDIT_KINDS, fix_edits, apply_side_edits)")  # fmt: skip
    return dict(kinds)


def read_costs(g, source: str | Path | Mapping | None) -> dict[str, tuple[int, int]]:
    """The edit kinds allowed and what a step of each costs: ``source`` a TOML file (or its
    parsed mapping) of ``[kind]`` tables with ``cost`` and ``range`` (only the kinds listed
    are allowed; a missing key takes the game's default), or None (every kind at its
    default)."""
    import tomllib

    kinds = edit_kinds(g)
    if source is None:
        return {k: (c, r) for k, (c, r, _) in kinds.items()}
    flag = "--edits"
    if isinstance(source, Mapping):
        data, where = dict(source), flag
    else:
        where = f"{flag} {source}"
        try:
            data = tomllib.loads(Path(source).read_text(encoding="utf-8"))
        except OSError as e:
            raise UsageError(f"{where}: cannot read it ({e.strerror})") from None
        except tomllib.TOMLDecodeError as e:
            raise UsageError(f"{where}: not TOML ({e})") from None
    out = {}
    for kind, spec in data.items():
        if kind not in kinds:
            raise UsageError(f"{where}: edit kind {kind!r} is not one the game {g.KEY!r} "
                             f"offers; expected one of: {', '.join(kinds)}")  # fmt: skip
        if not isinstance(spec, Mapping):
            raise UsageError(f"{where}: [{kind}]: expected a table with cost and range")
        bad = sorted(set(spec) - {"cost", "range"})
        if bad:
            raise UsageError(f"{where}: [{kind}]: unknown key {bad[0]!r}; expected cost, range")
        cost, rng = spec.get("cost", kinds[kind][0]), spec.get("range", kinds[kind][1])
        for name, v, least in (("cost", cost, 1), ("range", rng, 0)):
            if not isinstance(v, int) or isinstance(v, bool) or v < least:
                raise UsageError(f"{where}: [{kind}] {name}: expected an integer >= {least}, "
                                 f"got {v!r}")  # fmt: skip
        out[kind] = (cost, rng)
    return out


@dataclass(frozen=True)
class FixSpec:
    """Everything that decides a fix's games and its search (recorded in the manifest)."""

    balance: object  # studies.balance.BalanceSpec of the search seed
    targets: tuple[str, ...]
    editable: tuple[str, ...]
    band: tuple[float, float]
    costs: dict
    budget: int
    games_per_look: int
    max_games: int
    confirm_games: int
    confirm_seed: int
    alpha: float
    edits: tuple[Edit, ...]

    def record(self) -> dict:
        return {"targets": list(self.targets), "editable": list(self.editable),
                "band": list(self.band), "costs": {k: list(v) for k, v in self.costs.items()},
                "budget": self.budget, "games_per_look": self.games_per_look,
                "max_games": self.max_games, "alpha": self.alpha,
                "test": "asymptotic confidence sequences (Waudby-Smith et al. 2021), "
                        "Bonferroni over the targets' rates and changes"}  # fmt: skip


def _side_flag(names: Sequence[str], typed: str, flag: str) -> str:
    from manoeuvre_sim.core.errors import did_you_mean

    key = typed.strip().casefold()
    for n in names:
        if n.casefold() == key:
            return n
    raise UsageError(f"{flag} {typed!r}: not a side of the study{did_you_mean(typed, names)} "
                     f"(expected one of: {', '.join(names)})")  # fmt: skip


def command_spec(game, sides: Sequence, *, editable: Sequence[str] | None = None,
                 targets: Sequence[str] | None = None, band=DEFAULT_BAND, edits=None,
                 budget: int = DEFAULT_BUDGET, policy: str | None = None,
                 games_per_look: int = 200, max_games: int = 2000, confirm_games: int = 2000,
                 seed: int = 1, confirm_seed: int | None = None, alpha: float = DEFAULT_ALPHA,
                 options=None, threads: int = 0) -> FixSpec:  # fmt: skip
    """Every option checked (one line each) and every candidate edit listed, before any game."""
    from manoeuvre_sim.studies.balance import BalanceSpec

    g = resolve(game)
    band = parse_band(band)
    if not 0.0 < alpha < 0.5:
        raise UsageError(f"--alpha: expected an error rate between 0 and 0.5, got {alpha}")
    for flag, v in (("--games-per-look", games_per_look), ("--max-games", max_games),
                    ("--confirm-games", confirm_games)):  # fmt: skip
        if v < 2:
            raise UsageError(f"{flag}: expected at least 2 games, got {v}")
    if max_games < games_per_look:
        raise UsageError(f"--max-games {max_games}: expected at least --games-per-look "
                         f"({games_per_look})")  # fmt: skip
    if budget < 1:
        raise UsageError(f"--budget {budget}: allows no edit (expected a total cost >= 1)")
    costs = read_costs(g, edits)
    spec = BalanceSpec.of(g, sides, policy=policy, games_per_pairing=games_per_look,
                          seed=seed, options=options, block=games_per_look,
                          threads=threads)  # fmt: skip
    names = spec.names
    tg = tuple(_side_flag(names, t, "--army") for t in targets) if targets else tuple(names)
    ed = tuple(_side_flag(names, t, "--edit") for t in editable) if editable else tuple(names)
    if confirm_seed is None:
        confirm_seed = (seed + 1_000_003) % 2**63
    if confirm_seed == seed:
        raise UsageError(f"--confirm-seed {confirm_seed}: must differ from --seed (the "
                         "errata is confirmed on seeds it was not chosen on)")  # fmt: skip
    if not 0 <= confirm_seed < 2**63:
        raise UsageError(f"--confirm-seed: expected an integer in 0..2**63-1, got {confirm_seed}")
    offered = []
    for name in ed:
        side = spec.sides[names.index(name)]
        for text, kind, cost in g.fix_edits(side, costs):
            offered.append(Edit(name, text, kind, int(cost)))
    if not offered:
        raise UsageError(f"--edits: no edit of {', '.join(ed)} is allowed (kinds: "
                         f"{', '.join(costs) or 'none'}): the edit space is empty")  # fmt: skip
    cheapest = min(e.cost for e in offered)
    within = tuple(sorted((e for e in offered if e.cost <= budget),
                          key=lambda e: (e.cost, e.side, e.text)))  # fmt: skip
    if not within:
        raise UsageError(f"--budget {budget}: allows nothing (the cheapest allowed edit "
                         f"costs {cheapest})")  # fmt: skip
    return FixSpec(spec, tg, ed, band, costs, budget, games_per_look, max_games, confirm_games,
                   confirm_seed, alpha, within)  # fmt: skip


# ----------------------------------------------------------------------- playing


def _key(edits: Sequence[Edit]) -> tuple[Edit, ...]:
    return tuple(sorted(edits, key=lambda e: (e.side, e.text)))


def _label(edits: Sequence[Edit]) -> str:
    if not edits:
        return BASE_LABEL
    h = hashlib.sha256("\x00".join(f"{e.side}\x01{e.text}" for e in _key(edits)).encode())
    return f"c{h.hexdigest()[:10]}"


class _Interrupted(Exception):
    pass


class Player:
    """The games of the base and of every candidate errata on the search's seeds, played a
    look at a time and kept (per candidate, pairing and block: the first player and the
    winner of each game), so that no game is played twice and any two errata can be paired.
    With a store every block is a part of it (``resume``: read back, not played)."""

    def __init__(self, g, spec: FixSpec, *, store=None, manifest=None, backend=None,
                 resume=False, progress=None):  # fmt: skip
        self.g, self.spec = g, spec
        b = spec.balance
        self.base = [replace(p, label=BASE_LABEL) for p in b.pairings()
                     if p.army_a.name != p.army_b.name]  # fmt: skip
        self.sides = dict(zip(b.names, b.sides, strict=True))
        self.frames: dict[tuple, dict[tuple[int, int], object]] = {}
        self.played: dict[tuple, int] = {}
        self.variants: dict[tuple, list[Pairing]] = {}
        self.kw = {"store": store, "manifest": manifest, "backend": backend, "resume": resume,
                   "threads": b.threads}  # fmt: skip
        self.progress = progress
        self.games = 0  # games played or read back
        self.resumed = 0  # blocks read back from the store

    def edited_sides(self, edits: Sequence[Edit]) -> dict[str, object]:
        out = {}
        for name in sorted({e.side for e in edits}):
            texts = [e.text for e in edits if e.side == name]
            out[name] = self.g.apply_side_edits(self.sides[name], texts)[0]
        return out

    def touches(self, edits: Sequence[Edit], k: int) -> bool:
        p = self.base[k]
        names = {e.side for e in edits}
        return p.army_a.name in names or p.army_b.name in names

    def pairings(self, edits: tuple[Edit, ...]) -> list[Pairing]:
        if edits not in self.variants:
            changed = self.edited_sides(edits)
            label = _label(edits)
            self.variants[edits] = [
                replace(p, army_a=changed.get(p.army_a.name, p.army_a),
                        army_b=changed.get(p.army_b.name, p.army_b), label=label)
                for p in self.base
            ]  # fmt: skip
        return self.variants[edits]

    def ensure(self, edits: Sequence[Edit], n: int) -> None:
        """Games 0 .. n-1 of every pairing the errata ``edits`` touches (the base: all)."""
        key = _key(edits)
        have = self.played.get(key, 0)
        if have >= n:
            return
        pairings = self.pairings(key) if key else self.base
        look = self.spec.games_per_look
        todo = [k for k in range(len(self.base)) if not key or self.touches(key, k)]
        tasks = [t for k in todo for t in blocks(k, have, n, look)]
        got = self.frames.setdefault(key, {})

        def keep(task: Task, df, stats=None) -> None:
            got[(task.pairing, task.first_game)] = df[["game", "first_player", "winner"]]
            self.games += task.count
            if self.progress is not None:
                self.progress(task.count)

        # study.play says what it read back on every call (a look of a candidate): the fix
        # says it once, at the end of the search (``resumed``)
        quiet = io.StringIO() if self.kw["resume"] else None
        with contextlib.redirect_stderr(quiet) if quiet else contextlib.nullcontext():
            out = play(pairings, tasks, game=self.g, options=self.spec.balance.options,
                       on_frame=keep, **self.kw)  # fmt: skip
        self.resumed += out.tasks_resumed
        if out.interrupted:
            raise _Interrupted
        self.played[key] = n

    def frames_of(self, edits: tuple[Edit, ...], k: int, n: int) -> list[tuple[int, object]]:
        key = edits if edits and self.touches(edits, k) else ()
        got = self.frames[key]
        return [(t.first_game, got[(k, t.first_game)])
                for t in blocks(k, 0, n, self.spec.games_per_look)]  # fmt: skip

    def joint(self, cand: tuple[Edit, ...], ref: tuple[Edit, ...], n: int) -> Joint:
        """Every base pairing's paired games of ``cand`` against ``ref`` (games 0..n-1)."""
        j = Joint()
        for k in range(len(self.base)):
            for (first, r), (_, c) in zip(self.frames_of(ref, k, n), self.frames_of(cand, k, n),
                                          strict=True):  # fmt: skip
                j.add(BASE, k, first, r)
                j.add(VARIANT, k, first, c)
        return j


def _moments(counts: np.ndarray, seat: str) -> tuple[int, float, float, float, float, int]:
    """Of one pairing's Joint counts, for side ``seat``: games, the reference's mean score
    and variance, the paired change's mean and variance, the games whose winner changed."""
    c = counts.reshape(2, 3, 2, 3).sum(axis=(0, 2))  # winner ref x winner cand
    s = SCORE[seat]
    n = int(c.sum())
    x = np.broadcast_to(s[:, None], c.shape)
    d = s[None, :] - s[:, None]
    mx = float((c * x).sum()) / n
    md = float((c * d).sum()) / n
    vx = max(float((c * x * x).sum()) / n - mx * mx, 0.0) * n / max(n - 1, 1)
    vd = max(float((c * d * d).sum()) / n - md * md, 0.0) * n / max(n - 1, 1)
    return n, mx, vx, md, vd, int(n - np.trace(c))


def field_stats(base: Sequence[Pairing], joint: Joint, targets: Sequence[str]) -> list[TargetStats]:
    """Per target: its field rate (the mean over its pairings, both seats, of its score; the
    pairings independent, so the per-game-index variance is the sum of theirs over m^2)."""
    out = []
    for t in targets:
        parts = [_moments(joint.counts[k], "a" if p.army_a.name == t else "b")
                 for k, p in enumerate(base) if t in (p.army_a.name, p.army_b.name)]  # fmt: skip
        m = len(parts)
        n = min(x[0] for x in parts)
        out.append(TargetStats(n, sum(x[1] for x in parts) / m, sum(x[2] for x in parts) / m**2,
                               sum(x[3] for x in parts) / m, sum(x[4] for x in parts) / m**2,
                               sum(x[5] for x in parts)))  # fmt: skip
    return out


# ----------------------------------------------------------------------- the search


@dataclass
class Trial:
    """One candidate tried: its edits, what it was tested against, its games and verdict."""

    edits: tuple[Edit, ...]
    against: tuple[Edit, ...]
    step: str
    games: int = 0
    verdict: str = ""
    gain_low: float = float("nan")
    gain_high: float = float("nan")
    rates: dict = field(default_factory=dict)
    distance: float = float("nan")

    @property
    def cost(self) -> int:
        return sum(e.cost for e in self.edits)

    def meets(self, band) -> bool:
        return self.verdict == "helpful" and all(band[0] <= r <= band[1]
                                                 for r in self.rates.values())  # fmt: skip

    def row(self) -> dict:
        return {"step": self.step, "edits": "; ".join(e.text for e in self.edits),
                "sides": ", ".join(sorted({e.side for e in self.edits})), "cost": self.cost,
                "changes": len(self.edits),
                "against": "; ".join(e.text for e in self.against) or "base",
                "games_per_pairing": self.games, "verdict": self.verdict,
                "gain_low": self.gain_low, "gain_high": self.gain_high,
                "est_distance": self.distance} | {
                f"rate {t}": r for t, r in self.rates.items()}  # fmt: skip


def _rank(t: Trial) -> tuple:
    return (t.cost, len(t.edits), t.distance, [e.text for e in t.edits])


def try_candidate(player: Player, edits: tuple[Edit, ...], against: tuple[Edit, ...] = (),
                   step: str = "single", trail: list | None = None,
                   say: Callable[[str], None] | None = None) -> Trial:  # fmt: skip
    """Play ``edits`` against the errata ``against`` (the base: ``()``) a look at a time on
    the same seeds until the sequential test's verdict (:func:`judge`) or the cap."""
    spec = player.spec
    band, look = spec.band, spec.games_per_look
    v0 = 0.25 / (2 * len(player.sides) - 2)  # rho's design variance: a fair score, m pairings
    trial = Trial(edits, against, step)
    # the reference (shared by every candidate tested against it) is played to the cap once:
    # its rates are then as narrow as they get, the candidate's looks pair with its games
    cap = spec.max_games
    player.ensure(against, cap)
    ref = field_stats(player.base, player.joint(against, against, cap), spec.targets)
    n = 0
    while n < cap:
        n = min(n + look, cap)
        player.ensure(edits, n)
        st = [
            replace(s, ref=r.ref, ref_var=r.ref_var, ref_n=r.n)
            for s, r in zip(field_stats(player.base, player.joint(edits, against, n),
                                        spec.targets), ref, strict=True)
        ]  # fmt: skip
        j = judge(st, band, spec.alpha, spec.max_games, v0, last=n >= spec.max_games)
        if j.verdict != "continue":
            break
    trial.games, trial.verdict = n, j.verdict
    trial.gain_low, trial.gain_high = j.gain_low, j.gain_high
    trial.rates = {t: s.rate for t, s in zip(spec.targets, st, strict=True)}
    trial.distance = sum(distance(r, band) for r in trial.rates.values())
    if trail is not None:
        trail.append(trial)
    if say is not None:
        say(f"fix: {len(trail or ())} tried ({player.games:,} games): "
            f"{'; '.join(e.text for e in edits)} (cost {trial.cost}) {trial.verdict} after "
            f"{n} games, est. distance {trial.distance:.3f}")  # fmt: skip
    return trial


def search(player: Player, say: Callable[[str], None]) -> tuple[list[Trial], Trial | None,
                                                                  float]:  # fmt: skip
    """The candidates tried in order, the answer (None when nothing helped) and the base's
    estimated distance (module docstring, "The search")."""
    spec = player.spec
    band = spec.band
    trail: list[Trial] = []

    def test(edits, against, step):
        return try_candidate(player, edits, against, step, trail, say)

    player.ensure((), spec.max_games)
    st0 = field_stats(player.base, player.joint((), (), spec.max_games), spec.targets)
    d0 = sum(distance(s.ref, band) for s in st0)
    say(f"fix: the base's estimated distance from the band {d0:.3f}; "
        f"{len(spec.edits)} single edits to try")  # fmt: skip
    if d0 == 0:
        return trail, None, d0
    singles = [test((e,), (), "single") for e in spec.edits]
    helpful = [t for t in singles if t.verdict == "helpful"]
    meeting = sorted((t for t in singles if t.meets(band)), key=_rank)
    best = meeting[0] if meeting else None
    cap = best.cost - 1 if best else spec.budget
    pool = sorted((t for t in helpful if t.cost <= cap), key=lambda t: (t.distance, t.cost))
    current = pool[0] if pool else None
    while current is not None and not current.meets(band):
        tried = []
        for h in sorted(helpful, key=lambda t: (t.cost, t.distance)):
            e = h.edits[0]
            if e.slot in {x.slot for x in current.edits} or current.cost + e.cost > cap:
                continue
            tried.append(test(_key((*current.edits, e)), current.edits, "combination"))
        better = [t for t in tried if t.verdict == "helpful"]
        if not better:
            break
        meeting = [t for t in better if t.meets(band)]
        current = min(meeting, key=_rank) if meeting else min(better, key=_rank_distance)
        if current.meets(band):
            best = current
    if best is None:
        frontier = _frontier(trail)
        best = min(frontier, key=lambda t: (t.distance, t.cost)) if frontier else None
    say(
        f"fix: search done: {len(trail)} candidates, {player.games:,} games"
        + (f" ({player.resumed:,} blocks read back from the store)" if player.resumed else "")
    )
    return trail, best, d0


def _rank_distance(t: Trial) -> tuple:
    return (t.distance, len(t.edits), [e.text for e in t.edits])


def _frontier(trail: Sequence[Trial]) -> list[Trial]:
    """The best helpful errata (smallest estimated distance) at each cost."""
    best: dict[int, Trial] = {}
    for t in trail:
        if t.verdict == "helpful" and (t.cost not in best or _rank_distance(t) <
                                       _rank_distance(best[t.cost])):  # fmt: skip
            best[t.cost] = t
    return [best[c] for c in sorted(best)]


# ----------------------------------------------------------------------- the confirmation


@dataclass
class Confirmation:
    base_matrix: object  # DataFrame: side a's score, rows a, columns b
    fixed_matrix: object
    moved: object  # per touched ordered pairing: the paired change, interval, Holm p
    targets: object  # per target: base and fixed field rate, Bonferroni interval, in band
    confirmed: bool
    games: int


def confirm(g, spec: FixSpec, edits: tuple[Edit, ...], *, store=None, manifest=None,
            backend=None, resume=False, progress=None) -> Confirmation:  # fmt: skip
    """The errata against the base on the fresh seed (module docstring)."""
    import pandas as pd
    from scipy.stats import norm

    b = replace(spec.balance, seed=spec.confirm_seed, games_per_pairing=spec.confirm_games)
    names = b.names
    base = [replace(p, label="confirm-base") for p in b.pairings()
            if p.army_a.name != p.army_b.name]  # fmt: skip
    sides = dict(zip(names, b.sides, strict=True))
    changed = {}
    for name in sorted({e.side for e in edits}):
        changed[name] = g.apply_side_edits(sides[name], [e.text for e in edits if e.side == name])[
            0
        ]
    variant = {
        i: replace(p, army_a=changed.get(p.army_a.name, p.army_a),
                   army_b=changed.get(p.army_b.name, p.army_b), label="confirm-fixed")
        for i, p in enumerate(base) if p.army_a.name in changed or p.army_b.name in changed
    }  # fmt: skip
    kept: dict[int, list] = {}

    def on_frame(task, df, stats, which) -> None:
        if which == BASE:
            kept.setdefault(task.pairing, []).append((task.first_game, df))

    played = play_paired(base, variant, game=g, games=b.games_per_pairing, block=b.block,
                         options=b.options, on_frame=on_frame, threads=b.threads, store=store,
                         manifest=manifest, backend=backend, resume=resume,
                         progress=progress)  # fmt: skip
    if played.outcome.interrupted:
        raise _Interrupted
    joint = played.joint
    for k in range(len(base)):  # the untouched pairings: the base against itself
        if k not in variant:
            for first, df in kept[k]:
                joint.add(BASE, k, first, df)
                joint.add(VARIANT, k, first, df)
    rows = []
    for k in sorted(variant):
        p = base[k]
        r = paired_row(joint.counts[k])
        n, _, _, md, vd, _ = _moments(joint.counts[k], "a")
        se = math.sqrt(vd / n)
        pval = 1.0 if se == 0 else float(2 * norm.sf(abs(md) / se))
        rows.append({"side_a": p.army_a.name, "side_b": p.army_b.name} | r | {"p": pval})
    moved = pd.DataFrame(rows)
    if len(moved):
        moved["p_holm"] = holm(moved["p"].to_numpy())
        moved["moved"] = moved["p_holm"] < 0.05
    mb = pd.DataFrame(np.nan, index=names, columns=names)
    mf = mb.copy()
    for k, p in enumerate(base):
        c = joint.counts[k].reshape(2, 3, 2, 3).sum(axis=(0, 2))
        s = SCORE["a"]
        mb.loc[p.army_a.name, p.army_b.name] = float((c.sum(axis=1) * s).sum() / c.sum())
        mf.loc[p.army_a.name, p.army_b.name] = float((c.sum(axis=0) * s).sum() / c.sum())
    z = float(norm.ppf(1.0 - spec.alpha / (2 * len(spec.targets))))
    trows = []
    for t, st in zip(spec.targets, field_stats(base, joint, spec.targets), strict=True):
        # the fixed rate's own variance: the candidate's games (ref + change, paired)
        parts = []
        for k, p in enumerate(base):
            if t in (p.army_a.name, p.army_b.name):
                c = joint.counts[k].reshape(2, 3, 2, 3).sum(axis=(0, 2))
                s = SCORE["a" if p.army_a.name == t else "b"]
                y = np.broadcast_to(s[None, :], c.shape)
                nn = c.sum()
                my = float((c * y).sum()) / nn
                parts.append(max(float((c * y * y).sum()) / nn - my * my, 0.0) * nn / (nn - 1))
        half = z * math.sqrt(sum(parts) / len(parts) ** 2 / st.n)
        lo, hi = st.rate - half, st.rate + half
        trows.append({"side": t, "base_rate": st.ref, "fixed_rate": st.rate,
                      "fixed_low": lo, "fixed_high": hi, "games": st.n * len(parts),
                      "in_band": spec.band[0] <= lo and hi <= spec.band[1]})  # fmt: skip
    targets = pd.DataFrame(trows)
    return Confirmation(mb, mf, moved, targets, bool(targets["in_band"].all()),
                        int(sum(played.outcome.games.values())))  # fmt: skip


# ----------------------------------------------------------------------- the study


@dataclass
class FixResult:
    spec: FixSpec
    errata: object  # DataFrame: one row per edit of the answer
    trail: object  # DataFrame: every candidate tried
    frontier: object  # DataFrame: the best errata at each cost
    confirmation: Confirmation | None
    manifest: dict
    interrupted: bool = False
    meets: bool = False

    def summary(self) -> list[str]:
        m, s = self.manifest, self.spec
        lo, hi = s.band
        out = [f"{m['game_title']}: fix of {', '.join(s.targets)} into "
               f"{100 * lo:.0f}-{100 * hi:.0f} % (editing {', '.join(s.editable)})",
               f"search seed {m['seed']}, confirmation seed {m['confirm_seed']}; rules "
               f"{m['rules_version']}; data {m['data_hash']}",
               f"{len(self.trail)} candidates tried, {m['search_games']:,} search games; "
               f"base estimated distance {m['base_distance']:.3f}", ""]  # fmt: skip
        if self.errata is None or not len(self.errata):
            out.append(
                "no errata: "
                + (
                    "the base is already in the band (estimate)"
                    if m["base_distance"] == 0
                    else "no candidate within the budget helped"
                )
            )
            return out
        head = (
            "errata (meets the objective in the search)"
            if self.meets
            else ("no errata within the budget met the objective; the best of the frontier")
        )
        out.append(f"{head}, cost {int(self.errata['cost'].sum())}:")
        for r in self.errata.itertuples(index=False):
            out.append(f"  {r.change}   [{r.whatif_set}]")
        c = self.confirmation
        if c is not None:
            out += ["", f"confirmation ({c.games:,} games, {s.confirm_games} per pairing): "
                    + ("CONFIRMED" if c.confirmed else "NOT confirmed"),
                    "field rate in %, base -> fixed [Bonferroni interval]"]  # fmt: skip
            for r in c.targets.itertuples(index=False):
                out.append(f"  {r.side:<16} {100 * r.base_rate:5.1f} -> {100 * r.fixed_rate:5.1f}"
                           f" [{100 * r.fixed_low:.1f}, {100 * r.fixed_high:.1f}]"
                           f"{'' if r.in_band else '  outside the band'}")  # fmt: skip
            if len(c.moved):
                out.append(f"pairings that moved (Holm, 5 %): {int(c.moved['moved'].sum())} of "
                           f"{len(c.moved)}")  # fmt: skip
        if len(self.frontier):
            out += ["", "frontier (best estimated distance at each cost):"]
            for r in self.frontier.itertuples(index=False):
                out.append(f"  cost {r.cost}: {r.est_distance:.3f}  {r.edits}")
        return out

    def write(self, out_dir: str | Path) -> list[Path]:
        """errata.csv, trail.csv, frontier.csv, matrix_base.csv, matrix_fixed.csv,
        moved.csv, targets.csv, summary.txt and manifest.json (each atomically)."""
        from manoeuvre_sim.core.results import write_csv
        from manoeuvre_sim.studies.balance import write_study

        tables = {"errata": self.errata, "trail": self.trail, "frontier": self.frontier}
        c = self.confirmation
        if c is not None:
            tables |= {"moved": c.moved, "targets": c.targets}
        written = write_study(out_dir, tables, self.manifest, self.summary())
        if c is not None:
            for name, mat in (("matrix_base", c.base_matrix), ("matrix_fixed", c.fixed_matrix)):
                written.append(write_csv(mat.rename_axis("side_a").reset_index(),
                                         Path(out_dir) / f"{name}.csv"))  # fmt: skip
        return written


def errata_table(g, spec: FixSpec, edits: Sequence[Edit]):
    """One row per edit: its side, kind, cost, the change in the side's own words (before ->
    after, by the game's edit code) and the ``whatif --set`` line that replays it."""
    import pandas as pd

    sides = dict(zip(spec.balance.names, spec.balance.sides, strict=True))
    rows = []
    for e in edits:
        lines = g.apply_side_edits(sides[e.side], [e.text])[1]
        first = lines[0] if lines else e.text
        where, _, change = first.rpartition(": ")
        before, _, after = change.partition(" -> ")
        rows.append({"edit": e.text, "side": e.side, "kind": e.kind, "cost": e.cost,
                     "field": where, "before": before, "after": after,
                     "change": "; ".join(lines), "whatif_set": f'--set "{e.text}"'})  # fmt: skip
    return pd.DataFrame(rows, columns=["edit", "side", "kind", "cost", "field", "before",
                                       "after", "change", "whatif_set"])  # fmt: skip


def run(game, sides: Sequence, *, out_dir: str | Path | None = None, backend=None,
        resume: bool = False, progress: Callable[[int, int], None] | None = None,
        say: Callable[[str], None] | None = None, **kw) -> FixResult:  # fmt: skip
    """The fix of ``sides`` in ``game`` (``command_spec``'s keywords): the search on the
    seed, the answer confirmed on the confirmation seed. ``out_dir``: the search's games in
    ``out_dir/games.parquet/``, the confirmation's in ``out_dir/confirm/games.parquet/``
    (``resume``: finished blocks read back; the search replays to the same answer);
    ``progress(done, total)``: games; ``say``: a line per candidate."""
    import pandas as pd

    from manoeuvre_sim.core.store import STORE
    from manoeuvre_sim.studies import balance as B

    g = resolve(game)
    spec = command_spec(g, sides, **kw)
    t0 = time.perf_counter()
    say = say or (lambda line: None)
    manifest = B.base_manifest(g, spec.balance, "fix") | {"fix": spec.record()}
    store = B.make_store(out_dir)
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(done[0], 0)

    player = Player(g, spec, store=store, manifest=manifest, backend=backend, resume=resume,
                    progress=tick)  # fmt: skip
    manifest |= {"confirm_seed": spec.confirm_seed, "confirm_games": spec.confirm_games}
    try:
        trail, best, d0 = search(player, say)
        conf = None
        if best is not None:
            say(f"fix: confirming {'; '.join(e.text for e in best.edits)} on seed "
                f"{spec.confirm_seed}")  # fmt: skip
            cstore = None if out_dir is None else Path(out_dir) / "confirm" / STORE
            if cstore is not None:
                cstore.mkdir(parents=True, exist_ok=True)
            cb = replace(spec.balance, seed=spec.confirm_seed,
                         games_per_pairing=spec.confirm_games)  # fmt: skip
            cman = B.base_manifest(g, cb, "fix-confirm") | {"errata": [e.text for e in best.edits]}
            seen = done[0]
            conf = confirm(g, spec, best.edits, store=cstore, manifest=cman, backend=backend,
                           resume=resume, progress=lambda d, _t: tick(seen + d - done[0]))  # fmt: skip
    except _Interrupted:
        return FixResult(
            spec,
            None,
            pd.DataFrame(),
            pd.DataFrame(),
            None,
            manifest | {"interrupted": True, "search_games": player.games},
            True,
        )
    frontier = pd.DataFrame([t.row() for t in _frontier(trail)])
    errata = errata_table(g, spec, best.edits if best is not None else ())
    manifest |= {
        "errata": [] if best is None else [e.text for e in best.edits],
        "errata_cost": 0 if best is None else best.cost,
        "meets": bool(best is not None and best.meets(spec.band)),
        "confirmed": bool(conf is not None and conf.confirmed),
        "base_distance": d0,
        "candidates": len(trail),
        "search_games": player.games,
        "confirm_games_played": 0 if conf is None else conf.games,
        "games": player.games + (0 if conf is None else conf.games),
        "seconds": round(time.perf_counter() - t0, 3),
        "interrupted": False,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    return FixResult(spec, errata, pd.DataFrame([t.row() for t in trail]), frontier, conf,
                     manifest, False, manifest["meets"])  # fmt: skip


__all__ = ["Edit", "FixResult", "FixSpec", "Judgement", "Player", "TargetStats", "command_spec",
           "confirm", "cs_radius", "distance", "field_stats", "gain_range", "holm", "judge",
           "parse_band", "read_costs", "run", "search"]  # fmt: skip
