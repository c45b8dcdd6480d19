"""Maneuver's variant study (``manoeuvre-sim hex balance``): every variant the designer lists
(border line, army quality, step losses, step replacements), every ordered pairing of the
players (each player once blue and once red, mirrors included), and per variant and pairing
the first player's, blue's and red's win rates and the draw rate with 95 % Wilson
intervals, how games end, and on which turn each Capital fell.

Python API (what ``manoeuvre-sim hex balance`` calls)::

    from manoeuvre_sim.analyses.hexgame import variants as HV
    res = HV.run(HV.default_variants(), ("capital", "attrition"), games=2000, seed=1)
    res.variants       # per variant and pairing (and all pairings pooled): rates, intervals
    res.endings        # capture with the margin, a capture short of it, a draw at the limit
    res.capital_fell   # the first turn each Capital fell (0: never), counts and shares
    res.write("reports/hex-balance")

Seeding (common random numbers): the pairing of ``a`` (blue) and ``b`` (red) is seeded
from (master seed, ``hex:a@blue``, ``hex:b@red``) alone, as ``hex tournament`` seeds it, so
every variant replays the same seeds, adding or removing a variant changes no other
variant's games, and a row replays with ``hex replay --seed SEED --game GAME`` and the
variant's options.
"""

from __future__ import annotations

import datetime as _dt
import platform
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.study_dir import STORE, write_study_files
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import wilson_interval
from manoeuvre_sim.core.study import Pairing
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION, parse_policy
from manoeuvre_sim.hexgame import adapter as HX
from manoeuvre_sim.studies.rounds import play_balance

DEFAULT_POLICIES = ("capital", "attrition")
DEFAULT_GAMES = 2000
DEFAULT_BLOCK = 1000
ALL = "all"  # the pooled rows: every pairing of a variant
OPTION_COLUMNS = ("border", "quality_blue", "quality_red", "step_losses", "step_replacements")


@dataclass(frozen=True)
class Variant:
    """One combination of rule [13]'s options (and rule [2]'s border line); ``name`` (default:
    derived from the options) labels it in every table and in the study store."""

    border: str = "basic"
    quality_blue: str = "front"
    quality_red: str = "front"
    step_losses: bool = False
    step_replacements: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.default_name())

    def default_name(self) -> str:
        parts = [self.border] if self.border != "basic" else []
        if (self.quality_blue, self.quality_red) != ("front", "front"):
            parts.append(f"quality {self.quality_blue}:{self.quality_red}")
        if self.step_losses:
            parts.append("step losses")
        if self.step_replacements:
            parts.append("step replacements")
        return " + ".join(parts) or "basic"

    def options(self, turns: int = 10, scenario: str | None = None, **readings) -> HX.Options:
        """The variant's rule options; ``readings``: the interpretation switches
        (``captured_capital_zoc``, ``retreat_apart``) the whole study plays with."""
        return HX.Options(
            border=self.border, turns=turns, quality_blue=self.quality_blue,
            quality_red=self.quality_red, step_losses=self.step_losses,
            step_replacements=self.step_replacements, scenario=scenario, **readings,
        )  # fmt: skip

    def record(self) -> dict:
        return asdict(self)


def default_variants() -> tuple[Variant, ...]:
    """The basic game, each advanced rule on its own, and the large-vs-small borders."""
    return (
        Variant(),
        Variant(border="large_blue"),
        Variant(border="large_red"),
        Variant(quality_blue="back"),
        Variant(quality_red="back"),
        Variant(step_losses=True),
        Variant(step_replacements=True),
    )


def _switch(text: str, flag: str) -> tuple[bool, ...]:
    choices = {"off": (False,), "on": (True,), "both": (False, True)}
    if text not in choices:
        raise UsageError(f"{flag}: expected off, on or both, got {text!r}")
    return choices[text]


def _quality(text: str) -> tuple[str, str]:
    blue, sep, red = text.partition(":")
    ok = lambda q: q in ("front", "back") or q.isdigit()  # noqa: E731
    if not sep or not ok(blue) or not ok(red):
        raise UsageError(
            f"--quality: expected BLUE:RED, each front, back or a number of units on their "
            f"weak side (e.g. back:front,3:front), got {text!r}"
        )
    return blue, red


def policy_names(text: str | None) -> tuple[str, ...]:
    """The players ``--policies`` names, comma-separated (None: the default pair)."""
    if text is None:
        return DEFAULT_POLICIES
    pols = tuple(p.strip() for p in text.split(",") if p.strip())
    if not pols:
        raise UsageError("--policies: expected comma-separated players")
    return pols


def one_variant(border: str = "basic", quality: str = "front:front", step_losses: bool = False,
                step_replacements: bool = False) -> Variant:  # fmt: skip
    """The one variant of ``--border``, ``--quality`` (``BLUE:RED``) and the step rules'
    flags (``hex whatif``'s rules)."""
    qb, qr = _quality(quality)
    return Variant(border=border, quality_blue=qb, quality_red=qr, step_losses=step_losses,
                   step_replacements=step_replacements)  # fmt: skip


def variant_grid(
    borders: str | None = None,
    quality: str | None = None,
    step_losses: str | None = None,
    step_replacements: str | None = None,
) -> tuple[Variant, ...]:
    """The variants of the command line: none given, :func:`default_variants`; else every
    combination of the lists given (``borders`` ``basic,large_blue``; ``quality``
    ``front:front,back:front``; ``off``/``on``/``both`` for the two step rules), an option
    not given staying at the basic game's value."""
    if borders is quality is step_losses is step_replacements is None:
        return default_variants()
    bs = [b.strip() for b in (borders or "basic").split(",") if b.strip()]
    qs = [_quality(q.strip()) for q in (quality or "front:front").split(",") if q.strip()]
    if not bs or not qs:
        raise UsageError("--borders/--quality: expected a comma-separated list")
    for flag, xs in (("--borders", bs), ("--quality", qs)):
        if len(set(xs)) != len(xs):
            raise UsageError(f"{flag}: a value is named twice")
    sl = _switch(step_losses or "off", "--step-losses")
    sr = _switch(step_replacements or "off", "--step-replacements")
    return tuple(
        Variant(border=b, quality_blue=q[0], quality_red=q[1], step_losses=x, step_replacements=y)
        for b, q, x, y in product(bs, qs, sl, sr)
    )


@dataclass(frozen=True)
class VariantSpec:
    """Everything that decides the study's games (recorded in the manifest)."""

    variants: tuple[Variant, ...] = field(default_factory=default_variants)
    policies: tuple[str, ...] = DEFAULT_POLICIES
    games: int = DEFAULT_GAMES
    seed: int = 1
    turns: int = 10
    scenario: str | None = None
    precision: float | None = None
    max_games: int = 20000
    block: int = DEFAULT_BLOCK
    threads: int = 0
    # the interpretation switches every variant plays with (docs/RULE_INTERPRETATIONS.md)
    captured_capital_zoc: bool = False  # H6's other reading
    retreat_apart: bool = False  # H11's earlier reading

    def options_of(self, v: Variant) -> HX.Options:
        """Variant ``v``'s rule options in this study."""
        return v.options(self.turns, self.scenario, captured_capital_zoc=self.captured_capital_zoc,
                         retreat_apart=self.retreat_apart)  # fmt: skip

    def readings(self) -> list[str]:
        """The interpretation switches on, in words (none: the default readings)."""
        out = ["a captured Capital keeps its ZOC (H6)"] if self.captured_capital_zoc else []
        return out + (["retreating units never share a hex (H11)"] if self.retreat_apart else [])

    def __post_init__(self) -> None:
        if not self.variants:
            raise UsageError("variants: expected at least one")
        names = [v.name for v in self.variants]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise UsageError(f"variants: a variant is named twice: {', '.join(dup)}")
        if not self.policies or len(set(self.policies)) != len(self.policies):
            raise UsageError(f"--policies: expected distinct players, got {self.policies!r}")
        for p in self.policies:
            try:
                parse_policy(p)  # a player of POLICIES or search[:BUDGET[:STYLE[:SCOPE]]]
            except ValueError as e:
                raise UsageError(f"--policies: {e}") from None
        if self.games < 1:
            raise UsageError(f"--games-per-pairing: expected a positive number, got {self.games}")
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.precision is not None and not 0.0 < self.precision < 0.5:
            raise UsageError(
                f"--precision: expected a half-width between 0 and 0.5 (e.g. 0.02 for ±2 "
                f"points), got {self.precision}"
            )
        if self.max_games < 1 or self.block < 1 or self.threads < 0:
            raise UsageError("--max-games, --block >= 1 and --threads >= 0 expected")
        sc = self.load_scenario()
        for v in self.variants:
            if v.border not in sc.borders:
                raise UsageError(
                    f"--borders: {v.border!r} is not a border of the scenario "
                    f"({', '.join(sc.borders)})"
                )
            self.options_of(v)  # checks quality and turns

    def load_scenario(self):
        from manoeuvre_sim.hexgame.scenario import load_scenario

        return load_scenario(self.scenario)

    def pairings(self) -> list[Pairing]:
        """Per variant (in order), every ordered pairing: blue's player major."""
        blue, red = HX.load_side("blue"), HX.load_side("red")
        return [
            Pairing(blue, red, a, b, HX.seat_seed(self.seed, a, b), v.name)
            for v in self.variants
            for a in self.policies
            for b in self.policies
        ]


@dataclass
class VariantResult:
    """The frames of a variant study (columns: docs/hex.md)."""

    spec: VariantSpec
    variants: pd.DataFrame
    endings: pd.DataFrame
    capital_fell: pd.DataFrame
    manifest: dict
    games: pd.DataFrame
    interrupted: bool = False

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"variants": self.variants, "endings": self.endings,
                "capital_fell": self.capital_fell}  # fmt: skip

    def summary(self) -> list[str]:
        return summary_lines(self)

    def to_pdf(self, path: str | Path, paper: str = "a4") -> Path:
        from manoeuvre_sim.analyses.hexgame.variants_pdf import write_variants_pdf

        return write_variants_pdf(path, self, paper=paper)

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """The CSV tables, manifest.json, summary.txt and hex_balance.pdf into ``out_dir``."""
        return write_study_files(
            out_dir, tables=self.frames(), manifest=self.manifest, summary=self.summary(),
            pdf=("hex_balance.pdf", lambda path: self.to_pdf(path, paper=paper)),
        )  # fmt: skip


def run(
    variants: Sequence[Variant] | None = None,
    policies: Sequence[str] = DEFAULT_POLICIES,
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    *,
    out_dir: str | Path | None = None,
    backend=None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    command: str | None = None,
    **spec_kw,
) -> VariantResult:
    """Play the variant study and return its frames. ``out_dir``: the games go to
    ``out_dir/games.parquet/`` as they finish (None: kept in memory only); extra keywords
    go to :class:`VariantSpec` (``turns``, ``scenario``, ``precision``, ``max_games``,
    ``block``, ``threads``)."""
    spec = VariantSpec(
        variants=tuple(variants) if variants is not None else default_variants(),
        policies=tuple(policies), games=games, seed=seed, **spec_kw,
    )  # fmt: skip
    return run_spec(spec, out_dir=out_dir, backend=backend, resume=resume, progress=progress,
                    command=command)  # fmt: skip


def base_manifest(spec: VariantSpec) -> dict:
    """What decides the games (every part of the store carries it; a resumed run must
    match it, ``study.identity``)."""
    sc = spec.load_scenario()
    from manoeuvre_sim.hexgame.scenario import default_path

    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "game": HX.KEY,
        "game_title": GAME_TITLE,
        "study": "hex balance",
        "rules_version": RULES_VERSION,
        "seed": spec.seed,
        "scenario": sc.name,
        "scenario_file": str(spec.scenario or default_path()),
        "scenario_sha256": sc.sha256,
        "turns": spec.turns,
        "variants": [v.record() for v in spec.variants],
        "options": {v.name: asdict(spec.options_of(v)) for v in spec.variants},
        "policies": list(spec.policies),
        "seeding": "pairing seed from (seed, 'hex:<blue player>@blue', 'hex:<red player>@red')",
        "games_per_pairing": spec.games,
        "precision": spec.precision,
        "max_games": spec.max_games if spec.precision is not None else None,
        "block": spec.block,
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
    }


KEEP = ("label", "pairing", "game", "seed", "policy_a", "policy_b", "first_player", "winner",
        "victory", "game_turns", "capital_fell_turn_a", "capital_fell_turn_b",
        "captured_without_margin_a", "captured_without_margin_b")  # fmt: skip


def command_spec(
    *,
    borders: str | None = None,
    quality: str | None = None,
    step_losses: str | None = None,
    step_replacements: str | None = None,
    policies: str | None = None,
    games_per_pairing: int = DEFAULT_GAMES,
    seed: int = 1,
    turns: int = 10,
    scenario: str | None = None,
    precision: float | None = None,
    max_games: int = 20000,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    captured_capital_zoc: bool = False,
    retreat_apart: bool = False,
) -> VariantSpec:
    """The study ``manoeuvre-sim hex balance`` builds from its options, named as the
    command's Python names with its defaults (the command line and the workbench's jobs both
    build it here): every option checked, in the command line's words, before any game."""
    return VariantSpec(
        variants=variant_grid(borders, quality, step_losses, step_replacements),
        policies=policy_names(policies), games=games_per_pairing, seed=seed, turns=turns,
        scenario=scenario, precision=precision, max_games=max_games, block=block,
        threads=threads, captured_capital_zoc=captured_capital_zoc, retreat_apart=retreat_apart,
    )  # fmt: skip


def run_spec(spec, *, out_dir=None, backend=None, resume=False, progress=None, command=None):
    """Play ``spec`` (fixed N per pairing, or rounds until ``spec.precision``)."""
    pairings = spec.pairings()
    store = Path(out_dir) / STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = base_manifest(spec)
    per = len(spec.policies) ** 2
    kept: list[pd.DataFrame] = []
    groups = [(spec.options_of(v), range(vi * per, (vi + 1) * per))
              for vi, v in enumerate(spec.variants)]  # fmt: skip
    rounds = play_balance(
        pairings, groups, game="hex", games=spec.games, precision=spec.precision,
        max_games=spec.max_games, block=spec.block, progress=progress, threads=spec.threads,
        store=store, manifest=manifest,
        on_frame=lambda t, df, cs: kept.append(df[list(KEEP)]), backend=backend, resume=resume,
    )  # fmt: skip
    res = build_result(spec, kept_games(kept), manifest)
    res.interrupted = rounds.interrupted
    res.manifest |= rounds.closing() | {"command": command}
    return res


def kept_games(kept: list[pd.DataFrame], keep=KEEP) -> pd.DataFrame:
    """The blocks a study kept (its ``keep`` columns), as one frame in pairing and game
    order (the variant study's and the what-if's)."""
    if not kept:
        return pd.DataFrame(columns=list(keep))
    df = pd.concat(kept, ignore_index=True)
    return df.sort_values(["pairing", "game"], kind="stable").reset_index(drop=True)


def _rate(count: str, rate: str, k, n: int) -> dict:
    """``count`` = k, ``rate`` = k / n and its 95 % Wilson interval (``rate``_ci_low/high)."""
    k = int(k)
    lo, hi = wilson_interval(k, n)
    return {count: k, rate: k / n, f"{rate}_ci_low": float(lo), f"{rate}_ci_high": float(hi)}


def _groups(spec: VariantSpec, df: pd.DataFrame):
    """(variant, blue's player, red's player, its games) per pairing, then ``all`` pooled."""
    for v in spec.variants:
        dv = df[df["label"] == v.name]
        for a in spec.policies:
            for b in spec.policies:
                yield v, a, b, dv[(dv["policy_a"] == a) & (dv["policy_b"] == b)]
        if len(spec.policies) > 1:
            yield v, ALL, ALL, dv


def _frame(rows: list[dict], spec: VariantSpec) -> pd.DataFrame:
    out = pd.DataFrame(rows)
    for c in ("first_wins", "second_wins", "blue_wins", "red_wins", "draws", "capture_wins",
              "turn_limit_draws", "short_of_margin", "short_of_margin_draws", "games", "turn",
              "count"):  # fmt: skip
        if c in out.columns:
            out[c] = out[c].astype(np.int64)
    return out


def build_result(spec: VariantSpec, df: pd.DataFrame, manifest: dict) -> VariantResult:
    rows, ends, fell = [], [], []
    for v, a, b, g in _groups(spec, df):
        n = len(g)
        if n == 0:
            continue
        key = {"variant": v.name, "policy_blue": a, "policy_red": b, "games": n}
        opts = {c: getattr(v, c) for c in OPTION_COLUMNS}
        first = int((g["winner"] == g["first_player"]).sum())
        w = g["winner"].value_counts()
        row = dict(key)
        second = n - first - int(w.get("draw", 0))
        for count, rate, k in (("first_wins", "first_win_rate", first),
                               ("second_wins", "second_win_rate", second),
                               ("blue_wins", "blue_win_rate", w.get("a", 0)),
                               ("red_wins", "red_win_rate", w.get("b", 0)),
                               ("draws", "draw_rate", w.get("draw", 0))):  # fmt: skip
            row |= _rate(count, rate, k, n)
        rows.append(row | opts)
        short = (g["captured_without_margin_a"] + g["captured_without_margin_b"]) > 0
        draw = g["victory"] == "draw"
        e = dict(key)
        for count, k in (("capture_wins", (g["victory"] == "capital").sum()),
                         ("turn_limit_draws", draw.sum()), ("short_of_margin", short.sum()),
                         ("short_of_margin_draws", (short & draw).sum())):  # fmt: skip
            e |= _rate(count, f"{count}_share", k, n)
        dec = g.loc[~draw, "game_turns"]
        e["mean_turn_decisive"] = float(dec.mean()) if len(dec) else float("nan")
        ends.append(e | opts)
        for side, col in (("blue", "capital_fell_turn_a"), ("red", "capital_fell_turn_b")):
            counts = g[col].value_counts()
            for t in range(0, spec.turns + 1):
                c = int(counts.get(t, 0))
                fell.append(key | {"capital": side, "turn": t, "count": c, "share": c / n})
    return VariantResult(
        spec=spec, variants=_frame(rows, spec), endings=_frame(ends, spec),
        capital_fell=_frame(fell, spec), manifest=manifest, games=df,
    )  # fmt: skip


def _pc(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}"


def _ci(lo: float, hi: float) -> str:
    return f"[{_pc(lo)}, {_pc(hi)}]"


def summary_lines(res: VariantResult) -> list[str]:
    """The plain-text summary (printed after a study, summary.txt, the PDF's last page)."""
    m, spec = res.manifest, res.spec
    reached = m.get("games_per_pairing_reached", {})
    lo, hi = reached.get("min", 0), reached.get("max", 0)
    out = [
        f"{GAME_TITLE}: variant study",
        f"{len(spec.variants)} variant(s) x {len(spec.policies) ** 2} pairing(s) of "
        f"{', '.join(spec.policies)}; {m.get('games', 0):,} games ({lo:,}"
        + (f"-{hi:,}" if lo != hi else "")
        + f" per variant and pairing); seed {m['seed']}; {spec.turns} turns",
        f"rules {m['rules_version']}; scenario {m['scenario']}, sha256 {m['scenario_sha256']}",
        "win rates in %, 95 % Wilson intervals; the first player is drawn per game (rule [3])",
    ]
    if spec.readings():
        out.append("readings: " + "; ".join(spec.readings()))
    if res.interrupted:
        out.append("INTERRUPTED: the tables cover the games finished before the stop")
    out.append("")

    def cell(r, x: str) -> str:
        lo, hi = getattr(r, f"{x}_rate_ci_low"), getattr(r, f"{x}_rate_ci_high")
        return f"{_pc(getattr(r, f'{x}_rate')):>5} {_ci(lo, hi):<14}"

    for cols, names in ((("first_win", "draw"), ("first player wins", "drawn")),
                        (("blue_win", "red_win"), ("blue wins", "red wins"))):  # fmt: skip
        out.append(f"{'variant':<24} {'blue v red':<21} {'games':>6}  "
                   + "  ".join(f"{n:<20}" for n in names))  # fmt: skip
        for r in res.variants.itertuples(index=False):
            pair = "all pairings" if r.policy_blue == ALL else f"{r.policy_blue} v {r.policy_red}"
            out.append(f"{r.variant:<24} {pair:<21} {r.games:>6}  "
                       + "  ".join(cell(r, x) for x in cols))  # fmt: skip
        out.append("")
    lead = ALL if len(spec.policies) > 1 else spec.policies[0]
    out.append("how games end, % of games (all pairings): capture = a win, the enemy Capital")
    out.append(f"captured with rule [12]'s margin; draw = no winner after turn {spec.turns};")
    out.append("short = a capture the two-unit margin did not let win (then drawn: of all games);")
    out.append("win turn = the mean turn a won game ended")
    out.append(f"{'variant':<24} {'capture':>8} {'draw':>6} {'short':>6} {'then drawn':>11} "
               f"{'win turn':>9}")  # fmt: skip
    for r in res.endings[res.endings["policy_blue"] == lead].itertuples():
        out.append(
            f"{r.variant:<24} {_pc(r.capture_wins_share):>8} {_pc(r.turn_limit_draws_share):>6} "
            f"{_pc(r.short_of_margin_share):>6} {_pc(r.short_of_margin_draws_share):>11} "
            f"{r.mean_turn_decisive:>9.1f}"
        )
    if spec.precision is not None:
        out.append("")
        out.append(
            f"precision goal ±{100 * spec.precision:.1f} points on every first-player rate: "
            f"widest reached ±{100 * m.get('precision_reached', float('nan')):.2f} (max "
            f"{spec.max_games:,} games per pairing)"
        )
    return out


__all__ = ["ALL", "Variant", "VariantResult", "VariantSpec", "default_variants", "run",
           "run_spec", "variant_grid"]  # fmt: skip
