"""How the rows of Maneuver's study tables (the variant study's, the what-if's, the Capital's
fall) read in their summaries and pages: the pooled rows' ``policy_blue`` (:data:`ALL`), a
row's pair of players in words (:func:`pair_name`) and the what-if table's rates
(:data:`OUTCOMES`), for the modules of the tables and of their PDFs alike."""

from __future__ import annotations

ALL = "all"  # the pooled rows: every pairing of a variant (or of a what-if) together
# (column stem, what it counts): the rates of the what-if table, in the summary's order
OUTCOMES = (
    ("blue_win", "blue wins"),
    ("red_win", "red wins"),
    ("first_win", "first player wins"),
    ("draw", "drawn"),
)


def pair_name(row) -> str:
    """A table row's pair of players, ``blue v red``, or ``all pairings`` for a pooled row."""
    return "all pairings" if row.policy_blue == ALL else f"{row.policy_blue} v {row.policy_red}"
