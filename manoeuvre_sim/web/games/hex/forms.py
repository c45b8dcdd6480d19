"""Maneuver's job forms (issue 33): the variant study's players and rule options, and the
what-if form, which shows the scenario's units per side (strength, attack, defence,
movement, count) as ``hex whatif --set SIDE/#N/FIELD=VALUE`` edits, and the rule options
(border, quality, step losses and replacements). Each edit is then applied by the
command's own code (``analyses/hexgame/whatif.py``), so a bad value is refused with its
words.
"""

from __future__ import annotations

from pathlib import Path

from manoeuvre_sim.web.jobs import forms as F
from manoeuvre_sim.web.params import Params

HEX_FIELDS = ("strength", "attack", "defence", "ma", "count")


def library_defaults(kind: str) -> dict:
    """The defaults the study command ``kind`` (``hex balance``, ``hex whatif``) really takes,
    as its library resolves an option left out (``hexgame.variants.policy_names``, the
    builders' signatures): what a form shows and what its job runs when a field is left empty."""
    from manoeuvre_sim.hexgame.variants import policy_names
    from manoeuvre_sim.studies import balance, whatif

    games = (F.signature_default(whatif.command_spec_of("hex"), "games_per_pairing")
             if kind == "hex whatif" else balance.default_games("hex"))  # fmt: skip
    return {"policies": ",".join(policy_names(None)), "games_per_pairing": str(games),
            "seed": str(F.signature_default(balance.command_spec, "seed"))}  # fmt: skip


def balance_form() -> dict:
    """The new variant study form's defaults."""
    return {"defaults": library_defaults("hex balance"), "heading": "New Maneuver variant study",
            "command": "hex balance"}  # fmt: skip


def balance_job(p: Params, root: Path) -> tuple[str, dict]:
    """A variant study form's job: ``("hex balance", options)``."""
    return "hex balance", F.common(p) | {
        "policies": p.string("policies", "capital,attrition"),
        "borders": p.string("borders"), "quality": p.string("quality"),
        "step_losses": p.string("step_losses"),
        "step_replacements": p.string("step_replacements")}  # fmt: skip


def whatif_start(m: dict) -> dict:
    """The options a what-if takes from the variant study ``m`` (its manifest) it starts
    from: its players."""
    return {"policies": ",".join(m.get("policies") or [])}


def whatif_form(p: Params) -> dict:
    """The what-if form's fields (``templates/games/hex/whatif_fields.html``: the scenario's
    units per side, its borders) and its words."""
    return {"heading_suffix": " · Maneuver", "command": "hex whatif", "pick": False,
            "taken_from_study": "players", "more_example": "blue/infantry/strength=5"} | _hex_rows()  # fmt: skip


def _hex_rows() -> dict:
    from manoeuvre_sim.hexgame.whatif_variant import load_raw

    raw = load_raw(None)
    sides = {}
    for side in ("blue", "red"):
        sides[side] = [
            {"n": i + 1, "name": u.get("name", ""), "type": u.get("type", ""),
             **{f: F.show(u.get(f)) for f in HEX_FIELDS}}
            for i, u in enumerate(raw["sides"][side]["units"])
        ]  # fmt: skip
    return {"sides": sides, "borders": sorted(raw.get("borders", {}))}


def hex_edits(p: Params) -> list[str]:
    rows = _hex_rows()["sides"]
    edits = []
    for side, units in rows.items():
        for u in units:
            for f in HEX_FIELDS:
                v = p.raw(f"{side}{u['n']}_{f}")
                if v is not None and v != u[f] and u[f] != "":
                    edits.append(f"{side}/#{u['n']}/{f}={v}")
    return edits + F.more(p)


def whatif_job(p: Params, root: Path) -> tuple[str, dict]:
    """A what-if form's job: ``("hex whatif", options)``."""
    opts = F.common(p)
    opts |= {"policies": p.string("policies", "capital,attrition"),
             "border": p.string("border", "basic"),
             "quality": p.string("quality", "front:front"),
             "step_losses": p.boolean("step_losses"),
             "step_replacements": p.boolean("step_replacements"),
             "edits": hex_edits(p)}  # fmt: skip
    return "hex whatif", opts
