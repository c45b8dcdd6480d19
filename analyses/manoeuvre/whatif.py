"""What-if experiments: the balance study of the base data against a variant, paired.

Every game of the variant replays the seed of the same game of the base run (common random
numbers): a changed army keeps the base army's seeding name, so the maps, the first-player
roll and the deals are the same wherever the change does not alter them. The change of a
win rate is the mean of the per-game differences of score (win 1, draw 1/2, loss 0), and its
95 % interval comes from those differences (Student t), so it is far narrower than the
difference of two independent studies. An identical variant gives exactly zero everywhere.

Python API::

    from manoeuvre_sim.analyses.manoeuvre import whatif
    res = whatif.run(["France", "Russia", "Spain"], edits=["France/Garde Imperial/full=9"],
                     games_per_pairing=500, seed=1)
    res.whatif         # one row per (changed army, opponent), plus its "field" row
    res.field          # per changed army: field win rate and rating, base vs variant
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from manoeuvre_sim.analyses.manoeuvre import balance as B
from manoeuvre_sim.analyses.manoeuvre import tally as T
from manoeuvre_sim.core import stats
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
from manoeuvre_sim.manoeuvre.adapter import army_hash
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.studies.whatif import BASE, VARIANT, WINNERS, play_paired

FIELD = "field"


@dataclass(frozen=True)
class WhatIfSpec:
    """The base study and the variant armies (same order and seeding names as the base).

    ``touched``: the armies whose variant is played (every pairing with one of them is
    replayed with the variant data, even when the data did not change, so an identical
    variant is a real test of the pairing); ``changes``: what was changed, in words.
    """

    base: B.BalanceSpec
    variant_armies: tuple[Army, ...]
    touched: tuple[str, ...]
    changes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.base.policies) != 1:
            raise UsageError("whatif: expected one policy (or --policy-a/-b), not --policies")
        if self.base.precision is not None:
            raise UsageError("whatif: --precision is not available; give --games-per-pairing")
        if [a.name for a in self.variant_armies] != self.base.names:
            raise UsageError("whatif: the variant must hold the same armies as the base")
        if not self.touched:
            raise UsageError("whatif: nothing to change: give --variant FILE or --set")


@dataclass
class WhatIfResult:
    spec: WhatIfSpec
    whatif: pd.DataFrame
    field: pd.DataFrame
    base: B.BalanceResult
    manifest: dict
    interrupted: bool = False
    store: Path | None = None
    identical: bool = False

    def summary(self) -> list[str]:
        return summary_lines(self)

    def to_pdf(self, path: str | Path, paper: str = "a4") -> Path:
        from manoeuvre_sim.analyses.manoeuvre.balance_pdf import write_whatif_pdf

        return write_whatif_pdf(
            path, self.whatif, B.provenance(self.manifest), paper=paper,
            changes=self.spec.changes, summary_lines=self.summary(),
        )  # fmt: skip

    def write_variant_armies(self, out_dir: Path) -> list[Path]:
        """Each changed army's data as the variant played it, ``variant/<army>.army.json``
        (``model.write_army_data``), named in the manifest's ``variant.armies`` entries
        (``file``): what a replay of a variant's game loads."""
        from manoeuvre_sim.manoeuvre.model.load import ARMY_DATA_SUFFIX, write_army_data

        entries = {e["name"]: e for e in self.manifest.get("variant", {}).get("armies", [])}
        written = []
        for k, army in enumerate(a for a in self.spec.variant_armies if a.name in entries):
            slug = re.sub(r"[^a-z0-9]+", "_", army.name.casefold()).strip("_") or "army"
            rel = f"variant/{k:02d}_{slug}{ARMY_DATA_SUFFIX}"
            (out_dir / "variant").mkdir(parents=True, exist_ok=True)
            written.append(write_army_data(army, out_dir / rel))
            entries[army.name]["file"] = rel
        return written

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        from manoeuvre_sim.core.results import write_json

        out_dir = Path(out_dir)
        kept = self.write_variant_armies(out_dir)
        return [
            *kept,
            B.write_csv(self.whatif, out_dir / "whatif.csv"),
            B.write_csv(self.field, out_dir / "whatif_field.csv"),
            write_json(out_dir / "manifest.json", self.manifest),
            B.write_text(out_dir / "summary.txt", "\n".join(self.summary()) + "\n"),
            self.to_pdf(out_dir / "whatif.pdf", paper=paper),
        ]


def make_spec(
    base: B.BalanceSpec,
    *,
    variant_files: Sequence[str] = (),
    edits: Sequence[str] = (),
    relax: bool = False,
) -> WhatIfSpec:
    """The variant from army files (each replaces the base army of the same name) and
    ``--set`` edits (applied after the files)."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits, describe_changes

    by_name = {a.name: a for a in base.armies}
    touched: list[str] = []
    changes: list[str] = []
    for f in variant_files:
        v = find_army(f, relax=relax)
        check_playable(v)
        if v.name not in by_name:
            raise UsageError(
                f"--variant {f}: its army is named {v.name!r}, which is not in the field "
                f"({', '.join(by_name)}); a variant keeps the name of the army it changes"
            )
        lines = describe_changes(by_name[v.name], v)
        changes += [f"{f}: {x}" for x in lines] or [f"{f}: no change to {v.name}"]
        by_name[v.name] = v
        touched.append(v.name)
    if edits:
        edited, lines = apply_edits(by_name, list(edits), relax=relax)
        for e in edits:
            name = _edit_army(e, edited)
            if name and name not in touched:
                touched.append(name)
        by_name = edited
        changes += lines
    variant = tuple(by_name[a.name] for a in base.armies)
    touched = [a.name for a in base.armies if a.name in touched]
    return WhatIfSpec(base, variant, tuple(touched), tuple(changes))


def command_spec(
    armies: str | Sequence[str] | None = None,
    *,
    variant_files: Sequence[str] = (),
    edits: Sequence[str] = (),
    relax: bool = False,
    **base_options,
) -> WhatIfSpec:
    """The what-if ``manoeuvre-sim whatif`` builds from its options by their Python names
    (the command line and the workbench's jobs both build it here): the base study as
    ``balance`` builds it (:func:`balance.command_spec`, ``base_options``), then the variant
    from ``variant_files`` and ``edits``; every option checked before any game."""
    base = B.command_spec(armies, relax=relax, **base_options)
    return make_spec(base, variant_files=variant_files, edits=edits, relax=relax)


def _edit_army(edit: str, armies: dict[str, Army]) -> str | None:
    head = edit.split("=", 1)[0].split("/", 1)[0].strip().casefold().replace("_", " ")
    for name in armies:
        if name.casefold() == head:
            return name
    return None


def run(
    armies: Sequence[str | Army],
    *,
    edits: Sequence[str] = (),
    variant_files: Sequence[str] = (),
    games_per_pairing: int = B.DEFAULT_GAMES,
    policy: str = DEFAULT_POLICY,
    seed: int = 1,
    relax: bool = False,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    **spec_kw,
) -> WhatIfResult:
    """Build the spec from names/files and edits, and run it (see :func:`run_spec`)."""
    loaded, sources = B.resolve_armies(armies, relax=relax)
    base = B.BalanceSpec(
        armies=tuple(loaded), policies=B.policy_specs(policy),
        games_per_pairing=games_per_pairing, seed=seed, sources=tuple(sources), **spec_kw,
    )  # fmt: skip
    spec = make_spec(base, variant_files=variant_files, edits=edits, relax=relax)
    return run_spec(spec, out_dir=out_dir, progress=progress)


def _score(seat: str) -> np.ndarray:
    """Score of the side in ``seat`` for winner codes a, b, draw."""
    return np.array([1.0, 0.0, 0.5]) if seat == "a" else np.array([0.0, 1.0, 0.5])


def run_spec(
    spec: WhatIfSpec,
    *,
    out_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    boot: int = 200,
    backend=None,
    resume: bool = False,
) -> WhatIfResult:
    """Play the base study and, with the same seeds, every pairing of a touched army with
    the variant data; compare them pair by pair."""
    base_spec = spec.base
    base_pairings = base_spec.pairings()
    var_by_name = {a.name: a for a in spec.variant_armies}
    affected = [
        i
        for i, p in enumerate(base_pairings)
        if p.army_a.name in spec.touched or p.army_b.name in spec.touched
    ]
    nb = len(base_pairings)
    variant = {
        i: replace(base_pairings[i], army_a=var_by_name[base_pairings[i].army_a.name],
                   army_b=var_by_name[base_pairings[i].army_b.name], label=VARIANT)
        for i in affected
    }  # fmt: skip
    n = base_spec.games_per_pairing
    store = Path(out_dir) / B.STORE if out_dir is not None else None
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    manifest = B.base_manifest(base_spec)
    manifest["study"] = "whatif"
    manifest["variant"] = {
        "touched": list(spec.touched),
        "changes": list(spec.changes),
        "armies": [
            {"name": a.name, "data_hash": army_hash(a)}
            for a in spec.variant_armies
            if a.name in spec.touched
        ],
    }
    tb, tv = T.Tally(), T.Tally()
    played = play_paired(
        [replace(p, label=BASE) for p in base_pairings], variant, game="manoeuvre", games=n,
        block=base_spec.block, options=base_spec.options,
        on_frame=lambda task, df, stats, which: (tb if which == BASE else tv).add(df),
        progress=progress, threads=base_spec.threads, store=store, manifest=manifest,
        backend=backend, resume=resume,
    )  # fmt: skip
    outcome, joint = played.outcome, played.joint
    # only fully paired blocks count (an interrupt can fall between a base and its variant)
    t_base = tb.table
    base_res = B.build_result(base_spec, t_base, manifest, boot=0)
    wi, fld = compare(spec, base_pairings, affected, joint.counts, t_base, boot=boot)
    identical = all(a == b for a, b in zip(spec.variant_armies, base_spec.armies, strict=True))
    games = int(t_base["games"].sum()) + int(tv.table["games"].sum())
    manifest |= {
        "games": games,
        "games_per_pairing_reached": {"min": n, "max": n},
        "paired_games": joint.paired_games,
        "identical_variant": identical,
        "interrupted": outcome.interrupted,
        "seconds": round(outcome.seconds, 3),
        "threads": outcome.threads,
        "backend": outcome.backend,
        "finished": _dt.datetime.now().isoformat(timespec="seconds"),
    }
    if outcome.interrupted:
        reached = [outcome.games.get(i, 0) for i in range(nb)]
        manifest["games_per_pairing_reached"] = {"min": min(reached), "max": max(reached)}
    return WhatIfResult(spec, wi, fld, base_res, manifest, outcome.interrupted, store, identical)


def _groups_from_joint(c: np.ndarray, which: str) -> np.ndarray:
    """(2 first x 3 winner) counts of the base or variant side of a joint table."""
    c = c.reshape(2, 3, 2, 3)
    return (c.sum(axis=(2, 3)) if which == "base" else c.sum(axis=(0, 1))).reshape(6)


def _fit_groups(pairings, groups: dict[int, np.ndarray], names) -> np.ndarray:
    """Bradley-Terry ratings (with the first-player term, as ``tally.ratings`` fits them)
    straight from per-pairing (first player x winner) counts."""
    pos = {a: k for k, a in enumerate(names)}
    rows = []
    for i, g in groups.items():
        p = pairings[i]
        for f in range(2):
            wins, losses, draws = (int(x) for x in g[f * 3 : f * 3 + 3])
            if wins + losses + draws:
                rows.append((pos[p.army_a.name], pos[p.army_b.name], wins + 0.5 * draws,
                             wins + losses + draws, 1 if f == 0 else -1))  # fmt: skip
    a = np.array(rows, dtype=np.float64)
    fit = stats.bradley_terry(names, a[:, 0], a[:, 1], a[:, 2], a[:, 3], first=a[:, 4])
    return fit.ratings


def _base_groups(t: pd.DataFrame, pairings) -> dict[int, np.ndarray]:
    out = {}
    key = {(p.army_a.name, p.army_b.name): i for i, p in enumerate(pairings)}
    g = t.groupby(["army_a", "army_b", "first_player", "winner"], observed=True)["games"].sum()
    for (a, b, f, w), n in g.items():
        i = key[(a, b)]
        arr = out.setdefault(i, np.zeros(6, np.int64))
        arr["ab".index(f) * 3 + WINNERS.index(w)] += int(n)
    return out


def compare(spec: WhatIfSpec, pairings, affected, joint, t_base, *, boot: int = 200):
    """The paired comparison: per (touched army, opponent) and per touched army over the
    field; the rating change with a paired bootstrap interval."""
    names = spec.base.names
    z = stats.z_value()
    rows = []
    field_rows = []
    pos = {(p.army_a.name, p.army_b.name): i for i, p in enumerate(pairings)}
    for x in spec.touched:
        cells = []
        for y in names:
            if y == x:
                continue
            acc = {"n": 0, "sb": 0.0, "sv": 0.0, "d": 0.0, "d2": 0.0, "changed": 0}
            for seat, key in (("a", (x, y)), ("b", (y, x))):
                i = pos[key]
                if i not in joint:
                    continue
                c = joint[i].reshape(2, 3, 2, 3).sum(axis=(0, 2))  # winner base x variant
                s = _score(seat)
                d = s[None, :] - s[:, None]  # variant minus base
                acc["n"] += int(c.sum())
                acc["sb"] += float((c.sum(axis=1) * s).sum())
                acc["sv"] += float((c.sum(axis=0) * s).sum())
                acc["d"] += float((c * d).sum())
                acc["d2"] += float((c * d * d).sum())
                acc["changed"] += int(c.sum() - np.trace(c))
            if acc["n"] == 0:
                continue
            nn = acc["n"]
            mean, lo, hi = stats.paired_interval(acc["d"], acc["d2"], nn)
            var_d = max(acc["d2"] / nn - (acc["d"] / nn) ** 2, 0.0)
            cells.append((acc, var_d))
            rows.append(
                {
                    "army": x,
                    "opponent": y,
                    "games": nn,
                    "base_win_rate": acc["sb"] / nn,
                    "variant_win_rate": acc["sv"] / nn,
                    "delta": float(mean),
                    "delta_low": float(lo),
                    "delta_high": float(hi),
                    "changed_games": acc["changed"] / nn,
                }
            )
        if not cells:
            continue
        k = len(cells)
        base_f = sum(a["sb"] / a["n"] for a, _ in cells) / k
        var_f = sum(a["sv"] / a["n"] for a, _ in cells) / k
        delta = sum(a["d"] / a["n"] for a, _ in cells) / k
        se = np.sqrt(sum(v / a["n"] for a, v in cells)) / k
        half = 0.0 if all(a["d2"] == 0 for a, _ in cells) else z * se
        tot = sum(a["n"] for a, _ in cells)
        changed = sum(a["changed"] for a, _ in cells) / tot
        rows.append(
            {
                "army": x, "opponent": FIELD, "games": tot, "base_win_rate": base_f,
                "variant_win_rate": var_f, "delta": delta, "delta_low": delta - half,
                "delta_high": delta + half, "changed_games": changed,
            }
        )  # fmt: skip
        field_rows.append(
            {
                "army": x, "games": tot, "base_field_win_rate": base_f,
                "variant_field_win_rate": var_f, "delta": delta, "delta_low": delta - half,
                "delta_high": delta + half, "changed_games": changed,
            }
        )  # fmt: skip
    wi = pd.DataFrame(rows)
    fld = pd.DataFrame(field_rows)
    if len(fld):
        fld = fld.join(_rating_change(spec, pairings, affected, joint, t_base, boot), on="army")
    return wi, fld


def _rating_change(spec, pairings, affected, joint, t_base, boot: int) -> pd.DataFrame:
    """Bradley-Terry rating and rank, base and variant, and the change with a paired
    bootstrap interval (the joint base/variant tables resampled together)."""
    names = spec.base.names
    base_groups = _base_groups(t_base, pairings)
    if any(i not in base_groups for i in range(len(pairings))):
        nan = float("nan")
        cols = ["base_rating", "variant_rating", "rating_delta", "rating_delta_low",
                "rating_delta_high", "base_rank", "variant_rank"]  # fmt: skip
        return pd.DataFrame({c: [nan] * len(spec.touched) for c in cols}, index=spec.touched)

    def fit(groups_base, groups_var):
        return _fit_groups(pairings, groups_base, names), _fit_groups(pairings, groups_var, names)

    def split(jt):
        gb = dict(base_groups)
        gv = dict(base_groups)
        for i, c in jt.items():
            gb[i] = _groups_from_joint(c, "base")
            gv[i] = _groups_from_joint(c, "variant")
        return gb, gv

    rb, rv = fit(*split(joint))
    deltas = np.zeros((max(boot, 0), len(names)))
    rng = np.random.default_rng([int(spec.base.seed), 0x3F])
    for b in range(max(boot, 0)):
        jt = {i: rng.multinomial(int(c.sum()), c / c.sum()) for i, c in joint.items()}
        gb = {
            i: (rng.multinomial(int(g.sum()), g / g.sum()) if i not in joint else None)
            for i, g in base_groups.items()
        }
        gb = {i: g for i, g in gb.items() if g is not None}
        for i, c in jt.items():
            gb[i] = _groups_from_joint(c, "base")
        gv = dict(gb)
        for i, c in jt.items():
            gv[i] = _groups_from_joint(c, "variant")
        x, y = fit(gb, gv)
        deltas[b] = y - x
    lo = np.quantile(deltas, 0.025, axis=0) if boot > 0 else np.full(len(names), np.nan)
    hi = np.quantile(deltas, 0.975, axis=0) if boot > 0 else np.full(len(names), np.nan)
    rkb = stats.ranks_from_ratings(rb)
    rkv = stats.ranks_from_ratings(rv)
    rows = {}
    for k, a in enumerate(names):
        if a in spec.touched:
            rows[a] = {
                "base_rating": rb[k], "variant_rating": rv[k], "rating_delta": rv[k] - rb[k],
                "rating_delta_low": lo[k], "rating_delta_high": hi[k],
                "base_rank": int(rkb[k]), "variant_rank": int(rkv[k]),
            }  # fmt: skip
    return pd.DataFrame.from_dict(rows, orient="index")


def summary_lines(res: WhatIfResult) -> list[str]:
    m = res.manifest
    out = [
        f"what-if: {len(res.spec.base.armies)} armies, {m['games']:,} games "
        f"({res.spec.base.games_per_pairing:,} per ordered pairing, base and variant on the "
        f"same seeds), seed {m['seed']}, rules {m['rules_version']}, base data "
        f"{m['data_hash']}"
    ]
    if B.setup_text(m):
        out.append(f"{B.setup_text(m)} — not the default random set-up (docs/game-options.md)")
    if res.interrupted:
        out.append("INTERRUPTED: the tables cover the paired games finished before the stop")
    out.append("changes:")
    out += [f"  {c}" for c in res.spec.changes]
    if res.identical:
        out.append(
            "the variant's data are identical to the base data: every change below is "
            "exactly 0 (the paired games replay the base games)"
        )
    out.append("")
    out.append("change in win rate (variant minus base, points; paired 95 % interval):")
    for r in res.whatif.itertuples(index=False):
        out.append(
            f"  {r.army:<16} vs {r.opponent:<16} {100 * r.base_win_rate:5.1f} -> "
            f"{100 * r.variant_win_rate:5.1f}  {100 * r.delta:+6.2f} "
            f"[{100 * r.delta_low:+.2f}, {100 * r.delta_high:+.2f}]  outcome changed in "
            f"{100 * r.changed_games:.1f} % of {r.games:,} games"
        )
    for r in res.field.itertuples(index=False):
        out.append(
            f"{r.army}: rating {r.base_rating:.0f} -> {r.variant_rating:.0f} Elo "
            f"({r.rating_delta:+.1f} [{r.rating_delta_low:+.1f}, {r.rating_delta_high:+.1f}]), "
            f"rank {r.base_rank} -> {r.variant_rank}"
        )
    return out


def rankings(study_dir: str | Path, *, boot: int = 200) -> pd.DataFrame:
    """Every army's rank, Bradley-Terry rating and field win rate before the change and
    after it, each with its interval (``tally.armies``, as a balance study ranks them),
    read from a what-if study's store: before, the base's games; after, the same games
    with each one the variant replayed taken from the variant (the pairings no changed army
    plays are the same games in both). Only paired games count (an interrupted study may
    hold a base game whose variant was not played). One row per army, in the order of its
    rank after the change; columns ``army``, then ``rank``, ``rank_low``, ``rank_high``,
    ``rating``, ``rating_low``, ``rating_high``, ``field_win_rate``, ``ci_low``,
    ``ci_high`` and ``games``, each prefixed ``before_`` and ``after_``. Empty when the
    store holds no paired games."""
    import json

    from manoeuvre_sim.core.store import STORE, read_store

    study_dir = Path(study_dir)
    games = read_store(study_dir / STORE)
    if games.empty or "label" not in games:
        return pd.DataFrame()
    m = json.loads((study_dir / "manifest.json").read_text(encoding="utf-8"))
    order = [a["name"] if isinstance(a, dict) else str(a) for a in m.get("armies", [])]
    key = ["army_a", "army_b", "game"]
    base = games[games["label"] == BASE]
    variant = games[games["label"] == VARIANT]
    mark = base[key].merge(variant[key], on=key, how="left", indicator=True)["_merge"]
    replayed = mark.eq("both").to_numpy()
    touched = set(m.get("variant", {}).get("touched", []))
    plays = (base["army_a"].isin(touched) | base["army_b"].isin(touched)).to_numpy()
    counted = replayed | ~plays  # a touched pairing's base game counts once replayed
    kept, same = base[counted], base[~plays]
    if kept.empty:
        return pd.DataFrame()
    paired = variant.merge(kept[key], on=key)
    before, after = T.Tally(), T.Tally()
    before.add(kept.assign(label="before"))
    after.add(pd.concat([same, paired], ignore_index=True).assign(label="after"))
    t = pd.concat([before.table, after.table], ignore_index=True)
    table, _ = T.armies(t, T.matrix(t, order), order, boot=boot, seed=int(m.get("seed", 0)))
    cols = ["army", "games", "rank", "rank_low", "rank_high", "rating", "rating_low",
            "rating_high", "field_win_rate", "ci_low", "ci_high"]  # fmt: skip
    out = None
    for when in ("before", "after"):
        part = table.loc[table["label"] == when, cols].set_index("army").add_prefix(f"{when}_")
        out = part if out is None else out.join(part)
    out = out.reset_index().sort_values(["after_rank", "army"], kind="stable")
    return out.reset_index(drop=True)
