"""A toy game behind ``games.Game``, in pure Python, for the tests of the generic study layer.

Each side is a coin with a chance of heads in percent; a game is ``Options.flips`` flips of
each coin, the side with more heads wins (equal: a draw). Game ``i`` of a pairing is seeded
from ``(pairing.seed, i)`` alone through ``manoeuvre_sim.core.rng``, as a real game's kernels are:
so its records must not depend on the block size, the backend or a resume. Nothing of
Manoeuvre is imported. The per-game statistics are each coin's heads, ``int32 (count, 2)``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass

import numpy as np

from manoeuvre_sim.core.errors import UsageError

KEY = "coin"
TITLE = "Coin flips (a test game)"
RULES_VERSION = "coin-1"
POLICIES = ("fair", "lucky")  # a lucky player's coin shows heads 10 points more often
DEFAULT_POLICY = "fair"
ENGINE_SOURCES = ("core/rng.py",)
VICTORY_KINDS = ("none", "heads")
EXTRA_COLUMNS = ("heads_a", "heads_b")
STATS_DIR = "coin_stats"


@dataclass(frozen=True)
class Options:
    flips: int = 5

    def __post_init__(self) -> None:
        if self.flips < 1:
            raise UsageError(f"flips: expected a positive number, got {self.flips}")

    def describe(self) -> str:
        return "" if self.flips == 5 else f"{self.flips} flips"


@dataclass(frozen=True)
class Coin:
    name: str
    heads: int = 50  # percent, the parts' offsets included
    # the why study's toy parts: (name, offset in percent points), heads = base + offsets
    parts: tuple[tuple[str, int], ...] = ()


def load_side(spec: str, relax: bool = False) -> Coin:
    """``NAME`` or ``NAME:PERCENT``, then optionally its parts ``/PART=OFFSET/...`` (heads:
    the percent plus the parts' offsets)."""
    head, *items = spec.split("/")
    name, _, pct = head.partition(":")
    parts = []
    for item in items:
        part, _, off = item.partition("=")
        try:
            parts.append((part.strip(), int(off)))
        except ValueError:
            raise UsageError(f"coin {spec}: part {item!r}: expected PART=OFFSET") from None
    coin = Coin(name, (int(pct) if pct else 50) + sum(o for _, o in parts), tuple(parts))
    if not 0 <= coin.heads <= 100:
        raise UsageError(f"coin {spec}: heads are 0..100 percent")
    return coin


def side_hash(side: Coin) -> str:
    d = asdict(side)
    if not side.parts:  # a coin without parts hashes as before they existed
        del d["parts"]
    return hashlib.sha256(json.dumps(d).encode()).hexdigest()[:16]


def data_hash(sides, options: Options) -> str:
    h = hashlib.sha256(json.dumps(asdict(options)).encode())
    for s in sorted(sides, key=lambda s: s.name):
        h.update(side_hash(s).encode())
    return h.hexdigest()[:16]


def prepare(pairings, options: Options) -> dict:
    # by the side itself, not its name: a what-if plays a side and its variant together
    sides = {s: s.heads for p in pairings for s in (p.army_a, p.army_b)}
    return {"options": options, "heads": sides}


def play_block(prepared, pairing, first, count, threads, *, stats=False, flips_column=False):
    from manoeuvre_sim.core.rng import new_state, roll_die, uniform_below

    # a browser test that watches a job move sets this: a block then takes at least that
    # long, so the job cannot end before the page's first poll however fast the machine
    time.sleep(float(os.environ.get("COIN_BLOCK_SECONDS", "0")))
    flips = prepared["options"].flips
    luck = {"fair": 0, "lucky": 10}
    pct = (prepared["heads"][pairing.army_a] + luck[pairing.policy_a],
           prepared["heads"][pairing.army_b] + luck[pairing.policy_b])  # fmt: skip
    heads = np.zeros((count, 2), dtype=np.int32)
    first_player = np.zeros(count, dtype=np.int64)
    for j in range(count):
        state = new_state(pairing.seed, first + j)
        first_player[j] = uniform_below(state, 2)
        for side in (0, 1):
            heads[j, side] = sum(roll_die(state, 100) <= pct[side] for _ in range(flips))
    ab = np.array(["a", "b"])
    winner = np.where(
        heads[:, 0] > heads[:, 1], "a", np.where(heads[:, 1] > heads[:, 0], "b", "draw")
    )
    import pandas as pd

    df = pd.DataFrame(
        {
            "game": np.arange(first, first + count, dtype=np.int64),
            "seed": np.full(count, pairing.seed, dtype=np.int64),
            "army_a": pairing.army_a.name,
            "army_b": pairing.army_b.name,
            "policy_a": pairing.policy_a,
            "policy_b": pairing.policy_b,
            "first_player": ab[first_player],
            "winner": winner,
            "victory": np.where(winner == "draw", "none", "heads"),
            "game_turns": np.full(count, flips, dtype=np.int32),
            "heads_a": heads[:, 0],
            "heads_b": heads[:, 1],
        }
    )
    if flips_column:
        df["flips"] = flips
    return df, (heads.copy() if stats else None)


def read_stats(array):
    return np.asarray(array, dtype=np.int32)


# ---- the fixer's hooks (studies/fix.py): a coin's heads, 5 percent a step

FIX_EDIT_KINDS = {"heads": (1, 4, "a coin's chance of heads, 5 percent a step")}
HEADS_STEP = 5


def fix_edits(side: Coin, costs) -> list[tuple[str, str, int]]:
    """``NAME/heads=V`` for V within ``range`` steps of the coin's heads (0..100), each step
    costing ``cost``."""
    if "heads" not in costs:
        return []
    cost, steps = costs["heads"]
    out = []
    for k in range(1, steps + 1):
        for v in (side.heads - k * HEADS_STEP, side.heads + k * HEADS_STEP):
            if 0 <= v <= 100:
                out.append((f"{side.name}/heads={v}", "heads", cost * k))
    return out


def apply_side_edits(side: Coin, edits, *, relax: bool = False) -> tuple[Coin, list[str]]:
    """The coin with ``NAME/heads=V`` edits applied in order, and the change lines
    (``relax``: nothing to relax, a coin has no rules of its own)."""
    lines = []
    for edit in edits:
        path, _, value = edit.rpartition("=")
        name, _, fld = path.partition("/")
        if name.strip() != side.name or fld.strip() != "heads" or not value.strip().isdigit():
            raise UsageError(f'--set "{edit}": expected {side.name}/heads=PERCENT')
        new = load_side(f"{side.name}:{value.strip()}")
        lines.append(f"{side.name} / heads: {side.heads} -> {new.heads}")
        side = new
    return side, lines


# ---- the why study's hooks (studies/why.py): a toy part set, the base and each offset

WHY_REFERENCE = "the base: 50 percent; an offset: 0"


def why_parts(side: Coin) -> list[tuple[str, str]]:
    """The coin's base (its percent before the offsets) and each of its offsets."""
    return [("base", "base")] + [(p, "offset") for p, _ in side.parts]


def _off(side: Coin, off) -> Coin:
    names = [n for n, _ in why_parts(side)]
    if unknown := sorted(set(off) - set(names)):
        raise UsageError(f"why: coin {side.name!r} has no part {unknown[0]!r}")
    base = 50 if "base" in off else side.heads - sum(o for _, o in side.parts)
    parts = tuple((p, 0 if p in off else o) for p, o in side.parts)
    return Coin(side.name, base + sum(o for _, o in parts), parts)


def why_pairing(pairing, off_a, off_b):
    """The pairing with the parts switched off: a base at 50, an offset at 0."""
    from dataclasses import replace

    return replace(pairing, army_a=_off(pairing.army_a, off_a),
                   army_b=_off(pairing.army_b, off_b))  # fmt: skip
