"""The rule options of a game and the policy flags (the ``opt`` and ``pol`` arrays that
``play_game`` takes).

``opt``: ndarray(int32, (N_OPTIONS,)), one slot per option below; ``pol``: ndarray(int32,
(POL_SIZE,)), slots ``POL_*`` below: the policy id of each seat (``players``), the FLAG_*
bits, a planned decision (the search player's choice, ``search.py``) and the rollout policy
of a search player's seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from manoeuvre_sim.core.errors import UsageError

# --- rule options: ndarray(int32, (N_OPTIONS,)) ---------------------------------------------
OPT_TOURNAMENT_HAND = 0  # rule 3: each player chooses its 5 starting cards
OPT_ADVANCE_TO_CONTACT = 1  # Distant Lands: 3, then 2, then 1 moves in the first game turns
OPT_DIGGING_IN = 2  # Distant Lands: skip the move, discard the whole hand
OPT_MAX_TURNS = 3  # safety limit on game turns (see docs/RULE_INTERPRETATIONS.md)
OPT_CHECK = 4  # 1: check invariants after every step and raise on a violation
OPT_SETUP = 5  # SETUP_RANDOM or SETUP_RULES: how the battlefield and the edges are chosen
OPT_MAP = 6  # 4 slots: a fixed map's section numbers NW NE SW SE (0: no fixed map)
OPT_ROT = 10  # 4 slots: the fixed map's rotations (quarter turns clockwise, 0..3)
# 1: the Distant Lands Forced March wording (9.2): only a move that BEGINS in a Field or Marsh
# may not be extended; 0: the base rule 9.2, a move that begins or ends in one
OPT_DL_FORCED_MARCH = 14
N_OPTIONS = 15

# OPT_SETUP values (engine/setup.py set_up_battlefield)
SETUP_RANDOM = 0  # four distinct sections drawn at random, random rotations; A at the bottom
SETUP_RULES = 1  # rule 3: the first player lays the map, the second chooses its edge
SETUP_MODES = ("random", "rules")  # names, indexed by the values above

# --- the policies: ndarray(int32, (POL_SIZE,)) -----------------------------------------------
POL_FLAGS = 2  # slots 0 and 1: the policy id of each seat; then the FLAG_* bits
POL_PLAN_DK = 3  # a planned decision: its kind (0 none), seat, option index and option count;
POL_PLAN_SEAT = 4  # ``checks.decide`` answers it without asking the policy, once
POL_PLAN_K = 5
POL_PLAN_N = 6
POL_ROLLOUT = 7  # 2 slots: per seat, the policy a search player plays its other decisions with
POL_SIZE = 9

FLAG_FAIR_CHECK = 1  # pol[2] bit: re-decide every decision on a fogged state (tests)
FLAG_FOG_OWN_HAND = 2  # pol[2] bit: fog the deciding player's own hand too, which every real
# policy reads: the mutation test that shows fair_check can fail


def rule_options(
    *,
    tournament_hand: bool = False,
    advance_to_contact: bool = False,
    digging_in: bool = False,
    dl_forced_march: bool = False,
    max_turns: int = 200,
    check: bool = False,
    setup: str = "random",
    fixed_map: Sequence[int] | None = None,
    fixed_rot: Sequence[int] | None = None,
) -> np.ndarray:
    """The ``opt`` array for the named rule options. ``setup``: ``"random"`` or ``"rules"``
    (``SETUP_MODES``); ``fixed_map``: 4 section numbers NW, NE, SW, SE (checked against the
    pool by :func:`check_fixed_map`), ``fixed_rot`` their quarter turns (default 0)."""
    opt = np.zeros(N_OPTIONS, dtype=np.int32)
    opt[OPT_TOURNAMENT_HAND] = int(tournament_hand)
    opt[OPT_ADVANCE_TO_CONTACT] = int(advance_to_contact)
    opt[OPT_DIGGING_IN] = int(digging_in)
    opt[OPT_DL_FORCED_MARCH] = int(dl_forced_march)
    opt[OPT_MAX_TURNS] = max_turns
    opt[OPT_CHECK] = int(check)
    fixed_map, fixed_rot = check_fixed_map(fixed_map, fixed_rot)
    opt[OPT_SETUP] = setup_mode(setup)
    if fixed_map is not None:
        opt[OPT_MAP : OPT_MAP + 4] = fixed_map
        opt[OPT_ROT : OPT_ROT + 4] = fixed_rot
    return opt


def setup_mode(setup: str) -> int:
    """``"random"`` / ``"rules"`` -> SETUP_RANDOM / SETUP_RULES (a UsageError naming
    ``--setup`` otherwise)."""
    if setup not in SETUP_MODES:
        raise UsageError(f"--setup: expected one of {', '.join(SETUP_MODES)}, got {setup!r}")
    return SETUP_MODES.index(setup)


def describe_setup(
    setup: str = "random",
    fixed_map: Sequence[int] | None = None,
    fixed_rot: Sequence[int] | None = None,
) -> str:
    """The set-up in words when it is not the default, ``""`` otherwise: ``"set-up rules
    (rule 3); map 5,9,12,18 rot 0,1,0,3"`` (summaries, page footers, replay headers)."""
    parts = []
    if setup != "random":
        parts.append(f"set-up {setup} (rule 3)")
    if fixed_map is not None:
        rot = fixed_rot if fixed_rot is not None else (0, 0, 0, 0)
        parts.append(f"map {','.join(map(str, fixed_map))} rot {','.join(map(str, rot))}")
    return "; ".join(parts)


def _numbers(text: str, option: str, what: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",")]
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise UsageError(f"{option}: expected 4 comma-separated {what}, got {text!r}") from None
    if len(values) != 4:
        raise UsageError(
            f"{option}: expected 4 comma-separated {what}, got {len(values)} in {text!r}"
        )
    return values


def parse_fixed_map(
    map_text: str | None, rot_text: str | None
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """The command line's ``--map NW,NE,SW,SE`` and ``--rot R,R,R,R`` as tuples of ints
    (None when not given), checked as :func:`check_fixed_map` checks them (pool aside)."""
    fixed_map = None
    if map_text is not None:
        fixed_map = _numbers(map_text, "--map", "section numbers NW,NE,SW,SE")
    fixed_rot = None
    if rot_text is not None:
        fixed_rot = _numbers(rot_text, "--rot", "quarter turns 0-3")
    return check_fixed_map(fixed_map, fixed_rot)


def check_fixed_map(
    fixed_map: Sequence[int] | None,
    fixed_rot: Sequence[int] | None,
    pool: Sequence[int] | None = None,
    unverified: Sequence[int] = (),
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """Check a fixed map (4 distinct section numbers NW, NE, SW, SE) and its rotations
    (4 quarter turns 0..3; None: all 0) and return them as tuples; with ``pool`` (the
    section numbers in use) every section must be in it (``unverified``: the numbers left
    out of the pool because their printed layout is unknown, named in the error). A bad
    value raises a one-line UsageError naming ``--map`` or ``--rot``."""
    if fixed_map is None:
        if fixed_rot is not None:
            raise UsageError("--rot: turns the sections of a fixed map; give --map too")
        return None, None
    fm = tuple(fixed_map)
    if len(fm) != 4 or not all(isinstance(s, int | np.integer) for s in fm):
        raise UsageError(f"--map: expected 4 section numbers NW,NE,SW,SE, got {fm!r}")
    fm = tuple(int(s) for s in fm)
    dup = sorted({s for s in fm if fm.count(s) > 1})
    if dup:
        raise UsageError(
            f"--map: expected 4 distinct sections, got section {dup[0]} more than once"
        )
    fr = (0, 0, 0, 0) if fixed_rot is None else tuple(fixed_rot)
    if len(fr) != 4 or not all(isinstance(r, int | np.integer) and 0 <= r <= 3 for r in fr):
        raise UsageError(
            f"--rot: expected 4 quarter turns clockwise, each 0-3 (NW,NE,SW,SE), got {fr!r}"
        )
    fr = tuple(int(r) for r in fr)
    if pool is not None:
        pool = [int(s) for s in pool]
        for s in fm:
            if s in unverified and s not in pool:
                raise UsageError(
                    f"--map: section {s} is unverified (its printed layout is unknown) and not "
                    f"in the map pool in use; expected sections from {_ranges(pool)} "
                    f"({_ranges(unverified)} only with include_unverified_maps)"
                )
            if s not in pool:
                raise UsageError(
                    f"--map: section {s}: no such section; expected sections from {_ranges(pool)}"
                )
    return fm, fr


def map_pool(
    include_unverified: bool = False, sections_file: str | None = None
) -> tuple[list[int], list[int]]:
    """(the section numbers of the map pool in use, the unverified ones left out of it);
    ``sections_file``: a designer's sections joining the built-in ones (``--sections``)."""
    from manoeuvre_sim.manoeuvre.model import load_map_pool

    sections = load_map_pool(sections_file)
    pool = [s.number for s in sections if s.verified or include_unverified]
    left_out = [s.number for s in sections if s.number not in pool]
    return pool, left_out


def _ranges(numbers: Sequence[int]) -> str:
    """``[1, 5, 6, 7, 9]`` -> ``'1, 5-7, 9'``."""
    out: list[str] = []
    ns = sorted(numbers)
    i = 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        out.append(str(ns[i]) if i == j else f"{ns[i]}-{ns[j]}")
        i = j + 1
    return ", ".join(out)
