"""The balance study of any game of the registry: every ordered pairing of the chosen sides
(both seats, mirrors included), a fixed number of games each or rounds until every cell's
interval is narrow enough (``precision``), with each pairing's, each side's and the first
player's rates and their 95 % Wilson intervals.

The playing is :func:`studies.rounds.play_balance`, which Manoeuvre's army study
(``analyses/manoeuvre/balance.py``: ratings, styles, its PDF) and Maneuver's variant study
(``analyses/hexgame/variants.py``) play through too; this module adds the tables every game
has, so a game with no analyses of its own (a new game, the test suite's toy game) has its
balance study, its store, ``resume`` and the Dask backend, and its part in the report.

Python API::

    from manoeuvre_sim.studies import balance
    res = balance.run("coin", ["heavy:70", "fair", "light:30"], games_per_pairing=500,
                      precision=0.03, out_dir="reports/coins")
    res.pairings   # per ordered pairing: side a's score, the first player's, intervals
    res.sides      # per side: its score against the field, interval, rank

Seeding: pairing (X in seat a, Y in seat b) is seeded from (master seed, X's name, Y's name)
alone (``study.pairing_seed``), so adding a side changes no other pairing's games.
"""

from __future__ import annotations

import datetime as _dt
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import GAMES, resolve
from manoeuvre_sim.core.stats import wilson_interval
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import Pairing, Task, pairing_seed
from manoeuvre_sim.studies.rounds import Outcomes, play_balance

DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000


@dataclass(frozen=True)
class BalanceSpec:
    """Everything that decides a balance study's games (recorded in the manifest)."""

    game: str
    sides: tuple[Any, ...]
    policy_a: str
    policy_b: str
    games_per_pairing: int = DEFAULT_GAMES
    seed: int = 1
    options: Any = None
    precision: float | None = None
    max_games: int = 20000
    block: int = DEFAULT_BLOCK
    threads: int = 0
    sources: tuple[str, ...] = ()

    @classmethod
    def of(cls, g, sides: Sequence, *, policy: str | None = None, policy_a: str | None = None,
           policy_b: str | None = None, options=None, **kw) -> BalanceSpec:  # fmt: skip
        """The spec of game ``g`` (a module) from side specs (``g.load_side``) or sides."""
        loaded = [g.load_side(s) if isinstance(s, str) else s for s in sides]
        sources = [s if isinstance(s, str) else f"(object) {s.name}" for s in sides]
        base = policy or g.DEFAULT_POLICY
        return cls(g.KEY, tuple(loaded), policy_a or base, policy_b or base,
                   options=options if options is not None else g.Options(),
                   sources=tuple(sources), **kw)  # fmt: skip

    def __post_init__(self) -> None:
        names = self.names
        if len(names) < 2:
            raise UsageError("--armies: expected at least two sides")
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise UsageError(f"--armies: a side is named twice: {', '.join(dup)}")
        if self.games_per_pairing < 1:
            raise UsageError(
                f"--games-per-pairing: expected a positive number, got {self.games_per_pairing}"
            )
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.precision is not None and not 0.0 < self.precision < 0.5:
            raise UsageError(
                f"--precision: expected a half-width between 0 and 0.5 (e.g. 0.02 for ±2 "
                f"points), got {self.precision}"
            )
        for flag, value in (("--max-games", self.max_games), ("--block", self.block)):
            if value < 1:
                raise UsageError(f"{flag}: expected a positive number, got {value}")
        if self.threads < 0:
            raise UsageError(f"--threads: expected 0 (all cores) or more, got {self.threads}")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sides]

    @property
    def label(self) -> str:
        a, b = self.policy_a, self.policy_b
        return a if a == b else f"{a}/{b}"

    def pairings(self) -> list[Pairing]:
        """Every ordered pairing (i in seat a, j in seat b), i-major."""
        return [
            Pairing(a, b, self.policy_a, self.policy_b,
                    pairing_seed(self.seed, a.name, b.name), self.label)
            for a in self.sides
            for b in self.sides
        ]  # fmt: skip


def base_manifest(g, spec: BalanceSpec, study: str = "balance") -> dict:
    """What decides the games (every part of the store carries it; a resumed run must
    match it) and where they come from."""
    from dataclasses import asdict, is_dataclass

    opts = spec.options
    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "game": g.KEY,
        "game_title": GAMES.get(g.KEY, (None, g.TITLE))[1],
        "study": study,
        "rules_version": g.RULES_VERSION,
        "seed": spec.seed,
        "sides": [
            {"name": s.name, "source": src, "data_hash": g.side_hash(s)}
            for s, src in zip(spec.sides, spec.sources or spec.names, strict=True)
        ],  # fmt: skip
        "data_hash": g.data_hash(spec.sides, opts),
        "options": asdict(opts) if is_dataclass(opts) else repr(opts),
        "options_text": opts.describe() if hasattr(opts, "describe") else "",
        "policies": [{"label": spec.label, "policy_a": spec.policy_a, "policy_b": spec.policy_b}],
        "games_per_pairing": spec.games_per_pairing,
        "precision": spec.precision,
        "max_games": spec.max_games if spec.precision is not None else None,
        "block": spec.block,
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
    }


def make_store(out_dir: str | Path | None) -> Path | None:
    """``out_dir/games.parquet/`` (created), or None without an output directory."""
    if out_dir is None:
        return None
    store = Path(out_dir) / STORE
    store.mkdir(parents=True, exist_ok=True)
    return store


def write_study(out_dir: str | Path, tables: dict[str, pd.DataFrame], manifest: dict,
                summary: list[str]) -> list[Path]:  # fmt: skip
    """A study's ``<name>.csv`` per table, ``manifest.json`` and ``summary.txt`` into
    ``out_dir``, each atomically; returns the paths."""
    from manoeuvre_sim.core.results import write_csv, write_json, write_text

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = [write_csv(df, out / f"{name}.csv") for name, df in tables.items()]
    written.append(write_json(out / "manifest.json", manifest))
    written.append(write_text(out / "summary.txt", "\n".join(summary) + "\n"))
    return written


def _rate(prefix: str, k: float, n: int) -> dict:
    lo, hi = wilson_interval(k, n) if n else (np.nan, np.nan)
    return {prefix: k / n if n else np.nan, f"{prefix}_ci_low": float(lo),
            f"{prefix}_ci_high": float(hi)}  # fmt: skip


def pairing_table(pairings: Sequence[Pairing], outcomes: Outcomes) -> pd.DataFrame:
    """Per ordered pairing: its games, side a's and b's wins, draws, the first player's
    wins; side a's score (a draw half a win) and the first player's, with intervals."""
    rows = []
    for k, p in enumerate(pairings):
        c = outcomes.counts.get(k)
        if c is None:
            continue
        c = c.reshape(2, 3)
        n, wa, wb, d = int(c.sum()), int(c[:, 0].sum()), int(c[:, 1].sum()), int(c[:, 2].sum())
        first = int(c[0, 0] + c[1, 1])
        rows.append({"label": p.label, "side_a": p.army_a.name, "side_b": p.army_b.name,
                     "policy_a": p.policy_a, "policy_b": p.policy_b, "games": n,
                     "wins_a": wa, "wins_b": wb, "draws": d, "first_wins": first}
                    | _rate("score_a", wa + 0.5 * d, n)
                    | _rate("first_score", first + 0.5 * d, n))  # fmt: skip
    return pd.DataFrame(rows)


def side_table(names: Sequence[str], table: pd.DataFrame) -> pd.DataFrame:
    """Per side: its score against the other sides (both seats pooled, mirrors left out),
    with its interval and its rank (1: the strongest)."""
    rows = []
    for name in names:
        as_a = table[(table["side_a"] == name) & (table["side_b"] != name)]
        as_b = table[(table["side_b"] == name) & (table["side_a"] != name)]
        n = int(as_a["games"].sum() + as_b["games"].sum())
        score = float(as_a["wins_a"].sum() + as_b["wins_b"].sum())
        score += 0.5 * float(as_a["draws"].sum() + as_b["draws"].sum())
        rows.append({"side": name, "games": n} | _rate("score", score, n))
    out = pd.DataFrame(rows)
    out["rank"] = out["score"].rank(ascending=False, method="min").astype("Int64")
    return out


def first_player_table(table: pd.DataFrame) -> pd.DataFrame:
    """The first player's score over every game of the study, with its interval."""
    n = int(table["games"].sum())
    k = float(table["first_wins"].sum()) + 0.5 * float(table["draws"].sum())
    return pd.DataFrame([{"games": n, "draws": int(table["draws"].sum())}
                         | _rate("first_score", k, n)])  # fmt: skip


@dataclass
class BalanceResult:
    """The tables of a balance study of any game (``pairings``, ``sides``,
    ``first_player``, ``victory``), its manifest and where its games are."""

    spec: BalanceSpec
    pairings: pd.DataFrame
    sides: pd.DataFrame
    first_player: pd.DataFrame
    victory: pd.DataFrame
    manifest: dict
    interrupted: bool = False
    store: Path | None = None
    games: pd.DataFrame = field(default_factory=pd.DataFrame)  # without a store: in memory

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"pairings": self.pairings, "sides": self.sides,
                "first_player": self.first_player, "victory": self.victory}  # fmt: skip

    def summary(self) -> list[str]:
        m = self.manifest
        reached = m["games_per_pairing_reached"]
        out = [f"{m['game_title']}: balance study of {len(self.spec.sides)} sides",
               f"{m['games']:,} games ({reached['min']:,}-{reached['max']:,} per pairing); "
               f"seed {m['seed']}; rules {m['rules_version']}; data {m['data_hash']}",
               "scores in % (a win 1, a draw 1/2), 95 % Wilson intervals", ""]  # fmt: skip
        for r in self.sides.sort_values("rank").itertuples(index=False):
            out.append(f"{r.rank:>3}  {r.side:<16} {100 * r.score:5.1f} "
                       f"[{100 * r.score_ci_low:.1f}, {100 * r.score_ci_high:.1f}]  "
                       f"{r.games:,} games")  # fmt: skip
        fp = self.first_player.iloc[0]
        out += ["", f"first player {100 * fp.first_score:.1f} [{100 * fp.first_score_ci_low:.1f}, "
                    f"{100 * fp.first_score_ci_high:.1f}]"]  # fmt: skip
        if m.get("precision") is not None:
            out.append(f"precision goal ±{100 * m['precision']:.1f} points: widest reached "
                       f"±{100 * m.get('precision_reached', float('nan')):.2f}")  # fmt: skip
        if self.interrupted:
            out.append("INTERRUPTED: the tables cover the games finished before the stop")
        return out

    def write(self, out_dir: str | Path) -> list[Path]:
        """The tables (CSV), manifest.json and summary.txt into ``out_dir``."""
        return write_study(out_dir, self.frames(), self.manifest, self.summary())


def run(
    game: str,
    sides: Sequence,
    *,
    policy: str | None = None,
    policy_a: str | None = None,
    policy_b: str | None = None,
    out_dir: str | Path | None = None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    **spec_kw,
) -> BalanceResult:
    """Play the balance study of ``sides`` (specs the game's ``load_side`` reads, or
    sides) in ``game`` (a key of the registry). ``out_dir``: the games go to
    ``out_dir/games.parquet/`` as they finish (``resume``: the tasks already there are read
    back); ``backend``: ``core.backend``'s (None: local threads); ``spec_kw``:
    :class:`BalanceSpec`'s ``games_per_pairing``, ``seed``, ``options``, ``precision``,
    ``max_games``, ``block``, ``threads``."""
    g = resolve(game)
    spec = BalanceSpec.of(g, sides, policy=policy, policy_a=policy_a, policy_b=policy_b,
                          **spec_kw)  # fmt: skip
    pairings = spec.pairings()
    manifest = base_manifest(g, spec)
    store = make_store(out_dir)
    victory: dict[str, int] = {}
    kept: list[pd.DataFrame] = []

    def on_frame(task: Task, df: pd.DataFrame, stats=None) -> None:
        for kind, n in df["victory"].value_counts().items():
            victory[kind] = victory.get(kind, 0) + int(n)
        if store is None:
            kept.append(df)

    played = play_balance(
        pairings, [(spec.options, range(len(pairings)))], game=g,
        games=spec.games_per_pairing, precision=spec.precision, max_games=spec.max_games,
        block=spec.block, on_frame=on_frame, progress=progress, threads=spec.threads,
        store=store, manifest=manifest, backend=backend, resume=resume,
    )  # fmt: skip
    table = pairing_table(pairings, played.outcomes)
    n = int(table["games"].sum()) if len(table) else 0
    vic = pd.DataFrame([{"victory": k, "games": victory.get(k, 0),
                         "share": victory.get(k, 0) / n if n else np.nan}
                        for k in g.VICTORY_KINDS])  # fmt: skip
    manifest |= played.closing()
    games = pd.concat(kept, ignore_index=True) if kept else pd.DataFrame()
    return BalanceResult(spec, table, side_table(spec.names, table), first_player_table(table),
                         vic, manifest, played.interrupted, store, games)  # fmt: skip


__all__ = ["BalanceResult", "BalanceSpec", "base_manifest", "first_player_table",
           "make_store", "pairing_table", "run", "side_table", "write_study"]  # fmt: skip
