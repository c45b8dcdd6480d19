"""Replays, the model: the static facts of a replayed game (:class:`MatchInfo`), the board
rebuilt event by event (:class:`Board`), and the replay itself (:class:`Replay` of
:class:`Section` s, each with its :class:`Line` s as data and its :class:`Move` s).

Squares are named like a chess board: files ``a``-``h`` left to right, ranks ``1``-``8``
bottom to top; army A (player 0) sets up on ranks 1-2, army B (player 1) on ranks 7-8
(engine square ``sq``: row ``sq // 8`` from the top, so rank ``8 - sq // 8``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from manoeuvre_sim.core.errors import ManoeuvreError, UsageError
from manoeuvre_sim.manoeuvre import RULES_VERSION
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.model import Army

FILES = "abcdefgh"
SIDES = "AB"
POSITIONS = ("NW", "NE", "SW", "SE")
_MOVE_EVENTS = {R.EV_MOVE: "move", R.EV_RETREAT: "retreat", R.EV_ADVANCE: "advance"}


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
    rules_version: str = RULES_VERSION
    # the runner.SimConfig the game is played with (every option that changes a game: the
    # turn limit, the rule 3 set-up and its fixed map, ...)
    config: object = None

    def side(self, p: int) -> str:
        """``'France (A)'``."""
        return f"{self.armies[p].name} ({SIDES[p]})"

    def unit_of(self, u: int):
        """Unit id -> ``(army index, the model's Unit)``."""
        p, i = divmod(u, S.MAXU_SIDE)
        return p, self.armies[p].units[i]

    def unit(self, u: int) -> str:
        """``'A3 Garde Imperial'``."""
        return f"{unit_label(u)} {self.unit_of(u)[1].name}"

    def unit_ids(self, p: int) -> list[int]:
        """The unit ids of army ``p``, in the order of its army file."""
        return [p * S.MAXU_SIDE + i for i in range(len(self.armies[p].units))]

    def terrain(self, letter: str) -> str:
        return self.terrain_names.get(letter, letter)


def match_info(
    army_a: str,
    army_b: str,
    *,
    seed: int = 1,
    game: int = 0,
    policies: tuple[str, str] | None = None,
    setup: str = "random",
    fixed_map: tuple[int, ...] | None = None,
    fixed_rot: tuple[int, ...] | None = None,
    options=None,
    relax: bool = False,
    config=None,
) -> MatchInfo:
    """Load and check everything a replay of this match-up needs (bad armies, policies,
    seeds or set-up options raise :class:`~manoeuvre_sim.core.errors.UsageError` /
    ``DataError``). ``policies``: (army A's, army B's); None: ``simulate``'s defaults.
    ``setup``, ``fixed_map``, ``fixed_rot``: the rule 3 set-up, as ``simulate`` takes it;
    ``options``: instead, every game option (``manoeuvre.adapter.RuleOptions``: the set-up, the rule
    options, ``--sections``, ``--max-turns``); ``relax``: as ``simulate --relax``.
    ``config``: the whole ``runner.SimConfig`` instead (e.g. read from a simulate
    output's manifest); the arguments before it are then ignored but ``game``."""
    from dataclasses import replace

    from manoeuvre_sim.manoeuvre.model import load_map_pool, load_terrain
    from manoeuvre_sim.manoeuvre.runner import SimConfig, prepare

    if game < 0:
        raise UsageError(f"--game: expected a game index >= 0, got {game}")
    if config is None:
        pols = {} if policies is None else {"policy_a": policies[0], "policy_b": policies[1]}
        if options is None:
            rules = {"setup": setup, "fixed_map": fixed_map, "fixed_rot": fixed_rot}
        else:
            rules = options.sim_fields()
        config = SimConfig(army_a, army_b, games=1, seed=seed, relax=relax, **pols, **rules)
    cfg = replace(config, games=1, first_game=0, threads=1)
    a, b, P = prepare(cfg)
    terrain = load_terrain()
    # the map sections the game may be laid from: the built-in ones and --sections'
    pool = load_map_pool(cfg.sections_file, terrain)
    return MatchInfo(
        armies=(a, b),
        sections={s.number: tuple(s.rows) for s in pool},
        terrain_names={k: t.name for k, t in terrain.terrain.items()},
        deck_size=(int(P.deck_size[0]), int(P.deck_size[1])),
        seed=cfg.seed,
        game=game,
        policies=(cfg.policy_a, cfg.policy_b),
        letters=P.letters,
        config=cfg,
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

    def turn(self, turns: int) -> None:
        """Turn the terrain ``turns`` quarter turns clockwise (rule 3: the second player's
        edge, as ``engine/setup.py`` turn_battlefield does it; before any unit is placed)."""
        if any(u >= 0 for u in self.occ):
            raise ReplayError("the battlefield turns after units were set up")
        for _ in range(turns % 4):
            # square (r, c) goes to (c, 7 - r)
            self.terrain = [self.terrain[(7 - sq % 8) * 8 + sq // 8] for sq in range(64)]

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
    def side_of(self, u: int) -> int:
        """The army (0 A, 1 B) unit ``u`` belongs to."""
        return u // S.MAXU_SIDE

    def units(self, p: int) -> list[int]:
        """p's units on the board."""
        return [u for u in range(p * S.MAXU_SIDE, (p + 1) * S.MAXU_SIDE) if self.step[u] > 0]

    def control(self, p: int) -> int:
        """Squares of the enemy half p controls (rule 2.2), with the engine's kernel."""
        from manoeuvre_sim.manoeuvre.engine.control import control_score

        owner = (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)
        return int(control_score(np.array(self.occ, dtype=np.int32), owner, p))


# ------------------------------------------------------------------------------------------
# the replay model
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One line of a section as data. ``kind``: the event's name (``"draw"``, ``"move"``,
    ``"play"``, ``"roll"``, ``"combat"``, ``"hit"``, ...) or, at the end of the game,
    ``"attrition"``, ``"turn_limit"``, ``"nightfall"``, ``"standing"``, ``"result"``;
    ``player``: who acts (-1: nobody); ``values``: what the line reports (unit ids,
    squares 0..63, card indices into the player's packed cards, code names)."""

    kind: str
    player: int = -1
    values: dict = field(default_factory=dict)


class Move(NamedTuple):
    """A unit's move, retreat or advance in a section: ``kind`` is ``"move"``,
    ``"retreat"`` or ``"advance"``; ``side`` the army (0 A, 1 B)."""

    kind: str
    side: int
    unit: int
    fr: int
    to: int


@dataclass
class Section:
    """The set-up, one player turn, or the end of the game: its lines and the board after
    it. ``player`` is -1 for the set-up and the end. ``events`` holds the raw trace rows."""

    title: str
    game_turn: int
    player: int
    lines: list[Line] = field(default_factory=list)
    events: list[tuple[int, ...]] = field(default_factory=list)
    board: Board | None = None

    @property
    def moves(self) -> list[Move]:
        """This section's moves, retreats and advances (a retreat with no square left out)."""
        return [
            Move(_MOVE_EVENTS[ev], a // S.MAXU_SIDE, a, b, c)
            for ev, _p, a, b, c, _d in self.events
            if ev in _MOVE_EVENTS and c >= 0
        ]


@dataclass
class Result:
    winner: int  # 0, 1, -1 draw
    victory: str  # "attrition" | "nightfall"
    game_turns: int
    vp: tuple[int, int]
    eliminated: tuple[int, int] = (0, 0)  # units each army lost
    tiebreak: int = -1  # nightfall: 0 squares, 1 eliminations, 2 reduced, 3 nation, 4 draw
    turn_limit: bool = False


@dataclass
class Replay:
    info: MatchInfo
    setup: Section
    turns: list[Section]
    end: Section
    result: Result
    board: Board
    hand: tuple[int, int] | None = None  # cards in each hand at the end, from the trace

    @property
    def game_turns(self) -> int:
        return self.result.game_turns


# ------------------------------------------------------------------------------------------
# choosing game turns
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
