"""The odds pages' forms: for each kind of ``manoeuvre-sim odds`` (and ``hex odds``), its
fields, named as the command line's options, and how a request's parameters become the
arguments of the library function the command calls.

A field is ``Field(name, type, label)``: ``int`` (empty means the option's default),
``ints``/``strs`` (repeatable, as ``--dice 2d8 --dice 1d6``), ``str``, ``flag`` (a
checkbox), ``choice`` (a select). The caps the page adds to the command line's own checks
bound the work one request may start: :data:`MAX_SIMULATE` resolutions, :data:`MAX_REPEAT`
values of a repeatable option.
"""

from __future__ import annotations

from dataclasses import dataclass

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import Params, flag

MAX_SIMULATE = 1_000_000  # Monte Carlo resolutions per request (the CLI allows 10**11)
MAX_REPEAT = 8  # values of one repeatable option (--dice, --support, --card, --mix, ...)
MAX_SEED = (1 << 63) - 1
VIEWS = ("exactly", "at_least", "at_most")


@dataclass(frozen=True)
class Field:
    """One input of a form: ``name`` is the option's (``defender_strength`` is
    ``--defender-strength``), ``arg`` the library function's argument (default ``name``)."""

    name: str
    type: str
    label: str
    default: object = None
    arg: str | None = None
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    help: str = ""
    group: str = ""
    tip: str = ""  # what the field means, in the rules' words (under it and its tooltip)

    @property
    def option(self) -> str:
        return flag(self.name)


SIM = (
    Field("simulate", "int", "Monte Carlo resolutions", 0, lo=0, hi=MAX_SIMULATE, group="check",
          help=f"0: exact odds only; at most {MAX_SIMULATE:,}"),
    Field("seed", "int", "Seed", 1, lo=0, hi=MAX_SEED, group="check"),
)  # fmt: skip


def read(params: Params, fields: tuple[Field, ...], extra: tuple[str, ...] = (),
         names: dict[str, tuple[str, ...]] | None = None) -> dict:  # fmt: skip
    """The library arguments of a form's fields from the request's parameters, checked as
    the command line checks its options; a parameter the form does not have is refused.

    ``choice`` fields are checked against their choices, ``army`` fields against the
    game's ``names["army"]`` (a built-in army's name, never a path to a file); unit,
    leader and terrain names are left to the library, whose errors name the option."""
    params.only([f.name for f in fields] + list(extra))
    out = {}
    for f in fields:
        arg = f.arg or f.name
        if f.type == "int":
            out[arg] = params.integer(f.name, f.default, lo=f.lo, hi=f.hi)
        elif f.type in ("ints", "strs"):
            values = params.integers(f.name) if f.type == "ints" else params.strings(f.name)
            if len(values) > MAX_REPEAT:
                raise UsageError(
                    f"{f.option}: at most {MAX_REPEAT} values on this page, got {len(values)}"
                )
            out[arg] = values
        elif f.type == "flag":
            out[arg] = params.boolean(f.name)
        elif f.type == "choice":
            out[arg] = params.choice(f.name, f.choices, f.default)
        elif f.type == "army":  # a built-in army's name, never a path to a file
            out[arg] = params.choice(f.name, (names or {}).get("army", ()), f.default)
        else:
            out[arg] = params.string(f.name, f.default)
    return out


def values(params: Params, fields: tuple[Field, ...]) -> dict[str, object]:
    """What each input shows: the value as sent (a string, a list for repeatable ones, a
    bool for flags), or the field's default when the request does not give it."""
    out: dict[str, object] = {}
    for f in fields:
        if f.type in ("ints", "strs"):
            out[f.name] = list(params.strings(f.name))
        elif f.type == "flag":
            out[f.name] = (params.raw(f.name) or "").lower() in ("1", "true", "on", "yes")
        else:
            raw = params.raw(f.name)
            out[f.name] = raw if raw is not None else ("" if f.default is None else f.default)
    return out
