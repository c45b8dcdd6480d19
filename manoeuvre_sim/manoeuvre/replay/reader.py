"""Replays, the trace reader: one traced game's events -> a :class:`Replay` (the board after
the set-up and each player turn, each section's lines as data), checked against the engine.

The board is rebuilt from the trace alone (the map events, set-up, moves, retreats,
advances, hits, eliminations, restorations and redoubts) plus the static data the game was
played with (army files, map sections); nothing is read back from the engine's state. The
rebuilt board is then checked against the engine's final state (:func:`verify`), so a replay
is also a test of the trace.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.model.army import nightfall_ranks
from manoeuvre_sim.manoeuvre.replay.model import (
    POSITIONS,
    Board,
    Line,
    MatchInfo,
    Replay,
    ReplayError,
    Result,
    Section,
    match_info,
    unit_label,
)

# events that only the active player logs, in its own player turn: the first of them by
# the other player starts the other player's turn (discard, draw, Scout/Spy, movement)
_OWN_TURN_EVENTS = {
    R.EV_DISCARD, R.EV_RESHUFFLE, R.EV_DRAW, R.EV_SPY, R.EV_MOVE, R.EV_NO_MOVE, R.EV_DIG_IN,
    R.EV_PHASE, R.EV_VIA,
}  # fmt: skip


def _names(module, prefix: str) -> dict[int, str]:
    """``{code: name}`` of a module's ``PREFIX_NAME = code`` constants (EV_DIG_IN -> 'dig_in')."""
    n = len(prefix)
    return {v: k[n:].lower() for k, v in vars(module).items()
            if k.startswith(prefix) and isinstance(v, int)}  # fmt: skip


# EV_* code -> its handler ``_Reader._on_<name>`` (EV_DIG_IN -> _on_dig_in)
_EVENT_NAMES = _names(R, "EV_")
# the codes a line reports, by name: card purposes, rolls and combats
PURPOSE_NAMES = _names(R, "PURPOSE_")  # 'defense', 'attack', 'leader_command', ...
ROLL_NAMES = _names(R, "ROLL_")  # 'first', 'attack', 'fire', 'pursuit', 'rally', 'withdraw'
COMBAT_NAMES = _names(D, "CK_")  # 'assault', 'ambush', 'bombard', 'volley', 'grand_battery'
PHASE_NAMES = _names(R, "PHASE_")  # rule 4: 'discard', 'draw', 'movement', 'combat', ...


class _Reader:
    """Walks the trace once: sections, their lines as data, the board."""

    def __init__(self, info: MatchInfo):
        self.info = info
        self.board = Board()
        self.setup = Section("Set-up", 0, -1)
        self.turns: list[Section] = []
        self.end = Section("End of the game", 0, -1)
        self.cur = self.setup
        self.first = -1
        self.game_turn = 0
        self.deck_left = list(info.deck_size)
        self.reshuffled = [False, False]
        self.first_deck_done = [False, False]
        self.pursuit_mod = 0  # the attacker's leader's pursuit modifier in this combat
        self.winner_event: tuple[int, ...] | None = None
        self.dice: list[int] = []  # the EV_DIE rows of the roll to come
        # cards in each hand, counted from the trace: +1 a draw, -1 a discard, a card played
        # (EV_PLAY: each card of a pair is a row of its own) or played as Scout/Spy; checked
        # against the engine's hands at the end (:func:`verify`)
        self.hand = [0, 0]
        self.phase = ""  # rule 4: the phase under way ("" between phases, in the set-up)

    # --- sections -----------------------------------------------------------------------
    def _close(self) -> None:
        self.cur.board = self.board.copy()

    def _open(self, player: int) -> None:
        self._close()
        title = f"Game turn {self.game_turn}: {self.info.side(player)}"
        self.cur = Section(title, self.game_turn, player)
        self.turns.append(self.cur)

    def note(self, p: int, kind: str, **values) -> None:
        self.cur.lines.append(Line(kind, p, values))

    # --- events -------------------------------------------------------------------------
    def event(self, row: tuple[int, ...]) -> None:
        ev, p, a, b, c, d = row
        if ev == R.EV_TURN:
            self.game_turn = a
            self._open(p)
        elif ev == R.EV_END:
            self._close()
            self.cur = self.end
            self.end.game_turn = self.game_turn
        elif (
            ev in _OWN_TURN_EVENTS
            and self.cur.player >= 0
            and p != self.cur.player
            and self.cur is not self.end
        ):
            if self.cur.player != self.first or p != 1 - self.first:
                raise ReplayError(f"player {p} acts out of turn in game turn {self.game_turn}")
            self._open(p)
        self.cur.events.append(row)
        handler = getattr(self, f"_on_{_EVENT_NAMES.get(ev)}", None)
        if handler is None:
            raise ReplayError(
                f"trace event {ev} ({_EVENT_NAMES.get(ev, 'unknown')}) has no handler in "
                "manoeuvre_sim/manoeuvre/replay/reader.py: a new EV_* code needs one (and maybe a board change)"
            )
        handler(p, a, b, c, d)

    def _on_turn(self, p, a, b, c, d):  # EV_TURN
        pass

    def _on_draw(self, p, a, b, c, d):  # EV_DRAW
        self.note(p, "draw", card=a)
        self.hand[p] += 1
        self.deck_left[p] -= 1
        if self.deck_left[p] < 0:
            raise ReplayError(f"player {p} draws from an empty deck")
        if self.deck_left[p] == 0 and not self.reshuffled[p]:
            self.first_deck_done[p] = True
            self.note(p, "first_deck_done")

    def _on_discard(self, p, a, b, c, d):  # EV_DISCARD
        self.note(p, "discard", card=a)
        self._leaves_hand(p)

    def _on_move(self, p, a, b, c, d):  # EV_MOVE
        self.board.move(a, b, c)
        how = {1: "supply", 2: "forced_march", 3: "skirmish", 4: "banzai"}.get(d, "")
        self.note(p, "move", unit=a, fr=b, to=c, how=how)

    def _on_play(self, p, a, b, c, d):  # EV_PLAY
        army = self.info.armies[p]
        if b in (R.PURPOSE_LEADER_COMBAT, R.PURPOSE_LEADER_COMMAND) and c < 0:
            ld = _leader(army, a)
            self.pursuit_mod = (ld.pursuit_mod or 0) if ld is not None else 0
        if b not in PURPOSE_NAMES:
            raise ReplayError(f"unknown card purpose {b}")
        values = {"card": a, "purpose": PURPOSE_NAMES[b], "other": c}
        if b == R.PURPOSE_INITIATE:
            self.pursuit_mod = 0
            values.update(combat=COMBAT_NAMES.get(d, str(d)), target_sq=self.board.square[c])
            if d not in (D.CK_AMBUSH, D.CK_GRAND_BATTERY, D.CK_ROCKETS, D.CK_DEATH_WITH_HONOUR):
                ld = _leader(army, a)
                if ld is not None and ld.unit is not None:
                    # a Japanese leader starts an Assault by its unit (Distant Lands 9.1)
                    u = p * S.MAXU_SIDE + army.units.index(army.unit(ld.unit))
                else:
                    u = p * S.MAXU_SIDE + _card_unit(army, a)
                values.update(unit=u, unit_sq=self.board.square[u])
        self.note(p, "play", **values)
        self._leaves_hand(p)
        if b == R.PURPOSE_SKIRMISH:
            self.hand[p] += 1  # rule 9.2 Skirmish: the initiating Unit Card returns to the hand

    def _leaves_hand(self, p: int) -> None:
        self.hand[p] -= 1
        if self.hand[p] < 0:
            raise ReplayError(f"player {p} plays or discards a card from an empty hand")

    def _on_roll(self, p, a, b, c, d):  # EV_ROLL
        if a == R.ROLL_FIRST:
            self.note(-1, "first_roll", sides=d, roll_a=b, roll_b=c)
            return
        mod = self.pursuit_mod if a == R.ROLL_PURSUIT else 0
        dice, self.dice = self.dice, []
        if len(dice) != c or sum(dice) + mod != b:
            raise ReplayError(f"a roll of {c}d{d} totalling {b} has the dice {dice}")
        self.note(p, "roll", roll=ROLL_NAMES.get(a, str(a)), total=b, count=c, sides=d, mod=mod,
                  dice=tuple(dice))  # fmt: skip

    def _on_die(self, p, a, b, c, d):  # EV_DIE: one die of the EV_ROLL that follows
        self.dice.append(a)

    def _on_via(self, p, a, b, c, d):  # EV_VIA: the square the EV_MOVE that follows crosses
        pass

    def _on_phase(self, p, a, b, c, d):  # EV_PHASE: a phase begins or ends (JSONL only)
        self.phase = "" if b else PHASE_NAMES.get(a, str(a))

    def _on_decline(self, p, a, b, c, d):  # EV_DECLINE: an option not taken (JSONL only)
        pass

    def _on_combat(self, p, a, b, c, d):  # EV_COMBAT
        name = COMBAT_NAMES.get(a, str(a))
        self.note(p, "combat", combat=name, code=a, attack=b, defense=c, result=d)

    def _on_hit(self, p, a, b, c, d):  # EV_HIT
        self.board.set_step(a, b)
        self.note(p, "hit", unit=a, step=b, lost=self.board.eliminated[p])

    def _on_retreat(self, p, a, b, c, d):  # EV_RETREAT
        if c >= 0:
            self.board.move(a, b, c)
        self.note(p, "retreat", unit=a, fr=b, to=c)

    def _on_advance(self, p, a, b, c, d):  # EV_ADVANCE
        self.board.move(a, b, c)
        self.note(p, "advance", unit=a, fr=b, to=c)

    def _on_restore(self, p, a, b, c, d):  # EV_RESTORE
        if b:
            self.board.restore(a)
        self.note(p, "restore", unit=a, ok=bool(b))

    def _on_redoubt(self, p, a, b, c, d):  # EV_REDOUBT
        self.board.build_redoubt(a)
        self.note(p, "redoubt", sq=a)

    def _on_negate(self, p, a, b, c, d):  # EV_NEGATE
        self.note(p, "negate", card=a, guerrilla=b)

    def _on_reshuffle(self, p, a, b, c, d):  # EV_RESHUFFLE
        self.reshuffled[p] = True
        self.deck_left[p] = a
        self.note(p, "reshuffle", cards=a)

    def _on_setup(self, p, a, b, c, d):  # EV_SETUP
        self.board.place(a, b)
        self.note(p, "setup", unit=a, sq=b)

    def _on_end(self, p, a, b, c, d):  # EV_END
        self.winner_event = (a, b, c, d)

    def _on_first(self, p, a, b, c, d):  # EV_FIRST
        self.first = p
        self.note(-1, "first", side=p)

    def _on_map(self, p, a, b, c, d):  # EV_MAP
        rows = self.info.sections.get(a)
        if rows is None:
            raise ReplayError(f"map section {a} is not in the sections file")
        self.board.lay_section(rows, b, c)
        # player -1: drawn at random or fixed; else the first player laid it (rule 3)
        self.note(p, "map", section=a, turns=b, quarter=POSITIONS[c])

    def _on_edge(self, p, a, b, c, d):  # EV_EDGE
        self.board.turn(b)
        self.note(p, "edge", edge=D.EDGE_NAMES[a], turns=b)

    def _on_spy(self, p, a, b, c, d):  # EV_SPY
        self.note(p, "spy", card=a)
        self._leaves_hand(p)

    def _on_dig_in(self, p, a, b, c, d):  # EV_DIG_IN
        self.note(p, "dig_in")

    def _on_no_move(self, p, a, b, c, d):  # EV_NO_MOVE
        self.note(p, "no_move")

    def _on_pursuit(self, p, a, b, c, d):  # EV_PURSUIT
        self.note(p, "pursuit", unit=a, roll=b, hit=bool(c))

    def _on_withdraw(self, p, a, b, c, d):  # EV_WITHDRAW
        self.note(p, "withdraw", unit=a, ok=bool(b))

    def _on_committed(self, p, a, b, c, d):  # EV_COMMITTED (Distant Lands 8)
        self.note(p, "declare_committed", unit=a, card=b)

    def _on_support(self, p, a, b, c, d):  # EV_SUPPORT (rule 6.4)
        self.note(p, "support", unit=a, unit_sq=self.board.square[a], target=b, leader=c,
                  step=self.board.step[a])  # fmt: skip

    # --- the end ------------------------------------------------------------------------
    def finish(self) -> Replay:
        if self.winner_event is None:
            raise ReplayError("the trace has no end-of-game event (was it cut short?)")
        self._close()
        winner, victory, vp0, vp1 = self.winner_event
        info, board = self.info, self.board
        vp = (vp0, vp1)
        res = Result(
            winner=winner,
            victory=S.VICTORY_NAMES[victory],
            game_turns=self.game_turn,
            vp=vp,
            eliminated=(board.eliminated[0], board.eliminated[1]),
        )
        self.cur = end = self.end
        if res.victory == "attrition":
            loser = 1 - winner
            self.note(-1, "attrition", winner=winner, loser=loser, lost=board.eliminated[loser])
        else:
            res.turn_limit = not all(self.first_deck_done)
            if res.turn_limit:
                self.note(-1, "turn_limit", max_turns=info.config.max_turns)
            else:
                self.note(-1, "nightfall", game_turn=self.game_turn)
            red = [sum(board.step[u] == 1 for u in board.units(p)) for p in range(2)]
            elim = board.eliminated
            ranks = nightfall_ranks(*info.armies)  # rule 2.2, DL 2.2
            if vp0 != vp1:
                tb = 0
            elif elim[0] != elim[1]:
                tb = 1
            elif red[0] != red[1]:
                tb = 2
            elif ranks[0] != ranks[1]:
                tb = 3
            else:
                tb = 4
            res.tiebreak = tb
            for p in range(2):
                self.note(-1, "standing", side=p, squares=vp[p], eliminated=elim[1 - p],
                          reduced=red[p])  # fmt: skip
            self.note(-1, "result")
        end.board = board.copy()
        return Replay(info, self.setup, self.turns, end, res, board, tuple(self.hand))


def _leader(army: Army, c: int):
    """The Leader of card ``c`` (cards are packed unit cards first, then leaders), or None."""
    i = c - sum(len(u.cards) for u in army.units)
    return army.leaders[i] if 0 <= i < len(army.leaders) else None


def _card_unit(army: Army, c: int) -> int:
    """Index of the unit card ``c`` belongs to (cards are packed unit by unit)."""
    n = 0
    for i, u in enumerate(army.units):
        n += len(u.cards)
        if c < n:
            return i
    raise ReplayError(f"card {c} of {army.name} is not a unit card")


def build_replay(trace: np.ndarray, info: MatchInfo) -> Replay:
    """Turn a trace (``ndarray(int32, (n, 6))`` from ``play_traced``) into a Replay."""
    reader = _Reader(info)
    for row in np.asarray(trace).tolist():
        reader.event(tuple(row))
    return reader.finish()


def verify(replay: Replay, st: np.ndarray) -> None:
    """Raise :class:`ReplayError` unless the board rebuilt from the trace equals the engine's
    final state ``st``: terrain, every unit's square and step, redoubts, eliminations, and
    the result (winner, victory, control points)."""
    bd, problems = replay.board, []
    if replay.info.letters:
        terr = "".join(replay.info.letters[k] for k in st[S.TERR : S.TERR + 64])
        if terr != "".join(bd.terrain):
            problems.append(f"terrain: rebuilt {''.join(bd.terrain)}, engine {terr}")
    for u in range(S.NUNITS):
        es, eq = int(st[S.U_STEP + u]), int(st[S.U_SQ + u])
        if (bd.step[u], bd.square[u]) != (es, eq):
            problems.append(
                f"{unit_label(u)}: rebuilt step {bd.step[u]} on {bd.square[u]}, "
                f"engine step {es} on {eq}"
            )
    red = {sq for sq in range(64) if st[S.REDOUBT + sq]}
    if red != bd.redoubt:
        problems.append(f"redoubts: rebuilt {sorted(bd.redoubt)}, engine {sorted(red)}")
    if bd.eliminated != [int(st[S.ELIM]), int(st[S.ELIM + 1])]:
        problems.append(f"eliminations: rebuilt {bd.eliminated}, engine {st[S.ELIM : S.ELIM + 2]}")
    res = replay.result
    if res.winner != st[S.WINNER] or S.VICTORY_NAMES[st[S.VICTORY]] != res.victory:
        problems.append("result differs from the engine's")
    if res.game_turns != st[S.TURN]:
        problems.append(f"game turns: rebuilt {res.game_turns}, engine {st[S.TURN]}")
    if res.victory == "nightfall":
        if res.tiebreak != st[S.TIEBREAK] or res.turn_limit != bool(st[S.TURN_LIMIT_HIT]):
            problems.append("nightfall tie-break or turn limit differs from the engine's")
        if (bd.control(0), bd.control(1)) != res.vp:
            problems.append(f"control points: rebuilt board gives {bd.control(0)}-"
                            f"{bd.control(1)}, the trace says {res.vp[0]}-{res.vp[1]}")  # fmt: skip
    hands = [int(st[S.HAND_N]), int(st[S.HAND_N + 1])]
    if replay.hand is not None and list(replay.hand) != hands:
        problems.append(
            f"cards in hand: counted from the trace {list(replay.hand)}, engine {hands}"
        )
    if problems:
        raise ReplayError(
            f"replay of seed {replay.info.seed} game {replay.info.game} disagrees with the "
            "engine:\n  " + "\n  ".join(problems)
        )


def replay_game(
    army_a: str,
    army_b: str,
    *,
    seed: int = 1,
    game: int = 0,
    policies: tuple[str, str] | None = None,
    info: MatchInfo | None = None,
    check: bool = True,
) -> Replay:
    """Play game ``game`` of master ``seed`` with its trace and return the checked Replay.

    ``policies``: (army A's, army B's), None for ``simulate``'s defaults. ``info`` (from
    :func:`match_info`) saves reloading the data when replaying many games of one match-up,
    and carries the game options (set-up, rule options, sections, turn limit: its
    ``config``); its policies are used when ``policies`` is None. ``check`` also runs the
    engine's invariant checks during play."""
    from manoeuvre_sim.manoeuvre.runner import traced_game

    if info is None:
        info = match_info(army_a, army_b, seed=seed, game=game, policies=policies)
    else:
        pols = info.policies if policies is None else (policies[0], policies[1])
        info = replace(info, seed=seed, game=game, policies=pols)
    config = replace(info.config, seed=seed, policy_a=info.policies[0],
                     policy_b=info.policies[1])  # fmt: skip
    max_events = 200_000
    st, tr = traced_game(config, game, max_events=max_events, check=check)
    if len(tr) >= max_events:
        raise ReplayError(f"the game has more than {max_events} events; the trace is cut")
    rep = build_replay(tr, info)
    verify(rep, st)
    return rep
