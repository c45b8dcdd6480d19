"""The why study's games that show the gap (studies/why_games.py): the choice rule on a
tiny known set of games, and the marked decision on value rows whose largest swing is
known."""

from __future__ import annotations

import pandas as pd

from manoeuvre_sim.studies.why_games import choose, chosen_tables, mark


def games(rows):
    """Rows (sample, seating, game, x, game_turns) as full_frame writes them."""
    df = pd.DataFrame(rows, columns=["sample", "seating", "game", "x", "game_turns"])
    df["winner"] = [
        "a" if (x == 1) == (s == 0) else "b" for x, s in zip(df.x, df.seating, strict=True)
    ]
    df.loc[df.x == 0.5, "winner"] = "draw"
    return df.assign(seed=7, pairing=3, label="s0-f")


KNOWN = games([
    (0, 0, 0, 1.0, 10),  # X's wins: 10, 14, 20, 12 turns; median 13 -> 12 and 14 tie at 1:
    (0, 0, 1, 1.0, 14),  #   the earliest, (0, 0, 1), 14 turns
    (0, 1, 2, 1.0, 20),
    (1, 0, 3, 1.0, 12),
    (1, 1, 4, 0.0, 9),   # X's losses: 9, 16, 11; median 11 -> game 6
    (0, 1, 5, 0.0, 16),
    (1, 1, 6, 0.0, 11),
    (1, 0, 7, 0.5, 18),  # a draw: never chosen
])  # fmt: skip


def picked(g, observed):
    g = g.reset_index(drop=True)  # choose's index: a row's position
    return {c["role"]: None if c["index"] is None else int(g.loc[c["index"], "game"])
            for c in choose(g, observed)}  # fmt: skip


def test_the_typical_games_are_nearest_the_median_and_the_upset_the_weaker_sides_shortest_win():
    # X stronger: the upset is Y's shortest win (X's loss of 9 turns), the typical loss left out
    assert picked(KNOWN, 0.6) == {"typical win": 1, "typical loss": 6, "upset": 4}
    # X weaker: the upset is X's shortest win, 10 turns
    assert picked(KNOWN, 0.4) == {"typical win": 1, "typical loss": 6, "upset": 0}
    # the rule depends on the games alone, not their order
    assert picked(KNOWN.iloc[::-1], 0.6) == picked(KNOWN, 0.6)


def test_a_kind_with_no_game_is_missing_and_the_upset_never_repeats_the_typical_game():
    only_wins = games([(0, 0, 0, 1.0, 10), (0, 1, 1, 1.0, 12)])
    assert picked(only_wins, 1.0) == {"typical win": 0, "typical loss": None, "upset": None}
    one_loss = games([(0, 0, 0, 1.0, 10), (0, 1, 1, 0.0, 12)])  # the one loss is typical
    assert picked(one_loss, 0.5)["upset"] is None
    table, values, model = chosen_tables(only_wins, 1.0, ("X", "Y"))
    assert list(table["missing"]) == [False, True, True] and model == "" and values.empty


def rows(values_a, movers):
    return [{"decision": k + 1, "event": 10 * (k + 1), "turn": k // 2 + 1, "mover": m,
             "value_a": v, "value_b": 1 - v} for k, (v, m) in enumerate(zip(values_a, movers, strict=True))]  # fmt: skip


def test_the_marked_decision_is_the_movers_largest_swing_the_last_one_not_a_candidate():
    # a's value: .5 -> .55 (a moved: +.05) -> .2 (b moved: b's view .45 -> .8, +.35)
    # -> .3 (a: +.1) -> .32 (b: -.02); the last decision (a's) has no value after it: its
    # effect is the result
    hit = mark(rows([0.5, 0.55, 0.2, 0.3, 0.32], "ababa"))
    assert hit["decision"] == 2 and hit["mover"] == "b" and hit["event"] == 20
    assert abs(hit["swing"] - 0.35) < 1e-12 and abs(hit["before"] - 0.45) < 1e-12
    # a fall counts as much as a rise: a's .9 -> .3 (-.6) beats a's later +.05
    assert mark(rows([0.9, 0.3, 0.35, 0.4], "abab"))["decision"] == 1
    # ties: the earliest
    assert mark(rows([0.5, 0.6, 0.5, 0.6], "abab"))["decision"] == 1
    assert mark(rows([0.5], "a")) is None


def test_the_chosen_games_carry_their_seeds_seats_and_marked_decision():
    seen = []

    def value(pairing, game, options):
        seen.append((pairing, game))
        return "m", rows([0.5, 0.9, 0.8], "aba")

    table, values, model = chosen_tables(KNOWN, 0.6, ("X", "Y"), value, lambda s: f"p{s}")
    first = table.iloc[0]
    assert (first.role, first.game, first.seed, first.army_a, first.winner) == (
        "typical win",
        1,
        7,
        "X",
        "X",
    )
    assert first.decision == 1 and first.mover == "X"  # seat a is X in seating 0
    upset = table.iloc[2]
    assert (upset.army_a, upset.army_b, upset.winner, upset.mover) == ("Y", "X", "Y", "Y")
    assert seen == [("p0", 1), ("p1", 6), ("p1", 4)] and model == "m" and len(values) == 9


def test_the_summary_names_each_games_seed_and_marked_decision():
    from manoeuvre_sim.studies.why_games import summary_lines

    table, _, model = chosen_tables(KNOWN, 0.6, ("X", "Y"), lambda p, g, o: (
        "m", rows([0.5, 0.9, 0.8], "aba")), lambda s: s)  # fmt: skip
    lines = summary_lines(table, model)
    assert lines[0].endswith("value: m):") and len(lines) == 4
    assert (
        "game 1 (seed 7)" in lines[1]
        and "swing at decision 1 (event 10, turn 1, X): 50 -> 90 %" in lines[1]
    )
