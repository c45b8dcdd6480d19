"""Maneuver's variant study under each player: the table per player, the signs, where they disagree.

    python -m benchmarks hex-sensitivity [--quick] [--players random,capital,...]
        [--games 5000] [--search-games 1000] [--seed 1] [--threads 0]
        [--variants basic,large_blue,...] [--store DIR [--resume]] [--out FILE]

Issue 25, "sensitivity to the players" (docs/hex.md reads the figures).

Plays the variant table of ``manoeuvre-sim hex balance`` (its default variants: the basic
game, the borders ``large_blue``/``large_red``, army quality ``back:front``/``front:back``,
step losses, step replacements; ``--variants`` names a subset) once per player, the same
player on both sides (the mirror pairing), through the study's own code
(:func:`manoeuvre_sim.studies.balance.run_spec`), and writes
benchmarks/RESULTS-hex-sensitivity.md: per variant and player the first/second player's, blue's and red's win
rates and the draw rate with 95 % Wilson intervals, how games end, the turn the Capital
fell; then the comparisons across players: the sign of the first player's and of blue's
edge (paired intervals, ``stats.paired_interval``), each rule's effect on the draw rate
against the basic game (paired by seed), which pairs of players disagree beyond their
intervals, and Kendall's tau between the players' orderings of the variants
(``analyses.manoeuvre.balance.style_sensitivity``).

A player is any of ``hex balance --policies`` (``random``, ``capital``, ``attrition``,
``search[:BUDGET[:STYLE]]``), optionally ``=GAMES`` (games per variant); without it a
search player plays ``--search-games`` and the others ``--games``. Seeding: one master
seed; within a player every variant replays the same game seeds (common random numbers,
as ``hex balance``); a pairing's seed comes from its players' names, so two players do not
share seeds (their moves would part the dice after the first roll anyway).

Ctrl-C stops after the task in flight; the file is then written with the players finished
so far (``--store`` keeps every game for ``--resume``).
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.common import Parser, Run

DEFAULT_PLAYERS = (
    "random,capital,attrition,search:8=2000,search:32,search:32:attrition,search:128=300"
)


def parse_players(text: str, games: int, search_games: int) -> list[tuple[str, int]]:
    from manoeuvre_sim.hexgame import parse_policy

    plan = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        name, eq, n = item.partition("=")
        try:
            parse_policy(name)
        except ValueError as e:
            raise SystemExit(f"--players: {e}") from None
        if eq and not n.isdigit() or eq and int(n) < 1:
            raise SystemExit(f"--players: {item!r}: expected PLAYER=GAMES, GAMES a positive number")
        plan.append((name, int(n) if eq else search_games if name.startswith("search") else games))
    names = [p for p, _ in plan]
    if not plan or len(set(names)) != len(names):
        raise SystemExit(f"--players: expected distinct players, got {text!r}")
    return plan


def pick_variants(text: str | None):
    from manoeuvre_sim.hexgame import variants as HV

    every = HV.default_variants()
    if not text:
        return every
    by_name = {v.name: v for v in every}
    want = [x.strip() for x in text.split(",") if x.strip()]
    bad = [x for x in want if x not in by_name]
    if bad or not want:
        raise SystemExit(
            f"--variants: expected names among {', '.join(by_name)}, got {bad or text!r}"
        )
    return tuple(by_name[x] for x in want)


def pc(x: float) -> str:
    return "–" if not np.isfinite(x) else f"{100 * x:.1f}"


def cell(r, rate: str) -> str:
    return f"{pc(r[rate])} ({pc(r[rate + '_ci_low'])}–{pc(r[rate + '_ci_high'])})"


def signed(m: float, lo: float, hi: float) -> str:
    """A difference in points with its interval and the sign it is sure of."""
    if not np.isfinite(m):
        return "–"
    mark = "**+**" if lo > 0 else "**−**" if hi < 0 else "0"
    return f"{100 * m:+.1f} ({100 * lo:+.1f}..{100 * hi:+.1f}) {mark}"


def sign_of(lo: float, hi: float) -> str:
    return "+" if lo > 0 else "−" if hi < 0 else "0"


def paired(d: np.ndarray) -> tuple[float, float, float]:
    """Mean of per-game differences with its interval (the study layer's paired interval)."""
    from manoeuvre_sim.core.stats import paired_interval

    d = np.asarray(d, dtype=np.float64)
    m, lo, hi = paired_interval(d.sum(), (d * d).sum(), len(d))
    return float(m), max(float(lo), -1.0), min(float(hi), 1.0)  # a difference of two shares


def run_players(plan, variants, args, command):
    """Each player's variant study; returns (per-player results, seconds, interrupted)."""
    from manoeuvre_sim.hexgame.variants import VariantSettings
    from manoeuvre_sim.studies import balance as B

    done, secs = {}, {}
    for name, games in plan:
        out_dir = None
        if args.store:
            out_dir = Path(args.store) / name.replace(":", "_")
        total = games * len(variants)
        last = [0.0]

        def progress(n, _total, name=name, total=total, last=last):
            now = time.perf_counter()
            if now - last[0] > 2 or n >= total:
                last[0] = now
                print(f"  {name}: {n:,}/{total:,} games", file=sys.stderr, flush=True)

        t0 = time.perf_counter()
        spec = B.BalanceSpec(
            "hex",
            tuple(variants),
            policies=(name,),
            games_per_pairing=games,
            seed=args.seed,
            threads=args.threads,
            settings=VariantSettings(),
        )
        res = B.run_spec(spec, out_dir, resume=args.resume, progress=progress,
                         command=command)  # fmt: skip
        secs[name] = time.perf_counter() - t0
        print(f"{name}: {total:,} games in {secs[name]:.0f} s", file=sys.stderr, flush=True)
        if res.interrupted:
            print(f"{name}: interrupted; writing the players finished", file=sys.stderr)
            return done, secs, True
        done[name] = res
    return done, secs, False


def tables(done: dict) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The study's frames of every player stacked (column ``player``), and its games."""
    out = []
    for key in ("variants", "endings", "capital_fell", "games"):
        frames = []
        for name, res in done.items():
            f = getattr(res, key).copy()
            f.insert(0, "player", name)
            frames.append(f)
        out.append(pd.concat(frames, ignore_index=True))
    return tuple(out)


def edges(games: pd.DataFrame, variants) -> pd.DataFrame:
    """Per player and variant: the first player's edge (first's win rate minus second's),
    blue's edge (blue minus red) and the draw rate's change from the basic game (paired by
    game seed: every variant replays the basic game's seeds), each a mean of per-game
    differences with its 95 % interval."""
    rows = []
    for name, g in games.groupby("player", sort=False):
        base = g[g["label"] == variants[0].name].set_index("game")["winner"] == "draw"
        for v in variants:
            gv = g[g["label"] == v.name]
            w, first = gv["winner"], gv["first_player"]
            dfirst = (w == first).astype(int) - ((w != first) & (w != "draw")).astype(int)
            dblue = (w == "a").astype(int) - (w == "b").astype(int)
            draw = (gv.set_index("game")["winner"] == "draw").astype(int)
            ddraw = draw - base.reindex(draw.index).astype(int)
            row = {"player": name, "variant": v.name}
            for key, d in (("first", dfirst), ("blue", dblue), ("draw_vs_basic", ddraw)):
                row[key], row[key + "_lo"], row[key + "_hi"] = paired(d.to_numpy())
            rows.append(row)
    return pd.DataFrame(rows)


def taus(var: pd.DataFrame, rate: str) -> pd.DataFrame:
    """Kendall's tau between the players' orderings of the variants by ``rate``."""
    from manoeuvre_sim.analyses.manoeuvre.balance import style_sensitivity

    f = var.rename(columns={"player": "label", "variant": "army", rate: "field_win_rate",
                            rate + "_ci_low": "ci_low", rate + "_ci_high": "ci_high"})  # fmt: skip
    f["rank"] = f.groupby("label")["field_win_rate"].rank(ascending=False, method="min")
    with warnings.catch_warnings():  # a player with one rate for every variant: tau is NaN
        warnings.simplefilter("ignore")
        return style_sensitivity(f)[1]


def disjoint(var: pd.DataFrame, a: str, b: str, rate: str) -> list[str]:
    """The variants whose ``rate`` intervals of players a and b do not overlap."""
    x = var[var["player"] == a].set_index("variant")
    y = var[var["player"] == b].set_index("variant").reindex(x.index)
    lo, hi = rate + "_ci_low", rate + "_ci_high"
    apart = (x[lo] > y[hi]) | (y[lo] > x[hi])
    return list(x.index[apart])


def provenance(done, plan, secs, args, interrupted) -> list[str]:
    """What every player played, and how fast (after the header)."""
    m = next(iter(done.values())).manifest
    speed = "; ".join(
        f"`{p}` {n:,} games a variant, {secs[p]:.0f} s ({n * len(m['variants']) / secs[p]:,.0f} games/s)"
        for p, n in plan if p in done
    )  # fmt: skip
    out = [
        f"Each player plays both sides (the mirror pairing) of every variant, {m['turns']} "
        f"turns, the first player drawn per game (rule [3]). {speed}. Within a player every "
        "variant replays the same game seeds (common random numbers); two players' seeds "
        "differ (a pairing's seed comes from its players' names). Rates are shares of games "
        "in per cent with 95 % Wilson intervals; a draw is no win for either side.",
    ]
    if interrupted:
        out += ["", "**INTERRUPTED**: only the players listed in the tables finished."]
    return out


def table_lines(var, ends, fell, variants, players, turns) -> list[str]:
    out = [
        "## The variant table",
        "",
        "| variant | player | games | first player wins | second player wins | blue wins | "
        "red wins | drawn |",
        "|---|---|--:|---|---|---|---|---|",
    ]
    for v in variants:
        for p in players:
            r = var[(var["variant"] == v.name) & (var["player"] == p)].iloc[0]
            out.append(
                f"| {v.name} | `{p}` | {r['games']:,} | {cell(r, 'first_win_rate')} | "
                f"{cell(r, 'second_win_rate')} | {cell(r, 'blue_win_rate')} | "
                f"{cell(r, 'red_win_rate')} | {cell(r, 'draw_rate')} |"
            )
    out += [
        "",
        "## How games end",
        "",
        "Won: the enemy Capital captured with rule [12]'s margin (two more combat units). "
        '"Short of the margin": games in which a side held the enemy Capital at a victory '
        f"check without the margin (it may still have won later); drawn: no winner after turn "
        f"{turns}. The Capital columns: the share of games in which it fell (a DE against its "
        "hex, rule [11]) and the mean first turn it fell, over those games.",
        "",
        "| variant | player | won: capture with the margin | capture short of the margin | "
        "… and drawn | drawn at the turn limit | mean turn of a win | blue's Capital fell "
        "| at turn | red's Capital fell | at turn |",
        "|---|---|---|---|---|---|--:|--:|--:|--:|--:|",
    ]
    for v in variants:
        for p in players:
            r = ends[(ends["variant"] == v.name) & (ends["player"] == p)].iloc[0]
            cap = []
            for side in ("blue", "red"):
                f = fell[(fell["variant"] == v.name) & (fell["player"] == p)
                         & (fell["capital"] == side) & (fell["turn"] > 0)]  # fmt: skip
                k = int(f["count"].sum())
                mean = float((f["turn"] * f["count"]).sum() / k) if k else float("nan")
                cap += [pc(k / r["games"]), "–" if not k else f"{mean:.1f}"]
            turn = r["mean_turn_decisive"]
            out.append(
                f"| {v.name} | `{p}` | {cell(r, 'capture_wins_share')} | "
                f"{cell(r, 'short_of_margin_share')} | {cell(r, 'short_of_margin_draws_share')} | "
                f"{cell(r, 'turn_limit_draws_share')} | {'–' if not np.isfinite(turn) else f'{turn:.1f}'} | "
                + " | ".join(cap)
                + " |"
            )
    return out


def edge_grid(e: pd.DataFrame, key: str, variants, players) -> list[str]:
    """A row per variant: each player's paired difference ``key`` with its sign."""
    rows = []
    for v in variants:
        cells = [signed(*e.loc[(v.name, p), [key, key + "_lo", key + "_hi"]]) for p in players]
        rows.append(f"| {v.name} | " + " | ".join(cells) + " |")
    return rows


def edge_agreement(e: pd.DataFrame, key: str, variants, players) -> list[str]:
    """A line per variant: the sign of ``key`` under every player, or where it changes."""
    lines = []
    for v in variants:
        s = {p: sign_of(*e.loc[(v.name, p), [key + "_lo", key + "_hi"]]) for p in players}
        kinds = set(s.values())
        if len(kinds) == 1:
            what = {"+": "positive", "−": "negative", "0": "not measurably different from zero"}
            lines.append(f"- {v.name}: {what[kinds.pop()]} under every player.")
        else:
            by = "; ".join(
                f"{k} under " + ", ".join(f"`{p}`" for p in players if s[p] == k)
                for k in ("+", "−", "0") if k in kinds
            )  # fmt: skip
            lines.append(f"- {v.name}: **the sign changes**: {by}.")
    return lines


def rank_rows(var: pd.DataFrame, variants, players) -> list[str]:
    """Each player's ranks of the variants by the first player's win rate / the draw rate."""
    rk = var.assign(
        r1=var.groupby("player")["first_win_rate"].rank(ascending=False, method="min"),
        r2=var.groupby("player")["draw_rate"].rank(ascending=False, method="min"),
    ).set_index(["variant", "player"])
    return [
        f"| {v.name} | "
        + " | ".join(
            f"{rk.loc[(v.name, p), 'r1']:.0f} / {rk.loc[(v.name, p), 'r2']:.0f}" for p in players
        )  # fmt: skip
        + " |"
        for v in variants
    ]


def tau_lines(var: pd.DataFrame, variants, players) -> list[str]:
    """Kendall's tau between each two players' orderings, and where they disagree."""
    out = [
        "",
        "Kendall's tau between two players' orderings of the variants (1: the same order, "
        "-1: reversed; `analyses.manoeuvre.balance.style_sensitivity`, scipy's tau-b), its p-value, "
        "and the variants whose 95 % intervals of the rate do not overlap between the two "
        "players (they disagree beyond their intervals):",
        "",
        "| players | tau, first player's win rate | p | disjoint intervals, first player's "
        "win rate | tau, draw rate | p | disjoint intervals, draw rate |",
        "|---|--:|--:|---|--:|--:|---|",
    ]
    t1, t2 = taus(var, "first_win_rate"), taus(var, "draw_rate")
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            cells = []
            for t, rate in ((t1, "first_win_rate"), (t2, "draw_rate")):
                row = t[(t["policy_x"] == a) & (t["policy_y"] == b)].iloc[0]
                if np.isfinite(row["tau"]):
                    cells += [f"{row['tau']:.2f}", f"{row['p_value']:.2f}"]
                else:
                    cells += ["undefined (a player ties every variant)", "–"]
                d = disjoint(var, a, b, rate)
                n = len(variants)
                some = f"{len(d)} of {n}" + (f": {', '.join(d)}" if d else "")
                cells.append(f"all {n}" if len(d) == n > 1 else some)
            out.append(f"| `{a}` / `{b}` | " + " | ".join(cells) + " |")
    return out


def comparison_lines(var, edge, variants, players) -> list[str]:
    head = "| variant | " + " | ".join(f"`{p}`" for p in players) + " |"
    rule = "|---|" + "---|" * len(players)
    e = edge.set_index(["variant", "player"])
    out = [
        "## Comparisons across players (computed)",
        "",
        "Differences in points, each the mean of a per-game difference with its 95 % "
        "interval (`stats.paired_interval`); **+**/**−**: the interval excludes zero, 0: it "
        "does not.",
        "",
        "### The first player's edge (first player's win rate minus the second's)",
        "",
        head,
        rule,
        *edge_grid(e, "first", variants, players),
        "",
        *edge_agreement(e, "first", variants, players),
        "",
        "### Blue's edge (blue's win rate minus red's)",
        "",
        head,
        rule,
        *edge_grid(e, "blue", variants, players),
        "",
        *edge_agreement(e, "blue", variants, players),
        "",
    ]
    rest = variants[1:]
    if rest:
        out += [
            f"### Each rule's effect on the draw rate (the variant's minus {variants[0].name}'s, "
            "paired by game seed)",
            "",
            head,
            rule,
            *edge_grid(e, "draw_vs_basic", rest, players),
            "",
            *edge_agreement(e, "draw_vs_basic", rest, players),
            "",
        ]
    out += [
        "### The order of the variants",
        "",
        "Each player's ranks of the variants (1 = highest) by the first player's win rate / "
        "by the draw rate:",
        "",
        head,
        rule,
        *rank_rows(var, variants, players),
    ]
    if len(players) > 1:
        out += tau_lines(var, variants, players)
    widths = var.assign(w=(var["first_win_rate_ci_high"] - var["first_win_rate_ci_low"]) / 2)
    w = widths.groupby("player", sort=False)["w"].max()
    return out + [
        "",
        "Interval widths: the widest half-width of a first player's win rate, per player: "
        + "; ".join(f"`{p}` ±{100 * w[p]:.1f} points" for p in players)
        + ".",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = Parser(__file__, __doc__)
    ap.size("--players", DEFAULT_PLAYERS, "random,capital,search:2=20",
            "PLAYER[=GAMES],... the players, each on both sides", type=str)  # fmt: skip
    ap.size("--games", 5000, 200, "games per variant (not search)")
    ap.size("--search-games", 1000, 20, "games per variant (search)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0, help="0: all cores")
    ap.size("--variants", None, "basic,large_blue,step losses",
            "a subset of the default variants by name (default: all)", type=str)  # fmt: skip
    ap.add_argument("--store", default=None, help="keep each player's games in DIR/PLAYER/")
    ap.add_argument("--resume", action="store_true", help="with --store: finish a stopped run")
    args = ap.parse_args(argv)
    if args.games < 1 or args.search_games < 1 or args.threads < 0:
        raise SystemExit("--games, --search-games: expected >= 1; --threads: >= 0")
    if args.resume and not args.store:
        raise SystemExit("--resume: needs --store DIR")
    plan = parse_players(args.players, args.games, args.search_games)
    variants = pick_variants(args.variants)
    run = Run(args, ap.name)
    done, secs, interrupted = run_players(plan, variants, args, run.command)
    if not done:
        raise SystemExit("interrupted before any player finished: nothing written")
    var, ends, fell, games = tables(done)
    players = list(done)
    turns = next(iter(done.values())).spec.settings.turns
    m = next(iter(done.values())).manifest
    lines = run.header(
        "Maneuver: how much the variant study depends on the players",
        data_hash=m["scenario_sha256"],
        extra=[f"scenario `{m['scenario']}` (the data hash: its sha256), seed {args.seed}, "
               f"threads {m.get('threads', args.threads)}"],
        modules=("pandas", "scipy"),
    )  # fmt: skip
    lines += provenance(done, plan, secs, args, interrupted) + [""]
    lines += table_lines(var, ends, fell, variants, players, turns) + [""]
    lines += comparison_lines(var, edges(games, variants), variants, players)
    run.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
