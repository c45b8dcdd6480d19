"""Bad option values on the command line (issue 30 item 5): each error is one line naming
the option as the user typed it, the value, and what was expected; a misspelt name gets a
"did you mean"; never a traceback, and nothing is drawn or played before the error."""

from __future__ import annotations

import pytest

from manoeuvre_sim.cli.main import main

# (id, arguments, substrings the one-line message must contain, substrings it must not)
CASES = [
    ("hex-ladder-games", ["hex", "ladder", "--games", "-5"],
     ["--games: expected a positive number, got -5"], ["--games-per-pairing"]),
    ("hex-ladder-block", ["hex", "ladder", "--block", "0"],
     ["--block: expected a positive number, got 0"], ["--max-games"]),
    ("hex-simulate-games", ["hex", "simulate", "--games", "0", "--out", "x.parquet"],
     ["--games: expected a positive number, got 0"], ["--block"]),
    ("hex-simulate-first-game", ["hex", "simulate", "--first-game", "-3", "--out", "x.parquet"],
     ["--first-game: expected 0 or more, got -3"], ["--seed"]),
    ("hex-tournament-games", ["hex", "tournament", "--games", "0"],
     ["--games: expected a positive number, got 0"], ["--seed", "--threads"]),
    ("balance-policy", ["balance", "--policy", "tunde"],
     ["--policy: unknown policy 'tunde'; did you mean 'tuned'?"], []),
    ("balance-policy-b", ["balance", "--policy-b", "balanse"],
     ["--policy-b: unknown policy 'balanse'; did you mean 'balanced'?"], []),
    ("balance-armies", ["balance", "--armies", "France,Prusia"],
     ["--armies 'Prusia': unknown army; did you mean 'Prussia'?"], []),
    ("simulate-army-a", ["simulate", "--army-a", "Frnace", "--army-b", "Russia", "--out", "x.csv"],
     ["--army-a 'Frnace': unknown army; did you mean 'France'?"], []),
    ("simulate-army-b", ["simulate", "--army-a", "France", "--army-b", "Atlantis", "--out", "x.csv"],
     ["--army-b 'Atlantis': unknown army; expected one of"], ["did you mean"]),
    ("cards-army", ["cards", "--army", "Spian"],
     ["--army 'Spian': unknown army; did you mean 'Spain'?"], []),
    ("cards-games", ["cards", "--army", "Spain", "--games-per-variant", "0"],
     ["--games-per-variant: expected a positive number, got 0"], []),
    ("report-from", ["report", "--from", "reports/nosuchdir", "--out", "r.pdf"],
     ["--from reports/nosuchdir: does not exist"], []),
    ("tournament-games", ["tournament", "--games", "0"],
     ["--games: expected a positive number, got 0"], ["%|", "compiling"]),
    ("tournament-armies", ["tournament", "--armies", "Rusia,France"],
     ["--armies 'Rusia': unknown army; did you mean 'Russia'?"], []),
    ("ui-port", ["ui", "--port", "70000", "--no-warmup"],
     ["--port: expected 1..65535, got 70000"], ["workbench:"]),
]  # fmt: skip


@pytest.mark.parametrize("args,needles,absent", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_value_is_named_as_typed(args, needles, absent, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing the command might write lands in the repository
    with pytest.raises(SystemExit) as ex:
        main(args)
    assert ex.value.code == 2
    out = capsys.readouterr()
    err = out.err.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err  # one line, nothing drawn before it
    assert err.startswith("error: ")
    for n in needles:
        assert n in err, f"{n!r} not in message:\n{err}"
    for n in absent:
        assert n not in err, f"{n!r} in message:\n{err}"


class Stop(Exception):
    pass


def test_tournament_says_plainly_that_it_rounds_the_games_up(capsys, monkeypatch):
    """--games 50 with 8 armies plays 64 per pair (each army in both seats equally often):
    said before play, not only in the table's header."""
    from manoeuvre_sim.manoeuvre import styles as T
    from manoeuvre_sim.studies import tournament

    def stop(*a, **kw):
        raise Stop

    monkeypatch.setattr(tournament, "run_spec", stop)
    with pytest.raises(Stop):
        main(["tournament", "--games", "50", "--quiet"])
    err = capsys.readouterr().err
    assert "--games 50 rounded up to 64 per pair" in err
    assert "multiples of 16 (4 per army and seat)" in err
    assert T.games_per_pair(50, 8) == 64 and T.games_per_pair(64, 8) == 64
    with pytest.raises(Stop):
        main(["tournament", "--games", "64", "--quiet"])
    assert "rounded" not in capsys.readouterr().err


def test_cards_says_the_total_and_the_old_option_warns(capsys, monkeypatch):
    """``cards`` counts its games per variant: the total (base and every card variant) is
    said before play; ``--games`` still works but says what it counts."""
    from manoeuvre_sim.cli import cards as CC

    def stop(*a, **kw):
        raise Stop

    monkeypatch.setattr(CC, "run_and_write", stop)
    with pytest.raises(Stop):
        main(["cards", "--army", "France", "--games", "700"])
    err = capsys.readouterr().err
    assert "warning: --games is deprecated" in err and "--games-per-variant 700" in err
    assert "28,000 games: the base and 39 card variants, 700 each (50 per opponent and seat" in err
    with pytest.raises(Stop):
        main(["cards", "--army", "France", "--games-per-variant", "70", "--mode", "observed"])
    err = capsys.readouterr().err
    assert "deprecated" not in err
    assert "70 games (5 per opponent and seat, 7 opponents)" in err
    with pytest.raises(SystemExit):
        main(["cards", "--army", "France", "--games", "7", "--games-per-variant", "7"])
    assert "give one of them" in capsys.readouterr().err
