"""The balance study, of any game of the registry: its spec, its command spec, its run, its
manifest and its result (``manoeuvre-sim balance``, ``manoeuvre-sim hex balance``, the toy
coin game's ``balance``). What it compares is the game's: Manoeuvre's armies under one or
more player styles (every ordered pairing of the armies, both seats, mirrors included),
Maneuver's variants of the scenario's options (per variant every ordered pairing of the
players), any other game's sides (every ordered pairing). A fixed number of games each, or
rounds until every cell's interval is narrow enough (``precision``), played by
:func:`studies.rounds.play_balance`.

What differs between games is asked of the game's adapter through its optional hooks, each
declared once (its signature, what it returns, its default) in ``core.games.HOOKS``:
``balance_command``, ``balance_check``, ``balance_pairings`` (default :func:`side_pairings`),
``balance_manifest`` (default :func:`describe_sides`), ``balance_cells``, ``BALANCE_SIDES``,
``BALANCE_PLAYERS``, ``BALANCE_GAMES``, ``BALANCE_STUDY`` and ``BALANCE_TABLES`` (default:
this module's :func:`counter` and :func:`build`, the tables every game has: ``pairings``,
``sides``, ``first_player``, ``victory``).

Python API::

    from manoeuvre_sim.studies import balance
    res = balance.run("coin", ["heavy:70", "fair", "light:30"], games_per_pairing=500,
                      precision=0.03, out_dir="reports/coins")
    res.pairings   # per ordered pairing: side a's score, the first player's, intervals
    res.sides      # per side: its score against the field, interval, rank
    spec = balance.command_spec("manoeuvre", armies="France,Russia", games_per_pairing=100)
    res = balance.run_spec(spec, out_dir="reports/balance")
    res.matrix, res.armies  # Manoeuvre's tables (analyses/manoeuvre/balance.py)

Seeding: pairing (X in seat a, Y in seat b) is seeded from (master seed, X's name, Y's name)
alone (``study.pairing_seed``), so adding a side changes no other pairing's games (a game's
``balance_pairings`` may seed otherwise: Maneuver's from its two players alone).
"""

from __future__ import annotations

import datetime as _dt
import inspect
import platform
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import GAMES, hook, load_game, pages_module, resolve
from manoeuvre_sim.core.stats import wilson_interval
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import Pairing, PolicySpec, Task, pairing_seed
from manoeuvre_sim.core.study_command import PLAYERS, Option, StudyCommand, sides_option
from manoeuvre_sim.studies.rounds import BalancePlay, Outcomes, play_balance

KIND = "balance"
DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000
# the words of a game's sides in the checks' errors (its BALANCE_SIDES): the option that
# names them, one side, the fewest a study compares and the error of fewer
SIDE_WORDS = {"flag": "--armies", "one": "a side", "least": 2,
              "fewer": "--armies: expected at least two sides"}  # fmt: skip
# the command and the job (core/study_command.py): a game without its own balance command
# (a registered one) gets these options, its Options fields' and the study directory's
COMMAND = StudyCommand(
    help="Every ordered pairing of --sides, both seats: win rates, ratings, endings.",
    options=(sides_option(name="armies"), *PLAYERS,
             Option("--games-per-pairing", "Games per ordered pairing.", "int",
                    default=lambda g: default_games(g.KEY)),
             Option("--precision", "Instead of a fixed N: add games per pairing until every "
                    "cell's 95% interval is at most ±P (e.g. 0.02), or --max-games.", "float"),
             Option("--max-games", "With --precision: the most games per ordered pairing.",
                    "int", default=20000)),
    block=DEFAULT_BLOCK, job=True, done_key="games")  # fmt: skip


@dataclass(frozen=True)
class BalanceSpec:
    """Everything that decides a balance study's games (frozen, recorded in the manifest).

    ``sides``: what the study compares (the game's: Manoeuvre's armies, Maneuver's variants,
    the sides ``load_side`` reads); ``policies``: the players (``core.study.PolicySpec`` per part of
    the study, default the game's ``DEFAULT_POLICY`` in both seats; Maneuver: the player
    names, every ordered pair played); ``seed_names``: the names the pairing seeds are
    derived from (default: the sides' names; a what-if variant keeps its base's);
    ``first_game``: play games ``first_game .. first_game + games_per_pairing - 1`` of each
    pairing (a part of a study split over machines; fixed N only); ``settings``: the game's
    own settings of the study (Maneuver's turns, scenario and readings)."""

    game: str  # a key of the registry (given a game module, its KEY)
    sides: tuple[Any, ...]
    policies: tuple[Any, ...] = ()
    games_per_pairing: int = DEFAULT_GAMES
    seed: int = 1
    options: Any = None
    precision: float | None = None
    max_games: int = 20000
    block: int = DEFAULT_BLOCK
    threads: int = 0
    first_game: int = 0
    seed_names: tuple[str, ...] | None = None
    sources: tuple[str, ...] | None = None  # where each side came from (name or file)
    settings: Any = None
    # the game's module by name when it was given as a module (a game not registered,
    # e.g. the tests' toy game); None: found by its key
    module: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        g = self.game_module() if isinstance(self.game, str) else resolve(self.game)
        if not isinstance(self.game, str):
            object.__setattr__(self, "module", g.__name__)
            object.__setattr__(self, "game", g.KEY)
        if not self.policies:
            pol = (PolicySpec(g.DEFAULT_POLICY, g.DEFAULT_POLICY),)
            players = hook(g, "BALANCE_PLAYERS")
            object.__setattr__(self, "policies", pol if players is None else players)
        if self.options is None and hook(g, "balance_pairings") is None:
            object.__setattr__(self, "options", g.Options())
        w = SIDE_WORDS | hook(g, "BALANCE_SIDES")
        names = self.names
        if len(names) < w["least"]:
            raise UsageError(w["fewer"])
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise UsageError(f"{w['flag']}: {w['one']} is named twice: {', '.join(dup)}")
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
        if self.first_game < 0:
            raise UsageError(f"--first-game: expected 0 or more, got {self.first_game}")
        if self.first_game and self.precision is not None:
            raise UsageError("--first-game: not with --precision (a range is a fixed N)")
        if self.seed_names is not None and len(self.seed_names) != len(self.sides):
            raise UsageError("seed_names: expected one name per side")
        check = hook(g, "balance_check")
        if check is not None:
            check(self)

    @classmethod
    def of(cls, g, sides: Sequence, *, policy: str | None = None, policy_a: str | None = None,
           policy_b: str | None = None, options=None, **kw) -> BalanceSpec:  # fmt: skip
        """The spec of game ``g`` (a module) from side specs (``g.load_side``) or sides, one
        pair of players (``policy_a``/``policy_b``, default ``policy``, default the game's)."""
        loaded = [g.load_side(s) if isinstance(s, str) else s for s in sides]
        sources = [s if isinstance(s, str) else f"(object) {s.name}" for s in sides]
        base = policy or g.DEFAULT_POLICY
        return cls(g, tuple(loaded), (PolicySpec(policy_a or base, policy_b or base),),
                   options=options if options is not None else g.Options(),
                   sources=tuple(sources), **kw)  # fmt: skip

    def game_module(self):
        """The game (``core.games.Game``): by its module's name if given so, else its key."""
        return load_game(self.module) if self.module else resolve(self.game)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sides]

    @property
    def label(self) -> str:
        """The first players' label (a study of one pair of players: its only one)."""
        return self.policies[0].label

    def plan(self) -> tuple[list[Pairing], list[tuple[Any, Sequence[int]]]]:
        """The pairings and the rule options each plays under (the game's
        ``balance_pairings``, default :func:`side_pairings`)."""
        own = hook(self.game_module(), "balance_pairings")
        return own(self) if own is not None else side_pairings(self)

    def pairings(self) -> list[Pairing]:
        return self.plan()[0]


def side_pairings(spec: BalanceSpec):
    """Per players' part (:class:`PolicySpec`), every ordered pairing of the sides (i in seat
    a, j in seat b), i-major, all under ``spec.options``."""
    keys = spec.seed_names or tuple(spec.names)
    out = [
        Pairing(a, b, ps.policy_a, ps.policy_b, pairing_seed(spec.seed, keys[i], keys[j]),
                ps.label)
        for ps in spec.policies
        for i, a in enumerate(spec.sides)
        for j, b in enumerate(spec.sides)
    ]  # fmt: skip
    return out, [(spec.options, range(len(out)))]


# ------------------------------------------------------------------------ the command spec


def default_command(g, *, armies: str | Sequence[str] | None = None, policy: str | None = None,
                    policy_a: str | None = None, policy_b: str | None = None, options=None,
                    relax: bool = False) -> dict:  # fmt: skip
    """A game's sides named by ``--armies`` (comma-separated, read by its ``load_side``)
    and one pair of players: the spec's fields (a game with no ``balance_command``)."""
    if armies is None:
        raise UsageError("--armies: expected comma-separated sides")
    names = [a.strip() for a in armies.split(",")] if isinstance(armies, str) else list(armies)
    sides = [g.load_side(s, relax=relax) if isinstance(s, str) else s for s in names if s]
    base = policy or g.DEFAULT_POLICY
    return {"sides": tuple(sides), "policies": (PolicySpec(policy_a or base, policy_b or base),),
            "options": options if options is not None else g.Options(),
            "sources": tuple(s if isinstance(s, str) else f"(object) {s.name}" for s in names)}  # fmt: skip


def _command_hook(g) -> Callable[..., dict]:
    own = hook(g, "balance_command")
    return own if own is not None else (lambda **kw: default_command(g, **kw))


def command_options(game: str) -> set[str]:
    """The options (Python names) ``game``'s balance command takes: the common ones of
    :func:`command_spec` and those of its ``balance_command``."""
    g = resolve(game)
    common = set(inspect.signature(command_spec).parameters) - {"game", "game_options"}
    command = hook(g, "balance_command")
    own = inspect.signature(command if command is not None else default_command).parameters
    return common | {n for n, p in own.items() if n != "g" and p.kind is not p.VAR_KEYWORD}


def command_spec_of(game: str) -> Callable[..., BalanceSpec]:
    """:func:`command_spec` of ``game`` with the options it takes (:func:`command_options`)
    as its signature (what the workbench reads to know which options a job takes)."""

    def build(**options) -> BalanceSpec:
        return command_spec(game, **options)

    kw = inspect.Parameter.KEYWORD_ONLY
    build.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, kw) for n in sorted(command_options(game))]
    )
    return build


def default_games(game: str) -> int:
    """The games per pairing of ``game``'s balance command when none are asked for: its
    ``BALANCE_GAMES``, else :data:`DEFAULT_GAMES`."""
    games = hook(resolve(game), "BALANCE_GAMES")
    return DEFAULT_GAMES if games is None else games


def command_spec(
    game: str,
    *,
    games_per_pairing: int | None = None,
    seed: int = 1,
    precision: float | None = None,
    max_games: int = 20000,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    first_game: int = 0,
    **game_options,
) -> BalanceSpec:
    """The study ``balance`` (of ``game``) builds from its options, named as the command's
    Python names with the command's defaults (the command line and the workbench's jobs both
    build it here): every option checked, and every side loaded, before any game, each
    error in the command line's words. ``game_options``: the game's own
    (``balance_command``'s: Manoeuvre's ``armies``, ``policies`` ...; Maneuver's ``borders``,
    ``quality`` ...); ``games_per_pairing`` None: the game's ``BALANCE_GAMES``, else
    :data:`DEFAULT_GAMES`."""
    g = resolve(game)
    own = _command_hook(g)(**game_options)
    if games_per_pairing is None:
        games_per_pairing = default_games(g)
    return BalanceSpec(g, games_per_pairing=games_per_pairing, seed=seed,
                       precision=precision, max_games=max_games, block=block, threads=threads,
                       first_game=first_game, **own)  # fmt: skip


# ------------------------------------------------------------------------------ the manifest


def describe_sides(spec: BalanceSpec) -> dict:
    """What describes a study of sides in its manifest (a game with no
    ``balance_manifest``; the fixer's and the generic what-if's manifests for every game)."""
    from dataclasses import asdict, is_dataclass

    g = spec.game_module()
    opts = spec.options
    return {
        "game_title": GAMES.get(g.KEY, (None, g.TITLE))[1],
        "sides": [
            {"name": s.name, "source": src, "data_hash": g.side_hash(s)}
            for s, src in zip(spec.sides, spec.sources or spec.names, strict=True)
        ],  # fmt: skip
        "data_hash": g.data_hash(spec.sides, opts),
        "options": asdict(opts) if is_dataclass(opts) else repr(opts),
        "options_text": opts.describe() if hasattr(opts, "describe") else "",
        "policies": [
            {"label": p.label, "policy_a": p.policy_a, "policy_b": p.policy_b}
            for p in spec.policies
        ],  # fmt: skip
    }


def base_manifest(spec: BalanceSpec, study: str | None = None,
                  describe: Callable[[BalanceSpec], dict] | None = None) -> dict:  # fmt: skip
    """What decides the games (every part of the store carries it; a resumed run must
    match it, ``study.identity``) and where they come from: the common fields and what
    ``describe(spec)`` gives (default: the game's ``balance_manifest``, else
    :func:`describe_sides`). ``study``: the manifest's kind (default: the game's
    ``BALANCE_STUDY``, else ``balance``)."""
    g = spec.game_module()
    if study is None:
        study = hook(g, "BALANCE_STUDY") or KIND
    if describe is None:
        describe = hook(g, "balance_manifest") or describe_sides
    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "game": g.KEY,  # games.GAMES: a store of one game is never resumed as another's
        "study": study,
        "rules_version": g.RULES_VERSION,
        "seed": spec.seed,
        **describe(spec),
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


# ------------------------------------------------- the tables every game has (the default)


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


class Counter:
    """The default count of a study's games: the victory kinds (the outcomes are
    :func:`play_balance`'s), and every block when kept in memory (no store)."""

    def __init__(self, keep: bool) -> None:
        self.victory: dict[str, int] = {}
        self.kept: list[pd.DataFrame] | None = [] if keep else None

    def add(self, task: Task, df: pd.DataFrame) -> None:
        for kind, n in df["victory"].value_counts().items():
            self.victory[kind] = self.victory.get(kind, 0) + int(n)
        if self.kept is not None:
            self.kept.append(df)


def counter(spec: BalanceSpec, *, keep: bool) -> Counter:
    return Counter(keep)


def build(spec: BalanceSpec, count: Counter, manifest: dict, played: BalancePlay, *,
          boot: int = 200) -> BalanceResult:  # fmt: skip
    """The tables every game has (``pairings``, ``sides``, ``first_player``, ``victory``)."""
    g = spec.game_module()
    pairings = spec.pairings()
    table = pairing_table(pairings, played.outcomes)
    n = int(table["games"].sum()) if len(table) else 0
    vic = pd.DataFrame([{"victory": k, "games": count.victory.get(k, 0),
                         "share": count.victory.get(k, 0) / n if n else np.nan}
                        for k in g.VICTORY_KINDS])  # fmt: skip
    tables = {"pairings": table, "sides": side_table(spec.names, table),
              "first_player": first_player_table(table), "victory": vic}  # fmt: skip
    kept = pd.concat(count.kept, ignore_index=True) if count.kept else None
    return BalanceResult(spec, tables, manifest, games_kept=kept)


def summary(res: BalanceResult) -> list[str]:
    """The plain-text summary of a study with the default tables."""
    m = res.manifest
    reached = m["games_per_pairing_reached"]
    out = [f"{m['game_title']}: balance study of {len(res.spec.sides)} sides",
           f"{m['games']:,} games ({reached['min']:,}-{reached['max']:,} per pairing); "
           f"seed {m['seed']}; rules {m['rules_version']}; data {m['data_hash']}",
           "scores in % (a win 1, a draw 1/2), 95 % Wilson intervals", ""]  # fmt: skip
    for r in res.sides.sort_values("rank").itertuples(index=False):
        out.append(f"{r.rank:>3}  {r.side:<16} {100 * r.score:5.1f} "
                   f"[{100 * r.score_ci_low:.1f}, {100 * r.score_ci_high:.1f}]  "
                   f"{r.games:,} games")  # fmt: skip
    fp = res.first_player.iloc[0]
    out += ["", f"first player {100 * fp.first_score:.1f} [{100 * fp.first_score_ci_low:.1f}, "
                f"{100 * fp.first_score_ci_high:.1f}]"]  # fmt: skip
    if m.get("precision") is not None:
        out.append(f"precision goal ±{100 * m['precision']:.1f} points: widest reached "
                   f"±{100 * m.get('precision_reached', float('nan')):.2f}")  # fmt: skip
    if res.interrupted:
        out.append("INTERRUPTED: the tables cover the games finished before the stop")
    return out


def tables_module(spec: BalanceSpec):
    """The module that counts a study's games and lays out its tables: the game's
    ``BALANCE_TABLES`` (a module of ``analyses/``: ``games.pages_module``), else this one."""
    return pages_module(spec.game_module(), "BALANCE_TABLES") or sys.modules[__name__]


# -------------------------------------------------------------------------------- the result


@dataclass
class BalanceResult:
    """A balance study played: its spec, its tables by name (the game's; each also an
    attribute: ``res.matrix``, ``res.variants``, ``res.pairings``; a table a study does not
    have, such as the styles of a study of one style, is None), its manifest, whether it
    was interrupted, its store, the games each pairing reached, the game's ``counts`` of
    its games (Manoeuvre's tally) and the games kept in memory (without a store)."""

    spec: BalanceSpec
    tables: dict[str, pd.DataFrame | None]
    manifest: dict
    interrupted: bool = False
    store: Path | None = None
    games_per_pairing: dict[int, int] = field(default_factory=dict)
    counts: Any = None
    games_kept: pd.DataFrame | None = None

    def __getattr__(self, name: str):
        tables = self.__dict__.get("tables")
        if tables is not None and name in tables:
            return tables[name]
        raise AttributeError(name)

    @property
    def games(self) -> pd.DataFrame:
        """The study's game records: those kept in memory, else read from its store."""
        if self.games_kept is not None:
            return self.games_kept
        from manoeuvre_sim.core.store import read_store

        return read_store(self.store) if self.store is not None else pd.DataFrame()

    def frames(self) -> dict[str, pd.DataFrame]:
        return {k: v for k, v in self.tables.items() if v is not None}

    def summary(self) -> list[str]:
        return tables_module(self.spec).summary(self)

    def to_pdf(self, path: str | Path, paper: str = "a4") -> Path:
        return tables_module(self.spec).pdf(self, path, paper=paper)

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """The tables (CSV), manifest.json, summary.txt and the game's PDF (if it has one)
        into ``out_dir``."""
        written = write_study(out_dir, self.frames(), self.manifest, self.summary())
        pdf = getattr(tables_module(self.spec), "PDF_NAME", None)
        if pdf:
            written.append(self.to_pdf(Path(out_dir) / pdf, paper=paper))
        return written


# ----------------------------------------------------------------------------------- the run


def run_spec(
    spec: BalanceSpec,
    out_dir: str | Path | None = None,
    *,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
    boot: int = 200,
    command: str | None = None,
) -> BalanceResult:
    """Play ``spec`` (fixed N, or rounds until ``spec.precision``) and build its tables.

    ``out_dir``: the games go to ``out_dir/games.parquet/`` as they finish (None: kept in
    memory); ``resume``: read back the tasks already in the store instead of playing them
    (a store of another study is refused); ``backend``: where the tasks run
    (``core.backend``; None: local threads); ``boot``: the bootstrap draws of a game's
    rank intervals (Manoeuvre's); ``command``: the command line, recorded."""
    pairings, groups = spec.plan()
    store = make_store(out_dir)
    manifest = base_manifest(spec)
    tables = tables_module(spec)
    count = tables.counter(spec, keep=store is None)
    played = play_balance(
        pairings, groups, game=spec.game_module(), games=spec.games_per_pairing,
        first_game=spec.first_game, precision=spec.precision, max_games=spec.max_games,
        block=spec.block, on_frame=lambda task, df, stats=None: count.add(task, df),
        progress=progress, threads=spec.threads, store=store, manifest=manifest,
        backend=backend, resume=resume,
    )  # fmt: skip
    manifest |= played.closing()
    if command is not None:
        manifest["command"] = command
    res = tables.build(spec, count, manifest, played, boot=boot)
    res.interrupted, res.store = played.interrupted, store
    res.games_per_pairing = {p: n - spec.first_game for p, n in played.done.items()}
    return res


def run(
    game: str,
    sides: Sequence | None = None,
    *,
    out_dir: str | Path | None = None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    boot: int = 200,
    **options,
) -> BalanceResult:
    """Play the balance study of ``sides`` (what ``--armies`` names: specs the game reads,
    or sides; Maneuver's variants come from its own options) in ``game`` (a key of the
    registry): :func:`run_spec` of :func:`command_spec`. ``options``: the command's, by their
    Python names (``games_per_pairing``, ``seed``, ``precision``, ``policy``, ``threads``
    ...; the game's own)."""
    if sides is not None:
        options["armies"] = sides
    spec = command_spec(game, **options)
    return run_spec(spec, out_dir, backend=backend, resume=resume, progress=progress, boot=boot)


__all__ = ["BalanceResult", "BalanceSpec", "KIND", "base_manifest",
           "command_options", "command_spec", "default_games", "describe_sides",
           "first_player_table", "make_store", "pairing_table", "run", "run_spec", "side_pairings", "side_table",
           "tables_module", "write_study"]  # fmt: skip
