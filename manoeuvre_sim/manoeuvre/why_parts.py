"""Manoeuvre's hooks for the why study (``studies/why.py``; docs/why.md): an army cut into
the parts a designer recognises, and the neutral reference each part is switched to.

The parts of an army, in its file's order:

- ``unit NAME`` (kind ``unit``): each unit counter with its five unit cards (rules 1.3, 1.4);
- ``leader NAME`` (kind ``leader``): each leader card (rule 9.1);
- ``HQ TYPE xN`` (kind ``hq``): the N HQ cards of one type together (rule 9.2);
- ``tie-break place R`` (kind ``tiebreak``): the army's place in the last nightfall
  tie-breaker list (rule 2.2).

The neutral reference, the same for both sides (so that with every part of both armies
off the two armies are one army and the pairing is even by construction):

- a unit switched off is the *neutral unit*: the median infantry unit of the eight base
  armies (:func:`neutral_unit`; ranked by full + reduced strength + the mean over its
  cards of the expected attack, defence, bombard and volley dice), with its own five cards,
  renamed ``(neutral K)`` after its slot K. Infantry whatever the unit it replaces: a
  reference of the unit's own type would leave the armies' cavalry counts apart with every
  part off, so the type is part of what a unit's contribution measures;
- an HQ card switched off, a leader or any other type, is a *blank* card: it stays in the
  deck (60 cards, so the unit cards come up as often as in the real army) and can only be
  discarded, as the card-value study's ablations (``study.Pairing.patches``). A median
  leader would leave the leader counts apart (4 to 6 per army): a blank is the one
  reference every HQ card has;
- a tie-break place switched off is place :data:`NEUTRAL_RANK`, after every base nation: two
  neutral places tie and the game is drawn, as two equal places (interpretation 2).

Distant Lands armies are refused: their nationalities and bound leaders have no neutral
reference yet.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import replace

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.model import Army, Unit

NEUTRAL_RANK = 99  # rule 2.2: after every nation of the list (Army.tiebreak_rank is 1..99)
WHY_REFERENCE = (
    "a unit: the median infantry unit of the eight base armies with its cards; an HQ card "
    "(leaders included): a blank card that can only be discarded; the tie-break place: "
    f"{NEUTRAL_RANK}, after every nation"
)


def _mean(dice) -> float:
    return 0.0 if dice is None else dice.count * (dice.sides + 1) / 2


def unit_score(u: Unit) -> float:
    """What ranks the units for the neutral one: full + reduced strength + the mean over its
    cards of the expected attack, defence, bombard and volley."""
    cards = [_mean(c.attack) + c.defense + _mean(c.bombard) + _mean(c.volley) for c in u.cards]
    return u.full + u.reduced + sum(cards) / len(cards)


@functools.lru_cache(maxsize=1)
def neutral_unit() -> Unit:
    """The median infantry unit of the eight base armies by :func:`unit_score` (the lower
    median; ties by army and unit name), as printed."""
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    ranked = sorted(((unit_score(u), a.name, u.name, u) for a in load_builtin_armies()
                     for u in a.units if not u.is_cavalry), key=lambda t: t[:3])  # fmt: skip
    return ranked[(len(ranked) - 1) // 2][3]


def neutral_unit_at(slot: int) -> Unit:
    """The neutral unit in slot ``slot`` (0-based) of an army: named ``(neutral K)``."""
    return neutral_unit().model_copy(update={"name": f"(neutral {slot + 1})", "card_name": None})


def neutral_army(name: str = "Neutral", units: int = 8) -> Army:
    """An army every part of which is its neutral reference: ``units`` neutral units, no HQ
    card (relaxed deck rules) and the neutral tie-break place; switching any of its parts
    off leaves it as it is (the planted cases of tests/manoeuvre/test_why_parts.py)."""
    return Army.model_validate(
        {"name": name, "tiebreak_rank": NEUTRAL_RANK, "relax_deck_rules": True,
         "units": [neutral_unit_at(i).model_dump() for i in range(units)]},
        context={"relax": True},
    )  # fmt: skip


def _hq_types(army: Army) -> dict[str, int]:
    out: dict[str, int] = {}
    for h in army.hq:
        out[h.type] = out.get(h.type, 0) + h.count
    return out


def why_parts(army: Army) -> list[tuple[str, str]]:
    """The parts of ``army`` (module docstring), ``(name, kind)`` in file order."""
    if army.distant_lands is not None:
        raise UsageError(f"why: army {army.name!r} follows the Distant Lands rules "
                         f"({army.distant_lands}); its nationalities and bound leaders have no "
                         "neutral reference yet: expected a base-game army")  # fmt: skip
    return ([(f"unit {u.name}", "unit") for u in army.units]
            + [(f"leader {ld.name}", "leader") for ld in army.leaders]
            + [(f"HQ {t} x{n}", "hq") for t, n in _hq_types(army).items()]
            + [(f"tie-break place {army.tiebreak_rank}", "tiebreak")])  # fmt: skip


def switch_off(army: Army, off: Collection[str], side: int) -> tuple[Army, list[tuple]]:
    """``army`` with its parts ``off`` switched to the neutral reference, and the blank-card
    patches of seat ``side`` (``study.Pairing.patches``: (side, copy, -1), copies numbered
    as packed: unit cards unit by unit, leaders, then HQ cards); an unknown part is a
    UsageError naming the army's parts."""
    names = [n for n, _ in why_parts(army)]
    if unknown := sorted(set(off) - set(names)):
        raise UsageError(f"why: {army.name!r} has no part {unknown[0]!r}; its parts: "
                         f"{', '.join(names)}")  # fmt: skip
    units = tuple(neutral_unit_at(i) if f"unit {u.name}" in off else u
                  for i, u in enumerate(army.units))  # fmt: skip
    rank = NEUTRAL_RANK if names[-1] in off else army.tiebreak_rank
    out = army
    if units != army.units or rank != army.tiebreak_rank:
        out = army.model_copy(update={"units": units, "tiebreak_rank": rank})
    copy = sum(len(u.cards) for u in out.units)
    patches = []
    for ld in out.leaders:
        if f"leader {ld.name}" in off:
            patches.append((side, copy, -1))  # a blank leader card: only discarded
        copy += 1
    types = _hq_types(out)
    for h in out.hq:
        blank = f"HQ {h.type} x{types[h.type]}" in off
        for _ in range(h.count):
            if blank:
                patches.append((side, copy, -1))
            copy += 1
    return out, patches


def why_pairing(pairing, off_a: Collection[str], off_b: Collection[str]):
    """``pairing`` with side a's parts ``off_a`` and side b's ``off_b`` switched off
    (:func:`switch_off`): the armies replaced, the blank cards added to its patches."""
    a, pa = switch_off(pairing.army_a, off_a, 0)
    b, pb = switch_off(pairing.army_b, off_b, 1)
    patches = tuple(sorted({*pairing.patches, *pa, *pb}))
    return replace(pairing, army_a=a, army_b=b, patches=patches)


__all__ = ["NEUTRAL_RANK", "WHY_REFERENCE", "neutral_army", "neutral_unit", "neutral_unit_at",
           "switch_off", "unit_score", "why_pairing", "why_parts"]  # fmt: skip
