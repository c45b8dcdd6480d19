"""Maneuver's studies with their defaults: the variant study, the handicap ladders, the Capital, a what-if.

    python -m benchmarks hex-studies [--quick] [--games N] [--ladder-games N]
        [--setup-games N] [--whatif-games N] [--seed 1]

Each study runs as its command (``manoeuvre-sim hex ...``, in this process) into a
temporary directory (``OUT`` in the summaries), and its summary (the ``summary.txt`` the
command writes, the text it prints) goes into benchmarks/RESULTS-hex-studies.md with the command and its seconds:

* ``hex balance``: every advanced-rule variant (the basic game, the borders
  ``large_blue``/``large_red`` of rule [13] 1, army quality ``back:front``/``front:back``,
  step losses, step replacements) x the 4 ordered pairings of ``capital`` and ``attrition``
  (issue 25 part 2); every variant replays the same seeds per pairing;
* ``hex ladder`` for the two asymmetries of the game (issue 25 part 3): the large blue
  side, handicapped one unit at a time onto its weak side, in scenario order and cavalry
  first; and blue always moving first; the rung k* where blue's score is 1/2;
* ``hex setup`` (issue 25 part 4): the first player's win rate by where each Capital
  stood, with the ``capital`` player's own choices and with every legal hex
  (``--capital random``, a study device, not a rule);
* ``hex whatif`` (issue 25 part 5): blue's six infantry at 5 instead of 4 on their front
  side, paired game by game with the base scenario.

The scenario is the built-in authored reconstruction, not the printed counters: the
figures describe the scripted players on it (docs/hex.md reads them).
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, Parser, Run


def studies(args) -> list[tuple[str, list[str]]]:
    """(title, the command's arguments after ``manoeuvre-sim``) of each study."""
    seed = ["--seed", str(args.seed)]
    return [
        ("The variant study", ["hex", "balance", "--games-per-pairing", str(args.games), *seed]),
        ("The handicap ladder: the large blue side",
         ["hex", "ladder", "--border", "large_blue", "--games", str(args.ladder_games), *seed]),
        ("The handicap ladder: the large blue side, cavalry and artillery first",
         ["hex", "ladder", "--border", "large_blue", "--order", "cavalry,artillery,infantry",
          "--games", str(args.ladder_games), *seed]),
        ("The handicap ladder: blue always moves first",
         ["hex", "ladder", "--first", "blue", "--games", str(args.ladder_games), *seed]),
        ("Where the Capital stands: the `capital` player's choices",
         ["hex", "setup", "--games", str(args.setup_games), *seed]),
        ("Where the Capital stands: every legal hex",
         ["hex", "setup", "--games", str(args.setup_games), "--capital", "random", *seed]),
        ("What if blue's infantry were stronger",
         ["hex", "whatif", "--set", "blue/infantry/strength=5", "--games-per-pairing",
          str(args.whatif_games), *seed]),
    ]  # fmt: skip


def run_study(argv: list[str], out: Path) -> tuple[list[str], float]:
    """The study's summary lines and its seconds (the command run by click, in this
    process; it fails the benchmark if it fails)."""
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    t = time.perf_counter()
    res = CliRunner().invoke(cli, [*argv, "--quiet", "--out", str(out)])
    secs = time.perf_counter() - t
    if res.exit_code != 0:
        raise SystemExit(f"manoeuvre-sim {shlex.join(argv)}: exit {res.exit_code}\n{res.output}")
    text = (out / "summary.txt").read_text(encoding="utf-8").rstrip("\n")
    # the paths of this machine's run are no figures: the study's directory, the checkout
    text = text.replace(str(out), "OUT").replace(f"{ROOT}/", "")
    return text.split("\n"), secs


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--games", 5000, 100, "hex balance: games per variant and pairing")
    ap.size("--ladder-games", 5000, 100, "hex ladder: games per rung")
    ap.size("--setup-games", 40000, 1000, "hex setup: games")
    ap.size("--whatif-games", 10000, 200, "hex whatif: games per pairing and scenario")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from manoeuvre_sim.hexgame.scenario import load_scenario

    run = Run(args, ap.name)
    tmp = Path(tempfile.mkdtemp(prefix="bench-hex-studies-"))
    body = []
    try:
        for i, (title, cmd) in enumerate(studies(args)):
            print(f"manoeuvre-sim {shlex.join(cmd)} ...", file=sys.stderr, flush=True)
            summary, secs = run_study(cmd, tmp / f"study-{i}")
            body += [f"## {title}", "", "```sh", f"manoeuvre-sim {shlex.join(cmd)}", "```", "",
                     f"{secs:.0f} s on all threads.", "", "```text", *summary, "```", ""]  # fmt: skip
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sc = load_scenario(None)
    lines = run.header("Maneuver's studies", data_hash=sc.sha256, extra=[
        f"scenario `{sc.name}` (the data hash: its sha256), the built-in authored "
        "reconstruction, not the printed counters"])  # fmt: skip
    run.write(lines + body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
