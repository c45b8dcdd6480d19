"""Maneuver's variants of the scenario's options, what its balance study compares
(``studies/balance.py``, ``manoeuvre-sim hex balance``; the adapter's ``balance_command``,
``balance_check`` and ``balance_manifest``, beside its ``balance_pairings``): a :class:`Variant` is one
combination of rule [13]'s options (and rule [2]'s border line); :func:`variant_grid` the
variants of the command line; :class:`VariantSettings` what every variant of a study plays
with (turns, scenario, the interpretation switches). Per variant the study plays every
ordered pairing of the players (each player once blue and once red, mirrors included).

Seeding (common random numbers): the pairing of ``a`` (blue) and ``b`` (red) is seeded
from (master seed, ``hex:a@blue``, ``hex:b@red``) alone, as ``hex tournament`` seeds it, so
every variant replays the same seeds, adding or removing a variant changes no other
variant's games, and a row replays with ``hex replay --seed SEED --game GAME`` and the
variant's options.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import product

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.hexgame import GAME_TITLE, parse_policy
from manoeuvre_sim.hexgame.options import Options
from manoeuvre_sim.hexgame.records import SWITCH_WORDS

DEFAULT_POLICIES = ("capital", "attrition")
DEFAULT_GAMES = 2000


@dataclass(frozen=True)
class Variant:
    """One combination of rule [13]'s options (and rule [2]'s border line); ``name`` (default:
    derived from the options) labels it in every table and in the study store."""

    border: str = "basic"
    quality_blue: str = "front"
    quality_red: str = "front"
    step_losses: bool = False
    step_replacements: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.default_name())

    def default_name(self) -> str:
        parts = [self.border] if self.border != "basic" else []
        if (self.quality_blue, self.quality_red) != ("front", "front"):
            parts.append(f"quality {self.quality_blue}:{self.quality_red}")
        # the switches a variant has (step losses, step replacements), as a run says them
        parts += [words for name, words in SWITCH_WORDS if getattr(self, name, False)]
        return " + ".join(parts) or "basic"

    def options(self, turns: int = 10, scenario: str | None = None, **readings) -> Options:
        """The variant's rule options; ``readings``: the interpretation switches
        (``captured_capital_zoc``, ``retreat_apart``) the whole study plays with."""
        return Options(
            border=self.border, turns=turns, quality_blue=self.quality_blue,
            quality_red=self.quality_red, step_losses=self.step_losses,
            step_replacements=self.step_replacements, scenario=scenario, **readings,
        )  # fmt: skip

    def record(self) -> dict:
        return asdict(self)


def default_variants() -> tuple[Variant, ...]:
    """The basic game, each advanced rule on its own, and the large-vs-small borders."""
    return (
        Variant(),
        Variant(border="large_blue"),
        Variant(border="large_red"),
        Variant(quality_blue="back"),
        Variant(quality_red="back"),
        Variant(step_losses=True),
        Variant(step_replacements=True),
    )


def _switch(text: str, flag: str) -> tuple[bool, ...]:
    choices = {"off": (False,), "on": (True,), "both": (False, True)}
    if text not in choices:
        raise UsageError(f"{flag}: expected off, on or both, got {text!r}")
    return choices[text]


def parse_quality(text: str) -> tuple[str, str]:
    """``--quality``'s ``BLUE:RED``, each ``front``, ``back`` or a number of units."""
    blue, sep, red = text.partition(":")
    ok = lambda q: q in ("front", "back") or q.isdigit()  # noqa: E731
    if not sep or not ok(blue) or not ok(red):
        raise UsageError(
            f"--quality: expected BLUE:RED, each front, back or a number of units on their "
            f"weak side (e.g. back:front,3:front), got {text!r}"
        )
    return blue, red


def policy_names(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """The players ``--policies`` names, comma-separated or a list (None: the default
    pair)."""
    if text is None:
        return DEFAULT_POLICIES
    text = text if isinstance(text, str) else ",".join(text)
    pols = tuple(p.strip() for p in text.split(",") if p.strip())
    if not pols:
        raise UsageError("--policies: expected comma-separated players")
    return pols


def one_variant(border: str = "basic", quality: str = "front:front", step_losses: bool = False,
                step_replacements: bool = False) -> Variant:  # fmt: skip
    """The one variant of ``--border``, ``--quality`` (``BLUE:RED``) and the step rules'
    flags (``hex whatif``'s rules)."""
    qb, qr = parse_quality(quality)
    return Variant(border=border, quality_blue=qb, quality_red=qr, step_losses=step_losses,
                   step_replacements=step_replacements)  # fmt: skip


def variant_grid(
    borders: str | None = None,
    quality: str | None = None,
    step_losses: str | None = None,
    step_replacements: str | None = None,
) -> tuple[Variant, ...]:
    """The variants of the command line: none given, :func:`default_variants`; else every
    combination of the lists given (``borders`` ``basic,large_blue``; ``quality``
    ``front:front,back:front``; ``off``/``on``/``both`` for the two step rules), an option
    not given staying at the basic game's value."""
    if borders is quality is step_losses is step_replacements is None:
        return default_variants()
    bs = [b.strip() for b in (borders or "basic").split(",") if b.strip()]
    qs = [parse_quality(q.strip()) for q in (quality or "front:front").split(",") if q.strip()]
    if not bs or not qs:
        raise UsageError("--borders/--quality: expected a comma-separated list")
    for flag, xs in (("--borders", bs), ("--quality", qs)):
        if len(set(xs)) != len(xs):
            raise UsageError(f"{flag}: a value is named twice")
    sl = _switch(step_losses or "off", "--step-losses")
    sr = _switch(step_replacements or "off", "--step-replacements")
    return tuple(
        Variant(border=b, quality_blue=q[0], quality_red=q[1], step_losses=x, step_replacements=y)
        for b, q, x, y in product(bs, qs, sl, sr)
    )


@dataclass(frozen=True)
class VariantSettings:
    """What every variant of a study plays with: ``turns`` (rule [12]), the ``scenario``
    file (None: the built-in one) and the interpretation switches
    (docs/RULE_INTERPRETATIONS.md)."""

    turns: int = 10
    scenario: str | None = None
    captured_capital_zoc: bool = False  # H6's other reading
    retreat_apart: bool = False  # H11's earlier reading

    def options_of(self, v: Variant):
        """Variant ``v``'s rule options in this study."""
        return v.options(self.turns, self.scenario, captured_capital_zoc=self.captured_capital_zoc,
                         retreat_apart=self.retreat_apart)  # fmt: skip

    def readings(self) -> list[str]:
        """The interpretation switches on, in words (none: the default readings)."""
        out = ["a captured Capital keeps its ZOC (H6)"] if self.captured_capital_zoc else []
        return out + (["retreating units never share a hex (H11)"] if self.retreat_apart else [])

    def load_scenario(self):
        from manoeuvre_sim.hexgame.scenario import load_scenario

        return load_scenario(self.scenario)


def balance_command(
    *,
    borders: str | None = None,
    quality: str | None = None,
    step_losses: str | None = None,
    step_replacements: str | None = None,
    policies: str | None = None,
    turns: int = 10,
    scenario: str | None = None,
    captured_capital_zoc: bool = False,
    retreat_apart: bool = False,
) -> dict:
    """``hex balance``'s own options -> the spec's ``sides`` (the variants), ``policies``
    (the player names) and ``settings``."""
    return {"sides": variant_grid(borders, quality, step_losses, step_replacements),
            "policies": policy_names(policies),
            "settings": VariantSettings(turns, scenario, captured_capital_zoc, retreat_apart)}  # fmt: skip


def balance_check(spec) -> None:
    """The players (distinct, each a player of ``POLICIES`` or ``search[:...]``) and every
    variant's border (one of the scenario's) and options."""
    from manoeuvre_sim.hexgame import fix_edits

    if is_scenario_sides(spec.sides):  # the balance fixer's: blue against red
        return fix_edits.sides_check(spec)
    if spec.settings is None:
        object.__setattr__(spec, "settings", VariantSettings())
    check_players(spec.policies)
    sc = spec.settings.load_scenario()
    for v in spec.sides:
        if v.border not in sc.borders:
            raise UsageError(
                f"--borders: {v.border!r} is not a border of the scenario ({', '.join(sc.borders)})"
            )
        spec.settings.options_of(v)  # checks quality and turns


def is_scenario_sides(sides) -> bool:
    """Whether a balance spec's sides are the scenario's two sides (the balance fixer's,
    ``adapter.scenario_sides``), not variants."""
    return bool(sides) and not any(isinstance(s, Variant) for s in sides)


def check_players(pols) -> tuple[str, ...]:
    """``pols``, if they are distinct players, each of ``POLICIES`` or ``search[:...]``
    (the balance study's and the what-if's players), else a UsageError of one line."""
    if not pols or len(set(pols)) != len(pols) or not all(isinstance(p, str) for p in pols):
        raise UsageError(f"--policies: expected distinct players, got {pols!r}")
    for p in pols:
        try:
            parse_policy(p)  # a player of POLICIES or search[:BUDGET[:STYLE[:SCOPE]]]
        except ValueError as e:
            raise UsageError(f"--policies: {e}") from None
    return tuple(pols)


def balance_manifest(spec) -> dict:
    """What describes the variant study in its manifest: the scenario (its file and
    hash), the turns, the variants and their options, the players, the seeding."""
    from manoeuvre_sim.hexgame.scenario import default_path

    st = spec.settings
    sc = st.load_scenario()
    return {
        "game_title": GAME_TITLE,
        "scenario": sc.name,
        "scenario_file": str(st.scenario or default_path()),
        "scenario_sha256": sc.sha256,
        "turns": st.turns,
        "variants": [v.record() for v in spec.sides],
        "options": {v.name: asdict(st.options_of(v)) for v in spec.sides},
        "policies": list(spec.policies),
        "seeding": "pairing seed from (seed, 'hex:<blue player>@blue', 'hex:<red player>@red')",
    }


__all__ = ["DEFAULT_POLICIES", "Variant", "VariantSettings", "balance_check",
           "balance_command", "balance_manifest", "check_players", "default_variants",
           "is_scenario_sides",
           "one_variant", "parse_quality", "policy_names", "variant_grid"]  # fmt: skip
