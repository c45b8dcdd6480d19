"""Maneuver's what-if (``manoeuvre-sim hex whatif``): the base scenario and a variant of it
(an edited copy of the file, or ``--set`` edits applied in memory) played on the same seeds
(common random numbers: game *i* of pairing *p* seeded alike in both), for every ordered
pairing of the players, and per pairing and pooled the paired change in blue's, red's and
the first player's win rate and the draw rate, with its 95 % interval from the per-game
differences (:func:`manoeuvre_sim.core.stats.paired_interval`), and how many games changed
outcome. An identical variant gives exactly zero with a zero-width interval.

Python API::

    from manoeuvre_sim.analyses.hexgame import whatif as HW
    variant = HW.apply_edits(HW.load_raw(None), ["blue/infantry/strength=5"])
    res = HW.run(variant, games=2000, seed=1, out_dir="reports/hex-whatif")
    res.whatif         # per pairing and pooled: base, variant, change, interval
    res.write("reports/hex-whatif")

Edits (``--set``): ``SIDE/UNIT/FIELD=VALUE``; SIDE ``blue``, ``red`` or ``both``; UNIT an
entry of the side's ``[[sides.SIDE.units]]`` list by its ``name`` (e.g. ``Infantry``), by
its type (``infantry``: every entry of that type) or by its position ``#N`` (1-based);
FIELD ``strength``, ``attack``, ``defence`` (VALUE ``F`` sets the front side, ``F:R`` both
sides), ``ma`` or ``count`` (an integer).
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim import __version__
from manoeuvre_sim.analyses.common.study_dir import STORE, write_study_files, write_text
from manoeuvre_sim.analyses.hexgame.balance import kept_games
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.stats import paired_interval
from manoeuvre_sim.core.study import Pairing
from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION, parse_policy
from manoeuvre_sim.hexgame import adapter as HX
from manoeuvre_sim.hexgame.variants import Variant, one_variant, policy_names
from manoeuvre_sim.studies.whatif import play_paired

DEFAULT_POLICIES = ("capital", "attrition")
ALL = "all"
LABELS = ("base", "variant")
VARIANT_FILE = "variant_scenario.toml"
PAIR_FIELDS = ("strength", "attack", "defence")
INT_FIELDS = ("ma", "count")
TYPES = ("infantry", "cavalry", "artillery", "capital")
# (column stem, what it counts, from a frame of games)
OUTCOMES = (
    ("blue_win", "blue wins", lambda g: g["winner"] == "a"),
    ("red_win", "red wins", lambda g: g["winner"] == "b"),
    ("first_win", "first player wins", lambda g: g["winner"] == g["first_player"]),
    ("draw", "drawn", lambda g: g["winner"] == "draw"),
)


def load_raw(path: str | Path | None) -> dict:
    """A scenario file's TOML content (validated first; None: the built-in scenario)."""
    from manoeuvre_sim.core.data import read_toml
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario

    load_scenario(path)
    return read_toml(default_path() if path is None else path)


def _int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--set {where}: expected an integer, got {text!r}") from None


def apply_edit(raw: dict, edit: str) -> dict:
    """``raw`` with one ``SIDE/UNIT/FIELD=VALUE`` edit applied (a new dict; module doc)."""
    path, sep, value = edit.partition("=")
    parts = [p.strip() for p in path.split("/")]
    if not sep or len(parts) != 3 or not all(parts) or not value.strip():
        raise UsageError(
            f"--set {edit!r}: expected SIDE/UNIT/FIELD=VALUE, e.g. blue/infantry/strength=5"
        )
    side, unit, fld = parts
    value = value.strip()
    if side not in ("blue", "red", "both"):
        raise UsageError(f"--set {path}: expected the side blue, red or both, got {side!r}")
    if fld not in PAIR_FIELDS + INT_FIELDS:
        raise UsageError(
            f"--set {path}: expected a field {', '.join(PAIR_FIELDS + INT_FIELDS)}, got {fld!r}"
        )
    out = copy.deepcopy(raw)
    for s in ("blue", "red") if side == "both" else (side,):
        units = out["sides"][s]["units"]
        if unit.startswith("#"):
            i = _int(unit[1:], path)
            if not 1 <= i <= len(units):
                raise UsageError(f"--set {path}: {s} has units #1..#{len(units)}, got {unit}")
            hit = [units[i - 1]]
        else:
            hit = [u for u in units if u.get("type") == unit.lower() or u.get("name") == unit]
            if not hit:
                names = ", ".join(sorted({u.get("name", "?") for u in units}))
                raise UsageError(
                    f"--set {path}: no {s} unit named or of type {unit!r} "
                    f"(names: {names}; types: {', '.join(TYPES)}; or #N)"
                )
        for u in hit:
            if fld in INT_FIELDS:
                u[fld] = _int(value, path)
                continue
            if fld not in u:
                raise UsageError(
                    f"--set {path}: the {s} {u.get('type')} unit {u.get('name')!r} has no "
                    f"{fld} (it has {', '.join(k for k in PAIR_FIELDS if k in u)})"
                )
            front, colon, reduced = value.partition(":")
            new = [_int(front, path), _int(reduced, path) if colon else u[fld][1]]
            u[fld] = new
    return out


def apply_edits(raw: dict, edits: Sequence[str]) -> dict:
    """Every edit in turn; the result is validated as a scenario (a bad value: one line)."""
    from manoeuvre_sim.core.data import validate
    from manoeuvre_sim.hexgame.scenario import Scenario

    for e in edits:
        raw = apply_edit(raw, e)
    validate(Scenario, raw, "--set (the edited scenario)")
    return raw


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def to_toml(raw: dict) -> str:
    """A scenario's content as TOML (the layout of ``data/hexgame/default.toml``)."""
    lines = ["# written by manoeuvre-sim hex whatif: the variant scenario", ""]
    lines += [f"{k} = {_toml_value(v)}" for k, v in raw.items() if not isinstance(v, dict)]
    for name, b in raw.get("borders", {}).items():
        lines += ["", f"[borders.{name}]"] + [f"{k} = {_toml_value(v)}" for k, v in b.items()]
    for side, spec in raw.get("sides", {}).items():
        for u in spec["units"]:
            lines += ["", f"[[sides.{side}.units]]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in u.items()]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class WhatIfSpec:
    """Everything that decides the games (recorded in the manifest). ``variant``: the
    variant scenario's content; ``variant_file``: where it was read from (None: written)."""

    variant: dict
    base: str | None = None
    variant_file: str | None = None
    edits: tuple[str, ...] = ()
    rules: Variant = field(default_factory=Variant)
    policies: tuple[str, ...] = DEFAULT_POLICIES
    games: int = 2000
    seed: int = 1
    turns: int = 10
    block: int = 1000
    threads: int = 0

    def __post_init__(self) -> None:
        if not self.policies or len(set(self.policies)) != len(self.policies):
            raise UsageError(f"--policies: expected distinct players, got {self.policies!r}")
        for p in self.policies:
            try:
                parse_policy(p)
            except ValueError as e:
                raise UsageError(f"--policies: {e}") from None
        if self.games < 1:
            raise UsageError(f"--games-per-pairing: expected a positive number, got {self.games}")
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.block < 1 or self.threads < 0:
            raise UsageError("--block >= 1 and --threads >= 0 expected")
        from manoeuvre_sim.core.data import validate
        from manoeuvre_sim.hexgame.scenario import Scenario, load_scenario

        for sc in (load_scenario(self.base), validate(Scenario, self.variant, "variant")):
            if self.rules.border not in sc.borders:
                raise UsageError(
                    f"--border: {self.rules.border!r} is not a border of the scenario "
                    f"({', '.join(sc.borders)})"
                )
        self.rules.options(self.turns, self.base)  # checks quality and turns

    def pairings(self) -> list[Pairing]:
        """Base pairings (blue's player major), then the variant's on the same seeds."""
        blue, red = HX.load_side("blue"), HX.load_side("red")
        return [
            Pairing(blue, red, a, b, HX.seat_seed(self.seed, a, b), lab)
            for lab in LABELS
            for a in self.policies
            for b in self.policies
        ]


@dataclass
class WhatIfResult:
    spec: WhatIfSpec
    whatif: pd.DataFrame
    manifest: dict
    games: pd.DataFrame
    interrupted: bool = False

    def summary(self) -> list[str]:
        return summary_lines(self)

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """whatif.csv, manifest.json, summary.txt and hex_whatif.pdf into ``out_dir``."""
        from manoeuvre_sim.analyses.hexgame.whatif_pdf import write_whatif_pdf

        return write_study_files(
            out_dir, tables={"whatif": self.whatif}, manifest=self.manifest,
            summary=self.summary(),
            pdf=("hex_whatif.pdf", lambda path: write_whatif_pdf(path, self, paper=paper)),
        )  # fmt: skip


def command_spec(
    *,
    variant: str | None = None,
    edits: Sequence[str] = (),
    scenario: str | None = None,
    border: str = "basic",
    quality: str = "front:front",
    step_losses: bool = False,
    step_replacements: bool = False,
    policies: str | None = None,
    games_per_pairing: int = 2000,
    seed: int = 1,
    turns: int = 10,
    block: int = 1000,
    threads: int = 0,
) -> WhatIfSpec:
    """The what-if ``manoeuvre-sim hex whatif`` builds from its options by their Python
    names, with its defaults (the command line and the workbench's jobs both build it here):
    the variant from the ``variant`` file or the ``edits`` of the base ``scenario`` (None:
    the built-in one), every option checked before any game."""
    edits = tuple(edits)
    if (variant is None) == (not edits):
        raise UsageError("expected the variant as either --variant FILE or --set edits, not both")
    content = load_raw(variant) if variant else apply_edits(load_raw(scenario), edits)
    return WhatIfSpec(
        variant=content, base=scenario, variant_file=variant, edits=edits,
        rules=one_variant(border, quality, step_losses, step_replacements),
        policies=policy_names(policies), games=games_per_pairing, seed=seed, turns=turns,
        block=block, threads=threads,
    )  # fmt: skip


def run(variant: dict, *, out_dir=None, backend=None, resume=False, progress=None,
        command=None, **spec_kw) -> WhatIfResult:  # fmt: skip
    """Play the what-if of ``variant`` (a scenario's content, e.g. from :func:`apply_edits`)
    against ``base`` (keyword; None: the built-in scenario). ``out_dir``: the games go to
    ``out_dir/games.parquet/`` and an edited variant to ``out_dir/variant_scenario.toml``."""
    return run_spec(WhatIfSpec(variant=variant, **spec_kw), out_dir=out_dir, backend=backend,
                    resume=resume, progress=progress, command=command)  # fmt: skip


def _variant_path(spec: WhatIfSpec, out_dir) -> str:
    """The variant's file: ``--variant``'s, else the edited scenario written to
    ``out_dir/variant_scenario.toml`` (the games' options name a file)."""
    if spec.variant_file is not None:
        return spec.variant_file
    path = Path(out_dir) / VARIANT_FILE
    write_text(path, to_toml(spec.variant))
    return str(path)


def run_spec(spec: WhatIfSpec, *, out_dir=None, **kw) -> WhatIfResult:
    """Play ``spec``; without ``out_dir`` an edited variant's file lives in a temporary
    directory for the run's length (keywords: :func:`_run_spec`)."""
    if out_dir is None and spec.variant_file is None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="hex-whatif-") as tmp:
            return _run_spec(spec, _variant_path(spec, tmp), None, **kw)
    return _run_spec(spec, _variant_path(spec, out_dir), out_dir, **kw)


def _run_spec(spec, vpath, out_dir, *, backend=None, resume=False, progress=None, command=None):
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario

    base_sc, var_sc = load_scenario(spec.base), load_scenario(vpath)
    if var_sc.sha256 != load_scenario_from(spec.variant).sha256:
        raise UsageError(f"{vpath}: does not hold the variant scenario (changed meanwhile?)")
    store = Path(out_dir) / STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = {
        "tool": "manoeuvre-sim", "version": __version__, "game": HX.KEY,
        "game_title": GAME_TITLE, "study": "hex whatif", "rules_version": RULES_VERSION,
        "seed": spec.seed, "turns": spec.turns,
        "base_scenario": base_sc.name, "base_scenario_file": str(spec.base or default_path()),
        "base_scenario_sha256": base_sc.sha256,
        "variant_scenario_file": str(vpath), "variant_scenario_sha256": var_sc.sha256,
        "identical": base_sc.sha256 == var_sc.sha256, "edits": list(spec.edits),
        "rules": spec.rules.record(), "policies": list(spec.policies),
        "seeding": "pairing seed from (seed, 'hex:<blue player>@blue', 'hex:<red player>@red');"
        " base and variant play the same seeds",
        "games_per_pairing": spec.games, "block": spec.block,
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
    }  # fmt: skip
    pairings = spec.pairings()
    per = len(spec.policies) ** 2
    kept: list[pd.DataFrame] = []
    played = play_paired(
        pairings[:per], {k: pairings[per + k] for k in range(per)}, game="hex",
        games=spec.games, block=spec.block, options=spec.rules.options(spec.turns, spec.base),
        variant_options=spec.rules.options(spec.turns, vpath),
        on_frame=lambda t, df, cs, which: kept.append(df[list(KEEP)]), progress=progress,
        threads=spec.threads, store=store, manifest=manifest, backend=backend, resume=resume,
    )  # fmt: skip
    out = played.outcome
    games = kept_games(kept, KEEP)
    res = WhatIfResult(spec, build_table(spec, games), manifest, games, out.interrupted)
    res.manifest |= {
        "games": int(sum(out.games.values())), "interrupted": out.interrupted,
        "seconds": round(out.seconds, 3), "threads": out.threads,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"), "command": command,
    }  # fmt: skip
    return res


def load_scenario_from(raw: dict):
    from manoeuvre_sim.core.data import validate
    from manoeuvre_sim.hexgame.scenario import Scenario

    return validate(Scenario, raw, "variant")


KEEP = ("label", "pairing", "game", "seed", "policy_a", "policy_b", "first_player", "winner")


def paired_games(games: pd.DataFrame) -> pd.DataFrame:
    """One row per game played in both runs: ``winner_base``, ``winner_variant``, ...
    (games only one run finished, after an interruption, are left out)."""
    key = ["policy_a", "policy_b", "game"]
    cols = key + ["seed", "first_player", "winner"]
    b = games.loc[games["label"] == "base", cols]
    v = games.loc[games["label"] == "variant", cols]
    return b.merge(v, on=key, suffixes=("_base", "_variant"), validate="one_to_one")


def _row(g: pd.DataFrame) -> dict:
    n = len(g)
    row: dict = {"games": n}
    for stem, _, f in OUTCOMES:
        base = f(g.rename(columns=lambda c: c.removesuffix("_base"))).to_numpy(np.float64)
        var = f(g.rename(columns=lambda c: c.removesuffix("_variant"))).to_numpy(np.float64)
        d = var - base
        mean, lo, hi = paired_interval(d.sum(), (d * d).sum(), n)
        row |= {f"{stem}_rate_base": base.mean(), f"{stem}_rate_variant": var.mean(),
                f"{stem}_change": float(mean), f"{stem}_change_ci_low": float(lo),
                f"{stem}_change_ci_high": float(hi)}  # fmt: skip
    row["changed_games"] = int((g["winner_base"] != g["winner_variant"]).sum())
    row["changed_share"] = row["changed_games"] / n
    return row


def build_table(spec: WhatIfSpec, games: pd.DataFrame) -> pd.DataFrame:
    """Per ordered pairing, then ``all`` pooled: base and variant rates, the paired change
    and its 95 % interval, the games whose outcome changed."""
    pg = paired_games(games)
    rows = []
    for a in spec.policies:
        for b in spec.policies:
            g = pg[(pg["policy_a"] == a) & (pg["policy_b"] == b)]
            if len(g):
                rows.append({"policy_blue": a, "policy_red": b} | _row(g))
    if len(spec.policies) > 1 and len(pg):
        rows.append({"policy_blue": ALL, "policy_red": ALL} | _row(pg))
    out = pd.DataFrame(rows)
    if len(out):
        out[["games", "changed_games"]] = out[["games", "changed_games"]].astype(np.int64)
    return out


def _pc(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}"


def _pp(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:+.1f}"


def summary_lines(res: WhatIfResult) -> list[str]:
    m, spec = res.manifest, res.spec
    out = [
        f"{GAME_TITLE}: what-if",
        f"base {m['base_scenario_file']} (sha256 {m['base_scenario_sha256'][:16]})",
        f"variant {m['variant_scenario_file']} (sha256 {m['variant_scenario_sha256'][:16]})"
        + (" — identical to the base" if m["identical"] else ""),
        *(["edits: " + "; ".join(spec.edits)] if spec.edits else []),
        f"rules {m['rules_version']}; {spec.rules.name}; {spec.turns} turns; seed {m['seed']}; "
        f"{spec.games:,} games per pairing and scenario, the same seeds in both",
        "rates in %; change = variant - base in points, 95 % paired interval from the "
        "per-game differences",
    ]
    if res.interrupted:
        out.append("INTERRUPTED: the table covers the games both runs finished")
    for stem, name, _ in OUTCOMES:
        out += ["", f"{name}:"]
        out.append(f"  {'blue v red':<24} {'games':>6} {'base':>6} {'variant':>8} "
                   f"{'change':>7}  95 % interval")  # fmt: skip
        for r in res.whatif.itertuples(index=False):
            pair = "all pairings" if r.policy_blue == ALL else f"{r.policy_blue} v {r.policy_red}"
            lo, hi = getattr(r, f"{stem}_change_ci_low"), getattr(r, f"{stem}_change_ci_high")
            out.append(
                f"  {pair:<24} {r.games:>6} {100 * getattr(r, f'{stem}_rate_base'):>6.1f} "
                f"{100 * getattr(r, f'{stem}_rate_variant'):>8.1f} "
                f"{_pp(getattr(r, f'{stem}_change')):>7}  [{_pp(lo)}, {_pp(hi)}]"
            )
    out += ["", "games whose outcome (the winner, or a draw) changed:"]
    for r in res.whatif.itertuples(index=False):
        pair = "all pairings" if r.policy_blue == ALL else f"{r.policy_blue} v {r.policy_red}"
        out.append(f"  {pair:<24} {r.changed_games:>6,} of {r.games:,} ({_pc(r.changed_share)} %)")
    return out


__all__ = ["WhatIfResult", "WhatIfSpec", "apply_edit", "apply_edits", "build_table",
           "load_raw", "paired_games", "run", "run_spec", "to_toml"]  # fmt: skip
