"""``manoeuvre-sim hex tournament``: every pair of Maneuver players, both seatings."""

from __future__ import annotations

import click

from manoeuvre_sim.cli.hexgame._options import game_options, load_game
from manoeuvre_sim.hexgame import GAME_TITLE


@click.command(
    help=f"{GAME_TITLE}. Play every pair of --policies, each player once blue and once red (--games each), and give each pair's score (a win 1, a draw 1/2) with its 95% Wilson interval."
)
@click.option(
    "--policies",
    default="random,capital,attrition",
    show_default=True,
    help="Comma-separated players: random, capital, attrition, search[:BUDGET[:STYLE[:SCOPE]]].",
)
@click.option(
    "--games", type=int, default=1000, show_default=True, help="Games per pair and seating."
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--threads", type=int, default=0, show_default=True, help="0: all cores.")
@click.option(
    "--out", type=click.Path(dir_okay=False), help="Also write every game (.parquet/.csv)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the pairs as JSON.")
@game_options
def tournament(policies, games, seed, threads, out, as_json, **kw):
    """Play every pair of --policies, each player once blue and once red (--games each),
    and give each pair's score (a win 1, a draw 1/2) with its 95% Wilson interval."""
    import json
    import time

    import numba
    import pandas as pd

    from manoeuvre_sim.cli._common import format_table
    from manoeuvre_sim.errors import UsageError
    from manoeuvre_sim.games.hex import seat_seed
    from manoeuvre_sim.hexgame import POLICY_SPECS, batch, parse_policy
    from manoeuvre_sim.hexgame.players import policy_arrays
    from manoeuvre_sim.hexgame.records import manifest, to_frame
    from manoeuvre_sim.results import check_output_path, write
    from manoeuvre_sim.stats import wilson_interval

    names = [p.strip() for p in policies.split(",") if p.strip()]
    bad = []
    for p in names:
        try:
            parse_policy(p)
        except ValueError:
            bad.append(p)
    if bad or len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(
            f"--policies: expected two or more distinct of {', '.join(POLICY_SPECS)}, "
            f"got {policies!r}"
        )
    for flag, value, least in (("--games", games, 1), ("--seed", seed, 0),
                               ("--threads", threads, 0)):  # fmt: skip
        if value < least:
            what = "a positive number" if least else "0 or more"
            raise UsageError(f"{flag}: expected {what}, got {value}")
    if out:
        check_output_path(out, (".parquet", ".csv"))
    if kw.get("params_a") or kw.get("params_b"):
        raise UsageError("--params-a/--params-b: a tournament plays each player's defaults")
    kw["policy_a"], kw["policy_b"] = names[0], names[1]
    sc, source, packed, options, _, _, _ = load_game(kw)
    threads = threads or numba.config.NUMBA_NUM_THREADS
    t0 = time.perf_counter()
    frames, rows, doc = [], [], []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            score = 0.0
            wins = {a: 0, b: 0, "draw": 0}
            for blue, red in ((a, b), (b, a)):
                s = seat_seed(seed, blue, red)
                pol, params = policy_arrays(blue, red)
                rec = batch.play_games(s, 0, games, packed, options.array(), pol, params, threads)
                man = manifest(sc, source, options, s, 0, games, (blue, red), params)
                df = to_frame(rec, man)
                frames.append(df)
                w = df["winner"].value_counts()
                wa = int(w.get("a" if blue == a else "b", 0))
                wb = int(w.get("b" if blue == a else "a", 0))
                d = int(w.get("draw", 0))
                wins[a] += wa
                wins[b] += wb
                wins["draw"] += d
                score += wa + d / 2
            n = 2 * games
            lo, hi = wilson_interval(score, n)
            rows.append(
                [a, b, n, wins[a], wins[b], wins["draw"], f"{score / n:.3f}",
                 f"{float(lo):.3f}-{float(hi):.3f}"]
            )  # fmt: skip
            doc.append(
                {"a": a, "b": b, "games": n, "a_wins": wins[a], "b_wins": wins[b],
                 "draws": wins["draw"], "a_score": score / n, "ci95": [float(lo), float(hi)]}
            )  # fmt: skip
    seconds = time.perf_counter() - t0
    allg = pd.concat(frames, ignore_index=True)
    blue_rate = (allg["winner"] == "a").mean()
    red_rate = (allg["winner"] == "b").mean()
    if as_json:
        click.echo(json.dumps({"pairs": doc, "scenario_sha256": sc.sha256}, indent=2))
    else:
        click.echo(
            f"Maneuver tournament, seed {seed}, {options.describe()}, scenario {sc.name} "
            f"(sha256 {sc.sha256[:16]}...)"
        )
        click.echo(
            format_table(["a", "b", "games", "a won", "b won", "draws", "a score", "95% CI"], rows)
        )
        click.echo(f"seats over all games: blue won {blue_rate:.3f}, red won {red_rate:.3f}")
    if out:
        man = manifest(sc, source, options, seed, 0, games, ("(tournament)", ""), [[], []])
        man.update(policies=names, seconds=seconds, threads=threads)
        write(allg, out, man)
    click.echo(f"{len(allg)} games in {seconds:.1f} s on {threads} thread(s)", err=True)
