"""The army file schema (one TOML file per army) and its immutable objects.

The objects are frozen pydantic models: validated once when loaded, never changed after.
Rules of the game are checked by default (rule 1.3: 8 units; rule 1.4: 5 unit cards per unit,
20 HQ cards with the leaders, 60 in all). ``relax_deck_rules = true`` in the file (or
``relax=True`` when loading) lifts the deck-composition counts for a designer's experiment;
the structural checks (dice, strengths, card fields) always apply.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationInfo,
    WithJsonSchema,
    model_validator,
)

from manoeuvre_sim.dice import Dice, parse_dice
from manoeuvre_sim.model._types import Flag, Int

UNITS_PER_ARMY = 8  # rule 1.3
CARDS_PER_UNIT = 5  # rule 1.4
HQ_PER_DECK = 20  # rule 1.4, leaders included
DECK_SIZE = 60  # rule 1.4

# The HQ card types of rule 9.2 (leaders, rule 9.1, are listed separately in the file).
HQ_TYPES = (
    "Ambush",
    "Committed Attack",
    "Forced March",
    "Guerrilla",
    "Redoubt",
    "Regroup",
    "Sappers/Engineers",
    "Scout/Spy",
    "Skirmish",
    "Supply",
    "Withdraw",
)
HQType = Literal[
    "Ambush",
    "Committed Attack",
    "Forced March",
    "Guerrilla",
    "Redoubt",
    "Regroup",
    "Sappers/Engineers",
    "Scout/Spy",
    "Skirmish",
    "Supply",
    "Withdraw",
]
# The title printed on an HQ card when the file gives none.
DEFAULT_HQ_TITLE = {t: t for t in HQ_TYPES} | {"Guerrilla": "Guerrillas"}


def _dice(v: object) -> Dice:
    return parse_dice(v)


DiceField = Annotated[
    Dice,
    PlainValidator(_dice),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "pattern": r"^\d+d\d+$"}),
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class UnitCard(BaseModel):
    """One physical unit card (rule 8). Empty fields: the card prints no such value."""

    model_config = _FROZEN

    attack: DiceField | None = None
    defense: Int(0, 20)
    range: Int(1, 2) | None = None
    bombard: DiceField | None = None
    volley: DiceField | None = None
    pursuit_max: Int(1, 6) | None = None
    withdraw_max: Int(1, 6) | None = None
    not_required_to_advance: Flag = False
    artillery: Flag = False

    @model_validator(mode="after")
    def _consistent(self) -> UnitCard:
        if self.artillery:
            if self.bombard is None:
                raise ValueError("an artillery card needs bombard dice (rule 8)")
            if self.attack is not None:
                raise ValueError("an artillery card has no attack value (rule 6.1 step 1)")
        if self.bombard is not None and self.range != 2:
            raise ValueError("a card with bombard dice needs range = 2 (rule 6.2)")
        if self.volley is not None and self.range != 1:
            raise ValueError("a card with volley dice needs range = 1 (rule 6.2)")
        if self.bombard is not None and self.volley is not None:
            raise ValueError("a card may have bombard or volley dice, not both")
        if self.range is not None and self.bombard is None and self.volley is None:
            raise ValueError("range is only printed with bombard or volley dice")
        return self


class Unit(BaseModel):
    """A unit counter (rule 1.3) and its unit cards (rule 1.4)."""

    model_config = _FROZEN

    name: Annotated[str, Field(min_length=1, max_length=60)]
    card_name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    type: Literal["infantry", "cavalry"]
    full: Int(1, 30)
    reduced: Int(1, 30)
    cards: tuple[UnitCard, ...]

    @property
    def is_cavalry(self) -> bool:
        return self.type == "cavalry"

    @property
    def printed_card_name(self) -> str:
        return self.card_name or self.name

    @model_validator(mode="after")
    def _strengths(self) -> Unit:
        if self.reduced >= self.full:
            raise ValueError(
                f"reduced strength ({self.reduced}) must be below full strength ({self.full})"
            )
        if not self.is_cavalry:
            for i, c in enumerate(self.cards, 1):
                if c.pursuit_max is not None:
                    raise ValueError(
                        f"card #{i} has pursuit_max but {self.name!r} is infantry: "
                        "only cavalry units have pursuit values (rule 8)"
                    )
        return self


class Leader(BaseModel):
    """A leader card (rule 9.1). ``combat`` sets both sides; Palafox prints 1/5, written
    ``combat_attack = 1`` and ``combat_defense = 5``."""

    model_config = _FROZEN

    name: Annotated[str, Field(min_length=1, max_length=60)]
    command: Int(1, 8)
    combat: Int(0, 20) | None = None
    combat_attack: Int(0, 20) | None = None
    combat_defense: Int(0, 20) | None = None
    rally: Int(0, 6) | Literal["auto"]
    pursuit_mod: Int(-5, 5) | None = None
    grand_battery: DiceField | None = None

    @model_validator(mode="before")
    @classmethod
    def _split_combat(cls, data: object) -> object:
        if isinstance(data, dict) and "combat" in data:
            if "combat_attack" in data or "combat_defense" in data:
                raise ValueError(
                    "give either combat, or combat_attack and combat_defense, not both"
                )
            data = dict(data)
            data["combat_attack"] = data["combat_defense"] = data["combat"]
        return data

    @model_validator(mode="after")
    def _combat_given(self) -> Leader:
        if self.combat_attack is None or self.combat_defense is None:
            raise ValueError("a leader needs combat (or both combat_attack and combat_defense)")
        return self

    @property
    def rally_auto(self) -> bool:
        return self.rally == "auto"


class HQEntry(BaseModel):
    """``count`` copies of one HQ card (rule 9.2)."""

    model_config = _FROZEN

    type: HQType
    title: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    count: Int(1, 60)

    @property
    def printed_title(self) -> str:
        return self.title or DEFAULT_HQ_TITLE[self.type]


class Army(BaseModel):
    """A nation: its 8 units with their cards, its leaders and HQ cards (rules 1.3, 1.4)."""

    model_config = _FROZEN

    name: Annotated[str, Field(min_length=1, max_length=60)]
    tiebreak_rank: Int(1, 99)
    relax_deck_rules: Flag = False
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...] = ()
    hq: tuple[HQEntry, ...] = ()

    @model_validator(mode="after")
    def _deck_rules(self, info: ValidationInfo) -> Army:
        names = [u.name for u in self.units]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"unit names must be unique, repeated: {', '.join(dup)}")
        lnames = [ld.name for ld in self.leaders]
        dup = sorted({n for n in lnames if lnames.count(n) > 1})
        if dup:
            raise ValueError(f"leader names must be unique, repeated: {', '.join(dup)}")
        if not self.units:
            raise ValueError("an army needs at least one unit")
        if any(not u.cards for u in self.units):
            raise ValueError("every unit needs at least one unit card")
        relax = self.relax_deck_rules or bool((info.context or {}).get("relax"))
        if relax:
            if self.deck_size > 99:
                raise ValueError(f"a deck holds at most 99 cards, this one {self.deck_size}")
            if len(self.units) > 16:
                raise ValueError(f"an army holds at most 16 units, this one {len(self.units)}")
            return self
        hint = " (set relax_deck_rules = true to experiment with other counts)"
        if len(self.units) != UNITS_PER_ARMY:
            raise ValueError(
                f"expected {UNITS_PER_ARMY} units (rule 1.3), found {len(self.units)}{hint}"
            )
        for u in self.units:
            if len(u.cards) != CARDS_PER_UNIT:
                raise ValueError(
                    f"unit {u.name!r}: expected {CARDS_PER_UNIT} unit cards (rule 1.4), "
                    f"found {len(u.cards)}{hint}"
                )
        if self.hq_count != HQ_PER_DECK:
            raise ValueError(
                f"expected {HQ_PER_DECK} HQ cards with the leaders (rule 1.4), found "
                f"{self.hq_count} ({len(self.leaders)} leaders + "
                f"{self.hq_count - len(self.leaders)} others){hint}"
            )
        return self

    @property
    def hq_count(self) -> int:
        return len(self.leaders) + sum(h.count for h in self.hq)

    @property
    def deck_size(self) -> int:
        return sum(len(u.cards) for u in self.units) + self.hq_count

    def unit(self, name: str) -> Unit:
        """The unit called ``name`` (its counter or card name, case-insensitive)."""
        key = name.casefold()
        for u in self.units:
            if key in (u.name.casefold(), u.printed_card_name.casefold()):
                return u
        raise KeyError(name)

    def hq_counts(self) -> dict[str, int]:
        """Count of each HQ type, leaders under ``"Leader"`` (the reference-card manifest)."""
        out = {t: 0 for t in HQ_TYPES}
        out["Leader"] = len(self.leaders)
        for h in self.hq:
            out[h.type] += h.count
        return out

    @property
    def slug(self) -> str:
        import re

        return re.sub(r"[^a-z0-9]+", "_", self.name.lower()).strip("_")
