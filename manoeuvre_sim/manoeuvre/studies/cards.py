"""Card value: what each card is worth to its army, observed in play and by ablation.

Cards are identified as a designer names them (:func:`identities`, ``card_identities.py``):
a leader by its name, an HQ card by its type, a unit card by its unit **and** printed values
(the 2d8/6 and the 1d10/3 card of one unit are different cards); the copies of one identity
are pooled.

**Observed** (17lands style): from the army's games against the field, per identity, the
win rate in games where it was drawn, in the opening hand, played, never drawn; the
improvement when drawn (IWD: drawn minus never-drawn win rate) and when played, each with
a 95 % interval; how it was used (attack, defence, restoration, fire, Supply moves, a
leader's Combat or Command or rally ...), the mean game turn it was played in, and the
share of games in which it was held and never played. Every figure comes from per-block
sums (each game's per-copy statistics are read off its event trace and summed at once), so
memory is flat in the number of games (``card_observed.py``). These figures are biased (docs/card-value.md).

**Ablation** (causal): every copy of one identity (or one copy) is replaced by a blank card
that can only be discarded — the deck stays at 60 and the day keeps its length — or by
another card (``replace``), and the army's games against the field are replayed on the
same seeds. ``value`` = base win rate - variant win rate (the win rate the army loses
without the card: a helpful card is positive), with the paired 95 % interval of the
per-game differences. An ablation that changes nothing (a card replaced by itself, a blank
by a blank) gives exactly 0.

Seeds are those of the balance study: the base games of (army, opponent) are the balance
study's games of that pairing with the same master seed. The summary in words, the tables
and the PDF are ``analyses/manoeuvre/cards.py`` (with ``cards_text.py``, ``cards_pdf.py``).
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.core import stats
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import Pairing, PolicySpec, Task, blocks, pairing_seed, play
from manoeuvre_sim.core.study_command import StudyCommand
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
from manoeuvre_sim.manoeuvre.adapter import RuleOptions
from manoeuvre_sim.manoeuvre.balance_setup import policy_specs, resolve_armies
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.studies.card_identities import CardIdentity as CardIdentity
from manoeuvre_sim.manoeuvre.studies.card_identities import find_identity, identities
from manoeuvre_sim.manoeuvre.studies.card_observed import MIN_GROUP as MIN_GROUP
from manoeuvre_sim.manoeuvre.studies.card_observed import ObservedSums, observed_frame
from manoeuvre_sim.studies.balance import BalanceSpec, base_manifest

KIND = "cards"  # the registry's name (the adapter's OWN_STUDIES) and the manifests' "study"
# its command (core/study_command.py) is Manoeuvre's own, cli/cards.py
COMMAND = StudyCommand(help="Card value for one army: observed in play and by ablation, PDF.",
                       face="own")  # fmt: skip

MODES = ("observed", "ablation", "both")
BLANK = "blank"
KINDS = ("leader", "hq", "unit")


# --- the study ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Ablation:
    """Replace every copy (or the first copy) of ``target`` by ``source`` (a blank when
    None)."""

    target: str
    source: str | None = None
    one_copy: bool = False

    @property
    def label(self) -> str:
        if self.source is None:
            return self.target
        return f"{self.target} -> {self.source}"


@dataclass(frozen=True)
class CardStudySpec:
    army: Army
    opponents: tuple[Army, ...]
    games: int = 14000  # per variant, against the field: split over opponents and seats
    seed: int = 1
    policy: PolicySpec = PolicySpec(DEFAULT_POLICY, DEFAULT_POLICY)
    mode: str = "both"
    ablations: tuple[Ablation, ...] | None = None  # None: every identity, blanked
    base_blank: tuple[str, ...] = ()  # identities blanked in the base run too
    options: RuleOptions = RuleOptions()
    block: int = 1000
    threads: int = 0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise UsageError(f"--mode: expected one of {', '.join(MODES)}, got {self.mode!r}")
        if not self.opponents:
            raise UsageError("--against: expected at least one opponent")
        names = [o.name for o in self.opponents]
        if self.army.name in names:
            raise UsageError(
                f"--against: {self.army.name} cannot be its own opponent in a card study "
                "(both seats would hold the card)"
            )
        if len(set(names)) != len(names):
            raise UsageError("--against: an army is named twice")
        if self.games < 1:
            raise UsageError(f"--games-per-variant: expected a positive number, got {self.games}")
        if not (0 <= self.seed < 2**63):
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.block < 1 or self.threads < 0:
            raise UsageError("block and threads: expected positive numbers")
        ids = identities(self.army)
        for a in self.ablations or ():
            find_identity(ids, a.target, "--replace" if a.source else "card")
            if a.source is not None and a.source != BLANK:
                find_identity(ids, a.source, "--replace")
        for b in self.base_blank:
            find_identity(ids, b, "base_blank")

    @property
    def per_pairing(self) -> int:
        return -(-self.games // (2 * len(self.opponents)))

    def total_text(self) -> str:
        """What the study plays, said before the first game: "28,000 games: the base and
        39 card variants, 700 each (50 per opponent and seat, 7 opponents)"."""
        n = len(self.plan())
        each = self.per_pairing * 2 * len(self.opponents)
        k = len(self.opponents)
        per = f"{self.per_pairing:,} per opponent and seat, {k} opponent{'s' * (k != 1)}"
        if not n:
            return f"{each:,} games ({per})"
        variants = f"{n} card variant{'s' * (n != 1)}"
        return f"{each * (n + 1):,} games: the base and {variants}, {each:,} each ({per})"

    def plan(self) -> list[Ablation]:
        if self.mode == "observed":
            return []
        if self.ablations is not None:
            return list(self.ablations)
        return [Ablation(i.label) for i in identities(self.army)]


def _patches(ids, ablation: Ablation | None, blank: Sequence[str], side: int):
    out = []
    for b in blank:
        for c in find_identity(ids, b, "base_blank").copies:
            out.append((side, c, -1))
    if ablation is not None:
        target = find_identity(ids, ablation.target, "card")
        copies = target.copies[:1] if ablation.one_copy else target.copies
        if ablation.source is None or ablation.source == BLANK:
            out += [(side, c, -1) for c in copies]
        else:
            src = find_identity(ids, ablation.source, "--replace").copies[0]
            out += [(side, c, src) for c in copies]
    return tuple(out)


@dataclass
class CardResult:
    """What a card study found: ``cards`` (one row per identity: the observed and ablation
    columns run), ``copies`` (per copy, observed games only), the manifest. Its summary,
    tables and PDF: ``analyses/manoeuvre/cards.py``."""

    spec: CardStudySpec
    cards: pd.DataFrame
    copies: pd.DataFrame
    manifest: dict
    interrupted: bool = False
    ablation_games: dict = field(default_factory=dict)


def run(
    army: str | Army,
    *,
    against: Sequence[str | Army] | None = None,
    games: int = 14000,
    seed: int = 1,
    policy: str = DEFAULT_POLICY,
    mode: str = "both",
    replace: Sequence[str] = (),
    one_copy: bool = False,
    relax: bool = False,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    **spec_kw,
) -> CardResult:
    """Build the spec from names (``against``: None for every other base army) and run it.
    ``replace``: ``"Forced March=Supply"`` strings (only these ablations are run)."""
    spec = make_spec(army, against=against, games=games, seed=seed, policy=policy, mode=mode,
                     replace=replace, one_copy=one_copy, relax=relax, **spec_kw)  # fmt: skip
    return run_spec(spec, out_dir=out_dir, progress=progress)


def make_spec(
    army: str | Army,
    *,
    against: Sequence[str | Army] | None = None,
    replace: Sequence[str] = (),
    one_copy: bool = False,
    relax: bool = False,
    policy: str = DEFAULT_POLICY,
    **kw,
) -> CardStudySpec:
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army, load_builtin_armies

    a = army if isinstance(army, Army) else find_army(str(army), relax=relax)
    check_playable(a)
    if against is None:
        opps = tuple(x for x in load_builtin_armies() if x.name != a.name)
    else:
        opps = tuple(resolve_armies(list(against), relax=relax)[0])
    ablations = None
    if replace:
        ablations = tuple(parse_replace(r, one_copy) for r in replace)
    elif one_copy:
        ablations = tuple(Ablation(i.label, None, True) for i in identities(a))
    return CardStudySpec(
        army=a, opponents=opps, policy=policy_specs(policy)[0], ablations=ablations, **kw
    )


def parse_replace(text: str, one_copy: bool = False) -> Ablation:
    if text.count("=") != 1:
        raise UsageError(
            f"--replace {text!r}: expected CARD=OTHER (e.g. 'Forced March=Supply', or "
            "'Supply=blank')"
        )
    target, source = (x.strip() for x in text.split("="))
    if not target or not source:
        raise UsageError(f"--replace {text!r}: expected CARD=OTHER with both names given")
    return Ablation(target, None if source.casefold() == BLANK else source, one_copy)


def command_spec(
    army: str,
    *,
    against: str = "all",
    mode: str = "both",
    games_per_variant: int = 14000,
    seed: int = 1,
    policy: str = DEFAULT_POLICY,
    replace: Sequence[str] = (),
    one_copy: bool = False,
    options: RuleOptions | None = None,
    block: int = 1000,
    threads: int = 0,
    relax: bool = False,
) -> CardStudySpec:
    """The study ``manoeuvre-sim cards`` builds from its options, named as the command's
    Python names with its defaults (``against``: ``all``, every other base army, or as
    typed, comma-separated): every option checked, and the armies loaded, before any game."""
    opps = None if against.strip().casefold() == "all" else [
        a.strip() for a in against.split(",") if a.strip()
    ]  # fmt: skip
    return make_spec(
        army, against=opps, replace=replace, one_copy=one_copy, relax=relax, policy=policy,
        games=games_per_variant, seed=seed, mode=mode,
        options=RuleOptions() if options is None else options, block=block, threads=threads,
    )  # fmt: skip


def run_spec(
    spec: CardStudySpec,
    *,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
    resume: bool = False,
) -> CardResult:
    """Play the base games (with card statistics when observed) and every ablation on the
    same seeds; pair them block by block."""
    ids = identities(spec.army)
    plan = spec.plan()
    n = spec.per_pairing
    pairings, sides = _pairings(spec, ids, plan)
    nbase = len(sides)
    store = Path(out_dir) / STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = _manifest(spec, plan)
    observed = ObservedSums(ids, spec.army.deck_size) if spec.mode != "ablation" else None
    pairs = _Pairs(sides, len(plan), observed)
    tasks = _tasks(spec, nbase, len(plan))
    total = sum(t.count for t in tasks)
    done = {"games": 0}

    def tick(k: int) -> None:
        done["games"] += k
        if progress is not None:
            progress(done["games"], total)

    outcome = play(
        pairings, tasks, game="manoeuvre", options=spec.options, threads=spec.threads, store=store,
        manifest=manifest, on_frame=pairs.on_frame, progress=tick, backend=backend,
        resume=resume, stats=set(range(nbase)) if observed is not None else False,
    )  # fmt: skip
    cards, copies = _card_frames(ids, observed, plan, pairs.abl_sums)
    manifest |= {
        "games": int(done["games"]),
        "games_per_pairing_reached": {"min": n, "max": n},
        "interrupted": outcome.interrupted,
        "seconds": round(outcome.seconds, 3),
        "threads": outcome.threads,
        "backend": outcome.backend,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    return CardResult(spec, cards, copies, manifest, outcome.interrupted)


def _pairings(spec: CardStudySpec, ids, plan) -> tuple[list[Pairing], list[int]]:
    """The base pairings (the army against each opponent in either seat, on the balance
    study's seeds), then each ablation's copy of them; and the army's seat in each base
    pairing."""
    pairings: list[Pairing] = []
    sides: list[int] = []
    for opp in spec.opponents:
        for side in (0, 1):
            a, b = (spec.army, opp) if side == 0 else (opp, spec.army)
            seed = pairing_seed(spec.seed, a.name, b.name)
            pairings.append(
                Pairing(
                    a,
                    b,
                    spec.policy.policy_a,
                    spec.policy.policy_b,
                    seed,
                    "base",
                    _patches(ids, None, spec.base_blank, side),
                )  # fmt: skip
            )
            sides.append(side)
    nbase = len(pairings)
    for v, abl in enumerate(plan):
        for k in range(nbase):
            p = pairings[k]
            pairings.append(
                replace(
                    p,
                    label=f"ablation{v:03d}",
                    patches=_patches(ids, abl, spec.base_blank, sides[k]),
                )  # fmt: skip
            )
    return pairings, sides


def _tasks(spec: CardStudySpec, nbase: int, n_plan: int) -> list[Task]:
    """The tasks in play order: per block, the base then every ablation of it (pairs stay
    in step)."""
    n = spec.per_pairing
    tasks = []
    for blk in range(-(-n // spec.block)):
        for k in range(nbase):
            t0 = blocks(k, blk * spec.block, min(n, (blk + 1) * spec.block), spec.block)[0]
            tasks.append(t0)
            for v in range(n_plan):
                tasks.append(Task(nbase + v * nbase + k, t0.first_game, t0.count))
    return tasks


def _score(df: pd.DataFrame, side: int) -> np.ndarray:
    """The army's score in each game of ``df`` from seat ``side``: 1 a win, 0.5 a draw."""
    w = df["winner"].to_numpy()
    return (w == "ab"[side]) + 0.5 * (w == "draw")


class _Pairs:
    """What ``run_spec`` keeps of each frame of games as it comes: a base block's scores
    until every ablation of that block has been paired with them, the sums of the paired
    differences per ablation, and the observed sums of the base games."""

    def __init__(self, sides: list[int], n_plan: int, observed: ObservedSums | None) -> None:
        self.sides, self.n_plan, self.observed = sides, n_plan, observed
        self.nbase = len(sides)
        self.base_scores: dict[tuple[int, int], np.ndarray] = {}
        self.abl_sums = np.zeros((n_plan, 4))  # n, sum d, sum d^2, changed

    def on_frame(self, task: Task, df: pd.DataFrame, cs=None) -> None:
        k, nbase, sides = task.pairing, self.nbase, self.sides
        if k < nbase:
            sc = _score(df, sides[k]).astype(np.float64)
            if self.n_plan:
                self.base_scores[(k, task.first_game)] = sc
            if self.observed is not None and cs is not None:
                self.observed.add(sc, cs[:, sides[k]])
        else:
            v, kb = divmod(k - nbase, nbase)
            sv = _score(df, sides[kb]).astype(np.float64)
            sb = self.base_scores[(kb, task.first_game)]
            d = sb - sv
            self.abl_sums[v] += (len(d), d.sum(), (d * d).sum(), (d != 0).sum())
            if v == self.n_plan - 1:
                del self.base_scores[(kb, task.first_game)]  # every ablation has used it


def _card_frames(ids, observed: ObservedSums | None, plan, abl_sums) -> tuple:
    """The card frame (one row per identity, with the observed and ablation columns run)
    and the per-copy frame (empty without observed games)."""
    cards = pd.DataFrame(
        {
            "card": [i.label for i in ids],
            "kind": [i.kind for i in ids],
            "unit": [i.unit for i in ids],
            "copies": [len(i.copies) for i in ids],
        }
    )
    copies = pd.DataFrame()
    if observed is not None and observed.games:
        obs, copies = observed_frame(observed)
        cards = cards.merge(obs, on="card", how="left")
    if plan:
        cards = cards.merge(_ablation_frame(plan, abl_sums, ids), on="card", how="left")
    return cards, copies


def _ablation_frame(plan, sums, ids) -> pd.DataFrame:
    rows = []
    for v, abl in enumerate(plan):
        n, s, s2, changed = sums[v]
        if n == 0:
            continue
        m, lo, hi = stats.paired_interval(s, s2, n)
        var = max(s2 / n - (s / n) ** 2, 0.0)
        rows.append(
            {
                "card": find_identity(ids, abl.target, "card").label,
                "ablation": abl.label + (" (one copy)" if abl.one_copy else ""),
                "value": float(m),
                "value_low": float(lo),
                "value_high": float(hi),
                "ablation_games": int(n),
                "changed_games": changed / n,
                "games_for_1pt": int(math.ceil(stats.z_value() ** 2 * var / 0.01**2)),
            }
        )
    df = pd.DataFrame(rows)
    if len(df):
        df["value_rank"] = df["value"].rank(ascending=False, method="min").astype(int)
    return df


def _manifest(spec: CardStudySpec, plan) -> dict:
    m = base_manifest(
        BalanceSpec(
            "manoeuvre", (spec.army, *spec.opponents), policies=(spec.policy,),
            games_per_pairing=spec.per_pairing, seed=spec.seed, options=spec.options,
            block=spec.block,
        )
    )  # fmt: skip
    m["study"] = "cards"
    m["army"] = spec.army.name
    m["against"] = [o.name for o in spec.opponents]
    m["mode"] = spec.mode
    m["ablations"] = [
        {"target": a.target, "source": a.source or BLANK, "one_copy": a.one_copy} for a in plan
    ]
    m["base_blank"] = list(spec.base_blank)
    return m
