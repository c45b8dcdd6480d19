"""Maneuver's set-up study (``manoeuvre-sim hex setup``): where each Capital stood (rule [3]:
the first player places its Capital first) and how the result depends on it.

N games of one pairing (``capital`` on both sides by default) under one variant's options,
grouped by the hex the first player's Capital was set up on: per hex the games, the first
player's win rate with its 95 % Wilson interval, the draw rate; the same grouped by the
second player's Capital hex. The records carry the hexes (``capital_hex_a``/``_b``, CCRR).
Its summary, tables and PDF map are ``analyses/hexgame/setup.py`` and ``setup_pdf.py``.

Python API (what the command calls)::

    from manoeuvre_sim.hexgame.studies import setup as HS

    res = HS.run_spec(HS.SetupSpec(games=20000, seed=1))
    res.hexes  # one row per (whose Capital, hex)
"""

from __future__ import annotations

import datetime as _dt
import platform
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import wilson_interval
from manoeuvre_sim.core.store import STORE
from manoeuvre_sim.core.study import Pairing, blocks, play
from manoeuvre_sim.core.study_command import StudyCommand
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION, parse_policy
from manoeuvre_sim.hexgame import adapter as HX
from manoeuvre_sim.hexgame.variants import Variant, variant_grid

KIND = "setup"  # the registry's name (the adapter's OWN_STUDIES); manifests say "hex setup"
# its command (core/study_command.py) is the hex group's own, cli/hexgame/setup.py
COMMAND = StudyCommand(help="Where the Capital stands: win rate by the Capital's hex, a map.",
                       face="own")  # fmt: skip

FEW_GAMES = 30  # hexes with fewer games are hatched on the map and flagged in the table
KEEP = ("game", "seed", "first_player", "winner", "capital_hex_a", "capital_hex_b")


@dataclass(frozen=True)
class SetupSpec:
    """What the study plays: one pairing, one variant, ``games`` games."""

    policy_a: str = "capital"
    policy_b: str = "capital"
    variant: Variant = field(default_factory=Variant)
    games: int = 20000
    seed: int = 1
    turns: int = 10
    scenario: str | None = None
    block: int = 2000
    threads: int = 0
    # "player": each player sets its Capital up as it plays; "random" (a study device, not a
    # rule): both Capitals drawn uniformly among the hexes rule [3] allows, the rest played
    capital: str = "player"

    def __post_init__(self) -> None:
        for flag, p in (("--policy-a", self.policy_a), ("--policy-b", self.policy_b)):
            try:
                parse_policy(p)
            except ValueError as e:
                raise UsageError(f"{flag}: {e}") from None
        if self.capital not in ("player", "random"):
            raise UsageError(f"--capital: expected player or random, got {self.capital!r}")
        if self.games < 1 or self.block < 1 or self.threads < 0:
            raise UsageError("--games, --block >= 1 and --threads >= 0 expected")
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        sc = self.load_scenario()
        if self.variant.border not in sc.borders:
            raise UsageError(
                f"--border: {self.variant.border!r} is not a border of the scenario "
                f"({', '.join(sc.borders)})"
            )
        self.options()  # checks quality and turns

    def options(self) -> HX.Options:
        return self.variant.options(self.turns, self.scenario)

    def load_scenario(self):
        from manoeuvre_sim.hexgame.scenario import load_scenario

        return load_scenario(self.scenario)

    def pairing(self) -> Pairing:
        a, b = self.policy_a, self.policy_b
        seed = HX.seat_seed(self.seed, a, b)
        pa = pb = None
        if self.capital == "random":
            pa, pb = (_anywhere(a), _anywhere(b))
        return Pairing(
            HX.load_side("blue"), HX.load_side("red"), a, b, seed, "setup", params_a=pa, params_b=pb
        )

    def legal_hexes(self) -> dict[int, list[str]]:
        """Per side (0 blue, 1 red), the hexes rule [3] lets its Capital stand on."""
        from manoeuvre_sim.hexgame.scenario import H_CAPITAL_OK, H_SIDE, hex_table

        sc = self.load_scenario()
        tab, g = hex_table(sc, self.variant.border), sc.grid
        return {
            s: [g.label(h) for h in range(g.n) if tab[h, H_CAPITAL_OK] and tab[h, H_SIDE] == s]
            for s in (0, 1)
        }


def _anywhere(policy: str) -> tuple[float, ...]:
    """The player's default parameters and the study device's fifth: Capital anywhere legal."""
    from manoeuvre_sim.hexgame.players import DEFAULT_PARAMS

    base, _, style = parse_policy(policy)
    return (*DEFAULT_PARAMS[style if base == "search" else base], 1.0)


def capital_table(games: pd.DataFrame, legal: dict[int, list[str]]) -> pd.DataFrame:
    """One row per (``capital``: ``first`` or ``second`` player's, ``side`` blue/red, ``hex``)
    over every legal hex (0 games where never chosen): ``games``, ``share`` of the games,
    ``first_win``, ``first_win_rate`` with ``_ci_low``/``_ci_high`` (95 % Wilson),
    ``draw``, ``draw_rate`` with its interval, ``few_games`` (fewer than FEW_GAMES)."""
    df = games
    first_b = (df["first_player"] == "b").to_numpy()
    hex_a, hex_b = df["capital_hex_a"].to_numpy(), df["capital_hex_b"].to_numpy()
    first_hex = np.where(first_b, hex_b, hex_a)
    second_hex = np.where(first_b, hex_a, hex_b)
    first_side = np.where(first_b, "red", "blue")
    second_side = np.where(first_b, "blue", "red")
    first_win = (df["winner"].to_numpy() == df["first_player"].to_numpy()).astype(int)
    draw = (df["winner"].to_numpy() == "draw").astype(int)
    rows = []
    n_all = len(df)
    for who, hexes, sides in (
        ("first", first_hex, first_side),
        ("second", second_hex, second_side),
    ):
        for s, side in enumerate(("blue", "red")):
            for h in legal[s]:
                m = (hexes == h) & (sides == side)
                n = int(m.sum())
                w, d = int(first_win[m].sum()), int(draw[m].sum())
                row = {"capital": who, "side": side, "hex": h, "games": n,
                       "share": n / n_all if n_all else np.nan}  # fmt: skip
                for name, k in (("first_win", w), ("draw", d)):
                    lo, hi = wilson_interval(k, n) if n else (np.nan, np.nan)
                    row |= {name: k, f"{name}_rate": k / n if n else np.nan,
                            f"{name}_rate_ci_low": float(lo), f"{name}_rate_ci_high": float(hi)}  # fmt: skip
                row["few_games"] = n < FEW_GAMES
                rows.append(row)
    return pd.DataFrame(rows)


def concentration(table: pd.DataFrame, who: str) -> dict:
    """How concentrated ``who``'s Capital choices are: legal hexes, hexes ever chosen, the
    most chosen hex and its share, the fewest hexes covering 90 % of the games."""
    t = table[table["capital"] == who].sort_values("games", ascending=False)
    n = int(t["games"].sum())
    cum = t["games"].cumsum().to_numpy()
    top = t.iloc[0]
    return {
        "legal_hexes": len(t),
        "hexes_chosen": int((t["games"] > 0).sum()),
        "top_hex": f"{top['side']} {top['hex']}",
        "top_share": float(top["games"] / n) if n else float("nan"),
        "hexes_for_90pc": int(np.searchsorted(cum, 0.9 * n) + 1) if n else 0,
    }


@dataclass
class SetupResult:
    """What the study found: ``hexes`` (:func:`capital_table`), ``overall`` (the first
    player's wins and the draws over every game), the manifest and the legal hexes. Its
    summary, CSV and PDF map: ``analyses/hexgame/setup.py``."""

    spec: SetupSpec
    hexes: pd.DataFrame
    overall: dict
    manifest: dict
    legal: dict
    interrupted: bool = False


def base_manifest(spec: SetupSpec) -> dict:
    from manoeuvre_sim.hexgame.scenario import default_path

    sc = spec.load_scenario()
    p = spec.pairing()
    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "game": HX.KEY,
        "game_title": GAME_TITLE,
        "study": "hex setup",
        "rules_version": RULES_VERSION,
        "seed": spec.seed,
        "pairing_seed": p.seed,
        "scenario": sc.name,
        "scenario_file": str(spec.scenario or default_path()),
        "scenario_sha256": sc.sha256,
        "turns": spec.turns,
        "variant": spec.variant.record(),
        "options": asdict(spec.options()),
        "policies": [spec.policy_a, spec.policy_b],
        "capital": spec.capital,
        "games_requested": spec.games,
        "block": spec.block,
        "few_games": FEW_GAMES,
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
    }


def run_spec(spec: SetupSpec, *, out_dir=None, backend=None, resume=False, progress=None,
             command=None) -> SetupResult:  # fmt: skip
    """Play the study (games to ``out_dir/games.parquet/`` as they finish, resumable)."""
    store = Path(out_dir) / STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = base_manifest(spec)
    kept: list[pd.DataFrame] = []
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(done[0], spec.games)

    out = play(
        [spec.pairing()], blocks(0, 0, spec.games, spec.block), game="hex",
        options=spec.options(), threads=spec.threads, store=store, manifest=manifest,
        progress=tick, on_frame=lambda t, df, cs: kept.append(df[list(KEEP)]),
        backend=backend, resume=resume,
    )  # fmt: skip
    df = (pd.concat(kept, ignore_index=True).sort_values("game").reset_index(drop=True)
          if kept else pd.DataFrame(columns=list(KEEP)))  # fmt: skip
    legal = spec.legal_hexes()
    table = capital_table(df, legal)
    n = len(df)
    fw = int((df["winner"] == df["first_player"]).sum())
    dr = int((df["winner"] == "draw").sum())
    overall = {"games": n, "first_win": fw, "draw": dr,
               "first_win_rate": fw / n if n else float("nan"),
               "draw_rate": dr / n if n else float("nan")}  # fmt: skip
    manifest |= {
        "games": n,
        "interrupted": out.interrupted,
        "seconds": round(out.seconds, 3),
        "threads": out.threads,
        "backend": out.backend,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
        "command": command,
        "overall": overall,
        "concentration": {w: concentration(table, w) for w in ("first", "second")} if n else {},
    }
    return SetupResult(spec, table, overall, manifest, legal, out.interrupted)


def command_spec(
    *,
    games: int = 20000,
    seed: int = 1,
    policy_a: str = "capital",
    policy_b: str = "capital",
    border: str = "basic",
    quality: str | None = None,
    step_losses: str | None = None,
    step_replacements: str | None = None,
    capital: str = "player",
    turns: int = 10,
    scenario: str | None = None,
    block: int = 2000,
    threads: int = 0,
) -> SetupSpec:
    """The study ``manoeuvre-sim hex setup`` builds from its options, named as the command's
    Python names with its defaults (the command line and the workbench's jobs both build it
    here): every option checked, in the command line's words, before any game."""
    for flag, value in (("step_losses", step_losses), ("step_replacements", step_replacements)):
        if value not in (None, "off", "on"):
            raise UsageError(f"--{flag.replace('_', '-')}: expected off or on, got {value!r}")
    variants = variant_grid(border, quality, step_losses, step_replacements)
    if len(variants) != 1:
        raise UsageError("--border/--quality: expected one value each (one variant)")
    return SetupSpec(
        policy_a=policy_a, policy_b=policy_b, variant=variants[0], games=games, capital=capital,
        seed=seed, turns=turns, scenario=scenario, block=block, threads=threads,
    )  # fmt: skip
