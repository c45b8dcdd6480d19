"""The confirmation of a fix (``studies/fix.py``; docs/fix.md): the chosen errata against
the base on a fresh seed it was never chosen on, paired per pairing, with Holm's correction
over the pairings it touches and simultaneous (Bonferroni) intervals on the targets'
field rates; and the same again under a stronger player (``--confirm-with``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import hook
from manoeuvre_sim.studies.fix_stats import (
    SCORE,
    _Interrupted,
    _moments,
    confirm_z,
    distance,
    field_stats,
    gain_estimate,
    holm,
)
from manoeuvre_sim.studies.whatif import BASE, VARIANT, play_paired
from manoeuvre_sim.studies.whatif_tables import paired_row

# the confirmation's labels in its store (the base, the fixed sides) and the store's place
# in the fix's directory: what the workbench's fix page replays
CONFIRM_BASE, CONFIRM_FIXED = "confirm-base", "confirm-fixed"
CONFIRM_STORE = "confirm/games.parquet"


@dataclass
class Confirmation:
    base_matrix: object  # DataFrame: side a's score, rows a, columns b
    fixed_matrix: object
    moved: object  # per touched ordered pairing: the paired change, interval, Holm p
    targets: object  # per target: base and fixed field rate, Bonferroni interval, in band
    confirmed: bool
    games: int
    distance_base: float = float("nan")  # the objective D of the base's field rates
    distance_fixed: float = float("nan")  # and of the fixed ones (estimates)
    gain_se: float = float("nan")  # the paired standard error of their difference


def confirm(g, spec, edits: tuple, *, store=None, manifest=None,
            backend=None, resume=False, progress=None) -> Confirmation:  # fmt: skip
    """The errata ``edits`` (``fix.Edit``s) of ``spec`` (``fix.FixSpec``) against the base
    on the fresh seed (the module docstring)."""
    import pandas as pd
    from scipy.stats import norm

    b = replace(spec.balance, seed=spec.confirm_seed, games_per_pairing=spec.confirm_games)
    names = b.names
    base = [replace(p, label=CONFIRM_BASE) for p in b.pairings()
            if p.army_a.name != p.army_b.name]  # fmt: skip
    sides = dict(zip(names, b.sides, strict=True))
    changed = {}
    for name in sorted({e.side for e in edits}):
        texts = [e.text for e in edits if e.side == name]
        changed[name] = hook(g, "apply_side_edits")(sides[name], texts)[0]
    variant = {
        i: replace(p, army_a=changed.get(p.army_a.name, p.army_a),
                   army_b=changed.get(p.army_b.name, p.army_b), label=CONFIRM_FIXED)
        for i, p in enumerate(base) if p.army_a.name in changed or p.army_b.name in changed
    }  # fmt: skip
    kept: dict[int, list] = {}

    def on_frame(task, df, stats, which) -> None:
        if which == BASE:
            kept.setdefault(task.pairing, []).append((task.first_game, df))

    played = play_paired(base, variant, game=g, games=b.games_per_pairing, block=b.block,
                         options=b.options, on_frame=on_frame, threads=b.threads, store=store,
                         manifest=manifest, backend=backend, resume=resume,
                         progress=progress)  # fmt: skip
    if played.outcome.interrupted:
        raise _Interrupted
    joint = played.joint
    for k in range(len(base)):  # the untouched pairings: the base against itself
        if k not in variant:
            for first, df in kept[k]:
                joint.add(BASE, k, first, df)
                joint.add(VARIANT, k, first, df)
    rows = []
    for k in sorted(variant):
        p = base[k]
        r = paired_row(joint.counts[k])
        n, _, _, md, vd, _ = _moments(joint.counts[k], "a")
        se = math.sqrt(vd / n)
        pval = 1.0 if se == 0 else float(2 * norm.sf(abs(md) / se))
        rows.append({"side_a": p.army_a.name, "side_b": p.army_b.name} | r | {"p": pval})
    moved = pd.DataFrame(rows)
    if len(moved):
        moved["p_holm"] = holm(moved["p"].to_numpy())
        moved["moved"] = moved["p_holm"] < 0.05
    mb = pd.DataFrame(np.nan, index=names, columns=names)
    mf = mb.copy()
    for k, p in enumerate(base):
        c = joint.counts[k].reshape(2, 3, 2, 3).sum(axis=(0, 2))
        s = SCORE["a"]
        mb.loc[p.army_a.name, p.army_b.name] = float((c.sum(axis=1) * s).sum() / c.sum())
        mf.loc[p.army_a.name, p.army_b.name] = float((c.sum(axis=0) * s).sum() / c.sum())
    z = confirm_z(spec.alpha, len(spec.targets))
    trows, stats = [], field_stats(base, joint, spec.targets)
    for t, st in zip(spec.targets, stats, strict=True):
        # the fixed rate's own variance: the candidate's games (ref + change, paired)
        parts = []
        for k, p in enumerate(base):
            if t in (p.army_a.name, p.army_b.name):
                c = joint.counts[k].reshape(2, 3, 2, 3).sum(axis=(0, 2))
                s = SCORE["a" if p.army_a.name == t else "b"]
                y = np.broadcast_to(s[None, :], c.shape)
                nn = c.sum()
                my = float((c * y).sum()) / nn
                parts.append(max(float((c * y * y).sum()) / nn - my * my, 0.0) * nn / (nn - 1))
        half = z * math.sqrt(sum(parts) / len(parts) ** 2 / st.n)
        lo, hi = st.rate - half, st.rate + half
        trows.append({"side": t, "base_rate": st.ref, "fixed_rate": st.rate,
                      "fixed_low": lo, "fixed_high": hi, "games": st.n * len(parts),
                      "in_band": spec.band[0] <= lo and hi <= spec.band[1]})  # fmt: skip
    targets = pd.DataFrame(trows)
    d_base = sum(distance(r, spec.band) for r in targets["base_rate"])
    d_fixed = sum(distance(r, spec.band) for r in targets["fixed_rate"])
    _, se = gain_estimate(base, joint, stats, spec.targets, spec.band)
    return Confirmation(mb, mf, moved, targets, bool(targets["in_band"].all()),
                        int(sum(played.outcome.games.values())), d_base, d_fixed, se)  # fmt: skip


def where(lo: float, hi: float, band) -> str:
    """A rate interval against the band, in words: ``""`` inside, ``outside the band``
    wholly outside, else ``across the band's edge`` (inside not shown)."""
    if band[0] <= lo and hi <= band[1]:
        return ""
    return "outside the band" if hi < band[0] or lo > band[1] else "across the band's edge"


def _holds(c: Confirmation | None, w: Confirmation) -> str:
    """Whether the fix holds under the stronger player: confirmed there (every target's
    interval inside the band), else whether the estimated distance still falls."""
    if w.confirmed:
        return "holds under the stronger player"
    if c is not None and c.confirmed:
        return "does not hold under the stronger player (a target's interval leaves the band)"
    fell = w.distance_fixed < w.distance_base
    gain = w.distance_base - w.distance_fixed
    # the estimate's paired standard error: a change beyond twice it is said to be one
    sure = "" if not gain > 2 * w.gain_se else ", more than twice its standard error"
    size = (
        f" (estimate: the distance {'falls' if fell else 'rises'} by {abs(gain):.3f}, its "
        f"standard error {w.gain_se:.3f}{sure})"
    )
    return ("still brings the field nearer the band under the stronger player" if fell else
            "does not bring the field nearer the band under the stronger player") + size  # fmt: skip


def strong_spec(spec, policy: str, games: int):
    """``spec`` (``fix.FixSpec``) with both seats played by ``policy`` and ``games`` confirmation games per
    pairing: the confirmation again under a stronger player (``--confirm-with``)."""
    from manoeuvre_sim.core.study import PolicySpec

    if games < 2:
        raise UsageError(f"--confirm-with-games: expected at least 2 games, got {games}")
    b = replace(spec.balance, policies=(PolicySpec(policy, policy),))
    return replace(spec, balance=b, confirm_games=games)
