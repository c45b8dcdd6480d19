"""Maneuver's part of the paired what-if (``studies/whatif.py``; ``manoeuvre-sim hex whatif``):
the variant is a scenario (an edited copy of the file, ``--variant FILE``, or ``--set``
edits of the base scenario applied in memory and written beside the study), played on the
same seeds as the base scenario for every ordered pairing of the players. Here: the edits
(:func:`apply_edit`, :func:`apply_edits`), the scenario as TOML (:func:`to_toml`) and the
what-if's hooks (the command's options -> the spec, the pairings, the variant's options,
the manifest, the table of the change in blue's, red's and the first player's win rate and
the draw rate).

Edits (``--set``): ``SIDE/UNIT/FIELD=VALUE``; SIDE ``blue``, ``red`` or ``both``; UNIT an
entry of the side's ``[[sides.SIDE.units]]`` list by its ``name`` (e.g. ``Infantry``), by
its type (``infantry``: every entry of that type) or by its position ``#N`` (1-based);
FIELD ``strength``, ``attack``, ``defence`` (VALUE ``F`` sets the front side, ``F:R`` both
sides), ``ma`` or ``count`` (an integer). And ``SIDE/quality=Q`` (SIDE ``blue`` or ``red``):
the variant's army quality of that side (rule [13] 2: ``front``, ``back`` or K, its first K
combat units set up weak), the base keeping ``--quality`` (:func:`split_quality`; the
balance fixer's ``quality`` edits, ``fix_edits.py``).
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import platform
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError

VARIANT_FILE = "variant_scenario.toml"
PAIR_FIELDS = ("strength", "attack", "defence")
INT_FIELDS = ("ma", "count")
TYPES = ("infantry", "cavalry", "artillery", "capital")
# the pairing table's columns as Maneuver names them (side a is blue, side b red)
TABLE_NAMES = {"policy_a": "policy_blue", "policy_b": "policy_red"}
STEM_NAMES = {"a_win": "blue_win", "b_win": "red_win"}


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


def split_quality(edits: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The ``--set`` edits of the scenario, and the variant's army quality per side of the
    ``SIDE/quality=Q`` ones (``quality_blue``/``quality_red`` -> Q, checked as ``--quality``
    is), in order (a later edit of a side's quality wins)."""
    from manoeuvre_sim.hexgame.records import HexOptions

    scenario, rules = [], {}
    for e in edits:
        path, sep, value = e.partition("=")
        parts = [p.strip() for p in path.split("/")]
        if len(parts) != 2 or parts[1] != "quality":
            scenario.append(e)
            continue
        if not sep or parts[0] not in ("blue", "red"):
            raise UsageError(f"--set {e!r}: expected blue/quality=Q or red/quality=Q, Q front, "
                             "back or a number of units (rule [13] 2)")  # fmt: skip
        key = f"quality_{parts[0]}"
        try:
            HexOptions(**{key: value.strip()})
        except UsageError:
            raise UsageError(f"--set {e!r}: expected the quality front, back or a number of "
                             "combat units set up weak (rule [13] 2)") from None  # fmt: skip
        rules[key] = value.strip()
    return scenario, rules


def load_scenario_from(raw: dict):
    """A scenario's content, validated as a scenario."""
    from manoeuvre_sim.core.data import validate
    from manoeuvre_sim.hexgame.scenario import Scenario

    return validate(Scenario, raw, "variant")


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


# ----------------------------------------------------------------- the what-if's hooks


def _variant_path(spec, where: Path) -> str:
    """The variant's file: ``--variant``'s, else the edited scenario's in ``where``."""
    file = spec.details["file"]
    return file if file is not None else str(Path(where) / VARIANT_FILE)


def whatif_variant_options(spec, where: Path):
    """The base's rule options on the variant scenario: ``--variant``'s file, or the edited
    scenario written to ``where/variant_scenario.toml`` (the games' options name a file)."""
    from manoeuvre_sim.core.results import write_text
    from manoeuvre_sim.hexgame.scenario import load_scenario

    vpath = _variant_path(spec, where)
    if spec.details["file"] is None:
        write_text(Path(vpath), to_toml(spec.details["scenario"]))
    if load_scenario(vpath).sha256 != load_scenario_from(spec.details["scenario"]).sha256:
        raise UsageError(f"{vpath}: does not hold the variant scenario (changed meanwhile?)")
    return replace(spec.options, scenario=vpath, **spec.details.get("variant_quality", {}))


def whatif_manifest(spec, variant_options, where: Path) -> dict:
    """What decides the games: the two scenarios (files and sha256), the edits, the rules,
    the players, the seed and the games per pairing."""
    from manoeuvre_sim import __version__
    from manoeuvre_sim.hexgame import GAME_KEY as KEY
    from manoeuvre_sim.hexgame import GAME_TITLE, RULES_VERSION
    from manoeuvre_sim.hexgame.scenario import default_path, load_scenario

    d = spec.details
    vpath = _variant_path(spec, where)
    base_sc, var_sc = load_scenario(d["base_file"]), load_scenario(vpath)
    return {
        "tool": "manoeuvre-sim", "version": __version__, "game": KEY,
        "game_title": GAME_TITLE, "study": "hex whatif", "rules_version": RULES_VERSION,
        "seed": spec.seed, "turns": spec.options.turns,
        "base_scenario": base_sc.name,
        "base_scenario_file": str(d["base_file"] or default_path()),
        "base_scenario_sha256": base_sc.sha256,
        "variant_scenario_file": str(vpath), "variant_scenario_sha256": var_sc.sha256,
        "identical": base_sc.sha256 == var_sc.sha256 and not d.get("variant_quality"),
        "edits": list(spec.edits),
        "rules": d["rules"], "policies": list(d["players"]),
        "seeding": "pairing seed from (seed, 'hex:<blue player>@blue', 'hex:<red player>@red');"
        " base and variant play the same seeds",
        "games_per_pairing": spec.games_per_pairing, "block": spec.block,
        "started": _dt.datetime.now().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} ({platform.machine()}, {platform.python_version()})",
    }  # fmt: skip


def whatif_tables(res) -> dict:
    """``whatif``: the study's pairing table (``WhatIfResult.pairing_table``) in Maneuver's
    words: per ordered pairing of the players (blue's, red's), then ``all`` pooled, blue's,
    red's and the first player's win rate and the draw rate, base and variant, the paired
    change and its 95 % interval, the games whose outcome changed."""
    t = res.pairing_table(pooled=True)
    if len(t):
        t = t.drop(columns=["side_a", "side_b"]).rename(columns=TABLE_NAMES)
        t = t.rename(columns=lambda c: next((STEM_NAMES[s] + c[len(s):] for s in STEM_NAMES
                                             if c.startswith(s + "_")), c))  # fmt: skip
    return {"whatif": t}


__all__ = ["VARIANT_FILE", "apply_edit", "apply_edits", "load_raw",
           "load_scenario_from", "split_quality", "to_toml",
           "whatif_manifest", "whatif_tables", "whatif_variant_options"]  # fmt: skip
