"""The army balance study: every ordered pairing of the chosen armies, both seats, mirrors
included, under one or more play styles.

Python API (what ``manoeuvre-sim balance`` calls)::

    from manoeuvre_sim.analyses.manoeuvre import balance
    res = balance.run(["France", "Russia", "my_spain.toml"], games_per_pairing=500, seed=1)
    res.matrix      # one row per (policy, army, opponent)
    res.armies      # field win rate, Bradley-Terry rating, rank, each with its interval
    res.games       # every game record (read back from the study store)
    res.to_pdf("balance.pdf")

Seeding: game ``i`` of the ordered pairing (X in seat a, Y in seat b) is seeded from
(master seed, X's name, Y's name, i) alone (``study.pairing_seed``), so the records do not
depend on threads, task size, the other armies of the field or the play style, and a
precision run equals the fixed-N run with the same final N per pairing. The ``seed`` column
of a record is its pairing's block seed: ``manoeuvre-sim replay --seed SEED --game GAME``
with the two armies and policies replays that game.
"""

from __future__ import annotations

import datetime as _dt
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.study_dir import STORE, write_csv, write_text
from manoeuvre_sim.analyses.common.study_dir import prepare_out_dir as prepare_out_dir
from manoeuvre_sim.analyses.manoeuvre import tally as T
from manoeuvre_sim.analyses.manoeuvre.balance_text import interrupted_status as interrupted_status
from manoeuvre_sim.analyses.manoeuvre.balance_text import provenance, summary_lines
from manoeuvre_sim.analyses.manoeuvre.balance_text import setup_text as setup_text
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import Pairing, Task, pairing_seed
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY, RULES_VERSION
from manoeuvre_sim.manoeuvre.adapter import KEY as GAME_KEY
from manoeuvre_sim.manoeuvre.adapter import RuleOptions, army_hash, study_data_hash
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.runner import check_policy
from manoeuvre_sim.studies.rounds import play_balance

DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000


@dataclass(frozen=True)
class PolicySpec:
    """The players of one study: ``label`` names it in the tables."""

    policy_a: str
    policy_b: str

    @property
    def label(self) -> str:
        return (
            self.policy_a if self.policy_a == self.policy_b else f"{self.policy_a}/{self.policy_b}"
        )


def policy_specs(
    policy: str | None = None,
    policy_a: str | None = None,
    policy_b: str | None = None,
    policies: Sequence[str] | None = None,
) -> tuple[PolicySpec, ...]:
    """``policies`` (one study per style, both seats alike), else ``policy_a/b`` (default
    ``policy``), else ``policy`` for both; checked against the known policies."""
    out: list[PolicySpec]
    if policies:
        out = [PolicySpec(p, p) for p in policies]
        if len(set(policies)) != len(policies):
            raise UsageError("--policies: a policy is named twice")
    else:
        base = policy or DEFAULT_POLICY
        out = [PolicySpec(policy_a or base, policy_b or base)]
    for spec in out:
        # named by the option that gave it, as the user typed it
        seat_a = "--policies" if policies else "--policy-a" if policy_a else "--policy"
        seat_b = "--policies" if policies else "--policy-b" if policy_b else "--policy"
        check_policy(spec.policy_a, seat_a)
        check_policy(spec.policy_b, seat_b)
    return tuple(out)


@dataclass(frozen=True)
class BalanceSpec:
    """Everything that decides a balance study's games (frozen, recorded in the manifest).

    ``seed_names`` are the names the pairing seeds are derived from (default: the armies'
    names); a what-if variant keeps the base army's seeding name to replay its games.
    """

    armies: tuple[Army, ...]
    policies: tuple[PolicySpec, ...] = (PolicySpec(DEFAULT_POLICY, DEFAULT_POLICY),)
    games_per_pairing: int = DEFAULT_GAMES
    seed: int = 1
    options: RuleOptions = RuleOptions()
    precision: float | None = None
    max_games: int = 20000
    block: int = DEFAULT_BLOCK
    threads: int = 0
    seed_names: tuple[str, ...] | None = None
    sources: tuple[str, ...] | None = None  # where each army came from (name or file)
    # play games first_game .. first_game + games_per_pairing - 1 of each pairing (a part of
    # a study split over machines; merge the stores and --resume the whole; fixed N only)
    first_game: int = 0

    def __post_init__(self) -> None:
        names = [a.name for a in self.armies]
        if len(names) < 2:
            raise UsageError("--armies: expected at least two armies")
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise UsageError(f"--armies: an army is named twice: {', '.join(dup)}")
        if self.games_per_pairing < 1:
            raise UsageError(
                f"--games-per-pairing: expected a positive number, got {self.games_per_pairing}"
            )
        if not (0 <= self.seed < 2**63):
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.precision is not None and not (0.0 < self.precision < 0.5):
            raise UsageError(
                f"--precision: expected a half-width between 0 and 0.5 (e.g. 0.02 for ±2 "
                f"points), got {self.precision}"
            )
        if self.max_games < 1:
            raise UsageError(f"--max-games: expected a positive number, got {self.max_games}")
        if self.block < 1:
            raise UsageError(f"block: expected a positive number of games, got {self.block}")
        if self.threads < 0:
            raise UsageError(f"--threads: expected 0 (all cores) or more, got {self.threads}")
        if self.first_game < 0:
            raise UsageError(f"--first-game: expected 0 or more, got {self.first_game}")
        if self.first_game and self.precision is not None:
            raise UsageError("--first-game: not with --precision (a range is a fixed N)")
        if self.seed_names is not None and len(self.seed_names) != len(self.armies):
            raise UsageError("seed_names: expected one name per army")

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.armies]

    def pairings(self) -> list[Pairing]:
        """Per policy spec, every ordered pairing (i in seat a, j in seat b), i-major."""
        keys = self.seed_names or tuple(self.names)
        out = []
        for ps in self.policies:
            for i, a in enumerate(self.armies):
                for j, b in enumerate(self.armies):
                    s = pairing_seed(self.seed, keys[i], keys[j])
                    out.append(Pairing(a, b, ps.policy_a, ps.policy_b, s, ps.label))
        return out


@dataclass
class BalanceResult:
    """The frames of a balance study (column names are stable: docs/results-tables.md)."""

    spec: BalanceSpec
    matrix: pd.DataFrame
    armies: pd.DataFrame
    first_player: pd.DataFrame
    victory: pd.DataFrame
    victory_by_army: pd.DataFrame
    styles: pd.DataFrame | None
    style_tau: pd.DataFrame | None
    manifest: dict
    games_per_pairing: dict[int, int]
    store: Path | None = None
    interrupted: bool = False
    tally: pd.DataFrame = field(default_factory=pd.DataFrame)
    _games: pd.DataFrame | None = None

    @property
    def games(self) -> pd.DataFrame:
        """Every game record of the study (from the store on disk, or kept in memory when the
        study was run without one)."""
        if self._games is not None:
            return self._games
        from manoeuvre_sim.core.store import read_store

        return read_store(self.store) if self.store is not None else pd.DataFrame()

    def frames(self) -> dict[str, pd.DataFrame]:
        out = {
            "matrix": self.matrix,
            "armies": self.armies,
            "first_player": self.first_player,
            "victory": self.victory,
            "victory_by_army": self.victory_by_army,
        }
        if self.styles is not None:
            out["styles"] = self.styles
            out["style_tau"] = self.style_tau
        return out

    def summary(self) -> list[str]:
        return summary_lines(self)

    def to_pdf(self, path: str | Path, paper: str = "a4") -> Path:
        from manoeuvre_sim.analyses.manoeuvre.balance_pdf import write_balance_pdf

        return write_balance_pdf(
            path,
            rank_ordered(self.frames()),
            provenance(self.manifest),
            paper=paper,
            summary_lines=self.summary(),
            status=interrupted_status(self.manifest),
            incomplete=self.manifest.get("incomplete_armies"),
        )

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """The tables (CSV), the manifest, the summary and the PDF into ``out_dir``."""
        from manoeuvre_sim.core.results import write_json

        out_dir = Path(out_dir)
        written = []
        for name, frame in self.frames().items():
            written.append(write_csv(frame, out_dir / f"{name}.csv"))
        written.append(write_json(out_dir / "manifest.json", self.manifest))
        written.append(write_text(out_dir / "summary.txt", "\n".join(self.summary()) + "\n"))
        written.append(self.to_pdf(out_dir / "balance.pdf", paper=paper))
        return written


def rank_ordered(frames: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """``frames`` with the matrix's policies in the study's order and its rows and columns
    in the first policy's rank order (strongest first): the heatmap reads best so
    (``to_pdf`` and the report)."""
    armies, matrix = frames["armies"], frames["matrix"]
    # the policies stay in the study's order (the first is its main one), not alphabetical
    policies = {p: i for i, p in enumerate(pd.unique(armies["policy"]))}
    pos = {a: i for i, a in enumerate(by_rank(armies)["army"])}
    out = dict(frames)
    out["matrix"] = (
        matrix.assign(
            _p=matrix["policy"].map(policies),
            _r=matrix["army"].map(pos),
            _c=matrix["opponent"].map(pos),
        )
        .sort_values(["_p", "_r", "_c"], kind="stable")
        .drop(columns=["_p", "_r", "_c"])
    )
    return out


def by_rank(armies: pd.DataFrame, policy: str | None = None) -> pd.DataFrame:
    """The rows of ``armies`` (the study's armies table) of ``policy`` (default: the study's
    first) in rank order, strongest first, ties in the study's order: the order of the
    heatmap's rows and columns (:func:`rank_ordered`) and of the ranking in the summary."""
    if policy is None:
        policy = armies["policy"].iloc[0]
    return armies[armies["policy"] == policy].sort_values("rank", kind="stable")


def run(
    armies: Sequence[str | Army] | BalanceSpec,
    games_per_pairing: int = DEFAULT_GAMES,
    policy: str = DEFAULT_POLICY,
    seed: int = 1,
    *,
    policies: Sequence[str] | None = None,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    relax: bool = False,
    **spec_kw,
) -> BalanceResult:
    """Play a balance study and return its frames.

    ``armies``: names, army files or ``Army`` objects (or a ready ``BalanceSpec``, then the
    other spec arguments are ignored). ``out_dir``: write every game to
    ``out_dir/games.parquet/`` as the run goes (None keeps the games in memory: for small
    studies in a notebook). ``progress(done, total)`` after each block of games. Extra
    keywords go to :class:`BalanceSpec` (``precision``, ``max_games``, ``options``,
    ``threads``, ``block``).
    """
    if isinstance(armies, BalanceSpec):
        spec = armies
    else:
        loaded, sources = resolve_armies(armies, relax=relax)
        spec = BalanceSpec(
            armies=tuple(loaded), policies=policy_specs(policy, policies=policies),
            games_per_pairing=games_per_pairing, seed=seed, sources=tuple(sources), **spec_kw,
        )  # fmt: skip
    return run_spec(spec, out_dir=out_dir, progress=progress)


def resolve_armies(armies: Sequence[str | Army], *, relax: bool = False):
    """Load the armies a study names (built-in names, files or objects) and refuse, before
    any game, an army using a rule the engine does not play yet."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army

    loaded, sources = [], []
    for a in armies:
        if isinstance(a, Army):
            loaded.append(a)
            sources.append(f"(object) {a.name}")
        else:
            loaded.append(find_army(str(a), relax=relax))
            p = Path(str(a))
            sources.append(str(p.resolve()) if p.suffix.lower() == ".toml" else loaded[-1].name)
        check_playable(loaded[-1])
    return loaded, sources


def army_names(text: str | None) -> list[str]:
    """The armies ``--armies`` names, comma-separated (None: the eight built-in armies)."""
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    if text is None:
        return [a.name for a in load_builtin_armies()]
    names = [a.strip() for a in text.split(",") if a.strip()]
    if not names:
        raise UsageError("--armies: expected comma-separated army names or .toml files")
    return names


def command_spec(
    armies: str | Sequence[str] | None = None,
    *,
    policy: str | None = None,
    policy_a: str | None = None,
    policy_b: str | None = None,
    policies: str | None = None,
    games_per_pairing: int = DEFAULT_GAMES,
    seed: int = 1,
    options: RuleOptions | None = None,
    precision: float | None = None,
    max_games: int = 20000,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    first_game: int = 0,
    relax: bool = False,
) -> BalanceSpec:
    """The study ``manoeuvre-sim balance`` builds from its options, named as the command's
    Python names with the command's defaults (the command line and the workbench's jobs both
    build it here): every option checked, and every army loaded, before any game, each error
    in the command line's words. ``armies``: as typed (comma-separated) or a list;
    ``policies``: as typed, comma-separated."""
    pols = policy_specs(
        policy, policy_a, policy_b,
        [p.strip() for p in policies.split(",") if p.strip()] if policies else None,
    )  # fmt: skip
    names = army_names(armies) if armies is None or isinstance(armies, str) else list(armies)
    loaded, sources = resolve_armies(names, relax=relax)
    return BalanceSpec(
        armies=tuple(loaded), policies=pols, games_per_pairing=games_per_pairing, seed=seed,
        options=RuleOptions() if options is None else options, precision=precision,
        max_games=max_games, block=block, threads=threads, first_game=first_game,
        sources=tuple(sources),
    )  # fmt: skip


def run_spec(
    spec: BalanceSpec,
    *,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    boot: int = 200,
    backend=None,
    resume: bool = False,
) -> BalanceResult:
    """Play ``spec`` (fixed N, or rounds until ``spec.precision``) and build the frames.

    ``backend``: where the tasks run (``manoeuvre_sim.core.backend``; None: local threads);
    ``resume``: read back the tasks already in ``out_dir``'s store instead of playing them
    (a store of another study is refused)."""
    pairings = spec.pairings()
    store = Path(out_dir) / STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = base_manifest(spec)
    tally = T.Tally()
    kept: list[pd.DataFrame] = []

    def on_frame(task: Task, df: pd.DataFrame, stats=None) -> None:
        tally.add(df)
        if store is None:
            kept.append(df)

    rounds = play_balance(
        pairings, [(spec.options, range(len(pairings)))], game=GAME_KEY,
        games=spec.games_per_pairing,
        first_game=spec.first_game, precision=spec.precision, max_games=spec.max_games,
        block=spec.block, progress=progress, threads=spec.threads, store=store,
        manifest=manifest, on_frame=on_frame, backend=backend, resume=resume,
    )  # fmt: skip
    interrupted = rounds.interrupted
    t = tally.table
    result = build_result(spec, t, manifest, boot=boot)
    result.games_per_pairing = {p: n - spec.first_game for p, n in rounds.done.items()}
    result.interrupted = interrupted
    result.store = store
    if store is None:
        result._games = (
            pd.concat(kept, ignore_index=True).sort_values(["label", "pairing", "game"])
            if kept
            else pd.DataFrame()
        ).reset_index(drop=True)
    result.manifest |= rounds.closing() | {
        "games_planned": int(rounds.total) if spec.precision is None else None,
        "incomplete_armies": incomplete_armies(pairings, result.games_per_pairing),
    }
    return result


def incomplete_armies(pairings: Sequence[Pairing], games: dict[int, int]) -> dict[str, list]:
    """Per policy label, the armies in a pairing with fewer games than the study's fullest
    pairing (an interrupted study): their field win rates and ranks rest on unequal
    opponents, so the summary and the PDF mark them; empty lists when every pairing is
    complete."""
    top = max(games.values(), default=0)
    out: dict[str, list] = {}
    for k, p in enumerate(pairings):
        names = out.setdefault(p.label, [])
        if games.get(k, 0) < top:
            names += [n for n in (p.army_a.name, p.army_b.name) if n not in names]
    return {label: sorted(names) for label, names in out.items()}


def build_result(spec: BalanceSpec, t: pd.DataFrame, manifest: dict, *, boot: int = 200):
    names = spec.names
    m = T.matrix(t, names)
    arm, first_terms = T.armies(t, m, names, boot=boot, seed=spec.seed)
    fp = T.first_player(t, names)
    vic = T.victory(t, names)
    vba = T.victory_by_army(t, names)
    # the styles in the order the user gave them (the first is the study's main one)
    rank = {p.label: i for i, p in enumerate(spec.policies)}

    def in_order(df: pd.DataFrame) -> pd.DataFrame:
        key = df["label"].map(rank)
        return df.assign(_p=key).sort_values("_p", kind="stable").drop(columns="_p")

    m, arm, fp, vic, vba = (in_order(x).reset_index(drop=True) for x in (m, arm, fp, vic, vba))
    styles = tau = None
    if len(spec.policies) > 1:
        styles, tau = style_sensitivity(arm)
    rn = {"label": "policy"}
    manifest = dict(manifest)
    manifest["first_player_elo"] = {
        lb: {"estimate": v[0], "low": v[1], "high": v[2]} for lb, v in first_terms.items()
    }
    return BalanceResult(
        spec=spec,
        matrix=m.rename(columns=rn),
        armies=arm.rename(columns=rn),
        first_player=fp.rename(columns=rn),
        victory=vic.rename(columns=rn),
        victory_by_army=vba.rename(columns=rn),
        styles=styles,
        style_tau=tau,
        manifest=manifest,
        games_per_pairing={},
        tally=t,
    )


def style_sensitivity(arm: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each army's field win rate and rank per style, and Kendall's tau between the styles'
    orderings of the armies (by field win rate)."""
    from scipy.stats import kendalltau

    styles = arm[["label", "army", "field_win_rate", "ci_low", "ci_high", "rank"]].rename(
        columns={"label": "policy"}
    )
    labels = list(pd.unique(styles["policy"]))
    rows = []
    for x in range(len(labels)):
        for y in range(x + 1, len(labels)):
            a = styles[styles["policy"] == labels[x]].set_index("army")["field_win_rate"]
            b = styles[styles["policy"] == labels[y]].set_index("army")["field_win_rate"]
            b = b.reindex(a.index)
            res = kendalltau(a.to_numpy(), b.to_numpy())
            rows.append(
                {
                    "policy_x": labels[x],
                    "policy_y": labels[y],
                    "tau": float(res.statistic),
                    "p_value": float(res.pvalue),
                }
            )
    return styles.reset_index(drop=True), pd.DataFrame(rows)


def base_manifest(spec: BalanceSpec) -> dict:
    from manoeuvre_sim.manoeuvre.engine.players import params_for
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import value_record
    from manoeuvre_sim.manoeuvre.runner import config_dict, sections_record

    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "game": GAME_KEY,  # games.GAMES: a store of one game is never resumed as another's
        "study": "balance",
        "seed": spec.seed,
        "armies": [
            {
                "name": a.name,
                "source": (spec.sources or [None] * len(spec.armies))[i],
                "data_hash": army_hash(a),
                "seed_name": (spec.seed_names or spec.names)[i],
            }
            for i, a in enumerate(spec.armies)
        ],
        "data_hash": study_data_hash(spec.armies, spec.options),
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
            for p in spec.policies
        ],
        "games_per_pairing": spec.games_per_pairing,
        "first_game": spec.first_game,
        "precision": spec.precision,
        "max_games": spec.max_games if spec.precision is not None else None,
        "block": spec.block,
        "options": config_dict(spec.options),
        **sections_record(spec.options.sections_file),
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
    }
