"""``manoeuvre-sim hex odds``'s queries as library functions, for the command line and the
workbench's odds pages alike: one attack's exact odds (rules [8], [9], [11], [13].3) with an
optional Monte Carlo check, the object ``--json`` prints, and the chart's checked columns.

Errors are :class:`~manoeuvre_sim.core.errors.UsageError` in the command line's words.
"""

from __future__ import annotations

import re

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import GAME_KEY, GAME_TITLE


def combat(attack: str, defend: str, step_losses: bool = False, simulate: int = 0, seed: int = 1):
    """``hex odds combat``: the exact odds of one attack and, with ``simulate``, the engine's
    roll ``simulate`` times.

    Parameters
    ----------
    attack, defend : str
        The units of each side in :func:`~manoeuvre_sim.hexgame.odds.parse_units` notation
        (``'4,3r'``, flags r reduced, u unsupplied, h in its Capital's hex, c the Capital).
    step_losses : bool
        The advanced step-loss rule [13].3.

    Returns
    -------
    (CombatOdds, Estimate or None)
    """
    from manoeuvre_sim.hexgame import odds as o

    res = o.combat_odds(
        o.parse_units(attack, "--attack", attacking=True),
        o.parse_units(defend, "--defend", attacking=False),
        step_losses=step_losses,
    )
    est = o.simulate(res, simulate, seed) if simulate else None
    return res, est


def combat_dict(res, est=None) -> dict:
    """The object ``hex odds combat --json`` prints."""
    from manoeuvre_sim.hexgame import RULES_VERSION

    out = {"game": GAME_KEY, "title": GAME_TITLE, "rules_version": RULES_VERSION}
    out.update(res.to_dict())
    if est is not None:
        out["simulation"] = est.to_dict()
    return out


def views(res) -> dict[str, np.ndarray]:
    """P(exactly, at least, at most) each result AE..DE, ordered in the attacker's favour."""
    p = res.probs
    return {
        "exactly": p,
        "at_least": np.clip(np.cumsum(p[::-1])[::-1], 0.0, 1.0),
        "at_most": np.clip(np.cumsum(p), 0.0, 1.0),
    }


def parse_differences(text: str) -> list[int]:
    """``hex odds chart --differences``: ``'-8..8'`` -> the chart's columns."""
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if not m:
        raise UsageError(f"--differences: expected a range LO..HI such as -8..8, got {text!r}")
    lo, hi = int(m.group(1)), int(m.group(2))
    if not (lo < hi and hi - lo <= 20 and lo >= -30 and hi <= 30):
        raise UsageError(
            f"--differences: expected LO < HI within -30..30, at most 21 columns, got {text!r}"
        )
    return list(range(lo, hi + 1))
