"""What a fix found (``studies/fix.py``; docs/fix.md): :class:`FixResult` (the errata, the
search's trail, the frontier, the confirmations, the manifest), its summary in words and the
files it writes; the errata sheet (:func:`errata_table`) and the costs file it was searched
with (:func:`costs_toml`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from manoeuvre_sim.core.games import hook
from manoeuvre_sim.studies.fix_confirm import Confirmation, _holds, where
from manoeuvre_sim.studies.fix_spec import Edit, FixSpec


@dataclass
class FixResult:
    spec: FixSpec
    errata: object  # DataFrame: one row per edit of the answer
    trail: object  # DataFrame: every candidate tried
    frontier: object  # DataFrame: the best errata at each cost
    confirmation: Confirmation | None
    manifest: dict
    interrupted: bool = False
    meets: bool = False
    strong: Confirmation | None = None  # the confirmation again under ``confirm_with``

    def summary(self) -> list[str]:
        m, s = self.manifest, self.spec
        lo, hi = s.band
        out = [f"{m['game_title']}: fix of {', '.join(s.targets)} into "
               f"{100 * lo:.0f}-{100 * hi:.0f} % (editing {', '.join(s.editable)})",
               f"search seed {m['seed']}, confirmation seed {m['confirm_seed']}; rules "
               f"{m['rules_version']}; data {m['data_hash']}",
               f"{len(self.trail)} candidates tried, {m['search_games']:,} search games; "
               f"base estimated distance {m['base_distance']:.3f}{self._searched()}", ""]  # fmt: skip
        if self.errata is None or not len(self.errata):
            out.append(
                "no errata: "
                + (
                    "the base is already in the band (estimate)"
                    if m["base_distance"] == 0
                    else "no candidate within the budget helped"
                )
            )
            return out
        head = (
            "errata (meets the objective in the search)"
            if self.meets
            else ("no errata within the budget met the objective; the best of the frontier")
        )
        out.append(f"{head}, cost {int(self.errata['cost'].sum())}:")
        for r in self.errata.itertuples(index=False):
            out.append(f"  {r.change}   [{r.whatif_set}]")
        c = self.confirmation
        if c is not None:
            out += ["", f"confirmation ({c.games:,} games, {s.confirm_games} per pairing): "
                    + ("CONFIRMED" if c.confirmed else "NOT confirmed"),
                    "field rate in %, base -> fixed [Bonferroni interval]"]  # fmt: skip
            out += rate_lines(c.targets, s.band)
            if len(c.moved):
                out.append(f"pairings that moved (Holm, 5 %): {int(c.moved['moved'].sum())} of "
                           f"{len(c.moved)}")  # fmt: skip
            out.append(f"distance from the band: base {c.distance_base:.3f}, fixed "
                       f"{c.distance_fixed:.3f}")  # fmt: skip
        w = self.strong
        if w is not None:
            out += ["", f"under {m['confirm_with']} ({w.games:,} games, "
                    f"{m['confirm_with_games']} per pairing, the same fresh seed): "
                    + ("CONFIRMED" if w.confirmed else "NOT confirmed") + "; the fix "
                    + _holds(c, w), "field rate in %, base -> fixed [Bonferroni interval]"]  # fmt: skip
            out += rate_lines(w.targets, s.band)
            out.append(f"distance from the band: base {w.distance_base:.3f}, fixed "
                       f"{w.distance_fixed:.3f}")  # fmt: skip
        if len(self.frontier):
            out += [
                "",
                "frontier (best estimated distance at each cost"
                + (", from the search's band):" if self._searched() else "):"),
            ]
            for r in self.frontier.itertuples(index=False):
                out.append(f"  cost {r.cost}: {r.est_distance:.3f}  {r.edits}")
        return out

    def _searched(self) -> str:
        """The base's distance from the search's band (the band shrunk by the guard: what
        the trail's and the frontier's distances are from), when it is not the band: a
        single edit's reference is the base, its distance plus its estimated gain."""
        s, t = self.spec, self.trail
        band = s.search_band
        if tuple(band) == tuple(s.band) or not len(t) or "est_gain" not in t:
            return ""
        one = t[(t["step"] == "single") & (t["against"] == "base")].iloc[0]
        return (
            f", {one['est_distance'] + one['est_gain']:.3f} from the search's band "
            f"{100 * band[0]:.1f}-{100 * band[1]:.1f} % (guard {100 * s.guard:.2f} points)"
        )

    def write(self, out_dir: str | Path, paper: str = "a4") -> list[Path]:
        """errata.csv, trail.csv, frontier.csv, matrix_base.csv, matrix_fixed.csv,
        moved.csv, targets.csv, the costs searched (``edits.toml``: what ``--edits`` reads)
        and the game's own files of the fixed sides (its ``fix_write``: what a replay of a
        fixed game loads), then summary.txt and manifest.json last (each atomically).
        ``paper``: the jobs' keyword; the fix's PDF page is the report's
        (``analyses/common/fix_pdf.py``)."""
        from manoeuvre_sim.core.results import write_csv, write_text
        from manoeuvre_sim.studies.balance import write_study

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        tables = {"errata": self.errata, "trail": self.trail, "frontier": self.frontier}
        c = self.confirmation
        if c is not None:
            tables |= {"moved": c.moved, "targets": c.targets}
        if self.strong is not None:
            tables |= {"moved_strong": self.strong.moved, "targets_strong": self.strong.targets}
        written = []
        if c is not None:
            for name, mat in (("matrix_base", c.base_matrix), ("matrix_fixed", c.fixed_matrix)):
                written.append(write_csv(mat.rename_axis("side_a").reset_index(),
                                         out / f"{name}.csv"))  # fmt: skip
        written.append(write_text(out / "edits.toml", costs_toml(self.spec.costs)))
        g = self.spec.balance.game_module()
        if self.errata is not None and len(self.errata):
            written += list(hook(g, "fix_write")(self, out))
        return written + write_study(out, tables, self.manifest, self.summary())

    def fixed_sides(self) -> dict[str, object]:
        """The sides the answer edits, as the fixed games played them (by name)."""
        if self.errata is None or not len(self.errata):
            return {}
        sides = dict(zip(self.spec.balance.names, self.spec.balance.sides, strict=True))
        g = self.spec.balance.game_module()
        out = {}
        for name in dict.fromkeys(self.errata["side"]):
            texts = list(self.errata.loc[self.errata["side"] == name, "edit"])
            out[name] = hook(g, "apply_side_edits")(sides[name], texts)[0]
        return out


def rate_lines(targets, band, width: int = 16) -> list[str]:
    """Per target (a ``targets.csv`` table): base -> fixed field rate [interval] in %, and
    where the interval lies when not inside the band (:func:`fix_confirm.where`)."""
    out = []
    for r in targets.itertuples(index=False):
        note = where(r.fixed_low, r.fixed_high, band)
        out.append(f"  {r.side:<{width}} {100 * r.base_rate:5.1f} -> {100 * r.fixed_rate:5.1f}"
                   f" [{100 * r.fixed_low:.1f}, {100 * r.fixed_high:.1f}]"
                   + (f"  {note}" if note else ""))  # fmt: skip
    return out


def costs_toml(costs: dict) -> str:
    """The edit kinds and costs as the ``--edits`` TOML file writes them (``read_costs``)."""
    return "".join(f"[{k}]\ncost = {c}\nrange = {r}\n" for k, (c, r) in costs.items())


def errata_table(g, spec: FixSpec, edits: Sequence[Edit]):
    """One row per edit: its side, kind, cost, the change in the side's own words (before ->
    after, by the game's edit code) and the ``whatif --set`` line that replays it."""
    import pandas as pd

    sides = dict(zip(spec.balance.names, spec.balance.sides, strict=True))
    rows = []
    for e in edits:
        lines = hook(g, "apply_side_edits")(sides[e.side], [e.text])[1]
        first = lines[0] if lines else e.text
        where, _, change = first.rpartition(": ")
        before, _, after = change.partition(" -> ")
        rows.append({"edit": e.text, "side": e.side, "kind": e.kind, "cost": e.cost,
                     "field": where, "before": before, "after": after,
                     "change": "; ".join(lines), "whatif_set": f'--set "{e.text}"'})  # fmt: skip
    return pd.DataFrame(rows, columns=["edit", "side", "kind", "cost", "field", "before",
                                       "after", "change", "whatif_set"])  # fmt: skip


def _rank_distance(t) -> tuple:
    return (t.distance, t.cost, len(t.edits), [e.text for e in t.edits])


def _frontier(trail: Sequence) -> list:
    """The best errata (smallest estimated distance) at each cost among the certified
    helpful ones, or the promising ones at a cost no certified errata has."""
    best: dict[int, object] = {}
    for t in trail:
        if not (t.helpful or t.promising):
            continue
        old = best.get(t.cost)
        if old is None or (t.helpful, t.meets()) > (old.helpful, old.meets()) or (
            (t.helpful, t.meets()) == (old.helpful, old.meets())
            and _rank_distance(t) < _rank_distance(old)
        ):  # fmt: skip
            best[t.cost] = t
    return [best[c] for c in sorted(best)]
