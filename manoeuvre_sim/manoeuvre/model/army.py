"""The army file schema (one TOML file per army) and its immutable objects.

The objects are frozen pydantic models: validated once when loaded, never changed after.
Rules of the game are checked by default (rule 1.3: 8 units; rule 1.4: 5 unit cards per unit,
20 HQ cards with the leaders, 60 in all). ``relax_deck_rules = true`` in the file (or
``relax=True`` when loading) lifts the deck-composition counts for a designer's experiment;
the structural checks (dice, strengths, card fields) always apply.

Distant Lands (rules ``000_*``): an army that says ``distant_lands = "India"`` (or
``"China"``, ``"Japan"``, ``"Sweden"``) may use the expansion's fields — a unit's
``nationality``, a leader's ``nationality`` or ``unit``, a unit card's ``secondary`` effect,
the HQ types Rockets, Banzai Charge, Death With Honour and Maharaja. A base army refuses
them, each with the field's path and the rule. Fields a base army never sets are left out of
its serialised form, so the base armies' data hashes did not change when they were added.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationInfo,
    WithJsonSchema,
    model_serializer,
    model_validator,
)

from manoeuvre_sim.core.data import Flag, Int
from manoeuvre_sim.manoeuvre.dice import Dice, parse_dice

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
    # Distant Lands (rules 9.1, 9.2); appended so the base types keep their codes
    "Rockets",
    "Banzai Charge",
    "Death With Honour",
    "Maharaja",
)
# The Distant Lands HQ types, and the one nation allowed each where the rules name one.
DL_HQ_TYPES = ("Rockets", "Banzai Charge", "Death With Honour", "Maharaja")
DL_HQ_NATION = {"Death With Honour": "Japan", "Maharaja": "India"}  # rules 9.2, 9.1
DL_NATIONS = ("India", "China", "Japan", "Sweden")
# rule 1.4 (Distant Lands): "Leader HQ cards plus three to eight of the other types"
DL_OTHER_TYPES = (3, 8)
HQType = Literal[HQ_TYPES]  # a tuple subscript is the same as its items listed
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

# A unit card's Distant Lands secondary effect (rule 8: Unit Redoubt, Guerrillas, Committed
# Attack), usable only while the card's unit is on the board.
Secondary = Literal["redoubt", "guerrillas", "committed attack"]
Name = Annotated[str, Field(min_length=1, max_length=60)]


class _Schema(BaseModel):
    """Leaves the Distant Lands fields out of the serialised form while they are unset, so a
    base army serialises (and hashes: ``manoeuvre.adapter.army_hash``, ``pack``) as before them."""

    _EXPANSION_FIELDS: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _drop_unset_expansion_fields(self, handler):
        out = handler(self)
        if isinstance(out, dict):
            for k in self._EXPANSION_FIELDS:
                if out.get(k) is None:
                    out.pop(k, None)
        return out


class UnitCard(_Schema):
    """One physical unit card (rule 8). Empty fields: the card prints no such value."""

    model_config = _FROZEN
    _EXPANSION_FIELDS = ("secondary",)

    attack: DiceField | None = None
    defense: Int(0, 20)
    range: Int(1, 2) | None = None
    bombard: DiceField | None = None
    volley: DiceField | None = None
    pursuit_max: Int(1, 6) | None = None
    withdraw_max: Int(1, 6) | None = None
    not_required_to_advance: Flag = False
    artillery: Flag = False
    secondary: Secondary | None = None  # Distant Lands rule 8 (India)

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
        if self.secondary == "committed attack" and self.attack is None:
            raise ValueError(
                "secondary = 'committed attack' needs attack dice on the card: the attack "
                "is made using this card (Distant Lands rule 8)"
            )
        return self

    def ability_terms(self) -> list[str]:
        """The card's pursuit, withdrawal and advance abilities in words, as printed
        (``["pursuit 1-4", "withdraw 1", "not required to advance"]``)."""
        terms = []
        if self.pursuit_max:
            terms.append(f"pursuit {d6_range(self.pursuit_max)}")
        if self.withdraw_max:
            terms.append(f"withdraw {d6_range(self.withdraw_max)}")
        if self.not_required_to_advance:
            terms.append("not required to advance")
        return terms


def d6_range(n: int) -> str:
    """The faces 1..n a d6 roll succeeds on, as printed: ``'1-4'``, ``'1'``."""
    return f"1-{n}" if n > 1 else "1"


class Unit(_Schema):
    """A unit counter (rule 1.3) and its unit cards (rule 1.4)."""

    model_config = _FROZEN
    _EXPANSION_FIELDS = ("nationality",)

    name: Name
    card_name: Name | None = None
    type: Literal["infantry", "cavalry"]
    full: Int(1, 30)
    reduced: Int(1, 30)
    cards: tuple[UnitCard, ...]
    nationality: Name | None = None  # Distant Lands: India's Mysore, Punjab, ... (rule 9.1)

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


class Leader(_Schema):
    """A leader card (rule 9.1). ``combat`` sets both sides; Palafox prints 1/5, written
    ``combat_attack = 1`` and ``combat_defense = 5``.

    Distant Lands (rule 9.1): an Indian leader's ``nationality`` restricts it to the units of
    that nationality; a Japanese leader's ``unit`` names the one unit it acts for (with a
    1d6 assault value); Tokugawa names none."""

    model_config = _FROZEN
    _EXPANSION_FIELDS = ("nationality", "unit")

    name: Name
    command: Int(1, 8)
    combat: Int(0, 20) | None = None
    combat_attack: Int(0, 20) | None = None
    combat_defense: Int(0, 20) | None = None
    rally: Int(0, 6) | Literal["auto"]
    pursuit_mod: Int(-5, 5) | None = None
    grand_battery: DiceField | None = None
    nationality: Name | None = None
    unit: Name | None = None

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
        if self.nationality is not None and self.unit is not None:
            raise ValueError(
                "a leader has a nationality (an Indian leader) or a unit (a Japanese leader), "
                "not both (Distant Lands rule 9.1)"
            )
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


# rule 2.2 and Distant Lands rule 2.2: the last nightfall tie-breaker, "the country first
# shown in the following list which is involved in the battle wins". The base list (rule
# 2.2): United States, Ottoman Empire, Spain, Austria, Prussia, Russia, Great Britain, France
# (a base army file's tiebreak_rank is its place in it, 1..8). The expansion's list:
DL_TIEBREAK_LIST = (
    "India", "Qing Dynasty", "United States", "Tokugawa Shogunate", "Spain", "Austria",
    "Sweden", "Ottoman Empire", "Prussia", "Russia", "Great Britain", "France",
)  # fmt: skip
# an expansion army's place in it, by its distant_lands nation (China: the Qing Dynasty,
# Japan: the Tokugawa Shogunate)
DL_NATION_RANK = {"India": 1, "China": 2, "Japan": 4, "Sweden": 7}
# a base army's place in it, by its place in the base list (United States 3, Ottoman 8, ...)
BASE_RANK_IN_DL = (3, 8, 5, 6, 9, 10, 11, 12)


def nightfall_ranks(army_a: Army, army_b: Army) -> tuple[int, int]:
    """The two armies' places in the list of the last nightfall tie-breaker (lower wins,
    equal draws: interpretation 2). Base armies against each other: their base places
    (rule 2.2), as given. When an expansion army plays (Distant Lands rule 2.2), both take
    their places in the expansion's list: an expansion army its own (``tiebreak_rank``, its
    nation's place, checked when loaded), a base army the place of the base nation at its
    base rank (rank 2, the Ottoman Empire: 8); a designer's base rank beyond the base
    list's 8 stays after every listed nation, in its order (12 + rank - 8)."""
    if army_a.distant_lands is None and army_b.distant_lands is None:
        return army_a.tiebreak_rank, army_b.tiebreak_rank

    def dl_rank(army: Army) -> int:
        r = army.tiebreak_rank
        if army.distant_lands is not None:
            return r
        return BASE_RANK_IN_DL[r - 1] if r <= len(BASE_RANK_IN_DL) else 12 + r - 8

    return dl_rank(army_a), dl_rank(army_b)


class Army(_Schema):
    """A nation: its 8 units with their cards, its leaders and HQ cards (rules 1.3, 1.4).
    ``distant_lands`` names the expansion nation whose rules the army follows (None: a base
    army)."""

    model_config = _FROZEN
    _EXPANSION_FIELDS = ("distant_lands",)

    name: Name
    tiebreak_rank: Int(1, 99)
    distant_lands: Literal["India", "China", "Japan", "Sweden"] | None = None
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
        _distant_lands_rules(self, relax)
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


def _unit_where(i: int, u: Unit) -> str:
    return f'units #{i} "{u.name}"'


def _distant_lands_rules(army: Army, relax: bool) -> None:
    """The Distant Lands fields: refused in a base army, checked against the expansion's
    rules in an expansion army. Each error starts with the field's path in the file."""
    nation = army.distant_lands
    used = _expansion_fields(army)
    if nation is not None and army.tiebreak_rank != DL_NATION_RANK[nation]:
        listed = ", ".join(f"{i} {n}" for i, n in enumerate(DL_TIEBREAK_LIST, 1))
        raise ValueError(
            f"tiebreak_rank: expected {DL_NATION_RANK[nation]} for distant_lands = "
            f"{nation!r}, got {army.tiebreak_rank}: an expansion army gives its nation's "
            f"place in the Distant Lands rule 2.2 list ({listed})"
        )
    if nation is None:
        if used:
            where, what, _, rule = used[0]
            raise ValueError(
                f"{where}: a base-game army cannot have {what} (Distant Lands {rule}); "
                'expected distant_lands = "India", "China", "Japan" or "Sweden" '
                "at the top of the file to use the expansion's rules"
            )
        return
    for where, what, only, rule in used:
        # nation-only HQ types are deck composition (lifted by relax); fields are rules
        if only is not None and only != nation and not (relax and "hq #" in where):
            raise ValueError(
                f"{where}: only a Distant Lands army of {only} can have {what} "
                f"(Distant Lands {rule}); this army is distant_lands = {nation!r}"
            )
    if nation == "India":
        _indian_nationalities(army)
    for i, ld in enumerate(army.leaders, 1):
        if ld.unit is not None:
            try:
                army.unit(ld.unit)
            except KeyError:
                raise ValueError(
                    f'leaders #{i} "{ld.name}" > unit: no unit of the army is called '
                    f"{ld.unit!r}; expected one of: {', '.join(u.name for u in army.units)} "
                    "(Distant Lands rule 9.1)"
                ) from None
    if any(h.type == "Maharaja" for h in army.hq) and not army.leaders:
        raise ValueError(
            "hq > Maharaja: a Maharaja is played with a leader, and this army has none "
            "(Distant Lands rule 9.1)"
        )
    if relax:
        return
    if not army.leaders:
        raise ValueError(
            "leaders: expected at least one leader: every nation has Leader HQ cards "
            "(Distant Lands rule 1.4) (set relax_deck_rules = true to experiment)"
        )
    others = sorted({h.type for h in army.hq})
    lo, hi = DL_OTHER_TYPES
    if not lo <= len(others) <= hi:
        raise ValueError(
            f"hq: expected {lo} to {hi} HQ card types besides the leaders (Distant Lands "
            f"rule 1.4), found {len(others)} ({', '.join(others) or 'none'}) "
            "(set relax_deck_rules = true to experiment with other counts)"
        )


def _expansion_fields(army: Army) -> list[tuple[str, str, str | None, str]]:
    """Every expansion field the army sets, as (path, field, the nation allowed, rule)."""
    used: list[tuple[str, str, str | None, str]] = []
    for i, u in enumerate(army.units, 1):
        if u.nationality is not None:
            used.append((f"{_unit_where(i, u)} > nationality", "a unit nationality", "India",
                         "rule 9.1"))  # fmt: skip
        for j, c in enumerate(u.cards, 1):
            if c.secondary is not None:
                used.append((f"{_unit_where(i, u)} > cards #{j} > secondary",
                             "a unit card's secondary effect", "India", "rule 8"))  # fmt: skip
    for i, ld in enumerate(army.leaders, 1):
        where = f'leaders #{i} "{ld.name}"'
        if ld.nationality is not None:
            used.append((f"{where} > nationality", "a leader nationality", "India", "rule 9.1"))
        if ld.unit is not None:
            used.append((f"{where} > unit", "a leader bound to one unit", "Japan", "rule 9.1"))
    for i, h in enumerate(army.hq, 1):
        if h.type in DL_HQ_TYPES:
            used.append((f"hq #{i} > type", f"{h.type} cards", DL_HQ_NATION.get(h.type),
                         "rule 9.1" if h.type == "Maharaja" else "rule 9.2"))  # fmt: skip
    return used


def _indian_nationalities(army: Army) -> None:
    """An Indian army: every unit and leader has a nationality, each leader's one of its
    units' (Distant Lands rules 8, 9.1)."""
    nationalities = {u.nationality for u in army.units if u.nationality is not None}
    for i, u in enumerate(army.units, 1):
        if u.nationality is None:
            raise ValueError(
                f"{_unit_where(i, u)} > nationality: required field is missing: every "
                'Indian unit has a nationality (e.g. "Mysore"), which its leaders, '
                "redoubt cards and Maharaja refer to (Distant Lands rules 8, 9.1)"
            )
    for i, ld in enumerate(army.leaders, 1):
        if ld.nationality is None:
            raise ValueError(
                f'leaders #{i} "{ld.name}" > nationality: required field is missing: an '
                "Indian leader acts only for units of its nationality (Distant Lands "
                f"rule 9.1); expected one of: {', '.join(sorted(nationalities))}"
            )
        if ld.nationality not in nationalities:
            raise ValueError(
                f'leaders #{i} "{ld.name}" > nationality: no unit of the army has '
                f"nationality {ld.nationality!r}; expected one of: "
                f"{', '.join(sorted(nationalities))} (Distant Lands rule 9.1)"
            )
