"""The balance tables' first-player figures (analyses/manoeuvre/tally.py) on synthetic records with a
known answer, against a count by hand over the records, or against statsmodels (issue 23
part 7). No engine: the records are made up, so every figure below is known exactly."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from manoeuvre_sim.analyses.manoeuvre import tally as T
from manoeuvre_sim.core.stats import ELO_PER_LOGIT, z_value

ARMIES = ["X", "Y", "Z"]


def records(rows) -> pd.DataFrame:
    """Per-game records from ``(army_a, army_b, first_player, winner, count)`` rows."""
    out = []
    for a, b, first, winner, n in rows:
        out += [(a, b, first, winner)] * n
    df = pd.DataFrame(out, columns=["army_a", "army_b", "first_player", "winner"])
    df["label"] = "x"
    df["victory"] = "nightfall"
    df["tiebreak"] = "squares"
    df["turn_limit"] = False
    df["game_turns"] = 10
    return df


def tally(df: pd.DataFrame) -> pd.DataFrame:
    t = T.Tally()
    t.add(df)
    return t.table


def first_term(df: pd.DataFrame, order) -> tuple[float, float, float]:
    t = tally(df)
    _, terms = T.armies(t, T.matrix(t, order), order, boot=0)
    return terms["x"]


@pytest.mark.parametrize("first_wins", [46, 60])
def test_first_player_term_has_the_sign_and_size_of_a_known_advantage(first_wins):
    """Two equal armies, 100 games each way round; the first player wins ``first_wins`` %
    whichever army it is. The ratings are then equal, and the first player's term is the
    log-odds of its win rate, h = logit(p) (Elo: 400 log10(p / (1 - p)), -27.9 for 46 %,
    +70.4 for 60 %), with standard error 1 / sqrt(2 n p (1 - p)) in logits (the Fisher
    information of the two groups, whose rating columns cancel)."""
    w, n = first_wins, 100
    df = records([("X", "Y", "a", "a", w), ("X", "Y", "a", "b", n - w),
                  ("X", "Y", "b", "b", w), ("X", "Y", "b", "a", n - w)])  # fmt: skip
    h, lo, hi = first_term(df, ["X", "Y"])
    p = w / n
    assert h == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert (h < 0) == (first_wins < 50)
    se = ELO_PER_LOGIT / math.sqrt(2 * n * p * (1 - p))
    assert (hi - lo) / 2 == pytest.approx(z_value() * se, rel=1e-6)
    assert (lo + hi) / 2 == pytest.approx(h, abs=1e-9)


def test_first_player_term_and_its_error_equal_a_per_game_statsmodels_logit():
    """Unbalanced records of three unequal armies with mirror matches: the first player's
    term and its standard error equal those of a logistic regression of each game's result
    (army A won) on the armies (reference coding) and who moved first (+1 A, -1 B), fitted
    by statsmodels on the individual games; the term does not depend on how the ratings
    are coded."""
    import statsmodels.api as sm

    rng = np.random.default_rng(23)
    strength = {"X": 0.4, "Y": 0.0, "Z": -0.3}
    h_true = -0.2
    rows = []
    for a in ARMIES:
        for b in ARMIES:
            for first in ("a", "b"):
                n = int(rng.integers(40, 160))
                eta = strength[a] - strength[b] + (h_true if first == "a" else -h_true)
                wa = int(rng.binomial(n, 1 / (1 + math.exp(-eta))))
                rows += [(a, b, first, "a", wa), (a, b, first, "b", n - wa)]
    df = records(rows)
    h, lo, hi = first_term(df, ARMIES)
    X = np.zeros((len(df), len(ARMIES)))
    for k, army in enumerate(ARMIES[1:]):
        X[:, k] = (df["army_a"] == army).astype(float) - (df["army_b"] == army).astype(float)
    X[:, -1] = np.where(df["first_player"] == "a", 1.0, -1.0)
    y = (df["winner"] == "a").astype(float).to_numpy()
    ref = sm.Logit(y, X).fit(disp=0)
    assert h == pytest.approx(ref.params[-1] * ELO_PER_LOGIT, abs=1e-4)
    assert (hi - lo) / 2 == pytest.approx(z_value() * ref.bse[-1] * ELO_PER_LOGIT, rel=1e-4)
    assert h < 0  # the made-up first player is at a disadvantage


def test_each_armys_first_and_second_move_rows_equal_a_hand_count():
    """Per army: the games it moved first and second (a mirror game counts once in each),
    its mean score in each (draws half) with Wilson intervals (statsmodels), and the
    difference with its normal interval from the per-game scores."""
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(7)
    n = 900
    df = pd.DataFrame(
        {
            "army_a": rng.choice(ARMIES, n),
            "army_b": rng.choice(ARMIES, n),
            "first_player": rng.choice(["a", "b"], n, p=[0.3, 0.7]),
            "winner": rng.choice(["a", "b", "draw"], n, p=[0.45, 0.4, 0.15]),
        }
    ).assign(label="x", victory="nightfall", tiebreak="squares", turn_limit=False, game_turns=9)
    fp = T.first_player(tally(df), ARMIES).set_index("army")
    z = z_value()
    for army in ARMIES:
        scores = {True: [], False: []}
        for g in df.itertuples(index=False):
            for seat in ("a", "b"):
                if getattr(g, f"army_{seat}") != army:
                    continue
                s = 1.0 if g.winner == seat else 0.5 if g.winner == "draw" else 0.0
                scores[g.first_player == seat].append(s)
        row = fp.loc[army]
        for first, sfx in ((True, "_first"), (False, "_second")):
            x = np.array(scores[first])
            assert row[f"games{sfx}"] == len(x), (army, sfx)
            assert row[f"win_rate{sfx}"] == pytest.approx(x.mean(), abs=1e-12)
            lo, hi = proportion_confint(x.sum(), len(x), method="wilson")
            assert (row[f"ci_low{sfx}"], row[f"ci_high{sfx}"]) == pytest.approx((lo, hi))
        x1, x2 = np.array(scores[True]), np.array(scores[False])
        adv = x1.mean() - x2.mean()
        half = z * math.sqrt(x1.var() / len(x1) + x2.var() / len(x2))
        assert row["advantage"] == pytest.approx(adv, abs=1e-12)
        assert (row["advantage_low"], row["advantage_high"]) == pytest.approx(
            (adv - half, adv + half)
        )
    # the first player over every game, beside them
    fs = (df["winner"] == df["first_player"]) + 0.5 * (df["winner"] == "draw")
    assert fp.loc[T.ALL_GAMES, "win_rate_first"] == pytest.approx(fs.mean())


def test_all_games_row_gives_each_seat_its_own_rate_and_wilson_interval():
    """The ``all games`` row of the first-player table, both seats, on 20 hand-made games:
    the first player wins 9, the second 7, 4 drawn, so the first scores (9 + 4/2) / 20 =
    0.55 and the second (7 + 4/2) / 20 = 0.45; each interval is statsmodels' Wilson interval
    of that seat's own score (low below the rate, high above it), and the advantage is
    2 p_first - 1 with the first seat's bounds."""
    from statsmodels.stats.proportion import proportion_confint

    df = records([("X", "Y", "a", "a", 5), ("X", "Y", "b", "b", 4), ("X", "Y", "a", "b", 3),
                  ("Y", "X", "b", "a", 4), ("X", "X", "a", "draw", 3),
                  ("Y", "X", "b", "draw", 1)])  # fmt: skip
    row = T.first_player(tally(df), ["X", "Y"]).set_index("army").loc[T.ALL_GAMES]
    for sfx, score in (("_first", 9 + 4 / 2), ("_second", 7 + 4 / 2)):
        lo, hi = proportion_confint(score, 20, alpha=0.05, method="wilson")
        assert row[f"games{sfx}"] == 20
        assert row[f"win_rate{sfx}"] == pytest.approx(score / 20, abs=1e-12)
        assert (row[f"ci_low{sfx}"], row[f"ci_high{sfx}"]) == pytest.approx((lo, hi), abs=1e-12)
        assert row[f"ci_low{sfx}"] < row[f"win_rate{sfx}"] < row[f"ci_high{sfx}"]
    lo, hi = proportion_confint(11, 20, alpha=0.05, method="wilson")
    assert (row["advantage"], row["advantage_low"], row["advantage_high"]) == pytest.approx(
        (0.1, 2 * lo - 1, 2 * hi - 1), abs=1e-12
    )
