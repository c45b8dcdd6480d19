"""Set up engine states from ASCII boards (tests/manoeuvre/boards.py) and real armies."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from manoeuvre_sim.manoeuvre.engine import state as S


def engine_unit(board_id: int) -> int:
    """Board ids 0..7 are player 0's units 0..7; 8..15 are player 1's units 0..7."""
    return board_id if board_id < 8 else S.MAXU_SIDE + board_id - 8


# the made-up Distant Lands test armies (tests/fixtures/distant_lands/), as army file paths
DL_FIXTURES = Path(__file__).parents[1] / "fixtures" / "distant_lands"
INDIA = str(DL_FIXTURES / "india.toml")
JAPAN = str(DL_FIXTURES / "japan.toml")
CHINA = str(DL_FIXTURES / "china.toml")
SWEDEN = str(DL_FIXTURES / "sweden.toml")


@lru_cache(maxsize=8)
def packed(army_a: str = "France", army_b: str = "Russia"):
    from manoeuvre_sim.manoeuvre.engine.pack import pack
    from manoeuvre_sim.manoeuvre.model import find_army, load_sections, load_terrain

    t = load_terrain()
    return pack(find_army(army_a), find_army(army_b), t, load_sections(terrain=t))


def state_from_board(board, reduced=()) -> np.ndarray:
    st = S.new_state()
    st[S.TERR : S.TERR + 64] = board.terr
    for bid in range(16):
        sq = board.unit_sq[bid]
        if sq >= 0:
            u = engine_unit(bid)
            st[S.OCC + sq] = u
            st[S.U_SQ + u] = sq
            st[S.U_STEP + u] = 1 if bid in reduced else 2
    return st


def uowner() -> np.ndarray:
    return (np.arange(S.NUNITS) // S.MAXU_SIDE).astype(np.int32)


def give_hand(st, p, cards_idx):
    st[S.HAND_N + p] = len(cards_idx)
    for i, c in enumerate(cards_idx):
        st[S.HAND + p * S.HMAX + i] = c


def card_index(P, p, unit=None, kind="unit", pred=None):
    """First card index of player p matching: a unit's card satisfying pred, or an HQ type."""
    for c in range(P.deck_size[p]):
        row = P.cards[p, c]
        if kind == "unit" and row[S.CF_KIND] == S.KIND_UNIT and row[S.CF_UNIT] == unit:
            if pred is None or pred(row):
                return c
        if kind == "leader" and row[S.CF_KIND] == S.KIND_LEADER and (pred is None or pred(row)):
            return c
        if kind not in ("unit", "leader") and row[S.CF_KIND] == S.KIND_HQ:
            if S.HQ_NAMES[row[S.CF_HQ]] == kind:
                return c
    raise LookupError((p, unit, kind))


def context(P, seed=1, policies=(0, 0), trace=0):
    """The kernels' context ``g`` (engine/game.py ``Context``) for packed tables ``P``."""
    from manoeuvre_sim.core.rng import new_state
    from manoeuvre_sim.manoeuvre.engine import decisions as D
    from manoeuvre_sim.manoeuvre.engine import game as G
    from manoeuvre_sim.manoeuvre.engine.players import DEFAULT_PARAMS

    return G.Context(
        P.units,
        P.cards,
        P.deck_size,
        P.tprops,
        uowner(),
        np.array(policies, np.int32),
        DEFAULT_PARAMS.copy(),
        new_state(seed),
        np.zeros((D.MAXOPT, 4), np.int32),
        np.zeros(G.CB_SIZE, np.int32),
        np.zeros((trace, 6), np.int32),
        np.zeros(1, np.int32),
    )


_TRACED_SNIPPET = """
import json, sys
from manoeuvre_sim.manoeuvre.engine.trace import play_traced
army_a, army_b, games = json.loads(sys.argv[1])
out = {}
for seed, pols in games:
    st, tr = play_traced(army_a, army_b, seed=seed, game=0, policies=tuple(pols))
    out[str(seed)] = [tr.tolist(), st.tolist()]
json.dump(out, sys.stdout)
"""


def traced_jit_and_python(army_a: str, army_b: str, games) -> tuple[dict, dict]:
    """Play game 0 of each ``(seed, (policy_a, policy_b))`` of ``games`` as traced games in
    two fresh interpreters, compiled and as plain Python (``NUMBA_DISABLE_JIT=1``, the same
    kernels); returns both ``{seed: [trace rows, final state]}``."""
    import json
    import os
    import subprocess
    import sys

    argv = [sys.executable, "-c", _TRACED_SNIPPET, json.dumps([army_a, army_b, list(games)])]
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    jit = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    env["NUMBA_DISABLE_JIT"] = "1"
    env["PYTHONWARNINGS"] = "ignore"
    py = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    return json.loads(jit.stdout), json.loads(py.stdout)
