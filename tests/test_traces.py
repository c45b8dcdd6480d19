"""The JSONL traces of both games (issue 30, docs/traces.md): a reader with only ``json``
(``manoeuvre_sim/trace_reader.py``) rebuilds each game's final position from the trace alone,
from an empty board, equal to the engine's final state; over every player and every rule
option of each game, a few seeds each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from manoeuvre_sim import trace_reader
from manoeuvre_sim.trace_reader import TraceError, read_trace, rebuild

FIXTURES = Path(__file__).parent / "fixtures" / "distant_lands"

# --- Manoeuvre -----------------------------------------------------------------------------
# every player, every rule option and set-up, the Distant Lands combats (rockets: Sweden;
# Death With Honour, Banzai Charge: Japan; Committed attacks, Maharaja: India)
MANOEUVRE_CASES = [
    ("France", "Russia", ("random", "simple"), {}),
    ("Austria", "Prussia", ("attritional", "territorial"), {"setup": "rules"}),
    ("Spain", "Great Britain", ("balanced", "tuned"), {"tournament_hand": True}),
    ("United States", "Ottoman Empire", ("tuned", "random"), {"advance_to_contact": True}),
    ("Russia", "France", ("random", "balanced"), {"digging_in": True, "max_turns": 12}),
    ("Prussia", "Spain", ("simple", "attritional"), {"dl_forced_march": True}),
    (str(FIXTURES / "sweden.toml"), str(FIXTURES / "china.toml"), ("random", "balanced"), {}),
    (str(FIXTURES / "japan.toml"), str(FIXTURES / "india.toml"), ("random", "random"), {}),
    ("France", "Austria", ("search:4:tuned", "tuned"), {}),
]
MANOEUVRE_SEEDS = {"search:4:tuned": 1}  # the search player is slow: one game


def manoeuvre_trace(army_a, army_b, policies, options, seed, game):
    """``(engine state, JSONL text)`` of one game."""
    from manoeuvre_sim.replay import build_replay, match_info
    from manoeuvre_sim.replay.jsonl import jsonl
    from manoeuvre_sim.runner import SimConfig, traced_game

    config = SimConfig(army_a, army_b, games=1, seed=seed, policy_a=policies[0],
                       policy_b=policies[1], relax=True, **options)  # fmt: skip
    info = match_info(army_a, army_b, game=game, config=config)
    st, tr = traced_game(info.config, game)
    return st, jsonl(build_replay(tr, info))


def check_manoeuvre(st, text):
    from manoeuvre_sim.engine import state as S
    from manoeuvre_sim.replay import square_name

    header, events = read_trace(text.splitlines())
    final = rebuild(header, events)
    for u, got in final["units"].items():
        sq = int(st[S.U_SQ + u])
        assert got["step"] == st[S.U_STEP + u], u
        assert got["square"] == (square_name(sq) if sq >= 0 else None), u
    on_board = [u for u in range(S.NUNITS) if st[S.U_STEP + u] > 0]
    assert all(u in final["units"] for u in on_board)
    assert final["redoubts"] == sorted(square_name(q) for q in range(64) if st[S.REDOUBT + q])
    assert final["eliminated"] == st[S.ELIM : S.ELIM + 2].tolist()
    return header, events


@pytest.mark.parametrize("case", MANOEUVRE_CASES, ids=lambda c: f"{c[2][0]}-{c[2][1]}")
def test_manoeuvre_rebuilt_from_the_trace_alone(case):
    army_a, army_b, policies, options = case
    kinds = set()
    for seed in range(MANOEUVRE_SEEDS.get(policies[0], 3)):
        st, text = manoeuvre_trace(army_a, army_b, policies, options, seed + 1, seed)
        header, events = check_manoeuvre(st, text)
        assert header["schema"] == trace_reader.SCHEMA and header["game"] == "manoeuvre"
        assert header["players"] == {"a": policies[0], "b": policies[1]}
        assert {k: header["options"][k] for k in options} == options
        kinds |= {e["kind"] for e in events}
        rolls = [e for e in events if e["kind"] == "roll"]
        assert all(len(e["dice"]) == e["count"] for e in rolls)
        moves = [e for e in events if e["kind"] == "move"]
        assert all(len(e["path"]) >= 2 for e in moves)
    assert {"setup", "turn", "phase", "move", "end"} <= kinds


def test_manoeuvre_trace_records_dice_paths_phases_and_declines():
    """The new detail over a few games: every combat's dice, a cavalry move's path through
    its middle square, each phase begun and ended in rule 4's order, options declined."""
    kinds, paths, declined, phases = set(), [], set(), []
    for seed in range(4):
        st, text = manoeuvre_trace("France", "Russia", ("random", "random"), {}, seed, seed)
        _, events = check_manoeuvre(st, text)
        kinds |= {e["kind"] for e in events}
        paths += [e["path"] for e in events if e["kind"] == "move" and len(e["path"]) == 3]
        declined |= {e["decision"] for e in events if e["kind"] == "decline"}
        phases += [(e["player"], e["phase"], e["at"]) for e in events if e["kind"] == "phase"]
    assert paths, "no cavalry moved two squares"
    assert {"restore", "combat", "advance"} & declined
    order = ["discard", "draw", "movement", "combat", "restoration"]
    # each player turn: the phases in order, each begun then ended
    for i in range(0, 40, 10):
        turn = phases[i : i + 10]
        assert [ph for _, ph, _ in turn] == [ph for ph in order for _ in (0, 1)]
        assert [at for _, _, at in turn] == ["begin", "end"] * 5
        assert len({p for p, _, _ in turn}) == 1


def test_the_reader_refuses_another_schema_and_a_contradiction():
    st, text = manoeuvre_trace("France", "Russia", ("simple", "simple"), {}, 2, 0)
    lines = text.splitlines()
    head = json.loads(lines[0])
    with pytest.raises(TraceError, match="schema"):
        read_trace([json.dumps(head | {"schema": 99}), *lines[1:]])
    header, events = read_trace(lines)
    move = next(e for e in events if e["kind"] == "move")
    move["from"] = "a1" if move["from"] != "a1" else "a2"
    with pytest.raises(TraceError):
        rebuild(header, events)


def test_manoeuvre_replay_format_jsonl_writes_the_trace(tmp_path, capsys):
    from manoeuvre_sim.cli.main import main

    out = tmp_path / "game.jsonl"
    args = ["replay", "--army-a", "France", "--army-b", "Russia", "--seed", "3", "--game", "1"]
    try:
        main([*args, "--format", "jsonl", "--out", str(out)])
    except SystemExit as e:
        assert e.code in (0, None)
    header, events = read_trace(out.read_text().splitlines())
    assert (header["seed"], header["game_index"], header["armies"]) == (3, 1, ["France", "Russia"])
    st, text = manoeuvre_trace("France", "Russia", ("tuned", "tuned"), {}, 3, 1)
    assert out.read_text().splitlines()[1:] == text.splitlines()[1:]
    check_manoeuvre(st, out.read_text())
