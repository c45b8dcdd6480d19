"""The cards of an army as a designer names them (the card study's unit of value,
``cards.py``): a leader by its name, an HQ card by its type, a unit card by its unit **and**
printed values (the 2d8/6 and the 1d10/3 card of one unit are different cards); the copies
of one identity are pooled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.model import Army


@dataclass(frozen=True)
class CardIdentity:
    """One card as a designer names it, and its copies (``card_no - 1`` of the export)."""

    label: str
    kind: str  # leader | hq | unit
    unit: str
    copies: tuple[int, ...]


def _unit_label(unit_name: str, c) -> str:
    parts = []
    if c.artillery:
        parts.append(f"bomb {c.bombard}/{c.defense}")
    else:
        if c.attack is not None:
            parts.append(f"{c.attack}/{c.defense}")
        else:
            parts.append(f"-/{c.defense}")
        if c.bombard is not None:
            parts.append(f"bomb {c.bombard}")
        if c.volley is not None:
            parts.append(f"volley {c.volley}")
    if c.pursuit_max:
        parts.append(f"p{c.pursuit_max}")
    if c.withdraw_max:
        parts.append(f"w{c.withdraw_max}")
    if c.not_required_to_advance:
        parts.append("NRA")
    return f"{unit_name} {' '.join(parts)}"


def identities(army: Army) -> list[CardIdentity]:
    """The army's card identities in deck order (unit cards, leaders, HQ cards)."""
    found: dict[str, list] = {}
    order: list[tuple[str, str, str]] = []
    k = 0
    for u in army.units:
        for c in u.cards:
            label = _unit_label(u.name, c)
            if label not in found:
                found[label] = []
                order.append((label, "unit", u.name))
            found[label].append(k)
            k += 1
    for ld in army.leaders:
        found[ld.name] = [k]
        order.append((ld.name, "leader", ""))
        k += 1
    for h in army.hq:
        label = h.type
        if label not in found:
            found[label] = []
            order.append((label, "hq", ""))
        found[label].extend(range(k, k + h.count))
        k += h.count
    return [CardIdentity(lb, kind, unit, tuple(found[lb])) for lb, kind, unit in order]


def find_identity(ids: Sequence[CardIdentity], name: str, what: str) -> CardIdentity:
    """An identity by label (case-insensitive), or a unique part of one."""
    key = name.strip().casefold()
    exact = [i for i in ids if i.label.casefold() == key]
    if exact:
        return exact[0]
    part = [i for i in ids if key and key in i.label.casefold()]
    if len(part) == 1:
        return part[0]
    if part:
        raise UsageError(
            f"{what} {name!r}: matches several cards: " + "; ".join(i.label for i in part)
        )
    raise UsageError(
        f"{what} {name!r}: no such card in this army; expected one of: "
        + "; ".join(i.label for i in ids)
    )
