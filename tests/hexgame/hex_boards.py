"""Maneuver positions drawn as small hex maps, for the rules' scenario tests.

A diagram draws an odd-q map (flat-topped hexes in columns, odd columns half a hex lower)
with two text lines per row: the first holds the even columns (0, 2, 4, ...) of the row,
the second the odd columns (1, 3, ...), which sit half a hex lower::

    .   .   .        row 0, columns 0 2 4
      .   .          row 0, columns 1 3
    .   I   .        row 1: blue infantry in column 2
      i   .          row 1: red infantry in column 1

A cell is ``.`` (empty) or the units in it: upper case blue, lower case red; ``K`` the
Capital, ``I`` infantry, ``C`` cavalry, ``A`` artillery; a ``*`` after a letter marks that
unit reduced. Hexes are named ``CCRR`` (1-based) as on the map. Blue owns the top half of
the rows (the border), red the rest, unless the test gives its own sides.
"""

from __future__ import annotations

import textwrap

import numpy as np

from manoeuvre_sim.core.rng import new_state
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame import state as S
from manoeuvre_sim.hexgame.grid import Grid
from manoeuvre_sim.hexgame.players import policy_arrays

# X: a captured Capital, as ``hex replay`` draws it
LETTERS = {"K": SC.CAPITAL, "X": SC.CAPITAL, "I": SC.INFANTRY, "C": SC.CAVALRY, "A": SC.ARTILLERY}


class Board:
    """A drawn position: ``st``, the context ``g``, and ``unit``/``hex`` look-ups."""

    def __init__(self, diagram, policies=("capital", "capital"), options=None, turn=3):
        lines = [ln for ln in textwrap.dedent(diagram).splitlines() if ln.strip()]
        if lines and all(t.isdigit() for t in lines[0].split()):
            # a board as ``hex replay`` draws it: the column numbers over it (two lines) and
            # each line beginning with its row's number are dropped; ':' is an empty hex too
            lines = [ln.split(None, 1)[1] for ln in lines[2:]]
        assert len(lines) % 2 == 0, "two text lines per row"
        rows = len(lines) // 2
        even = [ln.split() for ln in lines[0::2]]
        odd = [ln.split() for ln in lines[1::2]]
        cols = len(even[0]) + len(odd[0])
        self.grid = Grid(cols, rows)
        sc = SC.load_scenario()
        units = SC.pack(sc).units
        hexes = np.zeros((self.grid.n, SC.H_NCOL), dtype=np.int32)
        for h in range(self.grid.n):
            hexes[h, SC.H_SIDE] = 0 if self.grid.col_row(h)[1] < rows // 2 else 1
            hexes[h, SC.H_SETUP] = 1
            hexes[h, SC.H_CAPITAL_OK] = 1
        self.packed = SC.Packed(
            units, hexes, self.grid.neighbours(), self.grid.distances(), ("",) * S.NU
        )
        opt = S.default_options() if options is None else options
        pol, params = policy_arrays(*policies)
        self.g = S.new_context(self.packed, opt, pol, params, trace_rows=500)
        self.g.rngs[:] = np.array([new_state(99, k) for k in range(3)])
        self.st = np.zeros(S.STATE_SIZE, dtype=np.int32)
        S.clear_state(self.st, units)
        for u in range(S.NU):
            if self.st[S.POS + u] == S.UNPLACED:
                self.st[S.POS + u] = S.ABSENT  # not in this position
        self.st[S.TURN] = turn
        used = set()
        self.at: dict[str, list[int]] = {}
        for r in range(rows):
            assert len(even[r]) == len(even[0]) and len(odd[r]) == len(odd[0]), f"row {r}"
            cells = [(2 * i, t) for i, t in enumerate(even[r])]
            cells += [(2 * i + 1, t) for i, t in enumerate(odd[r])]
            for col, tok in cells:
                if tok in (".", ":"):
                    continue
                h = self.grid.hex_id(col, r)
                i = 0
                while i < len(tok):
                    ch = tok[i]
                    side = 0 if ch.isupper() else 1
                    typ = LETTERS[ch.upper()]
                    u = next(
                        v
                        for v in range(side * SC.MAXU, side * SC.MAXU + SC.MAXU)
                        if units[v, SC.U_TYPE] == typ and v not in used
                    )
                    used.add(u)
                    self.st[S.POS + u] = h
                    if typ == SC.CAPITAL:
                        self.st[S.CAP_HOME + side] = h
                    if i + 1 < len(tok) and tok[i + 1] == "*":
                        self.st[S.STEP + u] = 1
                        i += 1
                    self.at.setdefault(self.grid.label(h), []).append(u)
                    i += 1

    def hex(self, name: str) -> int:
        return self.grid.parse(name)

    def units_at(self, name: str) -> list[int]:
        """The units standing in hex ``name`` now."""
        h = self.hex(name)
        return [u for u in range(S.NU) if self.st[S.POS + u] == h]

    def unit(self, name: str, k: int = 0) -> int:
        """The ``k``-th unit drawn in hex ``name``."""
        return self.at[name][k]

    def pos(self, u: int) -> str | None:
        h = int(self.st[S.POS + u])
        return self.grid.label(h) if h >= 0 else None

    def events(self, kind: int) -> list[tuple[int, ...]]:
        tr = self.g.tr[: self.g.trn[0]]
        return [tuple(int(x) for x in row[3:]) for row in tr if row[0] == kind]

    def rig_dice(self, attack_die: int, defence_die: int) -> None:
        """Set the dice stream so that the next combat rolls these two dice."""
        from manoeuvre_sim.core.rng import roll_die

        for k in range(100000):
            st = new_state(12345, k)
            probe = st.copy()
            if roll_die(probe, 6) == attack_die and roll_die(probe, 6) == defence_die:
                self.g.rngs[0, :] = st
                return
        raise AssertionError("no stream found")


def checked_games(policies, n, seed, border="basic", threads=2, **opt):
    """Records of games 0..n-1 of ``seed`` between two players, with the engine's
    invariant checks on (``check=1``) and the rule options ``opt``."""
    from manoeuvre_sim.hexgame import batch as BT

    packed = SC.pack(SC.load_scenario(), border)
    pol, params = policy_arrays(*policies)
    return BT.play_games(
        seed, 0, n, packed, S.default_options(check=1, **opt), pol, params, threads
    )


def plain_python_json(code: str):
    """Run ``code`` in a fresh interpreter with numba's JIT off and return the JSON of its
    last printed line: the plain-Python side of a kernels-vs-Python test."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, env=env,
        timeout=600,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])
