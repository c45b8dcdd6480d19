"""The ``tune`` command's inputs and outputs: option strings to a :class:`TuneSpec`, and a
run's result to its files (the styles file, the log, the held-out table, the summary and
the manifest), each written atomically."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.styles import Policy
from manoeuvre_sim.manoeuvre.tune import (
    DEFAULT_AGAINST,
    DEFAULT_FIXED,
    DEFAULT_POOL,
    FLAGS,
    Space,
    TuneSpec,
    parse_bounds,
)
from manoeuvre_sim.manoeuvre.tune_games import PAIRINGS

# --- the files ---------------------------------------------------------------------------------
STYLES_FILE = "styles.toml"
LOG_FILE = "generations.csv"
HELDOUT_FILE = "heldout.csv"
SUMMARY_FILE = "summary.txt"
MANIFEST_FILE = "manifest.json"


def styles_toml(spec: TuneSpec, space: Space, params: np.ndarray, manifest: dict) -> str:
    """The result as a styles file for ``tournament --styles``: every parameter written,
    so the style does not change if the base style's defaults do."""
    lines = [
        f"# {spec.name}: tuned by manoeuvre-sim tune (CMA-ES, seed {spec.seed}), rules "
        f"{manifest['rules_version']}; {manifest['generations_done']} generation(s) of "
        f"{manifest['popsize']} candidates, {manifest['games_per_candidate']:,} games each",
        f"# status: {manifest['status']}; the search's centre after the last finished "
        "generation, rounded to 4 decimals",
    ]
    if spec.command:
        lines.append(f"# command: {spec.command}")
    lines += ["", f"[styles.{spec.name}]", f'base = "{spec.base.base}"']
    for n, v in zip(space.names, params, strict=True):
        lines.append(f"{n} = {int(v) if n in FLAGS else repr(float(v))}")
    return "\n".join(lines) + "\n"


def summary_lines(
    spec: TuneSpec, space: Space, params: np.ndarray, log: list[dict], heldout: list[dict],
    manifest: dict,
) -> list[str]:  # fmt: skip
    m = manifest
    out = [
        f"tune: {spec.name} from {spec.base.name}, seed {spec.seed}, rules "
        f"{m['rules_version']}, data {m['data_hash']}",
        f"pool: {', '.join(p.name for p in spec.pool)}; armies ({spec.pairings}): "
        f"{', '.join(a.name for a in spec.armies)}",
        f"{m['generations_done']}/{spec.generations} generation(s) of {m['popsize']} "
        f"candidates + the centre, {m['games_per_candidate']:,} games each (the same games "
        f"for all of a generation); {m['games_played']:,} games in {m['seconds']:.0f} s; "
        f"status {m['status']}",
    ]
    if m.get("stop"):
        out.append(f"the optimiser stopped early: {', '.join(m['stop'])}")
    if space.held:
        out.append(
            "held: "
            + "; ".join(
                f"{n} = {space.base[space.names.index(n)]:g} ({why})"
                for n, why in space.held.items()
            )  # fmt: skip
        )
    if log:
        first, last = log[0], log[-1]
        out.append(
            f"centre's score against the pool on its generation's games: "
            f"{first['fitness_centre']:.3f} (generation 1, the base) -> "
            f"{last['fitness_centre']:.3f} (generation {last['generation'] + 1})"
        )
    out.append("")
    out.append(f"{'parameter':<16}{'base':>10}{spec.name:>12}")
    for i, n in enumerate(space.names):
        mark = "" if i in space.free else "  (held)"
        out.append(f"{n:<16}{space.base[i]:>10.4g}{params[i]:>12.4g}{mark}")
    if heldout:
        out.append("")
        out.append(
            f"held-out: {spec.name} against each style, seeds never used in tuning, each "
            "army against itself, both seatings (draws count half; 95% Wilson interval)"
        )
        out.append(f"{'opponent':<14}{'games':>8}{'win rate':>10}  {'95% CI':<18}{'draws':>7}")
        for r in heldout:
            out.append(
                f"{r['opponent']:<14}{r['games']:>8,}{r['win_rate']:>10.3f}  "
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]{'':<2}{r['draws']:>7,}"
            )
    return out


def write_outputs(
    out: Path, spec: TuneSpec, space: Space, params: np.ndarray, log: list[dict],
    heldout: list[dict], manifest: dict,
) -> None:  # fmt: skip
    import csv
    import io
    import json

    from manoeuvre_sim.core.fileio import atomic_write

    out.mkdir(parents=True, exist_ok=True)
    with atomic_write(out / STYLES_FILE, encoding="utf-8") as f:
        f.write(styles_toml(spec, space, params, manifest))
    for name, rows in ((LOG_FILE, log), (HELDOUT_FILE, heldout)):
        if not rows:
            continue
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        with atomic_write(out / name, encoding="utf-8") as f:
            f.write(buf.getvalue())
    with atomic_write(out / SUMMARY_FILE, encoding="utf-8") as f:
        f.write("\n".join(summary_lines(spec, space, params, log, heldout, manifest)) + "\n")
    with atomic_write(out / MANIFEST_FILE, encoding="utf-8") as f:
        f.write(json.dumps(manifest | {"heldout": heldout}, indent=2) + "\n")


def checkpoint(out: str | Path):
    """The ``checkpoint`` function ``tune.run`` calls after every generation: the run so far
    written to the directory ``out`` (:func:`write_outputs`)."""
    out = Path(out)

    def save(spec: TuneSpec, space: Space, params: np.ndarray, log: list[dict],
             heldout: list[dict], manifest: dict) -> None:  # fmt: skip
        write_outputs(out, spec, space, params, log, heldout, manifest)

    return save


def written(out: Path) -> list[str]:
    names = (STYLES_FILE, LOG_FILE, HELDOUT_FILE, SUMMARY_FILE, MANIFEST_FILE)
    return [n for n in names if (Path(out) / n).exists()]


# --- options -----------------------------------------------------------------------------------
def _names(opt: str, text: str | None) -> list[str]:
    items = [x.strip() for x in (text or "").split(",") if x.strip()]
    if not items:
        raise UsageError(f"{opt}: expected a comma-separated list of names")
    return items


def _policy(opt: str, name: str, known: dict[str, Policy]) -> Policy:
    if name not in known:
        raise UsageError(f"{opt}: unknown policy {name!r}; expected one of {', '.join(known)}")
    return known[name]


def spec_from_options(
    *,
    base: str = "balanced",
    pool: str = ",".join(DEFAULT_POOL),
    armies: str | None = None,
    pairings: str = "mirror",
    games_per_eval: int = 960,
    generations: int = 30,
    popsize: int | None = None,
    sigma: float = 2.0,
    seed: int = 1,
    fix: str = ",".join(DEFAULT_FIXED),
    bounds: Sequence[str] = (),
    against: str = ",".join(DEFAULT_AGAINST),
    eval_games: int = 4400,
    styles_file: str | None = None,
    name: str = "tuned_new",
    threads: int = 0,
    command: str = "",
    options=None,
) -> TuneSpec:
    """A :class:`TuneSpec` from the command line's option values (every one checked, every
    army loaded); ``options``: the games' rule options (``manoeuvre.adapter.RuleOptions``)."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army, load_builtin_armies
    from manoeuvre_sim.manoeuvre.styles import builtin_policies, load_styles

    known = builtin_policies() | (load_styles(styles_file) if styles_file else {})
    base_p = _policy("--base", base.strip(), known)
    pool_p = tuple(_policy("--pool", n, known) for n in _names("--pool", pool))
    against_p = tuple(_policy("--against", n, known) for n in _names("--against", against))
    if armies is None:
        loaded = load_builtin_armies()
        sources = [a.name for a in loaded]
    else:
        loaded, sources = [], []
        for a in _names("--armies", armies):
            loaded.append(find_army(a))
            check_playable(loaded[-1])
            p = Path(a)
            sources.append(str(p.resolve()) if p.suffix.lower() == ".toml" else loaded[-1].name)
    if pairings not in PAIRINGS:
        raise UsageError(f"--pairings: expected one of {', '.join(PAIRINGS)}, got {pairings!r}")
    fixed = tuple(x.strip() for x in fix.split(",") if x.strip())
    b = parse_bounds(bounds)
    spec = TuneSpec(
        base=base_p, pool=pool_p, armies=tuple(loaded), against=against_p, pairings=pairings,
        games_per_eval=games_per_eval, generations=generations, popsize=popsize, sigma=sigma,
        seed=seed, eval_games=eval_games, threads=threads, name=name, fixed=fixed,
        bounds=tuple((n, lo, hi) for n, (lo, hi) in b.items()), command=command,
        sources=tuple(sources), **({} if options is None else {"options": options}),
    )  # fmt: skip
    spec.space()  # checks --fix and --bounds against the base
    return spec
