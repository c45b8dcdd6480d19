"""Named matchups: a real unit of the army data assaulting a real unit (rule 6.1), with the
exact odds of :mod:`manoeuvre_sim.manoeuvre.odds` for every choice of cards and their mixtures over
the cards the defender happens to hold.

``matchup(...) -> Matchup`` is what ``manoeuvre-sim odds matchup`` prints; ``find_terrain``,
``find_unit`` and ``find_leader`` look the names of the command line up in the data and
raise a readable error naming the side and the expected values.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from manoeuvre_sim.core.errors import DataError, UsageError
from manoeuvre_sim.manoeuvre.combat import BAND_NAMES, N_BANDS
from manoeuvre_sim.manoeuvre.dice import Dice
from manoeuvre_sim.manoeuvre.odds import (
    AssaultOdds,
    _check_int,
    assault_odds,
    build_attack,
    build_defense,
    dice_label,
)

HAND_SIZE = 5  # the draw phase fills the hand to 5 cards (reference card, phase 2)


@dataclass(frozen=True)
class MatchupRow:
    """Odds for one attack-card choice against one defense-card choice."""

    attack: str  # e.g. "2d8"
    attack_cards: int  # physical card combinations giving this choice
    defense: str  # e.g. "none" or "+7"
    defense_cards: int  # physical card combinations giving this choice
    defense_total: int
    odds: AssaultOdds


@dataclass(frozen=True)
class Matchup:
    """A named unit assaulting a named unit: exact odds for each card choice and the
    mixtures over the cards the defender happens to hold."""

    title: str
    attack_base: int
    defense_base: int
    rows: tuple[MatchupRow, ...]
    # attack label -> band probabilities when the defender plays one card drawn uniformly
    # from its unit's cards (the card it happens to hold), and overall (attacker's choice
    # drawn uniformly from its attack-card combinations too)
    held_mixture: dict[str, np.ndarray]
    overall: np.ndarray
    # attack label -> band probabilities when the defender's hand is a random 5 cards of its
    # deck and it plays every card of the defending unit it holds; hand_cards[k] is the
    # chance it holds exactly k of the unit's cards
    hand_mixture: dict[str, np.ndarray] = field(default_factory=dict)
    hand_overall: np.ndarray | None = None
    hand_cards: np.ndarray | None = None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        def bands(p):
            return {n: float(x) for n, x in zip(BAND_NAMES, p, strict=True)}

        return {
            "title": self.title,
            "attack_base": self.attack_base,
            "defense_base": self.defense_base,
            "bands_exclusive": True,
            "rows": [
                {
                    "attack": r.attack,
                    "attack_card_combinations": r.attack_cards,
                    "defense": r.defense,
                    "defense_card_combinations": r.defense_cards,
                    "defense_total": r.defense_total,
                    **r.odds.bands,
                    "attack_total_mean": r.odds.attack_total_mean,
                }
                for r in self.rows
            ],
            "defender_holds_random_card": {k: bands(v) for k, v in self.held_mixture.items()},
            "overall": bands(self.overall),
            "defender_random_hand": {k: bands(v) for k, v in self.hand_mixture.items()},
            "defender_random_hand_overall": bands(self.hand_overall),
            "defender_hand_unit_cards": [float(x) for x in self.hand_cards],
            "notes": list(self.notes),
        }


def find_terrain(table, name: str | None, who: str):
    """The terrain named ``name`` (or its first letter; None: Clear) in ``table``, which a
    unit may stand in; UsageError naming ``who`` ('attacker', 'defender') otherwise."""
    if not name:
        return table.terrain["C"]
    key = name.strip().casefold()
    for t in table.terrain.values():
        if t.name.casefold() == key or key == t.name[0].casefold():
            if not t.enterable:
                raise UsageError(f"{who} terrain: no unit can stand in a {t.name} square")
            return t
    names = ", ".join(t.name.lower() for t in table.terrain.values() if t.enterable)
    raise UsageError(f"{who} terrain: unknown terrain {name!r}; expected one of: {names}")


def find_unit(army_name: str, unit_name: str, who: str):
    """(army, unit) by names; DataError listing the army's units otherwise."""
    from manoeuvre_sim.manoeuvre.model import find_army

    army = find_army(army_name)
    try:
        return army, army.unit(unit_name)
    except KeyError:
        known = ", ".join(u.name for u in army.units)
        raise DataError(
            army.name, [(f"{who} unit", f"unknown unit {unit_name!r}; expected one of: {known}")]
        ) from None


def find_leader(army, name: str | None, who: str):
    """The leader of ``army`` named ``name`` (or one word of it); None for no name."""
    if not name:
        return None
    key = name.strip().casefold()
    for ld in army.leaders:
        if ld.name.casefold() == key or key in ld.name.casefold().split():
            return ld
    known = ", ".join(ld.name for ld in army.leaders) or "none"
    raise DataError(
        army.name, [(f"{who} leader", f"unknown leader {name!r}; expected one of: {known}")]
    )


def matchup(
    attacker_army: str,
    attacker_unit: str,
    defender_army: str,
    defender_unit: str,
    *,
    attacker_reduced: bool = False,
    defender_reduced: bool = False,
    attacker_terrain: str | None = None,
    defender_terrain: str | None = None,
    redoubt: bool = False,
    sappers: bool = False,
    committed: int = 0,
    attacker_leader: str | None = None,
    defender_leader: str | None = None,
    attack_cards: int = 1,
    defender_cards: int = 1,
) -> Matchup:
    """Exact odds of a real unit assaulting a real unit (rule 6.1), from the army data.

    For every choice of ``attack_cards`` of the attacker's unit cards that have attack dice
    (grouped by their dice), against the defender playing no card or ``defender_cards`` of
    its unit's cards (grouped by total defense value). ``held_mixture`` averages over the
    defender's choice as if it holds ``defender_cards`` cards drawn uniformly from its
    unit's cards and plays them; ``overall`` also averages the attacker's choice uniformly
    over its attack-card combinations. ``hand_mixture`` is the whole distribution over
    which of its unit's cards the defender happens to hold: its hand is 5 cards drawn
    uniformly from its deck (``army.deck_size``, 60), and it plays every card of the
    defending unit it holds (each only adds defense).

    Terrain names are those of ``data/terrain.toml`` (clear, field, hill, marsh, town,
    woods). The +2 hill attack bonus applies when the attacker is on a hill and the defender
    is not; an attacker in a marsh may not assault (rule 6.1 step 1).
    """
    from manoeuvre_sim.manoeuvre.model import load_terrain

    a_army, a_unit = find_unit(attacker_army, attacker_unit, "attacker")
    d_army, d_unit = find_unit(defender_army, defender_unit, "defender")
    table = load_terrain()
    a_ter = find_terrain(table, attacker_terrain, "attacker")
    d_ter = find_terrain(table, defender_terrain, "defender")
    if a_ter.no_assault_from:
        raise UsageError(f"a unit in a {a_ter.name} square may not assault (rule 6.1 step 1)")
    a_lead = find_leader(a_army, attacker_leader, "attacker")
    d_lead = find_leader(d_army, defender_leader, "defender")
    bonus = a_ter.attack_bonus if a_ter.name != d_ter.name else 0
    strength = a_unit.reduced if attacker_reduced else a_unit.full
    a_cards = [c for c in a_unit.cards if c.attack is not None]
    if not a_cards:
        raise UsageError(f"{a_unit.name} has no unit card with an attack value (rule 6.1 step 1)")
    k_att = _check_int("attack cards", attack_cards, 1, len(a_cards))
    k_def = _check_int("defender cards", defender_cards, 1, len(d_unit.cards))
    attack_choices = _attack_choices(a_cards, k_att)
    hand_subsets, hand_k = _hand_subsets(d_unit.cards, d_army.deck_size)
    defense_choices = _defense_choices(d_unit.cards, k_def)
    d_strength = d_unit.reduced if defender_reduced else d_unit.full
    d_base = build_defense(
        d_strength,
        terrain=d_ter.defense,
        redoubt=redoubt,
        sappers=sappers,
        leader_combat=d_lead.combat_defense if d_lead else 0,
        redoubt_value=table.redoubt_defense,
    )
    leader_combat = a_lead.combat_attack if a_lead else 0
    a_base, rows, held, overall, hand, hand_overall = _odds_table(
        attack_choices, strength, bonus > 0, leader_combat, committed, d_base,
        defense_choices, hand_subsets,
    )  # fmt: skip
    notes = _notes(bonus, a_ter, d_ter, redoubt, sappers, a_lead, d_lead)
    title = (
        f"{a_army.name} {a_unit.name} ({'reduced' if attacker_reduced else 'full'}, "
        f"{strength}) assaults {d_army.name} {d_unit.name} "
        f"({'reduced' if defender_reduced else 'full'}, {d_strength})"
    )
    return Matchup(
        title, a_base, d_base, tuple(rows), held, overall, hand, hand_overall, hand_k, tuple(notes)
    )


def _odds_table(attack_choices, strength: int, hill: bool, leader_combat: int, committed: int,
                d_base: int, defense_choices, hand_subsets):  # fmt: skip
    """The odds of every attack choice: ``(attack base, rows, held mixtures, overall, hand
    mixtures, hand overall)``, the overall ones weighted by the attack choices' card
    combinations."""
    rows, held, overall, total_w = [], {}, np.zeros(N_BANDS), 0
    hand, hand_overall = {}, np.zeros(N_BANDS)
    a_base = None
    for dice, a_w in sorted(attack_choices.items()):
        att = build_attack(
            strength, dice, hill=hill, leader_combat=leader_combat, committed=committed
        )
        a_base = att.base
        label = dice_label(dice, committed)
        choice_rows, mix = _against_defenses(att, label, a_w, d_base, defense_choices)
        rows += choice_rows
        held[label] = mix
        overall += a_w * mix
        total_w += a_w
        hmix = _hand_mixture(att, d_base, hand_subsets)
        hand[label] = hmix
        hand_overall += a_w * hmix
    return a_base, rows, held, overall / total_w, hand, hand_overall / total_w


def _attack_choices(a_cards, k: int) -> dict[tuple[Dice, ...], int]:
    """The attacker's choices of ``k`` unit cards, by their dice: how many physical card
    combinations give each."""
    choices: dict[tuple[Dice, ...], int] = {}
    for combo in itertools.combinations(a_cards, k):
        key = tuple(sorted(c.attack for c in combo))
        choices[key] = choices.get(key, 0) + 1
    return choices


def _defense_choices(cards, k: int) -> dict[int, int]:
    """The defender's choices of ``k`` of its unit's ``cards``, by their total defense:
    how many physical card combinations give each."""
    choices: dict[int, int] = {}
    for combo in itertools.combinations(cards, k):
        v = sum(c.defense for c in combo)
        choices[v] = choices.get(v, 0) + 1
    return choices


def _hand_subsets(cards, deck: int) -> tuple[dict[int, float], np.ndarray]:
    """The chance of each total defense the defender's hand holds of its unit's ``cards``,
    and of holding exactly k of them. Rule 4 (draw phase): a hand of 5 cards from the deck;
    P(holding exactly the subset S of the unit's cards) = C(deck - unit cards, 5 - |S|) /
    C(deck, 5)."""
    n_unit = len(cards)
    hand_subsets: dict[int, float] = {}
    hand_k = np.zeros(n_unit + 1)
    for k in range(min(n_unit, HAND_SIZE) + 1):
        p_sub = math.comb(deck - n_unit, HAND_SIZE - k) / math.comb(deck, HAND_SIZE)
        for combo in itertools.combinations(cards, k):
            v = sum(c.defense for c in combo)
            hand_subsets[v] = hand_subsets.get(v, 0.0) + p_sub
            hand_k[k] += p_sub
    return hand_subsets, hand_k


def _against_defenses(att, label: str, a_w: int, d_base: int, defense_choices):
    """One attack choice's rows (against no defense card, then each defense choice) and its
    bands when the defender plays the cards it holds, drawn uniformly from its unit's."""
    rows = [MatchupRow(label, a_w, "none", 1, d_base, assault_odds(att, d_base))]
    mix = np.zeros(N_BANDS)
    d_w_total = 0
    for v, d_w in sorted(defense_choices.items()):
        o = assault_odds(att, d_base + v)
        rows.append(MatchupRow(label, a_w, f"+{v}", d_w, d_base + v, o))
        mix += d_w * o.probs
        d_w_total += d_w
    mix /= d_w_total
    return rows, mix


def _hand_mixture(att, d_base: int, hand_subsets) -> np.ndarray:
    """The bands when the defender plays every card of its unit a random hand holds."""
    hmix = np.zeros(N_BANDS)
    for v, p_v in hand_subsets.items():
        hmix += p_v * assault_odds(att, d_base + v).probs
    return hmix


def _notes(bonus: int, a_ter, d_ter, redoubt: bool, sappers: bool, a_lead, d_lead) -> list[str]:
    """What changed the totals: terrain, redoubt, leaders."""
    notes = []
    if bonus:
        notes.append(f"attacker's square {a_ter.name}, defender's not: +{bonus} attack")
    if d_ter.defense:
        notes.append(f"defender's square {d_ter.name}: +{d_ter.defense} defense")
    if redoubt:
        notes.append("redoubt cancelled by Sappers/Engineers" if sappers else "redoubt: +3")
    if a_lead:
        notes.append(f"attacking leader {a_lead.name}: combat +{a_lead.combat_attack}")
    if d_lead:
        notes.append(f"defending leader {d_lead.name}: combat +{d_lead.combat_defense}")
    return notes
