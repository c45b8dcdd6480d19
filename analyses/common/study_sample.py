"""Which games of a study to show replayed: a small, deterministic sample (the static site,
``manoeuvre-sim site --replays N``).

The rule, stated on the pages that show the sample: the first game of each of the ``n``
most lopsided pairings, by how far the first seat's win rate (draws counting half, as the
balance matrix counts them: :func:`~.study_files.pairing_outcomes`) is from one half; ties
go to the lower label, then pairing number. Only the first :data:`MAX_PAIRINGS` pairings are
looked at, so a large study costs a bounded number of reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from manoeuvre_sim.analyses.common import study_files as SF

MAX_PAIRINGS = 400
RULE = (
    "the first game of each of the most lopsided pairings (the first seat's win rate "
    "farthest from one half, draws counting half)"
)


@dataclass(frozen=True)
class SampledGame:
    label: str
    pairing: int
    game: int
    win_rate_a: float  # the first seat's, draws counting half
    games: int


def lopsided_games(path: str | Path, n: int) -> list[SampledGame]:
    """The first game of each of the ``n`` most lopsided pairings of the study at ``path``
    (fewer when it has fewer pairings; none when it has no game records)."""
    if n <= 0:
        return []
    # the records read once (the columns the rule needs), then each pairing summed up as
    # its page sums it up (pairing_outcomes)
    cols = ["label", "pairing", "game", "winner"]
    df = SF._read(SF._store_files(Path(path)), columns=cols)
    if df.empty or not {"pairing", "game", "winner"} <= set(df.columns):
        return []
    if "label" not in df:
        df["label"] = ""
    df = df[[c for c in cols if c in df.columns]]
    found = []
    groups = df.groupby(["label", "pairing"], sort=True, observed=True, dropna=False)
    for (label, pairing), games in list(groups)[:MAX_PAIRINGS]:
        games = games.sort_values("game", kind="stable")
        rate = float(SF.pairing_outcomes(games)["seats"]["win_rate"].iloc[0])
        found.append(SampledGame(str(label), int(pairing), int(games["game"].iloc[0]), rate,
                                 len(games)))  # fmt: skip
    found.sort(key=lambda s: (-abs(s.win_rate_a - 0.5), s.label, s.pairing))
    return found[:n]
