"""The JSONL traces of both games (issue 30, docs/traces.md): a reader with only ``json``
(``manoeuvre_sim/core/trace_reader.py``) rebuilds each game's final position from the trace alone,
from an empty board, equal to the engine's final state; over every player and every rule
option of each game, a few seeds each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from manoeuvre_sim.core import trace_reader
from manoeuvre_sim.core.trace_reader import TraceError, read_trace, rebuild

FIXTURES = Path(__file__).parents[1] / "fixtures" / "distant_lands"

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
    (
        "Austria",
        "Russia",
        ("tuned", "simple"),
        {"fixed_map": (5, 9, 12, 18), "fixed_rot": (1, 0, 3, 2)},
    ),
    (
        "Spain",
        "Prussia",
        ("balanced", "random"),
        {"sections_file": str(FIXTURES / "sections.toml"), "fixed_map": (25, 9, 30, 18)},
    ),
]
MANOEUVRE_SEEDS = {"search:4:tuned": 1}  # the search player is slow: one game


def manoeuvre_trace(army_a, army_b, policies, options, seed, game):
    """``(engine state, JSONL text)`` of one game."""
    from manoeuvre_sim.manoeuvre.replay import build_replay, match_info
    from manoeuvre_sim.manoeuvre.replay.jsonl import jsonl
    from manoeuvre_sim.manoeuvre.runner import SimConfig, traced_game

    config = SimConfig(army_a, army_b, games=1, seed=seed, policy_a=policies[0],
                       policy_b=policies[1], relax=True, **options)  # fmt: skip
    info = match_info(army_a, army_b, game=game, config=config)
    st, tr = traced_game(info.config, game)
    return st, jsonl(build_replay(tr, info))


def check_manoeuvre(st, text):
    from manoeuvre_sim.manoeuvre.engine import state as S
    from manoeuvre_sim.manoeuvre.replay import square_name

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
        assert {k: header["options"][k] for k in options} == json.loads(json.dumps(options))
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


def test_a_trace_is_rebuilt_by_its_games_hook(monkeypatch):
    """The reader knows no game: it asks the game the header names for its
    ``rebuild_trace`` (an unknown game, or one without the hook, is a TraceError)."""
    from manoeuvre_sim.core import games as G
    from tests.studies import coin_game

    with pytest.raises(TraceError, match="unknown game 'chess'"):
        rebuild({"game": "chess"}, [])
    monkeypatch.setitem(G.GAMES, "coin", (coin_game.__name__, coin_game.TITLE))
    with pytest.raises(TraceError, match="game 'coin': its traces are not rebuilt"):
        rebuild({"game": "coin"}, [])
    monkeypatch.setattr(coin_game, "rebuild_trace", lambda h, ev: {"flips": len(ev)},
                        raising=False)  # fmt: skip
    assert rebuild({"game": "coin"}, [{}, {}]) == {"flips": 2}


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


# --- Maneuver ------------------------------------------------------------------------------
# every player, every border line and every option (rule [3] first player, [12] turns,
# [13] 2-4, H6, H11)
HEX_CASES = [
    ("random", "random", {}),
    ("capital", "attrition", {"border": "large_blue", "step_losses": True}),
    ("attrition", "capital", {"border": "large_red", "step_replacements": True}),
    ("capital", "random", {"quality_blue": "back", "quality_red": "3", "first": "red"}),
    ("random", "capital", {"quality_blue": "units:1,4", "captured_capital_zoc": True}),
    ("capital", "capital", {"retreat_apart": True, "first": "blue", "turns": 6}),
    ("search:8", "capital", {"step_losses": True, "step_replacements": True}),
    ("capital", "search:4:capital:all", {"border": "large_blue"}),
]


def hex_trace(blue, red, options, seed, game):
    """``(engine state, JSONL text)`` of one game of Maneuver."""
    from manoeuvre_sim.hexgame import batch
    from manoeuvre_sim.hexgame.jsonl import jsonl
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import HexOptions
    from manoeuvre_sim.hexgame.scenario import load_scenario, pack

    opts = HexOptions(**options)
    sc = load_scenario()
    packed = pack(sc, opts.border)
    pol, params = policy_arrays(blue, red)
    st, tr = batch.play_one(seed, game, packed, opts.array(), pol, params)
    return st, jsonl(tr, packed, sc, opts, seed, game, (blue, red))


def check_hex(st, text):
    from manoeuvre_sim.hexgame import state as S
    from manoeuvre_sim.hexgame.grid import label

    header, events = read_trace(text.splitlines())
    final = rebuild(header, events)
    columns = header["map"]["columns"]
    assert sorted(final["units"]) == [u for u in range(S.NU) if st[S.POS + u] != S.ABSENT]
    for u, got in final["units"].items():
        h = int(st[S.POS + u])
        assert got["hex"] == (label(h % columns, h // columns) if h >= 0 else None), u
        assert got["dead"] == (h == S.DEAD), u
        assert got["reduced"] == (st[S.STEP + u] == 1), u
    assert final["captured"] == [bool(st[S.CAP_CAPTURED]), bool(st[S.CAP_CAPTURED + 1])]
    return header, events


@pytest.mark.parametrize("case", HEX_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_maneuver_rebuilt_from_the_trace_alone(case):
    blue, red, options = case
    for seed in range(2 if "search" in blue + red else 4):
        st, text = hex_trace(blue, red, options, seed + 1, seed)
        header, events = check_hex(st, text)
        assert header["schema"] == trace_reader.SCHEMA and header["game"] == "hex"
        assert {k: header["options"][k] for k in options} == options
        assert header["players"] == {"a": blue, "b": red}
        results = [e for e in events if e["kind"] == "result"]
        for r in results:  # rule [8]: each side's d6 added to its strength
            assert 1 <= r["attack_die"] <= 6 and 1 <= r["defence_die"] <= 6
        assert events[-1]["kind"] == "end"


def test_maneuver_trace_records_dice_paths_supply_phases_and_declines():
    kinds, paths, declined, supply = set(), [], set(), []
    captured = False
    for seed in range(6):
        st, text = hex_trace("random", "random", {"step_replacements": True}, seed, seed)
        _, events = check_hex(st, text)
        kinds |= {e["kind"] for e in events}
        paths += [e["path"] for e in events if e["kind"] == "move" and len(e["path"]) > 2]
        declined |= {e["decision"] for e in events if e["kind"] == "decline"}
        captured |= any(e["kind"] == "capture" for e in events)
        # rule [9]: every unit involved in an attack has its supply before the result
        for i, e in enumerate(events):
            if e["kind"] == "result":
                j = i - 1
                while events[j]["kind"] == "supply":
                    supply.append(events[j])
                    j -= 1
                assert events[j]["kind"] in ("attacker", "defender_hex", "withdraw", "decline")
        phases = [(e["player"], e["phase"], e["at"]) for e in events if e["kind"] == "phase"]
        for i in range(0, len(phases) - 4, 4):  # each player turn: movement, then combat
            assert [(ph, at) for _, ph, at in phases[i : i + 4]] == [
                ("movement", "begin"),
                ("movement", "end"),
                ("combat", "begin"),
                ("combat", "end"),
            ]
    assert paths and supply and {False, True} >= {s["supplied"] for s in supply}
    assert {"withdraw", "advance", "attacker", "join", "replacement"} <= declined, declined
    assert "capture" in kinds or not captured


def test_hex_replay_format_jsonl(tmp_path, capsys):
    from manoeuvre_sim.cli.main import main

    out = tmp_path / "g.jsonl"
    try:
        main(["hex", "replay", "--seed", "2", "--game", "3", "--border", "large_red", "--out",
              str(out)])  # fmt: skip
    except SystemExit as e:
        assert e.code in (0, None)
    st, text = hex_trace("capital", "capital", {"border": "large_red"}, 2, 3)
    assert out.read_text() == text
    check_hex(st, text)
    for bad, needle in ((["--format", "jsonl", "--out", "g.txt"], ".jsonl"),
                        (["--format", "xml"], "--format")):  # fmt: skip
        with pytest.raises(SystemExit) as e:
            main(["hex", "replay", *bad])
        assert e.value.code == 2
        assert needle in capsys.readouterr().err
