"""Maneuver's rules, one drawn position each (rules 001; ``hex_boards`` explains the
drawings: two text lines per row, the second the odd columns, half a hex lower)."""

from __future__ import annotations

import numpy as np

from manoeuvre_sim.hexgame import board as B
from manoeuvre_sim.hexgame import combat as C
from manoeuvre_sim.hexgame import game as G
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.crt import DE, DR, NE
from tests.hexgame.hex_boards import Board


def _reach(b, name):
    u = b.unit(name)
    B.refresh(b.st, b.g)
    B.reach(b.st, b.g, u, B.movement_allowance(b.st, b.g, u))
    return {b.grid.label(h): int(c) for h, c in enumerate(b.g.wk[S.W_REACH, : b.grid.n]) if c >= 0}


def _attack(b, attackers, defenders):
    """Resolve one attack (rule [8]) of the units drawn at ``attackers`` on ``defenders``."""
    for i, u in enumerate(attackers):
        b.g.wk[S.W_ATT, i] = u
    for i, name in enumerate(defenders):
        b.g.wk[S.W_DEF, i] = b.hex(name)
    side = attackers[0] // 16
    b.st[S.PLAYER] = side
    C.resolve(b.st, b.g, side, len(attackers), len(defenders))
    results = b.events(S.EV_RESULT)
    return results[-1][2] if results else None


# ---------------------------------------------------------------------- rule [7] ZOC
def test_zoc_stops_a_move_on_entering():
    # blue cavalry (MA 5) in the corner 0101: its only neighbours 0102 and 0201 are both in
    # the ZOC of red infantry 0202 (ZOC: 0201 0203 0102 0103 0302 0303)
    b = Board("""
        C   .   .
          .   .   .
        .   .   .
          i   .   .
        .   .   .
          .   .   .
        .   .   .
          .   .   .
    """)
    r = _reach(b, "0101")
    # rule [7]: whichever it enters, it stops there; 0301, two hexes away by 0201, and
    # everything beyond are out of reach despite MA 5
    assert r == {"0101": 0, "0102": 1, "0201": 1}
    assert b.g.dist[b.hex("0101"), b.hex("0301")] == 2


def test_never_zoc_to_zoc_but_a_unit_starting_in_zoc_may_leave():
    # blue infantry 0202 starts in the ZOC of red infantry 0303; 0203 and 0302 are ZOC too
    b = Board("""
        .   .   .
          .   .   .
        .   .   .
          I   .   .
        .   i   .
          .   .   .
        .   .   .
          .   .   .
        .   .   .
          .   .   .
        .   .   .
          .   .   .
    """)
    r = _reach(b, "0202")
    assert r["0201"] == 1 and r["0102"] == 1 and r["0103"] == 1  # it may leave
    assert r["0203"] == 2  # not directly (ZOC to ZOC), only by 0103, out of the ZOC
    assert r["0302"] == 2  # likewise by 0201
    assert r["0401"] == 3  # and move on normally once out


# ---------------------------------------------------------------------- rule [6] stacking
def test_stacking_excess_removed_at_the_end_of_the_phase():
    # two blue infantry in 0101 (over the limit), infantry + artillery + Capital in 0501
    b = Board("""
        II  .   KIA
          .   .   .
        .   .   .
          .   .   .
    """)
    C.enforce_stacking(b.st, b.g, 0)
    assert len(b.units_at("0101")) == 1  # rule [6]: the excess removed ...
    assert b.st[S.ELIM] == 1  # ... to the dead pile
    assert len(b.units_at("0501")) == 3  # one Infantry, one Artillery and the Capital fit
    assert len(b.events(S.EV_STACK)) == 1


def test_moves_never_end_over_the_stacking_limit():
    b = Board("""
        I   I   .
          .   .   .
        .   .   .
          .   .   .
    """)
    b.st[S.FLAGS + b.unit("0301")] |= S.F_MOVED  # it has moved: 0101's unit may not join it
    u = b.unit("0101")
    assert not B.fits(b.st, b.g, u, b.hex("0301"), S.F_MOVED)
    assert B.fits(b.st, b.g, u, b.hex("0201"), S.F_MOVED)


# ---------------------------------------------------------------------- rule [8] retreats
TRAP = """
    I   .   .
      .   .   .
    .   .   .
      i   .   .
    .   .   .
      .   .   .
    .   .   .
      .   .   .
"""


def test_retreat_into_an_enemy_zoc_eliminates():
    # blue infantry 0101 (a corner: retreat hexes 0102, 0201) must retreat; red infantry
    # 0202 puts both in its ZOC and no friend stands there
    b = Board(TRAP)
    u = b.unit("0101")
    b.g.wk[S.W_RQ, 0] = u
    C.retreat_queue(b.st, b.g, 0, 1, False)
    assert b.st[S.POS + u] == S.DEAD
    assert b.events(S.EV_ELIM)[-1][2] == 4  # cause 4: retreated into an enemy ZOC


def test_chain_retreat_and_a_friend_saving_the_retreating_unit():
    # as above, but blue artillery stands in 0201: the infantry retreats there (in the ZOC,
    # but a friendly non-retreating unit is there) and the artillery must retreat one hex
    b = Board(
        TRAP.replace(
            "  .   .   .\n    .   .   .\n      i", "  A   .   .\n    .   .   .\n      i", 1
        )
    )
    inf, art = b.unit("0101"), b.unit("0201")
    b.g.wk[S.W_RQ, 0] = inf
    C.retreat_queue(b.st, b.g, 0, 1, False)
    assert b.pos(inf) == "0201"  # saved by the artillery standing there
    assert b.pos(art) in ("0101", "0301")  # the chain retreat: the hexes not in red's ZOC
    assert len(b.events(S.EV_RETREAT)) == 2
    assert b.st[S.ELIM] == 0


# Two defending hexes side by side, both to retreat (a DR on both): blue infantry 0101 (a
# corner: its neighbours are 0201 and 0102) and blue infantry 0201; red infantry 0102 is
# beside both, its ZOC covers 0101, 0201, 0202 and 0103.
#
#     I   .          row 1: 0101 blue infantry, 0301
#       I   .               0201 blue infantry, 0401
#     i   .          row 2: 0102 red infantry
#       .   .
DOUBLE = """
    I   .
      I   .
    i   .
      .   .
"""


def test_a_chain_retreat_never_moves_a_unit_twice():
    # rule [8]: "a one-hex retreat" for each unit. 0101's only way out is 0201, whose unit
    # is itself due to retreat by the same result: it is retreating, so it is neither
    # pushed a second time nor does it save 0101's unit in red's ZOC (the audit's game:
    # `hex replay --seed 3107 --game 10 --step-losses`, where 0908's unit went 0908 -> 0907
    # -> 1006 and the unit from 0909 stayed alive in 0908)
    for together in (0, 1):
        b = Board(DOUBLE, options=S.default_options(retreat_apart=1 - together))
        first, second = b.unit("0101"), b.unit("0201")
        b.g.wk[S.W_RQ, 0], b.g.wk[S.W_RQ, 1] = first, second  # as a DR queues them
        C.retreat_queue(b.st, b.g, 0, 2, False)
        moved = [ev[0] for ev in b.events(S.EV_RETREAT)]
        assert moved.count(second) == 1, together
        assert b.st[S.POS + first] == S.DEAD, together  # no hex (H11) / into red's ZOC
        assert b.pos(second) in ("0301", "0302"), together  # out of red's ZOC (0202: dead)


def test_units_of_one_hex_may_retreat_together():
    # rule [8]: units "need not remain together while retreating", so they may: blue
    # infantry and artillery in 0201 must both retreat; red infantry 0102 and 0303 leave
    # one hex out of their ZOC, 0301 (0101, 0202 and 0302 are in it). Both go there. The
    # switch --retreat-apart (H11's earlier reading) lets no two retreating units share a
    # hex: the second has only hexes in red's ZOC left, and is eliminated.
    diagram = """
        .   .
          IA  .
        i   .
          .   .
        .   i
          .   .
        .   .
          .   .
    """
    for apart in (0, 1):
        b = Board(diagram, options=S.default_options(retreat_apart=apart))
        inf, art = b.unit("0201", 0), b.unit("0201", 1)
        b.g.wk[S.W_RQ, 0], b.g.wk[S.W_RQ, 1] = inf, art
        C.retreat_queue(b.st, b.g, 0, 2, False)
        assert b.pos(inf) == "0301"
        if apart:
            assert b.st[S.POS + art] == S.DEAD and b.st[S.ELIM] == 1
        else:
            assert b.pos(art) == "0301" and b.st[S.ELIM] == 0
            assert len(b.events(S.EV_RETREAT)) == 2


# ---------------------------------------------------------------------- rule [8] combat
ADVANCE = """
    K   .   .
      .   .   .
    .   I   .
      .   i   .
    .   i   .
      .   .   .
    .   .   .
      .   .   .
    .   k   .
      .   .   .
"""


def test_de_eliminates_and_the_attacker_may_advance_zoc_to_zoc():
    # blue infantry 0302 attacks red infantry 0303 with dice 6 against 1: 4+6 - (4+1) = +5,
    # DE. Both hexes are in the ZOC of red 0402: the advance ignores rule [6]'s limits.
    b = Board(ADVANCE)
    att = b.unit("0302")
    b.rig_dice(6, 1)
    assert _attack(b, [att], ["0303"]) == DE
    assert b.units_at("0303") == [att]  # the capital player advances toward red's Capital
    assert b.events(S.EV_ADVANCE) == [(att, b.hex("0302"), b.hex("0303"))]


def test_dr_retreats_the_defender_and_ne_changes_nothing():
    b = Board(ADVANCE)
    att, dfd = b.unit("0302"), b.unit("0303")
    b.rig_dice(4, 1)  # +3: DR
    assert _attack(b, [att], ["0303"]) == DR
    assert b.pos(dfd) not in ("0303", None)
    b = Board(ADVANCE)
    b.rig_dice(2, 2)  # 0: NE
    assert _attack(b, [b.unit("0302")], ["0303"]) == NE
    assert b.pos(b.unit("0303")) == "0303"


WITHDRAW = """
    K   .   .
      .   .   .
    .   {a}   .
      .   .   .
    .   c   .
      .   .   .
    .   .   .
      .   .   .
    .   k   .
      .   .   .
"""


def test_cavalry_withdraws_before_combat_and_infantry_advances():
    b = Board(WITHDRAW.format(a="I"))
    inf, cav = b.unit("0302"), b.unit("0303")
    b.st[S.FLAGS + inf] |= S.F_USED  # as the combat phase marks an attacker
    assert _attack(b, [inf], ["0303"]) is None  # no combat: the hex was vacated
    assert b.events(S.EV_WITHDRAW) and b.pos(cav) not in ("0303", None)
    assert b.pos(inf) == "0303"  # the infantry's advance
    assert b.st[S.FLAGS + inf] & S.F_USED  # "advancing units may not attack after advancing"


def test_after_a_withdrawal_units_that_did_not_advance_may_still_attack():
    b = Board(WITHDRAW.format(a="A"))  # artillery cannot advance (rule [8]: infantry only)
    art = b.unit("0302")
    b.st[S.FLAGS + art] |= S.F_USED  # as the combat phase marks an attacker
    assert _attack(b, [art], ["0303"]) is None
    assert b.pos(art) == "0302" and not b.st[S.FLAGS + art] & S.F_USED  # H10


def test_no_withdrawal_against_attacking_cavalry():
    b = Board(WITHDRAW.format(a="C"))
    b.rig_dice(1, 1)  # 2+1 - (2+1) = 0: NE
    assert _attack(b, [b.unit("0302")], ["0303"]) == NE
    assert not b.events(S.EV_WITHDRAW)
    assert b.pos(b.unit("0303")) == "0303"


# ---------------------------------------------------------------------- rule [9] supply
SUPPLY = """
    K
      .
    .
      .
    {x}
      i
    {y}
      .
    .
      .
    I
      .
"""


def test_supply_cut_by_a_vacant_hex_in_enemy_zoc():
    # a 2-column map: blue Capital 0101, blue infantry 0106; red infantry 0203 puts 0103,
    # 0104 (and 0202, 0204) in its ZOC, so every path from 0106 crosses a vacant ZOC hex
    b = Board(SUPPLY.format(x=".", y="."))
    inf = b.unit("0106")
    B.refresh(b.st, b.g)
    B.supply_map(b.st, b.g, 0)
    assert not B.supplied(b.st, b.g, inf)
    assert B.strength(b.st, b.g, inf, True, True) == 2  # rule [9]: -2 in combat
    b.st[S.FLAGS + inf] |= S.F_UNSUPPLIED
    assert B.movement_allowance(b.st, b.g, inf) == 2  # and -1 MA


def test_friendly_units_keep_the_supply_path_open():
    b = Board(SUPPLY.format(x="A", y="I"))  # 0103, 0104 occupied by friends: not vacant
    B.refresh(b.st, b.g)
    B.supply_map(b.st, b.g, 0)
    assert B.supplied(b.st, b.g, b.unit("0106"))


# ---------------------------------------------------------------------- rule [11] Capital
SIEGE = """
    .   i   .
      .   .   .
    i   KI  i
      .   .   .
    .   .   .
      .   .   .
    .   i   .
      .   .   .
    .   .   .
      .   .   I
"""


def test_besieged_capital_supplies_only_its_hex_and_gets_no_replacements():
    b = Board(SIEGE)
    B.refresh(b.st, b.g)
    assert B.besieged(b.st, b.g, 0)
    B.supply_map(b.st, b.g, 0)
    assert B.supplied(b.st, b.g, b.unit("0302", 1))  # in the Capital: supplied
    assert not B.supplied(b.st, b.g, b.unit("0605"))  # everyone else unsupplied
    dead = 3  # blue infantry in the dead pile
    b.st[S.POS + dead] = S.DEAD
    G.replacement(b.st, b.g, 0)
    assert b.st[S.POS + dead] == S.DEAD  # rule [10]: none while besieged
    b.st[S.POS + b.unit("0502")] = S.ABSENT  # lift the siege (0402 free)
    B.refresh(b.st, b.g)
    assert not B.besieged(b.st, b.g, 0)
    G.replacement(b.st, b.g, 0)
    assert b.pos(dead) == "0302"  # at the Capital


CAPITAL = """
    .   .   .
      .   .   .
    .   KI  .
      a   .   .
    .   i   .
      .   .   .
    .   .   k
      .   .   .
"""


def test_capital_hex_ignores_dr_and_de_captures_it():
    b = Board(CAPITAL)
    atts = [b.unit("0303"), b.unit("0202")]  # red infantry and artillery, both beside 0302
    b.rig_dice(3, 1)  # 4+5+3 - (4+4+1) = +3: DR, no effect in the Capital's hex
    assert _attack(b, atts, ["0302"]) == DR
    assert len(b.units_at("0302")) == 2
    b.rig_dice(6, 1)  # +6: DE, the Capital captured, the infantry eliminated
    for u in atts:
        b.st[S.FLAGS + u] = 0
    assert _attack(b, atts, ["0302"]) == DE
    assert b.st[S.CAP_CAPTURED] == 1 and b.st[S.CAP_FELL] == 3
    assert b.units_at("0302") == [0, atts[0]]  # red infantry advanced into the hex
    assert b.events(S.EV_CAPTURE) == [(0, b.hex("0302"), 0)]


def test_recapture_when_the_captors_are_eliminated_or_a_friend_moves_in():
    b = Board(CAPITAL.replace("KI", "Ki").replace("      a   .   .", "      I   .   ."))
    b.st[S.CAP_CAPTURED] = 1  # blue's Capital held by red infantry in 0302
    # blue infantry 0202, unsupplied (its Capital captured supplies nobody): 4-2+6 - (4+1)
    b.rig_dice(6, 1)  # = +3: DR, the captors retreat
    assert _attack(b, [b.unit("0202")], ["0302"]) == DR
    assert b.st[S.CAP_CAPTURED] == 0  # rule [11]: recaptured the instant they fall
    assert b.events(S.EV_RECAPTURE)[0][:2] == (0, b.hex("0302"))
    b = Board(CAPITAL.replace("KI", "K "))
    b.st[S.CAP_CAPTURED] = 1
    B.enter(b.st, b.g, 1, b.hex("0302"))  # a blue infantry moves in
    assert b.st[S.CAP_CAPTURED] == 0


def test_recapture_when_the_captors_withdraw():
    # blue's Capital 0203, captured, held by red cavalry; blue artillery 0202 attacks it.
    # No attacking cavalry: the red cavalry withdraws (rule [8]) toward its Capital 0404,
    # and the hex is empty of enemy units: recaptured "the instant all enemy units in its
    # hex are retreated" (rule [11], H16). Artillery does not advance, so no
    # unit re-enters the hex to recapture it on the way (the audit's case).
    b = Board("""
        .   .   .
          .   .   .
        .   .   .
          A   .   .
        .   .   .
          Xc  .   .
        .   .   .
          .   k   .
    """)
    b.st[S.CAP_CAPTURED] = 1
    art, cav = b.unit("0202"), b.unit("0203", 1)
    b.st[S.FLAGS + art] |= S.F_USED
    assert _attack(b, [art], ["0203"]) is None  # no combat: the hex was vacated
    assert b.events(S.EV_WITHDRAW) and b.pos(cav) != "0203" and b.pos(art) == "0202"
    assert b.st[S.CAP_CAPTURED] == 0
    assert b.events(S.EV_RECAPTURE) == [(0, b.hex("0203"), 1)]


def test_captured_capital_has_no_zoc_unless_the_switch_says_so():
    # red infantry 0301 beside the captured blue Capital 0302: its ZOC would hold it
    diagram = """
        .   i   .
          .   .   .
        .   K   .
          .   .   .
    """
    for switch, moves in ((0, True), (1, False)):
        b = Board(diagram, options=S.default_options(captured_zoc=switch))
        b.st[S.CAP_CAPTURED] = 1
        r = _reach(b, "0301")
        assert ("0401" in r and "0501" in r) == moves  # H6: 0401 is in the Capital's ZOC


def test_mandatory_attacks_spare_the_capital_both_ways():
    # red infantry 0104 beside blue infantry 0103 -> mandatory; red infantry 0304 beside
    # the blue Capital's hex only -> not; the red Capital 0504 beside blue 0503 -> never
    b = Board("""
        .   .   .
          .   .   .
        .   .   .
          .   .   .
        I   K   I
          .   .   .
        i   i   k
          .   .   .
    """)
    B.refresh(b.st, b.g)
    n = C.mandatory_map(b.st, b.g, 0)
    marked = {b.grid.label(int(b.g.wk[S.W_MLIST, i])) for i in range(n)}
    assert marked == {"0104"} and n == 1


# Blue infantry 0202 beside two red hexes, 0303 and 0203; the blue Capital and artillery
# in 0104 are beside 0203 only:
#
#     .   .   .         row 1
#       .   .   .
#     .   .   .         row 2: 0202 blue infantry
#       I   .   .
#     .   i   .         row 3: 0303 red infantry; 0203 red infantry
#       i   .   .
#     KA  .   .         row 4: 0104 the blue Capital and artillery
#       .   .   .
CAPITAL_DUTY = """
    .   .   .
      .   .   .
    .   .   .
      I   .   .
    .   i   .
      i   .   .
    KA  .   .
      .   .   .
"""


def test_the_capitals_hex_never_has_to_meet_another_units_duty():
    # rule [11]: the Capital "and any units in its hex are never required" to attack. Both
    # red hexes are owed an attack (each is beside the infantry, outside the Capital's
    # hex), and only the infantry can pay it: it may attack 0303 only together with 0203.
    b = Board(CAPITAL_DUTY)
    inf = b.unit("0202")
    n, nm = C.attacker_options(b.st, b.g, 0)
    assert nm == 2 and -1 not in b.g.wk[S.W_OPTS, :n]  # the phase may not end yet
    b.st[S.FLAGS + inf] |= S.F_USED  # as the combat phase marks the first attacker
    n = C.defender_masks(b.st, b.g, 0, inf, nm)
    h = b.st[S.POS + inf]
    sets = [{b.grid.label(int(b.g.nbr[h, d])) for d in range(6) if m >> d & 1}
            for m in b.g.wk[S.W_OPTS, :n]]  # fmt: skip
    assert sets == [{"0303", "0203"}]
    # had it attacked 0303 alone, 0203 would no longer be owed: only the Capital's hex is
    # left beside it, and the phase may end (the audit: it could not)
    b.st[S.FLAGS + b.unit("0303")] |= S.F_ATTACKED
    B.refresh(b.st, b.g)
    assert C.mandatory_map(b.st, b.g, 0) == 0
    n, nm = C.attacker_options(b.st, b.g, 0)
    assert nm == 0 and b.g.wk[S.W_OPTS, 0] == -1


# ---------------------------------------------------------------------- rule [12] victory
def test_victory_needs_the_capital_and_a_two_unit_margin():
    b = Board("""
        K   .   .
          I   .   .
        .   .   .
          .   .   .
        i   i   .
          .   .   .
    """)
    b.st[S.CAP_CAPTURED] = 1
    assert not G.victory_check(b.st, b.g, 0)  # red 2 units vs blue 1: margin 1
    assert b.st[S.NO_MARGIN + 1] == 1
    b.st[S.POS + 20] = b.hex("0501")  # a third red unit on the map
    assert G.victory_check(b.st, b.g, 0)
    assert b.st[S.WINNER] == 1 and b.st[S.VICTORY] == S.VIC_CAPITAL


# ---------------------------------------------------------------------- rule [13]
def test_step_losses_flip_full_strength_units():
    opt = S.default_options(step_losses=1)
    b = Board(ADVANCE, options=opt)
    b.rig_dice(6, 1)
    dfd = b.unit("0303")
    assert _attack(b, [b.unit("0302")], ["0303"]) == DE
    assert b.pos(dfd) == "0303" and b.st[S.STEP + dfd] == 1  # flipped, not eliminated
    b.rig_dice(6, 1)  # 4+6 - (2+1) = +7: DE again, now eliminated
    assert _attack(b, [b.unit("0302")], ["0303"]) == DE
    assert b.st[S.POS + dfd] == S.DEAD


def test_army_quality_sets_up_on_the_weak_side():
    b = Board(ADVANCE, options=S.default_options(quality=(16, 0)))
    b.st[S.POS + 5] = S.UNPLACED
    G.place(b.st, b.g, 5)
    assert b.st[S.STEP + 5] == 1


def test_army_quality_mixture_reduces_the_first_k_units():
    from manoeuvre_sim.hexgame.records import HexOptions

    b = Board(ADVANCE, options=HexOptions(quality_blue="3").array())
    for u in range(1, 6):
        b.st[S.POS + u] = S.UNPLACED
        G.place(b.st, b.g, u)
    assert [int(b.st[S.STEP + u]) for u in range(1, 6)] == [1, 1, 1, 0, 0]


def test_step_replacements_flip_a_supplied_reduced_unit():
    b = Board(
        """
        .   K   .
          .   .   .
        .   I*  .
          .   .   .
    """,
        options=S.default_options(step_repl=1),
    )
    u = b.unit("0302")
    G.replacement(b.st, b.g, 0)
    assert b.st[S.STEP + u] == 0 and b.st[S.REPL] == 1


def test_large_versus_small_border_lines():
    from manoeuvre_sim.hexgame import scenario as SC

    sc = SC.load_scenario()
    for name, blue in (("large_blue", 90), ("large_red", 54)):
        p = SC.pack(sc, name)
        assert (p.hexes[:, SC.H_SIDE] == 0).sum() == blue
    assert np.array_equal(SC.pack(sc).units, SC.pack(sc, "large_red").units)
