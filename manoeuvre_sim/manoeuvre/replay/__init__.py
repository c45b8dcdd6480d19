"""Replays: one traced game read back into a model (:mod:`.reader`, :mod:`.model`) and
rendered as plain English with ASCII boards (:mod:`.text`).

The public reader API — what ``manoeuvre-sim replay``, the text rendering and
``analyses/manoeuvre/replay_pdf.py`` use; nothing outside this package needs the engine's codes:

- :func:`match_info` loads the armies, map sections and settings of one match-up;
  :func:`replay_game` plays game ``game`` of master ``seed`` (exactly the game
  ``manoeuvre-sim simulate --seed SEED`` records as row ``game``) with the event trace of
  ``engine/trace.py``, reads it (:func:`build_replay`) and checks the rebuilt board against
  the engine's final state (:func:`verify`, raising :class:`ReplayError`). The game is
  played from ``MatchInfo.config`` (a ``runner.SimConfig``: every option that changes a
  game) by ``runner.traced_game``, as ``simulate`` plays it.
- :class:`Replay`: ``info`` (:class:`MatchInfo`: armies, terrain names, seed, game,
  policies; ``side(p)``, ``unit(u)``, ``unit_of(u) -> (army, Unit)``), ``setup``, ``turns``
  and ``end`` (:class:`Section`), ``result`` (:class:`Result`) and the final ``board``.
- :class:`Section`: ``title``, ``game_turn``, ``player`` (-1 for the set-up and the end),
  ``lines`` (:class:`Line`: a ``kind`` such as ``"move"``, the acting ``player`` and the
  ``values`` the line reports — unit ids, squares 0..63, card indices, codes by name),
  ``moves`` (:class:`Move`: the section's moves, retreats and advances), ``board``
  (:class:`Board`: ``terrain`` letters, ``occ``, ``square``, ``step``, ``redoubt``,
  ``eliminated`` after it) and ``events`` (the raw trace rows).
- :mod:`.source`: ``config_from_file`` reads the configuration of game N of a simulate
  output from its manifest and row (``replay --from``), ``check_record`` checks a replay
  against that row (winner, victory, game turns, control points).
- :func:`parse_turns`, :func:`check_turns` and :func:`selected` pick the player turns of a
  ``--turns FROM:TO`` range; :func:`square_name` and :func:`unit_label` name squares
  (``'e4'``) and units (``'A3'``).

The text side: :func:`render_text` (the transcript), :func:`section_lines` (one section's
lines in English), :func:`board_ascii`, :func:`header`, :func:`legend`, :func:`summary`,
:func:`transcript`.
"""

from manoeuvre_sim.manoeuvre.replay.model import (
    FILES,
    SIDES,
    Board,
    Line,
    MatchInfo,
    Move,
    Replay,
    ReplayError,
    Result,
    Section,
    check_turns,
    match_info,
    parse_turns,
    selected,
    square_name,
    unit_label,
)
from manoeuvre_sim.manoeuvre.replay.reader import build_replay, replay_game, verify
from manoeuvre_sim.manoeuvre.replay.text import (
    board_ascii,
    header,
    legend,
    render_text,
    result_text,
    section_lines,
    summary,
    transcript,
)

__all__ = [
    "FILES", "SIDES", "Board", "Line", "MatchInfo", "Move", "Replay", "ReplayError", "Result",
    "Section", "board_ascii", "build_replay", "check_turns", "header", "legend", "match_info",
    "parse_turns", "render_text", "replay_game", "result_text", "section_lines", "selected",
    "square_name", "summary", "transcript", "unit_label", "verify",
]  # fmt: skip
