"""The balance fixer's job form (``/fix/new?game=G``, POST ``/fix``; issue 40), one for every
game with the fixer's hooks (``FIX_EDIT_KINDS``: Manoeuvre's, the coin game of the tests,
Maneuver's once it has them), read from the fix study and the game alone: the sides
(``--armies``, what the game's ``load_side`` reads), which of them may be edited
(``--edit``) and which must reach the band (``--army``), the band (``--target``), the budget,
a row per edit kind the game offers (allowed or not, the cost of a step, the range in
steps: what ``--edits FILE`` says), the player, the games per look, the cap, the
confirmation's games and the seeds. Its job is ``<command group> fix`` (``jobs.kinds``), every
option then checked by the study's own builder (``studies.fix_spec.command_spec``) in the
command line's words, before the job is queued.
"""

from __future__ import annotations

import inspect

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import command_group, get_game, hook
from manoeuvre_sim.web.jobs import balance_form as BF
from manoeuvre_sim.web.jobs import forms as F
from manoeuvre_sim.web.params import Params

# the form's plain fields: (label, name, the command's flag, a hint)
FIELDS = (
    ("Band of the field win rates", "band", "--target", "LO:HI, fractions"),
    ("Budget (the errata's total cost at most)", "budget", "--budget", ""),
    ("Games per look (per pairing)", "games_per_look", "--games-per-look",
     "the sequential test looks after each"),
    ("Most games a candidate plays (per pairing)", "max_games", "--max-games",
     "then: inconclusive"),
    ("Confirmation games (per pairing)", "confirm_games", "--confirm-games",
     "on fresh seeds"),
    ("Seed of the search", "seed", "--seed", ""),
    ("Seed of the confirmation", "confirm_seed", "--confirm-seed", "never the search's"),
)  # fmt: skip
INTEGERS = ("budget", "games_per_look", "max_games", "confirm_games", "seed", "confirm_seed")


def fix_game(p: Params) -> str:
    games = F.fix_games()
    if not games:
        raise UsageError("game: no registered game has the fixer's hooks (FIX_EDIT_KINDS)")
    return p.choice("game", games, games[0])


def kind(game: str) -> str:
    """The job kind of the game's fix: ``<command group> fix``."""
    return f"{command_group(game)} fix".strip()


def _defaults(game: str) -> dict:
    from manoeuvre_sim.studies.fix_spec import command_spec

    sig = inspect.signature(command_spec).parameters
    out = {}
    for _, name, _, _ in FIELDS:
        d = sig[name].default
        out[name] = ":".join(str(x) for x in d) if isinstance(d, tuple) else F.show(d)
    out["confirm_seed"] = "the seed + 1000003"
    out["confirm_games"] = "from the band: a fifth of its half-width"
    out["policy"] = get_game(game).DEFAULT_POLICY
    return out


def context(game: str, sent: Params | None = None) -> dict:
    """The form's context: the game, its edit kinds (each with its default cost and range,
    and, when the form was sent, what was typed), the defaults, the fields."""
    from manoeuvre_sim.web.game_parts import short_title, web_part

    g = get_game(game)
    kinds = []
    for k, (cost, rng, words) in hook(g, "FIX_EDIT_KINDS").items():
        row = {"kind": k, "words": words, "cost": cost, "range": rng, "on": True,
               "cost_typed": "", "range_typed": ""}  # fmt: skip
        if sent is not None:
            row |= {"on": sent.has(f"kind_{k}"), "cost_typed": sent.raw(f"cost_{k}") or "",
                    "range_typed": sent.raw(f"range_{k}") or ""}  # fmt: skip
        kinds.append(row)
    example = (web_part(game, "library_defaults") or (lambda _k: {}))("balance").get("armies")
    form = {} if sent is None else {k: sent.raw(k) or "" for k in sent._keys()}
    return {"game": game, "games": F.fix_games(), "heading": f"New {short_title(game)} fix",
            "command": kind(game), "kinds": kinds, "fields": FIELDS, "form": form,
            "defaults": _defaults(game), "players": tuple(g.POLICIES),
            "side_hint": f"one of {example}" if example else BF._side_hint(game),
            "sides_example": ",".join(str(example).split(",")[:3]) if example else "",
            "target_flag": _flag(game, "targets")}  # fmt: skip


def _flag(game: str, name: str) -> str:
    """The flag of the fix's option ``name`` as the game's fix command has it."""
    from manoeuvre_sim.web.jobs.kinds import option_flag

    return option_flag(game, "fix", name)


def _names(p: Params, name: str, flag: str) -> list[str] | None:
    text = p.string(name)
    if text is None:
        return None
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise UsageError(f"{flag}: expected comma-separated sides")
    return names


def _step(p: Params, k: str, what: str, default: int) -> int:
    value = p.string(f"{what}_{k}")
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise UsageError(f"--edits [{k}] {what}: expected an integer, got {value!r}") from None


def edits(p: Params, game: str) -> dict:
    """The allowed edit kinds and their costs as ``--edits`` reads them (``{kind: {"cost",
    "range"}}``); the study checks them (``fix_spec.read_costs``)."""
    out = {}
    for k, (cost, rng, _words) in hook(get_game(game), "FIX_EDIT_KINDS").items():
        if p.has(f"kind_{k}"):
            out[k] = {"cost": _step(p, k, "cost", cost), "range": _step(p, k, "range", rng)}
    return out


def job(p: Params, game: str) -> tuple[str, dict]:
    """The form's job: ``("<group> fix", options)`` in the fix builder's names
    (``studies.fix_spec.command_spec_of``)."""

    def names(name: str) -> list[str] | None:
        return _names(p, name, _flag(game, name))

    opts: dict = {"armies": BF._sides(p), "editable": names("editable"),
                  "targets": names("targets"), "edits": edits(p, game),
                  "policy": BF._player(p, game), "band": p.string("band")}  # fmt: skip
    for name in INTEGERS:
        opts[name] = p.integer(name, None)
    return kind(game), opts


__all__ = ["context", "edits", "fix_game", "job", "kind"]
