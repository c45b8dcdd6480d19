"""The games of a tuning run (``tune.py``): which games each candidate plays, with common
random numbers (:func:`tuning_plan`, :func:`heldout_plan`: block seeds from the master seed
and the block's key alone), and the :class:`Arena` that plays them and scores a vector.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.styles import Policy

PAIRINGS = ("mirror", "field")


@dataclass(frozen=True)
class Block:
    """``games`` games of army_a (seat a) against army_b (seat b), the candidate in seat
    ``seat`` (0: a) and ``opponent`` in the other, games 0..games-1 of block seed ``seed``."""

    opponent: str
    army_a: str
    army_b: str
    seat: int
    seed: int
    games: int


def block_seed(master: int, *key: object) -> int:
    """A 63-bit block seed from the master seed and a key (its parts joined)."""
    h = hashlib.sha256("\x00".join(str(k) for k in key).encode()).digest()
    ss = np.random.SeedSequence([int(master), int.from_bytes(h[:8], "little")])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def army_pairs(armies: Sequence[str], pairings: str) -> list[tuple[str, str]]:
    if pairings == "mirror":
        return [(a, a) for a in armies]
    if pairings == "field":
        return [(a, b) for a in armies for b in armies]
    raise UsageError(f"--pairings: expected one of {', '.join(PAIRINGS)}, got {pairings!r}")


def games_per_block(games: int, opponents: int, pairs: int) -> int:
    """Games per block so that a candidate plays at least ``games`` (both seatings)."""
    if games < 1:
        raise UsageError(f"--games-per-eval: expected a positive number of games, got {games}")
    return -(-games // (2 * opponents * pairs))


def _plan(stream: tuple, master: int, opponents, pairs, per: int) -> list[Block]:
    out = []
    for opp in opponents:
        for a, b in pairs:
            s = block_seed(master, *stream, opp, a, b)
            for seat in (0, 1):
                out.append(Block(opp, a, b, seat, s, per))
    return out


def tuning_plan(
    master: int, generation: int, pool: Sequence[str], pairs: Sequence[tuple[str, str]], per: int
) -> list[Block]:
    """The games every candidate of ``generation`` plays: for each pool style and army
    pairing one block seed (from the master seed, the generation, the style's and the
    armies' names), played with the candidate in each seat."""
    return _plan(("tune", generation), master, pool, pairs, per)


def heldout_plan(
    master: int, against: Sequence[str], pairs: Sequence[tuple[str, str]], per: int
) -> list[Block]:
    """The held-out games: seeds from a stream tuning never draws from."""
    return _plan(("heldout",), master, against, pairs, per)


@dataclass
class Score:
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else float("nan")

    def add(self, other: Score) -> None:
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws


class Arena:
    """Plays blocks of games between a candidate vector and named policies, with the armies
    packed once."""

    def __init__(
        self,
        armies: dict,  # name -> model.Army
        policies: dict[str, Policy],
        *,
        threads: int = 0,
        base_policy: str = "balanced",
        options=None,
    ) -> None:
        from manoeuvre_sim.manoeuvre.adapter import RuleOptions
        from manoeuvre_sim.manoeuvre.model import load_map_pool, load_terrain

        self.armies = armies
        self.policies = policies
        self.threads = threads
        self.base_policy = base_policy  # the heuristic id the candidate plays under
        self._terrain = load_terrain()
        # the games' rule options (the CLI's game options), a --sections file's pool too
        self.options = RuleOptions() if options is None else options
        self._sections = load_map_pool(self.options.sections_file, self._terrain)
        self._packed: dict[tuple[str, str], tuple] = {}
        self.data_hash: dict[tuple[str, str], str] = {}

    def prepared(self, a: str, b: str) -> tuple:
        if (a, b) not in self._packed:
            from manoeuvre_sim.manoeuvre.engine.pack import pack

            A, B = self.armies[a], self.armies[b]
            P = pack(A, B, self._terrain, self._sections,
                     include_unverified=self.options.include_unverified_maps)  # fmt: skip
            self._packed[(a, b)] = (A, B, P)
            self.data_hash[(a, b)] = P.data_hash
        return self._packed[(a, b)]

    def config(self, params: Sequence[float], blk: Block):
        """The ``SimConfig`` of one block (the candidate's vector in its seat)."""
        from manoeuvre_sim.manoeuvre.runner import SimConfig

        opp = self.policies[blk.opponent]
        cand = (self.base_policy, tuple(float(x) for x in params))
        other = (opp.base, opp.params)
        (pa, va), (pb, vb) = (cand, other) if blk.seat == 0 else (other, cand)
        return SimConfig(
            blk.army_a, blk.army_b, games=blk.games, seed=blk.seed, policy_a=pa, policy_b=pb,
            params_a=va, params_b=vb, threads=self.threads, chunk=blk.games,
            **self.options.sim_fields(),
        )  # fmt: skip

    def play(self, params: Sequence[float], blk: Block) -> Score:
        from manoeuvre_sim.manoeuvre.engine.batch import R_WINNER
        from manoeuvre_sim.manoeuvre.runner import simulate

        res = simulate(self.config(params, blk), prepared=self.prepared(blk.army_a, blk.army_b))
        if res.interrupted:
            raise KeyboardInterrupt
        w = res.records[:, R_WINNER]
        return Score(len(w), int((w == blk.seat).sum()), int((w < 0).sum()))

    def score(
        self,
        params: Sequence[float],
        blocks: Sequence[Block],
        progress: Callable[[int], None] | None = None,
    ) -> Score:
        total = Score()
        for blk in blocks:
            total.add(self.play(params, blk))
            if progress is not None:
                progress(blk.games)
        return total


def evaluate(
    arena: Arena,
    params: Sequence[float],
    plan: Sequence[Block],
    progress: Callable[[int], None] | None = None,
    confidence: float = 0.95,
):
    """Play ``params`` on ``plan`` and yield one row per opponent (in plan order) as each
    opponent's games finish: games, wins, draws, losses, the win rate (draws half) with its
    Wilson interval, and the rate in each seat."""
    from manoeuvre_sim.core.stats import wilson_interval

    order = list(dict.fromkeys(b.opponent for b in plan))
    for opp in order:
        seats = [Score(), Score()]
        for blk in plan:
            if blk.opponent == opp:
                seats[blk.seat].add(arena.play(params, blk))
                if progress is not None:
                    progress(blk.games)
        s = Score()
        for x in seats:
            s.add(x)
        lo, hi = wilson_interval(s.points, s.games, confidence)
        yield {
            "opponent": opp,
            "games": s.games,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.games - s.wins - s.draws,
            "win_rate": s.rate,
            "ci_low": float(lo),
            "ci_high": float(hi),
            "win_rate_seat_a": seats[0].rate,
            "win_rate_seat_b": seats[1].rate,
        }
