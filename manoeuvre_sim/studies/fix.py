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
    index its target's field score minus the reference's is a paired difference. It is
    played in *looks* of ``games_per_look`` games per pairing; after each look the box of
    every target's reference rate r (a fixed normal interval: the reference is played once,
    to the cap, before the candidate) and paired change m (an always-valid confidence
    sequence: Waudby-Smith, Arnold, Wu & Ramdas 2021, arXiv:2103.06476, Theorem 2.2,
    :func:`cs_radius`), each at alpha / (2 x targets), holds with probability >= 1 - alpha
    at every look at once. D and the estimates are read on the band shrunk at each edge by
    the *guard*, the confirmation's half-width (``FixSpec.search_band``). *helpful*:
    D(r + m) < D(r) all over the box; *not helpful*: D(r + m) >= D(r) all over it; *meets*:
    helpful, every target's estimate inside the shrunk band and its rate interval (r + m
    over the box) inside the band, read at the cap. So a null candidate is called helpful,
    and one whose rate lies outside the band is called meeting, with probability <= alpha
    (measured in tests/studies/test_fix.py; docs/fix.md).
The search
    A screen first: one look of every single edit, the undecided ones ranked by their
    estimated objective (its gain's paired standard error reported), only the first
    ``screen_keep`` played on to their verdicts, the rest *screened out*. Then, greedily,
    the helpful singles (or, when none is certified, the promising ones: estimated gain
    above twice its standard error) added one at a time to the best errata so far, each
    round screened alike and tested against the errata it extends; until an errata meets
    the objective, or nothing helps or the budget is spent and ``BACKTRACKS`` returns to the
    next best errata not yet extended are used up. The answer is the meeting errata
    of least cost (then fewest changes, then the rates most surely inside the band), else
    the best of the frontier (the smallest estimated D at each cost, with its interval).
The confirmation
    The answer played against the base on a fresh master seed (``confirm_seed``, never used
    in the search), ``confirm_games`` per pairing, paired: per pairing the paired change
    with its 95 % interval and a Holm-adjusted p-value over the pairings ("what else
    moved"); each target's fixed field rate with a Bonferroni interval over the targets;
    *confirmed* when every target's interval lies in the band.

The game's hooks ``FIX_EDIT_KINDS``, ``fix_edits`` and ``apply_side_edits`` (all three or
none; ``core.games.HOOKS``, ``games.hook``): the edits are in the game's what-if language,
each legal by its own edit code, their change lines "WHERE: BEFORE -> AFTER".

Python API::

    from manoeuvre_sim.studies import fix
    res = fix.run("manoeuvre", ["France", "Russia", "Austria"], editable=["France"])
    res.errata      # the chosen edits; res.trail: every candidate tried
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

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import hook, resolve
from manoeuvre_sim.core.study import Pairing, Task, blocks, play
from manoeuvre_sim.core.study_command import Option, StudyCommand
from manoeuvre_sim.studies.whatif import Joint, block_codes, pair_counts

KIND = "fix"
BASE_LABEL = "base"
# greedy with backtracking: how often the greedy step goes back to the next best errata
# not yet extended when nothing extends the current one (docs/fix.md, "The search")
BACKTRACKS = 3
# the command (core/study_command.py), for a game with the fixer's hooks (cli/fix.py); the
# options a job's command line flags otherwise than by their names (a game's own: COMMAND_FLAGS)
COMMAND = StudyCommand(help="The least-cost errata that evens the sides: paired, sequential, "
                       "confirmed.", face="own", requires=("FIX_EDIT_KINDS",), job=True,
                       options=(Option("--edit", name="editable", multiple=True),
                                Option("--army", name="targets", multiple=True),
                                Option("--target", name="band"),
                                Option("--edits", type="path", file="edits.toml")))  # fmt: skip
# the question, the statistics and the confirmation live beside this module, in fix_spec,
# fix_stats and fix_confirm; their names are the fix's too
from manoeuvre_sim.studies import fix_result as R  # noqa: E402
from manoeuvre_sim.studies.fix_confirm import (  # noqa: E402
    CONFIRM_BASE,
    CONFIRM_FIXED,
    CONFIRM_STORE,
    confirm,
    strong_spec,
)
from manoeuvre_sim.studies.fix_result import FixResult, costs_toml, errata_table  # noqa: E402
from manoeuvre_sim.studies.fix_spec import (  # noqa: E402
    Edit,
    FixSpec,
    command_spec,
    command_spec_of,
    parse_band,
    read_costs,
)
from manoeuvre_sim.studies.fix_stats import (  # noqa: E402
    Judgement,
    Sequential,
    TargetStats,
    _Interrupted,
    change_design_variance,
    cs_radius,
    distance,
    field_stats,
    gain_estimate,
    gain_range,
    holm,
    judge,
)


def _key(edits: Sequence[Edit]) -> tuple[Edit, ...]:
    return tuple(sorted(edits, key=lambda e: (e.side, e.text)))


def _text(edits: Sequence[Edit]) -> str:
    return "; ".join(e.text for e in edits)


def _label(edits: Sequence[Edit]) -> str:
    if not edits:
        return BASE_LABEL
    h = hashlib.sha256("\x00".join(f"{e.side}\x01{e.text}" for e in _key(edits)).encode())
    return f"c{h.hexdigest()[:10]}"


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
        self.pairs: dict[tuple, object] = {}  # (ref, cand, pairing, block): pair_counts
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
            out[name] = hook(self.g, "apply_side_edits")(self.sides[name], texts)[0]
        return out

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

    def sub(self, edits: tuple[Edit, ...], k: int) -> tuple[Edit, ...]:
        """The edits of pairing ``k``'s two sides: its games under ``edits`` are theirs."""
        return tuple(e for e in edits if e.side in (self.base[k].army_a.name,
                                                    self.base[k].army_b.name))  # fmt: skip

    def ensure(self, edits: Sequence[Edit], n: int) -> None:
        """Games 0 .. n-1 of every pairing the errata ``edits`` touches (the base: all), each
        played as its sides' edits (:meth:`sub`): a combination plays only the pairings its
        new edit touches, the others' games being its reference's (none played twice)."""
        key = _key(edits)
        if self.played.get(key, 0) >= n:
            return
        look, pairings, tasks, subs = self.spec.games_per_look, list(self.base), [], {}
        for k in range(len(self.base)):
            sk = subs[k] = self.sub(key, k)
            have = self.played.get((sk, k), 0)
            if (sk or not key) and have < n:
                pairings[k] = self.pairings(sk)[k] if sk else self.base[k]
                tasks += blocks(k, have, n, look)

        def keep(task: Task, df, stats=None) -> None:
            got = self.frames.setdefault(subs[task.pairing], {})
            got[(task.pairing, task.first_game)] = block_codes(df)
            self.games += task.count
            if self.progress is not None:
                self.progress(task.count)

        # what study.play reads back the fix says once, at the search's end (``resumed``)
        quiet = io.StringIO() if self.kw["resume"] else None
        with contextlib.redirect_stderr(quiet) if quiet else contextlib.nullcontext():
            out = play(pairings, tasks, game=self.g, options=self.spec.balance.options,
                       on_frame=keep, **self.kw)  # fmt: skip
        self.resumed += out.tasks_resumed
        if out.interrupted:
            raise _Interrupted
        self.played |= {(subs[t.pairing], t.pairing): n for t in tasks} | {key: n}

    def joint(self, cand: tuple[Edit, ...], ref: tuple[Edit, ...], n: int) -> Joint:
        """Every base pairing's paired games of ``cand`` against ``ref`` (games 0..n-1); a
        block pair is counted once (the pairings a candidate leaves alone pair alike)."""
        j = Joint()
        for k in range(len(self.base)):
            rk, ck = self.sub(ref, k), self.sub(cand, k)
            for t in blocks(k, 0, n, self.spec.games_per_look):
                at = (rk, ck, k, t.first_game)
                if at not in self.pairs:
                    f = (k, t.first_game)
                    self.pairs[at] = pair_counts(self.frames[rk][f], self.frames[ck][f])
                j.add_counts(k, self.pairs[at])
        return j


# ----------------------------------------------------------------------- the search


@dataclass
class Trial:
    """One candidate tried: its edits, what it was tested against, its games and verdict
    (``meets``, helpful, not helpful, negligible, unchanged, inconclusive, screened out),
    where its box puts its rates (``band``: inside, outside, inconclusive), the screen's
    estimated gain in the objective with its paired standard error."""

    edits: tuple[Edit, ...]
    against: tuple[Edit, ...]
    step: str
    games: int = 0
    verdict: str = ""
    gain_low: float = float("nan")
    gain_high: float = float("nan")
    rates: dict = field(default_factory=dict)
    distance: float = float("nan")
    band: str = ""
    margin: float = float("nan")  # the least clearance of a rate interval inside the band
    distance_low: float = float("nan")  # the objective over the box of the rates
    distance_high: float = float("nan")
    gain: float = float("nan")  # estimated D(reference) - D(candidate)
    gain_se: float = float("nan")
    rate_low: dict = field(default_factory=dict)
    rate_high: dict = field(default_factory=dict)

    @property
    def cost(self) -> int:
        return sum(e.cost for e in self.edits)

    def meets(self, band=None) -> bool:
        """Helpful, and every target's rate interval of the box inside the band."""
        return self.verdict == "meets"

    @property
    def helpful(self) -> bool:
        return self.verdict in ("meets", "helpful")

    @property
    def promising(self) -> bool:
        """Estimated to help by more than twice its paired standard error (not certified:
        what the frontier extends when no candidate is certified helpful)."""
        return self.verdict not in ("not helpful", "unchanged", "screened out", "negligible") and (
            self.gain > 2 * self.gain_se and self.gain > 0)  # fmt: skip

    def row(self) -> dict:
        return {"step": self.step, "edits": "; ".join(e.text for e in self.edits),
                "sides": ", ".join(sorted({e.side for e in self.edits})), "cost": self.cost,
                "changes": len(self.edits),
                "against": "; ".join(e.text for e in self.against) or "base",
                "games_per_pairing": self.games, "verdict": self.verdict,
                "gain_low": self.gain_low, "gain_high": self.gain_high,
                "est_distance": self.distance, "distance_low": self.distance_low,
                "distance_high": self.distance_high, "band": self.band,
                "est_gain": self.gain, "gain_se": self.gain_se} | {
                f"rate {t}": r for t, r in self.rates.items()} | {
                f"low {t}": r for t, r in self.rate_low.items()} | {
                f"high {t}": r for t, r in self.rate_high.items()}  # fmt: skip


def _rank(t: Trial) -> tuple:
    """Meeting errata: least cost, fewest changes, then the most surely inside the band."""
    return (t.cost, len(t.edits), -t.margin, [e.text for e in t.edits])


def _span(lo: float, hi: float, band) -> tuple[float, float]:
    """The least and the greatest distance from the band over the interval [lo, hi]."""
    near = 0.0 if hi >= band[0] and lo <= band[1] else min(distance(lo, band), distance(hi, band))
    return near, max(distance(lo, band), distance(hi, band))


class Candidate:
    """One candidate errata's sequential test, a look at a time (``step``), against the
    errata ``against`` (the base: ``()``) on the same seeds, until its verdict or the cap."""

    def __init__(self, player: Player, edits: tuple[Edit, ...], against: tuple[Edit, ...] = (),
                 step: str = "single") -> None:  # fmt: skip
        spec = self.spec = player.spec
        self.player, self.n, self.done = player, 0, False
        self.trial = Trial(edits, against, step)
        # rho's design variance: a fair score's over the m pairings of a target (a field of
        # n sides: 2 (n - 1), both seats; Maneuver's blue against red: 1)
        m = sum(spec.targets[0] in (p.army_a.name, p.army_b.name) for p in player.base)
        # the reference (shared by every candidate tested against it) is played to the cap
        # once, before the candidate's first look: a fixed interval of it is valid as it is
        player.ensure(against, spec.max_games)
        self.ref = field_stats(player.base, player.joint(against, against, spec.max_games),
                               spec.targets)  # fmt: skip
        # negligible: surely gaining less than min_gain, or than half the reference's
        # estimated distance when that is smaller (no edit gains more than the whole distance)
        d_ref = sum(distance(r.ref, spec.search_band) for r in self.ref)
        self.test = Sequential(spec.band, spec.alpha, spec.max_games, 0.25 / m,
                               min(spec.min_gain, d_ref / 2), True, spec.guard)  # fmt: skip

    def step(self) -> str:
        """Play one more look and judge it: the verdict (``continue``: not yet)."""
        spec, p, t = self.spec, self.player, self.trial
        self.n = n = min(self.n + spec.games_per_look, spec.max_games)
        p.ensure(t.edits, n)
        joint = p.joint(t.edits, t.against, n)
        st = [replace(s, ref=r.ref, ref_var=r.ref_var, ref_n=r.n)
              for s, r in zip(field_stats(p.base, joint, spec.targets), self.ref, strict=True)]  # fmt: skip
        verdict, j = self.test.verdict(st, last=n >= spec.max_games)
        band, names = spec.search_band, spec.targets
        t.games, t.verdict, t.gain_low, t.gain_high = n, verdict, j.gain_low, j.gain_high
        t.rates = {x: s.rate for x, s in zip(names, st, strict=True)}
        t.rate_low = dict(zip(names, j.rate_low, strict=True))
        t.rate_high = dict(zip(names, j.rate_high, strict=True))
        t.distance = sum(distance(r, band) for r in t.rates.values())
        spans = [_span(a, b, band) for a, b in zip(j.rate_low, j.rate_high, strict=True)]
        t.distance_low, t.distance_high = sum(x for x, _ in spans), sum(y for _, y in spans)
        t.band, t.margin = j.band(spec.band), j.margin(spec.band)
        t.gain, t.gain_se = gain_estimate(p.base, joint, st, names, band)
        self.done = verdict != "continue"
        return verdict

    def finish(self) -> Trial:
        while not self.done:
            self.step()
        return self.trial


def _screen_key(c: Candidate) -> tuple:
    """The screen's order: the smallest estimated objective, then the rates most inside the
    band, then the cheaper (docs/fix.md, "The screen")."""
    t = c.trial
    lo, hi = c.spec.search_band
    inner = min(min(r - lo, hi - r) for r in t.rates.values())
    return (t.distance, -inner, t.cost, [e.text for e in t.edits])


def try_candidate(player: Player, edits: tuple[Edit, ...], against: tuple[Edit, ...] = (),
                   step: str = "single", trail: list | None = None,
                   say: Callable[[str], None] | None = None) -> Trial:  # fmt: skip
    """Play ``edits`` against the errata ``against`` (the base: ``()``) a look at a time on
    the same seeds until the sequential test's verdict or the cap."""
    trial = Candidate(player, edits, against, step).finish()
    _tell(player, trial, trail, say)
    return trial


def _tell(player: Player, t: Trial, trail: list | None, say) -> None:
    if trail is not None:
        trail.append(t)
    if say is not None:
        say(f"fix: {len(trail or ())} tried ({player.games:,} games): "
            f"{'; '.join(e.text for e in t.edits)} (cost {t.cost}) {t.verdict} after "
            f"{t.games} games, est. distance {t.distance:.3f}")  # fmt: skip


def screened(player: Player, cands: list[Candidate], keep: int, trail: list, say,
             on_trial=None) -> list[Trial]:  # fmt: skip
    """The screen: one look of every candidate (a verdict then is kept), the undecided ones
    ranked by :func:`_screen_key`, the first ``keep`` played on to their verdict, the rest
    ``screened out`` (their one look's estimates kept in the trail)."""
    out = []

    def end(c: Candidate) -> None:
        _tell(player, c.trial, trail, say)
        out.append(c.trial)
        if on_trial is not None:
            on_trial(trail)

    for c in cands:
        if c.step() != "continue":
            end(c)
    open_ = sorted((c for c in cands if not c.done), key=_screen_key)
    for i, c in enumerate(open_):
        if i < keep:
            c.finish()
        else:
            c.trial.verdict = "screened out"
        end(c)
    return out


def search(player: Player, say: Callable[[str], None],
           on_trial: Callable[[list[Trial]], None] | None = None,
           ) -> tuple[list[Trial], Trial | None, float]:  # fmt: skip
    """The candidates tried in order, the answer (None when nothing helped) and the base's
    estimated distance (module docstring, "The search"); ``on_trial(trail)`` after each
    candidate (the job's progress: ``fix_progress``)."""
    spec = player.spec
    trail: list[Trial] = []
    player.ensure((), spec.max_games)
    st0 = field_stats(player.base, player.joint((), (), spec.max_games), spec.targets)
    d0, d_in = (sum(distance(s.ref, b) for s in st0) for b in (spec.band, spec.search_band))
    say(f"fix: the base's estimated distance from the band {d0:.3f}, {d_in:.3f} from the "
        f"search's (guard {spec.guard:.4f}); {len(spec.edits)} single edits to try")  # fmt: skip
    if d_in == 0:
        return trail, None, d0
    singles = screened(player, [Candidate(player, (e,)) for e in spec.edits],
                       spec.screen_keep, trail, say, on_trial)  # fmt: skip
    meeting = sorted((t for t in singles if t.meets()), key=_rank)
    best = meeting[0] if meeting else None
    cap = best.cost - 1 if best else spec.budget
    # the greedy step extends the certified helpful singles; when none is (many targets:
    # the box too wide), the promising ones, for the frontier (confirmed afresh in the end)
    helpful = [t for t in singles if t.helpful] or [t for t in singles if t.promising]
    helpful = sorted(helpful, key=R._rank_distance)[: spec.screen_keep]
    pool = [t for t in helpful if t.cost <= cap]
    current = pool[0] if pool else None
    others, extended, back = pool[1:], set(), BACKTRACKS
    while current is not None and not current.meets():
        extended.add(_key(current.edits))
        cands = []
        for h in sorted(helpful, key=lambda t: (t.cost, t.distance)):
            e = h.edits[0]
            if e.slot in {x.slot for x in current.edits} or current.cost + e.cost > cap:
                continue
            try:
                cands.append(Candidate(player, _key((*current.edits, e)), current.edits,
                                       "combination"))  # fmt: skip
                player.pairings(cands[-1].trial.edits)
            except UsageError as err:  # two legal edits the game refuses together
                cands.pop()
                say(f"fix: skipped {e.text} with {_text(current.edits)}: {err}")
        tried = screened(player, cands, spec.screen_keep, trail, say, on_trial)
        better = [t for t in tried if t.helpful] or [t for t in tried if t.promising]
        others = sorted({_key(t.edits): t for t in sorted([*others, *better], key=R._rank_distance,
                         reverse=True) if _key(t.edits) not in extended and t.cost < cap
                         }.values(), key=R._rank_distance)  # to go back to  # fmt: skip
        if not better:
            if not (back and others):
                break
            back, current = back - 1, others.pop(0)
            say(f"fix: nothing extends the errata; back to {_text(current.edits)}")
            continue
        meeting = [t for t in better if t.meets()]
        current = min(meeting, key=_rank) if meeting else min(better, key=R._rank_distance)
        others = [t for t in others if t is not current]
        if current.meets():
            best = current
    if best is None:
        frontier = R._frontier(trail)
        best = min(frontier, key=R._rank_distance) if frontier else None
    say(
        f"fix: search done: {len(trail)} candidates, {player.games:,} games"
        + (f" ({player.resumed:,} blocks read back from the store)" if player.resumed else "")
    )
    return trail, best, d0


# ----------------------------------------------------------------------- the study


def run(game, sides: Sequence, *, out_dir: str | Path | None = None, backend=None,
        resume: bool = False, progress: Callable[[int, int], None] | None = None,
        say: Callable[[str], None] | None = None, confirm_with: str | None = None,
        confirm_with_games: int = 200, status=None, **kw) -> FixResult:  # fmt: skip
    """:func:`run_spec` of the spec ``command_spec``'s keywords build for ``sides``."""
    spec = command_spec(resolve(game), sides, **kw)
    return run_spec(spec, out_dir, backend=backend, resume=resume, progress=progress, say=say,
                    status=status, confirm_with=confirm_with,
                    confirm_with_games=confirm_with_games)  # fmt: skip


def run_spec(spec: FixSpec, out_dir: str | Path | None = None, *, resume: bool = False,
             progress: Callable[[int, int], None] | None = None, backend=None,
             say: Callable[[str], None] | None = None,
             status: Callable[[str], None] | None = None, confirm_with: str | None = None,
             confirm_with_games: int = 200) -> FixResult:  # fmt: skip
    """The fix ``spec`` asks: the search on the seed, the answer confirmed on the
    confirmation seed. ``out_dir``: the search's games in ``out_dir/games.parquet/``, the
    confirmation's in ``out_dir/confirm/games.parquet/`` (``resume``: finished blocks read
    back; the search replays to the same answer); ``progress(done, total)``: games, the
    total an estimate that firms up as candidates end (``fix_progress``); ``say``: a line
    per candidate; ``status``: the search's state in a line (candidates tried, the best
    errata so far), for the workbench's job page. ``confirm_with``: a player (e.g.
    ``search:16:tuned:v2``) under whom the answer is confirmed again on the same fresh seed,
    ``confirm_with_games`` per pairing (its games in ``out_dir/confirm-strong/``); it
    decides no game of the search."""
    import pandas as pd

    from manoeuvre_sim.core.store import STORE
    from manoeuvre_sim.studies import balance as B
    from manoeuvre_sim.studies.fix_progress import Estimate

    g = spec.balance.game_module()
    sspec = None if confirm_with is None else strong_spec(spec, confirm_with, confirm_with_games)
    t0 = time.perf_counter()
    say = say or (lambda line: None)
    manifest = B.base_manifest(spec.balance, "fix", B.describe_sides) | {"fix": spec.record()}
    store = B.make_store(out_dir)
    est = Estimate(spec, progress, status)
    player = Player(g, spec, store=store, manifest=manifest, backend=backend, resume=resume,
                    progress=est.tick)  # fmt: skip
    est.player = player
    manifest |= {"confirm_seed": spec.confirm_seed, "confirm_games": spec.confirm_games,
                 "replay": {"base": CONFIRM_BASE, "fixed": CONFIRM_FIXED,
                            "store": CONFIRM_STORE}}  # fmt: skip
    try:
        trail, best, d0 = search(player, say, est.trial)
        conf = None
        if best is not None:
            say(f"fix: confirming {'; '.join(e.text for e in best.edits)} on seed "
                f"{spec.confirm_seed}")  # fmt: skip
            est.confirming(best)
            cstore = None if out_dir is None else Path(out_dir) / CONFIRM_STORE
            if cstore is not None:
                cstore.mkdir(parents=True, exist_ok=True)
            cb = replace(spec.balance, seed=spec.confirm_seed,
                         games_per_pairing=spec.confirm_games)  # fmt: skip
            cman = B.base_manifest(cb, "fix-confirm", B.describe_sides) | {
                "errata": [e.text for e in best.edits]
            }
            conf = confirm(g, spec, best.edits, store=cstore, manifest=cman, backend=backend,
                           resume=resume, progress=est.confirm_tick)  # fmt: skip
        strong = None
        if best is not None and sspec is not None:
            say(f"fix: confirming it again under {confirm_with}, {confirm_with_games} games "
                "per pairing")  # fmt: skip
            est.confirming(best, confirm_with)
            sstore = None if out_dir is None else Path(out_dir) / "confirm-strong" / STORE
            if sstore is not None:
                sstore.mkdir(parents=True, exist_ok=True)
            sb = replace(sspec.balance, seed=spec.confirm_seed,
                         games_per_pairing=confirm_with_games)  # fmt: skip
            sman = B.base_manifest(sb, "fix-confirm", B.describe_sides) | {
                "errata": [e.text for e in best.edits]
            }
            strong = confirm(g, sspec, best.edits, store=sstore, manifest=sman,
                             backend=backend, resume=resume,
                             progress=est.confirm_tick)  # fmt: skip
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
    frontier = pd.DataFrame([t.row() for t in R._frontier(trail)])
    errata = errata_table(g, spec, best.edits if best is not None else ())
    manifest |= {
        "errata": [] if best is None else [e.text for e in best.edits],
        "errata_cost": 0 if best is None else best.cost,
        "meets": bool(best is not None and best.meets()),
        "confirmed": bool(conf is not None and conf.confirmed),
        "base_distance": d0,
        "candidates": len(trail),
        "search_games": player.games,
        "confirm_games_played": 0 if conf is None else conf.games,
        "games": player.games
        + (0 if conf is None else conf.games)
        + (0 if strong is None else strong.games),
        "resumed_blocks": player.resumed,
        "seconds": round(time.perf_counter() - t0, 3),
        "interrupted": False,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    if sspec is not None:
        manifest |= {"confirm_with": confirm_with, "confirm_with_games": confirm_with_games,
                     "strong_confirmed": bool(strong is not None and strong.confirmed),
                     "strong_games_played": 0 if strong is None else strong.games}  # fmt: skip
    return FixResult(spec, errata, pd.DataFrame([t.row() for t in trail]), frontier, conf,
                     manifest, False, manifest["meets"], strong)  # fmt: skip


__all__ = ["Edit", "FixResult", "FixSpec", "Judgement", "Player", "TargetStats", "command_spec",
           "command_spec_of", "costs_toml", "run_spec", "CONFIRM_BASE", "CONFIRM_FIXED",
           "CONFIRM_STORE", "change_design_variance", "confirm", "cs_radius", "distance",
           "field_stats", "gain_range", "holm", "judge", "parse_band", "read_costs", "run",
           "search", "Sequential"]  # fmt: skip
