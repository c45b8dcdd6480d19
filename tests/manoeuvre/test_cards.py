"""Card value: identities, per-copy statistics read off the trace, observed metrics against a
hand count over traced games, ablations on common random numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from manoeuvre_sim.analyses.manoeuvre.cards_text import summary_lines
from manoeuvre_sim.core.study import pairing_seed
from manoeuvre_sim.manoeuvre import DEFAULT_POLICY
from manoeuvre_sim.manoeuvre.engine import cardstats as CS
from manoeuvre_sim.manoeuvre.engine.rules import EV_DRAW, EV_PLAY, EV_SPY, EV_TURN
from manoeuvre_sim.manoeuvre.studies import cards as C


def test_identities_pool_copies_by_printed_values(armies):
    ids = C.identities(armies["France"])
    assert sum(len(i.copies) for i in ids) == 60
    assert sorted(c for i in ids for c in i.copies) == list(range(60))
    kinds = {i.kind for i in ids}
    assert kinds == {"unit", "leader", "hq"}
    # the two 2d10/3 cards of the 1st Cuirassiers (cards 1 and 2) are one identity, the
    # 2d6/3 ones (3 and 4) another
    cuir = [i for i in ids if i.unit == "1st Cuirassiers"]
    assert [i.copies for i in cuir[:2]] == [(0, 1), (2, 3)]
    assert cuir[0].label == "1st Cuirassiers 2d10/3 p4"
    assert cuir[-1].label == "1st Cuirassiers bomb 1d10/5"
    leaders = [i for i in ids if i.kind == "leader"]
    assert len(leaders) == 6 and all(len(i.copies) == 1 for i in leaders)
    hq = {i.label: len(i.copies) for i in ids if i.kind == "hq"}
    counts = armies["France"].hq_counts()
    assert hq == {t: n for t, n in counts.items() if n and t != "Leader"}


def test_card_stats_leave_records_unchanged_and_count_every_play():
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    cfg = SimConfig("Spain", "Great Britain", games=60, seed=4, threads=1, tournament_hand=True)
    plain = simulate(cfg)
    with_stats = simulate(cfg, card_stats=True)
    assert np.array_equal(plain.records, with_stats.records)
    cs = with_stats.card_stats
    from manoeuvre_sim.manoeuvre.engine import batch as Bt

    for side, col in ((0, Bt.R_CARDS_A), (1, Bt.R_CARDS_B)):
        plays = cs[:, side, :, CS.CS_PLAYS].sum(axis=1)
        assert np.array_equal(plays, plain.records[:, col])  # every play is seen
        uses = cs[:, side, :, CS.CS_USE :].sum(axis=(1, 2))
        assert np.array_equal(uses, plays)  # and each has exactly one use
        # the drawn set of the record equals the copies the trace saw drawn (the tournament
        # hand's chosen cards included)
        words = plain.records[:, Bt.R_DRAWN + 4 * side : Bt.R_DRAWN + 4 * side + 4]
        bits = np.array([[(int(w[c // 32]) >> (c % 32)) & 1 for c in range(60)] for w in words])
        assert np.array_equal(bits, cs[:, side, :60, CS.CS_DRAWN])
        assert (cs[:, side, :, CS.CS_OPENING].sum(axis=1) == 5).all()


def _hand_count(army, opp, n, seed):
    """Per identity, from traced games read event by event: drawn/opening/played games and
    the army's score in them (independent of the kernel scan and of the aggregation)."""
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    ids = C.identities(army)
    owner = {c: i.label for i in ids for c in i.copies}
    rows = []
    for side in (0, 1):
        a, b = (army.name, opp) if side == 0 else (opp, army.name)
        seed_p = pairing_seed(seed, a, b)
        for g in range(n):
            st, tr = play_traced(a, b, seed=seed_p, game=g, policies=(DEFAULT_POLICY, DEFAULT_POLICY),
                                 check=False)  # fmt: skip
            from manoeuvre_sim.manoeuvre.engine import state as S

            w = int(st[S.WINNER])
            score = 0.5 if w < 0 else float(w == side)
            drawn, opening, played = set(), set(), set()
            turn = 0
            for ev, p, x, *_ in tr.tolist():
                if ev == EV_TURN:
                    turn = x
                if p != side:
                    continue
                if ev == EV_DRAW:
                    drawn.add(owner[x])
                    if turn == 0:
                        opening.add(owner[x])
                elif ev in (EV_PLAY, EV_SPY):
                    played.add(owner[x])
            for i in ids:
                rows.append(
                    {
                        "card": i.label,
                        "score": score,
                        "drawn": i.label in drawn,
                        "opening": i.label in opening,
                        "played": i.label in played,
                    }
                )
    return pd.DataFrame(rows)


def test_observed_metrics_equal_a_hand_count_of_20_traced_games(armies):
    res = C.run("France", against=["Russia"], games=20, seed=9, mode="observed")
    hand = _hand_count(armies["France"], "Russia", 10, 9)
    got = res.cards.set_index("card")
    for card, g in hand.groupby("card"):
        r = got.loc[card]
        assert r["games"] == 20
        assert r["drawn_games"] == g["drawn"].sum(), card
        assert r["opening_games"] == g["opening"].sum(), card
        assert r["played_games"] == g["played"].sum(), card
        if g["drawn"].any():
            assert r["drawn_win_rate"] == pytest.approx(g.loc[g["drawn"], "score"].mean())
        if (~g["drawn"]).any():
            assert r["not_drawn_win_rate"] == pytest.approx(g.loc[~g["drawn"], "score"].mean())
        # 20 games: too few on either side for an improvement figure (MIN_GROUP)
        assert np.isnan(r["iwd"]) and np.isnan(r["piw"])
        if g["played"].any():
            assert r["played_win_rate"] == pytest.approx(g.loc[g["played"], "score"].mean())
            assert r["play_rate"] == pytest.approx(g["played"].sum() / g["drawn"].sum())


def test_observed_improvements_equal_a_direct_computation(armies):
    """IWD, OIWD and PIW with their intervals, from per-block sums, against the same
    figures computed game by game with pandas (random per-copy statistics, 3 blocks)."""
    ids = C.identities(armies["Russia"])
    o = C.ObservedSums(ids, 60)
    rng = np.random.default_rng(7)
    games = []
    for _ in range(3):
        cs = np.zeros((300, 60, CS.NCS), dtype=np.int32)
        cs[:, :, CS.CS_DRAWN] = rng.random((300, 60)) < 0.8
        cs[:, :, CS.CS_OPENING] = cs[:, :, CS.CS_DRAWN] * (rng.random((300, 60)) < 0.1)
        cs[:, :, CS.CS_PLAYS] = cs[:, :, CS.CS_DRAWN] * rng.integers(0, 3, (300, 60))
        score = rng.choice([0.0, 0.5, 1.0], 300, p=[0.45, 0.05, 0.5])
        o.add(score, cs)
        games.append((score, cs))
    frame, _ = C.observed_frame(o)
    score = np.concatenate([g[0] for g in games])
    cs = np.concatenate([g[1] for g in games])
    z = 1.959963984540054
    for j, ident in enumerate(ids):
        cols = list(ident.copies)
        for name, mask in (
            ("iwd", cs[:, cols, CS.CS_DRAWN].sum(axis=1) > 0),
            ("oiwd", cs[:, cols, CS.CS_OPENING].sum(axis=1) > 0),
            ("piw", cs[:, cols, CS.CS_PLAYS].sum(axis=1) > 0),
        ):
            a, b = score[mask], score[~mask]
            r = frame.iloc[j]
            if min(len(a), len(b)) < C.MIN_GROUP:
                assert np.isnan(r[name])
                continue
            d = a.mean() - b.mean()
            half = z * np.sqrt(a.var() / len(a) + b.var() / len(b))
            assert r[name] == pytest.approx(d)
            assert (r[f"{name}_low"], r[f"{name}_high"]) == pytest.approx((d - half, d + half))


def test_observed_sums_stay_the_same_size_whatever_the_games(armies):
    ids = C.identities(armies["France"])
    o = C.ObservedSums(ids, 60)
    size = o.nbytes
    rng = np.random.default_rng(1)
    for _ in range(20):
        cs = rng.integers(0, 2, size=(500, 60, CS.NCS)).astype(np.int32)
        o.add(rng.choice([0.0, 0.5, 1.0], 500), cs)
    assert o.nbytes == size and o.games == 10000


def test_nothing_changed_is_exactly_zero():
    """A blank replacing a blank (the card blanked in the base run too), and a card replaced
    by itself, replay the base games exactly: value 0, interval [0, 0]."""
    spec = C.make_spec(
        "Russia", against=["Austria"], games=60, seed=2, mode="ablation",
        replace=["Supply=blank", "Skirmish=Skirmish"],
    )  # fmt: skip
    spec = C.CardStudySpec(**{**spec.__dict__, "base_blank": ("Supply",)})
    res = C.run_spec(spec)
    v = res.cards.dropna(subset=["value"])
    assert len(v) == 2
    for col in ("value", "value_low", "value_high", "changed_games"):
        assert (v[col] == 0.0).all(), v
    # and a real blank is not zero
    res2 = C.run("Russia", against=["Austria"], games=60, seed=2, mode="ablation",
                 replace=["Supply=blank"])  # fmt: skip
    assert res2.cards.dropna(subset=["value"])["changed_games"].iloc[0] > 0


def test_ablation_value_and_games_guide_equal_the_per_game_differences(tmp_path):
    """An ablation's value is the mean of the per-seed differences (base score minus the
    ablated game's, the army's seat each way round) with Student's t interval (scipy), and
    the ``--games-per-variant`` guide is the games for a half-width of one point at 95 %:
    n = ceil(z^2 var / 0.01^2), var the differences' population variance, so that
    z sqrt(var / n) <= 0.01 < z sqrt(var / (n - 1))."""
    import math

    from scipy.stats import norm, ttest_1samp

    from manoeuvre_sim.core.store import STORE

    res = C.run("Russia", against=["Austria"], games=60, seed=2, mode="ablation",
                replace=["Supply=blank"], out_dir=tmp_path)  # fmt: skip
    g = pd.read_parquet(tmp_path / STORE)
    base = g[g["label"] == "base"].set_index(["army_a", "army_b", "game"]).sort_index()
    abl = g[g["label"] == "ablation000"].set_index(["army_a", "army_b", "game"]).sort_index()
    d = []
    for key, seat in ((("Russia", "Austria"), "a"), (("Austria", "Russia"), "b")):
        wb, wa = base.loc[key]["winner"], abl.loc[key]["winner"]
        d.append(((wb == seat) + 0.5 * (wb == "draw")) - ((wa == seat) + 0.5 * (wa == "draw")))
    d = pd.concat(d).to_numpy(dtype=float)
    row = res.cards.dropna(subset=["value"]).iloc[0]
    assert len(d) == row["ablation_games"] == 60 and d.std() > 0
    ci = ttest_1samp(d, 0.0).confidence_interval()
    assert row["value"] == pytest.approx(d.mean())
    assert (row["value_low"], row["value_high"]) == pytest.approx((ci.low, ci.high))
    z = norm.ppf(0.975)
    n = int(row["games_for_1pt"])
    assert n == math.ceil(z**2 * d.var() / 0.01**2)
    assert z * math.sqrt(d.var() / n) <= 0.01 < z * math.sqrt(d.var() / (n - 1))
    assert f"about {n:,} games per card" in "\n".join(summary_lines(res))


@pytest.mark.parametrize("policy", sorted({DEFAULT_POLICY, "balanced", "tuned"}))
def test_an_absurdly_strong_card_ranks_first(policy):
    """A designer's test army: one Walloon Guards card printed 10d20 / 20. (With the
    players' dice tables stopping at 3d12, as they once did, this card was never used to
    attack and ranked last; with a card's worth linear in its printed pips, ``tuned`` found
    it too precious to spend and ranked it 37th of 42.) Both the default player and the
    tuned style must see it: the default is the instrument of card studies."""
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.model.edit import apply_edits

    edits = ["Spain/Walloon Guards/card1/attack=10d20", "Spain/Walloon Guards/card1/defense=20"]
    edited, _ = apply_edits({"Spain": find_army("Spain")}, edits)
    res = C.run(edited["Spain"], against=["France", "Russia", "Austria"], games=600, seed=1,
                mode="ablation", policy=policy)  # fmt: skip
    top = res.cards.sort_values("value", ascending=False).iloc[0]
    assert top["card"] == "Walloon Guards 10d20/20", res.cards[["card", "value"]]
    assert top["value_low"] > 0 and top["value_rank"] == 1
