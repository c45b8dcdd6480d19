"""What the styles neglect, before and after a change to the players (issue #16, item 3).

    .venv/bin/python benchmarks/bench_neglect.py --baseline REV [--games 100]
        [--strength-games 8000] [--policies attritional,territorial,balanced]
    .venv/bin/python benchmarks/bench_neglect.py --baseline REV --strength-only \
        --policies attritional,territorial,balanced,tuned     # print the strength rows only

Writes the section "What the styles neglect" of benchmarks/RESULTS-players.md (between its
markers; bench_players.py keeps it when it rewrites the rest):

1. the neglected-cards table (``manoeuvre/studies/neglect.py``) of each style as the players of
   ``--baseline`` play it and as the players of this checkout play it, on the same seeds;
2. the strength of each changed style: this checkout's style against the baseline's, on
   every army mirrored, both seatings (``manoeuvre_sim.studies.tournament``), with a 95 % interval.
   ``--step REV`` (repeatable) adds the same comparison for one commit against its parent,
   so each fix's own effect is measured.

Both versions of a style must play *in the same game*, so the comparison runs in a scratch
copy of this checkout in which the baseline's ``engine/players`` package is added beside
the current one as ``players_base`` and its styles are registered as the extra policies
``attritional@base``, ``territorial@base`` and ``balanced@base``: the rules engine is this
checkout's, only the decisions differ. The scratch copy compiles with its own numba cache
(a few minutes) and is deleted afterwards; nothing of it stays in the repository. A
``--quick`` run keeps its scratch copy and that cache in build/bench-neglect/ (ignored by
git), at the same place each time, so that only its first run compiles.

The registration is done in the worker process before anything is compiled: the game
context's player (``game.new_context`` takes it from ``choose_entry``) becomes a ``choose``
that sends the extra policy ids to the baseline's ``choose_heuristic`` and every other id to
the current ``choose``. It depends on the
signatures of those two functions and on ``players.dispatch``'s ``POLICY_NAMES`` /
``POLICY_PARAMS`` and ``runner.POLICIES``; if they change, update ``_install_base``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, Parser, Run

NEEDS = "a baseline commit (--baseline REV)"
QUICK_DIR = ROOT / "build" / "bench-neglect"  # a quick run's scratch copy and numba cache
STYLES = ("attritional", "territorial", "balanced", "tuned")  # registered as <style>@base
DEFAULT_POLICIES = ("attritional", "territorial", "balanced")
KEY_CARDS = ("Committed Attack", "Withdraw", "Unit card: withdraw roll", "Skirmish")


# --- the scratch copy -----------------------------------------------------------------------


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def _extract_players(rev: str, dest: Path, package: str) -> None:
    """``manoeuvre_sim/manoeuvre/engine/players`` of ``rev`` as the package ``dest`` (imports
    rewritten to ``manoeuvre_sim.manoeuvre.engine.<package>``)."""
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(
            ["git", "archive", rev, "manoeuvre_sim/manoeuvre/engine/players"],
            cwd=ROOT, check=True, capture_output=True,
        ).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
        src = Path(tmp) / "manoeuvre_sim" / "manoeuvre" / "engine" / "players"
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        for f in src.glob("*.py"):
            text = f.read_text(encoding="utf-8")
            if package != "players":
                text = text.replace(
                    "manoeuvre_sim.manoeuvre.engine.players",
                    f"manoeuvre_sim.manoeuvre.engine.{package}",
                )
            (dest / f.name).write_text(text, encoding="utf-8")


def build_scratch(baseline: str, candidate: str | None, at: Path | None = None) -> Path:
    """A copy of this checkout (its working files) whose ``players`` come from
    ``candidate`` (None: as they are) and with ``baseline``'s players as ``players_base``,
    in a new temporary directory or ``at`` (emptied first; the files keep their times, so
    a numba cache of an earlier copy there still serves)."""
    if at is not None:
        shutil.rmtree(at, ignore_errors=True)
        at.mkdir(parents=True)
    scratch = at or Path(tempfile.mkdtemp(prefix="neglect-ab-"))
    ign = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    pkg = scratch / "manoeuvre_sim"
    shutil.copytree(ROOT / "manoeuvre_sim", pkg, ignore=ign)
    for sub in ("analyses", "cli", "data"):
        shutil.copytree(ROOT / sub, pkg / sub, ignore=ign)
    if candidate is not None:
        _extract_players(candidate, pkg / "manoeuvre" / "engine" / "players", "players")
    _extract_players(baseline, pkg / "manoeuvre" / "engine" / "players_base", "players_base")
    return scratch


def run_worker(scratch: Path, job: dict, cache: Path | None = None) -> dict:
    """Run ``job`` in a fresh interpreter on the scratch copy (its ``manoeuvre_sim`` first
    on the path, this package after it); returns its JSON answer."""
    env = dict(os.environ, PYTHONPATH=f"{scratch}{os.pathsep}{ROOT}",
               NUMBA_CACHE_DIR=str(cache or scratch / ".nbcache"))  # fmt: skip
    out = scratch / "answer.json"
    job = dict(job, answer=str(out))
    subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_neglect", "--worker", json.dumps(job)],
        env=env, check=True, cwd=scratch,
    )  # fmt: skip
    return json.loads(out.read_text(encoding="utf-8"))


# --- the worker -----------------------------------------------------------------------------


def _install_base() -> None:
    """Register the baseline styles as ``<style>@base`` (see the module docstring)."""
    import numba as nb
    import numpy as np

    import manoeuvre_sim.manoeuvre.engine.players as players_pkg
    from manoeuvre_sim.core.jit import entry_point
    from manoeuvre_sim.manoeuvre import runner
    from manoeuvre_sim.manoeuvre.engine import game
    from manoeuvre_sim.manoeuvre.engine.players import dispatch as disp
    from manoeuvre_sim.manoeuvre.engine.players_base import heuristic as base_h
    from manoeuvre_sim.manoeuvre.engine.players_base import params as base_p

    if not hasattr(game, "choose_entry"):
        raise SystemExit(
            "bench_neglect: game.new_context no longer takes `choose_entry`; update it"
        )
    base_id = len(disp.POLICY_NAMES)
    nb_base = base_p.NPARAM
    n_now = int(np.asarray(disp.POLICY_PARAMS["balanced"]).shape[0])
    if nb_base > n_now:
        raise SystemExit("bench_neglect: the baseline has more parameters than this checkout")
    current = disp.choose
    base_choose = base_h.choose_heuristic

    @nb.njit
    def choose_ab(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n):
        if pol[seat] >= base_id:
            if n == 1:
                return 0
            return base_choose(
                st, units, cards, tprops, params[seat, :nb_base], rng, opts, cb, seat, dk, n
            )
        return current(st, units, cards, tprops, uowner, pol, params, rng, opts, cb, seat, dk, n)

    # new_context (the only taker of the players' pointer) is compiled after this, in this
    # scratch copy's own numba cache (its engine sources differ, so does the cache key)
    game.choose_entry = entry_point(choose_ab, disp.CHOOSE_SIG)
    names = tuple(f"{s}@base" for s in STYLES)
    for s, name in zip(STYLES, names, strict=True):
        v = np.zeros(n_now)
        v[:nb_base] = getattr(base_p, s.upper())
        disp.POLICY_PARAMS[name] = v
    disp.POLICY_NAMES = (*disp.POLICY_NAMES, *names)
    players_pkg.POLICY_NAMES = disp.POLICY_NAMES
    runner.POLICIES = (*runner.POLICIES, *names)


def worker(job: dict) -> None:
    import pandas as pd

    _install_base()
    from manoeuvre_sim.analyses.manoeuvre import tournament as T
    from manoeuvre_sim.manoeuvre import styles
    from manoeuvre_sim.manoeuvre.studies import neglect as N
    from manoeuvre_sim.studies import tournament

    ans: dict = {}
    if job.get("table"):
        t = time.perf_counter()
        res = N.run(job["table"], seed=job["seed"])
        ans["table_seconds"] = time.perf_counter() - t
        ans["cards"] = res.cards.to_dict(orient="list")
        ans["policies"] = res.policies.to_dict(orient="list")
    if job.get("strength"):
        known = styles.builtin_policies()
        ans["strength"] = []
        for style in job["strength"]:
            t = time.perf_counter()
            r = tournament.run("manoeuvre", [known[style], known[f"{style}@base"]],
                               job["strength_games"], job["seed"])  # fmt: skip
            pr = T.pairs_json(r)["pairs"][0]
            st = T.policy_stats(r.frame).set_index("policy")
            pr["seconds"] = time.perf_counter() - t
            pr["stats"] = {k: st.loc[k].to_dict() for k in st.index}
            ans["strength"].append(pr)
    if job.get("keep"):
        # hand keeping: the style against itself with another discard threshold (H_KEEP)
        from manoeuvre_sim.manoeuvre.engine.players import PARAM_NAMES

        known = styles.builtin_policies()
        ans["keep"] = []
        style = "balanced"
        k = PARAM_NAMES.index("keep")
        for value in job["keep"]:
            params = list(known[style].params)
            params[k] = float(value)
            variant = styles.Policy(f"{style} keep={value:g}", style, tuple(params))
            r = tournament.run("manoeuvre", [variant, known[style]], job["strength_games"],
                               job["seed"])  # fmt: skip
            pr = T.pairs_json(r)["pairs"][0]
            st = T.policy_stats(r.frame).set_index("policy")
            pr["stats"] = {key: st.loc[key].to_dict() for key in st.index}
            ans["keep"].append(pr)
    Path(job["answer"]).write_text(json.dumps(ans, default=float), encoding="utf-8")
    del pd


# --- the report -----------------------------------------------------------------------------


def _frames(ans: dict):
    import pandas as pd

    return pd.DataFrame(ans["cards"]), pd.DataFrame(ans["policies"])


def _strength_lines(rows: list[dict], label: str) -> list[str]:
    """One row per pair of a tournament answer: the first policy's win rate, and per side
    the assaults per game turn and the units lost per game."""
    L = [
        f"| {label} | games | win rate | 95% CI | draws | game turns | assaults per turn "
        "(this / other) | units lost (this / other) |",
        "|---|---:|---:|---|---:|---:|---|---|",
    ]
    for r in rows:
        a, b = r["stats"][r["a"]], r["stats"][r["b"]]
        L.append(
            f"| {r['a']} | {r['games']:,} | {r['win_rate_a']:.3f} | "
            f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['draws']} | {a['game_turns']:.1f} | "
            f"{a['assaults_per_turn']:.3f} / {b['assaults_per_turn']:.3f} | "
            f"{a['units_lost']:.2f} / {b['units_lost']:.2f} |"
        )
    return L


def section(args, ans: dict, steps: list[tuple[str, str, dict]], seconds: float) -> list[str]:
    from manoeuvre_sim.analyses.manoeuvre import neglect as N

    cards, pols = _frames(ans)
    base_rev = args.baseline
    L = []
    L.append(
        f"The run took {seconds / 60:.0f} minutes. `@base` is the style as the players of "
        f"`{base_rev}` "
        f"({_git('log', '-1', '--format=%h %s', base_rev)}) play it; the plain name is this "
        "checkout's. Both play in the same engine, on the same seeds.\n"
    )
    L.append(
        f"**Games.** Each style against itself on every ordered pairing of the 8 armies "
        f"(64, mirrors included), {args.games} games each ({64 * args.games:,} games, "
        f"{128 * args.games:,} sides per style"
        + "".join(f"; {e.replace('=', ': ')} games each" for e in args.extra)
        + f"), seeded as the balance study with master seed {args.seed}: every policy "
        "plays the same maps, first players and opening hands. Per card type: the copies drawn, the share played (the withdraw roll: rolled), "
        "the share discarded never played, and the win rate of the holder in games where it "
        "played the type against games where it held it and never played it (95 % Wilson "
        "intervals; the difference with a normal interval). These win rates are observational "
        "(a card played in a game that was going well looks good); the strength rows below "
        "are the causal test.\n"
    )
    L.append("## The games\n")
    L += N.markdown_policies(pols)
    L.append("\n## The neglected cards, before and after\n")
    L += N.markdown_cards(cards, KEY_CARDS)
    L.append("\n## Strength: this checkout's style against the baseline's\n")
    L.append(
        f"`manoeuvre_sim.studies.tournament` with the two versions as the pair: each army against "
        f"itself, both seatings with the same seed, {args.strength_games:,} games per style "
        f"(seed {args.seed}); the win rate is the new style's, draws count half.\n"
    )
    L += _strength_lines(ans["strength"], "style (this checkout)")
    if ans.get("keep"):
        from manoeuvre_sim.manoeuvre.engine.players import PARAM_NAMES, POLICY_PARAMS

        keep = POLICY_PARAMS["balanced"][PARAM_NAMES.index("keep")]
        L.append("\n## Hand keeping: balanced with another discard threshold\n")
        L.append(
            f"The same tournament, balanced (this checkout, keep = {keep:g}: a card worth less "
            "is discarded) against itself with only the threshold changed; the win rate is the "
            "variant's. A lower threshold keeps more cards, a higher one cycles the deck "
            "faster.\n"
        )
        L += _strength_lines(ans["keep"], "variant")
    for rev, parent, a in steps:
        subject = _git("log", "-1", "--format=%s", rev)
        L.append(f"\n### Step `{rev}` against its parent `{parent}`: {subject}\n")
        L += _strength_lines(a["strength"], "style (the step)")
        if "cards" in a:
            c, p = _frames(a)
            L.append("")
            L += N.markdown_policies(p)
            L.append("")
            L += N.markdown_cards(c, KEY_CARDS)
    L.append("\n## Every card type, after\n")
    L += N.markdown_cards(cards[~cards["policy"].str.endswith("@base")])
    return L


def steps_of(args, job: dict) -> list[tuple[str, str, dict]]:
    """``--step REV``: each commit against its parent, in a scratch copy of its own."""
    steps = []
    for rev in args.step:
        rev = _git("rev-parse", "--short", rev)
        parent = _git("rev-parse", "--short", f"{rev}^")
        scratch = build_scratch(parent, rev)
        try:
            print(f"step {rev} against {parent} ({scratch}) ...", file=sys.stderr)
            sjob = dict(job, keep=None)
            if not args.step_table:
                sjob["table"] = None
            steps.append((rev, parent, run_worker(scratch, sjob)))
        finally:
            if not args.keep_scratch:
                shutil.rmtree(scratch, ignore_errors=True)
    return steps


def parser() -> Parser:
    ap = Parser(__file__, __doc__)
    ap.size("--baseline", None, "HEAD", "the commit whose players are 'before'", type=str)
    ap.size("--games", 100, 1, "games per ordered pairing (table)")
    ap.size("--strength-games", 8000, 16, "tournament games per style")
    ap.size("--policies", ",".join(DEFAULT_POLICIES), "balanced", "the styles", type=str)
    ap.add_argument(
        "--strength-only",
        action="store_true",
        help="only the strength rows, printed as markdown; no results file is written",
    )
    ap.add_argument("--step", action="append", default=[], help="a commit to measure alone")
    ap.add_argument("--step-table", action="store_true", help="the table for each step too")
    ap.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="POLICY=GAMES",
        help="another policy in the 'after' table with its games per pairing (e.g. search=4)",
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.size("--keep-values", "3,3.5,5.5", "", "balanced's discard threshold (keep) in the "
            "hand-keeping experiment ('' none)", type=str)  # fmt: skip
    ap.add_argument("--keep-scratch", action="store_true", help="keep the scratch copies")
    return ap


def make_job(args, styles: list[str]) -> dict:
    table = {f"{s}@base": args.games for s in styles} | {s: args.games for s in styles}
    for e in args.extra:
        name, _, n = e.partition("=")
        if not name or not n.isdigit() or int(n) < 1:
            raise SystemExit(f"--extra {e!r}: expected POLICY=GAMES, e.g. search=4")
        table[name] = int(n)
    job = {
        "table": table,
        "strength": styles,
        "strength_games": args.strength_games,
        "keep": [float(x) for x in args.keep_values.split(",") if x.strip()],
        "seed": args.seed,
    }
    return dict(job, table=None, keep=None) if args.strength_only else job


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        worker(json.loads(argv[1]))
        return 0
    ap = parser()
    args = ap.parse_args(argv)
    if args.baseline is None:
        ap.error("--baseline REV is needed (or --quick: HEAD)")
    styles = [s for s in args.policies.split(",") if s]
    for s in styles:
        if s not in STYLES:
            ap.error(f"--policies: expected some of {', '.join(STYLES)}, got {s!r}")
    if _git("status", "--porcelain", "--untracked-files=no",
            "manoeuvre_sim/manoeuvre/engine/players"):  # fmt: skip
        print("note: engine/players has uncommitted changes; they are measured", file=sys.stderr)
    run = Run(args, ap.name)
    t0 = time.perf_counter()
    job = make_job(args, styles)
    keep = args.keep_scratch or args.quick
    scratch = build_scratch(args.baseline, None, QUICK_DIR / "scratch" if args.quick else None)
    try:
        print(f"baseline {args.baseline} against this checkout ({scratch}) ...", file=sys.stderr)
        ans = run_worker(scratch, job, QUICK_DIR / "numba" if args.quick else None)
    finally:
        if not keep:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.strength_only:
        print(
            f"`python -m benchmarks neglect --baseline {args.baseline} --strength-only "
            f"--strength-games {args.strength_games} --seed {args.seed} --policies "
            f"{','.join(styles)}`, {(time.perf_counter() - t0) / 60:.0f} minutes; the win rate "
            "is this checkout's style against the baseline's, each army mirrored, both "
            "seatings, draws half.\n"
        )
        print("\n".join(_strength_lines(ans["strength"], "style (this checkout)")))
        return 0
    steps = steps_of(args, job)
    body = section(args, ans, steps, time.perf_counter() - t0)
    run.write(run.header("What the styles neglect") + body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
