"""The games a what-if changed (issue 33): in a what-if study's store, each game played in
both the base and the variant (the same seed: common random numbers) whose winner differs,
for both games' what-ifs (``manoeuvre-sim whatif`` and ``hex whatif``; the web's what-if
result page and the command line read it alike), and a fix's confirmation games alike (its
base and fixed games, paired: the web's fix page).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from manoeuvre_sim.core.store import STORE, read_store
from manoeuvre_sim.studies.whatif import BASE, VARIANT

MAX_LISTED = 500


def changed_outcomes(
    study_dir: str | Path,
    limit: int = MAX_LISTED,
    offset: int = 0,
    *,
    store: str = STORE,
    labels: tuple[str, str] = (BASE, VARIANT),
) -> tuple[pd.DataFrame, int]:
    """The games of ``study_dir``'s store whose winner differs between base and variant,
    at most ``limit`` of them from the ``offset``-th on (in the order of the pairings, then
    the games: a page of them), and how many there are in all. Columns: the sides
    (``army_a``/``army_b``; Maneuver's are ``blue``/``red``), the players
    (``policy_a``/``policy_b``) when the store holds them, ``game``, ``seed``,
    ``pairing_base``, ``pairing_variant``, ``winner_base``, ``winner_variant``. A game only
    one run finished (an interrupted study) is left out. ``store`` and ``labels``: another
    store of the study and its two labels (a fix's confirmation: ``confirm/games.parquet``,
    its base and its fixed games; the columns keep the names ``_base`` and ``_variant``)."""
    games = read_store(Path(study_dir) / store)
    if games.empty or "label" not in games:
        return pd.DataFrame(), 0
    sides = [c for c in ("army_a", "army_b") if c in games] or ["policy_a", "policy_b"]
    key = [*sides, "game"]
    players = [c for c in ("policy_a", "policy_b") if c in games and c not in sides]
    cols = [*key, *players, "seed", "pairing", "winner"]
    base = games.loc[games["label"] == labels[0], cols]
    variant = games.loc[games["label"] == labels[1], [*key, "pairing", "winner"]]
    both = base.merge(variant, on=key, suffixes=("_base", "_variant"), validate="one_to_one")
    changed = both[both["winner_base"] != both["winner_variant"]]
    changed = changed.sort_values(["pairing_base", "game"]).reset_index(drop=True)
    return changed.iloc[offset : offset + limit].reset_index(drop=True), len(changed)


__all__ = ["MAX_LISTED", "changed_outcomes"]
