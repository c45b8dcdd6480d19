"""How games of Manoeuvre end (issue 26 part 4): the attrition / nightfall mix of a set of
game records, and what one game's event trace shows about the fighting.

Two parts, both plain Python over what the engine already writes:

- ``endings_row(games)``: from game records (the ``simulate``/``balance`` columns,
  docs/results-tables.md) the share of attrition (rule 2.1), nightfall (rule 2.2, 2.3) and
  turn-limit endings with 95 % Wilson intervals, the mean game turns, the eliminations per
  side, and how close the sides came to the fifth elimination at nightfall.
- ``trace_counts(trace)``: from one game's event trace (``runner.traced_game``, rows
  ``(event, player, a, b, c, d)`` of ``engine/rules.py``) the counts a reader would tally
  by hand: combats and eliminations per game turn, the turns before the armies first touch,
  how each combat's target fared (and how often a unit at reduced strength got away), the
  attacker's own losses, restorations, each side's eliminations over time and the turn each
  first deck ran out (the day's end, rule 2.3).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from manoeuvre_sim.core.stats import mean_interval, wilson_interval
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine.decisions import CK_AMBUSH, CK_ASSAULT
from manoeuvre_sim.manoeuvre.engine.state import MAXU_SIDE

ATTRITION = 5  # rule 2.1: 5 eliminated units lose the game at once


def _share(k: int, n: int) -> tuple[float, float, float]:
    lo, hi = wilson_interval(k, n)
    return k / n, float(lo), float(hi)


def endings_row(games: pd.DataFrame) -> dict:
    """The endings of ``games`` (columns ``victory``, ``turn_limit``, ``winner``,
    ``game_turns``, ``eliminated_a``, ``eliminated_b``).

    Returns a dict: ``games``; ``attrition``, ``nightfall``, ``turn_limit`` as (share, lo,
    hi) — a turn-limit game is scored as at nightfall but counted apart; ``turns`` (mean,
    lo, hi; normal interval); ``lost_per_side`` (mean units eliminated per side);
    ``winner_kills`` / ``loser_kills``: the mean enemy units each had eliminated in the
    decided nightfall games; ``lead_kills``: over nightfall games, the share in which the
    side with the most eliminations had 0, 1, 2, 3, 4 (a list of 5); ``one_short``: (share,
    lo, hi) of nightfall games in which a side had eliminated 4 units, one short of an
    attrition victory; ``winner_at`` / ``loser_at``: the decided nightfall games' winners'
    and losers' eliminations as shares of 0..4."""
    n = len(games)
    if n == 0:
        raise ValueError("endings_row: no games")
    att = games["victory"] == "attrition"
    lim = games["turn_limit"].astype(bool)
    night = (games["victory"] == "nightfall") & ~lim
    turns = games["game_turns"].to_numpy(dtype=float)
    ea = games["eliminated_a"].to_numpy()
    eb = games["eliminated_b"].to_numpy()
    # a side's kills are the enemy's eliminated units: a's kills are b's losses
    kills_a, kills_b = eb, ea
    nf = (games["victory"] == "nightfall").to_numpy()
    lead = np.maximum(kills_a, kills_b)[nf]
    w = games["winner"].to_numpy()
    dec = nf & (w != "draw")
    wk = np.where(w == "a", kills_a, kills_b)[dec]
    lk = np.where(w == "a", kills_b, kills_a)[dec]

    def dist(x: np.ndarray) -> list[float]:
        return [float((x == k).mean()) if len(x) else float("nan") for k in range(ATTRITION)]

    return {
        "games": n,
        "attrition": _share(int(att.sum()), n),
        "nightfall": _share(int(night.sum()), n),
        "turn_limit": _share(int(lim.sum()), n),
        "turns": mean_interval(turns),
        "lost_per_side": float((ea + eb).mean() / 2),
        "winner_kills": float(wk.mean()) if len(wk) else float("nan"),
        "loser_kills": float(lk.mean()) if len(lk) else float("nan"),
        "lead_kills": dist(lead),
        "one_short": _share(int((lead >= ATTRITION - 1).sum()), int(nf.sum()))
        if nf.any()
        else (float("nan"),) * 3,
        "winner_at": dist(wk),
        "loser_at": dist(lk),
        "nightfall_games": int(nf.sum()),
    }


# events that end a combat's window: the next phase, turn or combat has begun
_AFTER_COMBAT = {
    R.EV_TURN, R.EV_DRAW, R.EV_DISCARD, R.EV_RESTORE, R.EV_REDOUBT, R.EV_END, R.EV_SPY,
    R.EV_RESHUFFLE, R.EV_NO_MOVE,
}  # fmt: skip
_PHASE_PLAYS = {
    R.PURPOSE_INITIATE, R.PURPOSE_RESTORE, R.PURPOSE_REDOUBT, R.PURPOSE_SUPPLY_MOVE,
    R.PURPOSE_FORCED_MARCH,
}  # fmt: skip
SKIRMISH_MOVE = 3  # EV_MOVE d: the Skirmish move belongs to its combat (rule 9.2 Skirmish)


def _adjacent_enemies(pos: dict[int, int]) -> bool:
    """True if a unit of one side stands orthogonally next to a unit of the other."""
    occ = {sq: u // MAXU_SIDE for u, sq in pos.items()}
    for sq, side in occ.items():
        r, c = divmod(sq, 8)
        for dr, dc in ((1, 0), (0, 1)):
            rr, cc = r + dr, c + dc
            if rr < 8 and cc < 8:
                o = occ.get(rr * 8 + cc)
                if o is not None and o != side:
                    return True
    return False


def _reduced_in_reach(pos: dict[int, int], step: dict[int, int], side: int) -> set[int]:
    """The enemy units at reduced strength standing orthogonally next to one of ``side``'s
    units: the ones it could Assault without moving (rule 6.1 step 2)."""
    mine = {sq for u, sq in pos.items() if u // MAXU_SIDE == side}
    out = set()
    for u, sq in pos.items():
        if u // MAXU_SIDE == side or step.get(u) != 1:
            continue
        r, c = divmod(sq, 8)
        near = [(r + dr) * 8 + (c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < 8 and 0 <= c + dc < 8]  # fmt: skip
        if any(x in mine for x in near):
            out.add(u)
    return out


# the events only the active player logs: the first of them by the other player begins its
# player turn (its discard, draw, move, or its combat when it neither drew nor moved)
_ACTIVE_EVENTS = {R.EV_DISCARD, R.EV_DRAW, R.EV_MOVE, R.EV_NO_MOVE}


def _armed(hand: set[int], cards: np.ndarray, pos: dict[int, int], reach: set[int], p: int):
    """True if ``p``'s ``hand`` holds a card to attack a unit of ``reach`` without moving:
    an Ambush (rule 9.2), a unit card with an Assault or Volley value for one of p's units
    next to it (rules 6.1, 6.2), or with a Bombardment value for one within two squares
    (rule 6.2; the line of sight is not checked, so this errs towards armed)."""
    from manoeuvre_sim.manoeuvre.engine import state as S

    targets = [pos[u] for u in reach if u in pos]
    for c in hand:
        kind = cards[p, c, S.CF_KIND]
        if kind == S.KIND_HQ and cards[p, c, S.CF_HQ] == S.HQ_AMBUSH:
            return True
        if kind != S.KIND_UNIT:
            continue
        sq = pos.get(p * MAXU_SIDE + cards[p, c, S.CF_UNIT])
        if sq is None:
            continue
        dist = min(abs(sq // 8 - t // 8) + abs(sq % 8 - t % 8) for t in targets)
        near = cards[p, c, S.CF_ATK_N] > 0 or cards[p, c, S.CF_VOL_N] > 0
        if (near and dist == 1) or (cards[p, c, S.CF_BOMB_N] > 0 and dist <= 2):
            return True
    return False


_FATES = ("eliminated", "hit", "retreated", "withdrew", "unharmed")


class _Tally:
    """The running counts of ``trace_counts``, brought up to date one event at a time."""

    def __init__(self, deck_size: int, cards: np.ndarray | None) -> None:
        self.deck_size = deck_size
        self.cards = cards
        self.pos: dict[int, int] = {}
        self.step: dict[int, int] = {}
        self.draws = [0, 0]
        self.deck_out: list[int | None] = [None, None]
        self.turn = 0
        self.combats_by_turn: list[int] = []
        self.elims_by_turn: list[int] = []
        self.kills_by_turn: list[list[int]] = [[], []]
        self.kills = [0, 0]
        self.contact_turns: list[bool] = []
        self.target_n = dict.fromkeys(_FATES, 0)
        self.esc_how = dict(self.target_n)
        self.out = {
            "combats": 0, "assaults": 0, "eliminations": 0, "hits": 0, "reduced_targets": 0,
            "reduced_escaped": 0, "attacker_hits": 0, "attacker_elims": 0, "restored": [0, 0],
            "discards": [0, 0], "reach_turns": 0, "reach_attacked": 0,
            "reach_armed": 0, "reach_armed_attacked": 0,
            "winner": None, "victory": None, "vp": None,
        }  # fmt: skip
        self.cur: dict | None = None  # the combat under way: {"p", "t", "reduced", "fate"}
        self.active = -1  # the player whose player turn it is
        self.hands: list[set[int]] = [set(), set()]  # each hand, followed from the trace
        self.moved = True  # the active player has begun its Movement Phase
        self.reach_armed = False  # ... and held a card to attack a unit of ``reach`` then
        self.reach: set[int] = set()  # reduced enemy units next to the active player's
        self.combat_log: list[dict] = []

    def close(self) -> None:
        """The combat under way is over: count its target's fate."""
        cur = self.cur
        if cur is None:
            return
        fate = cur["fate"] = cur["fate"] or "unharmed"
        self.target_n[fate] += 1
        if cur["reduced"] and fate != "eliminated":
            self.out["reduced_escaped"] += 1
            self.esc_how[fate] += 1
        self.cur = None

    def end_turn(self) -> None:
        for p in (0, 1):
            self.kills_by_turn[p].append(self.kills[p])

    def read(self, ev: int, p: int, a: int, b: int, c: int, d: int) -> None:
        """One event of the trace: the combat it ends, the player turn it begins, the card it
        moves in or out of a hand, and what it counts."""
        if self.cur is not None and (
            ev in _AFTER_COMBAT
            or (ev == R.EV_PLAY and b in _PHASE_PLAYS)
            or (ev == R.EV_MOVE and d != SKIRMISH_MOVE)
        ):
            self.close()
        self._follow_player_turn(ev, p, b)
        self._follow_hand(ev, p, a, b)
        self._count(ev, p, a, b, c, d)

    def _follow_player_turn(self, ev: int, p: int, b: int) -> None:
        begins = ev == R.EV_TURN or (
            self.turn > 0
            and p != self.active
            and (ev in _ACTIVE_EVENTS or (ev == R.EV_PLAY and b == R.PURPOSE_INITIATE))
        )
        if begins:  # a player turn begins: what could it assault without moving?
            self.active = p
            self.reach = _reduced_in_reach(self.pos, self.step, p)
            self.out["reach_turns"] += int(bool(self.reach))
            self.moved = False
            self.reach_armed = False
        if (
            ev in (R.EV_MOVE, R.EV_NO_MOVE)
            and p == self.active
            and not self.moved
            and self.reach
            and self.cards is not None
        ):
            # the Movement Phase begins: the hand drawn is the hand to fight with
            self.moved = True
            if _armed(self.hands[p], self.cards, self.pos, self.reach, p):
                self.out["reach_armed"] += 1
                self.reach_armed = True
            else:
                self.reach_armed = False
        elif ev in (R.EV_MOVE, R.EV_NO_MOVE) and p == self.active:
            self.moved = True

    def _follow_hand(self, ev: int, p: int, a: int, b: int) -> None:
        # the cards a player holds (a Skirmish returns the initiating card)
        if ev == R.EV_DRAW:
            self.hands[p].add(a)
        elif ev in (R.EV_DISCARD, R.EV_SPY) or (ev == R.EV_PLAY and b != R.PURPOSE_MAHARAJA):
            self.hands[p].discard(a)
            if ev == R.EV_PLAY and b == R.PURPOSE_SKIRMISH and self.cur is not None:
                self.hands[p].add(self.cur["card"])

    def _count(self, ev: int, p: int, a: int, b: int, c: int, d: int) -> None:
        out, cur = self.out, self.cur
        if ev == R.EV_SETUP:
            self.pos[a] = b
            self.step[a] = 2
        elif ev == R.EV_TURN:
            self._game_turn(a)
        elif ev == R.EV_DISCARD:
            out["discards"][p] += 1
        elif ev == R.EV_DRAW:
            self.draws[p] += 1
            if self.draws[p] == self.deck_size and self.deck_out[p] is None:
                self.deck_out[p] = max(self.turn, 1)
        elif ev in (R.EV_MOVE, R.EV_ADVANCE) or (ev == R.EV_RETREAT and c >= 0):
            self.pos[a] = c
            if ev == R.EV_RETREAT and cur is not None and a == cur["t"] and not cur["fate"]:
                cur["fate"] = "retreated"
        elif ev == R.EV_WITHDRAW and b == 1:
            if cur is not None and a == cur["t"]:
                cur["fate"] = "withdrew"
        elif ev == R.EV_PLAY and b == R.PURPOSE_INITIATE:
            self._combat(p, a, c, d)
        elif ev == R.EV_HIT:
            self._hit(a, b)
        elif ev == R.EV_RESTORE and b == 1:
            self.step[a] = 2
            out["restored"][p] += 1
        elif ev == R.EV_END:
            out["winner"], out["victory"], out["vp"] = a, b, (c, d)

    def _game_turn(self, turn: int) -> None:
        if self.turn > 0:
            self.end_turn()
        self.turn = turn
        self.combats_by_turn.append(0)
        self.elims_by_turn.append(0)
        self.contact_turns.append(_adjacent_enemies(self.pos))

    def _combat(self, p: int, card: int, target: int, kind: int) -> None:
        """Player ``p`` initiates a combat on unit ``target`` with ``card``."""
        out = self.out
        cur = self.cur = {
            "turn": self.turn,
            "p": p,
            "t": target,
            "kind": kind,
            "card": card,
            "reduced": self.step.get(target) == 1,
            "fate": "",
        }
        self.combat_log.append(cur)
        out["combats"] += 1
        out["assaults"] += int(kind in (CK_ASSAULT, CK_AMBUSH))
        out["reduced_targets"] += int(cur["reduced"])
        if target in self.reach:
            out["reach_attacked"] += 1
            out["reach_armed_attacked"] += int(self.cards is not None and self.reach_armed)
            self.reach = set()  # one combat a turn (rule 4): counted once
        if self.combats_by_turn:
            self.combats_by_turn[-1] += 1

    def _hit(self, unit: int, left: int) -> None:
        """A hit on ``unit``, which has ``left`` steps left (0: eliminated)."""
        out, cur = self.out, self.cur
        side = unit // MAXU_SIDE
        if left == 0:  # eliminated (a hit on a reduced unit, a blocked retreat, band 5)
            self.pos.pop(unit, None)
            self.step[unit] = 0
            out["eliminations"] += 1
            self.kills[1 - side] += 1
            if self.elims_by_turn:
                self.elims_by_turn[-1] += 1
        else:
            self.step[unit] = 1
            out["hits"] += 1
        if cur is not None:
            if side == cur["p"]:
                out["attacker_hits"] += 1
                out["attacker_elims"] += int(left == 0)
            elif unit == cur["t"]:
                cur["fate"] = "eliminated" if left == 0 else (cur["fate"] or "hit")

    def result(self) -> dict:
        """The counts once the last event has been read."""
        self.close()
        if self.turn > 0:
            self.end_turn()
        contact, combats = self.contact_turns, self.combats_by_turn
        return self.out | {
            "turns": self.turn,
            "combats_by_turn": combats,
            "elims_by_turn": self.elims_by_turn,
            "first_contact": next((i + 1 for i, x in enumerate(contact) if x), None),
            "turns_without_contact": sum(1 for x in contact if not x),
            "first_combat": next((i + 1 for i, x in enumerate(combats) if x), None),
            "target": self.target_n,
            "reduced_escape_how": self.esc_how,
            "kills": self.kills,
            "kills_by_turn": self.kills_by_turn,
            "deck_out": self.deck_out,
            "hits_short": _hits_short(self.kills, self.pos, self.step),
            "draws": self.draws,
            "hands": [sorted(h) for h in self.hands],
            "combat_log": self.combat_log,
        }


def _hits_short(kills: list[int], pos: dict[int, int], step: dict[int, int]) -> list[int | None]:
    """The fewest further hits that would have made each side's fifth elimination: the
    enemy's units on the board, reduced ones first (1 hit each), then full ones (2)."""
    short: list[int | None] = []
    for p in (0, 1):
        need = ATTRITION - kills[p]
        left = sorted(step[u] for u in pos if u // MAXU_SIDE != p and step.get(u, 0) > 0)
        short.append(None if need <= 0 else (sum(left[:need]) if len(left) >= need else None))
    return short


def trace_counts(trace: np.ndarray, deck_size: int = 60, cards: np.ndarray | None = None) -> dict:
    """Count what happened in one traced game.

    ``trace``: ``ndarray(int, (n, 6))`` rows ``(event, player, a, b, c, d)``
    (engine/rules.py EV_*). ``deck_size``: cards in each first Action Deck (60 in the base
    game); a player's first deck has run out at its ``deck_size``-th draw (rule 2.3).

    Returns a dict: ``turns`` (game turns played); ``combats``, ``assaults`` (Assaults and
    Ambushes), ``eliminations`` (units eliminated, both sides), ``hits`` (full-strength
    units reduced); ``combats_by_turn`` and ``elims_by_turn`` (lists, index 0 = game turn
    1); ``first_contact`` (the first game turn at whose start units of the two sides stood
    next to each other, None if never), ``turns_without_contact`` (game turns that began
    with no two enemy units adjacent), ``first_combat`` (game turn of the first combat);
    ``target``: how each combat's target fared — counts of ``eliminated``, ``hit``,
    ``retreated``, ``withdrew``, ``unharmed`` (neither hit, moved nor eliminated: no effect,
    the attack repulsed, a miss or Skirmish); ``reduced_targets`` (combats whose target was
    at reduced strength when the combat was declared) and ``reduced_escaped`` (of those,
    the target was still on the board when the combat ended) with ``reduced_escape_how``
    (the same keys as ``target``, for those escapes); ``attacker_hits`` (hits taken by
    the active player's own units in its combats: repulses, Committed Attacks) and
    ``attacker_elims``; ``restored`` (successful restorations per player, list of 2);
    ``reach_turns`` (player turns that began with an enemy unit at reduced strength next
    to one of the active player's units, one Assault from elimination) and
    ``reach_attacked`` (of those turns, the ones in which the active player's combat
    targeted such a unit); with ``cards`` (the packed ``tables.cards`` of the two armies,
    ``ndarray(int, (2, n_cards, NCF))``): ``reach_armed`` (of the ``reach_turns``, those in
    which the hand the player moved with held a card to attack such an enemy unit without
    moving: an Ambush, an Assault or Volley card of a unit next to it, a Bombardment card
    of a unit within two squares) and ``reach_armed_attacked`` (of
    those, the turns its combat went for one); ``hands`` (each player's cards in hand at
    the end, followed from the draws, discards and plays);
    ``discards`` (cards each player discarded unplayed in its Discard Phase, list of 2);
    ``draws`` (cards each player drew, the opening hand included);
    ``combat_log`` (per combat a dict: ``turn``, ``p`` the attacker, ``t`` the target unit,
    ``kind`` CK_*, ``reduced``, ``fate`` as the ``target`` keys); ``hits_short`` (per
    player, the fewest further hits that would make its fifth elimination from the enemy
    units left on the board — reduced ones 1, full ones 2 — None once it has 5 or if too
    few enemy units are left);
    ``kills`` (list of 2: the enemy units each player eliminated) and ``kills_by_turn``
    (per player, the running count at the end of each game turn); ``deck_out`` (per
    player, the game turn of its ``deck_size``-th draw, None if never); ``winner``,
    ``victory``, ``vp`` from the end event."""
    tally = _Tally(deck_size, cards)
    for row in np.asarray(trace).tolist():
        ev, p, a, b, c, d = row[:6]
        tally.read(ev, p, a, b, c, d)
    return tally.result()
