"""A designer's edit of data/terrain.toml reaches every consumer: the rules, the players and
the odds all read the packed redoubt bonus (rule 9.2 Redoubt), none a literal +3."""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.manoeuvre.engine.pack import pack
from manoeuvre_sim.manoeuvre.model import find_army, load_sections, load_terrain
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate


def _records(redoubt: int | None, games: int = 300) -> np.ndarray:
    terrain = load_terrain()
    if redoubt is not None:
        terrain = terrain.model_copy(update={"redoubt_defense": redoubt})
    a, b = find_army("France"), find_army("Russia")  # both hold Redoubt cards
    P = pack(a, b, terrain, load_sections(terrain=terrain))
    cfg = SimConfig("France", "Russia", games=games, seed=12, threads=1)
    return simulate(cfg, prepared=(a, b, P)).records


def test_the_redoubt_bonus_of_the_terrain_table_reaches_the_games():
    base = _records(None)
    assert np.array_equal(base, _records(3))  # the file's value is +3: the same games
    changed = _records(7)
    differ = (base != changed).any(axis=1).mean()
    assert differ > 0.05, differ  # a redoubt worth +7 changes how games go


def test_the_redoubt_bonus_reaches_the_odds():
    from manoeuvre_sim.manoeuvre import odds

    t = load_terrain()
    assert odds.build_defense(5, redoubt=True) == 5 + t.redoubt_defense
    assert odds.build_defense(5, redoubt=True, redoubt_value=7) == 12
    assert odds.build_defense(5, redoubt=True, sappers=True) == 5


def test_the_packed_terrain_holds_the_redoubt_bonus_in_every_row():
    from manoeuvre_sim.manoeuvre.engine.board import TP_REDOUBT, terrain_props

    t = load_terrain().model_copy(update={"redoubt_defense": 5})
    _, tp = terrain_props(t)
    assert (tp[:, TP_REDOUBT] == 5).all()


def test_the_rules_add_the_packed_redoubt_bonus():
    """Rule 9.2 Redoubt: unit 0 (strength 5) on a Clear square with a redoubt marker
    defends at 5 + the table's bonus; Sappers cancel it."""
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.engine.board import terrain_props
    from manoeuvre_sim.manoeuvre.engine.rules import defence_base

    t = load_terrain().model_copy(update={"redoubt_defense": 7})
    letters, tp = terrain_props(t)
    st = S.new_state()
    units = np.zeros((S.NUNITS, S.NUF), dtype=np.int32)
    units[0, : S.UF_REDUCED + 1] = (1, 0, 5, 3)
    sq = 27
    st[S.TERR : S.TERR + 64] = letters.index("C")
    st[S.OCC + sq] = 0
    st[S.U_SQ + 0] = sq
    st[S.U_STEP + 0] = 2
    st[S.REDOUBT + sq] = 1
    assert defence_base(st, units, tp, 0, False) == 12
    assert defence_base(st, units, tp, 0, True) == 5


def test_the_hill_attack_bonus_of_the_terrain_table_reaches_the_odds(monkeypatch):
    """The odds' +2 for attacking from a hill is the Hill's attack_bonus of the table (the
    engine reads TP_ATK from the same table)."""
    from manoeuvre_sim.manoeuvre import odds

    t = load_terrain()
    assert odds.hill_bonus() == t.terrain["H"].attack_bonus == 2
    flat = odds.build_attack(5, ["1d6"], hill=False)
    up = odds.build_attack(5, ["1d6"], hill=True)
    assert up.base - flat.base == 2
    hills = t.model_copy(
        update={
            "terrain": {**t.terrain, "H": t.terrain["H"].model_copy(update={"attack_bonus": 4})}
        }
    )
    monkeypatch.setattr("manoeuvre_sim.manoeuvre.model.load_terrain", lambda *a, **k: hills)
    odds.hill_bonus.cache_clear()
    try:
        assert odds.build_attack(5, ["1d6"], hill=True).base - flat.base == 4
    finally:
        odds.hill_bonus.cache_clear()
