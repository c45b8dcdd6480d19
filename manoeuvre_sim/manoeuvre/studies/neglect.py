"""What the play styles neglect (issue #16, item 3): per policy and card type, how many of
the cards a side holds get played, and whether the games in which it played that type go
better than the games in which it held it and never played it; per policy, the shape of
its games (length, attrition endings, the cards thrown away on game turn 1).

**Games.** Each policy plays every ordered pairing of the armies (mirrors included), N games
each, against ``opponent`` (default: itself). A pairing's games are seeded as in the
balance study (``study.pairing_seed``: master seed and the two armies alone), so every
policy plays the same maps, first players and opening hands (common random numbers). A
policy's *observations* are the sides it plays: both sides of a self-play game, its own
side against another opponent (which then sits in both seats).

**Card types** (:func:`card_types`): each HQ type by name, ``Leader``, ``Unit card``, and
``Unit card: withdraw roll`` — the United States' unit cards that carry a Withdraw value,
counted as *played* only when played for a withdraw attempt (rule 8).

**Columns** of :attr:`NeglectResult.cards` (one row per policy and type held by some army):
``copies_drawn`` (card copies drawn, summed over observations), ``play_rate`` (the share of
them played at least once), ``plays_per_copy``, ``discard_rate`` (the share discarded and
never played), ``held_games`` (observations in which the side drew a copy),
``played_games`` and ``unplayed_games`` (of those, the side played one / played none), the
win rates of the two groups with 95 % Wilson intervals (``win_played``, ``win_unplayed``,
draws count half), their difference ``played_minus_unplayed`` with a normal 95 % interval
(undefined under ``MIN_GROUP`` observations a side), and ``used_as`` (the shares of the
plays by use). The win rates are observational: a card played in a game that was going
well looks good (see docs/card-value.md); they show where to look, not what a card is worth.

:attr:`NeglectResult.policies` (one row per policy): ``games``, ``sides``, ``mean_turns``
(with a normal 95 % interval), ``attrition`` (share of games ended by rule 2.1, Wilson),
``turn_limit``, ``discarded_turn1`` (cards a side discarded in game turn 1, mean; the
opening hand is 5), ``whole_hand_turn1`` (share of sides that threw all 5 away),
``discards_per_side`` and ``plays_per_side`` (per game). Both tables in Markdown:
``analyses/manoeuvre/neglect.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from manoeuvre_sim.core import stats
from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.study import Pairing, blocks, pairing_seed, play
from manoeuvre_sim.manoeuvre.adapter import RuleOptions
from manoeuvre_sim.manoeuvre.model import Army
from manoeuvre_sim.manoeuvre.studies.card_observed import MIN_GROUP, _diff

KIND = "neglect"  # the registry's name (the adapter's OWN_STUDIES); it has no command
COMMAND = None  # (core/study_command.py): the players' benchmark runs it

LEADER = "Leader"
UNIT = "Unit card"
WITHDRAW_ROLL = "Unit card: withdraw roll"
PURPOSE_WITHDRAW = 9  # engine/rules.py PURPOSE_WITHDRAW (the trace's use of a play)


def type_names() -> tuple[str, ...]:
    """Every card type a row may have, in table order: the HQ types (model order), then
    leaders, unit cards and the withdraw roll."""
    from manoeuvre_sim.manoeuvre.model.army import HQ_TYPES

    return (*HQ_TYPES, LEADER, UNIT, WITHDRAW_ROLL)


def card_types(army: Army) -> tuple[np.ndarray, np.ndarray]:
    """``(member, by_use)`` for one army: ``member`` ``ndarray(bool, (n_cards, n_types))``,
    copy ``k`` (``card_no - 1`` of ``armies export``) in type ``j``; ``by_use``
    ``ndarray(int, (n_types,))``: -1 if any play counts as the type's play, else the use
    (``engine/cardstats.py`` USE index) that does."""
    names = type_names()
    col = {n: j for j, n in enumerate(names)}
    rows: list[list[int]] = []
    for u in army.units:
        for c in u.cards:
            js = [col[UNIT]]
            if c.withdraw_max:
                js.append(col[WITHDRAW_ROLL])
            rows.append(js)
    rows += [[col[LEADER]] for _ in army.leaders]
    for h in army.hq:
        rows += [[col[h.type]] for _ in range(h.count)]
    member = np.zeros((len(rows), len(names)), dtype=bool)
    for k, js in enumerate(rows):
        member[k, js] = True
    by_use = np.full(len(names), -1, dtype=np.int64)
    by_use[col[WITHDRAW_ROLL]] = PURPOSE_WITHDRAW
    return member, by_use


def side_type_counts(cs: np.ndarray, member: np.ndarray, by_use: np.ndarray) -> dict:
    """Per observation and type, from one side's per-copy statistics ``cs``
    (``(n, n_cards, NCS)``, engine/cardstats.py) and the army's :func:`card_types`: copies
    drawn, copies played (for the type's use), plays, copies discarded never played, and
    the uses of the plays (``(n, n_types, n_uses)``)."""
    from manoeuvre_sim.manoeuvre.engine import cardstats as C

    n_cards = member.shape[0]
    cs = cs[:, :n_cards, :].astype(np.int64)
    m = member.astype(np.int64)
    drawn = cs[:, :, C.CS_DRAWN] > 0
    uses = cs[:, :, C.CS_USE : C.CS_USE + len(C.USE_NAMES)]  # (n, cards, uses)
    any_plays = cs[:, :, C.CS_PLAYS]
    out_plays = np.zeros((cs.shape[0], m.shape[1]), dtype=np.int64)
    out_played = np.zeros_like(out_plays)
    for j in range(m.shape[1]):
        p = any_plays if by_use[j] < 0 else uses[:, :, by_use[j]]
        out_plays[:, j] = p @ m[:, j]
        out_played[:, j] = (p > 0) @ m[:, j]
    never = drawn & (any_plays == 0) & (cs[:, :, C.CS_DISCARDS] > 0)
    use_of = np.einsum("gcu,cj->gju", uses, m)
    for j in range(m.shape[1]):
        if by_use[j] >= 0:  # the type's own use only
            keep = use_of[:, j, by_use[j]].copy()
            use_of[:, j, :] = 0
            use_of[:, j, by_use[j]] = keep
    return {
        "drawn": drawn.astype(np.int64) @ m,
        "played": out_played,
        "plays": out_plays,
        "discarded": never.astype(np.int64) @ m,
        "uses": use_of,
        "discard_t1": cs[:, :, C.CS_DISCARD_T1].sum(axis=1),
        "discards": cs[:, :, C.CS_DISCARDS].sum(axis=1),
        "all_plays": any_plays.sum(axis=1),
    }


class NeglectSums:
    """One policy's sums over its observations (sizes fixed by the types, not the games)."""

    def __init__(self) -> None:
        from manoeuvre_sim.manoeuvre.engine.cardstats import USE_NAMES

        k = len(type_names())
        z = lambda: np.zeros(k)  # noqa: E731
        self.armies: list[set[str]] = [set() for _ in range(k)]
        self.copies = {w: z() for w in ("drawn", "played", "plays", "discarded")}
        self.uses = np.zeros((k, len(USE_NAMES)))
        self.n = {w: z() for w in ("held", "played", "unplayed")}
        self.s = {w: z() for w in ("held", "played", "unplayed")}
        self.s2 = {w: z() for w in ("held", "played", "unplayed")}
        self.games = 0
        self.sides = 0
        self.turns = 0.0
        self.turns2 = 0.0
        self.attrition = 0
        self.turn_limit = 0
        self.discard_t1 = 0.0
        self.whole_hand_t1 = 0
        self.discards = 0.0
        self.plays = 0.0

    def add_games(self, turns: np.ndarray, attrition: np.ndarray, limit: np.ndarray) -> None:
        """The games a policy played (once per game, whichever sides it played)."""
        t = turns.astype(np.float64)
        self.games += len(t)
        self.turns += float(t.sum())
        self.turns2 += float((t * t).sum())
        self.attrition += int(attrition.sum())
        self.turn_limit += int(limit.sum())

    def add_side(self, army: Army, score: np.ndarray, counts: dict, member: np.ndarray) -> None:
        """One side's observations: ``score`` (n,) 1 win, 1/2 draw, 0 loss; ``counts`` from
        :func:`side_type_counts`; ``member`` the army's type membership."""
        held_type = member.any(axis=0)
        for j in np.flatnonzero(held_type):
            self.armies[j].add(army.name)
        self.sides += len(score)
        for w in ("drawn", "played", "plays", "discarded"):
            self.copies[w] += counts[w].sum(axis=0)
        self.uses += counts["uses"].sum(axis=0)
        held = counts["drawn"] > 0
        played = held & (counts["played"] > 0)
        s = score[:, None]
        for w, mask in (("held", held), ("played", played), ("unplayed", held & ~played)):
            self.n[w] += mask.sum(axis=0)
            self.s[w] += (mask * s).sum(axis=0)
            self.s2[w] += (mask * s * s).sum(axis=0)
        self.discard_t1 += float(counts["discard_t1"].sum())
        self.whole_hand_t1 += int((counts["discard_t1"] >= 5).sum())
        self.discards += float(counts["discards"].sum())
        self.plays += float(counts["all_plays"].sum())


def _rate(s, n):
    s = np.asarray(s, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, s / np.where(n > 0, n, 1), np.nan)


def _wilson(s, n):
    s = np.asarray(s, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    lo = np.full(n.shape, np.nan)
    hi = np.full(n.shape, np.nan)
    ok = n > 0
    if ok.any():
        lo[ok], hi[ok] = stats.wilson_interval(s[ok], n[ok])
    return lo, hi


def card_frame(policy: str, o: NeglectSums) -> pd.DataFrame:
    """The per-type rows of one policy (types no army of the study holds are left out)."""
    from manoeuvre_sim.manoeuvre.engine.cardstats import USE_NAMES

    names = type_names()
    keep = [j for j in range(len(names)) if o.armies[j]]
    c, n, S, S2 = o.copies, o.n, o.s, o.s2
    df = pd.DataFrame(
        {
            "policy": policy,
            "card": [names[j] for j in keep],
            "armies": [len(o.armies[j]) for j in keep],
            "copies_drawn": c["drawn"][keep].astype(np.int64),
            "play_rate": _rate(c["played"], c["drawn"])[keep],
            "plays_per_copy": _rate(c["plays"], c["drawn"])[keep],
            "discard_rate": _rate(c["discarded"], c["drawn"])[keep],
            "held_games": n["held"][keep].astype(np.int64),
            "played_games": n["played"][keep].astype(np.int64),
            "unplayed_games": n["unplayed"][keep].astype(np.int64),
        }
    )
    for w, name in (("played", "win_played"), ("unplayed", "win_unplayed")):
        df[name] = _rate(S[w], n[w])[keep]
        lo, hi = _wilson(S[w], n[w])
        df[f"{name}_low"], df[f"{name}_high"] = lo[keep], hi[keep]
    d, lo, hi = _diff(
        S["played"], S2["played"], n["played"], S["unplayed"], S2["unplayed"], n["unplayed"]
    )
    df["played_minus_unplayed"], df["diff_low"], df["diff_high"] = d[keep], lo[keep], hi[keep]
    used = []
    for j in keep:
        tot = o.uses[j].sum()
        parts = sorted(
            ((USE_NAMES[k], o.uses[j, k] / tot) for k in range(1, len(USE_NAMES)) if o.uses[j, k]),
            key=lambda x: -x[1],
        )
        used.append(", ".join(f"{nm} {100 * v:.0f}%" for nm, v in parts))
    df["used_as"] = used
    return df


def policy_row(policy: str, opponent: str, o: NeglectSums) -> dict:
    z = stats.z_value()
    g, sides = o.games, o.sides
    mean = o.turns / g if g else np.nan
    sd = np.sqrt(max(o.turns2 / g - mean * mean, 0.0)) if g else np.nan
    half = z * sd / np.sqrt(g) if g else np.nan
    alo, ahi = _wilson(o.attrition, g) if g else (np.nan, np.nan)
    return {
        "policy": policy,
        "opponent": opponent,
        "games": g,
        "sides": sides,
        "mean_turns": mean,
        "turns_low": mean - half,
        "turns_high": mean + half,
        "attrition": o.attrition / g if g else np.nan,
        "attrition_low": float(alo),
        "attrition_high": float(ahi),
        "turn_limit": o.turn_limit / g if g else np.nan,
        "discarded_turn1": o.discard_t1 / sides if sides else np.nan,
        "whole_hand_turn1": o.whole_hand_t1 / sides if sides else np.nan,
        "discards_per_side": o.discards / sides if sides else np.nan,
        "plays_per_side": o.plays / sides if sides else np.nan,
    }


# --- the study ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NeglectSpec:
    armies: tuple[Army, ...]
    policies: tuple[str, ...]
    games: tuple[int, ...]  # per ordered pairing, one entry per policy
    opponent: str | None = None  # None: each policy against itself
    seed: int = 1
    options: RuleOptions = RuleOptions()
    block: int = 250
    threads: int = 0

    def __post_init__(self) -> None:
        from manoeuvre_sim.manoeuvre.runner import check_policy

        if not self.policies:
            raise UsageError("--policies: expected at least one policy")
        for p in (*self.policies, *([self.opponent] if self.opponent else [])):
            check_policy(p, "--policies")
        if len(set(self.policies)) != len(self.policies):
            raise UsageError("--policies: a policy is named twice")
        if len(self.games) != len(self.policies) or any(n < 1 for n in self.games):
            raise UsageError("--games: expected a positive number of games per pairing")
        if not self.armies:
            raise UsageError("--armies: expected at least one army")
        if not (0 <= self.seed < 2**63):
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.block < 1 or self.threads < 0:
            raise UsageError("block and threads: expected positive numbers")

    def pairings(self) -> list[Pairing]:
        """Per policy, every ordered pairing of the armies; against another opponent, also
        with the seats swapped (the policy plays both seats)."""
        out = []
        for pol in self.policies:
            opp = self.opponent or pol
            seatings = [(pol, opp)] if opp == pol else [(pol, opp), (opp, pol)]
            for a in self.armies:
                for b in self.armies:
                    seed = pairing_seed(self.seed, a.name, b.name)
                    for pa, pb in seatings:
                        out.append(Pairing(a, b, pa, pb, seed, label=pol))
        return out


@dataclass
class NeglectResult:
    spec: NeglectSpec
    cards: pd.DataFrame
    policies: pd.DataFrame
    seconds: float = 0.0
    interrupted: bool = False
    sums: dict[str, NeglectSums] = field(default_factory=dict, repr=False)


def run(
    policies: Sequence[str] | Mapping[str, int],
    *,
    armies: Sequence[str | Army] | None = None,
    games_per_pairing: int = 100,
    opponent: str | None = None,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
    **spec_kw,
) -> NeglectResult:
    """Play the study and return its frames. ``policies``: names (each plays
    ``games_per_pairing`` games per ordered pairing) or a mapping name -> games per pairing
    (a slow player gets fewer). ``armies``: None for the 8 base armies."""
    from manoeuvre_sim.manoeuvre.balance_setup import resolve_armies
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    if isinstance(policies, Mapping):
        names, games = tuple(policies), tuple(int(v) for v in policies.values())
    else:
        names = tuple(policies)
        games = tuple(games_per_pairing for _ in names)
    loaded = load_builtin_armies() if armies is None else resolve_armies(armies)[0]
    spec = NeglectSpec(tuple(loaded), names, games, opponent=opponent, seed=seed, **spec_kw)
    return run_spec(spec, progress=progress)


def run_spec(spec: NeglectSpec, progress: Callable[[int, int], None] | None = None):
    pairings = spec.pairings()
    per_policy = dict(zip(spec.policies, spec.games, strict=True))
    tasks = [
        t for i, p in enumerate(pairings) for t in blocks(i, 0, per_policy[p.label], spec.block)
    ]
    total = sum(t.count for t in tasks)
    sums = {p: NeglectSums() for p in spec.policies}
    types = {a.name: card_types(a) for a in spec.armies}
    done = [0]

    def on_frame(task, df, cs):
        p = pairings[task.pairing]
        o = sums[p.label]
        o.add_games(
            df["game_turns"].to_numpy(),
            (df["victory"] == "attrition").to_numpy(),
            df["turn_limit"].to_numpy(),
        )
        for side, army, pol in ((0, p.army_a, p.policy_a), (1, p.army_b, p.policy_b)):
            if pol != p.label:
                continue
            win = "ab"[side]
            score = np.where(df["winner"] == "draw", 0.5, (df["winner"] == win).astype(float))
            member, by_use = types[army.name]
            o.add_side(army, score, side_type_counts(cs[:, side], member, by_use), member)

    def prog(n):
        done[0] += n
        if progress is not None:
            progress(done[0], total)

    out = play(
        pairings, tasks, game="manoeuvre", options=spec.options, threads=spec.threads, on_frame=on_frame,
        progress=prog, stats=True,
    )  # fmt: skip
    cards = pd.concat([card_frame(p, sums[p]) for p in spec.policies], ignore_index=True)
    pol = pd.DataFrame([policy_row(p, spec.opponent or p, sums[p]) for p in spec.policies])
    return NeglectResult(spec, cards, pol, out.seconds, out.interrupted, sums)


__all__ = [
    "LEADER",
    "MIN_GROUP",
    "UNIT",
    "WITHDRAW_ROLL",
    "NeglectResult",
    "NeglectSpec",
    "NeglectSums",
    "card_frame",
    "card_types",
    "policy_row",
    "run",
    "run_spec",
    "side_type_counts",
    "type_names",
]
