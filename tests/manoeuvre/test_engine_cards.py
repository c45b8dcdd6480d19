"""Scenario tests of every HQ card type and card-driven rule (rules 5-9, HQ_CARDS.md).

Each scenario draws its battlefield as ASCII (tests/manoeuvre/boards.py: digits are player 0's units,
letters a-h player 1's), gives the hands, runs one phase kernel of the game (``engine/game.py`` and its phase modules) and
asserts the result the cited rule demands.

How the scenarios are driven (from the test side, no hook in the engine): the kernels of
the game's phase modules (``game.py``, ``setup.py``, ``movement.py``, ``combat_phase.py``,
``combat_steps.py``, ``restoration.py``) run as plain Python (each of their numba
dispatchers swapped for its ``py_func`` with ``monkeypatch``), so that

* every decision goes to a :class:`Script` — the answers a test scripts, option 0 otherwise
  (for every optional play option 0 is "decline": no card, no combat, stay, take the hit);
  the script records each decision asked with its legal options, so a test can assert what
  the rules offered and what they did not;
* the dice are loaded: each ``roll_die``/``roll_dice``/``roll_logged`` of those modules takes the next scripted
  total (a roll nobody scripted fails the test, so no scenario depends on chance).

The primitives of ``rules.py``/``board.py`` stay compiled. Whole games in compiled code are
covered by test_engine_games.py and `python -m benchmarks invariants`.

Armies: France (player 0) against Russia (player 1) unless a test says otherwise. France's
units: 0 1st Cuirassiers (cav 7/4), 1 2nd Legere (6/3), 2 4th Suisse (5/3), 3 8th Legere
(6/3), 4 19th Legere (7/4), 5 45th Legere (6/3), 6 Guard Cavalry (cav 8/5), 7 Garde Imperial
(8/5). Russia's: a 1st Cavalry (cav 6/4), b Black Sea Cossacks (cav 5/4), c Russian Guard
(8/6), d Kexholm (7/5), e Koursk (6/5), f Leib Grenadiers (6/5), g Moscow (6/5), h Orlov
(6/5).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine import combat_phase as CP
from manoeuvre_sim.manoeuvre.engine import combat_steps as CS
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import game as G
from manoeuvre_sim.manoeuvre.engine import movement as MV
from manoeuvre_sim.manoeuvre.engine import restoration as RS
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import setup as SU
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine import turns as TU
from tests.manoeuvre.boards import at, parse_board
from tests.manoeuvre.engine_helpers import context, engine_unit, packed, state_from_board

# the game's kernels, one module per phase (turns.py is the turn loop)
GAME_MODULES = (G, TU, CP, CS, MV, RS, SU)

# --------------------------------------------------------------------------------------------
# the table: scripted decisions, loaded dice, legal states
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """In a scripted answer: the hand slot that holds card ``c`` when the decision is asked."""

    c: int


@dataclass
class Ask:
    seat: int
    dk: int
    opts: np.ndarray  # the legal options, one row each (decisions.py encodings)
    revealed: tuple[int, int]  # st[REVEALED] of both players when it was asked


class Script:
    """Answers decisions and rolls dice for a scenario.

    ``answers``: ``(dk, want)`` pairs; a decision of kind dk takes the first pending answer
    of its kind, ``want`` being a tuple matched against the first fields of the option rows
    (``None`` matches anything, ``Slot(c)`` the slot of card c in the deciding player's
    hand). The wanted option must be legal, or the test fails.
    ``dice``: the totals of the rolls, in the order the kernels make them.
    """

    def __init__(self, answers=(), dice=()):
        self.answers = list(answers)
        self.dice = list(dice)
        self.asked: list[Ask] = []
        self.rolls: list[tuple[int, int, int]] = []  # (count, sides, total)

    def decide(self, st, g, seat, dk, n):
        opts = g.opts[:n].copy()
        self.asked.append(
            Ask(int(seat), int(dk), opts, (int(st[S.REVEALED]), int(st[S.REVEALED + 1])))
        )
        for i, (adk, want) in enumerate(self.answers):
            if adk != dk:
                continue
            del self.answers[i]
            for k in range(n):
                if all(self._match(st, seat, opts[k, j], w) for j, w in enumerate(want)):
                    return k
            raise AssertionError(
                f"{D.DECISION_NAMES[dk]}: wanted {want}, legal options {opts.tolist()}"
            )
        return 0

    @staticmethod
    def _match(st, seat, v, w):
        if w is None:
            return True
        if isinstance(w, Slot):
            return 0 <= v < st[S.HAND_N + seat] and st[S.HAND + seat * S.HMAX + v] == w.c
        return v == w

    def roll_dice(self, rng, count, sides):
        if not self.dice:
            raise AssertionError(f"unscripted roll of {count}d{sides}")
        v = self.dice.pop(0)
        assert count <= v <= count * sides, f"{v} is no total of {count}d{sides}"
        self.rolls.append((int(count), int(sides), v))
        return v

    def roll_die(self, rng, sides):
        return self.roll_dice(rng, 1, sides)

    def roll_logged(self, rng, count, sides, tr, trn, p):  # rules.roll_logged: a total too
        return self.roll_dice(rng, count, sides)

    def offered(self, dk):
        """Option rows of every decision of kind dk asked, in order."""
        return [a.opts for a in self.asked if a.dk == dk]

    def kinds(self):
        return [a.dk for a in self.asked]


@pytest.fixture
def table(monkeypatch):
    """``table(kernel, st, P, *args, answers=, dice=)`` runs the game kernel ``kernel`` (game.py) on ``st``
    with the scripted decisions and dice; returns ``(script, events)``."""

    def run(kernel, st, P, *args, answers=(), dice=(), seed=1):
        script = Script(answers, dice)
        own = {m.__name__ for m in GAME_MODULES}
        for m in GAME_MODULES:
            for name, obj in list(vars(m).items()):
                py = getattr(obj, "py_func", None)
                if py is not None and py.__module__ in own:
                    monkeypatch.setattr(m, name, py)
            for name, fake in (
                ("decide", script.decide),
                ("roll_dice", script.roll_dice),
                ("roll_die", script.roll_die),
                ("roll_logged", script.roll_logged),
            ):
                if hasattr(m, name):
                    monkeypatch.setattr(m, name, fake)
        g = context(P, seed=seed, trace=500)
        getattr(G, kernel)(st, g, *args)
        G.check_invariants(st, P.deck_size, P.tprops)
        assert not script.answers, f"scripted answers never asked for: {script.answers}"
        assert not script.dice, f"scripted dice never rolled: {script.dice}"
        tr, trn = g.tr, g.trn
        return script, tr[: trn[0]].copy()

    return run


def cards_of(P, p, kind, unit=None, pred=None):
    """Card indices of player p: kind "unit" (of board unit ``unit``), "leader" or an HQ
    type name; ``pred(row)`` filters further."""
    out = []
    for c in range(P.deck_size[p]):
        row = P.cards[p, c]
        if kind == "unit":
            ok = row[S.CF_KIND] == S.KIND_UNIT and row[S.CF_UNIT] == unit % 8
        elif kind == "leader":
            ok = row[S.CF_KIND] == S.KIND_LEADER
        else:
            ok = row[S.CF_KIND] == S.KIND_HQ and S.HQ_NAMES[row[S.CF_HQ]] == kind
        if ok and (pred is None or pred(row)):
            out.append(c)
    if not out:
        raise LookupError((p, kind, unit))
    return out


def leader(P, p, army, name):
    """Player p's card of the leader of ``army`` whose name contains ``name``."""
    from manoeuvre_sim.manoeuvre.model import find_army

    names = [ld.name for ld in find_army(army).leaders]
    (i,) = [k for k, n in enumerate(names) if name in n]
    return cards_of(P, p, "leader")[i]


def attack_card(P, p, unit, dice=None):
    """A unit card of board unit ``unit`` with an Attack value (``(n, s)`` if given)."""

    def ok(r):
        return r[S.CF_ATK_N] > 0 and (dice is None or (r[S.CF_ATK_N], r[S.CF_ATK_S]) == dice)

    return cards_of(P, p, "unit", unit, ok)[0]


def setup(board, P, hands, reduced=(), redoubts=(), elim=(0, 0)):
    """A legal state: the board, the hands (``{player: [cards]}``), every other card in
    the draw pile (ascending, so the highest index is drawn first)."""
    st = state_from_board(parse_board(board), reduced=reduced)
    for p in range(2):
        hand = list(hands.get(p, []))
        assert len(set(hand)) == len(hand), "a card copy given twice"
        st[S.HAND_N + p] = len(hand)
        st[S.HAND + p * S.HMAX : S.HAND + p * S.HMAX + len(hand)] = hand
        rest = [c for c in range(P.deck_size[p]) if c not in hand]
        st[S.DECK_N + p] = len(rest)
        st[S.DECK + p * S.MAXC : S.DECK + p * S.MAXC + len(rest)] = rest
        st[S.ELIM + p] = elim[p]
    for sq in redoubts:
        st[S.REDOUBT + sq] = 1
    G.check_invariants(st, P.deck_size, P.tprops)
    return st


def options(**kw):
    """Rule options for phase kernels that read them (movement_phase, player_turn)."""
    opt = np.zeros(G.N_OPTIONS, np.int32)
    opt[G.OPT_MAX_TURNS] = 200
    opt[G.OPT_CHECK] = 1
    for k, v in kw.items():
        opt[getattr(G, k)] = v
    return opt


def hand(st, p):
    return st[S.HAND + p * S.HMAX : S.HAND + p * S.HMAX + st[S.HAND_N + p]].tolist()


def discards(st, p):
    return st[S.DISC + p * S.MAXC : S.DISC + p * S.MAXC + st[S.DISC_N + p]].tolist()


def events(ev, kind):
    return [tuple(int(x) for x in e[1:]) for e in ev if e[0] == kind]


def sq_of(st, bid):
    return int(st[S.U_SQ + engine_unit(bid)])


def step(st, bid):
    return int(st[S.U_STEP + engine_unit(bid)])


U = engine_unit  # board id -> engine unit id
A, B, C, Dd, E, F, Gg, H = (engine_unit(8 + i) for i in range(8))  # player 1's units a..h


# --------------------------------------------------------------------------------------------
# Skirmish (rule 9.2 Skirmish, rule 6.1 step 5)
# --------------------------------------------------------------------------------------------
SKIRMISH_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . e . . . .
    . . . 3 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_skirmish_cancels_the_assault_and_moves_the_attacker_up_to_two_squares(table):
    """Rule 9.2 Skirmish: played in step 5 it cancels the combat; the initiating unit card
    returns to the hand, the defender's cards are discarded, the attacking unit may move up
    to 2 squares (interpretation 14: by the cavalry movement rules, or stay)."""
    P = packed()
    atk = attack_card(P, 0, 3)
    skirmish = cards_of(P, 0, "Skirmish")[0]
    e_card = cards_of(P, 1, "unit", 4)[0]
    st = setup(SKIRMISH_BOARD, P, {0: [atk, skirmish], 1: [e_card]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(3), None, E)),
            (D.D_DEF_CARD, (Slot(e_card),)),
            (D.D_ATT_CARD, (Slot(skirmish), D.AC_SKIRMISH)),
            (D.D_SKIRMISH_MOVE, (at(6, 3),)),
        ],
    )  # fmt: skip
    assert hand(st, 0) == [atk]  # the initiating card is back in the hand
    assert discards(st, 0) == [skirmish]
    assert discards(st, 1) == [e_card]  # the defender's card is discarded
    assert st[S.TABLE_N] == 0 and st[S.TABLE_N + 1] == 0
    assert sq_of(st, 3) == at(6, 3) and step(st, 3) == 2
    assert sq_of(st, 12) == at(3, 3) and step(st, 12) == 2  # no combat took place
    assert not events(ev, R.EV_COMBAT) and not script.rolls
    (moves,) = script.offered(D.D_SKIRMISH_MOVE)
    dests = set(moves[:, 0].tolist())
    # up to 2 squares, never through a unit: (2,3) lies only beyond e; -1 = stay
    assert {-1, at(4, 2), at(4, 1), at(6, 3), at(3, 2), at(5, 4), at(4, 5)} <= dests
    assert at(2, 3) not in dests and at(3, 3) not in dests and at(4, 3) not in dests
    assert all(abs(d // 8 - 4) + abs(d % 8 - 3) <= 2 for d in dests if d >= 0)


def test_skirmish_only_as_the_first_attack_card_and_never_with_a_leader(table):
    """Rule 9.2 Skirmish: no Leader in the same combat as a Skirmish (interpretation 14:
    it is offered only as the attacker's first step-5 card, so once another card is played
    it is gone, while the leader is still offered)."""
    P = packed()
    atk, atk2 = cards_of(P, 0, "unit", 3, lambda r: r[S.CF_ATK_N] > 0)[:2]
    skirmish = cards_of(P, 0, "Skirmish")[0]
    ney = leader(P, 0, "France", "Ney")
    st = setup(SKIRMISH_BOARD, P, {0: [atk, atk2, skirmish, ney]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(3), Slot(atk), E)),
            (D.D_ATT_CARD, (Slot(atk2), D.AC_UNIT, U(3))),
        ],
        dice=[2, 2],  # 2d8 + 2d6: 6 + 4 = 10 against 6: band 2, the defender takes the hit
    )  # fmt: skip
    first, second = script.offered(D.D_ATT_CARD)
    assert D.AC_SKIRMISH in first[:, 1] and D.AC_LEADER_COMBAT in first[:, 1]
    assert D.AC_SKIRMISH not in second[:, 1] and D.AC_LEADER_COMBAT in second[:, 1]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 10, 6, 2)]
    assert skirmish in hand(st, 0)


# --------------------------------------------------------------------------------------------
# Sappers/Engineers (rule 9.2), Redoubt (rule 7, rule 9.2)
# --------------------------------------------------------------------------------------------
REDOUBT_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . He . . . .
    . . . 4 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("sappers, defense, band", [(False, 11, 2), (True, 8, 3)])
def test_sappers_ignore_the_redoubt_but_not_the_terrain(table, sappers, defense, band):
    """Rule 9.2 Sappers/Engineers: the redoubt's +3 is ignored in this combat and the
    redoubt stays; the Hill's +2 (rule 6.3) still counts. e (6) on a Hill in a redoubt:
    6 + 2 + 3 = 11, with Sappers 8. 19th Legere 7 + 2d8 (9) = 16: > 11 is band 2, >= 2 x 8
    band 3 (rule 6.1 step 7)."""
    P = packed()
    atk = attack_card(P, 0, 4, dice=(2, 8))
    sap = cards_of(P, 0, "Sappers/Engineers")[0]
    st = setup(REDOUBT_BOARD, P, {0: [atk] + ([sap] if sappers else [])}, redoubts=[at(3, 3)])
    answers = [(D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E))]
    if sappers:
        answers.append((D.D_ATT_CARD, (Slot(sap), D.AC_SAPPERS)))
    script, ev = table("combat_phase", st, P, 0, answers=answers, dice=[9])
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 16, defense, band)]
    assert st[S.REDOUBT + at(3, 3)] == 1  # e took the hit and stayed: the redoubt stays
    assert step(st, 12) == 1 and sq_of(st, 12) == at(3, 3)
    assert discards(st, 0) == [atk] + ([sap] if sappers else [])


def test_sappers_not_offered_against_a_unit_without_a_redoubt(table):
    """Interpretation 15: Sappers negate only a redoubt's +3, so with none they are not
    offered (the Hill's defence is never negated)."""
    P = packed()
    atk, atk2 = cards_of(P, 0, "unit", 4, lambda r: r[S.CF_ATK_N] > 0)[:2]
    sap = cards_of(P, 0, "Sappers/Engineers")[0]
    st = setup(REDOUBT_BOARD, P, {0: [atk, atk2, sap]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E))],
        dice=[9],
    )  # fmt: skip
    (offered,) = script.offered(D.D_ATT_CARD)
    assert D.AC_SAPPERS not in offered[:, 1] and D.AC_UNIT in offered[:, 1]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 16, 8, 3)]
    assert sap in hand(st, 0)


def test_redoubt_is_removed_when_its_unit_retreats(table):
    """Rule 9.2 Redoubt: +3 defence from any side; 'when the unit occupying the Redoubt
    leaves the Redoubt square, for any reason, the Redoubt is removed' — here a retreat
    (rule 6.5), and the attacker advancing into the square gets no redoubt."""
    P = packed()
    atk = attack_card(P, 0, 4, dice=(2, 8))
    st = setup(REDOUBT_BOARD.replace("He", ".e"), P, {0: [atk]}, redoubts=[at(3, 3)])
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E)),
            (D.D_HIT_OR_RETREAT, (1,)),  # band 2: the defender chooses to retreat
        ],
        dice=[5],
    )  # fmt: skip
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 12, 9, 2)]  # 6 + redoubt 3
    assert sq_of(st, 12) == at(2, 3) and step(st, 12) == 2  # toward its own edge (top)
    assert sq_of(st, 4) == at(3, 3)  # the attacker advanced (rule 6.5)
    assert st[S.REDOUBT : S.REDOUBT + 64].sum() == 0


def test_redoubt_built_after_the_restoration_attempt_one_per_turn(table):
    """Rule 7 'Build a Redoubt': one REDOUBT card in the Restoration Phase, after any
    restoration attempt; rule 9.2 Redoubt: only one per player turn and one per square,
    under one of the active player's units."""
    board = """
        . . . . . . . .
        . . c . e . f .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . 0 . . . .
    """
    P = packed()
    e_card = cards_of(P, 1, "unit", 4)[0]
    red1, red2 = cards_of(P, 1, "Redoubt")
    st = setup(board, P, {1: [e_card, red1, red2]}, reduced=[12], redoubts=[at(1, 2)])
    script, ev = table(
        "restoration_phase", st, P, 1,
        answers=[
            (D.D_RESTORE, (Slot(e_card), E)),
            (D.D_REDOUBT, (Slot(red1), F)),
        ],
    )  # fmt: skip
    assert script.kinds() == [D.D_RESTORE, D.D_REDOUBT]  # asked once, after restoring
    (offered,) = script.offered(D.D_REDOUBT)
    assert set(offered[:, 1].tolist()) == {-1, E, F}  # c already has one; France's unit never
    assert step(st, 12) == 2
    assert st[S.REDOUBT + at(1, 6)] == 1 and st[S.REDOUBT + at(1, 2)] == 1
    assert hand(st, 1) == [red2] and discards(st, 1) == [e_card, red1]


# --------------------------------------------------------------------------------------------
# Movement cards: Supply, Forced March, Guerrilla (rule 5, rule 9.2)
# --------------------------------------------------------------------------------------------
MOVE_BOARD = """
    . . . . . . . a
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . 1 . . . 2 . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("negated", [False, True])
def test_supply_moves_a_second_unit_once_per_phase(table, negated):
    """Rule 5: a SUPPLY card moves a second unit, no more than one per Movement Phase;
    rule 9.2 Guerrilla: the opponent may negate it (both cards discarded), and a negated
    Supply still was the phase's Supply (interpretation 9)."""
    P = packed()
    sup1, sup2 = cards_of(P, 0, "Supply")[:2]
    guer = cards_of(P, 1, "Guerrilla")[0]
    st = setup(MOVE_BOARD, P, {0: [sup1, sup2], 1: [guer] if negated else []})
    answers = [
        (D.D_MOVE, (U(1), at(4, 1))),
        (D.D_SUPPLY_MOVE, (Slot(sup1), U(2), at(4, 5))),
    ]
    if negated:
        answers.append((D.D_GUERRILLA, (Slot(guer),)))
    script, ev = table("movement_phase", st, P, options(), 0, answers=answers)
    (supply,) = script.offered(D.D_SUPPLY_MOVE)  # one Supply decision, for the second unit
    assert U(1) not in supply[:, 1]
    assert sq_of(st, 1) == at(4, 1)
    assert sq_of(st, 2) == (at(5, 5) if negated else at(4, 5))
    assert hand(st, 0) == [sup2] and discards(st, 0) == [sup1]
    assert discards(st, 1) == ([guer] if negated else [])
    assert events(ev, R.EV_NEGATE) == ([(1, sup1, guer, 0, 0)] if negated else [])


def test_forced_march_one_per_unit_two_units_with_supply(table):
    """Rule 5: 'the Active Player could move, at maximum, two units with each moving an
    additional square, if he were able to play a SUPPLY card and two FORCED MARCH cards';
    rule 9.2 Forced March: one more square for the unit that just moved."""
    P = packed()
    sup = cards_of(P, 0, "Supply")[0]
    fm1, fm2, fm3 = cards_of(P, 0, "Forced March")
    st = setup(MOVE_BOARD, P, {0: [fm1, sup, fm2, fm3]})
    script, ev = table(
        "movement_phase", st, P, options(), 0,
        answers=[
            (D.D_MOVE, (U(1), at(4, 1))),
            (D.D_FORCED_MARCH, (Slot(fm1), at(3, 1))),
            (D.D_SUPPLY_MOVE, (Slot(sup), U(2), at(4, 5))),
            (D.D_FORCED_MARCH, (Slot(fm2), at(3, 5))),
        ],
    )  # fmt: skip
    assert script.kinds() == [D.D_MOVE, D.D_FORCED_MARCH, D.D_SUPPLY_MOVE, D.D_FORCED_MARCH]
    fm_a, fm_b = script.offered(D.D_FORCED_MARCH)
    assert (fm_a[:, 2] == U(1)).all() and (fm_b[:, 2] == U(2)).all()  # one per unit
    assert sq_of(st, 1) == at(3, 1) and sq_of(st, 2) == at(3, 5)
    assert hand(st, 0) == [fm3]
    assert [e[4] for e in events(ev, R.EV_MOVE)] == [0, 2, 1, 2]  # move, FM, supply, FM


# Rule 9.2 Forced March from or into a Field or Marsh (interpretation 8), under the base
# reading and the Distant Lands wording: tests/manoeuvre/test_dl_movement.py, one scenario for both.


def test_guerrilla_negates_a_forced_march_and_bars_a_second_for_that_unit(table):
    """Rule 5 / 9.2 Guerrilla: a Forced March is negated when played, both cards are
    discarded, and no second card of that type may be played for the same unit."""
    P = packed()
    fm1, fm2 = cards_of(P, 0, "Forced March")[:2]
    guer = cards_of(P, 1, "Guerrilla")[0]
    st = setup(MOVE_BOARD, P, {0: [fm1, fm2], 1: [guer]})
    script, ev = table(
        "movement_phase", st, P, options(), 0,
        answers=[
            (D.D_MOVE, (U(1), at(4, 1))),
            (D.D_FORCED_MARCH, (Slot(fm1), at(3, 1))),
            (D.D_GUERRILLA, (Slot(guer),)),
        ],
    )  # fmt: skip
    assert script.kinds() == [D.D_MOVE, D.D_FORCED_MARCH, D.D_GUERRILLA]
    assert script.asked[-1].seat == 1  # the opponent decides
    assert sq_of(st, 1) == at(4, 1)  # the extra square was not taken
    assert hand(st, 0) == [fm2] and discards(st, 0) == [fm1] and discards(st, 1) == [guer]


# --------------------------------------------------------------------------------------------
# Restoration: Reinforcement, Supply, Regroup, a leader's rally, Guerrilla (rule 7, 9.1, 9.2)
# --------------------------------------------------------------------------------------------
REST_BOARD = """
    . . . . . . . a
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . 3 4 . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("negated", [False, True])
def test_reinforcement_restores_its_own_unit_unless_negated(table, negated):
    """Rule 7: a Unit Card restores that specific reduced unit (a Reinforcement; any of
    its cards, here its artillery card), automatically unless negated by a GUERRILLA card
    (rule 9.2 Guerrilla)."""
    P = packed()
    c3 = cards_of(P, 0, "unit", 3, lambda r: r[S.CF_ARTY] == 1)[0]
    guer = cards_of(P, 1, "Guerrilla")[0]
    st = setup(REST_BOARD, P, {0: [c3], 1: [guer] if negated else []}, reduced=[3, 4])
    answers = [(D.D_RESTORE, (Slot(c3), U(3)))]
    if negated:
        answers.append((D.D_GUERRILLA, (Slot(guer),)))
    script, ev = table("restoration_phase", st, P, 0, answers=answers)
    (offered,) = script.offered(D.D_RESTORE)
    assert {tuple(o[:2]) for o in offered.tolist()} == {(-1, -1), (0, U(3))}  # not unit 4
    assert step(st, 3) == (1 if negated else 2) and step(st, 4) == 1
    assert events(ev, R.EV_RESTORE) == [(0, U(3), 0 if negated else 1, 0, 0)]
    assert discards(st, 1) == ([guer] if negated else [])


def test_supply_restores_any_one_reduced_unit_once_per_phase(table):
    """Rule 7: a SUPPLY card restores any one reduced unit, automatically; one
    restoration attempt per Restoration Phase (rule 4)."""
    P = packed()
    sup1, sup2 = cards_of(P, 0, "Supply")[:2]
    st = setup(REST_BOARD, P, {0: [sup1, sup2]}, reduced=[3, 4])
    script, ev = table("restoration_phase", st, P, 0, answers=[(D.D_RESTORE, (Slot(sup1), U(4)))])
    assert script.kinds() == [D.D_RESTORE]
    assert step(st, 4) == 2 and step(st, 3) == 1 and hand(st, 0) == [sup2]


def test_guerrilla_only_in_the_opponents_turn(table):
    """Rule 9.2 Guerrilla: 'can only be played in your opponent's player turn — never
    your own': Russia restores with Supply holding a Guerrilla of its own."""
    P = packed()
    sup = cards_of(P, 1, "Supply")[0]
    guer = cards_of(P, 1, "Guerrilla")[0]
    st = setup(REST_BOARD, P, {1: [guer, sup]}, reduced=[8])
    script, ev = table("restoration_phase", st, P, 1, answers=[(D.D_RESTORE, (Slot(sup), A))])
    assert script.kinds() == [D.D_RESTORE] and step(st, 8) == 2 and hand(st, 1) == [guer]


@pytest.mark.parametrize("negated", [False, True])
def test_regroup_restores_a_unit_unless_negated(table, negated):
    """Rule 9.2 Regroup (the Ottoman Empire's restoration card): restores one reduced
    unit; rule 9.2 Guerrilla negates it. Ottoman Empire (player 0) against Russia."""
    P = packed("Ottoman Empire", "Russia")
    regroup = cards_of(P, 0, "Regroup")[0]
    guer = cards_of(P, 1, "Guerrilla")[0]
    st = setup(REST_BOARD, P, {0: [regroup], 1: [guer] if negated else []}, reduced=[4])
    answers = [(D.D_RESTORE, (Slot(regroup), U(4)))]
    if negated:
        answers.append((D.D_GUERRILLA, (Slot(guer),)))
    script, ev = table("restoration_phase", st, P, 0, answers=answers)
    assert step(st, 4) == (1 if negated else 2)
    assert discards(st, 0) == [regroup]


@pytest.mark.parametrize(
    "name, roll, restored",
    [("Soult", 3, True), ("Soult", 4, False), ("Ney", 5, True), ("Ney", 6, False)],
)
def test_rally_by_a_leaders_roll(table, name, roll, restored):
    """Rule 7 / 9.1 Rally: a Leader Card restores any reduced unit if a d6 falls within its
    Rally range (the rule's example: Soult 1-3, Ney 1-5); the card is spent either way. A
    rally is no Reinforcement: the opponent's Guerrilla is not offered (interp. 21)."""
    P = packed()
    ld = leader(P, 0, "France", name)
    guer = cards_of(P, 1, "Guerrilla")[0]
    st = setup(REST_BOARD, P, {0: [ld], 1: [guer]}, reduced=[3, 4])
    script, ev = table(
        "restoration_phase", st, P, 0, answers=[(D.D_RESTORE, (Slot(ld), U(4)))], dice=[roll]
    )
    assert script.rolls == [(1, 6, roll)] and D.D_GUERRILLA not in script.kinds()
    assert step(st, 4) == (2 if restored else 1) and step(st, 3) == 1
    assert discards(st, 0) == [ld] and hand(st, 1) == [guer]


def test_palafox_rallies_automatically(table):
    """Rule 9.1 / HQ_CARDS.md: Palafox's Rally is automatic — no die is rolled (a roll
    here would fail the test: no dice are scripted). Spain (player 0) against France."""
    P = packed("Spain", "France")
    palafox = cards_of(P, 0, "leader", pred=lambda r: r[S.CF_RALLY_AUTO] == 1)
    assert palafox == [leader(P, 0, "Spain", "Palafox")]
    st = setup(REST_BOARD, P, {0: palafox}, reduced=[3])
    script, ev = table(
        "restoration_phase", st, P, 0, answers=[(D.D_RESTORE, (Slot(palafox[0]), U(3)))]
    )
    assert step(st, 3) == 2 and not script.rolls
    assert events(ev, R.EV_RESTORE) == [(0, U(3), 1, 0, 0)]


# --------------------------------------------------------------------------------------------
# Scout/Spy (rule 9.2 Scout/Spy, interpretation 6)
# --------------------------------------------------------------------------------------------
def test_scout_spy_reveals_the_hand_to_its_player_for_its_turn_only(table):
    """Rule 9.2 Scout/Spy: only the active player may play it, to look at the opponent's
    hand, in the midst of the Draw Phase (then draws back to 5). REVEALED is set for that
    player alone, through its Movement, Combat and Restoration decisions, and is cleared
    when its player turn ends (interpretation 6). Great Britain (player 0) against the
    United States (player 1): both armies have one Scout/Spy."""
    board = """
        . . . . . . . a
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        0 . . . . . . .
    """
    P = packed("Great Britain", "United States")
    spy0 = cards_of(P, 0, "Scout/Spy")[0]
    spy1 = cards_of(P, 1, "Scout/Spy")[0]
    h0 = [spy0] + cards_of(P, 0, "Withdraw")[:2] + cards_of(P, 0, "Supply")[:2]
    h1 = [spy1] + cards_of(P, 1, "Withdraw")[:2] + cards_of(P, 1, "Supply")[:2]
    st = setup(board, P, {0: h0, 1: h1})
    top0 = int(st[S.DECK + st[S.DECK_N] - 1])
    script, ev = table("player_turn", st, P, options(), 0, answers=[(D.D_SPY, (Slot(spy0),))])
    assert all(a.seat == 0 for a in script.asked)  # the US's Scout/Spy is not offered
    i = script.kinds().index(D.D_SPY)
    assert all(a.revealed == (0, 0) for a in script.asked[: i + 1])
    assert script.asked[i + 1 :] and all(a.revealed == (1, 0) for a in script.asked[i + 1 :])
    assert D.D_MOVE in script.kinds()[i:]
    assert (st[S.REVEALED], st[S.REVEALED + 1]) == (0, 0)  # the player turn is over
    assert discards(st, 0) == [spy0] and st[S.HAND_N] == 5 and top0 in hand(st, 0)
    assert events(ev, R.EV_SPY) == [(0, spy0, 0, 0, 0)]
    # the opponent's turn: its own Scout/Spy reveals to it alone
    script, ev = table("player_turn", st, P, options(), 1, answers=[(D.D_SPY, (Slot(spy1),))])
    i = script.kinds().index(D.D_SPY)
    assert all(a.seat == 1 for a in script.asked)
    assert all(a.revealed == (0, 0) for a in script.asked[: i + 1])
    assert all(a.revealed == (0, 1) for a in script.asked[i + 1 :])
    assert (st[S.REVEALED], st[S.REVEALED + 1]) == (0, 0)


# --------------------------------------------------------------------------------------------
# Withdraw (rule 6.1 step 3, rule 8 Withdraw, rule 9.2 Withdraw) and Pursuit (rule 6.6)
# --------------------------------------------------------------------------------------------
ASSAULT_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . e . . . .
    . . . {u} . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("roll, pursuit_hit", [(4, True), (5, False)])
def test_withdraw_before_any_die_then_advance_and_pursuit(table, roll, pursuit_hit):
    """Rule 6.1 step 3 / 9.2 Withdraw: played right after the Assault is declared, as the
    defender's only card; the unit retreats as in a Retreat (6.5: toward its own edge),
    no die is rolled for the combat, the attacking unit advances and may pursue (6.6: a d6
    per unit card it played, a hit within the card's Pursuit range, here 1-4)."""
    P = packed()
    c0 = attack_card(P, 0, 0, dice=(2, 10))
    assert P.cards[0, c0, S.CF_PURSUIT] == 4
    wd = cards_of(P, 1, "Withdraw")[0]
    e_card = cards_of(P, 1, "unit", 4)[0]
    st = setup(ASSAULT_BOARD.format(u="0"), P, {0: [c0], 1: [wd, e_card]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(c0), E)),
            (D.D_WITHDRAW, (Slot(wd),)),
        ],
        dice=[roll],
    )  # fmt: skip
    assert script.kinds() == [D.D_COMBAT, D.D_WITHDRAW]  # no defense or attack cards after
    assert not events(ev, R.EV_COMBAT) and script.rolls == [(1, 6, roll)]
    assert sq_of(st, 12) == at(2, 3) and sq_of(st, 0) == at(3, 3)
    assert step(st, 12) == (1 if pursuit_hit else 2)
    assert events(ev, R.EV_PURSUIT) == [(0, U(0), roll, int(pursuit_hit), 0)]
    assert discards(st, 0) == [c0] and discards(st, 1) == [wd] and hand(st, 1) == [e_card]


def test_withdraw_needs_an_empty_square_to_go_to(table):
    """Rule 6.1 step 3: 'the option to Withdraw if there is any unoccupied square adjacent
    to the defending unit' (interpretation 12): e on the top edge, its flanks and front
    held by French units, cannot withdraw; the assault goes on."""
    board = """
        . . 1 e 2 . . .
        . . . 0 . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    P = packed()
    c0 = attack_card(P, 0, 0, dice=(2, 10))
    wd = cards_of(P, 1, "Withdraw")[0]
    st = setup(board, P, {0: [c0], 1: [wd]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(c0), E))],
        dice=[10],  # 7 + 10 = 17 against 6: band 3, the attacker chooses the hit (option 0)
    )  # fmt: skip
    assert D.D_WITHDRAW not in script.kinds() and hand(st, 1) == [wd]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 17, 6, 3)]
    assert step(st, 12) == 1 and sq_of(st, 12) == at(0, 3)


@pytest.mark.parametrize("roll", [2, 3])
def test_us_unit_card_withdraw_attempt(table, roll):
    """Rule 8 Withdraw: a United States unit card of the defending unit attempts a
    withdrawal on a d6 within its Withdraw range (1st Infantry Regiment: 1-2), resolved as
    a WITHDRAW card; if it fails, the card's Defense value is added to the Defense Total.
    France (player 0) against the United States (player 1)."""
    P = packed("France", "United States")
    atk = attack_card(P, 0, 4, dice=(2, 8))
    us = cards_of(P, 1, "unit", 0, lambda r: r[S.CF_WITHDRAW] == 2)[0]
    assert P.cards[1, us, S.CF_DEF] == 5
    board = ASSAULT_BOARD.format(u="4").replace(" e ", " a ")
    st = setup(board, P, {0: [atk], 1: [us]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), A)),
            (D.D_WITHDRAW, (Slot(us),)),
        ],
        dice=[roll] + ([] if roll <= 2 else [6]),
    )  # fmt: skip
    assert events(ev, R.EV_WITHDRAW) == [(1, A, int(roll <= 2), 0, 0)]
    if roll <= 2:  # withdrew toward its own edge; the attacker advanced
        assert sq_of(st, 8) == at(2, 3) and sq_of(st, 4) == at(3, 3)
        assert not events(ev, R.EV_COMBAT)
    else:  # 7 + 6 = 13 against 8 + 5 = 13: equal, no effect (rule 6.1 step 7)
        assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 13, 13, 1)]
        assert sq_of(st, 8) == at(3, 3) and step(st, 8) == 2 and sq_of(st, 4) == at(4, 3)
    assert discards(st, 1) == [us]


@pytest.mark.parametrize("murat, hits", [(False, 0), (True, 2)])
def test_pursuit_one_roll_per_card_with_the_leaders_modifier(table, murat, hits):
    """Rule 6.6: the cavalry that advances after the defender retreated rolls a d6 per
    unit card it played, each a hit within that card's Pursuit range (here 1-4 and 1-3);
    a leader played for Combat or Command modifies every roll by its Pursuit value (Murat
    -1, rule 9.1); two hits eliminate a full-strength unit. Rolls 5 and 4: no hit alone,
    two hits with Murat (4 <= 4, 3 <= 3)."""
    P = packed()
    c0 = attack_card(P, 0, 0, dice=(2, 10))
    c2 = attack_card(P, 0, 0, dice=(2, 6))
    mur = leader(P, 0, "France", "Murat")
    assert (P.cards[0, c0, S.CF_PURSUIT], P.cards[0, c2, S.CF_PURSUIT]) == (4, 3)
    assert P.cards[0, mur, S.CF_PMOD] == -1
    st = setup(ASSAULT_BOARD.format(u="0"), P, {0: [c0, c2, mur]})
    answers = [
        (D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(c0), E)),
        (D.D_ATT_CARD, (Slot(c2), D.AC_UNIT, U(0))),
        (D.D_HIT_OR_RETREAT, (1,)),  # whoever chooses (band 2: e, band 3: France) retreats
    ]
    if murat:
        answers.insert(2, (D.D_ATT_CARD, (Slot(mur), D.AC_LEADER_COMBAT)))
    script, ev = table("combat_phase", st, P, 0, answers=answers, dice=[2, 2, 5, 4])
    band = 3 if murat else 2  # 7 + 2 + 2 (+ 3) = 11 (14) against 6
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 14 if murat else 11, 6, band)]
    assert sq_of(st, 0) == at(3, 3)
    mod = -1 if murat else 0
    assert events(ev, R.EV_PURSUIT) == [
        (0, U(0), 5 + mod, int(murat), 0),
        (0, U(0), 4 + mod, int(murat), 0),
    ]
    assert step(st, 12) == 2 - hits and st[S.ELIM + 1] == (1 if hits == 2 else 0)
    assert sq_of(st, 12) == (-1 if hits == 2 else at(2, 3))


def test_no_pursuit_by_a_supporting_cavalry_without_a_card(table):
    """Rule 6.6: 'If a supporting cavalry unit is advanced into the vacated space and no
    card was played for that unit there is no pursuit roll made' (no die is scripted)."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . 0 e . . . .
        . . . 4 . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    P = packed()
    atk = attack_card(P, 0, 4, dice=(2, 8))
    lannes = leader(P, 0, "France", "Lannes")
    st = setup(board, P, {0: [atk, lannes]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E)),
            (D.D_ATT_CARD, (Slot(lannes), D.AC_LEADER_COMMAND)),
            (D.D_SUPPORT, (U(0),)),
            (D.D_HIT_OR_RETREAT, (1,)),
            (D.D_ADVANCE, (U(0),)),
        ],
        dice=[2],  # 7 + 7 + 2 = 16 against 6: band 3, France chooses the retreat
    )  # fmt: skip
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 16, 6, 3)]
    assert sq_of(st, 12) == at(2, 3) and sq_of(st, 0) == at(3, 3) and sq_of(st, 4) == at(4, 3)
    assert not events(ev, R.EV_PURSUIT) and step(st, 12) == 2


SURROUNDED_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . a . . . .
    . . 1 e 2 . . .
    . . . 0 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("roll", [6, 2])
def test_a_surrounded_defender_band_3_may_be_made_to_retreat_and_is_eliminated(table, roll):
    """Rules 6.1 step 7 and 6.5 (interpretation 11): in band 3 (attack at least twice the
    defence) the Active Player chooses hit or retreat, and may choose Retreat for a defender
    with no square to go to, which eliminates it; in band 2 the defender chooses, and without
    a retreat square it is offered only the hit. Koursk (e, 6) is boxed in by its own unit a
    and French units 1, 2; the 1st Cuirassiers (0, 7) attack with a 2d10 card: 7 + 6 = 13
    against 6 is band 3, 7 + 2 = 9 band 2."""
    P = packed()
    c0 = attack_card(P, 0, 0, dice=(2, 10))
    st = setup(SURROUNDED_BOARD, P, {0: [c0]})
    answers = [(D.D_COMBAT, (D.CK_ASSAULT, U(0), Slot(c0), E))]
    if roll == 6:
        answers.append((D.D_HIT_OR_RETREAT, (1,)))  # France: retreat
    script, ev = table("combat_phase", st, P, 0, answers=answers, dice=[roll])
    band = 3 if roll == 6 else 2
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 7 + roll, 6, band)]
    asked = [a for a in script.asked if a.dk == D.D_HIT_OR_RETREAT]
    if band == 3:
        ((ask,),) = [asked]
        assert ask.seat == 0 and ask.opts[:, 0].tolist() == [0, 1]  # hit, retreat
        assert step(st, 12) == 0 and sq_of(st, 12) == -1 and st[S.ELIM + 1] == 1
        assert sq_of(st, 0) == at(3, 3)  # the cavalry advances into the vacated square
    else:
        assert asked == []  # only the hit: nothing to choose
        assert step(st, 12) == 1 and sq_of(st, 12) == at(3, 3) and st[S.ELIM + 1] == 0
        assert sq_of(st, 0) == at(4, 3)


# --------------------------------------------------------------------------------------------
# Not required to advance (rule 6.5 Advance After Combat, rule 8)
# --------------------------------------------------------------------------------------------
NRTA_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . {s} d . . . .
    . . . {a} . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("unit", [7, 4])
def test_not_required_to_advance_card_lets_the_attacker_stay(table, unit):
    """Rule 6.5 / 8: after the defender's square is vacated by an Assault the attacking
    unit must advance — unless it played a 'Not required to advance' card (all the Garde
    Imperial's attack cards say so; the 19th Legere's do not). The US 4th Militia, reduced
    (2), is eliminated: 2d8 (2) + 8 or 7 >= 4 x 2. France against the United States."""
    P = packed("France", "United States")
    atk = attack_card(P, 0, unit, dice=(2, 8))
    assert P.cards[0, atk, S.CF_NRTA] == (1 if unit == 7 else 0)
    st = setup(NRTA_BOARD.format(s=".", a=unit), P, {0: [atk]}, reduced=[11])
    answers = [(D.D_COMBAT, (D.CK_ASSAULT, U(unit), Slot(atk), Dd))]
    if unit == 7:
        answers.append((D.D_ADVANCE, (-1,)))  # it chooses to stay
    script, ev = table("combat_phase", st, P, 0, answers=answers, dice=[2])
    assert step(st, 11) == 0 and st[S.ELIM + 1] == 1
    if unit == 7:
        (adv,) = script.offered(D.D_ADVANCE)
        assert set(adv[:, 0].tolist()) == {U(7), -1}
        assert sq_of(st, 7) == at(4, 3) and st[S.OCC + at(3, 3)] == -1
    else:
        assert D.D_ADVANCE not in script.kinds() and sq_of(st, 4) == at(3, 3)
    assert not events(ev, R.EV_PURSUIT)  # infantry, and nothing retreated


def test_not_required_to_advance_needs_every_involved_unit(table):
    """Rule 6.5: 'If more than one unit was involved in the attack, all the units must
    have Unit Cards with this statement or one of the units must advance': the Garde
    played one, its supporting 19th Legere (rule 6.4, Lannes' Command) none."""
    P = packed("France", "United States")
    atk = attack_card(P, 0, 7, dice=(2, 8))
    lannes = leader(P, 0, "France", "Lannes")
    st = setup(NRTA_BOARD.format(s=4, a=7), P, {0: [atk, lannes]}, reduced=[11])
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(7), Slot(atk), Dd)),
            (D.D_ATT_CARD, (Slot(lannes), D.AC_LEADER_COMMAND)),
            (D.D_SUPPORT, (U(4),)),
            (D.D_ADVANCE, (U(4),)),
        ],
        dice=[2],
    )  # fmt: skip
    (adv,) = script.offered(D.D_ADVANCE)
    assert set(adv[:, 0].tolist()) == {U(7), U(4)}  # no "stay" option
    assert sq_of(st, 4) == at(3, 3) and sq_of(st, 7) == at(4, 3)


def test_not_required_to_advance_after_a_withdrawal(table):
    """Rule 6.5 Advance After Combat: 'If the defending square is vacated by Retreat,
    Withdrawal or Elimination ... must Advance ... However ... If one of these cards was
    played, that unit does not have to advance' — the exception covers a Withdrawal too
    (interpretation 25)."""
    P = packed()
    atk = attack_card(P, 0, 7, dice=(2, 8))
    wd = cards_of(P, 1, "Withdraw")[0]
    st = setup(ASSAULT_BOARD.format(u="7"), P, {0: [atk], 1: [wd]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(7), Slot(atk), E)),
            (D.D_WITHDRAW, (Slot(wd),)),
            (D.D_ADVANCE, (-1,)),
        ],
    )  # fmt: skip
    assert sq_of(st, 12) == at(2, 3) and sq_of(st, 7) == at(4, 3)
    assert st[S.OCC + at(3, 3)] == -1


# --------------------------------------------------------------------------------------------
# Committed Attack (rule 9.2, rule 2.1)
# --------------------------------------------------------------------------------------------
CA_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . c . . . .
    . . . 2 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_committed_attack_adds_2d6_and_costs_its_unit_a_hit(table):
    """Rule 9.2 Committed Attack: +2d6 to the attack total; the unit it was played for
    takes a Hit at the conclusion of the attack; at most one per attacking/supporting unit
    (rule 6.1 step 5). Russia's Guard (8) attacks France's 4th Suisse (5): 8 + 2d8 (2) +
    2d6 (2) = 12 >= 2 x 5, band 3."""
    P = packed()
    atk = attack_card(P, 1, 2, dice=(2, 8))
    ca1, ca2 = cards_of(P, 1, "Committed Attack")[:2]
    bagration = leader(P, 1, "Russia", "Bagration")
    st = setup(CA_BOARD, P, {1: [atk, ca1, ca2, bagration]})
    script, ev = table(
        "combat_phase", st, P, 1,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, C, Slot(atk), U(2))),
            (D.D_ATT_CARD, (Slot(ca1), D.AC_COMMITTED, C)),
        ],
        dice=[2, 2],
    )  # fmt: skip
    first, second = script.offered(D.D_ATT_CARD)
    assert list(first[first[:, 1] == D.AC_COMMITTED][:, 2]) == [C, C]  # either copy, for c
    assert D.AC_COMMITTED not in second[:, 1]  # c has its one Committed Attack
    assert script.rolls == [(2, 8, 2), (2, 6, 2)]
    assert events(ev, R.EV_COMBAT) == [(1, D.CK_ASSAULT, 12, 5, 3)]
    assert step(st, 2) == 1  # the attacker chose the hit (option 0)
    assert step(st, 10) == 1  # and c paid for its Committed Attack
    assert hand(st, 1) == [ca2, bagration]


@pytest.mark.parametrize("committed, winner", [(False, 1), (True, 0)])
def test_pyrrhic_victory_rule_2_1_in_play(table, committed, winner):
    """Rule 2.1: eliminating a 5th enemy unit wins at once, 'unless you lost your 5th unit
    in the same battle due to a Committed Attack in which case your opponent wins'. Both
    sides have lost 4; Russia's reduced Guard (6) eliminates France's reduced 4th Suisse
    (3): 6 + 2d8 (4), or 6 + 2d8 (2) + 2d6 (2), = 10 >= 3 x 3 (hit and retreat). The
    Committed Attack's hit then eliminates the Guard."""
    P = packed()
    atk = attack_card(P, 1, 2, dice=(2, 8))
    ca = cards_of(P, 1, "Committed Attack")[0]
    st = setup(CA_BOARD, P, {1: [atk] + [ca] * committed}, reduced=[2, 10], elim=(4, 4))
    answers = [(D.D_COMBAT, (D.CK_ASSAULT, C, Slot(atk), U(2)))]
    if committed:
        answers.append((D.D_ATT_CARD, (Slot(ca), D.AC_COMMITTED, C)))
    script, ev = table("combat_phase", st, P, 1, answers=answers, dice=[2, 2] if committed else [4])
    assert events(ev, R.EV_COMBAT) == [(1, D.CK_ASSAULT, 10, 3, 4)]
    assert step(st, 2) == 0 and st[S.ELIM] == 5
    assert st[S.ELIM + 1] == (5 if committed else 4)
    assert G.check_attrition(st, 1)  # what player_turn checks when the combat ends
    assert st[S.WINNER] == winner and st[S.VICTORY] == S.VICTORY_ATTRITION


@pytest.mark.parametrize("supported", [False, True])
def test_committed_hit_of_a_fallen_unit_passes_to_a_survivor(table, supported):
    """Rule 9.2 Committed Attack: "one attacking or Supporting unit must take a Hit at the
    conclusion of the attack for each COMMITTED ATTACK card played" (interpretation 26).
    Russia's reduced unit 4 attacks France's e on a Hill with a Committed Attack played for
    it, the dice all 1s: attacker hit (A < D), so every attacking and supporting unit takes
    a hit and unit 4 falls. Its card's hit then passes to supporting unit 1 (full, brought
    in by Kutuzov's Command, reduced by the attacker-hit result), which is eliminated.
    Without a supporting unit nobody is left to take it.

        . . . M3 . . . .
        . . 1 He 2 . . .      1, 4: Russia (4 reduced)   e: France, on a Hill
        . . . 4 . . . .
    """
    P = packed("Russia", "France")
    atk = attack_card(P, 0, 4)
    ca = cards_of(P, 0, "Committed Attack")[0]
    kutuzov = leader(P, 0, "Russia", "Kutuzov")
    e_cards = cards_of(P, 1, "unit", 4, lambda r: r[S.CF_ATK_N] > 0)[:4]  # e's defence
    st = setup(COMMAND_BOARD, P, {0: [atk, ca, kutuzov], 1: e_cards}, reduced=[4])
    answers = [(D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E))]
    answers += [(D.D_DEF_CARD, (Slot(c),)) for c in e_cards]
    if supported:
        answers += [
            (D.D_ATT_CARD, (Slot(kutuzov), D.AC_LEADER_COMMAND)),
            (D.D_SUPPORT, (U(1),)),
            (D.D_SUPPORT, (-1,)),
        ]
    answers += [(D.D_ATT_CARD, (Slot(ca), D.AC_COMMITTED, U(4)))]
    if not supported:
        answers += [(D.D_ATT_CARD, (-1,))]  # Kutuzov stays in hand
    ones = [int(P.cards[0, atk, S.CF_ATK_N]), 2]  # the card's dice and the 2d6, all 1s
    script, ev = table("combat_phase", st, P, 0, answers=answers, dice=ones)
    assert [e[4] for e in events(ev, R.EV_COMBAT)] == [0]  # band 0: the attacker is hit
    assert step(st, 4) == 0  # the committed unit fell to the result itself
    assert step(st, 1) == (0 if supported else 2)  # its card's hit went on to unit 1
    assert st[S.ELIM] == (2 if supported else 1)


# --------------------------------------------------------------------------------------------
# Leaders: Combat value, Command value and supporting units (rule 6.4, rule 9.1)
# --------------------------------------------------------------------------------------------
def test_leader_combat_value_in_attack_and_defense_one_leader_each(table):
    """Rule 9.1 Combat: added to the Attack or Defense total; rule 6.1 steps 4-5 and the
    reference card: one Leader per side in a combat. 19th Legere 7 + 2d8 (6) + Ney 4 = 17
    against Koursk 6 + Bagration 4 = 10: band 2."""
    P = packed()
    atk, atk2 = cards_of(P, 0, "unit", 4, lambda r: r[S.CF_ATK_N] > 0)[:2]
    ney, lannes = leader(P, 0, "France", "Ney"), leader(P, 0, "France", "Lannes")
    bag, barclay = leader(P, 1, "Russia", "Bagration"), leader(P, 1, "Russia", "Barclay")
    e_card = cards_of(P, 1, "unit", 4)[0]
    st = setup(
        ASSAULT_BOARD.format(u="4"), P, {0: [atk, atk2, ney, lannes], 1: [bag, barclay, e_card]}
    )
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E)),
            (D.D_DEF_CARD, (Slot(bag),)),
            (D.D_ATT_CARD, (Slot(ney), D.AC_LEADER_COMBAT)),
        ],
        dice=[6],
    )  # fmt: skip
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 17, 10, 2)]
    d1, d2 = script.offered(D.D_DEF_CARD)
    a1, a2 = script.offered(D.D_ATT_CARD)
    assert len(d1) == 4  # decline, Bagration, Barclay, e's card
    assert hand(st, 1) == [barclay, e_card]  # (unplayed: the slots of the second decision)
    assert d2[:, 0].tolist() == [-1, 1]  # decline or e's card: no second leader
    assert {D.AC_LEADER_COMBAT, D.AC_LEADER_COMMAND} <= set(a1[:, 1].tolist())
    assert set(a2[:, 1].tolist()) == {D.AC_DONE, D.AC_UNIT}  # no second leader
    assert hand(st, 0) == [atk2, lannes]


def test_palafox_combat_one_in_attack_five_in_defense_and_no_command(table):
    """Rule 9.1 / HQ_CARDS.md: Palafox prints Combat 1 for attack and 5 for defense; with
    Command 1 only his Combat value is offered ('always use the Combat value'). France's
    19th Legere 7 + 2d8 (6) = 13 against Regiment de Castille 5 + Palafox 5 = 10."""
    P = packed("France", "Spain")
    atk = attack_card(P, 0, 4, dice=(2, 8))
    pal = leader(P, 1, "Spain", "Palafox")
    st = setup(ASSAULT_BOARD.format(u="4"), P, {0: [atk], 1: [pal]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E)), (D.D_DEF_CARD, (Slot(pal),))],
        dice=[6],
    )  # fmt: skip
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 13, 10, 2)]
    # Spain attacking with Palafox: +1, and no Command option
    P = packed("Spain", "France")
    atk = attack_card(P, 0, 4, dice=(2, 6))
    pal = leader(P, 0, "Spain", "Palafox")
    st = setup(ASSAULT_BOARD.format(u="4"), P, {0: [atk, pal]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E)),
            (D.D_ATT_CARD, (Slot(pal), D.AC_LEADER_COMBAT)),
        ],
        dice=[7],
    )  # fmt: skip
    (a1,) = script.offered(D.D_ATT_CARD)
    assert set(a1[:, 1].tolist()) == {D.AC_DONE, D.AC_LEADER_COMBAT}
    # Castille 5 + 2d6 (7) + Palafox 1 = 13 against France's 19th Legere (7)
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, 13, 7, 2)]


COMMAND_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . M3 . . . .
    . . 1 He 2 . . .
    . . . 4 . . . .
    . . . 5 . . . .
    . . . . . . . .
    . . . . . . . .
"""


@pytest.mark.parametrize("name, supports, total", [("Lannes", [1], 17), ("Davout", [1, 2], 22)])
def test_command_brings_supporting_units(table, name, supports, total):
    """Rule 6.4: a Leader's Command value N lets N - 1 supporting units join (adjacent to
    the defender, not in a Marsh, rule 6.1 step 1); they add their strength, Unit Cards
    may be played for them, the Leader's Combat value is not added (9.1: one or the
    other), and if the attack total is less than the defense total every attacking and
    supporting unit takes a Hit. Koursk (6) on a Hill (+2) with three cards (+15) = 23."""
    P = packed()
    atk = attack_card(P, 0, 4, dice=(2, 8))
    atk1 = attack_card(P, 0, 1, dice=(2, 6))
    ld = leader(P, 0, "France", name)
    e_cards = cards_of(P, 1, "unit", 4, lambda r: r[S.CF_DEF] == 5)[:3]
    st = setup(COMMAND_BOARD, P, {0: [atk, ld, atk1], 1: e_cards})
    answers = [(D.D_COMBAT, (D.CK_ASSAULT, U(4), Slot(atk), E))]
    answers += [(D.D_DEF_CARD, (Slot(c),)) for c in e_cards]
    answers += [(D.D_ATT_CARD, (Slot(ld), D.AC_LEADER_COMMAND))]
    answers += [(D.D_SUPPORT, (U(u),)) for u in supports]
    answers += [(D.D_ATT_CARD, (Slot(atk1), D.AC_UNIT, U(1)))]
    script, ev = table("combat_phase", st, P, 0, answers=answers, dice=[2, 2])
    offered = [set(o[:, 0].tolist()) for o in script.offered(D.D_SUPPORT)]
    assert offered == [{-1, U(1), U(2)}, {-1, U(2)}][: len(supports)]  # not 3 (Marsh), 5
    # 19th Legere 7 + 2d8 (2) + 2nd Legere 6 + 2d6 (2) (+ 4th Suisse 5)
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_ASSAULT, total, 23, 0)]
    # the trace names each supporting unit, the defender and the leader leading it
    assert events(ev, R.EV_SUPPORT) == [(0, U(u), E, ld, 0) for u in supports]
    for u in (4, 1, 2, 3, 5):
        assert step(st, u) == (1 if u == 4 or u in supports else 2)


# --------------------------------------------------------------------------------------------
# Ambush (rule 6.1, rule 9.2 Ambush, HQ_CARDS.md: 1d10)
# --------------------------------------------------------------------------------------------
AMBUSH_BOARD = """
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . 1 Hd . . . .
    . . . 0 . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
"""


def test_ambush_rolls_1d10_alone_no_skirmish_no_advance(table):
    """Rule 9.2 Ambush / HQ_CARDS.md: no attacking unit — the attack is the card's 1d10
    (10), no unit strength, no attacker terrain; the defender keeps its Hill (6 + 2 = 8).
    Skirmish 'may not be played at all during an Ambush'; 'No Advance After Combat is
    allowed in an Ambush' (rule 6.5). The United States (player 0) against France."""
    P = packed("United States", "France")
    amb = cards_of(P, 0, "Ambush")[0]
    skirmish = cards_of(P, 0, "Skirmish")[0]
    jackson = leader(P, 0, "United States", "Jackson")
    st = setup(AMBUSH_BOARD, P, {0: [amb, skirmish, jackson]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_AMBUSH, -1, Slot(amb), Dd)),
            (D.D_HIT_OR_RETREAT, (1,)),  # band 2: France retreats
        ],
        dice=[10],
    )  # fmt: skip
    (a1,) = script.offered(D.D_ATT_CARD)
    assert D.AC_SKIRMISH not in a1[:, 1] and D.AC_LEADER_COMMAND in a1[:, 1]
    assert script.rolls == [(1, 10, 10)]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_AMBUSH, 10, 8, 2)]
    assert sq_of(st, 11) == at(2, 3)  # toward France's own edge, here the top
    assert D.D_ADVANCE not in script.kinds() and not events(ev, R.EV_ADVANCE)
    assert sq_of(st, 0) == at(4, 3) and sq_of(st, 1) == at(3, 2)
    assert hand(st, 0) == [skirmish, jackson]


def test_ambush_with_a_leaders_command_counts_as_the_first_unit(table):
    """Rule 9.2 Ambush: 'If a leader is used to bring in adjacent units, the Ambush card
    counts as the first unit': Jackson's Command 2 brings one unit. 1d10 (1) + 1st
    Infantry 8 = 9 against 8: band 2 (the defender takes the hit, option 0)."""
    P = packed("United States", "France")
    amb = cards_of(P, 0, "Ambush")[0]
    jackson = leader(P, 0, "United States", "Jackson")
    st = setup(AMBUSH_BOARD, P, {0: [amb, jackson]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_AMBUSH, -1, Slot(amb), Dd)),
            (D.D_ATT_CARD, (Slot(jackson), D.AC_LEADER_COMMAND)),
            (D.D_SUPPORT, (U(0),)),
        ],
        dice=[1],
    )  # fmt: skip
    (sup,) = script.offered(D.D_SUPPORT)
    assert set(sup[:, 0].tolist()) == {-1, U(0), U(1)}
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_AMBUSH, 9, 8, 2)]
    assert step(st, 11) == 1 and sq_of(st, 11) == at(3, 3)


def test_ambush_supporting_unit_on_a_hill_gets_no_hill_bonus(table):
    """Rule 9.2 Ambush: 'An Ambush is considered to originate in the square the Defender
    occupied ... there is no benefit for the attacker': a supporting unit on a Hill next to
    a defender in Clear adds its strength only. 1d10 (1) + 1st Infantry 8 = 9 (not 11)
    against 6."""
    board = AMBUSH_BOARD.replace(". . . 0 . . . .", ". . . H0 . . . .").replace(
        ". . 1 Hd . . . .", ". . 1 d . . . ."
    )
    P = packed("United States", "France")
    amb = cards_of(P, 0, "Ambush")[0]
    jackson = leader(P, 0, "United States", "Jackson")
    st = setup(board, P, {0: [amb, jackson]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_AMBUSH, -1, Slot(amb), Dd)),
            (D.D_ATT_CARD, (Slot(jackson), D.AC_LEADER_COMMAND)),
            (D.D_SUPPORT, (U(0),)),
        ],
        dice=[1],
    )  # fmt: skip
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_AMBUSH, 9, 6, 2)]


def test_committed_attack_in_an_ambush_needs_a_supporting_unit(table):
    """Rule 9.2 Ambush: every Assault card but Skirmish may be played; Committed Attack:
    one per attacking/supporting unit, and that unit takes the hit (interpretation 13): an
    Ambush has no attacking unit, so only a unit brought in by a leader can commit. Austria
    (player 0) against France: 1d10 (1) + 1st Regiment 7 + 2d6 (2) = 10 against 8."""
    P = packed("Austria", "France")
    amb = cards_of(P, 0, "Ambush")[0]
    ca = cards_of(P, 0, "Committed Attack")[0]
    schwarzenberg = leader(P, 0, "Austria", "Schwarzenberg")
    st = setup(AMBUSH_BOARD, P, {0: [amb, ca, schwarzenberg]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[
            (D.D_COMBAT, (D.CK_AMBUSH, -1, Slot(amb), Dd)),
            (D.D_ATT_CARD, (Slot(schwarzenberg), D.AC_LEADER_COMMAND)),
            (D.D_SUPPORT, (U(0),)),
            (D.D_ATT_CARD, (Slot(ca), D.AC_COMMITTED, U(0))),
        ],
        dice=[1, 2],
    )  # fmt: skip
    first = script.offered(D.D_ATT_CARD)[0]
    assert D.AC_COMMITTED not in first[:, 1]  # before the leader: no unit to commit
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_AMBUSH, 10, 8, 2)]
    assert step(st, 11) == 1  # France took the hit (option 0)
    assert step(st, 0) == 1 and step(st, 1) == 2  # the committed unit paid for it


def test_withdraw_from_an_ambush_without_advance(table):
    """Rule 9.2 Ambush: 'The defending unit may withdraw from this combat'; there is no
    attacking unit and no advance after an Ambush (rule 6.5)."""
    P = packed("United States", "France")
    amb = cards_of(P, 0, "Ambush")[0]
    wd = cards_of(P, 1, "Withdraw")[0]
    st = setup(AMBUSH_BOARD, P, {0: [amb], 1: [wd]})
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_AMBUSH, -1, Slot(amb), Dd)), (D.D_WITHDRAW, (Slot(wd),))],
    )  # fmt: skip
    assert sq_of(st, 11) == at(2, 3) and step(st, 11) == 2
    assert sq_of(st, 0) == at(4, 3) and sq_of(st, 1) == at(3, 2)
    assert not events(ev, R.EV_COMBAT) and discards(st, 0) == [amb] and discards(st, 1) == [wd]


# --------------------------------------------------------------------------------------------
# Bombardment, Volley, Grand Battery (rule 6.2, rule 8 Range, rule 9.1)
# --------------------------------------------------------------------------------------------
def _fire_targets(P, st, p, c, kind):
    st[S.HAND_N + p] = 1
    st[S.HAND + p * S.HMAX] = c
    opts = np.zeros((D.MAXOPT, 4), np.int32)
    n = G.combat_options(st, P.units, P.cards, P.tprops, p, opts)
    return {(int(o[1]), int(o[3])) for o in opts[:n] if o[0] == kind}


def test_bombardment_diagonal_range_and_line_of_sight():
    """Rule 8 Range: a diagonal neighbour is at range 2 and 'one of the intervening
    squares must not be Woods, Hills, Town, or contain a unit'; rule 6.2 step 2: straight
    two squares through an open square; never three. 8th Legere's artillery card (range 2):
    a (diagonal; Woods and an open square between) yes; b (diagonal; a Hill and a unit
    between) no; c (two to the right, open) yes; d (two up, Woods) no; e (three) no."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . d . . . .
        . . . W a . . .
        . . 1 3 . c . .
        . . b H . . . .
        . . . . . . . .
        . . . e . . . .
    """
    P = packed()
    st = state_from_board(parse_board(board))
    arty = cards_of(P, 0, "unit", 3, lambda r: r[S.CF_ARTY] == 1)[0]
    assert _fire_targets(P, st, 0, arty, D.CK_BOMBARD) == {(U(3), A), (U(3), C)}
    assert not _fire_targets(P, st, 0, arty, D.CK_VOLLEY)


@pytest.mark.parametrize("roll, hit", [(7, False), (8, True)])
def test_bombardment_hill_bonus_against_redoubt_no_withdraw(table, roll, hit):
    """Rule 6.2 steps 3-4: 1d10 + the Hill's +2 (the target is not on a hill) against the
    target's strength 6 + redoubt 3 (interpretation 17); only a greater total hits. A
    Withdraw 'may not be used to avoid a Volley or Bombardment' (rule 9.2 Withdraw); no
    retreat, no advance (rule 6.5)."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . H3 . e . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    P = packed()
    arty = cards_of(P, 0, "unit", 3, lambda r: r[S.CF_ARTY] == 1)[0]
    wd = cards_of(P, 1, "Withdraw")[0]
    st = setup(board, P, {0: [arty], 1: [wd]}, redoubts=[at(4, 5)])
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_BOMBARD, U(3), Slot(arty), E))],
        dice=[roll],
    )  # fmt: skip
    assert script.kinds() == [D.D_COMBAT] and script.rolls == [(1, 10, roll)]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_BOMBARD, roll + 2, 9, int(hit))]
    assert step(st, 12) == (1 if hit else 2) and sq_of(st, 12) == at(4, 5)
    assert sq_of(st, 3) == at(4, 3) and st[S.REDOUBT + at(4, 5)] == 1
    assert discards(st, 0) == [arty] and hand(st, 1) == [wd]


@pytest.mark.parametrize("roll, hit", [(5, False), (6, True)])
def test_volley_adjacent_only(table, roll, hit):
    """Rule 6.2 step 2: a Volley's target 'must be adjacent (not diagonally!)'; the Attack
    is the card's dice (Russian Guard: Volley 2d8) against strength + terrain, a hit only
    when greater (step 4). France's 4th Suisse (5) on Clear."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . c . 4 . .
        . . . 2 5 . . .
        . . . 1 . . . .
        . . . . . . . .
        . . . . . . . .
    """
    P = packed()
    vol = cards_of(P, 1, "unit", 2, lambda r: r[S.CF_VOL_N] > 0)[0]
    st = setup(board, P, {1: [vol]})
    assert _fire_targets(P, st.copy(), 1, vol, D.CK_VOLLEY) == {(C, U(2))}
    script, ev = table(
        "combat_phase", st, P, 1,
        answers=[(D.D_COMBAT, (D.CK_VOLLEY, C, Slot(vol), U(2)))],
        dice=[roll],
    )  # fmt: skip
    assert script.rolls == [(2, 8, roll)]
    assert events(ev, R.EV_COMBAT) == [(1, D.CK_VOLLEY, roll, 5, int(hit))]
    assert step(st, 2) == (1 if hit else 2) and sq_of(st, 2) == at(4, 3)
    assert sq_of(st, 10) == at(3, 3)


@pytest.mark.parametrize("roll, hit", [(4, False), (5, True)])
def test_grand_battery_from_any_unit_at_range_two(table, roll, hit):
    """Rule 9.1 Grand Battery: Napoleon's card bombards from any French unit at range 2
    (interpretation 22: 1 or 2, bombardment line of sight) with 2d10 plus terrain: 45th
    Legere on a Hill fires at a (6) over an open square, 2d10 + 2 > 6 hits; the Woods
    block b from the 45th, but the Garde next to b may fire. It is the turn's combat."""
    board = """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . a . . . .
        . . . . . . . .
        . . . H5 W b . .
        . . . . . 7 . .
        . . . . . . . .
    """
    P = packed()
    nap = cards_of(P, 0, "leader", pred=lambda r: r[S.CF_GB_N] == 2)[0]
    assert nap == leader(P, 0, "France", "Napol")
    st = setup(board, P, {0: [nap]})
    assert _fire_targets(P, st.copy(), 0, nap, D.CK_GRAND_BATTERY) == {(U(5), A), (U(7), B)}
    script, ev = table(
        "combat_phase", st, P, 0,
        answers=[(D.D_COMBAT, (D.CK_GRAND_BATTERY, U(5), Slot(nap), A))],
        dice=[roll],
    )  # fmt: skip
    assert script.rolls == [(2, 10, roll)]
    assert events(ev, R.EV_COMBAT) == [(0, D.CK_GRAND_BATTERY, roll + 2, 6, int(hit))]
    assert step(st, 8) == (1 if hit else 2)
    assert discards(st, 0) == [nap] and st[S.COMBATS] == 1
