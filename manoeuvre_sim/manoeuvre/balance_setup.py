"""What Manoeuvre's balance study compares (``studies/balance.py``, through the adapter's
``balance_command``): the armies a study names (built-in names, army files or ``Army``
objects) and the play styles (``--policies``: one part of the study per style, both seats
alike; else ``--policy-a``/``--policy-b``). The card study and the what-if name theirs so
too (``whatif_variant.py`` builds its field and its one pair of players from these).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import PolicySpec
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
from manoeuvre_sim.manoeuvre.model import Army


def policy_specs(
    policy: str | None = None,
    policy_a: str | None = None,
    policy_b: str | None = None,
    policies: Sequence[str] | None = None,
) -> tuple:
    """``policies`` (one part per style, both seats alike), else ``policy_a/b`` (default
    ``policy``), else ``policy`` for both: ``core.study.PolicySpec``s, checked against
    the known policies."""
    from manoeuvre_sim.manoeuvre.runner import check_policy

    if policies:
        out = [PolicySpec(p, p) for p in policies]
        if len(set(policies)) != len(policies):
            raise UsageError("--policies: a policy is named twice")
    else:
        base = policy or DEFAULT_POLICY
        out = [PolicySpec(policy_a or base, policy_b or base)]
    for spec in out:
        # named by the option that gave it, as the user typed it
        seat_a = "--policies" if policies else "--policy-a" if policy_a else "--policy"
        seat_b = "--policies" if policies else "--policy-b" if policy_b else "--policy"
        check_policy(spec.policy_a, seat_a)
        check_policy(spec.policy_b, seat_b)
    return tuple(out)


def resolve_armies(armies: Sequence[str | Army], *, relax: bool = False):
    """Load the armies a study names (built-in names, files or objects) and refuse, before
    any game, an army using a rule the engine does not play yet: ``(armies, sources)``."""
    from manoeuvre_sim.manoeuvre.engine.pack import check_playable
    from manoeuvre_sim.manoeuvre.model import find_army

    loaded, sources = [], []
    for a in armies:
        if isinstance(a, Army):
            loaded.append(a)
            sources.append(f"(object) {a.name}")
        else:
            loaded.append(find_army(str(a), relax=relax))
            p = Path(str(a))
            sources.append(str(p.resolve()) if p.suffix.lower() == ".toml" else loaded[-1].name)
        check_playable(loaded[-1])
    return loaded, sources


def army_names(armies: str | Sequence[str | Army] | None) -> list:
    """The armies ``--armies`` names, comma-separated (None: the eight built-in armies), or
    a list of names, files or armies as given."""
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    if armies is None:
        return [a.name for a in load_builtin_armies()]
    if not isinstance(armies, str):
        return list(armies)
    names = [a.strip() for a in armies.split(",") if a.strip()]
    if not names:
        raise UsageError("--armies: expected comma-separated army names or .toml files")
    return names
