"""Replays: one traced game as a readable transcript, with the board rebuilt from its events.

``replay_game`` plays game ``game`` of master ``seed`` (exactly the game
``manoeuvre-sim simulate --seed SEED`` records as row ``game``) with the event trace of
``engine/trace.py`` and turns the trace into a :class:`Replay`: one plain-English line per
event, grouped into the set-up, the player turns and the end of the game, and the board
after each of them.

The board is rebuilt from the trace alone (the map events, set-up, moves, retreats,
advances, hits, eliminations, restorations and redoubts) plus the static data the game was
played with (army files, map sections); nothing is read back from the engine's state. The
rebuilt board is then checked against the engine's final state (:func:`verify`), so a replay
is also a test of the trace.

Squares are named like a chess board: files ``a``-``h`` left to right, ranks ``1``-``8``
bottom to top; army A (player 0) sets up on ranks 1-2, army B (player 1) on ranks 7-8
(engine square ``sq``: row ``sq // 8`` from the top, so rank ``8 - sq // 8``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np

from manoeuvre_sim import RULES_VERSION
from manoeuvre_sim.engine import decisions as D
from manoeuvre_sim.engine import rules as R
from manoeuvre_sim.engine import state as S
from manoeuvre_sim.errors import ManoeuvreError, UsageError
from manoeuvre_sim.model import Army

FILES = "abcdefgh"
SIDES = "AB"
POSITIONS = ("NW", "NE", "SW", "SE")
BAND_TEXT = (
    "A < D: every attacking unit takes a hit",
    "A = D: no effect",
    "A > D: the defender chooses a hit or a retreat",
    "A >= 2D: the attacker chooses a hit or a retreat for the defender",
    "A >= 3D: the defender takes a hit and retreats",
    "A >= 4D: the defender is eliminated",
)
COMBAT_TEXT = {
    D.CK_ASSAULT: "Assault",
    D.CK_AMBUSH: "Ambush",
    D.CK_BOMBARD: "Bombardment",
    D.CK_VOLLEY: "Volley",
    D.CK_GRAND_BATTERY: "Grand Battery",
}
TIEBREAK_TEXT = (
    "decided by the squares controlled",
    "squares tied; decided by the enemy units eliminated",
    "squares and eliminations tied; decided by fewer units at reduced strength",
    "squares, eliminations and reduced units tied; decided by the nation listed first in rule 2.2",
    "a complete tie between identical nations: a draw",
)
# events that only the active player logs, in its own player turn: the first of them by
# the other player starts the other player's turn (discard, draw, Scout/Spy, movement)
_OWN_TURN_EVENTS = {
    R.EV_DISCARD, R.EV_RESHUFFLE, R.EV_DRAW, R.EV_SPY, R.EV_MOVE, R.EV_NO_MOVE, R.EV_DIG_IN,
}  # fmt: skip


# EV_* code -> its handler ``_Builder._on_<name>`` (EV_DIG_IN -> _on_dig_in)
_EVENT_NAMES = {v: k[3:].lower() for k, v in vars(R).items() if k.startswith("EV_")}


# what "plays CARD" says for each purpose of a card play (rules.PURPOSE_*); {u}: the unit
_PLAY_TEXT = {
    R.PURPOSE_DEFENSE: "plays {card} in defense of {u}",
    R.PURPOSE_ATTACK: "plays {card} for the attack of {u}",
    R.PURPOSE_LEADER_COMMAND: "plays {card} for its command value (supporting units may join)",
    R.PURPOSE_COMMITTED: "plays {card} for {u} (+2d6; a hit to it afterwards)",
    R.PURPOSE_SAPPERS: "plays {card}: the redoubt of {u} gives no defense",
    R.PURPOSE_SKIRMISH: "plays {card}: the combat is cancelled (Skirmish)",
    R.PURPOSE_WITHDRAW: "plays {card} to withdraw {u}",
    R.PURPOSE_RESTORE: "plays {card} to restore {u}",
    R.PURPOSE_REDOUBT: "plays {card} under {u}",
    R.PURPOSE_SUPPLY_MOVE: "plays {card} to move a second unit, {u}",
    R.PURPOSE_FORCED_MARCH: "plays {card} for {u}",
}


class ReplayError(ManoeuvreError):
    """The trace contradicts itself or the engine's final state (a bug in the engine or in
    the trace, never a user error)."""


def square_name(sq: int) -> str:
    """Engine square 0..63 -> ``'a8'`` .. ``'h1'`` (rank 1 is army A's home edge)."""
    return f"{FILES[sq % 8]}{8 - sq // 8}"


def unit_label(u: int) -> str:
    """Unit id -> its board label: ``A1`` .. ``A8`` for army A, ``B1`` .. ``B8`` for B."""
    return f"{SIDES[u // S.MAXU_SIDE]}{u % S.MAXU_SIDE + 1}"


# ------------------------------------------------------------------------------------------
# the static facts a replay needs
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchInfo:
    """The armies, data and settings of one replayed game."""

    armies: tuple[Army, Army]
    sections: dict[int, tuple[str, str, str, str]]  # section number -> its 4 rows
    terrain_names: dict[str, str]  # letter -> name
    deck_size: tuple[int, int]
    seed: int
    game: int
    policies: tuple[str, str]
    letters: str = ""  # the engine's terrain code order (codes index into it)
    max_turns: int = 200
    rules_version: str = RULES_VERSION

    def side(self, p: int) -> str:
        """``'France (A)'``."""
        return f"{self.armies[p].name} ({SIDES[p]})"

    def unit(self, u: int) -> str:
        """``'A3 Garde Imperial'``."""
        p, i = divmod(u, S.MAXU_SIDE)
        return f"{unit_label(u)} {self.armies[p].units[i].name}"

    def card(self, p: int, c: int) -> str:
        """Readable name of card ``c`` (index into the packed card table) of player p."""
        return _card_names(self.armies[p])[c]

    def terrain(self, letter: str) -> str:
        return self.terrain_names.get(letter, letter)


def _d6_range(n: int) -> str:
    """A d6 succeeds on 1..n: ``'1-4'``, ``'1'``."""
    return f"1-{n}" if n > 1 else "1"


def _unit_card_text(name: str, card) -> str:
    parts = []
    if card.attack:
        parts.append(f"attack {card.attack}")
    parts.append(f"defense {card.defense}")
    if card.bombard:
        parts.append(f"bombard {card.bombard} range {card.range}")
    if card.volley:
        parts.append(f"volley {card.volley}")
    if card.pursuit_max:
        parts.append(f"pursuit {_d6_range(card.pursuit_max)}")
    if card.withdraw_max:
        parts.append(f"withdraw {_d6_range(card.withdraw_max)}")
    if card.not_required_to_advance:
        parts.append("not required to advance")
    return f"{name} card ({', '.join(parts)})"


_CARD_CACHE: dict[int, tuple[Army, list[str]]] = {}


def _card_names(army: Army) -> list[str]:
    """Card names in the packed order (``engine/pack.py``): unit cards unit by unit, then the
    leaders, then the HQ cards copy by copy — also the ``card_no`` order of ``armies
    export``."""
    hit = _CARD_CACHE.get(id(army))
    if hit is not None and hit[0] is army:
        return hit[1]
    names = []
    for u in army.units:
        names += [_unit_card_text(u.name, c) for c in u.cards]
    for ld in army.leaders:
        combat = (
            str(ld.combat_attack)
            if ld.combat_attack == ld.combat_defense
            else f"{ld.combat_attack}/{ld.combat_defense}"
        )
        extra = f", Grand Battery {ld.grand_battery}" if ld.grand_battery else ""
        names.append(f"leader {ld.name} (command {ld.command}, combat {combat}{extra})")
    for h in army.hq:
        names += [f"HQ {h.printed_title}"] * h.count
    _CARD_CACHE[id(army)] = (army, names)
    return names


def match_info(
    army_a: str,
    army_b: str,
    *,
    seed: int = 1,
    game: int = 0,
    policies: tuple[str, str] | None = None,
) -> MatchInfo:
    """Load and check everything a replay of this match-up needs (bad armies, policies or
    seeds raise :class:`~manoeuvre_sim.errors.UsageError` / ``DataError``). ``policies``:
    (army A's, army B's); None: ``simulate``'s defaults."""
    from manoeuvre_sim.model import load_sections, load_terrain
    from manoeuvre_sim.runner import SimConfig, prepare

    if game < 0:
        raise UsageError(f"--game: expected a game index >= 0, got {game}")
    pols = {} if policies is None else {"policy_a": policies[0], "policy_b": policies[1]}
    cfg = SimConfig(army_a, army_b, games=1, seed=seed, **pols)
    a, b, P = prepare(cfg)
    terrain = load_terrain()
    return MatchInfo(
        armies=(a, b),
        sections={s.number: tuple(s.rows) for s in load_sections(terrain=terrain)},
        terrain_names={k: t.name for k, t in terrain.terrain.items()},
        deck_size=(int(P.deck_size[0]), int(P.deck_size[1])),
        seed=seed,
        game=game,
        policies=(cfg.policy_a, cfg.policy_b),
        letters=P.letters,
        max_turns=cfg.max_turns,
    )


# ------------------------------------------------------------------------------------------
# the board, rebuilt event by event
# ------------------------------------------------------------------------------------------
@dataclass
class Board:
    """Terrain letters, occupants, unit steps and redoubts; ``apply`` checks every change
    against what the board already holds."""

    terrain: list[str] = field(default_factory=lambda: ["?"] * 64)
    occ: list[int] = field(default_factory=lambda: [-1] * 64)
    square: list[int] = field(default_factory=lambda: [-1] * S.NUNITS)
    step: list[int] = field(default_factory=lambda: [0] * S.NUNITS)
    redoubt: set[int] = field(default_factory=set)
    eliminated: list[int] = field(default_factory=lambda: [0, 0])

    def copy(self) -> Board:
        return Board(
            list(self.terrain),
            list(self.occ),
            list(self.square),
            list(self.step),
            set(self.redoubt),
            list(self.eliminated),
        )

    # --- changes ------------------------------------------------------------------------
    def lay_section(self, rows: tuple[str, ...], rot: int, pos: int) -> None:
        """Map section ``rows`` turned ``rot`` quarter turns clockwise into quarter ``pos``
        (0 NW, 1 NE, 2 SW, 3 SE), as ``engine/setup.py`` build_map lays it."""
        r0, c0 = (pos // 2) * 4, (pos % 2) * 4
        for r in range(4):
            for c in range(4):
                sr, sc = r, c
                for _ in range(rot):
                    sr, sc = 3 - sc, sr
                self.terrain[(r0 + r) * 8 + c0 + c] = rows[sr][sc]

    def place(self, u: int, sq: int) -> None:
        if self.square[u] >= 0 or self.step[u] != 0:
            raise ReplayError(f"unit {unit_label(u)} set up twice")
        self._enter(u, sq)
        self.step[u] = 2

    def move(self, u: int, fr: int, to: int) -> None:
        if self.square[u] != fr or self.step[u] == 0:
            raise ReplayError(
                f"unit {unit_label(u)} moves from {square_name(fr)} but is at {self._where(u)}"
            )
        self.occ[fr] = -1
        self.redoubt.discard(fr)  # rule 9.2 Redoubt: removed when its unit leaves
        self.square[u] = -1
        self._enter(u, to)

    def set_step(self, u: int, step: int) -> None:
        if self.step[u] == 0:
            raise ReplayError(f"unit {unit_label(u)} takes a hit but is not on the board")
        if step == 0:
            sq = self.square[u]
            self.occ[sq] = -1
            self.redoubt.discard(sq)
            self.square[u] = -1
            self.eliminated[u // S.MAXU_SIDE] += 1
        self.step[u] = step

    def restore(self, u: int) -> None:
        if self.step[u] != 1:
            raise ReplayError(f"unit {unit_label(u)} restored but not at reduced strength")
        self.step[u] = 2

    def build_redoubt(self, sq: int) -> None:
        if self.occ[sq] < 0 or sq in self.redoubt:
            raise ReplayError(f"redoubt at {square_name(sq)}: no unit there, or one already")
        self.redoubt.add(sq)

    def _enter(self, u: int, sq: int) -> None:
        if not 0 <= sq < 64 or self.occ[sq] >= 0:
            raise ReplayError(f"unit {unit_label(u)} enters {sq}: off the board or occupied")
        self.occ[sq] = u
        self.square[u] = sq

    def _where(self, u: int) -> str:
        return square_name(self.square[u]) if self.square[u] >= 0 else "no square"

    # --- reading ------------------------------------------------------------------------
    def units(self, p: int) -> list[int]:
        """p's units on the board."""
        return [u for u in range(p * S.MAXU_SIDE, (p + 1) * S.MAXU_SIDE) if self.step[u] > 0]

    def control(self, p: int) -> int:
        """Squares of the enemy half p controls (rule 2.2), with the engine's kernel."""
        from manoeuvre_sim.engine.board import control_score

        owner = (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)
        return int(control_score(np.array(self.occ, dtype=np.int32), owner, p))

    def cell(self, sq: int) -> str:
        """``'H A3r#'``: terrain letter (``.`` for Clear), then the unit's label with ``r``
        if it is reduced and ``#`` on a redoubt."""
        t = self.terrain[sq]
        t = "." if t == "C" else t
        u = self.occ[sq]
        if u < 0:
            return t
        lab = unit_label(u) + ("r" if self.step[u] == 1 else "")
        return f"{t} {lab}{'#' if sq in self.redoubt else ''}"

    def ascii(self) -> str:
        """The board as text: 8 ranks top (8, army B's edge) to bottom (1, army A's)."""
        cw = max(6, max(len(self.cell(sq)) for sq in range(64)))
        head = "     " + "".join(f" {f:<{cw + 1}}" for f in FILES).rstrip()
        lines = [head]
        for row in range(8):
            cells = "".join(f" {self.cell(row * 8 + c):<{cw}}|" for c in range(8))
            lines.append(f"  {8 - row} |{cells} {8 - row}")
        lines.append(head)
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------
# the replay
# ------------------------------------------------------------------------------------------
@dataclass
class Section:
    """The set-up, one player turn, or the end of the game: its lines and the board after
    it. ``player`` is -1 for the set-up and the end."""

    title: str
    game_turn: int
    player: int
    lines: list[str] = field(default_factory=list)
    events: list[tuple[int, ...]] = field(default_factory=list)
    board: Board | None = None


@dataclass
class Result:
    winner: int  # 0, 1, -1 draw
    victory: str  # "attrition" | "nightfall"
    game_turns: int
    vp: tuple[int, int]
    eliminated: tuple[int, int] = (0, 0)  # units each army lost
    tiebreak: int = -1  # nightfall: index into TIEBREAK_TEXT
    turn_limit: bool = False


@dataclass
class Replay:
    info: MatchInfo
    setup: Section
    turns: list[Section]
    end: Section
    result: Result
    board: Board

    @property
    def game_turns(self) -> int:
        return self.result.game_turns

    def summary(self) -> str:
        return result_text(self.info, self.result)

    def text(self, turns: tuple[int, int] | None = None) -> str:
        return render_text(self, turns)


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def result_text(info: MatchInfo, res: Result) -> str:
    """One line: who won, how, when."""
    t = res.game_turns
    if res.victory == "attrition":
        loser = 1 - res.winner
        return (
            f"{info.side(res.winner)} wins by attrition in game turn {t}: "
            f"{info.armies[loser].name} lost {res.eliminated[loser]} units"
        )
    when = (
        f"at the turn limit of {info.max_turns} game turns"
        if res.turn_limit
        else f"at nightfall after game turn {t}"
    )
    who = "Draw" if res.winner < 0 else f"{info.side(res.winner)} wins"
    return (
        f"{who} {when}: squares controlled A {res.vp[0]}, B {res.vp[1]}; "
        f"{TIEBREAK_TEXT[res.tiebreak]}"
    )


class _Builder:
    """Walks the trace once: lines, sections, the board."""

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

    # --- sections -----------------------------------------------------------------------
    def _close(self) -> None:
        self.cur.board = self.board.copy()

    def _open(self, player: int) -> None:
        self._close()
        title = f"Game turn {self.game_turn}: {self.info.side(player)}"
        self.cur = Section(title, self.game_turn, player)
        self.turns.append(self.cur)

    def say(self, p: int, text: str) -> None:
        who = self.info.side(p) + ": " if p >= 0 else ""
        self.cur.lines.append(who + text)

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
                "manoeuvre_sim/replay.py: a new EV_* code needs one (and maybe a board change)"
            )
        handler(p, a, b, c, d)

    def _on_turn(self, p, a, b, c, d):  # EV_TURN
        pass

    def _on_draw(self, p, a, b, c, d):  # EV_DRAW
        self.say(p, f"draws {self.info.card(p, a)}")
        self.deck_left[p] -= 1
        if self.deck_left[p] < 0:
            raise ReplayError(f"player {p} draws from an empty deck")
        if self.deck_left[p] == 0 and not self.reshuffled[p]:
            self.first_deck_done[p] = True
            self.say(p, "has drawn the last card of its first deck (rule 2.3)")

    def _on_discard(self, p, a, b, c, d):  # EV_DISCARD
        self.say(p, f"discards {self.info.card(p, a)}")

    def _on_move(self, p, a, b, c, d):  # EV_MOVE
        how = {1: " with Supply", 2: " by Forced March", 3: " after the Skirmish"}.get(d, "")
        self.board.move(a, b, c)
        self.say(p, f"moves {self.info.unit(a)} {self._sq(b)} -> {self._sq(c, True)}{how}")

    def _on_play(self, p, a, b, c, d):  # EV_PLAY
        info = self.info
        card = info.card(p, a)
        if b in (R.PURPOSE_LEADER_COMBAT, R.PURPOSE_LEADER_COMMAND) and c < 0:
            ld = _leader(info.armies[p], a)
            self.pursuit_mod = (ld.pursuit_mod or 0) if ld is not None else 0
        if b == R.PURPOSE_INITIATE:
            self.pursuit_mod = 0
            t = c
            tgt = f"{info.unit(t)} at {self._sq(self.board.square[t])}"
            if d == D.CK_AMBUSH:
                self.say(p, f"plays {card} to ambush {tgt}")
            elif d == D.CK_GRAND_BATTERY:
                self.say(p, f"plays {card} for a Grand Battery at {tgt}")
            else:
                u = p * S.MAXU_SIDE + _card_unit(info.armies[p], a)
                verb = {D.CK_ASSAULT: "assaults", D.CK_BOMBARD: "bombards"}.get(d, "volleys at")
                self.say(
                    p,
                    f"{info.unit(u)} at {self._sq(self.board.square[u])} {verb} {tgt}, "
                    f"playing {card}",
                )
        elif b == R.PURPOSE_LEADER_COMBAT:
            if c >= 0:
                self.say(p, f"plays {card} for its combat value, defending {info.unit(c)}")
            else:
                self.say(p, f"plays {card} for its combat value")
        elif b == R.PURPOSE_GUERRILLA:
            self.say(p, f"plays {card} against {info.card(1 - p, c)}")
        elif b in _PLAY_TEXT:
            text = _PLAY_TEXT[b]
            self.say(p, text.format(card=card, u=info.unit(c) if "{u}" in text else ""))
        else:
            raise ReplayError(f"unknown card purpose {b}")

    def _on_roll(self, p, a, b, c, d):  # EV_ROLL
        if a == R.ROLL_FIRST:
            self.say(
                -1,
                f"First player roll (d{d}): {self.info.side(0)} {b}, {self.info.side(1)} {c}",
            )
            return
        what = {
            R.ROLL_ATTACK: "for the attack",
            R.ROLL_FIRE: "to fire",
            R.ROLL_PURSUIT: "for the pursuit",
            R.ROLL_RALLY: "to rally",
            R.ROLL_WITHDRAW: "to withdraw",
        }.get(a, f"(roll kind {a})")
        mod = self.pursuit_mod if a == R.ROLL_PURSUIT else 0
        total = f" ({b - mod} {mod:+d} for the leader)" if mod else ""
        self.say(p, f"rolls {c}d{d} {what}: {b}{total}")

    def _on_combat(self, p, a, b, c, d):  # EV_COMBAT
        name = COMBAT_TEXT.get(a, f"combat kind {a}")
        if a in (D.CK_ASSAULT, D.CK_AMBUSH):
            self.say(p, f"{name}: attack {b} against defense {c}: {BAND_TEXT[d]}")
        else:
            res = "one hit" if d else "no effect"
            self.say(p, f"{name}: {b} against defense {c}: {res}")

    def _on_hit(self, p, a, b, c, d):  # EV_HIT
        self.board.set_step(a, b)
        if b == 1:
            i = a % S.MAXU_SIDE
            red = self.info.armies[p].units[i].reduced
            self.say(p, f"{self.info.unit(a)} takes a hit: reduced to strength {red}")
        else:
            n = self.board.eliminated[p]
            self.say(p, f"{self.info.unit(a)} is eliminated ({n} of 5 lost)")

    def _on_retreat(self, p, a, b, c, d):  # EV_RETREAT
        if c < 0:
            self.say(p, f"{self.info.unit(a)} had no square to retreat to from {self._sq(b)}")
            return
        self.board.move(a, b, c)
        self.say(p, f"{self.info.unit(a)} retreats {self._sq(b)} -> {self._sq(c, True)}")

    def _on_advance(self, p, a, b, c, d):  # EV_ADVANCE
        self.board.move(a, b, c)
        self.say(p, f"{self.info.unit(a)} advances {self._sq(b)} -> {self._sq(c, True)}")

    def _on_restore(self, p, a, b, c, d):  # EV_RESTORE
        if b:
            self.board.restore(a)
            self.say(p, f"{self.info.unit(a)} is restored to full strength")
        else:
            self.say(p, f"the restoration of {self.info.unit(a)} fails")

    def _on_redoubt(self, p, a, b, c, d):  # EV_REDOUBT
        self.board.build_redoubt(a)
        self.say(p, f"builds a redoubt at {self._sq(a)} (+3 defense)")

    def _on_negate(self, p, a, b, c, d):  # EV_NEGATE
        self.say(p, f"cancels {self.info.card(1 - p, a)}; both cards are discarded")

    def _on_reshuffle(self, p, a, b, c, d):  # EV_RESHUFFLE
        self.reshuffled[p] = True
        self.deck_left[p] = a
        self.say(p, f"shuffles the {a} discarded cards into a new draw pile")

    def _on_setup(self, p, a, b, c, d):  # EV_SETUP
        self.board.place(a, b)
        self.say(p, f"sets up {self.info.unit(a)} at {self._sq(b, True)}")

    def _on_end(self, p, a, b, c, d):  # EV_END
        self.winner_event = (a, b, c, d)

    def _on_first(self, p, a, b, c, d):  # EV_FIRST
        self.first = p
        self.say(-1, f"{self.info.side(p)} is the first player")

    def _on_map(self, p, a, b, c, d):  # EV_MAP
        rows = self.info.sections.get(a)
        if rows is None:
            raise ReplayError(f"map section {a} is not in the sections file")
        self.board.lay_section(rows, b, c)
        turned = f", turned {b} quarter turn{'s' * (b != 1)} clockwise" if b else ""
        self.say(-1, f"Map: section {a} in the {POSITIONS[c]} quarter{turned}")

    def _on_spy(self, p, a, b, c, d):  # EV_SPY
        opp = self.info.armies[1 - p].name
        self.say(p, f"plays {self.info.card(p, a)}: looks at {opp}'s hand, then draws to 5")

    def _on_dig_in(self, p, a, b, c, d):  # EV_DIG_IN
        self.say(p, "digs in: no move, the whole hand discarded")

    def _on_no_move(self, p, a, b, c, d):  # EV_NO_MOVE
        self.say(p, "has no unit that can move")

    def _on_pursuit(self, p, a, b, c, d):  # EV_PURSUIT
        res = "a hit" if c else "no hit"
        self.say(p, f"pursuit by {self.info.unit(a)}: {b}, {res}")

    def _on_withdraw(self, p, a, b, c, d):  # EV_WITHDRAW
        if b:
            self.say(p, f"{self.info.unit(a)} withdraws")
        else:
            self.say(p, f"the withdrawal of {self.info.unit(a)} fails")

    def _sq(self, sq: int, terrain: bool = False) -> str:
        name = square_name(sq)
        if terrain:
            t = self.board.terrain[sq]
            if t != "C":
                name += f" ({self.info.terrain(t)})"
        return name

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
        end = self.end
        if res.victory == "attrition":
            loser = 1 - winner
            end.lines.append(
                f"{info.armies[loser].name} has lost {board.eliminated[loser]} units: "
                f"{info.side(winner)} wins by attrition (rule 2.1)"
            )
        else:
            res.turn_limit = not all(self.first_deck_done)
            if res.turn_limit:
                end.lines.append(
                    f"The game stops at the safety limit of {info.max_turns} game turns "
                    "(not both first decks were drawn); it is scored as at nightfall"
                )
            else:
                end.lines.append(
                    f"Nightfall: both players have drawn their first deck; the day ends "
                    f"after game turn {self.game_turn} (rule 2.3)"
                )
            red = [sum(board.step[u] == 1 for u in board.units(p)) for p in range(2)]
            elim = board.eliminated
            ranks = [a.tiebreak_rank for a in info.armies]
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
                end.lines.append(
                    f"{info.side(p)}: controls {_n(vp[p], 'square')} of the enemy half, has "
                    f"eliminated {_n(elim[1 - p], 'enemy unit')}, has "
                    f"{_n(red[p], 'reduced unit')}"
                )
            end.lines.append(result_text(info, res))
        end.board = board.copy()
        return Replay(info, self.setup, self.turns, end, res, board)


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
    b = _Builder(info)
    for row in np.asarray(trace).tolist():
        b.event(tuple(row))
    return b.finish()


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
    :func:`match_info`) saves reloading the data when replaying many games of one match-up;
    its policies are used when ``policies`` is None. ``check`` also runs the engine's
    invariant checks during play."""
    from manoeuvre_sim.engine.trace import play_traced

    if info is None:
        info = match_info(army_a, army_b, seed=seed, game=game, policies=policies)
    else:
        pols = info.policies if policies is None else (policies[0], policies[1])
        info = replace(info, seed=seed, game=game, policies=pols)
    policies = info.policies
    max_events = 200_000
    st, tr = play_traced(
        army_a, army_b, seed=seed, game=game, policies=policies, max_events=max_events,
        check=check,
    )  # fmt: skip
    if len(tr) >= max_events:
        raise ReplayError(f"the game has more than {max_events} events; the trace is cut")
    rep = build_replay(tr, info)
    verify(rep, st)
    return rep


# ------------------------------------------------------------------------------------------
# text
# ------------------------------------------------------------------------------------------
def parse_turns(text: str | None) -> tuple[int, int] | None:
    """``'3:7'``, ``'5'``, ``'3:'`` or ``':7'`` -> (first, last) game turn (last may be a
    large number); None -> None. Raises UsageError naming ``--turns``."""
    if text is None:
        return None
    m = re.fullmatch(r"\s*(\d*)\s*(:?)\s*(\d*)\s*", text)
    if not m or not (m.group(1) or m.group(3)) or (not m.group(2) and not m.group(1)):
        raise UsageError(
            f"--turns: expected FROM:TO game turns (e.g. 3:7, 5, 3: or :7), got {text!r}"
        )
    lo = int(m.group(1)) if m.group(1) else 1
    hi = int(m.group(3)) if m.group(3) else (lo if not m.group(2) else 10**9)
    if lo < 1 or hi < lo:
        raise UsageError(f"--turns: expected 1 <= FROM <= TO, got {text!r}")
    return lo, hi


def check_turns(replay: Replay, turns: tuple[int, int] | None) -> None:
    if turns is not None and turns[0] > replay.game_turns:
        raise UsageError(
            f"--turns: the game has {replay.game_turns} game turns; expected FROM in "
            f"1..{replay.game_turns}, got {turns[0]}"
        )


def selected(replay: Replay, turns: tuple[int, int] | None) -> list[Section]:
    """The player turns within game turns ``turns`` (all when None)."""
    if turns is None:
        return list(replay.turns)
    return [s for s in replay.turns if turns[0] <= s.game_turn <= turns[1]]


def legend(info: MatchInfo) -> list[str]:
    lines = ["Units (label, army, unit, type, full/reduced strength):"]
    for p, army in enumerate(info.armies):
        for i, u in enumerate(army.units):
            lab = unit_label(p * S.MAXU_SIDE + i)
            lines.append(f"  {lab:<4}{army.name}: {u.name}, {u.type} {u.full}/{u.reduced}")
    terr = ", ".join(f"{'.' if k == 'C' else k} {v}" for k, v in sorted(info.terrain_names.items()))
    lines += [
        f"Terrain: {terr}",
        "Board: files a-h, ranks 1-8; army A sets up on ranks 1-2 (bottom), army B on "
        "ranks 7-8 (top).",
        "A3 = unit 3 of army A at full strength, A3r at reduced strength, # on a redoubt.",
    ]
    return lines


def header(replay: Replay) -> list[str]:
    info = replay.info
    return [
        f"Manoeuvre replay: {info.side(0)} vs {info.side(1)}",
        f"seed {info.seed}, game {info.game}, rules {info.rules_version}; players: "
        f"A {info.policies[0]}, B {info.policies[1]}",
        f"Result: {replay.summary()}",
    ]


def render_text(replay: Replay, turns: tuple[int, int] | None = None) -> str:
    """The transcript: header, legend, set-up (when the range starts at turn 1), each
    selected player turn with the board after it, the end (when the range reaches it)."""
    check_turns(replay, turns)
    out = header(replay) + [""] + legend(replay.info)
    blocks = []
    if turns is None or turns[0] <= 1:
        blocks.append(replay.setup)
    blocks += selected(replay, turns)
    if turns is None or turns[1] >= replay.game_turns:
        blocks.append(replay.end)
    for sec in blocks:
        out += ["", f"== {sec.title} ==", *sec.lines]
        if sec is not replay.end:
            out += ["", sec.board.ascii()]
    return "\n".join(out) + "\n"


def transcript(
    army_a: str,
    army_b: str,
    *,
    seed: int,
    game: int = 0,
    policies: tuple[str, str] | None = None,
) -> str:
    """The whole checked transcript of one game as text (what the golden files hold)."""
    return render_text(replay_game(army_a, army_b, seed=seed, game=game, policies=policies))
