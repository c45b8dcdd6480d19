"""The balance study in words: the provenance every page's footer shows, the rule 3 set-up
when it is not the default, and the plain-text summary printed after a study (also the
PDF's last page). Nothing here computes a figure: it reads a study's frames and manifest
(``studies.balance.BalanceResult``)."""

from __future__ import annotations

import math

import numpy as np

from manoeuvre_sim.analyses.manoeuvre import tally as T


def provenance(manifest: dict) -> dict[str, str]:
    """The footer of every page: tool, rules, data hash, seed, games, policy."""
    reached = manifest.get("games_per_pairing_reached") or {}
    lo, hi = reached.get("min"), reached.get("max")
    per = f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"
    games = f"{manifest.get('games', 0):,} ({per} per pairing)"
    if manifest.get("interrupted"):
        games += ", interrupted"
    out = {
        "tool": f"manoeuvre-sim {manifest['version']}",
        "rules": manifest["rules_version"],
        "data": manifest["data_hash"],
        "seed": str(manifest["seed"]),
        "games": games,
        "policy": ", ".join(p["label"] for p in manifest["policies"]),
        "date": str(manifest.get("finished", manifest.get("started", "")))[:10],
    }
    setup = setup_text(manifest)
    if setup:
        out["set-up"] = setup.removeprefix("set-up ")
    return out


def interrupted_status(manifest: dict) -> str:
    """``"INTERRUPTED: 41,000 of 64,000 games"`` for an interrupted study (``""`` else): the
    title line of its PDF pages and summary."""
    if not manifest.get("interrupted"):
        return ""
    planned = manifest.get("games_planned")
    of = f" of {planned:,}" if planned else ""
    return f"INTERRUPTED: {manifest.get('games', 0):,}{of} games"


def setup_text(manifest: dict) -> str:
    """The study's rule 3 set-up in words when it is not the default (random, no fixed map),
    ``""`` otherwise (``options.describe_setup``)."""
    from manoeuvre_sim.manoeuvre.engine.options import describe_setup

    o = manifest.get("options") or {}
    return describe_setup(o.get("setup", "random"), o.get("fixed_map"), o.get("fixed_rot"))


def setup_note(manifest: dict) -> list[str]:
    """The summary's line on a set-up that is not the default (:func:`setup_text`), or none."""
    setup = setup_text(manifest)
    return [f"{setup} — not the default random set-up (docs/game-options.md)"] if setup else []


def study_notes(manifest: dict, interrupted: bool, *, status: str = "INTERRUPTED",
                covered: str = "games") -> list[str]:  # fmt: skip
    """The lines under a study summary's first: a set-up that is not the default
    (:func:`setup_note`) and, for an ``interrupted`` study, what its tables cover (``status``:
    how the interruption reads, ``covered``: the games counted)."""
    out = setup_note(manifest)
    if interrupted:
        out.append(f"{status}: the tables cover the {covered} finished before the stop")
    return out


def _pct(x: float) -> str:
    return "  n/a" if not np.isfinite(x) else f"{100 * x:5.1f}"


def summary_lines(res) -> list[str]:
    """The plain-text summary of ``res``, a ``studies.balance.BalanceResult``, printed after
    a study (also the PDF's last page): what was played, then per policy its ranking, its most
    lopsided pairings and its seats and game ends, then how the policies agree."""
    man = res.manifest
    out = _study_lines(res)
    incomplete = man.get("incomplete_armies") or {}
    for label in res.armies["policy"].unique():
        out += _ranking_lines(res, label, set(incomplete.get(label, ())))
        m = res.matrix[
            (res.matrix["policy"] == label) & (res.matrix["army"] != res.matrix["opponent"])
        ]
        out += _pairing_lines(m)
        out += _seat_and_end_lines(res, label)
    if res.style_tau is not None and len(res.style_tau):
        out.append("")
        out.append("rank agreement between styles (Kendall's tau of the field win rates):")
        for r in res.style_tau.itertuples(index=False):
            out.append(f"  {r.policy_x} vs {r.policy_y}: tau {r.tau:+.2f} (p = {r.p_value:.3f})")
    if res.spec.precision is not None:
        out.append("")
        out.append(
            f"precision goal ±{100 * res.spec.precision:.1f} points: widest cell reached "
            f"±{100 * man.get('precision_reached', float('nan')):.2f} "
            f"(max {res.spec.max_games:,} games per pairing)"
        )
    return out


def _study_lines(res) -> list[str]:
    """What the study played: armies, games, seed, rules, data; a set-up that is not the
    default; an interruption."""
    out = []
    man = res.manifest
    reached = man.get("games_per_pairing_reached", {})
    out.append(
        f"balance study: {len(res.spec.sides)} armies, {man.get('games', 0):,} games "
        f"({reached.get('min', 0):,}"
        + (f"–{reached.get('max', 0):,}" if reached.get("min") != reached.get("max") else "")
        + f" per ordered pairing), seed {man['seed']}, rules {man['rules_version']}, "
        f"data {man['data_hash']}"
    )
    return out + study_notes(man, res.interrupted, status=interrupted_status(man))


def _ranking_lines(res, label: str, marked: set) -> list[str]:
    """Policy ``label``'s ranking of the armies, those of ``marked`` (in a pairing with
    fewer games) starred."""
    out = []
    a = res.armies[res.armies["policy"] == label].sort_values("rank", kind="stable")
    out.append("")
    if marked:
        n = res.games_per_pairing or {}
        short = sum(v < max(n.values()) for v in n.values()) if n else 0
        out.append(
            f"* in a pairing with fewer games than the fullest ({short:,} of {len(n):,} "
            "pairings short): its field win rate and rank rest on"
        )
        out.append("  unequal opponents and do not compare with the unmarked armies'")
    out.append(f"ranking under policy {label} (win rate against the field, mirrors excluded;")
    out.append("draws count half; 95 % intervals; rating: Bradley-Terry, Elo points):")
    out.append(
        f"{'rank':>11}  {'army':<16} {'field win %':>11}  {'95 % CI':<14} {'rating':>6}  "
        f"{'95 % CI':<12}"
    )
    for r in a.itertuples(index=False):
        rk = f"{r.rank} ({r.rank_low}–{r.rank_high})"
        ci = f"[{_pct(r.ci_low).strip()}, {_pct(r.ci_high).strip()}]"
        rci = f"[{r.rating_low:.0f}, {r.rating_high:.0f}]"
        name = f"{r.army} *" if r.army in marked else r.army
        out.append(
            f"{rk:>11}  {name:<16} {_pct(r.field_win_rate):>11}  {ci:<14} "
            f"{r.rating:6.0f}  {rci:<12}"
        )
    return out


def _pairing_lines(m) -> list[str]:
    """The most lopsided pairings of one policy's matrix ``m`` (mirrors left out), its
    widest interval and the games for ±1 point in every cell."""
    from manoeuvre_sim.core.stats import z_value

    out = []
    lop = m[m["win_rate"] >= 0.5].assign(edge=lambda d: d["win_rate"] - 0.5)
    lop = lop.sort_values("edge", ascending=False).head(5)
    out.append("")
    out.append("most lopsided pairings (seats pooled):")
    for r in lop.itertuples(index=False):
        out.append(
            f"  {r.army} beats {r.opponent} {_pct(r.win_rate).strip()} % "
            f"[{_pct(r.ci_low).strip()}, {_pct(r.ci_high).strip()}] of {r.games:,} games"
        )
    hw = (m["ci_high"] - m["ci_low"]) / 2
    if len(m):
        w = m.loc[hw.idxmax()]
        out.append(
            f"widest interval: {w['army']} vs {w['opponent']} ±{100 * hw.max():.1f} points "
            f"({w['games']:,} games)"
        )
        need = z_value() ** 2 * (m["win_rate"] * (1 - m["win_rate"])).max() / 0.01**2
        out.append(
            f"for ±1 point in every cell: about {math.ceil(need / 2):,} games per ordered "
            f"pairing ({math.ceil(need):,} per cell, seats pooled)"
        )
    return out


def _seat_and_end_lines(res, label: str) -> list[str]:
    """Policy ``label``'s first-player win rate (and its worth in Elo) and how its games
    end."""
    out = []
    man = res.manifest
    fp = res.first_player
    allg = fp[(fp["policy"] == label) & (fp["army"] == T.ALL_GAMES)].iloc[0]
    elo = man.get("first_player_elo", {}).get(label, {})
    out.append(
        f"first player wins {_pct(allg['win_rate_first']).strip()} % of games "
        f"[{_pct(allg['ci_low_first']).strip()}, {_pct(allg['ci_high_first']).strip()}]"
        + (
            f"; worth {elo['estimate']:.0f} Elo [{elo['low']:.0f}, {elo['high']:.0f}] in the "
            "rating model"
            if elo and np.isfinite(elo.get("estimate", np.nan))
            else ""
        )
    )
    v = res.victory[res.victory["policy"] == label]
    n = v["games"].sum()
    att = (v["attrition"] * v["games"]).sum() / n
    tl = (v["turn_limit"] * v["games"]).sum() / n
    turns = (v["mean_turns"] * v["games"]).sum() / n
    out.append(
        f"games end by attrition {100 * att:.1f} %, at nightfall {100 * (1 - att):.1f} % "
        f"(turn limit {100 * tl:.2f} %); {turns:.1f} game turns on average"
    )
    return out
