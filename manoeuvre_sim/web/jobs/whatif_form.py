"""The what-if form of a game without one of its own (its web module has no ``whatif_job``,
or it has no web module at all: the toy coin game of the tests), read from the study it
starts from and the game alone (``/whatif/new?game=G&from=REL``).

A generic what-if starts from a finished balance study of the game (``from``: its sides,
players, rule options, seed and games per pairing; the page first lists the game's balance
studies to pick one from). The form shows each side of that study with its variant (a side
as the game's ``load_side`` reads it: ``--variant NAME=SIDE``), each field of the game's
``Options`` of a plain type (``core.games.options_fields``, as ``jobs.balance_form`` shows
them) with the variant's value beside it (``--variant-OPTION``), the edits box when the game
has a what-if language (its ``apply_side_edits`` hook: ``--set`` lines), the games per
pairing and the seed. Its job is ``<command group> whatif`` (``jobs.kinds``): every option
then checked by the study's own builder (``studies.whatif.spec_of``) in the command line's
words, before the job is queued.
"""

from __future__ import annotations

import json
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import command_group, get_game, hook
from manoeuvre_sim.web.jobs import balance_form as BF
from manoeuvre_sim.web.jobs import forms as F
from manoeuvre_sim.web.params import Params

FIELDS_TEMPLATE = "whatif_generic_fields.html"
VARIANT_FIELD = "variant_"  # a side's variant: ``variant_0`` (the study's first side) ...
VARIANT_OPTION = "variant_option_"  # the variant's value of an ``Options`` field


def kind(game: str) -> str:
    """The job kind of the game's what-if: ``<command group> whatif``."""
    return f"{command_group(game)} whatif".strip()


def generic(game: str) -> bool:
    """Whether the game's what-if form is this one (its web module has no ``whatif_job``)."""
    return F.part(game, "whatif_job") is None


def games() -> list[str]:
    """The installed games of the registry whose what-if form is the generic one."""
    return F.generic_whatif_games()


def any_context(root: Path, p: Params, sent: bool = False) -> dict:
    """The what-if form's context of any game: this form's, or the game's own
    (``forms.whatif_context``)."""
    game = F.whatif_game(root, p)
    if generic(game):
        return context(root, p, game, sent)
    return F.whatif_context(root, p, sent)


def any_job(p: Params, root: Path) -> tuple[str, dict]:
    """The what-if form's job of any game: this form's, or the game's own
    (``forms.whatif_options``)."""
    game = F.whatif_game(root, p)
    if generic(game):
        return job(p, root, game)
    return F.whatif_options(p, root)


def has_edits(game: str) -> bool:
    """Whether the game has a what-if language (``--set`` lines: its ``apply_side_edits``)."""
    return hook(get_game(game), "apply_side_edits") is not None


def balance_studies(root: Path, game: str) -> list[str]:
    """The game's finished balance studies under the studies folder (their paths under it),
    what a generic what-if starts from."""
    from manoeuvre_sim.analyses.common import study_files as SF

    study = hook(get_game(game), "BALANCE_STUDY") or "balance"
    return [i.rel for i in SF.scan_studies(root)
            if i.manifest and i.game == game and i.kind == study
            and i.status == SF.COMPLETE]  # fmt: skip


def start(root: Path, rel: str, game: str) -> dict:
    """What the what-if takes from the balance study ``rel`` (confined to the studies
    folder): its ``sides`` (``[{"name", "source"}]``), ``policy``, ``options`` (its rule
    options' fields), ``seed`` and ``games_per_pairing``; a UsageError naming ``--from``
    when it is not a finished balance study of ``game``."""
    from manoeuvre_sim.core.study import game_of
    from manoeuvre_sim.web.safety import confine

    path = confine(root, rel, "--from")
    try:
        m = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError(
            f"--from: {rel!r} is not a finished study (no readable manifest)"
        ) from None
    if not isinstance(m, dict) or str(game_of(m)) != game:
        raise UsageError(f"--from: {rel!r} holds games of {m.get('game')!r}, not {game!r}")
    if rel not in balance_studies(root, game):
        raise UsageError(f"--from: {rel!r} is a {m.get('study')!r} study; a what-if starts "
                         "from a finished balance study")  # fmt: skip
    sides = [{"name": str(s["name"]), "source": str(s.get("source") or s["name"])}
             for s in m.get("sides") or [] if isinstance(s, dict) and "name" in s]  # fmt: skip
    players = m.get("policies") or [{}]
    if len(players) != 1 or players[0].get("policy_a") != players[0].get("policy_b"):
        raise UsageError(f"--from: {rel!r} plays several players; a what-if plays one")
    return {"sides": sides, "policy": players[0].get("policy_a") or get_game(game).DEFAULT_POLICY,
            "options": dict(m.get("options") or {}), "seed": m.get("seed", 1),
            "games_per_pairing": m.get("games_per_pairing", 1000)}  # fmt: skip


def context(root: Path, p: Params, game: str, sent: bool = False) -> dict:
    """The generic what-if form's context: the study it starts from (``source``; without
    one, ``studies``: the game's balance studies to pick from), its sides and the fields."""
    from manoeuvre_sim.studies import whatif
    from manoeuvre_sim.web.game_parts import short_title

    rel = p.string("from")
    ctx = {"game": game, "source": rel, "fields_template": FIELDS_TEMPLATE,
           "heading_suffix": f" of {short_title(game)}", "command": kind(game),
           "taken_from_study": "sides, player, rule options", "pick": False,
           "edits_box": has_edits(game), "more_example": "",
           "defaults": {"games_per_pairing": str(whatif.DEFAULT_GAMES), "seed": "1"}}  # fmt: skip
    if rel is None:
        return ctx | {"studies": balance_studies(root, game), "sides": [], "options": [],
                      "form": {}}  # fmt: skip
    base = start(root, rel, game)
    options = BF.option_fields(game) if BF.RULES in BF.takes(game) else []
    form = {"games_per_pairing": str(base["games_per_pairing"]), "seed": str(base["seed"]),
            "policy": base["policy"]}  # fmt: skip
    for o in options:
        o["base"] = F.show(base["options"].get(o["name"], o["default"]))
        o["variant_field"] = VARIANT_OPTION + o["name"]
        form[o["field"]] = o["base"]
    if sent:
        form |= {k: p.raw(k) or "" for k in p._keys()}
    sides = [s | {"field": f"{VARIANT_FIELD}{i}"} for i, s in enumerate(base["sides"])]
    hint = BF._side_hint(game)
    return ctx | {"studies": [], "sides": sides, "options": options, "form": form,
                  "side_hint": hint, "players": tuple(get_game(game).POLICIES)}  # fmt: skip


def _variant_side(p: Params, field: str, name: str) -> str | None:
    text = p.string(field)
    if text is None:
        return None
    if "/" in text or "\\" in text or text.startswith((".", "~")):
        raise UsageError(f"--variant {name}={text}: a side is named here, not a file (the "
                         "command line reads files)")  # fmt: skip
    return text


def job(p: Params, root: Path, game: str) -> tuple[str, dict]:
    """The generic what-if form's job: ``("<group> whatif", options)``, its sides, player
    and rule options the base study's, the variant's from the form (JSON, as a job's
    options are stored; ``jobs.kinds.build`` makes the game's ``Options`` of them)."""
    rel = p.string("from")
    if rel is None:
        raise UsageError("--from: expected the balance study the what-if starts from")
    base = start(root, rel, game)
    opts = F.common(p)
    for name in ("seed", "games_per_pairing"):  # a field left empty: the base study's
        if not p.has(name):
            opts[name] = base[name]
    opts["sides"] = [s["source"] for s in base["sides"]]
    opts["policy"] = BF._player(p, game) or base["policy"]
    variants = {}
    for i, s in enumerate(base["sides"]):
        if (v := _variant_side(p, f"{VARIANT_FIELD}{i}", s["name"])) is not None:
            variants[s["name"]] = v
    opts["variant_sides"] = variants or None
    fields = BF.option_fields(game) if BF.RULES in BF.takes(game) else []
    rules = dict(base["options"])
    rules |= {f["name"]: v for f in fields if (v := BF._option(p, f)) is not None}
    changed = {}
    for f in fields:
        variant = dict(f, field=VARIANT_OPTION + f["name"], name="variant_" + f["name"])
        if (v := BF._option(p, variant)) is not None:
            changed[f["name"]] = v
    names = {f["name"] for f in fields}
    rules = {k: v for k, v in rules.items() if k in names}
    _check_options(game, rules, "")
    opts["options"] = rules or None
    opts["variant_options"] = None
    if changed:
        opts["variant_options"] = rules | changed
        _check_options(game, rules | changed, "variant-", changed)
    edits = F.more(p)
    if edits and not has_edits(game):
        raise UsageError(f"--set: {game} has no edits of its sides; give a side's variant")
    opts["edits"] = edits or None
    if not (variants or changed or edits):
        raise UsageError("--variant: expected a side's variant, an edit or a rule option's "
                         "variant value")  # fmt: skip
    return kind(game), opts


def _check_options(game: str, fields: dict, prefix: str, given: dict | None = None) -> None:
    """The game's ``Options`` of ``fields``, checked as the command line checks them: the
    ``Options``' own error one line naming the option (``--variant-flips: ...``) of the
    fields ``given`` (default: all)."""
    try:
        get_game(game).Options(**fields)
    except UsageError as e:
        text = str(e)
        for name in given or fields:
            if text.startswith(f"{name}:"):
                flag = "--" + prefix + name.replace("_", "-")
                raise UsageError(flag + text[len(name) :]) from None
        raise
