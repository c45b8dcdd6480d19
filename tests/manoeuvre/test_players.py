"""The scripted players (issue #5): fair play, exact odds, strength, styles, tournament."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from manoeuvre_sim.manoeuvre.engine.players import DEFAULT_POLICY, POLICY_NAMES, POLICY_PARAMS
from manoeuvre_sim.manoeuvre.engine.players import odds as H
from manoeuvre_sim.manoeuvre.engine.players import params as HP
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

STYLES = ("attritional", "territorial", "balanced")


# --- fair play -----------------------------------------------------------------------------
@pytest.mark.parametrize("policy", ("simple",) + STYLES + ("tuned",))
def test_fair_play_decisions_ignore_hidden_cards(policy):
    """Every decision of every seat, re-taken on a state whose draw piles and (unless a
    Scout/Spy revealed it) opponent's hand are scrambled, is the same decision: a policy sees
    only its hand, the board, the table and the counts."""
    # Great Britain and the United States hold the Scout/Spy cards (the REVEALED branch) and
    # the US its Withdraw unit cards
    for other, armies in (
        ("balanced", ("France", "Russia")),
        ("random", ("Spain", "Austria")),
        ("balanced", ("Great Britain", "United States")),
        ("territorial", ("United States", "Great Britain")),
    ):
        cfg = SimConfig(
            *armies, games=60, seed=17, policy_a=policy, policy_b=other, threads=1,
            check_fair_play=1, check_invariants=True,
        )  # fmt: skip
        res = simulate(cfg)
        assert len(res.records) == 60


def test_fair_play_check_can_fail():
    """Mutation test of the check above: fogging the deciding player's own hand, which every
    real policy reads, must be caught."""
    from manoeuvre_sim.manoeuvre.engine.game import FLAG_FAIR_CHECK, FLAG_FOG_OWN_HAND
    from manoeuvre_sim.manoeuvre.engine.trace import play_traced

    play_traced("France", "Russia", seed=17, policies=("balanced", "balanced"), fair_play=1)
    with pytest.raises(AssertionError, match="fair play"):
        play_traced(
            "France", "Russia", seed=17, policies=("balanced", "balanced"),
            fair_play=FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND,
        )  # fmt: skip


def test_spy_reveals_the_hand_to_the_policy():
    """After a Scout/Spy the expected defence is the opponent's real best cards, not a guess."""
    from manoeuvre_sim.manoeuvre.engine import state as S
    from tests.manoeuvre.boards import parse_board
    from tests.manoeuvre.engine_helpers import packed, state_from_board

    P = packed("France", "Russia")
    st = state_from_board(
        parse_board("""
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . a . . .
        . . . . 0 . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """)
    )
    w = POLICY_PARAMS["balanced"]
    # Russia holds the unit card(s) of its unit 0 (a) and nothing else
    q = 1
    ids = [c for c in range(60) if P.cards[q, c, S.CF_KIND] == S.KIND_UNIT
           and P.cards[q, c, S.CF_UNIT] == 0]  # fmt: skip
    st[S.HAND + q * S.HMAX] = ids[0]
    st[S.HAND_N + q] = 1
    t = q * S.MAXU_SIDE
    assert H._expected_def_cards(st, P.units, P.cards, w, 0, t) == w[HP.H_DEFGUESS]
    st[S.REVEALED] = 1
    assert H._expected_def_cards(st, P.units, P.cards, w, 0, t) == P.cards[q, ids[0], S.CF_DEF]


# --- the odds the players use are exact ----------------------------------------------------
def test_dice_tables_cover_every_printable_dice():
    """An army file may print up to 10 dice of up to 20 sides (dice.py); the players' tables
    must hold them all (they once stopped at 3d12 and read garbage past it)."""
    from manoeuvre_sim.manoeuvre.odds import Dice, attack_pmf

    for n, s in ((10, 20), (4, 20), (5, 12), (3, 4)):
        want = attack_pmf(0, [Dice(n, s)])
        got = H.DICE_PMF[n, s, : len(want)]
        np.testing.assert_allclose(got, want, atol=1e-12)
        assert H.DICE_GE[n, s, n * s] == pytest.approx(float(s) ** -n, rel=1e-9)


def test_dice_tail_tables_are_exact():
    for n, s in itertools.product(range(4), (4, 6, 8, 10, 12)):
        faces = list(itertools.product(range(1, s + 1), repeat=n))
        sums = np.array([sum(f) for f in faces]) if n else np.zeros(1)
        for x in range(0, 3 * s + 2):
            want = float((sums >= x).mean())
            assert H.DICE_GE[n, s, x] == pytest.approx(want, abs=1e-12), (n, s, x)


def test_a_single_roll_s_tail_is_the_tabulated_one_bit_for_bit():
    """The step-5 valuation of an assault (players/combat.py ``_with_step5_card``) reads a
    single roll's tail from DICE_GE instead of summing it with ``_tail``: the same numbers
    to the last bit on 0..n*s, and exactly 0 past it, or a decision could change."""
    for n in range(H.DICE_PMF.shape[0]):
        for s in range(H.DICE_PMF.shape[1]):
            top = n * s
            tail = np.zeros(H.LMAX)
            H._tail(H.DICE_PMF[n, s].copy(), top, tail)
            assert tail[: top + 1].tobytes() == H.DICE_GE[n, s, : top + 1].tobytes(), (n, s)
            assert not H.DICE_GE[n, s, top + 1 :].any(), (n, s)


def test_table_dice_ev_matches_the_odds_module():
    """Step 5 convolves the dice of several cards on the table: the same exact odds."""
    from manoeuvre_sim.manoeuvre.odds import Dice, attack_pmf, band_probabilities

    vals = np.array([-1.0, 0.0, 2.0, 3.0, 4.0, 5.0])
    for groups in (((2, 6), (1, 10)), ((2, 8), (2, 6), (1, 8)), ((1, 10),), ((10, 20), (2, 6))):
        pm = np.zeros(H.LMAX)
        pm[0] = 1.0
        top = 0
        tmp = np.zeros(H.LMAX)
        for n, s in groups:
            top = H._convolve(pm, top, n, s, tmp)
            pm[: top + 1] = tmp[: top + 1]
        cum = np.zeros(H.LMAX)
        H._tail(pm, top, cum)
        for a0, d in itertools.product((0, 5, 9), (6, 10, 15)):
            p = band_probabilities(attack_pmf(a0, [Dice(n, s) for n, s in groups]), d)
            got = H._ev_cum(cum, top, a0, d, vals)
            assert got == pytest.approx(float((p * vals).sum()), abs=1e-12), (groups, a0, d)


def test_assault_ev_matches_the_odds_module():
    """The players' band probabilities equal the exact odds of `manoeuvre-sim odds assault`."""
    from manoeuvre_sim.manoeuvre.odds import Dice, attack_pmf, band_probabilities

    vals = np.array([-1.0, 0.0, 2.0, 3.0, 4.0, 5.0])  # band k is worth k (band 0: -1)
    dice = ((1, 8), (2, 6), (2, 10), (4, 20), (10, 20), (3, 4))  # up to what a file may print
    for a0, d, (n, s) in itertools.product((3, 6, 8), (4, 7, 11, 40), dice):
        got = H._ev_single(n, s, a0, d, vals)
        p = band_probabilities(attack_pmf(a0, [Dice(n, s)]), d)
        assert got == pytest.approx(float((p * vals).sum()), abs=1e-12)


# --- strength and the shape of the games ---------------------------------------------------
@pytest.mark.parametrize("style", STYLES)
def test_each_style_beats_random(style):
    from manoeuvre_sim.studies import tournament

    res = tournament.run("manoeuvre", ["random", style], 64, seed=5, threads=1)
    assert res.pairs[0].games == 64
    assert res.pairs[0].win_rate_a <= 0.05


def test_heuristic_games_end_by_the_rules_not_the_turn_limit():
    res = simulate(SimConfig("France", "Russia", games=200, seed=3, threads=1))
    from manoeuvre_sim.manoeuvre.engine import batch as B

    r = res.records
    # the manifest records the parameters the default player used
    assert res.manifest["policy_params"]["a"] == pytest.approx(list(POLICY_PARAMS[DEFAULT_POLICY]))
    assert r[:, B.R_TURN_LIMIT].sum() == 0
    assert (r[:, B.R_COMBATS_A] + r[:, B.R_COMBATS_B]).mean() > 5  # they fight
    assert set(np.unique(r[:, B.R_VICTORY])) == {1, 2}  # both kinds of victory occur


@pytest.mark.parametrize("style", ("attritional", "territorial"))
def test_fixed_styles_end_mirror_games_by_the_rules(style):
    """The stall a hoarding player falls into (one unit shuttling until the turn limit)
    stays rare in mirror games (territorial: 43% before its deck cycling, now ~3%)."""
    from manoeuvre_sim.manoeuvre.engine import batch as B

    res = simulate(SimConfig("France", "France", games=200, seed=4, policy_a=style,
                             policy_b=style, threads=1))  # fmt: skip
    assert res.records[:, B.R_TURN_LIMIT].mean() < 0.08


def test_default_policy_is_tuned_everywhere():
    """One default (manoeuvre_sim.DEFAULT_POLICY) reaches the CLI, simulate and every study's
    Python API: tuned, which beats balanced held out and, under the players' saturating card
    worth, sees an absurdly strong card (test_cards.py test_an_absurdly_strong_card_ranks_first)."""
    import inspect

    from manoeuvre_sim.cli.manoeuvre_options import DEFAULT_POLICY as CLI_DEFAULT
    from manoeuvre_sim.core.study import PolicySpec
    from manoeuvre_sim.manoeuvre.adapter import whatif_command
    from manoeuvre_sim.manoeuvre.balance_setup import policy_specs
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.studies import cards
    from manoeuvre_sim.studies import balance

    assert DEFAULT_POLICY == "tuned" == CLI_DEFAULT
    assert SimConfig("France", "Russia").policy_a == "tuned"
    assert SimConfig("France", "Russia").policy_b == "tuned"
    assert policy_specs() == (PolicySpec("tuned", "tuned"),)
    armies = (find_army("France"), find_army("Russia"))
    assert balance.BalanceSpec("manoeuvre", armies).policies == (PolicySpec("tuned", "tuned"),)
    for f in (cards.run, cards.make_spec, whatif_command):
        assert inspect.signature(f).parameters["policy"].default == "tuned", f
    assert set(STYLES) <= set(POLICY_NAMES)


def test_styles_differ_in_parameters():
    vecs = [POLICY_PARAMS[s] for s in STYLES]
    for a, b in itertools.combinations(vecs, 2):
        assert not np.array_equal(a, b)
    assert all(len(v) == HP.NPARAM == len(HP.PARAM_NAMES) for v in vecs)


# --- tournament ----------------------------------------------------------------------------
def test_tournament_json(cli):
    from statsmodels.stats.proportion import proportion_confint

    r = cli(
        "tournament", "--policies", "random,balanced", "--games", "32", "--seed", "2",
        "--armies", "France,Russia", "--json", "--threads", "1",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    (p,) = doc["pairs"]
    assert set(p) >= {"a", "b", "games", "win_rate_a", "ci_low", "ci_high"}
    assert (p["a"], p["b"], p["games"]) == ("random", "balanced", 32)
    lo, hi = proportion_confint(p["win_rate_a"] * p["games"], p["games"], method="wilson")
    assert (p["ci_low"], p["ci_high"]) == pytest.approx((lo, hi), abs=1e-6)  # JSON: 6 places
    assert doc["manifest"]["seed"] == 2 and doc["manifest"]["rules_version"]


def test_tournament_is_reproducible_and_seat_fair():
    """Same seed, same result; each army plays itself with both seatings."""
    from manoeuvre_sim.studies import tournament

    pols = ["attritional", "territorial"]
    a = tournament.run("manoeuvre", pols, 32, seed=9, sides=["Spain", "Prussia"], threads=1)
    b = tournament.run("manoeuvre", pols, 32, seed=9, sides=["Spain", "Prussia"], threads=2)
    assert a.pairs[0].wins_a == b.pairs[0].wins_a
    f = a.frame
    assert (f["army_a"] == f["army_b"]).all()
    seats = f.groupby(["army", "policy_a"]).size()
    assert len(seats) == 4 and (seats == 8).all()
    # both seatings of an army replay the same seed: same maps, same first-player rolls
    for _, g in f.groupby("army"):
        one, two = (x.reset_index(drop=True) for _, x in g.groupby("policy_a"))
        assert one["block_seed"].iloc[0] == two["block_seed"].iloc[0]
        cols = ["first_player", "map_nw", "rot_nw", "map_se", "rot_se"]
        assert one[cols].equals(two[cols])


def test_tournament_text_and_styles_file(cli, tmp_path):
    p = tmp_path / "styles.toml"
    p.write_text('[styles.cautious]\nbase = "balanced"\nattack_min = 0.4\n', encoding="utf-8")
    r = cli(
        "tournament", "--policies", "balanced,cautious", "--styles", str(p), "--games", "16",
        "--armies", "France", "--quiet", "--threads", "1",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "cautious" in r.output and "95% CI" in r.output and "combats_per_turn" in r.output


@pytest.mark.parametrize(
    "text, needle",
    [
        ('[styles.x]\nbase = "bogus"\n', "styles.x.base: expected attritional, territorial"),
        ('[styles.x]\nbase = "balanced"\nbravery = 2\n', "styles.x.bravery: unknown parameter"),
        ('[styles.x]\nbase = "balanced"\nkeep = "high"\n', "styles.x.keep: expected a number"),
        ("[other]\n", "styles: expected a table"),
        ("[styles.x\n", "not a valid UTF-8 TOML"),
        ('[styles.x]\nbase = "balanced"\nkeep = nan\n', "styles.x.keep: expected a finite"),
        ('[styles.x]\nbase = "balanced"\nswitch = 2\n', "styles.x.switch: expected 0 or 1"),
    ],
)
def test_bad_styles_file(cli, tmp_path, text, needle):
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    r = cli("tournament", "--policies", "balanced,x", "--styles", str(p), "--games", "8")
    assert r.exit_code == 2
    assert needle in r.output and str(p) in r.output and "Traceback" not in r.output


def test_unknown_policy(cli):
    r = cli("tournament", "--policies", "random,genius", "--games", "8")
    assert r.exit_code == 2 and "genius" in r.output and "balanced" in r.output
