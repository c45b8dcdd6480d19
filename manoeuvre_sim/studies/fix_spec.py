"""The question a fix answers (``studies/fix.py``; docs/fix.md): the edits (in the game's
what-if language, with their kinds and costs), the band, the designer's cost table, and
the spec the command line and the Python API build it from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import hook, resolve

DEFAULT_BAND = (0.45, 0.55)
DEFAULT_BUDGET = 6
DEFAULT_ALPHA = 0.05
DEFAULT_MIN_GAIN = 0.005  # half a point of the objective: less is not worth an errata line
DEFAULT_SCREEN_KEEP = 10  # the candidates of a step that play on after the screen's look


@dataclass(frozen=True)
class Edit:
    """One edit a game offers: its text in the game's what-if language, its kind, its cost,
    the side it edits."""

    side: str
    text: str
    kind: str
    cost: int

    @property
    def slot(self) -> str:
        """What it sets (the text before '='): two edits of one slot never combine."""
        return f"{self.side}\x00{self.text.rsplit('=', 1)[0].strip().casefold()}"


def parse_band(text: str | tuple, flag: str = "--target") -> tuple[float, float]:
    """``LO:HI`` (fractions 0..1, or a tuple) -> (lo, hi), a one-line UsageError else."""
    if isinstance(text, tuple):
        lo, hi = text
    else:
        try:
            lo, hi = (float(x) for x in str(text).split(":"))
        except ValueError:
            raise UsageError(f"{flag} {text!r}: expected LO:HI, e.g. 0.45:0.55") from None
    if not (0.0 <= lo < hi <= 1.0):
        raise UsageError(f"{flag} {text!r}: expected LO:HI with 0 <= LO < HI <= 1 (win rates "
                         "as fractions, e.g. 0.45:0.55)")  # fmt: skip
    return float(lo), float(hi)


def edit_kinds(g) -> dict[str, tuple[int, int, str]]:
    """The game's edit kinds (its ``FIX_EDIT_KINDS`` hook), a UsageError without them."""
    kinds = hook(g, "FIX_EDIT_KINDS")  # games.TOGETHER: with fix_edits, apply_side_edits
    if not kinds:
        raise UsageError(f"fix: the game {g.KEY!r} offers no edits to the fixer (it has no "
                         "FIX_EDIT_KINDS, fix_edits, apply_side_edits)")  # fmt: skip
    return dict(kinds)


def read_costs(g, source: str | Path | Mapping | None) -> dict[str, tuple[int, int]]:
    """The edit kinds allowed and what a step of each costs: ``source`` a TOML file (or its
    parsed mapping) of ``[kind]`` tables with ``cost`` and ``range`` (only the kinds listed
    are allowed; a missing key takes the game's default), or None (every kind at its
    default)."""
    import tomllib

    kinds = edit_kinds(g)
    if source is None:
        return {k: (c, r) for k, (c, r, _) in kinds.items()}
    flag = "--edits"
    if isinstance(source, Mapping):
        data, where = dict(source), flag
    else:
        where = f"{flag} {source}"
        try:
            data = tomllib.loads(Path(source).read_text(encoding="utf-8"))
        except OSError as e:
            raise UsageError(f"{where}: cannot read it ({e.strerror})") from None
        except tomllib.TOMLDecodeError as e:
            raise UsageError(f"{where}: not TOML ({e})") from None
    out = {}
    for kind, spec in data.items():
        if kind not in kinds:
            raise UsageError(f"{where}: edit kind {kind!r} is not one the game {g.KEY!r} "
                             f"offers; expected one of: {', '.join(kinds)}")  # fmt: skip
        if not isinstance(spec, Mapping):
            raise UsageError(f"{where}: [{kind}]: expected a table with cost and range")
        bad = sorted(set(spec) - {"cost", "range"})
        if bad:
            raise UsageError(f"{where}: [{kind}]: unknown key {bad[0]!r}; expected cost, range")
        cost, rng = spec.get("cost", kinds[kind][0]), spec.get("range", kinds[kind][1])
        for name, v, least in (("cost", cost, 1), ("range", rng, 0)):
            if not isinstance(v, int) or isinstance(v, bool) or v < least:
                raise UsageError(f"{where}: [{kind}] {name}: expected an integer >= {least}, "
                                 f"got {v!r}")  # fmt: skip
        out[kind] = (cost, rng)
    return out


@dataclass(frozen=True)
class FixSpec:
    """Everything that decides a fix's games and its search (recorded in the manifest)."""

    balance: object  # studies.balance.BalanceSpec of the search seed
    targets: tuple[str, ...]
    editable: tuple[str, ...]
    band: tuple[float, float]
    costs: dict
    budget: int
    games_per_look: int
    max_games: int
    confirm_games: int
    confirm_seed: int
    alpha: float
    edits: tuple[Edit, ...]
    min_gain: float = DEFAULT_MIN_GAIN
    screen_keep: int = DEFAULT_SCREEN_KEEP
    # the confirmation's half-width at a fair score's variance (fix_stats.confirm_halfwidth):
    # the search reads its objective and estimates on the band shrunk by it at each edge
    guard: float = 0.0

    @property
    def search_band(self) -> tuple[float, float]:
        """The band the search aims at: the band shrunk by the guard (docs/fix.md)."""
        from manoeuvre_sim.studies.fix_stats import inner_band

        return inner_band(self.band, self.guard)

    @property
    def threads(self) -> int:
        return self.balance.threads

    @property
    def block(self) -> int:
        """The games of a block: a look (a job's cancel waits for the blocks in play)."""
        return self.games_per_look

    def planned_games(self) -> list[tuple[object, int]]:
        """``(pairing, games)`` the fix may play at most, as a job bounds it: the base and
        every single edit to the cap on each pairing they touch, and the confirmation (its
        base and its fixed pairings); the combinations of the helpful singles come on top."""
        base = [p for p in self.balance.pairings() if p.army_a.name != p.army_b.name]
        out = [(p, self.max_games) for p in base]
        for e in self.edits:
            out += [(p, self.max_games) for p in base if e.side in (p.army_a.name,
                                                                     p.army_b.name)]  # fmt: skip
        out += [(p, self.confirm_games) for p in base]
        touched = set(self.editable)
        out += [(p, self.confirm_games) for p in base
                if {p.army_a.name, p.army_b.name} & touched]  # fmt: skip
        return out

    def record(self) -> dict:
        return {"targets": list(self.targets), "editable": list(self.editable),
                "band": list(self.band), "costs": {k: list(v) for k, v in self.costs.items()},
                "budget": self.budget, "games_per_look": self.games_per_look,
                "max_games": self.max_games, "alpha": self.alpha, "min_gain": self.min_gain,
                "screen_keep": self.screen_keep, "guard": self.guard,
                "search_band": list(self.search_band),
                "test": "asymptotic confidence sequences (Waudby-Smith et al. 2021) for the "
                        "paired changes, each change's rho tuned to its first look's paired "
                        "variance, a fixed normal interval for the reference played once; "
                        "Bonferroni over the targets' rates and changes; meets: every "
                        "target's rate interval of the box inside the band and its estimate inside "
                        "the band shrunk by the guard (the confirmation's half-width)"}  # fmt: skip


def _side_flag(names: Sequence[str], typed: str, flag: str) -> str:
    from manoeuvre_sim.core.errors import did_you_mean

    key = typed.strip().casefold()
    for n in names:
        if n.casefold() == key:
            return n
    raise UsageError(f"{flag} {typed!r}: not a side of the study{did_you_mean(typed, names)} "
                     f"(expected one of: {', '.join(names)})")  # fmt: skip


def command_spec(game, sides: Sequence, *, editable: Sequence[str] | None = None,
                 targets: Sequence[str] | None = None, band=DEFAULT_BAND, edits=None,
                 budget: int = DEFAULT_BUDGET, policy: str | None = None,
                 games_per_look: int = 200, max_games: int = 2000, confirm_games: int | None = None,
                 seed: int = 1, confirm_seed: int | None = None, alpha: float = DEFAULT_ALPHA,
                 min_gain: float = DEFAULT_MIN_GAIN, screen_keep: int = DEFAULT_SCREEN_KEEP,
                 options=None, threads: int = 0,
                 target_flag: str = "--army") -> FixSpec:  # fmt: skip
    """Every option checked (one line each) and every candidate edit listed, before any game;
    ``target_flag``: the option that names the targets in the messages (``hex fix``:
    ``--side``); ``confirm_games`` None: from the band (``fix_stats.confirm_games_for``)."""
    from manoeuvre_sim.studies.balance import BalanceSpec
    from manoeuvre_sim.studies.fix_stats import confirm_games_for, confirm_halfwidth

    g = resolve(game)
    band = parse_band(band)
    if not 0.0 < alpha < 0.5:
        raise UsageError(f"--alpha: expected an error rate between 0 and 0.5, got {alpha}")
    if not 0.0 <= min_gain < 1.0:
        raise UsageError(f"--min-gain: expected a distance between 0 and 1 (a fraction of a "
                         f"win rate, e.g. 0.005), got {min_gain}")  # fmt: skip
    counts = [("--games-per-look", games_per_look), ("--max-games", max_games)]
    for flag, v in counts + ([] if confirm_games is None else [("--confirm-games", confirm_games)]):
        if v < 2:
            raise UsageError(f"{flag}: expected at least 2 games, got {v}")
    if max_games < games_per_look:
        raise UsageError(f"--max-games {max_games}: expected at least --games-per-look "
                         f"({games_per_look})")  # fmt: skip
    if screen_keep < 1:
        raise UsageError(f"--screen-keep {screen_keep}: expected at least 1 candidate to play "
                         "on after the screen")  # fmt: skip
    if budget < 1:
        raise UsageError(f"--budget {budget}: allows no edit (expected a total cost >= 1)")
    costs = read_costs(g, edits)
    spec = BalanceSpec.of(g, sides, policy=policy, games_per_pairing=games_per_look,
                          seed=seed, options=options, block=games_per_look,
                          threads=threads)  # fmt: skip
    names = spec.names
    tg = tuple(_side_flag(names, t, target_flag) for t in targets) if targets else tuple(names)
    ed = tuple(_side_flag(names, t, "--edit") for t in editable) if editable else tuple(names)
    if confirm_seed is None:
        confirm_seed = (seed + 1_000_003) % 2**63
    if confirm_seed == seed:
        raise UsageError(f"--confirm-seed {confirm_seed}: must differ from --seed (the "
                         "errata is confirmed on seeds it was not chosen on)")  # fmt: skip
    if not 0 <= confirm_seed < 2**63:
        raise UsageError(f"--confirm-seed: expected an integer in 0..2**63-1, got {confirm_seed}")
    offered = []
    for name in ed:
        side = spec.sides[names.index(name)]
        for text, kind, cost in hook(g, "fix_edits")(side, costs):
            offered.append(Edit(name, text, kind, int(cost)))
    if not offered:
        raise UsageError(f"--edits: no edit of {', '.join(ed)} is allowed (kinds: "
                         f"{', '.join(costs) or 'none'}): the edit space is empty")  # fmt: skip
    cheapest = min(e.cost for e in offered)
    within = tuple(sorted((e for e in offered if e.cost <= budget),
                          key=lambda e: (e.cost, e.side, e.text)))  # fmt: skip
    if not within:
        raise UsageError(f"--budget {budget}: allows nothing (the cheapest allowed edit "
                         f"costs {cheapest})")  # fmt: skip
    # the guard: the confirmation's half-width for the target with the fewest pairings
    m = min(sum(t in (p.army_a.name, p.army_b.name) for p in spec.pairings()
                if p.army_a.name != p.army_b.name) for t in tg)  # fmt: skip
    if confirm_games is None:
        confirm_games = confirm_games_for(band, alpha, len(tg), m)
    guard = confirm_halfwidth(alpha, len(tg), m, confirm_games)
    return FixSpec(spec, tg, ed, band, costs, budget, games_per_look, max_games, confirm_games,
                   confirm_seed, alpha, within, float(min_gain), int(screen_keep), guard)  # fmt: skip


def command_spec_of(game: str):
    """:func:`command_spec` of ``game`` as a job builds it (``web.jobs.kinds``): the sides
    as ``armies`` (comma-separated, read by the game's ``load_side``; the balance study's
    option), the rest :func:`command_spec`'s keywords; its signature lists them."""
    import inspect

    def build(*, armies=None, **options) -> FixSpec:
        if armies is None or not str(armies).strip():
            raise UsageError("--armies: expected comma-separated sides (at least two)")
        names = [a.strip() for a in armies.split(",")] if isinstance(armies, str) else armies
        return command_spec(game, [n for n in names if n], **options)

    kw = inspect.Parameter.KEYWORD_ONLY
    own = [n for n, p in inspect.signature(command_spec).parameters.items() if p.kind is kw]
    build.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, kw) for n in ["armies", *own]]
    )
    return build
