"""Every bounded option of the command line at its exact bound: the bound itself is accepted
and the next value refused with one line (the workbench's are in ``tests/web/test_bounds.py``).

Each row is read from the code's own constants where it has one. A row runs the command as a
user types it when that is cheap at the bound; where the bound itself would be costly
(``--simulate`` 10^11 resolutions) the bound runs through the function the command calls
with the kernel stubbed out, and only the refusal through the command."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import pytest

from manoeuvre_sim.cli.main import main
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import odds as hex_odds
from manoeuvre_sim.hexgame import odds_query as hex_q
from manoeuvre_sim.manoeuvre import dice, odds
from manoeuvre_sim.manoeuvre import odds_query as q
from manoeuvre_sim.manoeuvre.combat_totals import MAX_COMMITTED


class Bound(NamedTuple):
    """``argv(value)`` is the command line with the option at ``value`` (or ``call(value)``
    the function the command calls); ``at`` must run, ``beyond`` must stop with ``message``
    (the whole line after ``error: ``)."""

    id: str
    argv: Callable[[object], list[str]] | None
    at: object
    beyond: object
    message: str
    call: Callable[[object], object] | None = None


def _assault(*args):
    return lambda v: ["odds", "assault", *(str(a).replace("{}", str(v)) for a in args)]


_d = _assault("--dice", "{}", "--defense", "5")  # one card's dice


RANGE = q.MAX_RANGE_VALUES
S64 = (1 << 64) - 1
SUPPORTS = [x for _ in range(3) for x in ("--support", "4")]

BOUNDS = [
    # Manoeuvre odds: what the rules and the dice notation allow
    Bound("assault --defense", _assault("--dice", "2d8", "--defense", "{}"), 1000, 1001,
          "defense total: expected an integer <= 1000, got 1001"),
    Bound("assault --strength", _assault("--strength", "{}", "--dice", "2d8", "--defense", "5"),
          200, 201, "strength: expected an integer <= 200, got 201"),
    Bound("assault --leader-combat",
          _assault("--leader-combat", "{}", "--dice", "2d8", "--defense", "5"), 50, 51,
          "leader combat: expected an integer <= 50, got 51"),
    Bound("assault --support strength", _assault("--dice", "2d8", "--support", "{}",
                                                 "--defense", "5"), 200, 201,
          "supporting unit strength: expected an integer <= 200, got 201"),
    Bound("assault --committed (one per unit, rule 6.1 step 5)",
          _assault("--dice", "2d8", *SUPPORTS, "--leader-command", "4", "--committed", "{}",
                   "--defense", "5"), 4, 5,
          "5 Committed Attacks but only 4 attacking/supporting unit(s): at most one per unit "
          "(rule 6.1 step 5)"),
    Bound("dice count", _d, f"{dice.MAX_COUNT}d6", f"{dice.MAX_COUNT + 1}d6",
          f"dice: expected {dice.DICE_EXPECTED}, got '{dice.MAX_COUNT + 1}d6'"),
    Bound("dice count lower", _d, f"{dice.MIN_COUNT}d6", f"{dice.MIN_COUNT - 1}d6",
          f"dice: expected {dice.DICE_EXPECTED}, got '{dice.MIN_COUNT - 1}d6'"),
    Bound("dice sides", _d, f"1d{dice.MAX_SIDES}", f"1d{dice.MAX_SIDES + 1}",
          f"dice: expected {dice.DICE_EXPECTED}, got '1d{dice.MAX_SIDES + 1}'"),
    Bound("dice sides lower", _d, f"1d{dice.MIN_SIDES}", f"1d{dice.MIN_SIDES - 1}",
          f"dice: expected {dice.DICE_EXPECTED}, got '1d{dice.MIN_SIDES - 1}'"),
    Bound("pursuit --card", lambda v: ["odds", "pursuit", "--card", str(v)], 6, 7,
          "pursuit value: expected an integer <= 6, got 7"),
    Bound("pursuit --card lower", lambda v: ["odds", "pursuit", "--card", str(v)], 1, 0,
          "pursuit value: expected an integer >= 1, got 0"),
    Bound("pursuit --leader-mod", lambda v: ["odds", "pursuit", "--card", "3", "--leader-mod",
                                             str(v)], 5, 6,
          "leader pursuit modifier: expected an integer <= 5, got 6"),
    Bound("pursuit --leader-mod lower", lambda v: ["odds", "pursuit", "--card", "3",
                                                   "--leader-mod", str(v)], -5, -6,
          "leader pursuit modifier: expected an integer >= -5, got -6"),
    Bound("rally", lambda v: ["odds", "rally", str(v)], 6, 7,
          "rally: expected 1..6 or 'auto', got 7"),
    Bound("rally lower", lambda v: ["odds", "rally", str(v)], 1, 0,
          "rally: expected 1..6 or 'auto', got 0"),
    Bound("withdraw", lambda v: ["odds", "withdraw", str(v)], 6, 7,
          "withdraw: expected 1..6, got 7"),
    Bound("withdraw lower", lambda v: ["odds", "withdraw", str(v)], 1, 0,
          "withdraw: expected 1..6, got 0"),
    Bound("--simulate", _assault("--dice", "2d8", "--defense", "5", "--simulate", "{}"),
          odds.MAX_SIMULATE, odds.MAX_SIMULATE + 1,
          f"number of simulations: expected an integer <= {odds.MAX_SIMULATE}, got "
          f"{odds.MAX_SIMULATE + 1}", call=lambda n: odds._check_sim(n, 1, 1 << 30)),
    Bound("--seed", lambda v: ["odds", "rockets", "--simulate", "1", "--seed", str(v)], S64,
          S64 + 1, f"seed: expected an integer <= {S64}, got {S64 + 1}"),
    # odds table and chart
    Bound("table --strengths values",
          lambda v: ["odds", "table", "--mix", "1d6", "--strengths", f"0..{v - 1}",
                     "--defenses", "1"], RANGE, RANGE + 1,
          f"--strengths: expected a range LO..HI with LO <= HI (at most {RANGE} values), "
          f"got '0..{RANGE}'"),
    Bound("table --defenses values",
          lambda v: ["odds", "table", "--mix", "1d6", "--strengths", "0",
                     "--defenses", f"1..{v}"], RANGE, RANGE + 1,
          f"--defenses: expected a range LO..HI with LO <= HI (at most {RANGE} values), "
          f"got '1..{RANGE + 1}'"),
    Bound("table --committed", lambda v: ["odds", "table", "--mix", "1d6", "--strengths", "0",
                                          "--defenses", "1", "--committed", str(v)],
          MAX_COMMITTED, MAX_COMMITTED + 1,
          f"--committed: expected an integer <= {MAX_COMMITTED}, got {MAX_COMMITTED + 1}"),
    Bound("table --committed lower", lambda v: ["odds", "table", "--mix", "1d6", "--strengths",
                                                "0", "--defenses", "1", "--committed", str(v)],
          0, -1, "--committed: expected an integer >= 0, got -1"),
    Bound("chart --strengths", None, q.CHART_MAX_STRENGTHS, q.CHART_MAX_STRENGTHS + 1,
          f"--strengths: a printable page holds at most {q.CHART_MAX_STRENGTHS} values, got "
          f"{q.CHART_MAX_STRENGTHS + 1}", call=lambda n: q.chart_ranges(f"0..{n - 1}", "3..16")),
    Bound("chart --defenses", None, q.CHART_MAX_DEFENSES, q.CHART_MAX_DEFENSES + 1,
          f"--defenses: a printable page holds at most {q.CHART_MAX_DEFENSES} values, got "
          f"{q.CHART_MAX_DEFENSES + 1}", call=lambda n: q.chart_ranges("0..12", f"1..{n}")),
    # Maneuver's odds
    Bound("hex --attack units",
          lambda n: ["hex", "odds", "combat", "--attack", ",".join(["1"] * n), "--defend", "3"],
          hex_odds.MAX_UNITS, hex_odds.MAX_UNITS + 1,
          f"--attack: expected 1 to {hex_odds.MAX_UNITS} units, got {hex_odds.MAX_UNITS + 1}"),
    Bound("hex --defend strength",
          lambda v: ["hex", "odds", "combat", "--attack", "4", "--defend", str(v)],
          hex_odds.MAX_STRENGTH, hex_odds.MAX_STRENGTH + 1,
          f"--defend: a unit's strength must be 0..{hex_odds.MAX_STRENGTH}, got "
          f"{hex_odds.MAX_STRENGTH + 1}"),
    Bound("hex --simulate", lambda v: ["hex", "odds", "combat", "--attack", "4", "--defend", "3",
                                       "--simulate", str(v)],
          hex_odds.MAX_SIMULATE, hex_odds.MAX_SIMULATE + 1,
          f"--simulate: expected an integer in 1..{hex_odds.MAX_SIMULATE}, got "
          f"{hex_odds.MAX_SIMULATE + 1}"),
    Bound("hex --seed", lambda v: ["hex", "odds", "combat", "--attack", "4", "--defend", "3",
                                   "--simulate", "1", "--seed", str(v)], S64, S64 + 1,
          f"--seed: expected an integer in 0..{S64}, got {S64 + 1}"),
    Bound("hex chart --differences columns", None, 21, 22,
          "--differences: expected LO < HI within -30..30, at most 21 columns, got '-10..11'",
          call=lambda n: hex_q.parse_differences(f"-10..{n - 11}")),
    Bound("hex chart --differences top", None, 30, 31,
          "--differences: expected LO < HI within -30..30, at most 21 columns, got '20..31'",
          call=lambda v: hex_q.parse_differences(f"20..{v}")),
    Bound("hex chart --differences bottom", None, -30, -31,
          "--differences: expected LO < HI within -30..30, at most 21 columns, got '-31..-20'",
          call=lambda v: hex_q.parse_differences(f"{v}..-20")),
    # the workbench's server
    Bound("ui --port", lambda v: ["ui", "--no-warmup", "--port", str(v)], 65535, 65536,
          "--port: expected 1..65535, got 65536"),
    Bound("ui --port lower", lambda v: ["ui", "--no-warmup", "--port", str(v)], 1, 0,
          "--port: expected 1..65535, got 0"),
]  # fmt: skip


def _run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        main(argv)
    except SystemExit as e:
        return int(e.code or 0), capsys.readouterr().err
    return 0, capsys.readouterr().err


@pytest.fixture
def stubbed(monkeypatch, tmp_path):
    """No real work at a bound: Maneuver's Monte Carlo kernel counts nothing, the server
    does not start, files go to ``tmp_path``."""
    import uvicorn

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(hex_odds, "count_results", lambda a, d, n, rng, counts: None)
    started = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.append(kw["port"]))
    return started


@pytest.mark.parametrize("b", BOUNDS, ids=[b.id for b in BOUNDS])
def test_the_bound_runs_and_the_next_value_stops_in_one_line(b, stubbed, capsys):
    if b.call is not None:
        b.call(b.at)
        if b.argv is None:
            with pytest.raises(UsageError) as e:
                b.call(b.beyond)
            assert str(e.value) == b.message
            return
    else:
        code, err = _run(b.argv(b.at), capsys)
        assert code == 0 and "error" not in err, err
    code, err = _run(b.argv(b.beyond), capsys)
    assert code == 2 and err == f"error: {b.message}\n"
    if b.id.startswith("ui --port"):
        assert stubbed == [b.at]  # the bound started the server; the next value did not
