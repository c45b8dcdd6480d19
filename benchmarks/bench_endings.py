"""Why games end at nightfall: the endings mix against play strength and rule options, traced games read.

    python -m benchmarks endings [--quick] [--players random,...,search:16@4]
        [--games 1000] [--slow-games 8] [--option-players tuned,search:16@4]
        [--trace-player search:64] [--traces 20] [--seed 1] [--threads 0]
        [--rows-from DIR@LABEL ...]

Issue 26 part 4: the attrition / nightfall mix against play strength and against the rule
options that speed fighting, and 20 traced games read (docs/endings.md reads the figures).

For each player of ``--players`` (both seats alike), the default study's pairings: every
ordered pairing of the 8 base armies (``--armies``), seeded as ``manoeuvre-sim balance``
seeds them (``study.pairing_seed``: the master seed and the two armies' names), games 0 ..
N-1 of each pairing — N is ``--games``, or ``--slow-games`` for a search player, or the
``@N`` after a player (``search:16@4``: the first 4 games of each of the 64 pairings, the
same seeds the fast players' rows begin with). Each row: the share of attrition (rule
2.1), nightfall (rules 2.2-2.3) and turn-limit endings with 95 % Wilson intervals, mean
game turns, units lost per side, and how close the sides came to the fifth elimination at
nightfall. Then the players of ``--option-players`` again with ``--tournament-hand``,
``--advance-to-contact`` and both. Then ``--traces`` games of ``--trace-player`` traced
(``runner.traced_game``; game 0 of pairings spread over the 64) and counted
(``analyses/manoeuvre/endings.py trace_counts``).

``--rows-from DIR@LABEL`` (repeatable) adds the row of policy LABEL read from the records of
the balance study DIR (its games 0 .. N-1 of each pairing are the games this benchmark
would play), for a player too slow to play here again.

Writes benchmarks/RESULTS-endings.md (``--out``) atomically after every finished row, so
an interrupted run keeps what it finished (a ``--quick`` run writes a temporary file and
prints it). A player's list is an option so that a new player joins the tables with
``--players ...,NEWPLAYER@N``; ``--add-players`` plays only the new ones and puts their rows
into the file as it is, ``--traces-only`` redoes the traced games alone (each says so in a
line of the file's header: the whole file is then no longer one command's).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Parser, Run, git_commit, load, results_path
from benchmarks.endings_traces import trace_games, trace_lines

TITLE = "Why games end at nightfall: endings against play strength and rule options"
PLAYERS = "random,simple,attritional,territorial,balanced,tuned,search:4,search:16,search:64@4"
OPTION_PLAYERS = "tuned,search:16"
OPTIONS = (
    ("base rules", {}),
    ("tournament hand", {"tournament_hand": True}),
    ("Advance to Contact", {"advance_to_contact": True}),
    ("both", {"tournament_hand": True, "advance_to_contact": True}),
)


def parse_players(text: str, games: int, slow: int, where: str) -> list[tuple[str, int]]:
    """``PLAYER`` or ``PLAYER@GAMES`` items: (spec, games per pairing); a search player
    without ``@`` plays ``slow``. A bad item is a UsageError naming ``where``."""
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.engine.policy_ids import is_search
    from manoeuvre_sim.manoeuvre.runner import check_policy

    out = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            raise UsageError(f"{where}: an empty player in {text!r}")
        spec, _, n = item.partition("@")
        check_policy(spec, where)
        if n:
            try:
                k = int(n)
            except ValueError:
                k = 0
            if k < 1:
                raise UsageError(f"{where}: {item!r}: expected PLAYER@GAMES, GAMES >= 1")
        else:
            k = slow if is_search(spec) else games
        out.append((spec, k))
    return out


def pct(s: tuple[float, float, float], digits: int = 1) -> str:
    m, lo, hi = s
    if m != m:  # nan
        return "—"
    return f"{100 * m:.{digits}f} % [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"


def play_row(armies, spec: str, games: int, seed: int, threads: int, options: dict):
    """The default study's pairings under ``spec`` (games 0 .. games-1 of each): its game
    records, manifest and seconds."""
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.studies import balance as B

    t0 = time.perf_counter()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 5 or done == total:
            last[0] = now
            print(f"  {spec}: {done:,}/{total:,} games, {now - t0:.0f} s", file=sys.stderr)

    res = B.run(
        "manoeuvre", list(armies), games_per_pairing=games, policy=spec, seed=seed, progress=progress,
        threads=threads, options=RuleOptions(**options), block=min(games, 1000),
    )  # fmt: skip
    if res.interrupted:
        raise KeyboardInterrupt
    return res.games, res.manifest, time.perf_counter() - t0


def ending_cells(e: dict) -> list[str]:
    t = e["turns"]
    return [
        f"{e['games']:,}", pct(e["attrition"], 2), pct(e["nightfall"], 2),
        pct(e["turn_limit"], 2), f"{t[0]:.1f} [{t[1]:.1f}, {t[2]:.1f}]",
        f"{e['lost_per_side']:.2f}", f"{e['winner_kills']:.2f}", f"{e['loser_kills']:.2f}",
        pct(e["one_short"]),
    ]  # fmt: skip


HEAD = (
    "| games | attrition | nightfall | turn limit | mean game turns | units lost per side | "
    "nightfall: winner's eliminations | loser's | nightfall: a side at 4 |"
)
ALIGN = "|---:|---|---|---|---|---:|---:|---:|---|"


def closeness_lines(rows: list[tuple[str, dict]]) -> list[str]:
    out = [
        "| player | nightfall games | leading side at 0 / 1 / 2 / 3 / 4 eliminations | "
        "winner at 0 / 1 / 2 / 3 / 4 | loser at 0 / 1 / 2 / 3 / 4 |",
        "|---|---:|---|---|---|",
    ]
    for name, e in rows:
        cells = [" / ".join(f"{100 * x:.1f}" for x in e[k]) for k in ("lead_kills", "winner_at",
                                                                     "loser_at")]  # fmt: skip
        out.append(f"| `{name}` | {e['nightfall_games']:,} | " + " | ".join(cells) + " |")
    return out


TRACED = "## Traced games"
STRENGTH = "## Endings against play strength"
CLOSE = "| player | nightfall games |"


def study_row(text: str, armies: list[str], seed: int):
    """``DIR@LABEL``: the records of policy LABEL in the balance study DIR (its games 0 ..
    N-1 of each pairing are the games this script would play with ``--seed``): (label, N,
    games, manifest). A study of other armies, seed or first game is a UsageError."""
    import json

    import pandas as pd

    from manoeuvre_sim.core.errors import UsageError

    d, _, label = text.partition("@")
    path = Path(d)
    if not label or not (path / "manifest.json").exists():
        raise UsageError(f"--rows-from: {text!r}: expected DIR@LABEL, DIR a balance study")
    m = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    names = [a["name"] for a in m.get("armies", [])]
    if label not in [p["label"] for p in m.get("policies", [])]:
        raise UsageError(f"--rows-from: {path}: no policy {label!r}")
    if m.get("seed") != seed or m.get("first_game", 0) or sorted(names) != sorted(armies):
        raise UsageError(f"--rows-from: {path}: seed {m.get('seed')}, first game "
                         f"{m.get('first_game', 0)}, armies {names}: expected seed {seed}, "
                         f"first game 0 and {armies}")  # fmt: skip
    from manoeuvre_sim.manoeuvre import RULES_VERSION

    if m.get("rules_version") != RULES_VERSION:
        raise UsageError(f"--rows-from: {path}: rules version {m.get('rules_version')}, "
                         f"expected {RULES_VERSION}")  # fmt: skip
    g = pd.read_parquet(path / "games.parquet")
    return label, m["games_per_pairing"], g[g["label"] == label].reset_index(drop=True), m


def _insert_rows(lines: list[str], start: str, rows: dict[str, str]) -> list[str]:
    """The table whose header line begins with ``start`` (after the line ``STRENGTH``):
    its rows of the same player replaced, the others appended at its end."""
    i = lines.index(STRENGTH)
    i = next(k for k in range(i, len(lines)) if lines[k].startswith(start)) + 2
    j = i
    while j < len(lines) and lines[j].startswith("|"):
        j += 1
    keep = [x for x in lines[i:j] if x.split(" | ")[0][2:] not in rows]
    return lines[:i] + keep + list(rows.values()) + lines[j:]


def later_note(run: Run, what: str) -> str:
    """A header line for a partial update of the file: what, by which command, when."""
    return (f"- {what} by `{run.command}` on {run.started:%Y-%m-%d %H:%M} UTC at commit "
            f"{git_commit()}; 1-minute load average {run.load0:.2f} at the start, "
            f"{load():.2f} at the end")  # fmt: skip


def header_end(lines: list[str]) -> int:
    """The index of the blank line that ends the header's bullets."""
    return next(k for k in range(2, len(lines)) if not lines[k].strip())


def study_rows(args, armies: list[str]) -> list[tuple[str, int, dict, str, dict]]:
    """The rows of ``--rows-from``: (label, N, endings, seconds "—", manifest) each."""
    from manoeuvre_sim.analyses.manoeuvre.endings import endings_row

    out = []
    for text in args.rows_from:
        label, n, g, m = study_row(text, armies, args.seed)
        out.append((label, n, endings_row(g), "—", m))
    return out


def add_rows(args, run: Run, armies: list[str], out: Path, studies: list) -> int:
    """Play the players of ``--add-players`` (and read the studies of ``--rows-from``) and
    put their rows into the tables "Endings against play strength" of ``out``; the other
    rows, the option table and the traced games are kept. A header line says so."""
    from manoeuvre_sim.analyses.manoeuvre.endings import endings_row
    from manoeuvre_sim.core.fileio import atomic_write

    npair = len(armies) ** 2
    new = [r[:4] for r in studies]
    for spec, n in parse_players(args.add_players, args.games, args.slow_games,
                                 "--add-players") if args.add_players else []:  # fmt: skip
        print(f"{spec}: {n} games per pairing ...", file=sys.stderr)
        g, _, secs = play_row(armies, spec, n, args.seed, args.threads, {})
        new.append((spec, n, endings_row(g), f"{secs:.0f}"))
    lines = out.read_text(encoding="utf-8").split("\n")
    rows = {f"`{s}`": f"| `{s}` | {e['games'] // npair} | " + " | ".join(ending_cells(e))
            + f" | {secs} |" for s, _, e, secs in new}  # fmt: skip
    lines = _insert_rows(lines, "| player | N per pairing |", rows)
    close = dict(zip(rows, closeness_lines([(s, e) for s, _, e, _ in new])[2:], strict=True))
    lines = _insert_rows(lines, CLOSE, close)
    studies = "".join(f"; the row of `{x.partition('@')[2]}` read from the records of the "
                      f"balance study `{x.partition('@')[0]}` (seconds: —)"
                      for x in args.rows_from)  # fmt: skip
    k = header_end(lines)
    lines[k:k] = [later_note(run, "rows added later") + studies]
    with atomic_write(out, encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"wrote {out} (rows {', '.join(rows)})", file=sys.stderr)
    return 0


def traces_only(args, run: Run, armies: list[str], out: Path) -> int:
    """Replace the section ``## Traced games`` of ``out`` (to the end of the file) with a
    new tracing; a header line says so."""
    from manoeuvre_sim.core.fileio import atomic_write

    text = out.read_text(encoding="utf-8")
    head = text.split("\n" + TRACED + "\n", 1)[0].rstrip("\n").split("\n")
    games = trace_games(armies, args.trace_player, args.traces, args.seed)
    body = trace_lines(args.trace_player, games, args.seed)
    k = header_end(head)
    head[k:k] = [later_note(run, "the traced games redone")]
    with atomic_write(out, encoding="utf-8") as f:
        f.write("\n".join([*head, "", TRACED, "", *body]) + "\n")
    print(f"wrote {out} (traced games)", file=sys.stderr)
    return 0


def parser() -> Parser:
    ap = Parser(__file__, __doc__)
    ap.size("--players", PLAYERS, "random,tuned,search:2@1", "PLAYER or PLAYER@GAMES, "
            "comma-separated", type=str)  # fmt: skip
    ap.size("--games", 1000, 4, "games per pairing (fast players)")
    ap.size("--slow-games", 8, 1, "games per pairing (search)")
    ap.size("--option-players", OPTION_PLAYERS, "tuned", "the players of the rule-option rows",
            type=str)  # fmt: skip
    ap.size("--trace-player", "search:64", "tuned", "the player of the traced games", type=str)
    ap.size("--traces", 20, 2, "traced games")
    ap.size("--armies", "", "France,Russia,Austria", "comma-separated ('': the 8 base armies)",
            type=str)  # fmt: skip
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0, help="0: all cores")
    ap.add_argument(
        "--traces-only", action="store_true",
        help="replace only the section 'Traced games' of --out (its tables are kept)",
    )  # fmt: skip
    ap.add_argument(
        "--add-players", default="",
        help="play only these players (PLAYER[@GAMES], comma-separated) and add their rows "
        "to --out's strength tables, keeping the other rows",
    )  # fmt: skip
    ap.add_argument(
        "--rows-from", action="append", default=[], metavar="DIR@LABEL",
        help="add the row of policy LABEL from the records of the balance study DIR "
        "(seeded as this benchmark seeds its games; repeatable)",
    )  # fmt: skip
    return ap


def check_args(args, out: Path, armies: list[str]) -> tuple[list, list, list]:
    """The players, the option players and the rows of ``--rows-from`` (read now, so that a
    bad study is refused before any game); a bad option is a UsageError."""
    from manoeuvre_sim.core.errors import UsageError

    for name in ("games", "slow_games"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')}: expected a positive number")
    if args.traces < 0:
        raise UsageError("--traces: expected 0 or more")
    players = parse_players(args.players, args.games, args.slow_games, "--players")
    opt_players = parse_players(args.option_players, args.games, args.slow_games,
                                "--option-players")  # fmt: skip
    if args.traces:
        parse_players(args.trace_player, 1, 1, "--trace-player")
    if args.add_players:
        parse_players(args.add_players, args.games, args.slow_games, "--add-players")
    if args.add_players and not out.exists():
        raise UsageError(f"--add-players: needs {out} written")
    if args.traces_only and not (args.traces and out.exists()):
        raise UsageError(f"--traces-only: needs --traces above 0 and {out} written")
    return players, opt_players, study_rows(args, armies)


class Report:
    """The results file of a full run, rewritten whole after every finished row."""

    def __init__(self, run: Run, args, armies: list[str], out: Path) -> None:
        self.run, self.args, self.armies, self.out = run, args, armies, out
        self.manifests: list[dict] = []
        self.strength: list[tuple[str, dict, str]] = []
        self.options_rows: list[tuple[str, str, dict, float]] = []
        self.traces: list[str] = []
        self.status = "under way"

    def lines(self) -> list[str]:
        npair = len(self.armies) ** 2
        hashes = ", ".join(sorted({m["data_hash"] for m in self.manifests}))
        L = self.run.header(TITLE, data_hash=hashes or None, extra=[
            f"seed: {self.args.seed} (each pairing's games seeded by `study.pairing_seed(seed, "
            "army a, army b)`, as `manoeuvre-sim balance` seeds them)",
            f"run {self.status}",
        ]) + [
            f"Each player plays both seats of every ordered pairing of {', '.join(self.armies)} "
            f"({npair} pairings, mirrors included: the default study's), games 0 .. N-1 of "
            "each, seeded as the default study; a search player plays the first few games of "
            "each pairing only (N below). Shares with 95 % Wilson intervals; mean game turns "
            "with a normal interval. *Turn limit*: the safety limit of 200 game turns "
            "(interpretation 4), scored as nightfall. *Units lost per side*: eliminated units, "
            "both sides averaged. *Nightfall: winner's / loser's eliminations*: the enemy "
            "units each had eliminated when a decided game reached nightfall (means). *A side "
            "at 4*: nightfall games in which a side had eliminated 4, one short of an "
            "attrition victory (rule 2.1). A row read from a balance study's records "
            "(`--rows-from`) has no seconds (—).",
            "",
            STRENGTH,
            "",
            "| player | N per pairing | " + HEAD[2:] + " seconds |",
            "|---|---:" + ALIGN + "---:|",
        ]  # fmt: skip
        for name, e, secs in self.strength:
            L.append(f"| `{name}` | {e['games'] // npair} | " + " | ".join(ending_cells(e))
                     + f" | {secs} |")  # fmt: skip
        if self.strength:
            L += ["", "At nightfall, the eliminations of the side ahead, of the winner and of "
                  "the loser, in per cent of the nightfall games (decided games for winner "
                  "and loser):", "",
                  *closeness_lines([(n, e) for n, e, _ in self.strength])]  # fmt: skip
        L += ["", "## Endings against the rule options that speed fighting", "",
              "`--tournament-hand` (rule 3: each player chooses its 5 starting cards) and "
              "`--advance-to-contact` (Distant Lands: 3 moves in game turn 1, 2 in turn 2), "
              "alone and together, on the same pairings and seeds.", "",
              "| player | rules | " + HEAD[2:] + " seconds |", "|---|---" + ALIGN + "---:|"]  # fmt: skip
        for name, label, e, secs in self.options_rows:
            L.append(f"| `{name}` | {label} | " + " | ".join(ending_cells(e)) + f" | {secs:.0f} |")
        return L + ["", TRACED, "", *(self.traces or ["(not yet run)"])]

    def write(self) -> None:
        from manoeuvre_sim.core.fileio import atomic_write

        with atomic_write(self.out, encoding="utf-8") as f:
            f.write("\n".join(self.lines()) + "\n")


def full_run(args, run: Run, armies: list[str], out: Path, plan: tuple) -> None:
    from manoeuvre_sim.analyses.manoeuvre.endings import endings_row

    players, opt_players, studies = plan
    rep = Report(run, args, armies, out)
    done: dict[tuple, tuple[dict, float]] = {}  # a row played once (base rules twice named)

    def row(spec: str, n: int, opts: dict, label: str) -> tuple[dict, float]:
        key = (spec, n, tuple(sorted(opts.items())))
        if key not in done:
            print(f"{spec}, {label}: {n} games per pairing ...", file=sys.stderr)
            g, m, secs = play_row(armies, spec, n, args.seed, args.threads, opts)
            rep.manifests.append(m)
            done[key] = (endings_row(g), secs)
        return done[key]

    try:
        for spec, n in players:
            e, secs = row(spec, n, {}, "base rules")
            rep.strength.append((spec, e, f"{secs:.0f}"))
            rep.write()
        for label, _, e, secs, m in studies:
            rep.strength.append((label, e, secs))
            rep.manifests.append(m)
        for spec, n in opt_players:
            for label, opts in OPTIONS:
                rep.options_rows.append((spec, label, *row(spec, n, opts, label)))
                rep.write()
        if args.traces:
            games = trace_games(armies, args.trace_player, args.traces, args.seed)
            rep.traces = trace_lines(args.trace_player, games, args.seed)
        rep.status = "complete"
    except KeyboardInterrupt:
        rep.status = "interrupted: the rows below are the finished ones"
        print("interrupted: writing the finished rows", file=sys.stderr)
    rep.write()


def main(argv: list[str] | None = None) -> int:
    from manoeuvre_sim.core.errors import UsageError
    from manoeuvre_sim.manoeuvre.model.load import load_builtin_armies

    args = parser().parse_args(argv)
    run = Run(args, "endings")
    tmp = None
    if args.out is not None:
        out = args.out
    elif args.quick:  # written as the run goes, printed at the end, removed
        tmp = Path(tempfile.mkdtemp(prefix="bench-endings-"))
        out = tmp / "RESULTS-endings.md"
    else:
        out = results_path("endings")
    armies = [x.strip() for x in args.armies.split(",") if x.strip()] or [
        a.name for a in load_builtin_armies()
    ]
    try:
        plan = check_args(args, out, armies)
        if args.add_players:
            return add_rows(args, run, armies, out, plan[2])
        if args.traces_only:
            return traces_only(args, run, armies, out)
        full_run(args, run, armies, out, plan)
    except UsageError as e:
        print(f"endings: {e}", file=sys.stderr)
        return 2
    print(f"wrote {out}", file=sys.stderr)
    if tmp is not None:
        print(out.read_text(encoding="utf-8"))
        out.unlink()
        tmp.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
