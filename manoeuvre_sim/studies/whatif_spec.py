"""The question a paired what-if answers (``studies/whatif.py``; docs/whatif.md): its spec
(the base sides, the variant's sides, rule options and edits, the players, the games), the
spec a game without a ``whatif_command`` of its own is given (:func:`spec_of`), and the
edits of the game's what-if language applied to the sides they name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game, hook, resolve
from manoeuvre_sim.core.study import Pairing, pairing_seed

BASE, VARIANT = "base", "variant"
DEFAULT_GAMES = 1000
DEFAULT_BLOCK = 1000


@dataclass(frozen=True)
class WhatIfSpec:
    """Everything that decides a what-if's games (recorded in the manifest).

    ``sides``: the base sides (``sources``: where each came from); ``policies``: the pairs
    of players ``(policy_a, policy_b)`` the pairings are played under; ``variant_sides``:
    the variant's sides, the base's names in the base's order (a side unchanged is the base
    side itself; empty: none changed); ``touched``: the sides whose pairings are replayed
    (every pairing with one of them is, even when its data did not change, so an identical
    variant is a real test); ``variant_options``: the variant's rule options (None: the
    base's; when they differ every pairing is replayed); ``changes``: what was changed, in
    words; ``edits``: the ``--set`` edits as typed; ``details``: what the game's hooks keep
    of the variant (Maneuver: the edited scenario)."""

    game: str
    sides: tuple[Any, ...]
    policies: tuple[tuple[str, str], ...]
    games_per_pairing: int = DEFAULT_GAMES
    seed: int = 1
    options: Any = None
    block: int = DEFAULT_BLOCK
    threads: int = 0
    sources: tuple[str, ...] = ()
    variant_sides: tuple[Any, ...] = ()
    touched: tuple[str, ...] = ()
    variant_options: Any = None
    changes: tuple[str, ...] = ()
    edits: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.games_per_pairing < 1:
            raise UsageError(
                f"--games-per-pairing: expected a positive number, got {self.games_per_pairing}"
            )
        if not 0 <= self.seed < 2**63:
            raise UsageError(f"--seed: expected an integer in 0..2**63-1, got {self.seed}")
        if self.block < 1:
            raise UsageError(f"--block: expected a positive number of games, got {self.block}")
        if self.threads < 0:
            raise UsageError(f"--threads: expected 0 (all cores) or more, got {self.threads}")
        if not self.policies:
            raise UsageError("whatif: expected a pair of players")
        if self.variant_sides and [s.name for s in self.variant_sides] != self.names:
            raise UsageError("whatif: the variant must hold the same sides as the base")
        if not self.touched and self.variant_options is None:
            raise UsageError("whatif: nothing to change: give a variant side or rule options")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sides]

    @property
    def variant_of(self) -> dict[str, Any]:
        """Side name -> the variant's side (the base side where unchanged)."""
        return dict(zip(self.names, self.variant_sides or self.sides, strict=True))

    @property
    def identical(self) -> bool:
        """Whether the variant's sides and options are the base's."""
        same_options = self.variant_options is None or self.variant_options == self.options
        return same_options and all(
            v == s for v, s in zip(self.variant_sides or self.sides, self.sides, strict=True)
        )

    def base_pairings(self) -> list[Pairing]:
        """The base pairings (label ``base``): the game's ``whatif_pairings``, else every
        ordered pairing of the sides (i in seat a, j in seat b, i-major) under each pair of
        players, seeded from (seed, side a's name, side b's name)."""
        own = hook(get_game(self.game), "whatif_pairings")
        if own is not None:
            return own(self)
        return [
            Pairing(a, b, pa, pb, pairing_seed(self.seed, a.name, b.name), BASE)
            for pa, pb in self.policies
            for a in self.sides
            for b in self.sides
        ]  # fmt: skip

    def variant_pairings(self, base: Sequence[Pairing], variant_options=None) -> dict[int, Pairing]:
        """Base index -> its variant pairing (the variant's sides, the base pairing's seed)
        for every pairing replayed: one with a touched side, or all of them when the
        variant's rule options differ from the base's."""
        v_options = self.variant_options if variant_options is None else variant_options
        every = v_options is not None and v_options != self.options
        by_name = self.variant_of
        return {
            i: replace(p, army_a=by_name[p.army_a.name], army_b=by_name[p.army_b.name],
                       label=VARIANT)
            for i, p in enumerate(base)
            if every or p.army_a.name in self.touched or p.army_b.name in self.touched
        }  # fmt: skip

    def planned_pairings(self) -> list[Pairing]:
        """Every pairing the study plays: the base's, then the variant's (what a job's cost
        bound counts)."""
        base = self.base_pairings()
        return [*base, *self.variant_pairings(base).values()]


def spec_of(
    game,
    sides: Sequence,
    *,
    variant_sides: Mapping[str, Any] | None = None,
    variant_options=None,
    options=None,
    policy: str | None = None,
    policy_a: str | None = None,
    policy_b: str | None = None,
    games_per_pairing: int = DEFAULT_GAMES,
    seed: int = 1,
    block: int = DEFAULT_BLOCK,
    threads: int = 0,
    relax: bool = False,
    edits: Sequence[str] = (),
) -> WhatIfSpec:
    """The what-if of a game with no ``whatif_command`` of its own: the balance study of
    ``sides`` (specs ``load_side`` reads, or sides) against its variant. ``variant_sides``:
    side name -> the spec (or side) of its variant (seeded as the base side);
    ``variant_options``: the variant's rule options (None: the base's); ``edits``: lines of
    the game's what-if language (``--set``), each applied by its ``apply_side_edits`` hook
    to the one side it edits (after that side's ``variant_sides``), its printed changes
    among the spec's changes."""
    g = resolve(game)
    loaded = [g.load_side(s, relax) if isinstance(s, str) else s for s in sides]
    sources = tuple(s if isinstance(s, str) else f"(object) {s.name}" for s in sides)
    names = [s.name for s in loaded]
    by_name = dict(zip(names, loaded, strict=True))
    changes = []
    for name, text in (variant_sides or {}).items():
        if name not in by_name:
            raise UsageError(f"variant side {name!r}: not a side of the study "
                             f"({', '.join(names)})")  # fmt: skip
        side = g.load_side(text, relax) if isinstance(text, str) else text
        changes.append(f"{name}: {g.side_hash(by_name[name])} -> {g.side_hash(side)}")
        by_name[name] = side
    edited = _apply_edits(g, by_name, edits, relax, changes)
    base_options = options if options is not None else g.Options()
    if variant_options is not None and variant_options != base_options:
        changes.append(f"rules: {variant_options.describe() or 'the defaults'}")
    pa = policy_a or policy or g.DEFAULT_POLICY
    pb = policy_b or policy or g.DEFAULT_POLICY
    return WhatIfSpec(
        g.KEY, tuple(loaded), ((pa, pb),), games_per_pairing, seed, base_options, block,
        threads, sources, tuple(by_name[n] for n in names),
        tuple(n for n in names if n in (variant_sides or {}) or n in edited), variant_options,
        tuple(changes),
    )  # fmt: skip


def _apply_edits(g, by_name: dict, edits: Sequence[str], relax: bool,
                 changes: list[str]) -> set[str]:  # fmt: skip
    """Apply each of ``edits`` (the game's what-if language) to the one side of ``by_name``
    it edits, found by the game's ``apply_side_edits`` (an edit is a side's when that side
    takes it); its printed changes appended to ``changes``; the names of the sides edited.
    An edit no side takes is the game's message for the first side; one that several take
    is refused as ambiguous."""
    if not edits:
        return set()
    apply = hook(g, "apply_side_edits")
    if apply is None:
        raise UsageError(f"--set: {g.KEY} has no edits of its sides (no apply_side_edits); "
                         "give a side's variant (--variant NAME=SIDE)")  # fmt: skip
    edited = set()
    for text in edits:
        took, first_error = [], None
        for name, side in by_name.items():
            try:
                took.append((name, *apply(side, [text], relax=relax)))
            except UsageError as e:
                first_error = first_error or e
        if not took:
            raise first_error
        if len(took) > 1:
            raise UsageError(f'--set "{text}": edits several sides '
                             f"({', '.join(n for n, _, _ in took)}); expected one")  # fmt: skip
        name, side, lines = took[0]
        by_name[name] = side
        changes.extend(lines)
        edited.add(name)
    return edited


def balance_spec(g, spec: WhatIfSpec):
    """The balance study a what-if's base is (``studies.balance.BalanceSpec``: its sides, its
    one pair of players, games, seed, options), for its manifest and for reading a study's
    games as its base (``whatif_base``); a UsageError for several pairs of players."""
    from manoeuvre_sim.core.study import PolicySpec
    from manoeuvre_sim.studies import balance as B

    (pa, pb), *more = spec.policies
    if more:
        raise UsageError("whatif: expected one pair of players")
    return B.BalanceSpec(g, spec.sides, (PolicySpec(pa, pb),), spec.games_per_pairing,
                         spec.seed, spec.options, block=spec.block, threads=spec.threads,
                         sources=spec.sources)  # fmt: skip
