"""Maneuver's handicap ladder (``manoeuvre-sim hex ladder``, issue 25 part 3): rule [13] 2's
army quality as a balancing tool, like komi in Go. For one variant, rung k puts k of the
favoured side's combat units (its first k in scenario order, or in the order of the unit
types the designer picks) on their weak side, k = 0..n;
every rung plays the same seeds (common random numbers); a fractional logit of the
favoured side's points on k gives the handicap k* at which its expected score is 1/2, with
a 95 % interval by the delta method.

Python API::

    from manoeuvre_sim.hexgame.studies import ladder as HL
    res = HL.run_spec(HL.LadderSpec(border="large_blue", games=2000, seed=1))
    res.ladder   # per rung: games, wins, draws, losses, score with its Wilson interval
    res.fit      # coefficients, k*, its interval, the method

Points: a win 1, a draw 1/2, a loss 0, so "even" means an expected score of 1/2, what a
handicap in Go aims at; the draw rate per rung is reported beside it. The fit is a
fractional logit (Papke and Wooldridge 1996): a binomial GLM of the per-game points on k
(statsmodels), whose mean is consistent for points in [0, 1] and whose covariance is the
sandwich clustered on the game, since points of 0, 1/2 and 1 are not Bernoulli and the same
seed plays on every rung. Every rung is a variant of the variant study (``hex balance``),
played by it. The summary, tables and PDF page: ``analyses/hexgame/ladder.py``,
``ladder_pdf.py``.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import wilson_interval, z_value
from manoeuvre_sim.core.study_command import StudyCommand
from manoeuvre_sim.hexgame import adapter as HX
from manoeuvre_sim.hexgame import variants as HV
from manoeuvre_sim.studies import balance

KIND = "ladder"  # the registry's name (the adapter's OWN_STUDIES); manifests say "hex ladder"
# its command (core/study_command.py) is the hex group's own, cli/hexgame/ladder.py
COMMAND = StudyCommand(help="The handicap ladder: the army-quality handicap that makes a "
                       "variant even.", face="own")  # fmt: skip

SIDES = ("blue", "red")
FIT_METHOD = (
    "fractional logit: statsmodels GLM, Binomial family, logit link, of the favoured side's "
    "points per game (win 1, draw 1/2, loss 0) on k; sandwich covariance clustered on the "
    "game (the same seeds on every rung); k* = -b0/b1 "
    "with its 95 % interval by the delta method"
)


@dataclass(frozen=True)
class Rung(HV.Variant):
    """A variant of :mod:`hex_variants` that also fixes the first player (rule [3])."""

    first: str = "random"

    def options(self, turns: int = 10, scenario: str | None = None, **readings) -> HX.Options:
        return HX.Options(
            border=self.border, turns=turns, first=self.first, quality_blue=self.quality_blue,
            quality_red=self.quality_red, step_losses=self.step_losses,
            step_replacements=self.step_replacements, scenario=scenario, **readings,
        )  # fmt: skip


@dataclass(frozen=True)
class LadderSpec:
    """Everything that decides the ladder's games (recorded in the manifest). ``favoured``:
    ``blue``, ``red`` or ``auto`` (the side with the higher score at k = 0, measured on the
    same seeds before the ladder is played); ``max_k``: None, every combat unit."""

    border: str = "basic"
    first: str = "random"
    step_losses: bool = False
    step_replacements: bool = False
    favoured: str = "auto"
    max_k: int | None = None
    order: str | None = None  # unit types, e.g. "cavalry,artillery,infantry"; None: scenario
    policies: tuple[str, ...] = ("capital",)
    games: int = 2000
    seed: int = 1
    turns: int = 10
    scenario: str | None = None
    block: int = 1000
    threads: int = 0

    def __post_init__(self) -> None:
        # the ladder's own option names (the variant study below says --games-per-pairing)
        for flag, value, least in (("--games", self.games, 1), ("--block", self.block, 1),
                                   ("--threads", self.threads, 0)):  # fmt: skip
            if value < least:
                what = "a positive number" if least else "0 (all cores) or more"
                raise UsageError(f"{flag}: expected {what}, got {value}")
        if self.favoured not in ("auto", *SIDES):
            raise UsageError(f"--favoured: expected auto, blue or red, got {self.favoured!r}")
        borders = self._scenario().borders
        if self.border not in borders:
            raise UsageError(
                f"--border: {self.border!r} is not a border of the scenario ({', '.join(borders)})"
            )
        self.weak_order()  # checks --order
        if self.max_k is not None and not 1 <= self.max_k <= self.units():
            raise UsageError(
                f"--max-k: expected 1..{self.units()} (the side's combat units), got {self.max_k}"
            )
        self.variant_spec(self.favoured if self.favoured != "auto" else "blue")  # checks

    def _scenario(self):
        from manoeuvre_sim.hexgame.scenario import load_scenario

        return load_scenario(self.scenario)

    def units(self) -> int:
        """The combat units of a side (the most that can be put on their weak side)."""
        from manoeuvre_sim.hexgame.scenario import TYPE_NAMES

        sc = self._scenario()
        return min(sum(u[1] != TYPE_NAMES.index("capital") for u in sc.units(s)) for s in (0, 1))

    def weak_order(self, side: int = 0) -> list[tuple[int, str]]:
        """The side's combat units (number in scenario order, name) in the order they are
        weakened: by the types of ``order`` (their units in scenario order), types not named
        after them; None: scenario order."""
        from manoeuvre_sim.hexgame.scenario import TYPE_NAMES

        units = [(i, u[0], TYPE_NAMES[u[1]]) for i, u in enumerate(self._scenario().units(side))]
        units = [u for u in units if u[2] != "capital"]
        if self.order is None:
            return [(i, n) for i, n, _ in units]
        types = [t.strip() for t in self.order.split(",") if t.strip()]
        known = sorted({t for *_, t in units})
        bad = [t for t in types if t not in known]
        if bad or not types or len(set(types)) < len(types):
            raise UsageError(
                f"--order: expected distinct unit types of the scenario ({', '.join(known)}), "
                f"e.g. cavalry,artillery,infantry; got {self.order!r}"
            )
        rank = {t: r for r, t in enumerate(types)}
        units.sort(key=lambda u: (rank.get(u[2], len(types)), u[0]))
        return [(i, n) for i, n, _ in units]

    def quality(self, k: int, side: int) -> str:
        """Rung k's army quality for the side: K in scenario order (the existing rule [13] 2
        option, so its games are those of ``--quality-blue K``) or the units chosen."""
        if k == 0:
            return "front"
        if self.order is None:
            return str(k)
        return "units:" + ",".join(str(i) for i, _ in self.weak_order(side)[:k])

    def rungs(self, favoured: str) -> tuple[Rung, ...]:
        top = self.max_k if self.max_k is not None else self.units()
        side = SIDES.index(favoured)
        return tuple(
            Rung(
                border=self.border,
                first=self.first,
                step_losses=self.step_losses,
                step_replacements=self.step_replacements,
                name=f"k={k}",
                **{f"quality_{favoured}": self.quality(k, side)},
            )
            for k in range(top + 1)
        )

    def variant_spec(self, favoured: str, rungs=None) -> balance.BalanceSpec:
        return balance.BalanceSpec(
            "hex", rungs or self.rungs(favoured), policies=self.policies,
            games_per_pairing=self.games, seed=self.seed, block=self.block,
            settings=HV.VariantSettings(turns=self.turns, scenario=self.scenario),
            threads=self.threads,
        )  # fmt: skip


def points(games: pd.DataFrame, favoured: str) -> np.ndarray:
    """The favoured side's points per game: a win 1, a draw 1/2, a loss 0."""
    me = "a" if favoured == "blue" else "b"
    w = games["winner"].to_numpy()
    return np.where(w == me, 1.0, np.where(w == "draw", 0.5, 0.0))


def ladder_table(k: np.ndarray, pts: np.ndarray) -> pd.DataFrame:
    """Per rung: games, wins, draws, losses, score (points per game) with a 95 % Wilson
    interval on the points (a draw counting half a win)."""
    df = pd.DataFrame({"k": k, "win": pts == 1.0, "draw": pts == 0.5, "loss": pts == 0.0})
    g = df.groupby("k").agg(games=("win", "size"), wins=("win", "sum"), draws=("draw", "sum"),
                            losses=("loss", "sum")).reset_index()  # fmt: skip
    pts_sum = g["wins"] + 0.5 * g["draws"]
    g["score"] = pts_sum / g["games"]
    lo, hi = wilson_interval(pts_sum.to_numpy(), g["games"].to_numpy())
    g["score_ci_low"], g["score_ci_high"] = lo, hi
    g["draw_rate"] = g["draws"] / g["games"]
    return g


def fit_even_point(k, pts, groups=None, confidence: float = 0.95) -> dict:
    """The fractional logit of ``pts`` (per game, in [0, 1]) on ``k`` and its even point
    k* = -b0/b1 (fitted score 1/2) with a delta-method interval. ``groups``: one label per
    game's seed (the same game on every rung, common random numbers), for a covariance
    clustered on it; None: the sandwich (HC0) of independent games."""
    import statsmodels.api as sm

    k = np.asarray(k, dtype=float)
    pts = np.asarray(pts, dtype=float)
    if len(np.unique(k)) < 2:
        raise UsageError("ladder fit: expected at least two rungs")
    X = sm.add_constant(k)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # non-integer "successes" are the point here
        model = sm.GLM(pts, X, family=sm.families.Binomial())
        if groups is None:
            res = model.fit(cov_type="HC0")
        else:
            codes = pd.factorize(pd.Series(groups))[0]
            res = model.fit(cov_type="cluster", cov_kwds={"groups": codes})
    b0, b1 = (float(x) for x in res.params)
    cov = np.asarray(res.cov_params(), dtype=float)
    z = float(z_value(confidence))
    out = {
        "method": FIT_METHOD,
        "intercept": b0,
        "slope": b1,
        "intercept_se": float(np.sqrt(cov[0, 0])),
        "slope_se": float(np.sqrt(cov[1, 1])),
        "cov": cov.tolist(),
        "confidence": confidence,
        "games": int(len(k)),
        "k_star": None,
        "k_star_se": None,
        "k_star_ci_low": None,
        "k_star_ci_high": None,
    }
    if b1 == 0 or abs(b1) < z * out["slope_se"]:
        out["note"] = "the slope is not distinguishable from 0: no even point"
        return out
    ks = -b0 / b1
    grad = np.array([-1.0 / b1, b0 / b1**2])
    se = float(np.sqrt(grad @ cov @ grad))
    out |= {"k_star": ks, "k_star_se": se, "k_star_ci_low": ks - z * se,
            "k_star_ci_high": ks + z * se}  # fmt: skip
    return out


def fitted_score(fit: dict, k) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(fit["intercept"] + fit["slope"] * np.asarray(k, float))))


def nearest_whole(fit: dict, top: int) -> list[int]:
    """The whole handicaps either side of k* on the ladder (one if k* is whole)."""
    ks = fit.get("k_star")
    if ks is None:
        return []
    lo, hi = int(np.floor(ks)), int(np.ceil(ks))
    return sorted({min(max(x, 0), top) for x in (lo, hi)})


@dataclass
class LadderResult:
    """What the ladder found: the ``favoured`` side, ``ladder`` (:func:`ladder_table`),
    ``fit`` (:func:`fit_even_point`, with ``nearest_whole``), the manifest and the games.
    Its summary, CSV, fit.json and PDF: ``analyses/hexgame/ladder.py``."""

    spec: LadderSpec
    favoured: str
    ladder: pd.DataFrame
    fit: dict
    manifest: dict
    games: pd.DataFrame
    interrupted: bool = False


def measure_favoured(spec: LadderSpec, backend=None) -> tuple[str, dict]:
    """Play rung 0 alone (kept in memory) and return the side with the higher score."""
    vs = spec.variant_spec("blue", spec.rungs("blue")[:1])
    res = balance.run_spec(vs, backend=backend)
    blue = float(points(res.games, "blue").mean())
    return ("blue" if blue >= 0.5 else "red"), {"blue_score_k0": blue, "games": len(res.games)}


def run_spec(spec: LadderSpec, *, out_dir=None, backend=None, resume=False, progress=None,
             command=None) -> LadderResult:  # fmt: skip
    """Play the ladder (games into ``out_dir/games.parquet/``) and fit its even point."""
    favoured, measured = spec.favoured, None
    if favoured == "auto":
        favoured, measured = measure_favoured(spec, backend)
    vs = spec.variant_spec(favoured)
    res = balance.run_spec(vs, out_dir=out_dir, backend=backend, resume=resume, progress=progress,
                      command=command)  # fmt: skip
    df = res.games
    k = df["label"].str.removeprefix("k=").astype(int).to_numpy()
    pts = points(df, favoured)
    ladder = ladder_table(k, pts)
    groups = df["policy_a"] + "|" + df["policy_b"] + "|" + df["game"].astype(str)  # not rung
    fit = fit_even_point(k, pts, groups=groups.to_numpy())
    fit["nearest_whole"] = nearest_whole(fit, int(k.max()))
    manifest = res.manifest | {
        "study": "hex ladder",
        "favoured": favoured,
        "favoured_given": spec.favoured,
        "favoured_measured": measured,
        "first": spec.first,
        "ladder": f"k = 0..{int(k.max())} of {favoured}'s combat units weak, in this order",
        "weak_order": [n for _, n in spec.weak_order(SIDES.index(favoured))],
        "order": spec.order,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    return LadderResult(spec, favoured, ladder, fit, manifest, df, res.interrupted)


def command_spec(
    *,
    border: str = "basic",
    first: str = "random",
    step_losses: bool = False,
    step_replacements: bool = False,
    favoured: str = "auto",
    max_k: int | None = None,
    order: str | None = None,
    policies: str | None = "capital",
    games: int = 2000,
    seed: int = 1,
    turns: int = 10,
    scenario: str | None = None,
    block: int = 1000,
    threads: int = 0,
) -> LadderSpec:
    """The ladder ``manoeuvre-sim hex ladder`` builds from its options, named as the
    command's Python names with its defaults (``policies`` as typed, comma-separated): every
    option checked, in the command line's words, before any game."""
    return LadderSpec(
        border=border, first=first, step_losses=step_losses,
        step_replacements=step_replacements, favoured=favoured, max_k=max_k, order=order,
        policies=HV.policy_names(policies), games=games, seed=seed, turns=turns,
        scenario=scenario, block=block, threads=threads,
    )  # fmt: skip
