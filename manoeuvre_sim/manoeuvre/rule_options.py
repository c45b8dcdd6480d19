"""Manoeuvre's rule options: the switches every game of a study is played with (the game
interface's ``Options``, ``adapter.RuleOptions``), checked when made, before any game."""

from __future__ import annotations

from dataclasses import field, fields, make_dataclass

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.runner import SimConfig, absolute

# the fields of runner.SimConfig that are rule options, in RuleOptions' order (a manifest
# records them so: runner.config_dict); each keeps SimConfig's type and default
RULE_FIELDS = ("tournament_hand", "advance_to_contact", "digging_in", "dl_forced_march",
               "max_turns", "include_unverified_maps", "setup", "fixed_map", "fixed_rot",
               "sections_file")  # fmt: skip


class _RuleOptions:
    """:class:`RuleOptions`' checks and readers; its fields are ``runner.SimConfig``'s of
    :data:`RULE_FIELDS` (rule 3 set-up ``setup``, a fixed map's sections ``fixed_map`` and
    their turns ``fixed_rot``, a designer's ``sections_file``, the rule switches)."""

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise UsageError(f"--max-turns: expected a positive number, got {self.max_turns}")
        from manoeuvre_sim.manoeuvre.engine.options import check_fixed_map, map_pool, setup_mode

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
    def of(cls, config):
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


_CONFIG = {f.name: f for f in fields(SimConfig)}
RuleOptions = make_dataclass(
    "RuleOptions",
    [(n, _CONFIG[n].type, field(default=_CONFIG[n].default)) for n in RULE_FIELDS],
    bases=(_RuleOptions,),
    namespace={"__module__": __name__,
               "__doc__": "The rule switches every game of a study is played with (as "
                          "``simulate`` has them: ``runner.SimConfig``'s fields of "
                          "``RULE_FIELDS``)."},
    frozen=True,
)  # fmt: skip
