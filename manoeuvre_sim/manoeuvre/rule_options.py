"""Manoeuvre's rule options: the switches every game of a study is played with (the game
interface's ``Options``, ``adapter.RuleOptions``), checked when made, before any game."""

from __future__ import annotations

from dataclasses import dataclass, fields

from manoeuvre_sim.core.errors import UsageError


@dataclass(frozen=True)
class RuleOptions:
    """The rule switches every game of a study is played with (as ``simulate`` has them)."""

    tournament_hand: bool = False
    advance_to_contact: bool = False
    digging_in: bool = False
    dl_forced_march: bool = False  # Distant Lands 9.2 Forced March wording (--dl-forced-march)
    max_turns: int = 200
    include_unverified_maps: bool = False
    setup: str = "random"  # rule 3 set-up, "random" or "rules" (runner.SimConfig)
    fixed_map: tuple[int, ...] | None = None  # 4 section numbers NW, NE, SW, SE
    fixed_rot: tuple[int, ...] | None = None  # their quarter turns clockwise (default 0)
    sections_file: str | None = None  # a designer's map sections joining the pool (--sections)

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise UsageError(f"--max-turns: expected a positive number, got {self.max_turns}")
        from manoeuvre_sim.manoeuvre.engine.options import check_fixed_map, map_pool, setup_mode
        from manoeuvre_sim.manoeuvre.runner import absolute

        setup_mode(self.setup)
        object.__setattr__(self, "sections_file", absolute(self.sections_file))
        # the map pool (and a --sections file) is checked here, before any game is played
        pool, left_out = map_pool(self.include_unverified_maps, self.sections_file)
        fixed_map, fixed_rot = check_fixed_map(
            self.fixed_map, self.fixed_rot, pool=pool, unverified=left_out
        )
        object.__setattr__(self, "fixed_map", fixed_map)
        object.__setattr__(self, "fixed_rot", fixed_rot)

    @classmethod
    def of(cls, config) -> RuleOptions:
        """The rule options of a ``runner.SimConfig`` (its fields of the same names)."""
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})

    def sim_fields(self) -> dict:
        """These options as keywords of ``runner.SimConfig`` (whose fields of the same names
        decide the same things), so every command builds its games' config from one place."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def describe(self) -> str:
        """The set-up in words when it is not the default (``""`` otherwise): for summaries
        and page footers (``options.describe_setup``)."""
        from manoeuvre_sim.manoeuvre.engine.options import describe_setup

        return describe_setup(self.setup, self.fixed_map, self.fixed_rot)
