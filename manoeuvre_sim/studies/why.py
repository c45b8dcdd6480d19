"""The why study (issue 42), written once over the game interface: a pairing's gap from
50 % shared out among the two sides' parts by their Shapley values, on paired seeds.

The parts
    The game's ``why_parts(side)`` cuts each side into parts (Manoeuvre: each unit with its
    cards, each leader, the HQ cards by type, the tie-break place); ``why_pairing`` switches
    any of them off, replacing each by the game's neutral reference of its kind, the same
    for both sides (``WHY_REFERENCE``), so that with every part off both sides play as one
    side and the pairing is even by construction. Both hooks are declared in
    ``core.games.HOOKS`` and read through ``games.hook``.
The value of a coalition (the parts switched on)
    Side X's score (the first side named; a win 1, a draw 1/2) over ``block`` games in each
    seating (X in seat a, then in seat b: the seat's advantage cancels), every coalition
    played on the same seeds as the pairing itself (common random numbers, as ``whatif``:
    a coalition keeps the pairing's seed, game i is seeded from (seed, i) alone).
The samples
    Sample k plays games ``k * block .. (k + 1) * block - 1`` of its coalitions: every
    coalition (``exact``, when the parts are few: at most :data:`EXACT_AUTO` in all), or the
    coalitions along a random order of the parts and its reverse (``permutation``,
    antithetic). Its Shapley values (``why_stats``) add up to its ``v(all) - v(none)``
    exactly; the samples are independent (their own seeds and orders), so each part's 95 %
    interval is Student's t over the samples, and the contributions' sum equals the measured
    gap ``v(all) - v(none)`` exactly (efficiency; checked on every run). ``v(none)`` is 1/2
    in expectation (the mirror): its measured offset from 1/2 is reported beside it.
Store, resume, progress, Dask
    Every coalition's games of a sample are one task of ``study.play`` (the store's part
    ``s<seating>-<mask>-p<i>-g<first game>``); ``resume`` reads finished samples back, and
    more ``samples`` extend a study (sample k's order depends on (seed, k) alone).

Python API::

    from manoeuvre_sim.studies import why
    res = why.run("manoeuvre", ["France", "United States"], samples=40, block=100)
    res.contributions   # part, side, kind, contribution, se, lo, hi (fractions of a game)
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import hook, resolve
from manoeuvre_sim.core.study import Pairing, Progress, Task, pairing_seed, play
from manoeuvre_sim.core.study_command import StudyCommand
from manoeuvre_sim.studies.why_games import chosen_tables, full_frame, summary_lines
from manoeuvre_sim.studies.why_stats import (
    exact_shapley,
    orders,
    path_masks,
    path_shapley,
    samples_for,
    t_interval,
)

KIND = "why"
# the command (core/study_command.py): a game with the why study's hooks and a why command of
# its own (Manoeuvre's cli/why.py)
# and the workbench's job (web/jobs: command_spec_of, run_job; planned_games bounds it)
COMMAND = StudyCommand(help="Why one army scores what it does against another: Shapley shares "
                       "of the gap.", face="own", requires=("why_parts",), job=True)  # fmt: skip
DEFAULT_SAMPLES = 40
DEFAULT_BLOCK = 100  # games of a coalition in each seating, per sample
EXACT_AUTO = 10  # method "auto": exact with at most this many parts in all
EXACT_MOST = 14  # "exact" refused above (2**14 coalitions a sample)
METHODS = ("auto", "exact", "permutation")
TARGET = 0.015  # the precision the summary prices: +/-1.5 points


@dataclass(frozen=True)
class Part:
    """One part of a side: ``side`` 0 (X, the first side) or 1 (Y), its name and kind."""

    side: int
    name: str
    kind: str


@dataclass(frozen=True)
class WhySpec:
    """Everything that decides a why study's games (recorded in the manifest): the balance
    spec of the two sides (its seed, players, options, block), the parts, the method and
    how many samples (``samples`` does not decide any game: more extend a study)."""

    balance: Any  # studies.balance.BalanceSpec of the two sides
    parts: tuple[Part, ...]
    method: str
    samples: int
    reference: str

    @property
    def n(self) -> int:
        return len(self.parts)

    @property
    def block(self) -> int:
        return self.balance.block

    @property
    def threads(self) -> int:
        return self.balance.threads

    def planned_games(self) -> list[tuple[Pairing, int]]:
        """Per seating, the games the study plays (what a job's cost is bounded by)."""
        return [(p, self.samples * self.games_per_sample() // 2) for p in seatings(self)]

    def coalitions_per_sample(self) -> int:
        return 1 << self.n if self.method == "exact" else 2 * self.n

    def games_per_sample(self) -> int:
        return 2 * self.block * self.coalitions_per_sample()

    def record(self) -> dict:
        b = self.balance
        return {"method": self.method, "block": self.block,
                "policy": b.policies[0].policy_a, "reference": self.reference,
                "parts": [{"side": b.names[p.side], "part": p.name, "kind": p.kind}
                          for p in self.parts]}  # fmt: skip


def _sides_flag(flag: str, n: int) -> None:
    if n != 2:
        raise UsageError(f"{flag}: expected the two sides of the pairing to explain, got {n}")


def command_spec(game, sides: Sequence, *, policy: str | None = None,
                 samples: int = DEFAULT_SAMPLES, block: int = DEFAULT_BLOCK, seed: int = 1,
                 method: str = "auto", options=None, threads: int = 0,
                 flag: str = "--armies") -> WhySpec:  # fmt: skip
    """Every option checked (one line each) and the parts listed, before any game:
    ``sides`` two specs the game's ``load_side`` reads (or sides); ``flag``: the option
    that named them, in its errors."""
    from manoeuvre_sim.studies.balance import BalanceSpec

    g = resolve(game)
    _sides_flag(flag, len(sides))
    if method not in METHODS:
        raise UsageError(f"--method {method!r}: expected one of {', '.join(METHODS)}")
    if samples < 2:
        raise UsageError(f"--samples: expected at least 2 (the intervals are over the "
                         f"samples), got {samples}")  # fmt: skip
    if block < 1:
        raise UsageError(f"--block: expected a positive number of games, got {block}")
    cut = hook(g, "why_parts")  # games.TOGETHER: with why_pairing
    if cut is None:
        raise UsageError(f"why: the game {g.KEY!r} has no parts to share a gap among (it "
                         "has no why_parts, why_pairing)")  # fmt: skip
    spec = BalanceSpec.of(g, sides, policy=policy, games_per_pairing=block, seed=seed,
                          options=options, block=block, threads=threads)  # fmt: skip
    names = spec.names
    if names[0] == names[1]:
        raise UsageError(f"{flag}: both sides are named {names[0]!r}; a why study needs two "
                         "sides of different names")  # fmt: skip
    parts = []
    for k, side in enumerate(spec.sides):
        mine = list(cut(side))
        seen = [n for n, _ in mine]
        if not mine:
            raise UsageError(f"why: {names[k]!r} has no parts (why_parts)")
        if dup := sorted({n for n in seen if seen.count(n) > 1}):
            raise UsageError(f"why: {names[k]!r} has two parts named {dup[0]!r}")
        parts += [Part(k, n, kind) for n, kind in mine]
    n = len(parts)
    if method == "auto":
        method = "exact" if n <= EXACT_AUTO else "permutation"
    if method == "exact" and n > EXACT_MOST:
        raise UsageError(f"--method exact: {n} parts would play 2**{n} coalitions a sample; "
                         f"at most {EXACT_MOST} parts (use --method permutation)")  # fmt: skip
    reference = hook(g, "WHY_REFERENCE")
    return WhySpec(spec, tuple(parts), method, samples, reference)


def command_spec_of(game: str):
    """:func:`command_spec` of ``game`` as a job builds it (``web.jobs.kinds``): the two
    sides as ``armies`` (comma-separated, read by the game's ``load_side``), the rest
    :func:`command_spec`'s keywords; its signature lists them."""
    import inspect

    def build(*, armies=None, **options) -> WhySpec:
        if armies is None or not str(armies).strip():
            raise UsageError("--armies: expected the two sides of the pairing, X,Y")
        names = [a.strip() for a in armies.split(",")] if isinstance(armies, str) else armies
        return command_spec(game, [n for n in names if n], **options)

    kw = inspect.Parameter.KEYWORD_ONLY
    own = [n for n, p in inspect.signature(command_spec).parameters.items()
           if p.kind is kw and n != "flag"]  # fmt: skip
    build.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, kw) for n in ["armies", *own]]
    )
    return build


def run_job(spec: WhySpec, **kw) -> WhyResult:
    """:func:`run_spec` of the spec's own game (a job's run: ``web.jobs.kinds``)."""
    return run_spec(spec.balance.game_module(), spec, **kw)


# ----------------------------------------------------------------------- playing


def seatings(spec: WhySpec) -> list[Pairing]:
    """X in seat a against Y, then Y in seat a against X, each seeded as a balance study
    seeds it (from the seed and the two names)."""
    b = spec.balance
    x, y = b.sides
    pa, pb = b.policies[0].policy_a, b.policies[0].policy_b
    return [Pairing(x, y, pa, pb, pairing_seed(b.seed, x.name, y.name)),
            Pairing(y, x, pa, pb, pairing_seed(b.seed, y.name, x.name))]  # fmt: skip


def coalition_pairing(g, spec: WhySpec, base: Pairing, seating: int, mask: int) -> Pairing:
    """The pairing ``base`` (seating 0: X in seat a; 1: Y) with the parts outside ``mask``
    switched off (the game's ``why_pairing``), its seed kept, labelled by seating and mask."""
    off = [frozenset(p.name for j, p in enumerate(spec.parts)
                     if p.side == s and not (mask >> j) & 1) for s in (0, 1)]  # fmt: skip
    off_a, off_b = (off[0], off[1]) if seating == 0 else (off[1], off[0])
    p = hook(g, "why_pairing")(base, off_a, off_b)
    width = (spec.n + 3) // 4
    return replace(p, seed=base.seed, label=f"s{seating}-{mask:0{width}x}")


def sample_plan(spec: WhySpec, k: int) -> tuple[list[int], list[list[int]] | None]:
    """Sample ``k``'s coalitions (bit masks, ascending) and, for ``permutation``, its two
    orders (one drawn from (seed, k) alone, and its reverse)."""
    n = spec.n
    if spec.method == "exact":
        return list(range(1 << n)), None
    rng = np.random.default_rng(np.random.SeedSequence([spec.balance.seed, k, 0x5748]))
    paths = list(orders(rng, n))
    return sorted({m for o in paths for m in path_masks(o)}), paths


class _Interrupted(Exception):
    pass


@dataclass
class Sampled:
    """What the samples played: per sample, each part's contribution and the values of
    every part on (``v_all``) and none (``v_none``)."""

    phi: list  # per sample: ndarray (n,)
    v_all: list
    v_none: list
    games: int = 0
    resumed: int = 0  # tasks read back from the store
    interrupted: bool = False
    full: list = field(default_factory=list)  # the all-on coalition's games (why_games)


def play_samples(g, spec: WhySpec, *, store=None, manifest=None, backend=None,
                 resume: bool = False, progress=None) -> Sampled:  # fmt: skip
    """Play (or read back) samples 0 .. ``spec.samples - 1``, one ``study.play`` each."""
    b = spec.balance
    base = seatings(spec)
    full = (1 << spec.n) - 1
    out = Sampled([], [], [])
    tick = Progress(progress, spec.samples * spec.games_per_sample())
    try:
        for k in range(spec.samples):
            masks, paths = sample_plan(spec, k)
            pairings = [coalition_pairing(g, spec, base[s], s, m) for m in masks for s in (0, 1)]
            tasks = [Task(i, k * b.block, b.block) for i in range(len(pairings))]
            score = np.full(len(pairings), np.nan)

            def keep(task: Task, df, stats=None, score=score, masks=masks, k=k) -> None:
                w = df["winner"].to_numpy()
                mine = "a" if task.pairing % 2 == 0 else "b"  # X's seat in this seating
                score[task.pairing] = (w == mine).sum() + 0.5 * (w == "draw").sum()
                if masks[task.pairing // 2] == full:  # the pairing itself: its games
                    out.full.append(full_frame(df, k, task.pairing % 2))

            res = play_quietly(g, b, pairings, tasks, store=store, manifest=manifest,
                               on_frame=keep, progress=tick, backend=backend, resume=resume)  # fmt: skip
            out.resumed += res.tasks_resumed
            if res.interrupted:
                raise _Interrupted
            value = {m: (score[2 * i] + score[2 * i + 1]) / (2 * b.block)
                     for i, m in enumerate(masks)}  # fmt: skip
            add_sample(out, value, paths, spec.n, full, len(tasks) * b.block)
    except (_Interrupted, KeyboardInterrupt):
        out.interrupted = True
    return out


# ----------------------------------------------------------------------- the result


@dataclass
class WhyResult:
    """A why study: ``contributions`` (one row per part: part, side, kind, contribution,
    se, lo, hi; fractions of a game, side X's score), ``totals`` (observed, all_off, gap,
    contributions_sum, mirror_offset: estimate, se, lo, hi), ``samples`` (every sample's
    contribution of every part) and the manifest."""

    spec: WhySpec
    contributions: Any  # DataFrame
    totals: Any  # DataFrame
    samples: Any  # DataFrame
    manifest: dict
    interrupted: bool = False
    games: Any = None  # DataFrame: the games that show it (studies/why_games.py)
    game_values: Any = None  # DataFrame: the learned value along each of them

    def total(self, what: str) -> dict:
        return self.totals.set_index("quantity").loc[what].to_dict()

    def sides_named(self) -> tuple[str, str]:
        """X and Y in words: the pairing's two sides, or X and the field (``why_field``)."""
        names = self.spec.balance.names
        if len(names) == 2:
            return names[0], names[1]
        return names[0], f"the field ({len(names) - 1} armies: {', '.join(names[1:])})"

    def summary(self) -> list[str]:
        m, s = self.manifest, self.spec
        x, y = self.sides_named()
        pts = lambda v: f"{100 * v:+6.1f}"  # noqa: E731
        out = [f"{m['game_title']}: why {x} scores what it does against {y} "
               f"({m['why']['policy']} in both seats)",
               f"seed {m['seed']}; rules {m['rules_version']}; data {m['data_hash']}; "
               f"reference {m['reference_hash']}",
               f"{m['samples_done']} samples ({s.method}: {s.coalitions_per_sample()} "
               f"coalitions x 2 seatings x {s.block} games each), {m['games']:,} games in "
               f"{m['seconds']:.1f} s"
               + (f" ({m['tasks_resumed']:,} blocks read back)" if m.get("tasks_resumed") else "")
               + (" (interrupted)" if self.interrupted else ""),
               f"neutral reference: {s.reference}", ""]  # fmt: skip
        if len(self.contributions) == 0:
            return [*out, "no sample finished: nothing to share out"]
        obs, off, gap = self.total("observed"), self.total("all_off"), self.total("gap")
        out += [f"observed: {x} scores {100 * obs['estimate']:.1f} % [{100 * obs['lo']:.1f}, "
                f"{100 * obs['hi']:.1f}] against {y}",
                f"all parts off (the mirror, 50 % in expectation): {100 * off['estimate']:.1f} % "
                f"[{100 * off['lo']:.1f}, {100 * off['hi']:.1f}]",
                f"gap shared out (observed - all off): {pts(gap['estimate'])} points "
                f"[{100 * gap['lo']:+.1f}, {100 * gap['hi']:+.1f}]; the contributions add up to "
                f"{pts(m['contributions_sum'])} (efficiency residual "
                f"{m['efficiency_residual']:.1e})", "",
                "contribution to X's score in points [95 % interval], largest first:"]  # fmt: skip
        table = self.contributions.reindex(
            self.contributions["contribution"].abs().sort_values(ascending=False).index
        )
        for r in table.itertuples(index=False):
            out.append(f"  {r.side:<16.16} {r.part:<34.34} {pts(r.contribution)} "
                       f"[{100 * r.lo:+.1f}, {100 * r.hi:+.1f}]")  # fmt: skip
        widest = float(np.nanmax(self.contributions["hi"] - self.contributions["lo"]) / 2)
        out += ["", f"widest interval +/-{100 * widest:.1f} points; +/-{100 * TARGET:.1f} "
                f"for every part would take about {m['games_for_target']:,} games "
                f"({m['samples_for_target']} samples)"]  # fmt: skip
        if self.games is not None:
            out += ["", *summary_lines(self.games, m.get("value_model", ""))]
        return out

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """contributions.csv, totals.csv, samples.csv, games.csv and game_values.csv (the
        games that show it), manifest.json and summary.txt (each atomically); the waterfall
        page is the analyses' (``analyses/common/why_chart``); ``paper``: the jobs'
        keyword."""
        from manoeuvre_sim.studies.balance import write_study

        tables = {"contributions": self.contributions, "totals": self.totals,
                  "samples": self.samples}  # fmt: skip
        if self.games is not None:
            tables |= {"games": self.games, "game_values": self.game_values}
        return write_study(out_dir, tables, self.manifest, self.summary())


def reference_hash(g, spec: WhySpec) -> str:
    """A hash of the all-off pairing of both seatings (the neutral reference as played)."""
    h = hashlib.sha256()
    for s, base in enumerate(seatings(spec)):
        p = coalition_pairing(g, spec, base, s, 0)
        h.update(f"{g.side_hash(p.army_a)}{g.side_hash(p.army_b)}{p.patches!r}".encode())
    return h.hexdigest()[:16]


def estimate(spec: WhySpec, got: Sampled) -> tuple[Any, Any, Any, dict]:
    """The contributions, totals and samples tables of what was played, and what the
    manifest records of them (the efficiency check: a residual over 1e-9 is a bug)."""
    import pandas as pd

    names = spec.balance.names
    cols = ["part", "side", "kind", "contribution", "se", "lo", "hi"]
    k = len(got.phi)
    if k == 0:
        return (pd.DataFrame(columns=cols), pd.DataFrame(columns=["quantity", "estimate", "se",
                "lo", "hi"]), pd.DataFrame(columns=["sample", "part", "side", "contribution"]),
                {"samples_done": 0})  # fmt: skip
    phi = np.vstack(got.phi)
    mean, se, lo, hi = t_interval(phi)
    contributions = pd.DataFrame(
        {
            "part": [p.name for p in spec.parts],
            "side": [names[p.side] for p in spec.parts],
            "kind": [p.kind for p in spec.parts],
            "contribution": mean,
            "se": se,
            "lo": lo,
            "hi": hi,
        }
    )
    v_all, v_none = np.array(got.v_all), np.array(got.v_none)
    rows = []
    for what, x in (
        ("observed", v_all),
        ("all_off", v_none),
        ("gap", v_all - v_none),
        ("contributions_sum", phi.sum(axis=1)),
        ("mirror_offset", v_none - 0.5),
    ):
        m, s, a, b = (float(v[0]) for v in t_interval(x[:, None]))
        rows.append({"quantity": what, "estimate": m, "se": s, "lo": a, "hi": b})
    totals = pd.DataFrame(rows)
    residual = float(abs(mean.sum() - (v_all - v_none).mean()))
    if residual > 1e-9:
        raise RuntimeError(f"why: the contributions add up to {mean.sum()} but the gap is "
                           f"{(v_all - v_none).mean()}: efficiency broken")  # fmt: skip
    samples = pd.DataFrame({"sample": np.repeat(np.arange(k), spec.n),
                            "part": [p.name for p in spec.parts] * k,
                            "side": [names[p.side] for p in spec.parts] * k,
                            "contribution": phi.ravel()})  # fmt: skip
    need = samples_for(float(np.nanmax(se)) if k > 1 else float("nan"), k, TARGET)
    record = {
        "samples_done": k,
        "contributions_sum": float(mean.sum()),
        "gap": float((v_all - v_none).mean()),
        "observed": float(v_all.mean()),
        "all_off": float(v_none.mean()),
        "efficiency_residual": residual,
        "samples_for_target": need,
        "games_for_target": need * spec.games_per_sample(),
    }
    return contributions, totals, samples, record


def run(game, sides: Sequence, *, out_dir: str | Path | None = None, backend=None,
        resume: bool = False, progress: Callable[[int, int], None] | None = None,
        command: str | None = None, **kw) -> WhyResult:  # fmt: skip
    """The why study of the pairing ``sides`` in ``game`` (:func:`command_spec`'s
    keywords); ``out_dir``: its store (``out_dir/games.parquet/``; ``resume``: finished
    samples read back); ``progress(done, total)``: games; ``command``: recorded."""
    g = resolve(game)
    spec = command_spec(g, sides, **kw)
    return run_spec(g, spec, out_dir=out_dir, backend=backend, resume=resume,
                    progress=progress, command=command)  # fmt: skip


def run_spec(g, spec: WhySpec, *, out_dir=None, backend=None, resume: bool = False,
             progress=None, command: str | None = None) -> WhyResult:  # fmt: skip
    from manoeuvre_sim.studies import balance as B

    t0 = time.perf_counter()
    manifest = B.base_manifest(spec.balance, KIND, B.describe_sides) | {
        "why": spec.record(),
        "reference_hash": reference_hash(g, spec),
    }
    store = B.make_store(out_dir)
    got = play_samples(g, spec, store=store, manifest=manifest, backend=backend,
                       resume=resume, progress=progress)  # fmt: skip
    contributions, totals, samples, record = estimate(spec, got)
    games, values, model = shown_games(g, spec, got, record)
    ended(manifest, record, spec, got, t0, command)
    if games is not None:
        manifest["value_model"] = model
    return WhyResult(spec, contributions, totals, samples, manifest, got.interrupted,
                     games, values)  # fmt: skip


def play_quietly(g, b, pairings, tasks, *, resume: bool, **kw):
    """``study.play`` of one sample's tasks (a pairing's here, the field's in
    ``why_field``), the store's resume notes kept for the end (said once)."""
    quiet = io.StringIO() if resume else None
    with contextlib.redirect_stderr(quiet) if quiet else contextlib.nullcontext():
        return play(pairings, tasks, game=g, options=b.options, threads=b.threads,
                    resume=resume, **kw)  # fmt: skip


def add_sample(out: Sampled, value: dict, paths, n: int, full: int, games: int) -> None:
    """One sample's Shapley values (exactly, or along its orders ``paths``) from its
    coalitions' ``value``s, and its values with every part on and off, added to ``out``."""
    if paths is None:
        phi = exact_shapley(np.array([value[m] for m in range(1 << n)]))
    else:
        phi = path_shapley(paths, value, n)
    out.phi.append(phi)
    out.v_all.append(value[full])
    out.v_none.append(value[0])
    out.games += games


def ended(manifest: dict, record: dict, spec, got: Sampled, t0: float, command) -> None:
    """A why study's manifest completed once its samples are played (a pairing's here, the
    field's in ``why_field``): the estimate's record, the games, what was resumed or
    interrupted, the seconds, the time it finished and the command typed."""
    manifest |= record | {
        "samples": spec.samples,
        "games": got.games,
        "tasks_resumed": got.resumed,
        "interrupted": got.interrupted,
        "seconds": round(time.perf_counter() - t0, 3),
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    if command is not None:
        manifest["command"] = command


def shown_games(g, spec: WhySpec, got: Sampled, record: dict):
    """The games that show the gap and the learned value along each
    (``why_games.chosen_tables``; the game's ``why_value`` hook, none without it); Nones
    when no sample finished."""
    import pandas as pd

    if not got.full or not record.get("samples_done"):
        return None, None, ""
    base = seatings(spec)
    full = (1 << spec.n) - 1
    games = pd.concat(got.full, ignore_index=True)
    games = games[games["sample"] < record["samples_done"]]  # the finished samples'
    return chosen_tables(games, record["observed"],
                         spec.balance.names, hook(g, "why_value"),
                         lambda s: coalition_pairing(g, spec, base[s], s, full),
                         spec.balance.options)  # fmt: skip


__all__ = ["DEFAULT_BLOCK", "DEFAULT_SAMPLES", "EXACT_AUTO", "EXACT_MOST", "KIND", "METHODS",
           "Part", "Sampled", "WhyResult", "WhySpec", "coalition_pairing", "command_spec",
           "estimate", "play_samples", "reference_hash", "run", "run_spec", "sample_plan",
           "seatings", "shown_games", "command_spec_of", "run_job"]  # fmt: skip
