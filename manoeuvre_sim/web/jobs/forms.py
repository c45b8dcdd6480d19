"""The jobs pages' forms (issue 33), what every game's share: a study's count, seed,
precision and block options, the edits box, the study a what-if starts from; the fields,
defaults and job of each game's forms come from its web module (``balance_form``,
``balance_job``, ``whatif_form``, ``whatif_job``, ``whatif_start``, ``library_defaults``:
``web/games/<game>/forms.py``), read into a job's options (``jobs.kinds``) in the command
line's terms. A game without a balance form of its own (no ``balance_job``: a game with no
web module) gets the generic one of ``jobs.balance_form``, read from its study and its
``Options``; one without a what-if form of its own (no ``whatif_job``) the generic one of
``jobs.whatif_form``, read from the balance study it starts from.
"""

from __future__ import annotations

import json
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import MAX_VALUE_CHARS, Params

MAX_EDIT_LINES = 50
# the edits box ("more", ``--set`` lines): MAX_EDIT_LINES lines of a parameter's length each,
# a browser ending each line with CR LF
MAX_EDIT_CHARS = MAX_EDIT_LINES * (MAX_VALUE_CHARS + 2)


def form_games(hook: str) -> list[str]:
    """The games whose web module offers ``hook`` (``balance_job``, ``whatif_job``), in the
    registry's order."""
    from manoeuvre_sim.web.game_parts import web_modules

    return [k for k, m in web_modules().items() if hasattr(m, hook)]


def balance_games() -> list[str]:
    """Every installed game of the registry, in its order: each has a new-study form (its
    web module's, else the generic one of ``jobs.balance_form``)."""
    from manoeuvre_sim.core.games import installed

    return list(installed())


def fix_games() -> list[str]:
    """The installed games of the registry with the fixer's hooks (``FIX_EDIT_KINDS``):
    each has a fix form (``jobs.fix_form``), in the registry's order."""
    from manoeuvre_sim.core.games import get_game, hook

    return [k for k in balance_games() if hook(get_game(k), "FIX_EDIT_KINDS")]


def study_game(p: Params, games: list[str], what: str) -> str:
    """The ``game`` parameter of a study's form: one of ``games`` (the registered games with
    the study's hooks; by default the first), else one line saying none has ``what``."""
    if not games:
        raise UsageError(f"game: no registered game has {what}")
    return p.choice("game", games, games[0])


def study_kind(game: str, study: str) -> str:
    """The job kind of the game's study ``study``: ``<command group> <study>``."""
    from manoeuvre_sim.core.games import command_group

    return f"{command_group(game)} {study}".strip()


def balance_game(p: Params) -> str:
    """The new-study form's ``game`` parameter (by default the registry's first game)."""
    games = balance_games()
    return p.choice("game", games, games[0])


def generic_balance_form(game: str) -> bool:
    """Whether the game's new-study form is the generic one (``jobs.balance_form``: its web
    module has no ``balance_job``, or it has no web module)."""
    return part(game, "balance_job") is None


def generic_whatif_games() -> list[str]:
    """The installed games whose what-if form is the generic one (``jobs.whatif_form``: their
    web module has no ``whatif_job``, or they have no web module)."""
    return [k for k in balance_games() if part(k, "whatif_job") is None]


def new_job_links() -> list[tuple[str, str]]:
    """The jobs page's buttons: every game's new-study form, then every game's what-if form
    (each web module's ``JOB_LINKS``: ``{"balance" | "whatif": (address, label)}``; a game
    with the generic form: ``/jobs/new?game=KEY``, after the others), then the fix form of
    every game with the fixer's hooks (``/fix/new?game=KEY``)."""
    from manoeuvre_sim.web.game_parts import short_title, web_modules

    modules = web_modules().values()
    own = [m.JOB_LINKS[form] for form in ("balance", "whatif") for m in modules
           if form in getattr(m, "JOB_LINKS", {})]  # fmt: skip
    generic = [(f"/jobs/new?game={k}", f"New {short_title(k)} balance study")
               for k in balance_games() if generic_balance_form(k)]  # fmt: skip
    whatifs = [(f"/whatif/new?game={k}", f"New {short_title(k)} what-if")
               for k in generic_whatif_games()]  # fmt: skip
    balance = sum(1 for m in modules if "balance" in getattr(m, "JOB_LINKS", {}))
    fixes = [(f"/fix/new?game={k}", f"New {short_title(k)} fix") for k in fix_games()]
    return own[:balance] + generic + own[balance:] + whatifs + fixes


def part(game: str, name: str):
    """The name ``name`` of the game's web module (``web.game_parts.web_part``)."""
    from manoeuvre_sim.web.game_parts import web_part

    return web_part(game, name)


def signature_default(command_spec, name: str):
    """The default of a study builder's option ``name`` (what a field left empty runs)."""
    import inspect

    return inspect.signature(command_spec).parameters[name].default


def common(p: Params) -> dict:
    """The options every study form has: games per pairing, seed, precision, block."""
    prec = p.raw("precision")
    try:
        precision = float(prec) if prec is not None else None
    except ValueError:
        raise UsageError(f"--precision: {prec!r} is not a valid number") from None
    return {"games_per_pairing": p.integer("games_per_pairing", 1000),
            "seed": p.integer("seed", 1), "precision": precision,
            "block": p.integer("block", None, lo=1)}  # fmt: skip


def _study_game(root: Path, rel: str | None) -> str | None:
    """The game of the study ``rel`` a what-if starts from (None: no ``from``)."""
    if rel is None:
        return None
    from manoeuvre_sim.core.study import game_of
    from manoeuvre_sim.web.safety import confine

    try:
        m = json.loads((confine(root, rel, "--from") / "manifest.json").read_text())
    except (OSError, ValueError):
        raise UsageError(
            f"--from: {rel!r} is not a finished study (no readable manifest)"
        ) from None
    return str(game_of(m)) if isinstance(m, dict) else None


def whatif_game(root: Path, p: Params) -> str:
    """The what-if form's ``game`` parameter: any installed game (each has a what-if form,
    its own or the generic one); by default the game of the study it starts from, else the
    registry's first game with a form of its own."""
    games = [*form_games("whatif_job"), *generic_whatif_games()]
    if not games:
        raise UsageError("game: no registered game has this form")
    default = None if p.has("game") else _study_game(root, p.string("from"))
    return p.choice("game", games, default if default in games else games[0])


def _from_study(root: Path, rel: str | None) -> dict:
    """The options a what-if takes from the study it starts from (so its seeds match)."""
    if rel is None:
        return {}
    from manoeuvre_sim.core.study import game_of
    from manoeuvre_sim.web.safety import confine

    path = confine(root, rel, "--from")
    try:
        m = json.loads((path / "manifest.json").read_text())
    except (OSError, ValueError):
        raise UsageError(
            f"--from: {rel!r} is not a finished study (no readable manifest)"
        ) from None
    out = {"seed": m.get("seed", 1), "games_per_pairing": m.get("games_per_pairing", 1000)}
    game = str(game_of(m))
    if game not in form_games("whatif_start"):
        raise UsageError(f"--from: {rel!r} holds games of {game!r}, which has no what-if form")
    return out | part(game, "whatif_start")(m) | {"game": game}


def show(v) -> str:
    """A field's value as its input shows it (a list as ``a:b``, None as empty)."""
    if v is None:
        return ""
    if isinstance(v, list):
        return ":".join(str(x) for x in v)
    return str(v)


def whatif_context(root: Path, p: Params, sent: bool = False) -> dict:
    """The what-if form's context: the game, the study it starts from, the game's fields
    (its web module's ``whatif_form``)."""
    game = whatif_game(root, p)
    start = _from_study(root, p.string("from"))
    kind = part(game, "WHATIF_KIND")
    form = part(game, "library_defaults")(kind)
    form |= {k: str(v) for k, v in start.items() if v not in (None, "")}
    if sent:
        form |= {k: p.raw(k) or "" for k in p._keys()}
    ctx = {"game": game, "source": p.string("from"), "form": form,
           "defaults": part(game, "library_defaults")(kind)}  # fmt: skip
    return ctx | part(game, "whatif_form")(p)


def more(p: Params) -> list[str]:
    """The free edit lines of the edits box (``--set`` lines), at most MAX_EDIT_LINES."""
    lines = [x.strip() for x in (p.string("more") or "").splitlines() if x.strip()]
    if len(lines) > MAX_EDIT_LINES:
        raise UsageError(f"--set: at most {MAX_EDIT_LINES} edits, got {len(lines)}")
    return lines


def whatif_options(p: Params, root: Path) -> tuple[str, dict]:
    """A what-if form's job: ``(kind, options)`` (the game's ``whatif_job``); ``root``: the
    studies folder, the only place a side's file may come from. A form started from a study
    (``from``) reads that study's base games instead of playing them (``base_study``: the
    study under ``root``, checked to be a finished study; ``jobs.kinds.build``)."""
    kind, opts = part(whatif_game(root, p), "whatif_job")(p, root)
    source = p.string("from")
    if source:
        _from_study(root, source)  # under the studies folder, a finished study, a form's game
        opts["base_study"] = source
    return kind, opts
