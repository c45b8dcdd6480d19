"""The pairs of players in Maneuver's study tables (the variant study's, the what-if's, the
Capital's fall), as their summaries and pages name them: the pooled rows' ``policy_blue``
(:data:`ALL`) and a row's pair in words (:func:`pair_name`)."""

from __future__ import annotations

ALL = "all"  # the pooled rows: every pairing of a variant (or of a what-if) together


def pair_name(row) -> str:
    """A table row's pair of players, ``blue v red``, or ``all pairings`` for a pooled row."""
    return "all pairings" if row.policy_blue == ALL else f"{row.policy_blue} v {row.policy_red}"
