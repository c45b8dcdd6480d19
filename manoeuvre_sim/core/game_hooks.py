"""Every optional hook of a game (:data:`HOOKS`), declared once: its one name, signature,
what it returns, its default and the check a loaded game's value must pass; and the hooks
a game defines together or not at all (:data:`TOGETHER`).

``core/games.py`` checks a game against this table when it loads it and reads a hook
through ``games.hook``; ``docs/games.md`` "The optional hooks" lists it in this order.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

# a dotted Python module name (a hook naming a module; the registry's ENV entries)
MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

_NONE: Mapping[str, Any] = MappingProxyType({})  # the default of a table a game may define


def _scripted_seat(spec: str) -> float:
    """``policy_cost``'s default: every seat half a game of the scripted players."""
    return 0.5


def _is(types: type | tuple[type, ...], what: str) -> Callable[[Any], str | None]:
    return lambda v: None if isinstance(v, types) else what


def _function(v: Any) -> str | None:
    return None if callable(v) else "a function"


def module_path(v: Any) -> str | None:
    ok = isinstance(v, str) and MODULE_NAME.fullmatch(v)
    return None if ok else "a module's dotted name (str), e.g. my_game.report"


def _strings(v: Any) -> str | None:
    ok = isinstance(v, tuple) and all(isinstance(x, str) for x in v)
    return None if ok else "a tuple of str"


def _mapping(value_ok: Callable[[Any], bool], what: str) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        ok = isinstance(v, Mapping) and all(
            isinstance(k, str) and value_ok(x) for k, x in v.items()
        )
        return None if ok else what

    return check


def _numba_cache(v: Any) -> str | None:
    ok = (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str)
          and (v[1] is None or isinstance(v[1], str)))  # fmt: skip
    return None if ok else "a (prefix, folder or None) tuple of str"


def _edit_kind(x: Any) -> bool:
    return (isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], int)
            and isinstance(x[1], int) and isinstance(x[2], str))  # fmt: skip


def _writes_nothing(result: Any, out_dir: Any) -> list:
    """``whatif_write``'s and ``fix_write``'s default: no files of the game's own."""
    return []


def _positive(v: Any) -> str | None:
    ok = isinstance(v, int) and not isinstance(v, bool) and v > 0
    return None if ok else "a positive int"


_SIDE_WORDS = {"flag": str, "one": str, "least": int, "fewer": str}


def _side_words(v: Any) -> str | None:
    ok = isinstance(v, Mapping) and all(
        k in _SIDE_WORDS and isinstance(x, _SIDE_WORDS[k]) for k, x in v.items()
    )
    return None if ok else "a dict of flag, one, fewer (str) and least (int)"


def _function_of(*params: str) -> Callable[[Any], str | None]:
    """The check of a function that must take the keywords ``params`` (by name, or through
    ``**kw``): a hook of one signature for every game."""
    want = f"a function taking the keywords {', '.join(params)}"

    def check(v: Any) -> str | None:
        if not callable(v):
            return want
        try:
            taken = inspect.signature(v).parameters
        except (TypeError, ValueError):  # a builtin without a signature: taken on trust
            return None
        if any(p.kind is p.VAR_KEYWORD for p in taken.values()):
            return None
        named = {n for n, p in taken.items() if p.kind is not p.POSITIONAL_ONLY}
        return None if set(params) <= named else want

    return check


def _function_of_one(v: Any) -> str | None:
    """The check of a function called with one argument (a hook given the study's spec)."""
    want = "a function of one argument (the spec)"
    if not callable(v):
        return want
    try:
        sig = inspect.signature(v)
    except (TypeError, ValueError):  # a builtin without a signature: taken on trust
        return None
    try:
        sig.bind(None)
    except TypeError:
        return want
    return None


@dataclass(frozen=True)
class Hook:
    """An optional member of a game module: its one ``name``, how it is written
    (``form``: the signature of a function, the type of a constant), what it is for and
    must return (``meaning``), what a game without it gets (``default``; None where the
    caller's own way is the default, named in ``meaning``) and the check a loaded game's
    value must pass (``check(value)``: None, or what was expected)."""

    name: str
    form: str
    meaning: str
    default: Any
    check: Callable[[Any], str | None]


def _hooks(*hooks: Hook) -> dict[str, Hook]:
    return {h.name: h for h in hooks}


# Every optional hook of a game, in one table (docs/games.md "The optional hooks"): the one
# place each is described (the study modules that read them name them, never restate them).
HOOKS: dict[str, Hook] = _hooks(
    Hook("policy_cost", "policy_cost(spec: str) -> float",
         "one seat's share of a game's cost with the player spec, in games of the scripted "
         "players (a scripted seat: 0.5); the workbench bounds a job by it; a bad spec "
         "raises a UsageError", _scripted_seat, _function),
    # --- the balance study (studies/balance.py)
    Hook("balance_command", "balance_command(**options) -> dict",
         "the balance command's own options (Python names, the command's defaults: "
         "Manoeuvre's armies, policies; Maneuver's borders, quality ...) -> the BalanceSpec "
         "fields sides, policies, options, sources, settings, each bad option one UsageError "
         "line (None: studies.balance.default_command, --armies read by load_side)", None,
         _function),
    Hook("balance_check", "balance_check(spec: BalanceSpec) -> None",
         "the game's own checks of a balance spec (its players, its scenario), a UsageError "
         "of one line (None: the common checks alone)", None, _function),
    Hook("balance_pairings",
         "balance_pairings(spec: BalanceSpec) -> tuple[list[Pairing], list[tuple[options, "
         "Sequence[int]]]]",
         "the pairings of a balance study and the rule options each plays under, as "
         "(options, pairing indices) groups (None: studies.balance.side_pairings, every "
         "ordered pairing of the sides under spec.options)", None, _function),
    Hook("balance_manifest", "balance_manifest(spec: BalanceSpec) -> dict",
         "what describes a balance study in its manifest beside the common fields (None: "
         "studies.balance.describe_sides)", None, _function),
    Hook("balance_cells", "balance_cells(pairings: Sequence[Pairing]) -> list[Cell]",
         "the cells a balance study reads its intervals for (None: studies.rounds."
         "side_cells, a pair of sides with both seatings pooled)", None, _function),
    Hook("BALANCE_SIDES", "BALANCE_SIDES: dict[str, str | int]",
         "the words of the sides in the balance checks' errors, any of flag (the option), "
         "one (a side), least (the fewest a study compares), fewer (the error of fewer); "
         "each missing one studies.balance.SIDE_WORDS'", _NONE, _side_words),
    Hook("BALANCE_PLAYERS", "BALANCE_PLAYERS: tuple",
         "the players of a balance spec that names none (None: DEFAULT_POLICY in both "
         "seats)", None, _is(tuple, "a tuple")),
    Hook("BALANCE_GAMES", "BALANCE_GAMES: int",
         "the balance command's games per pairing when none are asked for (None: "
         "studies.balance.DEFAULT_GAMES)", None, _positive),
    Hook("BALANCE_STUDY", "BALANCE_STUDY: str",
         "the balance manifests' study (None: studies.balance.KIND, balance)", None,
         _is(str, "a str")),
    Hook("BALANCE_ROWS", "BALANCE_ROWS: str",
         "what a row of the game's balance study is where two are compared (manoeuvre-sim "
         "compare, the workbench's /compare): sides (each game counted from both sides, "
         "mirrors left out; a study of several players compared on one label) or labels "
         "(each pairing's label a row, Maneuver's variants: each game counted once, from "
         "side a, its column the players); the rows' word is BALANCE_SIDES' one", "sides",
         lambda v: None if v in ("sides", "labels") else "sides or labels"),
    Hook("BALANCE_TABLES", "BALANCE_TABLES: str",
         "the module of analyses/ that counts a balance study's games and lays out the "
         "game's tables: counter(spec, *, keep), build(spec, count, manifest, played, *, "
         "boot), summary(result), pdf(result, path, *, paper) and, if it writes a PDF, "
         "PDF_NAME; imported by pages_module (None: studies.balance's own counter and "
         "build, the tables every game has)", None, module_path),
    Hook("TEXT_COLUMNS", "TEXT_COLUMNS: dict[str, tuple[str, ...]]",
         "the columns of the game's study tables that are text though they read as numbers, "
         "by table (a CSV file's name without .csv): read back as written (Maneuver's hexes, "
         "0101, not 101)", _NONE, _mapping(
             lambda x: _strings(x) is None, "a dict of table -> a tuple of column names")),
    # --- the paired what-if (studies/whatif.py)
    Hook("whatif_command", "whatif_command(*args, **options) -> dict",
         "the what-if command's options (Python names, the command's defaults) -> the "
         "WhatIfSpec fields but game: the sides loaded, the variant made (its files read, "
         "its --set edits applied), each bad option one UsageError line (None: "
         "studies.whatif.spec_of's keywords)", None, _function),
    Hook("whatif_pairings", "whatif_pairings(spec: WhatIfSpec) -> list[Pairing]",
         "the what-if's base pairings, label base (None: every ordered pairing of the sides "
         "under each pair of players, seeded from (seed, side a's name, side b's name))",
         None, _function),
    Hook("whatif_variant_options",
         "whatif_variant_options(spec: WhatIfSpec, where: Path) -> options",
         "the variant's rule options, made just before play (where: the study's directory, "
         "or a scratch one; None: spec.variant_options, else the base's)", None, _function),
    Hook("whatif_manifest",
         "whatif_manifest(spec: WhatIfSpec, variant_options, where: Path) -> dict",
         "what decides a what-if's games, every part of its store carries it (None: the "
         "balance study's manifest of the base with the changes and the variant's data "
         "hash)", None, _function),
    Hook("whatif_tables", "whatif_tables(result: WhatIfResult) -> dict[str, DataFrame]",
         "the tables a what-if writes, name -> <name>.csv (None: studies.whatif_tables."
         "side_tables)", None, _function),
    Hook("whatif_write", "whatif_write(result: WhatIfResult, out_dir: Path) -> list[Path]",
         "the game's own files of a what-if's variant, written before its tables "
         "(Manoeuvre: each changed army's data; default: none)", _writes_nothing, _function),
    Hook("WHATIF_PAGES", "WHATIF_PAGES: str",
         "the module of analyses/ with summary_lines(result) and write_pages(result, "
         "out_dir, paper) -> list[Path] (a what-if's summary and PDF), imported by "
         "pages_module (None: studies.whatif_tables.summary_lines, no PDF)", None,
         module_path),
    # --- the tournament and simulate (studies/tournament.py, studies/simulate.py)
    Hook("tournament_plan",
         "tournament_plan(players: list, games: int, seed: int, *, sides=None, "
         "options=None) -> TournamentPlan",
         "the seats of a tournament of players (core.study.TournamentPlan), on sides (specs "
         "load_side reads; None: the game's choice) under options (None: the defaults); a "
         "bad player or side raises a UsageError (None: studies.tournament.mirror_plan)",
         None, _function_of("sides", "options")),
    Hook("simulate_plan", "simulate_plan(spec: SimulateSpec) -> SimulatePlan",
         "what simulate plays of one pairing (core.study.SimulatePlan: the pairing, its "
         "options, what decides its games, what its output records) of a studies.simulate."
         "SimulateSpec: its sides (specs load_side reads, with its relax), players, parameter "
         "vectors, seed, first game, games, block, threads, options (None: the defaults) and "
         "flags (play_block's keywords); a bad field raises a UsageError (None: "
         "studies.simulate.pairing_plan)", None, _function_of_one),
    # --- the balance fixer (studies/fix*.py)
    Hook("FIX_EDIT_KINDS", "FIX_EDIT_KINDS: dict[str, tuple[int, int, str]]",
         "the balance fixer's edit kinds: kind -> (default cost of a step, default range, "
         "what a step is); with fix_edits and apply_side_edits, or none of the three",
         _NONE, _mapping(_edit_kind, "a dict of str -> (int, int, str)")),
    Hook("fix_edits",
         "fix_edits(side, costs: Mapping[str, tuple[int, int]]) -> list[tuple[str, str, int]]",
         "the fixer's candidate edits of a side: (edit text, kind, steps)", None, _function),
    Hook("apply_side_edits",
         "apply_side_edits(side, edits: Sequence[str], *, relax=False) -> tuple[side, "
         "list[str]]",
         "the side with the edit texts applied in order, and the printed changes in words "
         "(relax: load_side's leniency); a bad edit raises a UsageError", None,
         _function_of("relax")),
    Hook("fix_write", "fix_write(result: FixResult, out_dir: Path) -> list[Path]",
         "the game's own files of a fix's fixed sides, written before its tables, each "
         "named in the manifest's fixed_sides (Manoeuvre: each edited army's data, what a "
         "replay of a fixed game loads; default: none)", _writes_nothing, _function),
    # --- the why study (studies/why.py): the parts of a side and their neutral reference
    Hook("why_parts", "why_parts(side) -> list[tuple[str, str]]",
         "the parts of a side the why study shares a gap among, as (name, kind): names a "
         "designer recognises, unique within the side (Manoeuvre: each unit with its cards, "
         "each leader, the HQ cards by type, the tie-break place); a side the game cannot "
         "cut raises a UsageError; with why_pairing", None, _function),
    Hook("why_pairing",
         "why_pairing(pairing: Pairing, off_a: frozenset[str], off_b: frozenset[str]) -> "
         "Pairing",
         "the pairing with side a's parts off_a and side b's off_b switched off, each "
         "replaced by the game's neutral reference of its kind, the same for both sides (every "
         "part of both off: both sides play as the same side, so the pairing is even); new "
         "sides and the game's patches, the seed and label kept", None, _function),
    Hook("WHY_REFERENCE", "WHY_REFERENCE: str",
         "the neutral reference of a switched-off part, in words (the why study's summary "
         "and manifest)", "each part's neutral reference (the game's why_pairing)",
         _is(str, "a str")),
    Hook("why_value",
         "why_value(pairing: Pairing, game: int, options) -> tuple[str, list[dict]]",
         "the learned position value along game `game` of the pairing, played again as the "
         "study played it (seed pairing.seed, index game): the model's name and one row per "
         "decision with 'decision' (1..), 'event' (the replay page's event it starts at), "
         "'turn', 'mover' ('a' or 'b') and 'value_a', 'value_b' (each seat's chance to win at "
         "its start, from its own view); Manoeuvre: a player turn, its learned value (the why "
         "study's games mark the decision where it swings most); a game without it: its why "
         "games are chosen and listed, no decision marked", None, _function),
    # --- the machinery: warm-up, numba cache, traces
    Hook("WARMUP", "WARMUP: dict[str, float]",
         "the warm-up kinds of core.warmup: kind -> about how many seconds it compiles "
         "cold, the first the kernel of the game's default games (what manoeuvre-sim ui "
         "compiles before it serves); with warmup_kernel", _NONE, _mapping(
             lambda x: isinstance(x, int | float), "a dict of str -> seconds")),
    Hook("warmup_kernel", "warmup_kernel(kind: str) -> tuple[Dispatcher, tuple]",
         "the batch kernel of a WARMUP kind and the arguments of two games", None, _function),
    Hook("REPLAY_WARMUP", "REPLAY_WARMUP: dict[str, str]",
         "the replay parameters (its web module's REPLAY_PARAMS, as a replay page's query "
         "gives them) of the one game manoeuvre-sim ui replays before it serves, so that "
         "its replay's traced kernels are compiled (or loaded from numba's cache) before "
         "the first visitor asks (None: no replay warmed)", None,
         _mapping(lambda x: isinstance(x, str), "a dict of str -> str")),
    Hook("NUMBA_CACHE", "NUMBA_CACHE: tuple[str, str | None]",
         "the prefix of the game's numba cache directories and its kernels' folder under "
         "manoeuvre_sim/ (None: every kernel outside another game's folder); read from the "
         "adapter's source by core.numba_cache (None: no cache of its own)", None,
         _numba_cache),
    Hook("COMMAND_GROUP", "COMMAND_GROUP: str",
         "the word the game's commands follow on the command line and in a job's name "
         "(``hex`` for ``manoeuvre-sim hex balance``; \"\" for commands at the top, as "
         "Manoeuvre's); default: the game's key", None, _is(str, "a str")),
    Hook("COMMAND_FLAGS", "COMMAND_FLAGS: dict[str, str]",
         "the options of the game's own study commands (cli/) flagged otherwise than its "
         "study kinds declare them (core.study_command.Option), keyword -> the flag as typed "
         "(Manoeuvre's sides are --armies; Maneuver's fixer targets a --side): the words of "
         "a job's command line (web.jobs.kinds.command_line)", _NONE, _mapping(
             lambda x: isinstance(x, str) and x.startswith("--"), "a dict of keyword -> --flag")),
    Hook("rebuild_trace", "rebuild_trace(header: dict, events: list[dict]) -> dict",
         "the final position of a JSONL trace of the game, rebuilt from its events alone "
         "(core.trace_reader.rebuild; a contradiction raises trace_reader.TraceError; None: "
         "its traces are read, not rebuilt)", None, _function),
    # --- what the faces find: study kinds, report, workbench
    Hook("STUDY_KINDS", "STUDY_KINDS: tuple[str, ...]",
         "the study of the manifests its study commands write, in report order (a game "
         "without them has no part in manoeuvre-sim report but the generic one)", (),
         _strings),
    Hook("OWN_STUDIES", "OWN_STUDIES: dict[str, str]",
         "the game's own study kinds: kind -> the study module's dotted name "
         "(studies.find); the shared kinds are studies.SHARED_KINDS", _NONE,
         _mapping(lambda x: module_path(x) is None, "a dict of kind -> module name")),
    Hook("REPORT_MODULE", "REPORT_MODULE: str",
         "the module of analyses/ that reads the game's studies back and lays out its "
         "report section, imported by the report alone, by name (None: the generic part)",
         None, module_path),
    Hook("WEB_MODULE", "WEB_MODULE: str",
         "the module of the game's parts of the workbench (its odds forms and pages, board "
         "drawing, replay, what-if form), imported by the web alone, by name (None: none)",
         None, module_path),
)  # fmt: skip

# hooks a game defines together or not at all
TOGETHER = (
    ("FIX_EDIT_KINDS", "fix_edits", "apply_side_edits"),
    ("WARMUP", "warmup_kernel"),
    ("why_parts", "why_pairing"),
)
