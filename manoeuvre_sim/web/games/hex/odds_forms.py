"""Maneuver's odds forms: the fields of ``manoeuvre-sim hex odds combat`` and ``hex odds
chart`` (the shared :class:`~manoeuvre_sim.web.odds.forms.Field`)."""

from __future__ import annotations

from manoeuvre_sim.web.odds.forms import SIM, Field

HEX_FORMS: dict[str, tuple[Field, ...]] = {
    "combat": (
        Field("attack", "str", "Attacking units", "4,3", group="attacker",
              help="strengths, comma-separated, each then any of r reduced, u unsupplied, "
              "h in its Capital's hex, c the Capital"),
        Field("defend", "str", "Defending units (one hex)", "4", group="defender",
              help="a c among them makes it the Capital's hex"),
        Field("step_losses", "flag", "Step losses (advanced rule [13].3)", group="defender"),
        *SIM,
    ),
    "chart": (
        Field("paper", "choice", "Paper", "a4", choices=("a4", "letter"), group="grid"),
        Field("differences", "str", "Differences LO..HI", "-8..8", group="grid",
              help="at most 21 columns"),
    ),
}  # fmt: skip
