"""The why study's job form (``/why/new?game=G&armies=X,Y[&from=REL]``, POST ``/why``; issue 42,
item 5): the pairing to explain, the player, the samples, the block, the method and the
seed, prefilled from the balance study a matrix cell's "why?" link came from (its players
and seed). Its job is ``<command group> why`` (``jobs.kinds``): every option then checked by
the study's own builder (``studies.why.command_spec_of``) in the command line's words, and
the job's games bounded as every job's (``jobs.kinds``), before it is queued.

:func:`finished_why` finds a finished why study of a pairing under the studies folder: the
matrix's "why?" link then opens it instead of the form.
"""

from __future__ import annotations

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import get_game
from manoeuvre_sim.web.jobs import balance_form as BF
from manoeuvre_sim.web.jobs.forms import study_game, study_kind
from manoeuvre_sim.web.params import Params

MAX_SAMPLES = 400  # the most samples a form may ask (the job's games are bounded besides)
# the form's plain fields: (label, name, the command's flag, a hint)
FIELDS = (
    ("Samples", "samples", "--samples", f"at most {MAX_SAMPLES}; the intervals are over them"),
    ("Games per coalition and seating, per sample", "block", "--block",
     "a block must end within a second, for cancel"),
    ("Method", "method", "--method", "auto, exact or permutation"),
    ("Seed", "seed", "--seed", ""),
)  # fmt: skip


def why_games() -> list[str]:
    """The installed games with a why job (their parts: ``why_parts``), in the registry's
    order."""
    from manoeuvre_sim.web.jobs.kinds import job_kinds

    return list(dict.fromkeys(k.game for k in job_kinds().values() if k.study == "why"))


def why_game(p: Params) -> str:
    return study_game(p, why_games(), "the why study's parts (why_parts)")


def kind(game: str) -> str:
    """The job kind of the game's why study: ``<command group> why``."""
    return study_kind(game, "why")


def _defaults(game: str) -> dict:
    import inspect

    from manoeuvre_sim.studies.why import command_spec

    sig = inspect.signature(command_spec).parameters
    out = {name: str(sig[name].default) for _, name, _, _ in FIELDS}
    out["policy"] = get_game(game).DEFAULT_POLICY
    return out


def _sides_of(m: dict) -> list[str]:
    return [str(s["name"]) if isinstance(s, dict) else str(s) for s in m.get("sides") or []]


def from_study(root, rel: str | None) -> dict:
    """What a balance study ``rel`` under the studies folder gives the form: its player
    (its first policy label's seats, when both are one) and seed; {} without it."""
    if not rel:
        return {}
    from manoeuvre_sim.web.studies.pages import open_study

    m = open_study(root, rel).manifest or {}
    if m.get("study") != "balance":
        raise UsageError(f"--from: {rel!r} is a {m.get('study')!r} study, not a balance study")
    out = {"seed": str(m.get("seed", ""))}
    pols = m.get("policies") or []
    if pols and pols[0].get("policy_a") == pols[0].get("policy_b"):
        out["policy"] = str(pols[0]["policy_a"])
    return out


def finished_why(studies, game: str, x: str, y: str, policy: str | None) -> str | None:
    """The folder (relative) of a finished why study of ``game`` explaining X = ``x``
    against Y = ``y`` under ``policy`` (None: any), among ``studies`` (``scan_studies``'
    infos); the newest when there are several."""
    from manoeuvre_sim.analyses.common import study_files as SF

    hits = []
    for info in studies:
        m = info.manifest or {}
        if (info.kind == "why" and str(info.game) == game and info.status == SF.COMPLETE
                and _sides_of(m) == [x, y]
                and (policy is None or (m.get("why") or {}).get("policy") == policy)):  # fmt: skip
            hits.append((str(m.get("finished", "")), info.rel))
    return max(hits)[1] if hits else None


def finished(root, p: Params) -> str | None:
    """The finished why study a ``/why/new`` address names (its game, ``armies`` X,Y and the
    player of the balance study ``from``), under the studies folder ``root``, or None."""
    from manoeuvre_sim.analyses.common import study_files as SF

    names = [a.strip() for a in (p.string("armies") or "").split(",")]
    if len(names) != 2:
        return None
    policy = from_study(root, p.string("from")).get("policy")
    found = [s for s in SF.scan_studies(root) if s.kind == "why"]
    return finished_why(found, why_game(p), names[0], names[1], policy)


def context(root, p: Params, sent: bool = False) -> dict:
    """The form's context: the game, the fields, their defaults (the command's, then the
    balance study's ``from``), what was typed."""
    game = why_game(p)
    g = get_game(game)
    defaults = _defaults(game)
    form = {k: p.raw(k) or "" for k in p._keys()} if sent else {}
    if not sent:
        form = {"armies": p.string("armies") or "", "from": p.string("from") or ""}
        form |= from_study(root, p.string("from"))
    from manoeuvre_sim.web.game_parts import short_title

    return {"game": game, "games": why_games(), "heading": f"Why? · {short_title(game)}",
            "command": kind(game), "fields": FIELDS, "form": form, "defaults": defaults,
            "players": tuple(g.POLICIES), "max_samples": MAX_SAMPLES}  # fmt: skip


def job(p: Params, game: str) -> tuple[str, dict]:
    """The form's job: ``("<group> why", options)`` in the why builder's names; the samples
    capped at :data:`MAX_SAMPLES` (one line naming ``--samples``)."""
    armies = BF._sides(p)
    if armies is None:
        raise UsageError("--armies: expected the two sides of the pairing, X,Y")
    samples = p.integer("samples", None)
    if samples is not None and samples > MAX_SAMPLES:
        raise UsageError(f"--samples: expected at most {MAX_SAMPLES} on the workbench, got "
                         f"{samples}")  # fmt: skip
    method = p.string("method")
    opts = {"armies": armies, "policy": BF._player(p, game), "samples": samples,
            "block": p.integer("block", None), "seed": p.integer("seed", None),
            "method": method}  # fmt: skip
    return kind(game), opts


__all__ = ["MAX_SAMPLES", "context", "finished", "finished_why", "from_study", "job", "kind", "why_game",
           "why_games"]  # fmt: skip
