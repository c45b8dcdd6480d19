"""Flat views of an army: the reference spreadsheet columns, one row per physical card."""

from __future__ import annotations

from manoeuvre_sim.manoeuvre.model.army import Army

# Exactly the columns of the reference transcription (tests/fixtures/reference/manoeuvre_cards.csv).
CARD_COLUMNS = (
    "army", "card_no", "kind", "name", "unit", "hq_type", "attack", "defense", "range",
    "bombard", "volley", "pursuit_max", "withdraw_max", "not_required_to_advance",
    "artillery", "leader_command", "leader_combat_attack", "leader_combat_defense",
    "leader_rally_max", "leader_pursuit_mod", "special", "image_checked",
)  # fmt: skip
UNIT_COLUMNS = ("army", "unit", "unit_type", "full_strength", "reduced_strength")


def _s(v: object) -> str:
    return "" if v is None else str(v)


def card_rows(army: Army) -> list[dict[str, str]]:
    """Every card of the deck as a row of strings in ``CARD_COLUMNS`` (empty = not printed).

    Cards are numbered 1..N in file order: unit cards unit by unit, then leaders, then HQ
    cards. ``image_checked`` is 1: the built-in data were checked against the printed cards.
    """
    rows: list[dict[str, str]] = []

    def add(**kw: str) -> None:
        row = {c: "" for c in CARD_COLUMNS}
        row.update(army=army.name, card_no=str(len(rows) + 1), image_checked="1")
        row.update(not_required_to_advance="0", artillery="0")
        row.update({k: _s(v) for k, v in kw.items()})
        rows.append(row)

    for u in army.units:
        for c in u.cards:
            add(
                kind="unit", name=u.printed_card_name, unit=u.name, attack=c.attack,
                defense=c.defense, range=c.range, bombard=c.bombard, volley=c.volley,
                pursuit_max=c.pursuit_max, withdraw_max=c.withdraw_max,
                not_required_to_advance=int(c.not_required_to_advance),
                artillery=int(c.artillery),
                special=f"Secondary: {c.secondary}" if c.secondary else "",
            )  # fmt: skip
    for ld in army.leaders:
        special = []
        if ld.combat_attack != ld.combat_defense:
            special.append(f"Attack: {ld.combat_attack}, Def: {ld.combat_defense}")
        if ld.grand_battery is not None:
            special.append(f"Grand Battery: Range 2 from any unit, Damage {ld.grand_battery}")
        if ld.nationality is not None:
            special.append(f"Nationality: {ld.nationality}")
        if ld.unit is not None:
            special.append(f"Unit: {ld.unit}")
        add(
            kind="leader", name=ld.name, leader_command=ld.command,
            leader_combat_attack=ld.combat_attack, leader_combat_defense=ld.combat_defense,
            leader_rally_max=ld.rally, leader_pursuit_mod=ld.pursuit_mod,
            special="; ".join(special),
        )  # fmt: skip
    for h in army.hq:
        for _ in range(h.count):
            add(kind="hq", name=h.printed_title, hq_type=h.type)
    return rows


def unit_rows(army: Army) -> list[dict[str, str]]:
    """The units as rows of strings in ``UNIT_COLUMNS``."""
    return [
        {"army": army.name, "unit": u.name, "unit_type": u.type,
         "full_strength": str(u.full), "reduced_strength": str(u.reduced)}
        for u in army.units
    ]  # fmt: skip
