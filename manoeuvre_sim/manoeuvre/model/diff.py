"""Field-level differences between two armies (``describe_changes``), as the what-if study
prints them, and how a field's value is written in them and in edits (``show_value``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from manoeuvre_sim.manoeuvre.model.army import Army, Leader, Unit, UnitCard


def show_value(value: object) -> str:
    """A field's value as the edits and differences write it: ``none``, ``true``/``false``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _card_summary(card: UnitCard) -> str:
    fields = card.model_dump(exclude_defaults=True)
    return ", ".join(f"{k} {show_value(v)}" for k, v in fields.items())


def _diff_fields(label: str, old: object, new: object, names: Sequence[str]) -> list[str]:
    out = []
    for name in names:
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            out.append(f"{label} / {name}: {show_value(a)} -> {show_value(b)}")
    return out


def _diff_by_position(
    old: Sequence, new: Sequence, removed: Callable, added: Callable, changed: Callable
) -> list[str]:
    """Two lists compared by position: ``removed(j, item)`` (a line) for an item only ``old``
    has, ``added(j, item)`` for one only ``new`` has, ``changed(j, a, b)`` (lines) for a pair."""
    out = []
    for j in range(max(len(old), len(new))):
        if j >= len(new):
            out.append(removed(j, old[j]))
        elif j >= len(old):
            out.append(added(j, new[j]))
        else:
            out += changed(j, old[j], new[j])
    return out


def _diff_unit(label: str, old: Unit, new: Unit) -> list[str]:
    out = _diff_fields(label, old, new, ("name", "card_name", "type", "full", "reduced"))
    names = tuple(UnitCard.model_fields)
    return out + _diff_by_position(
        old.cards,
        new.cards,
        lambda j, card: f"{label} / card{j + 1}: removed ({_card_summary(card)})",
        lambda j, card: f"{label} / card{j + 1}: added ({_card_summary(card)})",
        lambda j, a, b: _diff_fields(f"{label} / card{j + 1}", a, b, names),
    )


def _diff_leader(label: str, old: Leader, new: Leader) -> list[str]:
    out = _diff_fields(label, old, new, ("command",))
    same_old = old.combat_attack == old.combat_defense
    same_new = new.combat_attack == new.combat_defense
    if same_old and same_new:
        if old.combat_attack != new.combat_attack:
            out.append(f"{label} / combat: {old.combat_attack} -> {new.combat_attack}")
    else:
        out += _diff_fields(label, old, new, ("combat_attack", "combat_defense"))
    return out + _diff_fields(label, old, new, ("rally", "pursuit_mod", "grand_battery"))


def describe_changes(base: Army, variant: Army) -> list[str]:
    """Field-level differences of ``variant`` against ``base``, one line each.

    Units and their cards are compared by position (``'France / Garde Imperial / card1 /
    attack: 2d8 -> 2d10'``, labelled with the base unit's name), leaders by name, HQ cards by
    type (``'France / cards / Supply: 4 -> 3'``); a change of deck size gets a last line.
    Identical armies give ``[]``.
    """
    army = base.name
    out = _diff_fields(army, base, variant, ("name", "tiebreak_rank", "relax_deck_rules"))
    out += _diff_by_position(
        base.units,
        variant.units,
        lambda i, unit: f"{army} / unit {i + 1} ({unit.name}): removed",
        lambda i, unit: f"{army} / unit {i + 1} ({unit.name}): added",
        lambda i, a, b: _diff_unit(f"{army} / {a.name}", a, b),
    )

    new_leaders = {ld.name.casefold(): ld for ld in variant.leaders}
    old_names = {ld.name.casefold() for ld in base.leaders}
    for ld in base.leaders:
        other = new_leaders.get(ld.name.casefold())
        if other is None:
            out.append(f"{army} / leaders / {ld.name}: removed")
        else:
            out += _diff_leader(f"{army} / leaders / {ld.name}", ld, other)
    out += [
        f"{army} / leaders / {ld.name}: added"
        for ld in variant.leaders
        if ld.name.casefold() not in old_names
    ]

    old_hq = {h.type: h for h in base.hq}
    new_hq = {h.type: h for h in variant.hq}
    for t in list(old_hq) + [t for t in new_hq if t not in old_hq]:
        a, b = old_hq.get(t), new_hq.get(t)
        if (a.count if a else 0) != (b.count if b else 0):
            out.append(f"{army} / cards / {t}: {a.count if a else 0} -> {b.count if b else 0}")
        if a and b and a.printed_title != b.printed_title:
            out.append(f"{army} / cards / {t} / title: {a.printed_title} -> {b.printed_title}")

    if (base.deck_size, base.hq_count) != (variant.deck_size, variant.hq_count):
        out.append(
            f"{army} / deck: {base.deck_size} -> {variant.deck_size} cards "
            f"({base.hq_count} -> {variant.hq_count} HQ cards)"
        )
    return out
