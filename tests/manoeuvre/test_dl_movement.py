"""Distant Lands movement (issue 14): the expansion's Forced March wording as a rule option
(``--dl-forced-march``) beside the base reading.

Base rule 9.2 (003): "Units that begin or end their move in a Field or a Marsh square may
not play a Forced March to extend their movement." Distant Lands 9.2 (000): "Units that
begin their move in either a Field or a Marsh square may not play a Forced March Card to
extend their Movement." Scenarios draw the battlefield as ASCII (tests/manoeuvre/boards.py) and run
the Movement Phase with scripted decisions (test_engine_cards.py's ``table``).
"""

from __future__ import annotations

import pytest

from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine.options import OPT_DL_FORCED_MARCH, rule_options
from tests.manoeuvre.boards import at
from tests.manoeuvre.engine_helpers import packed
from tests.manoeuvre.test_engine_cards import U, cards_of, hand, options, setup, sq_of
from tests.manoeuvre.test_engine_cards import table as _table  # noqa: F401 (the fixture "table")


@pytest.fixture
def table(_table):  # noqa: F811 (the imported fixture, under the name the tests use)
    """test_engine_cards.py's scripted-decisions, loaded-dice table."""
    return _table


def _opt(dl_forced_march):
    opt = options()
    opt[OPT_DL_FORCED_MARCH] = int(dl_forced_march)
    return opt


@pytest.mark.parametrize("dl", [False, True], ids=["base 9.2", "Distant Lands 9.2"])
@pytest.mark.parametrize(
    "start, end", [(".", "."), ("F", "."), ("M", "."), (".", "F"), (".", "M"), ("F", "M")]
)
def test_forced_march_field_or_marsh_under_both_readings(table, dl, start, end):
    """Unit 1 moves up one square from ``start`` terrain onto ``end`` terrain, holding a
    Forced March. The base rule 9.2 refuses it when the move begins or ends in a Field or
    Marsh (interpretation 8); the Distant Lands wording only when it begins in one (DL11: a
    move ending in one may be extended, by one square out of it). The base reading's one
    scenario (test_engine_cards.py kept none of its own)."""
    board = f"""
        . . . . . . . a
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . {end} . . . . . .
        . {start}1 . . . . . .
        . . . . . . . .
        . . . . . . . .
    """
    P = packed()
    fm = cards_of(P, 0, "Forced March")[0]
    st = setup(board, P, {0: [fm]})
    allowed = start == "." and (dl or end == ".")
    answers = [(D.D_MOVE, (U(1), at(4, 1)))]
    if allowed:
        answers.append((D.D_FORCED_MARCH, (0, at(3, 1))))  # slot 0: the Forced March
    script, _ = table("movement_phase", st, P, _opt(dl), 0, answers=answers)
    assert (D.D_FORCED_MARCH in script.kinds()) == allowed
    if allowed:
        (fm_opts,) = script.offered(D.D_FORCED_MARCH)
        # decline, then up, left, right, down (the start square is open again)
        assert fm_opts[:, 1].tolist() == [-1, at(3, 1), at(4, 0), at(4, 2), at(5, 1)]
        assert hand(st, 0) == [] and sq_of(st, 1) == at(3, 1)
    else:
        assert hand(st, 0) == [fm] and sq_of(st, 1) == at(4, 1)


def test_the_option_reaches_the_engine_and_the_manifest():
    """``--dl-forced-march`` (SimConfig.dl_forced_march) sets ``OPT_DL_FORCED_MARCH``; the
    manifest records it when set and, unset, reads as before the option existed."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.runner import SimConfig, config_dict
    from manoeuvre_sim.manoeuvre.runner import rule_options as config_options

    assert rule_options()[OPT_DL_FORCED_MARCH] == 0
    assert rule_options(dl_forced_march=True)[OPT_DL_FORCED_MARCH] == 1
    on = SimConfig("France", "Russia", dl_forced_march=True)
    assert config_options(on)[OPT_DL_FORCED_MARCH] == 1
    assert config_options(SimConfig("France", "Russia"))[OPT_DL_FORCED_MARCH] == 0
    assert config_dict(on)["dl_forced_march"] is True
    assert "dl_forced_march" not in config_dict(SimConfig("France", "Russia"))
    assert config_dict(RuleOptions(dl_forced_march=True))["dl_forced_march"] is True
    assert "dl_forced_march" not in config_dict(RuleOptions())


def test_cli_switch_on_every_game_command():
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    for cmd in ("simulate", "balance", "whatif", "cards"):
        out = CliRunner().invoke(cli, [cmd, "--help"])
        assert out.exit_code == 0 and "--dl-forced-march" in out.output, cmd


def test_whole_games_under_the_option_keep_invariants_and_fair_play():
    """Games with the Distant Lands wording keep every invariant and the fair-play check;
    some differ from the base games of the same seed (more Forced Marches are legal)."""
    from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate

    kw = dict(seed=3, policy_a="random", policy_b="balanced", threads=1)
    checked = simulate(SimConfig("France", "Russia", games=40, dl_forced_march=True,
                                 check_invariants=True, check_fair_play=1, **kw)).records  # fmt: skip
    assert len(checked) == 40
    kw.update(games=200, policy_b="random")
    dl = simulate(SimConfig("France", "Russia", dl_forced_march=True, **kw)).records
    base = simulate(SimConfig("France", "Russia", **kw)).records
    assert 0 < (dl != base).any(axis=1).sum() < 200
