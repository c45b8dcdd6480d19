"""Manoeuvre's part of the paired what-if (``studies/whatif.py``; ``manoeuvre-sim whatif``):
the hooks that build its spec from the command's options (the armies, the one player pair,
the variant from ``--variant`` army files and ``--set`` edits, docs/whatif.md), record what
decides its games (the balance study's manifest with the variant) and write each changed
army's data beside the study. The edits of a side are the fixer's hook,
:func:`~manoeuvre_sim.manoeuvre.fix_edits.apply_side_edits`, so an errata the fixer prints
and a what-if's ``--set`` are applied by the same code.
"""

from __future__ import annotations

import datetime as _dt
import platform
import re
from collections.abc import Sequence
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
from manoeuvre_sim.manoeuvre.model import Army

DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000


def _army_names(armies) -> list:
    """The armies ``--armies`` names, comma-separated (None: the eight built-in armies), or
    a list of names, files or armies."""
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    if armies is None:
        return [a.name for a in load_builtin_armies()]
    if not isinstance(armies, str):
        return list(armies)
    names = [a.strip() for a in armies.split(",") if a.strip()]
    if not names:
        raise UsageError("--armies: expected comma-separated army names or .toml files")
    return names


def _load(armies: Sequence, relax: bool) -> tuple[list[Army], list[str]]:
    """The armies (built-in names, files or objects), each refused before any game if it
    uses a rule the engine does not play yet, and where each came from."""
    from manoeuvre_sim.manoeuvre.adapter import load_side
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable

    loaded, sources = [], []
    for a in armies:
        if isinstance(a, Army):
            check_playable(a)
            loaded.append(a)
            sources.append(f"(object) {a.name}")
        else:
            loaded.append(load_side(str(a), relax=relax))
            p = Path(str(a))
            sources.append(str(p.resolve()) if p.suffix.lower() == ".toml" else loaded[-1].name)
    names = [a.name for a in loaded]
    if len(names) < 2:
        raise UsageError("--armies: expected at least two armies")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UsageError(f"--armies: an army is named twice: {', '.join(dup)}")
    return loaded, sources


def _players(policy, policy_a, policy_b, policies) -> tuple[str, str]:
    """The one pair of players (``--policy``, or ``--policy-a``/``-b``), each checked."""
    from manoeuvre_sim.manoeuvre.runner import check_policy

    if policies:
        pols = [p.strip() for p in policies.split(",") if p.strip()]
        if len(pols) != 1:
            raise UsageError("whatif: expected one policy (or --policy-a/-b), not --policies")
        check_policy(pols[0], "--policies")
        return pols[0], pols[0]
    base = policy or DEFAULT_POLICY
    pa, pb = policy_a or base, policy_b or base
    check_policy(pa, "--policy-a" if policy_a else "--policy")
    check_policy(pb, "--policy-b" if policy_b else "--policy")
    return pa, pb


def whatif_command(
    armies: str | Sequence | None = None,
    *,
    policy: str | None = DEFAULT_POLICY,
    policy_a: str | None = None,
    policy_b: str | None = None,
    policies: str | None = None,
    games_per_pairing: int = DEFAULT_GAMES,
    seed: int = 1,
    options=None,
    precision: float | None = None,
    max_games: int = 20000,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    first_game: int = 0,
    relax: bool = False,
    variant_files: Sequence[str] = (),
    edits: Sequence[str] = (),
) -> dict:
    """``manoeuvre-sim whatif``'s options (the balance study's, then the variant) -> the
    what-if's fields (``studies.whatif.WhatIfSpec``): the armies loaded, each ``--variant``
    file replacing the base army of its name, then the ``--set`` edits applied to their
    armies (:func:`apply_side_edits`); every option checked before any game."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions, load_side
    from manoeuvre_sim.manoeuvre.fix_edits import apply_side_edits
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits, describe_changes, edit_army

    pair = _players(policy, policy_a, policy_b, policies)
    loaded, sources = _load(_army_names(armies), relax)
    if precision is not None:
        raise UsageError("whatif: --precision is not available; give --games-per-pairing")
    if first_game:
        raise UsageError("--first-game: not with whatif (it plays games 0 .. N - 1 of a pairing)")
    del max_games  # a fixed N: no cap to record
    by_name = {a.name: a for a in loaded}
    touched: set[str] = set()
    changes: list[str] = []
    for f in variant_files:
        v = load_side(f, relax=relax)
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
    return {
        "sides": tuple(loaded), "sources": tuple(sources), "policies": (pair,),
        "games_per_pairing": games_per_pairing, "seed": seed,
        "options": RuleOptions() if options is None else options, "block": block,
        "threads": threads, "variant_sides": tuple(by_name[a.name] for a in loaded),
        "touched": tuple(a.name for a in loaded if a.name in touched),
        "changes": tuple(changes), "edits": tuple(edits),
    }  # fmt: skip


def whatif_manifest(spec, variant_options=None, where=None) -> dict:
    """What decides a what-if's games: the balance study's manifest of the base armies
    (``study`` ``whatif``) and the variant (the touched armies, the changes, each changed
    army's data hash)."""
    from manoeuvre_sim import __version__
    from manoeuvre_sim.manoeuvre import RULES_VERSION
    from manoeuvre_sim.manoeuvre.adapter import KEY, army_hash, study_data_hash
    from manoeuvre_sim.manoeuvre.engine.players import params_for
    from manoeuvre_sim.manoeuvre.engine.players.dispatch import value_record
    from manoeuvre_sim.manoeuvre.runner import config_dict, sections_record

    (pa, pb), *_ = spec.policies
    armies = spec.sides
    return {
        "tool": "manoeuvre-sim",
        "version": __version__,
        "rules_version": RULES_VERSION,
        "game": KEY,  # games.GAMES: a store of one game is never resumed as another's
        "study": "whatif",
        "seed": spec.seed,
        "armies": [
            {"name": a.name, "source": (spec.sources or [None] * len(armies))[i],
             "data_hash": army_hash(a), "seed_name": a.name}
            for i, a in enumerate(armies)
        ],  # fmt: skip
        "data_hash": study_data_hash(armies, spec.options),
        "policies": [
            {
                "label": pa if pa == pb else f"{pa}/{pb}",
                "policy_a": pa,
                "policy_b": pb,
                "params_a": [float(x) for x in params_for(pa, pb)[0]],
                "params_b": [float(x) for x in params_for(pa, pb)[1]],
                **{f"{k}_a": v for k, v in value_record(pa).items()},
                **{f"{k}_b": v for k, v in value_record(pb).items()},
            }
        ],
        "games_per_pairing": spec.games_per_pairing,
        "first_game": 0,
        "precision": None,
        "max_games": None,
        "block": spec.block,
        "options": config_dict(spec.options),
        **sections_record(spec.options.sections_file),
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
        "variant": {
            "touched": list(spec.touched),
            "changes": list(spec.changes),
            "armies": [{"name": a.name, "data_hash": army_hash(a)}
                       for a in spec.variant_sides if a.name in spec.touched],  # fmt: skip
        },
    }


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


__all__ = ["whatif_command", "whatif_manifest", "whatif_write"]
