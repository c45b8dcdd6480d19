"""Manoeuvre's part of the paired what-if (``studies/whatif.py``; ``manoeuvre-sim whatif``):
what the adapter's what-if hooks (``whatif_command``, ``whatif_manifest``, ``whatif_write``)
are made of: the armies and the one player pair of the command's options, the variant
from ``--variant`` army files and ``--set`` edits (docs/whatif.md), each changed army's
data written beside the study. The edits of a side are the fixer's hook,
:func:`~manoeuvre_sim.manoeuvre.fix_edits.apply_side_edits`, so an errata the fixer prints
and a what-if's ``--set`` are applied by the same code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.balance_setup import army_names, policy_specs, resolve_armies
from manoeuvre_sim.manoeuvre.model import Army

DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000


def load_field(armies, relax: bool) -> tuple[list[Army], list[str]]:
    """The what-if's armies as ``--armies`` names them (``balance_setup.army_names``), loaded
    as the balance study loads them (``balance_setup.resolve_armies``: each refused before
    any game if it uses a rule the engine does not play yet), at least two and none named
    twice, and where each came from."""
    loaded, sources = resolve_armies(army_names(armies), relax=relax)
    names = [a.name for a in loaded]
    if len(names) < 2:
        raise UsageError("--armies: expected at least two armies")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UsageError(f"--armies: an army is named twice: {', '.join(dup)}")
    return loaded, sources


def players(policy, policy_a, policy_b, policies) -> tuple[str, str]:
    """The one pair of players (``--policy``, or ``--policy-a``/``-b``, or ``--policies``
    naming one), each checked as the balance study checks its players
    (``balance_setup.policy_specs``)."""
    pols = [p.strip() for p in policies.split(",") if p.strip()] if policies else None
    if pols is not None and len(pols) != 1:
        raise UsageError("whatif: expected one policy (or --policy-a/-b), not --policies")
    (pair,) = policy_specs(policy, policy_a, policy_b, pols)
    return pair.policy_a, pair.policy_b


def make_variant(
    loaded: Sequence[Army],
    variant_files: Sequence[str] = (),
    edits: Sequence[str] = (),
    *,
    relax: bool = False,
) -> tuple[tuple[Army, ...], tuple[str, ...], tuple[str, ...]]:
    """The variant of the armies ``loaded``: each ``--variant`` file replacing the base army
    of its name, then the ``--set`` edits applied to the armies they name
    (:func:`~manoeuvre_sim.manoeuvre.fix_edits.apply_side_edits`, the fixer's hook, all of
    an army's edits at once); returns the variant's armies (the base's order), the touched
    armies' names and the changes in words."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.fix_edits import apply_side_edits
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits, describe_changes, edit_army

    by_name = {a.name: a for a in loaded}
    touched: set[str] = set()
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
        touched.add(v.name)
    groups: dict[str, list[str]] = {}
    for e in edits:
        name = edit_army(e, by_name)
        if name is None:
            apply_edits(by_name, [e], relax=relax)  # its one-line error
            raise UsageError(f"--set {e!r}: names no army of the field")
        groups.setdefault(name, []).append(e)
    for name, texts in groups.items():
        by_name[name], lines = apply_side_edits(by_name[name], texts, relax=relax)
        changes += lines
        touched.add(name)
    if not touched:
        raise UsageError("whatif: nothing to change: give --variant FILE or --set")
    return (tuple(by_name[a.name] for a in loaded),
            tuple(a.name for a in loaded if a.name in touched), tuple(changes))  # fmt: skip


def whatif_write(res, out_dir: Path) -> list[Path]:
    """Each changed army's data as the variant played it, ``variant/<army>.army.json``
    (``model.write_army_data``), named in the manifest's ``variant.armies`` entries
    (``file``): what a replay of a variant's game loads."""
    from manoeuvre_sim.manoeuvre.model.load import ARMY_DATA_SUFFIX, write_army_data

    entries = {e["name"]: e for e in res.manifest.get("variant", {}).get("armies", [])}
    written = []
    for k, army in enumerate(a for a in res.spec.variant_sides if a.name in entries):
        slug = re.sub(r"[^a-z0-9]+", "_", army.name.casefold()).strip("_") or "army"
        rel = f"variant/{k:02d}_{slug}{ARMY_DATA_SUFFIX}"
        (out_dir / "variant").mkdir(parents=True, exist_ok=True)
        written.append(write_army_data(army, out_dir / rel))
        entries[army.name]["file"] = rel
    return written


__all__ = ["load_field", "make_variant", "players", "whatif_write"]
