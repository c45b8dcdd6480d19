"""Manoeuvre's player styles: the named policies of ``engine/players/`` with their
parameter vectors, and style variants read from a styles file (TOML), a base policy and the
parameters it changes; with the seeding of a tournament's blocks and its rounding of the
games (the tournament itself: ``studies/tournament.py`` over ``adapter.tournament_plan``,
each army against itself, both seatings on one seed, a draw half a win).

Policies are the named ones of ``engine/players/`` or variants defined in a styles file
(TOML) — a base policy and the parameters it changes::

    [styles.cautious]
    base = "balanced"
    attack_min = 0.3
    threat = 1.4
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from manoeuvre_sim.core.errors import DataError, UsageError


@dataclass(frozen=True)
class Policy:
    """A player for the tournament: a named policy and its parameter vector."""

    name: str
    base: str
    params: tuple[float, ...]


def builtin_policies() -> dict[str, Policy]:
    from manoeuvre_sim.manoeuvre.engine.players import POLICY_NAMES, POLICY_PARAMS

    return {n: Policy(n, n, tuple(float(x) for x in POLICY_PARAMS[n])) for n in POLICY_NAMES}


def load_styles(path: str | Path) -> dict[str, Policy]:
    """Style variants from a TOML file (see the module docstring)."""
    from manoeuvre_sim.manoeuvre.engine.players import PARAM_NAMES, POLICY_NAMES, POLICY_PARAMS

    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(str(path), [("", "file not found")]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise DataError(str(path), [("", f"not a valid UTF-8 TOML file: {e}")]) from None
    styles = doc.get("styles")
    if not isinstance(styles, dict) or not styles:
        raise DataError(str(path), [("styles", "expected a table of [styles.NAME] sections")])
    out = {}
    for name, spec in styles.items():
        where = f"styles.{name}"
        if not isinstance(spec, dict):
            raise DataError(str(path), [(where, "expected a table")])
        base = spec.get("base")
        if base not in POLICY_NAMES or base in ("random", "simple", "search"):
            raise DataError(
                str(path),
                [
                    (
                        f"{where}.base",
                        f"expected attritional, territorial, balanced or tuned; got {base!r}",
                    )
                ],
            )
        if name in POLICY_NAMES:
            raise DataError(str(path), [(where, "a style may not reuse a built-in policy name")])
        params = np.array(POLICY_PARAMS[base], dtype=np.float64)
        for key, value in spec.items():
            if key == "base":
                continue
            if key not in PARAM_NAMES:
                raise DataError(
                    str(path),
                    [
                        (
                            f"{where}.{key}",
                            f"unknown parameter; expected one of {', '.join(PARAM_NAMES)}",
                        )
                    ],
                )
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DataError(
                    str(path), [(f"{where}.{key}", f"expected a number, got {value!r}")]
                )
            if not math.isfinite(value):
                raise DataError(
                    str(path), [(f"{where}.{key}", f"expected a finite number, got {value!r}")]
                )
            if key == "switch" and value not in (0, 1):
                raise DataError(str(path), [(f"{where}.{key}", f"expected 0 or 1, got {value!r}")])
            params[PARAM_NAMES.index(key)] = float(value)
        out[name] = Policy(name, base, tuple(float(x) for x in params))
    return out


def resolve(names: Sequence[str], styles: dict[str, Policy] | None = None) -> list[Policy]:
    known = builtin_policies() | (styles or {})
    out = []
    for n in names:
        if n not in known and n.startswith("search:"):
            from manoeuvre_sim.manoeuvre.engine.players import params_for
            from manoeuvre_sim.manoeuvre.runner import check_policy

            check_policy(n, "--policies")
            known[n] = Policy(n, n, tuple(float(x) for x in params_for(n, n)[0]))
        if n not in known:
            raise UsageError(
                f"--policies: unknown policy {n!r}; expected one of {', '.join(known)}"
            )
        out.append(known[n])
    if len({p.name for p in out}) != len(out):
        raise UsageError("--policies: a policy is named twice")
    if len(out) < 2:
        raise UsageError("--policies: expected at least two policies")
    return out


def seed(master: int, a: str, b: str, army: str) -> int:
    """The seed of one block: from the master seed and the pair's and army's names, so a
    pair plays the same games whatever other policies are in the tournament."""
    key = hashlib.sha256(f"{a}\x00{b}\x00{army}".encode()).digest()
    ss = np.random.SeedSequence([master, int.from_bytes(key[:8], "little")])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def games_per_pair(games: int, n_armies: int) -> int:
    """The games a pair of players plays for ``games`` asked: each army in both seats
    equally often, so ``games`` rounded up to a multiple of 2 x ``n_armies``."""
    step = 2 * n_armies
    return -(-games // step) * step
