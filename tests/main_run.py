"""The command line run in the test's own process, as a user types it: what the tests of
every command group share."""

from __future__ import annotations


def run(args, capsys) -> tuple[int, str, str]:
    """``manoeuvre-sim ARGS`` through its entry point (``cli.main.main``): its exit code (a
    user's error exits 2), its stdout and its stderr (pytest's ``capsys``)."""
    from manoeuvre_sim.cli.main import main

    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err
