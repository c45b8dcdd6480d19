"""The tables of Manoeuvre's tournament of players (``manoeuvre-sim tournament``, played by
the one tournament study, ``studies/tournament.py``, with Manoeuvre's seats: each army
against itself, both seatings on one seed): each policy's figures over its games and each
pair's score with its interval.

Python API::

    from manoeuvre_sim.analyses.manoeuvre import tournament as T
    from manoeuvre_sim.studies import tournament

    res = tournament.run("manoeuvre", ["balanced", "attritional"], games=64, seed=1)
    res.pairs                  # each pair's score (a draw half a win)
    T.policy_stats(res.frame)  # per policy: win rate, victory mix, game length, ...
"""

from __future__ import annotations

from manoeuvre_sim.studies.tournament import TournamentResult


def policy_stats(frame) -> object:
    """Per policy, over all its games: win rate, victory mix, game length, combats and cards
    played per player turn, eliminations suffered and inflicted."""
    import pandas as pd

    rows = []
    f = frame
    for side, other in (("a", "b"), ("b", "a")):
        # player turns of this side: each game turn has one of each, but the first player
        # plays one more in a game ended by attrition mid-turn; game_turns is a fair measure
        rows.append(
            pd.DataFrame(
                {
                    "policy": f[f"policy_{side}"],
                    "win": (f["winner"] == side) + 0.5 * (f["winner"] == "draw"),
                    "attrition_win": (f["winner"] == side) & (f["victory"] == "attrition"),
                    "nightfall_win": (f["winner"] == side) & (f["victory"] == "nightfall"),
                    "game_turns": f["game_turns"],
                    "turn_limit": f["turn_limit"],
                    "combats_per_turn": f[f"combats_{side}"] / f["game_turns"],
                    "assaults_per_turn": f[f"assaults_{side}"] / f["game_turns"],
                    "cards_per_turn": f[f"cards_played_{side}"] / f["game_turns"],
                    "lost": f[f"eliminated_{side}"],
                    "eliminated": f[f"eliminated_{other}"],
                }
            )
        )
    d = pd.concat(rows, ignore_index=True)
    g = d.groupby("policy", sort=False)
    out = g.agg(
        games=("win", "size"),
        win_rate=("win", "mean"),
        attrition_wins=("attrition_win", "mean"),
        nightfall_wins=("nightfall_win", "mean"),
        game_turns=("game_turns", "mean"),
        turn_limit=("turn_limit", "mean"),
        combats_per_turn=("combats_per_turn", "mean"),
        assaults_per_turn=("assaults_per_turn", "mean"),
        cards_per_turn=("cards_per_turn", "mean"),
        units_lost=("lost", "mean"),
        units_eliminated=("eliminated", "mean"),
    )
    return out.reset_index()


def pairs_json(result: TournamentResult, confidence: float = 0.95) -> dict:
    from manoeuvre_sim.core.stats import wilson_interval

    out = []
    for pr in result.pairs:
        lo, hi = wilson_interval(pr.wins_a, pr.games, confidence)
        out.append(
            {
                "a": pr.a,
                "b": pr.b,
                "games": pr.games,
                "win_rate_a": round(pr.win_rate_a, 6),
                "ci_low": round(float(lo), 6),
                "ci_high": round(float(hi), 6),
                "draws": pr.draws,
            }
        )
    return {"pairs": out}


__all__ = ["pairs_json", "policy_stats"]
