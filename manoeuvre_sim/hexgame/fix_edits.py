"""Maneuver's hooks for the balance fixer (``studies/fix.py``; docs/fix.md, "Maneuver"): a
side is one of the scenario's two sides (blue, red) carrying its scenario content and its
army quality, the edits it offers are in ``hex whatif --set``'s language
(``whatif_variant.py``), each accepted by the what-if's own edit code (the edited scenario
validated as a scenario file), so every errata the fixer prints replays in ``hex whatif``.

The kinds (a step's default cost, the default range in steps):

- ``strength``: a unit entry's combat strength (infantry, cavalry) or attack or defence
  (artillery, the Capital), its front or its reduced side, one point a step
  (``blue/Infantry/strength=5``, ``blue/Infantry/strength=4:3``); the front side stays the
  stronger (rule [3]: "the side with larger combat strengths") and rule [5]'s two
  zero-strength units stay two (the scenario's validation).
- ``movement``: a unit entry's movement allowance, one hex a step (``blue/Cavalry/ma=6``;
  the Capital's stays 0, rule [5]).
- ``count``: how many counters an entry has, one a step (``red/Infantry/count=5``), within
  the set-up room the scenario's borders leave (rule [3]).
- ``quality``: rule [13] 2's army quality, one more (or fewer) of the side's combat units
  set up on its weak side (``blue/quality=2``: its first 2 combat units in scenario order,
  the handicap ladder's rung 2; ``front`` is 0). ``hex whatif --set blue/quality=2`` plays
  the variant so (the base keeps ``--quality``).

A side from ``adapter.scenario_sides`` plays exactly the games of the plain side of the same
scenario and quality (the adapter's ``prepare``): the base of a fix is the variant study's
games, and the ladder's rung k is the fixer's ``SIDE/quality=k`` (tested).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from manoeuvre_sim.core.errors import DataError, UsageError

FIX_EDIT_KINDS: dict[str, tuple[int, int, str]] = {
    "strength": (1, 1, "a unit's strength, attack or defence, front or reduced, 1 point a step"),
    "movement": (1, 1, "a unit's movement allowance, 1 hex a step"),
    "count": (1, 1, "a unit entry's number of counters, 1 a step"),
    "quality": (1, 1, "army quality (rule [13] 2): one combat unit more or fewer set up weak"),
}
SIDES = ("blue", "red")
PAIR_FIELDS = ("strength", "attack", "defence")


def canonical(raw: dict) -> str:
    """A scenario's content as the canonical JSON a side carries (hashable, picklable)."""
    return json.dumps(raw, sort_keys=True, separators=(",", ":"))


def _raw(side) -> dict:
    if side.scenario is None:
        raise UsageError(f"side {side.name!r}: the fixer edits a side built with its scenario "
                         "(hexgame.adapter.scenario_sides(options))")  # fmt: skip
    return json.loads(side.scenario)


def combat_units(raw: dict, side: str) -> int:
    """The side's combat units (the Capital aside): the most quality can put weak."""
    return sum(u.get("count", 1) for u in raw["sides"][side]["units"] if u["type"] != "capital")


def quality_k(q: str, n: int) -> int | None:
    """Quality ``q`` as a number of weak combat units (0..n); None for ``units:...``."""
    if q == "front":
        return 0
    if q == "back":
        return n
    return min(int(q), n) if q.isdigit() else None


def _quality_text(k: int) -> str:
    return "front" if k == 0 else str(k)


def _unit_ref(units: list[dict], i: int) -> str:
    """How an edit names entry ``i``: its name when that hits it alone (the what-if matches a
    name or a type), else its position ``#N``."""
    name = units[i].get("name", "")
    hit = [u for u in units if u.get("type") == name.lower() or u.get("name") == name]
    ok = name and len(hit) == 1 and "/" not in name and "=" not in name and name.strip() == name
    return name if ok else f"#{i + 1}"


def _candidates(side, costs: Mapping[str, tuple[int, int]]) -> list[tuple[str, str, int]]:
    raw = _raw(side)
    s = side.name
    units = raw["sides"][s]["units"]
    out: list[tuple[str, str, int]] = []

    def steps(kind: str):
        if kind in costs:
            cost, rng = costs[kind]
            for k in range(1, rng + 1):
                yield k, cost * k

    for i, u in enumerate(units):
        ref = f"{s}/{_unit_ref(units, i)}"
        for k, cost in steps("strength"):
            for fld in (f for f in PAIR_FIELDS if f in u):
                front, reduced = u[fld]
                for v in (front - k, front + k):  # rule [3] checked by apply_side_edits
                    out.append((f"{ref}/{fld}={v}", "strength", cost))
                for v in (reduced - k, reduced + k):
                    # the Capital's back is its captured side (rule [11]): no strength
                    if u["type"] != "capital":
                        out.append((f"{ref}/{fld}={front}:{v}", "strength", cost))
        for k, cost in steps("movement"):
            for v in (u["ma"] - k, u["ma"] + k):
                out.append((f"{ref}/ma={v}", "movement", cost))
        for k, cost in steps("count"):
            n = u.get("count", 1)
            for v in (n - k, n + k):
                out.append((f"{ref}/count={v}", "count", cost))
    q = quality_k(side.quality or "front", combat_units(raw, s))
    if q is not None:
        for k, cost in steps("quality"):
            for v in (q - k, q + k):
                if 0 <= v <= combat_units(raw, s):
                    out.append((f"{s}/quality={_quality_text(v)}", "quality", cost))
    return out


def fix_edits(side, costs: Mapping[str, tuple[int, int]]) -> list[tuple[str, str, int]]:
    """The candidate edits of ``side`` (a side of ``adapter.scenario_sides``) under ``costs``
    (kind -> (cost of a step, range in steps)): ``(edit, kind, cost)``, only those the
    what-if's edit code accepts (the scenario revalidated: rule [5]'s two zero-strength
    units, the Capital's MA 0, set-up room under every border ...)."""
    out = []
    for text, kind, cost in _candidates(side, costs):
        try:
            apply_side_edits(side, [text])
        except UsageError:
            continue
        out.append((text, kind, cost))
    return out


def _split(edit: str) -> tuple[str, str, str]:
    path, sep, value = edit.partition("=")
    parts = [p.strip() for p in path.split("/")]
    return parts[0] if parts else "", "/".join(parts[1:]), value.strip() if sep else ""


def _value_of(raw: dict, side: str, ref: str, fld: str):
    units = raw["sides"][side]["units"]
    if ref.startswith("#"):
        hit = [units[int(ref[1:]) - 1]]
    else:
        hit = [u for u in units if u.get("type") == ref.lower() or u.get("name") == ref]
    return [u.get(fld, 1 if fld == "count" else None) for u in hit]


def apply_side_edits(side, edits: Sequence[str], *, relax: bool = False):
    """``side`` with the what-if ``edits`` of its own units (``SIDE/UNIT/FIELD=VALUE``,
    ``whatif_variant.apply_edits``: the scenario revalidated) or of its army quality
    (``SIDE/quality=Q``) applied in order, and the change lines ("blue Infantry strength:
    [4, 2] -> [5, 2]"); ``relax``: nothing to relax (a scenario has one validation)."""
    from dataclasses import replace

    from manoeuvre_sim.hexgame.records import HexOptions
    from manoeuvre_sim.hexgame.whatif_variant import apply_edits

    raw = _raw(side)
    quality = side.quality or "front"
    lines = []
    for edit in edits:
        who, rest, value = _split(edit)
        if who != side.name:
            raise UsageError(f"--set {edit!r}: expected an edit of the side {side.name} "
                             f"({side.name}/UNIT/FIELD=VALUE or {side.name}/quality=Q)")  # fmt: skip
        if rest == "quality":
            try:
                HexOptions(**{f"quality_{side.name}": value})
            except UsageError:
                raise UsageError(f"--set {edit!r}: expected {side.name}/quality=front, back or "
                                 "a number of combat units set up weak (rule [13] 2)") from None  # fmt: skip
            lines.append(f"{side.name} quality (rule [13] 2): {quality} -> {value}")
            quality = value
            continue
        try:
            new = apply_edits(raw, [edit])  # the what-if's own edit code and validation
        except DataError as e:  # the edited scenario breaks a rule: the first problem
            raise UsageError(f"--set {edit!r}: {e.problems[0][0]}: {e.problems[0][1]}") from None
        ref, _, fld = rest.rpartition("/")
        before, after = _value_of(raw, side.name, ref, fld), _value_of(new, side.name, ref, fld)
        for b, a in zip(before, after, strict=True):
            if fld in PAIR_FIELDS and a[0] < a[1]:
                raise UsageError(f"--set {edit!r}: the front side must stay the stronger (rule "
                                 f"[3]), got {a[0]}:{a[1]}")  # fmt: skip
            lines.append(f"{side.name} {ref} {fld}: {list(b) if isinstance(b, list) else b} -> "
                         f"{list(a) if isinstance(a, list) else a}")  # fmt: skip
        raw = new
    return replace(side, scenario=canonical(raw), quality=quality), lines


# ------------------------------------------------- the fixer's balance study of the two sides


def sides_check(spec) -> None:
    """The fixer's balance spec: blue then red, the players of each part valid, the
    border one of the scenario's."""
    from manoeuvre_sim.hexgame import parse_policy
    from manoeuvre_sim.hexgame.scenario import Scenario, load_scenario

    if tuple(spec.names) != SIDES:
        raise UsageError(f"sides {','.join(spec.names)}: Maneuver's sides are blue, red")
    for ps in spec.policies:
        for flag, p in (("--policy", ps.policy_a), ("--policy", ps.policy_b)):
            try:
                parse_policy(p)
            except ValueError as e:
                raise UsageError(f"{flag}: {e}") from None
    sc = load_scenario(spec.options.scenario)
    borders = sc.borders
    for side in spec.sides:  # a side's map and borders are the study's scenario's
        theirs = {k: v for k, v in _raw(side).items() if k != "sides"}
        ours = {k: v for k, v in json.loads(sc.canonical()).items() if k != "sides"}
        if Scenario.model_validate(theirs | {"sides": _raw(side)["sides"]}).model_dump(
                mode="json", exclude={"sides"}) != ours:  # fmt: skip
            raise UsageError(f"side {side.name!r}: built from another scenario than the "
                             f"study's ({sc.name}); build both from the same options")  # fmt: skip
    if spec.options.border not in borders:
        raise UsageError(f"--border: {spec.options.border!r} is not a border of the scenario "
                         f"({', '.join(borders)})")  # fmt: skip


__all__ = ["FIX_EDIT_KINDS", "apply_side_edits", "canonical", "combat_units", "fix_edits",
           "quality_k", "sides_check"]  # fmt: skip
