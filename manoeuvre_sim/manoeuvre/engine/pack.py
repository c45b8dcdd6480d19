"""Packing: validated Python objects -> the fixed-shape integer tables the kernels read.

This is the one boundary between the data model and the kernels; it runs once per run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np

from manoeuvre_sim.core.data import model_json
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.model import Army, MapSection, TerrainTable
from manoeuvre_sim.manoeuvre.model.army import HQ_TYPES, nightfall_ranks


@dataclass(frozen=True)
class Packed:
    """Static tables of one match-up (army A = player 0, army B = player 1).

    units: ndarray(int32, (NUNITS, NUF)); cards: ndarray(int32, (2, MAXC, NCF));
    deck_size: ndarray(int32, (2,)); rank: ndarray(int32, (2,)) rule 2.2 tie-breaker places (the
    Distant Lands list when an expansion army plays, `model.army.nightfall_ranks`);
    tprops: ndarray(int32, (n_codes, 7)); sections: ndarray(int32, (n_sections, 16)) terrain
    codes of the verified pool; section_numbers: ndarray(int32, (n_sections,)).
    """

    units: np.ndarray
    cards: np.ndarray
    deck_size: np.ndarray
    rank: np.ndarray
    tprops: np.ndarray
    sections: np.ndarray
    section_numbers: np.ndarray
    letters: str
    data_hash: str

    @property
    def tables(self) -> Tables:
        """The kernels' tables (everything but the letters and the hash)."""
        return Tables(*(getattr(self, name) for name in Tables._fields))


Tables = NamedTuple(
    "Tables",
    [(f.name, np.ndarray) for f in fields(Packed) if f.name not in ("letters", "data_hash")],
)
Tables.__doc__ = """The packed tables of one match-up as the kernels take them (``play_game``,
``batch.play_games``): one named structure, which numba passes as a typed tuple. Its fields are
:class:`Packed`'s arrays, in Packed's order (encodings there)."""


def nationality_codes(army: Army) -> dict[str | None, int]:
    """Distant Lands nationalities -> codes 1.. in the order the units first name them
    (``UF_NAT``, ``CF_LNAT``); a base army has none."""
    out: dict[str | None, int] = {}
    for u in army.units:
        if u.nationality is not None and u.nationality not in out:
            out[u.nationality] = len(out) + 1
    return out


# What the engine does not play yet of the Distant Lands rules an army file can use: an army
# using one is refused by every engine command (``check_playable``) rather than played as if
# the card or field did nothing. Since Maharaja, the leader restrictions and the Indian
# secondary effects landed (issue 14) the engine plays every rule the file format has; a
# new HQ type the engine cannot play yet is listed here until it does.
NOT_YET_IMPLEMENTED_HQ: dict[str, str] = {}


def engine_support(army: Army) -> list[str]:
    """The Distant Lands rules ``army`` uses that the engine does not play yet, each as
    ``"<rule> (<where in the file>)"``; empty for every base army."""
    return [
        f"{NOT_YET_IMPLEMENTED_HQ[h.type]} (hq #{i} > type)"
        for i, h in enumerate(army.hq, 1)
        if h.type in NOT_YET_IMPLEMENTED_HQ
    ]


def check_playable(army: Army) -> None:
    """Refuse (``UsageError``, one line) an army using a rule the engine does not play yet."""
    missing = engine_support(army)
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise UsageError(
            f"army {army.name!r}: not yet implemented: {missing[0]}{more}; the engine cannot "
            "play this army yet (`armies validate` checks the file)"
        )


def pack_army(army: Army, side: int, units: np.ndarray, cards: np.ndarray) -> int:
    """Write one army's units and cards into the tables; returns its deck size."""
    if len(army.units) > S.MAXU_SIDE:
        raise UsageError(f"army {army.name!r}: at most {S.MAXU_SIDE} units are supported")
    if army.deck_size > S.MAXC:
        raise UsageError(f"army {army.name!r}: at most {S.MAXC} cards are supported")
    nats = nationality_codes(army)
    for i, u in enumerate(army.units):
        uid = side * S.MAXU_SIDE + i
        units[uid] = (1, int(u.is_cavalry), u.full, u.reduced, nats.get(u.nationality, 0))
    c = 0
    for i, u in enumerate(army.units):
        for card in u.cards:
            row = cards[side, c]
            row[S.CF_KIND] = S.KIND_UNIT
            row[S.CF_UNIT] = i
            if card.attack:
                row[S.CF_ATK_N], row[S.CF_ATK_S] = card.attack.count, card.attack.sides
            row[S.CF_DEF] = card.defense
            row[S.CF_RANGE] = card.range or 0
            if card.bombard:
                row[S.CF_BOMB_N], row[S.CF_BOMB_S] = card.bombard.count, card.bombard.sides
            if card.volley:
                row[S.CF_VOL_N], row[S.CF_VOL_S] = card.volley.count, card.volley.sides
            row[S.CF_PURSUIT] = card.pursuit_max or 0
            row[S.CF_WITHDRAW] = card.withdraw_max or 0
            row[S.CF_NRTA] = int(card.not_required_to_advance)
            row[S.CF_ARTY] = int(card.artillery)
            row[S.CF_SECOND] = S.SEC_NAMES.index(card.secondary)
            c += 1
    for ld in army.leaders:
        row = cards[side, c]
        row[S.CF_KIND] = S.KIND_LEADER
        row[S.CF_CMD] = ld.command
        row[S.CF_CBT_A] = ld.combat_attack
        row[S.CF_CBT_D] = ld.combat_defense
        row[S.CF_RALLY] = 6 if ld.rally_auto else ld.rally
        row[S.CF_RALLY_AUTO] = int(ld.rally_auto)
        row[S.CF_PMOD] = ld.pursuit_mod or 0
        if ld.grand_battery:
            row[S.CF_GB_N], row[S.CF_GB_S] = ld.grand_battery.count, ld.grand_battery.sides
        row[S.CF_LNAT] = nats.get(ld.nationality, 0)
        if ld.unit is not None:
            row[S.CF_LUNIT] = 1 + army.units.index(army.unit(ld.unit))
        c += 1
    for h in army.hq:
        for _ in range(h.count):
            cards[side, c, S.CF_KIND] = S.KIND_HQ
            cards[side, c, S.CF_HQ] = HQ_TYPES.index(h.type)
            c += 1
    return c


def pack(
    army_a: Army,
    army_b: Army,
    terrain: TerrainTable,
    sections: tuple[MapSection, ...],
    *,
    include_unverified: bool = False,
    check_rules: bool = True,
) -> Packed:
    """Pack two armies, the terrain table and the section pool for the kernels.

    ``check_rules``: refuse an army using a rule the engine does not play yet
    (:func:`check_playable`); only a test of the packing itself turns it off.
    """
    from manoeuvre_sim.manoeuvre.engine.board import terrain_props

    if check_rules:
        check_playable(army_a)
        check_playable(army_b)
    assert tuple(HQ_TYPES) == S.HQ_NAMES
    units = np.zeros((S.NUNITS, S.NUF), dtype=np.int32)
    cards = np.zeros((2, S.MAXC, S.NCF), dtype=np.int32)
    sizes = np.array(
        [pack_army(army_a, 0, units, cards), pack_army(army_b, 1, units, cards)], dtype=np.int32
    )
    letters, tprops = terrain_props(terrain)
    pool = [s for s in sections if s.verified or include_unverified]
    if len(pool) < 4:
        raise UsageError("at least 4 map sections are needed to build a battlefield")
    secs = np.array([[letters.index(ch) for ch in "".join(s.rows)] for s in pool], dtype=np.int32)
    h = hashlib.sha256()
    for obj in (army_a, army_b, terrain):
        h.update(model_json(obj))
    for s in pool:
        h.update(model_json(s))
    return Packed(
        units=units,
        cards=cards,
        deck_size=sizes,
        rank=np.array(nightfall_ranks(army_a, army_b), dtype=np.int32),  # rule 2.2, DL 2.2
        tprops=tprops.astype(np.int32),
        sections=secs,
        section_numbers=np.array([s.number for s in pool], dtype=np.int32),
        letters=letters,
        data_hash=h.hexdigest()[:16],
    )


def load_packed(
    army_a: str,
    army_b: str,
    *,
    relax: bool = False,
    include_unverified_maps: bool = False,
    sections_file: str | None = None,
) -> tuple[Army, Army, Packed]:
    """Load two armies by name, the terrain table and the map sections (the built-in ones
    and ``sections_file``'s), and pack them."""
    from manoeuvre_sim.manoeuvre.model import find_army, load_map_pool, load_terrain

    a = find_army(army_a, relax=relax)
    b = find_army(army_b, relax=relax)
    terrain = load_terrain()
    sections = load_map_pool(sections_file, terrain)
    return a, b, pack(a, b, terrain, sections, include_unverified=include_unverified_maps)
