"""Manoeuvre's hooks for the balance fixer (``studies/fix.py``): the edits an army offers, in
the what-if language (``model/edit.py``, docs/whatif.md), each legal by the edit code's own
validation, so that every errata the fixer prints can be pasted into ``whatif --set``.

The kinds (a step's default cost, the default range in steps):

- ``strength``: a unit's full or reduced strength, one point a step (``France/Garde
  Imperial/full=7``); the model keeps reduced below full, within 1..30.
- ``command``: a leader's command, one point a step (``France/leaders/Napoleon/command=4``).
- ``hq``: one HQ card moved between types: a type's count one more or one fewer, the deck
  kept at its size by the edit language's rule (the most numerous other type gives up or
  takes the card; ``Russia/cards/Supply=3``).
- ``die``: one die step of a unit card's attack among the printed dice (d6, d8, d10, the
  number of dice kept: ``France/Garde Imperial/card2/attack=2d10``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError

FIX_EDIT_KINDS: dict[str, tuple[int, int, str]] = {
    "strength": (1, 1, "a unit's full or reduced strength, 1 point a step"),
    "command": (1, 1, "a leader's command, 1 point a step"),
    "hq": (1, 1, "one HQ card moved between types (the deck kept at its size)"),
    "die": (1, 1, "one die step of a unit card's attack (d6, d8, d10)"),
}
PRINTED_SIDES = (6, 8, 10)


def _safe(name: str) -> bool:
    """Whether a name can be written in an edit's path (no separator in it)."""
    return "/" not in name and "=" not in name and name.strip() == name


def _raw(army, costs: Mapping[str, tuple[int, int]]) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    a = army.name

    def steps(kind: str):
        if kind in costs:
            cost, rng = costs[kind]
            for k in range(1, rng + 1):
                yield k, cost * k

    for u in army.units:
        if not _safe(u.name):
            continue
        for k, cost in steps("strength"):
            for fld in ("full", "reduced"):
                for v in (getattr(u, fld) - k, getattr(u, fld) + k):
                    out.append((f"{a}/{u.name}/{fld}={v}", "strength", cost))
        for k, cost in steps("die"):
            for i, card in enumerate(u.cards, 1):
                d = card.attack
                if d is None or d.sides not in PRINTED_SIDES:
                    continue
                j = PRINTED_SIDES.index(d.sides)
                for jj in (j - k, j + k):
                    if 0 <= jj < len(PRINTED_SIDES):
                        new = f"{d.count}d{PRINTED_SIDES[jj]}"
                        out.append((f"{a}/{u.name}/card{i}/attack={new}", "die", cost))
    for ld in army.leaders:
        if not _safe(ld.name):
            continue
        for k, cost in steps("command"):
            for v in (ld.command - k, ld.command + k):
                out.append((f"{a}/leaders/{ld.name}/command={v}", "command", cost))
    for k, cost in steps("hq"):
        for h in army.hq:
            for v in (h.count - k, h.count + k):
                out.append((f"{a}/cards/{h.type}={v}", "hq", cost))
    return out


def fix_edits(army, costs: Mapping[str, tuple[int, int]]) -> list[tuple[str, str, int]]:
    """The candidate edits of ``army`` under ``costs`` (kind -> (cost of a step, range in
    steps)): ``(edit, kind, cost)``, only those the edit code accepts (a leader's command
    within 1..8, reduced below full, an HQ change the deck can balance ...)."""
    out = []
    for text, kind, cost in _raw(army, costs):
        try:
            apply_side_edits(army, [text])
        except UsageError:
            continue
        out.append((text, kind, cost))
    return out


def apply_side_edits(army, edits: Sequence[str], *, relax: bool = False):
    """``army`` with the what-if ``edits`` applied in order (``model.edit.apply_edits``:
    validated as an army file, the deck kept legal unless ``relax``), and its change lines:
    the fixer's candidates and the what-if's ``--set`` (``whatif_variant.py``) alike."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits

    edited, lines = apply_edits({army.name: army}, list(edits), relax=relax)
    out = edited[army.name]
    check_playable(out)
    return out, lines


def fix_write(res, out_dir: Path) -> list[Path]:
    """Each army the fix's answer edits, as its fixed games played it,
    ``fixed/<k>_<army>.army.json`` (``model.write_army_data``), named in the manifest's
    ``fixed_sides`` (``{"name", "file"}``): what a replay of a fixed game loads
    (``replay/steps.study_config``)."""
    from manoeuvre_sim.manoeuvre.model.load import ARMY_DATA_SUFFIX, write_army_data

    written, entries = [], []
    for k, (name, army) in enumerate(res.fixed_sides().items()):
        slug = re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_") or "army"
        rel = f"fixed/{k:02d}_{slug}{ARMY_DATA_SUFFIX}"
        (Path(out_dir) / "fixed").mkdir(parents=True, exist_ok=True)
        written.append(write_army_data(army, Path(out_dir) / rel))
        entries.append({"name": name, "file": rel})
    res.manifest["fixed_sides"] = entries
    return written
