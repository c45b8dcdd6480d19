"""One game of Maneuver played again from its seed, for a replay: what ``hex replay`` and
the workbench's replay page show, so that no caller drives the engine itself.

:func:`replay_one` plays game ``game`` of ``seed`` with the options of the ``hex`` commands
(``replay_steps.load_game``'s keywords), keeps its event trace, and, given the game's
record in a study, checks that the replay is that game (:class:`ReplayError` otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from manoeuvre_sim.core.errors import ManoeuvreError


class ReplayError(ManoeuvreError):
    """A replayed Maneuver game is not the game its study recorded."""


@dataclass
class HexReplay:
    """One game played again: its scenario, packed data and options, the two players, the
    event trace (``batch.play_one``'s rows), the text replay (``replay.GameReplay``) and
    the outcome as a study's record writes it (``winner``: ``a``, ``b``, ``draw`` or
    ``none``; ``victory``; ``game_turns``)."""

    scenario: Any
    packed: Any
    options: Any
    policies: tuple[str, str]
    seed: int
    game: int
    trace: Any
    text: Any
    winner: str
    victory: str
    game_turns: int


def replay_one(kw: dict, seed: int, game: int, record: dict | None = None,
               where: str | None = None) -> HexReplay:  # fmt: skip
    """Game ``game`` of ``seed`` played with the options ``kw`` (``load_game``'s keywords,
    popped); with ``record`` (its row in a study, named ``where`` in the message), a
    :class:`ReplayError` unless the replay's winner, victory and game turns are the
    record's."""
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.replay import build
    from manoeuvre_sim.hexgame.replay_steps import load_game

    sc, _, packed, options, pol, prm, policies = load_game(kw)
    st, trace = batch.play_one(seed, game, packed, options.array(), pol, prm)
    text = build(trace, packed, sc, options.describe(), seed, game, policies, st)
    winner = ("a", "b", "draw")[int(st[S.WINNER])] if int(st[S.WINNER]) >= 0 else "none"
    got = {"winner": winner, "victory": S.VICTORY_NAMES[int(st[S.VICTORY])],
           "game_turns": int(st[S.TURN])}  # fmt: skip
    if record is not None:
        diff = [f"{k}: replayed {v}, recorded {record[k]}" for k, v in got.items()
                if k in record and str(v) != str(record[k])]  # fmt: skip
        if diff:
            raise ReplayError(f"the replay of game {game} is not the game recorded in "
                              f"{where}: " + "; ".join(diff))  # fmt: skip
    return HexReplay(sc, packed, options, policies, seed, game, trace, text, **got)
