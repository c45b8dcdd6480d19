"""The army balance study: every ordered pairing of the chosen armies, both seats, mirrors
included, under one or more play styles.

Python API (what ``manoeuvre-sim balance`` calls)::

    from manoeuvre_sim.analyses import balance
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
import math
import platform
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim import DEFAULT_POLICY, RULES_VERSION, __version__
from manoeuvre_sim.analyses import tally as T
from manoeuvre_sim.errors import UsageError
from manoeuvre_sim.model import Army
from manoeuvre_sim.runner import check_policy
from manoeuvre_sim.study import (
    Pairing,
    RuleOptions,
    Task,
    army_hash,
    blocks,
    pairing_seed,
    play,
    study_data_hash,
)

DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000
STORE = "games.parquet"


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
        for p in (spec.policy_a, spec.policy_b):
            check_policy(p, "policy")
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
    """The frames of a balance study (column names are stable: see the README)."""

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
        from manoeuvre_sim.results import read_store

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
        from manoeuvre_sim.analyses.balance_pdf import write_balance_pdf

        return write_balance_pdf(
            path,
            rank_ordered(self.frames()),
            provenance(self.manifest),
            paper=paper,
            summary_lines=self.summary(),
        )

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """The tables (CSV), the manifest, the summary and the PDF into ``out_dir``."""
        from manoeuvre_sim.results import write_json

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
    first = armies["policy"].iloc[0]
    order = armies[armies["policy"] == first].sort_values("rank", kind="stable")
    pos = {a: i for i, a in enumerate(order["army"])}
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


def write_csv(df: pd.DataFrame, path: Path) -> Path:
    from manoeuvre_sim.fileio import atomic_write

    with atomic_write(path, "w", newline="", encoding="utf-8") as f:
        df.to_csv(f, index=False, float_format="%.6g")
    return path


def write_text(path: Path, text: str) -> Path:
    from manoeuvre_sim.fileio import atomic_write

    with atomic_write(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def prepare_out_dir(out_dir: str | Path, *, force: bool = False, resume: bool = False) -> Path:
    """Check (before any game) that ``out_dir`` can take a new study: create it, refuse one
    that already holds a study's games unless ``force`` (then remove them) or ``resume``
    (then keep them: the run checks they are of the same study and skips them)."""
    out = Path(out_dir)
    if force and resume:
        raise UsageError(
            "--resume and --force: choose one (keep the games on disk or replace them)"
        )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    store = out / STORE
    if store.exists() and any(store.glob("*.parquet")) and not resume:
        if not force:
            raise UsageError(
                f"--out {out}: already holds a study's games ({store}); choose another "
                "directory, add --resume to finish that study or --force to replace it"
            )
        shutil.rmtree(store)
        shutil.rmtree(out / "card_stats", ignore_errors=True)
    try:
        store.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write there ({e.strerror})") from None
    return out


def _cell_halfwidths(m: pd.DataFrame) -> dict[tuple[str, str], float]:
    """Wilson half-width of every cell of one label's matrix (``tally.matrix``): the pooled
    rate of a pair (both seatings), or in a mirror the first player's rate."""
    out = {}
    for r in m.itertuples(index=False):
        if r.army == r.opponent:
            out[(r.army, r.army)] = (r.ci_high_first - r.ci_low_first) / 2
        else:
            key = tuple(sorted((r.army, r.opponent)))
            out[key] = (r.ci_high - r.ci_low) / 2
    return out


def _need(rate: float, precision: float) -> int:
    """Games for a Wilson half-width of about ``precision`` at ``rate`` (normal approx.)."""
    from manoeuvre_sim.stats import z_value

    p = min(max(rate, 0.02), 0.98)
    return int(math.ceil(z_value() ** 2 * p * (1 - p) / precision**2))


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
    from manoeuvre_sim.engine.pack import check_playable
    from manoeuvre_sim.model import find_army

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

    ``backend``: where the tasks run (``manoeuvre_sim.backend``; None: local threads);
    ``resume``: read back the tasks already in ``out_dir``'s store instead of playing them
    (a store of another study is refused)."""
    pairings = spec.pairings()
    names = spec.names
    store = Path(out_dir) / STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = base_manifest(spec)
    tally = T.Tally()
    kept: list[pd.DataFrame] = []
    done = {i: spec.first_game for i in range(len(pairings))}

    def on_frame(task: Task, df: pd.DataFrame, stats=None) -> None:
        tally.add(df)
        if store is None:
            kept.append(df)

    state = {"done": 0, "total": 0}

    def tick(n: int) -> None:
        state["done"] += n
        if progress is not None:
            progress(state["done"], state["total"])

    def play_round(targets: dict[int, int]) -> bool:
        tasks = _interleave(
            [blocks(p, done[p], n, spec.block) for p, n in targets.items() if n > done[p]]
        )
        state["total"] += sum(t.count for t in tasks)
        outcome = play(
            pairings, tasks, options=spec.options, threads=spec.threads, store=store,
            manifest=manifest, on_frame=on_frame, progress=tick, backend=backend, resume=resume,
        )  # fmt: skip
        for p, n in outcome.games.items():
            done[p] += n
        state["seconds"] = state.get("seconds", 0.0) + outcome.seconds
        state["threads"] = outcome.threads
        state["backend"] = outcome.backend
        return outcome.interrupted

    if spec.precision is None:
        n = spec.first_game + spec.games_per_pairing
        interrupted = play_round({p: n for p in range(len(pairings))})
    else:
        first = min(spec.games_per_pairing, spec.max_games)
        interrupted = play_round({p: first for p in range(len(pairings))})
        while not interrupted:
            targets = _precision_targets(spec, pairings, tally.table, done, names)
            if not targets:
                break
            interrupted = play_round(targets)

    t = tally.table
    result = build_result(spec, t, manifest, boot=boot)
    result.games_per_pairing = {p: n - spec.first_game for p, n in done.items()}
    result.interrupted = interrupted
    result.store = store
    if store is None:
        result._games = (
            pd.concat(kept, ignore_index=True).sort_values(["label", "pairing", "game"])
            if kept
            else pd.DataFrame()
        ).reset_index(drop=True)
    n_done = sorted(result.games_per_pairing.values())
    result.manifest |= {
        "games": int(sum(n_done)),
        "games_per_pairing_reached": {"min": n_done[0], "max": n_done[-1]},
        "interrupted": interrupted,
        "seconds": round(state.get("seconds", 0.0), 3),
        "threads": state.get("threads", 0),
        "backend": state.get("backend", "local"),
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    if spec.precision is not None:
        hw = [
            max(_cell_halfwidths(T.matrix(t[t["label"] == lb], names)).values())
            for lb in pd.unique(t["label"])
        ]
        result.manifest["precision_reached"] = round(float(max(hw)), 6)
    return result


def _interleave(per_pairing: list[list[Task]]) -> list[Task]:
    """Round-robin over pairings, so an interrupted run has covered every pairing evenly."""
    out = []
    depth = max((len(x) for x in per_pairing), default=0)
    for d in range(depth):
        for x in per_pairing:
            if d < len(x):
                out.append(x[d])
    return out


def _precision_targets(spec, pairings, t, done, names) -> dict[int, int]:
    """The next round: for each cell whose interval is still wider than the goal, the
    games each of its pairings needs (from the rate seen so far), at least one block more,
    at most ``max_games``."""
    targets: dict[int, int] = {}
    for label in pd.unique(t["label"]):
        tl = t[t["label"] == label]
        matrix = T.matrix(tl, names)
        hws = _cell_halfwidths(matrix)
        m = matrix.set_index(["army", "opponent"])
        for idx, p in enumerate(pairings):
            if p.label != label:
                continue
            a, b = p.army_a.name, p.army_b.name
            key = (a, a) if a == b else tuple(sorted((a, b)))
            if hws.get(key, 1.0) <= spec.precision or done[idx] >= spec.max_games:
                continue
            if a == b:
                need = _need(m.loc[(a, a), "win_rate_first"], spec.precision)
            else:
                need = -(-_need(m.loc[(a, b), "win_rate"], spec.precision) // 2)
            need = -(-int(need * 1.02) // spec.block) * spec.block
            n = min(spec.max_games, max(done[idx] + spec.block, need))
            if n > done[idx]:
                targets[idx] = n
    return targets


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
    from manoeuvre_sim.engine.players import params_for
    from manoeuvre_sim.runner import config_dict, sections_record

    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
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


def provenance(manifest: dict) -> dict[str, str]:
    """The footer of every page: tool, rules, data hash, seed, games, policy."""
    reached = manifest.get("games_per_pairing_reached") or {}
    lo, hi = reached.get("min"), reached.get("max")
    per = f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"
    games = f"{manifest.get('games', 0):,} ({per} per pairing)"
    if manifest.get("interrupted"):
        games += ", interrupted"
    out = {
        "tool": f"manoeuvre-sim {manifest['version']}",
        "rules": manifest["rules_version"],
        "data": manifest["data_hash"],
        "seed": str(manifest["seed"]),
        "games": games,
        "policy": ", ".join(p["label"] for p in manifest["policies"]),
        "date": str(manifest.get("finished", manifest.get("started", "")))[:10],
    }
    setup = setup_text(manifest)
    if setup:
        out["set-up"] = setup.removeprefix("set-up ")
    return out


def setup_text(manifest: dict) -> str:
    """The study's rule 3 set-up in words when it is not the default (random, no fixed map),
    ``""`` otherwise (``options.describe_setup``)."""
    from manoeuvre_sim.engine.options import describe_setup

    o = manifest.get("options") or {}
    return describe_setup(o.get("setup", "random"), o.get("fixed_map"), o.get("fixed_rot"))


def _pct(x: float) -> str:
    return "  n/a" if not np.isfinite(x) else f"{100 * x:5.1f}"


def summary_lines(res: BalanceResult) -> list[str]:
    """The plain-text summary printed after a study (also the PDF's last page)."""
    from manoeuvre_sim.stats import z_value

    out = []
    man = res.manifest
    reached = man.get("games_per_pairing_reached", {})
    out.append(
        f"balance study: {len(res.spec.armies)} armies, {man.get('games', 0):,} games "
        f"({reached.get('min', 0):,}"
        + (f"–{reached.get('max', 0):,}" if reached.get("min") != reached.get("max") else "")
        + f" per ordered pairing), seed {man['seed']}, rules {man['rules_version']}, "
        f"data {man['data_hash']}"
    )
    setup = setup_text(man)
    if setup:
        out.append(f"{setup} — not the default random set-up (README: Set-up)")
    if res.interrupted:
        out.append("INTERRUPTED: the tables cover the games finished before the stop")
    for label in res.armies["policy"].unique():
        a = res.armies[res.armies["policy"] == label].sort_values("rank", kind="stable")
        out.append("")
        out.append(f"ranking under policy {label} (win rate against the field, mirrors excluded;")
        out.append("draws count half; 95 % intervals; rating: Bradley-Terry, Elo points):")
        out.append(
            f"{'rank':>11}  {'army':<16} {'field win %':>11}  {'95 % CI':<14} {'rating':>6}  "
            f"{'95 % CI':<12}"
        )
        for r in a.itertuples(index=False):
            rk = f"{r.rank} ({r.rank_low}–{r.rank_high})"
            ci = f"[{_pct(r.ci_low).strip()}, {_pct(r.ci_high).strip()}]"
            rci = f"[{r.rating_low:.0f}, {r.rating_high:.0f}]"
            out.append(
                f"{rk:>11}  {r.army:<16} {_pct(r.field_win_rate):>11}  {ci:<14} "
                f"{r.rating:6.0f}  {rci:<12}"
            )
        m = res.matrix[
            (res.matrix["policy"] == label) & (res.matrix["army"] != res.matrix["opponent"])
        ]
        lop = m[m["win_rate"] >= 0.5].assign(edge=lambda d: d["win_rate"] - 0.5)
        lop = lop.sort_values("edge", ascending=False).head(5)
        out.append("")
        out.append("most lopsided pairings (seats pooled):")
        for r in lop.itertuples(index=False):
            out.append(
                f"  {r.army} beats {r.opponent} {_pct(r.win_rate).strip()} % "
                f"[{_pct(r.ci_low).strip()}, {_pct(r.ci_high).strip()}] of {r.games:,} games"
            )
        hw = (m["ci_high"] - m["ci_low"]) / 2
        if len(m):
            w = m.loc[hw.idxmax()]
            out.append(
                f"widest interval: {w['army']} vs {w['opponent']} ±{100 * hw.max():.1f} points "
                f"({w['games']:,} games)"
            )
            need = z_value() ** 2 * (m["win_rate"] * (1 - m["win_rate"])).max() / 0.01**2
            out.append(
                f"for ±1 point in every cell: about {math.ceil(need / 2):,} games per ordered "
                f"pairing ({math.ceil(need):,} per cell, seats pooled)"
            )
        fp = res.first_player
        allg = fp[(fp["policy"] == label) & (fp["army"] == T.ALL_GAMES)].iloc[0]
        elo = man.get("first_player_elo", {}).get(label, {})
        out.append(
            f"first player wins {_pct(allg['win_rate_first']).strip()} % of games "
            f"[{_pct(allg['ci_low_first']).strip()}, {_pct(allg['ci_high_first']).strip()}]"
            + (
                f"; worth {elo['estimate']:.0f} Elo [{elo['low']:.0f}, {elo['high']:.0f}] in the "
                "rating model"
                if elo and np.isfinite(elo.get("estimate", np.nan))
                else ""
            )
        )
        v = res.victory[res.victory["policy"] == label]
        n = v["games"].sum()
        att = (v["attrition"] * v["games"]).sum() / n
        tl = (v["turn_limit"] * v["games"]).sum() / n
        turns = (v["mean_turns"] * v["games"]).sum() / n
        out.append(
            f"games end by attrition {100 * att:.1f} %, at nightfall {100 * (1 - att):.1f} % "
            f"(turn limit {100 * tl:.2f} %); {turns:.1f} game turns on average"
        )
    if res.style_tau is not None and len(res.style_tau):
        out.append("")
        out.append("rank agreement between styles (Kendall's tau of the field win rates):")
        for r in res.style_tau.itertuples(index=False):
            out.append(f"  {r.policy_x} vs {r.policy_y}: tau {r.tau:+.2f} (p = {r.p_value:.3f})")
    if res.spec.precision is not None:
        out.append("")
        out.append(
            f"precision goal ±{100 * res.spec.precision:.1f} points: widest cell reached "
            f"±{100 * man.get('precision_reached', float('nan')):.2f} "
            f"(max {res.spec.max_games:,} games per pairing)"
        )
    return out
