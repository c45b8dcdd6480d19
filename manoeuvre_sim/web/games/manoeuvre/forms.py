"""Manoeuvre's job forms (issue 33): the balance study's armies and player, and the
what-if form's fields. The what-if form shows the chosen army's units (full and reduced
strength), its leaders (command) and its HQ cards (copies), each filled with the army's
value; every field changed becomes one ``--set ARMY/PATH=VALUE`` edit, and the free lines
below take any other edit the command takes (a unit card's dice, a leader's rally). Each
edit is then applied by the command's own code (``model/edit.py``), so a bad value is
refused with its words.
"""

from __future__ import annotations

from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.jobs import forms as F
from manoeuvre_sim.web.params import Params


def army_names() -> list[str]:
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    return [a.name for a in load_builtin_armies()]


def library_defaults(kind: str) -> dict:
    """The defaults the study command ``kind`` (``balance``, ``whatif``) really takes, as its
    library resolves an option left out (``balance.policy_specs``, the builder's signature):
    what a form shows and what its job runs when a field is left empty."""
    from manoeuvre_sim.manoeuvre.balance_setup import policy_specs
    from manoeuvre_sim.studies import balance as B

    return {"armies": ",".join(army_names()), "policy": policy_specs()[0].policy_a,
            "games_per_pairing": str(B.default_games("manoeuvre")),
            "seed": str(F.signature_default(B.command_spec, "seed"))}  # fmt: skip


def balance_form() -> dict:
    """The new balance study form's defaults and the built-in armies it lists."""
    return {"defaults": library_defaults("balance"), "armies": army_names(),
            "heading": "New balance study", "command": "balance"}  # fmt: skip


def _armies(p: Params, root: Path) -> list[str]:
    """The form's armies: each a built-in army's name, or an army file under the studies
    folder ``root`` (given relative to it: ``mine/spain.toml``), as its full path. Nothing
    else is looked at: a path outside the folder is refused before any file is opened, in
    words that do not say whether it exists (the command line keeps its own paths)."""
    text = p.string("armies")
    if text is None:
        return army_names()
    names = [a.strip() for a in text.split(",") if a.strip()]
    if not names:
        raise UsageError("--armies: expected comma-separated army names")
    return [_side(root, n) for n in names]


def _side(root: Path, name: str) -> str:
    from manoeuvre_sim.core.errors import did_you_mean
    from manoeuvre_sim.manoeuvre.model.load import ARMY_DATA_SUFFIX, army_key
    from manoeuvre_sim.web.safety import confine

    known = army_names()
    key = army_key(name)
    for k in known:
        if k.casefold() == key:
            return k
    if name.lower().endswith((".toml", ARMY_DATA_SUFFIX)):
        return str(confine(root, name, "--armies"))
    raise UsageError(
        f"--armies: {name!r} is not a built-in army{did_you_mean(key, known)}; expected one "
        f"of {', '.join(known)}, or an army .toml file under the studies folder"
    )


def balance_job(p: Params, root: Path) -> tuple[str, dict]:
    """A balance form's job: ``("balance", options)``; ``root``: the studies folder, the only
    place an army file may come from."""
    return "balance", F.common(p) | {"armies": _armies(p, root), "policy": p.string("policy")}


def whatif_start(m: dict) -> dict:
    """The options a what-if takes from the balance study ``m`` (its manifest) it starts
    from: its armies and player."""
    pols = m.get("policies") or [{}]
    return {"armies": ",".join(a["name"] for a in m.get("armies", [])),
            "policy": pols[0].get("policy_a", "")}  # fmt: skip


def whatif_form(p: Params) -> dict:
    """The what-if form's army (``army``, checked; ``pick``: the form to choose it) and its
    fields (``templates/games/manoeuvre/whatif_fields.html``), its words."""
    names = army_names()
    army = p.string("army") or names[0]
    if army not in names:
        raise UsageError(f"--army: {army!r} is not a built-in army ({', '.join(names)})")
    rows = _army_rows(army)
    return {"army": army, "armies": names, "heading_suffix": "", "command": "whatif",
            "taken_from_study": "armies, players", "pick": True,
            "more_example": f"{army}/{rows['units'][0]['name']}/card1/attack=2d8"} | rows  # fmt: skip


def _army_rows(name: str) -> dict:
    from manoeuvre_sim.manoeuvre.model import find_army

    army = find_army(name)
    units = [{"name": u.name, "full": u.full, "reduced": u.reduced} for u in army.units]
    leaders = [{"name": ld.name, "command": ld.command} for ld in army.leaders]
    hq = [{"type": h.type, "count": h.count} for h in army.hq]
    return {"units": units, "leaders": leaders, "hq": hq}


def manoeuvre_edits(p: Params, army: str) -> list[str]:
    """The changed fields of the form as ``ARMY/PATH=VALUE`` edits, then the free lines."""
    rows = _army_rows(army)
    edits = []
    for i, u in enumerate(rows["units"]):
        for f in ("full", "reduced"):
            v = p.raw(f"u{i}_{f}")
            if v is not None and v != str(u[f]):
                edits.append(f"{army}/{u['name']}/{f}={v}")
    for i, ld in enumerate(rows["leaders"]):
        v = p.raw(f"l{i}_command")
        if v is not None and v != str(ld["command"]):
            edits.append(f"{army}/leaders/{ld['name']}/command={v}")
    for i, h in enumerate(rows["hq"]):
        v = p.raw(f"h{i}_count")
        if v is not None and v != str(h["count"]):
            edits.append(f"{army}/cards/{h['type']}={v}")
    return edits + F.more(p)


def whatif_job(p: Params, root: Path) -> tuple[str, dict]:
    """A what-if form's job: ``("whatif", options)``; ``root`` as for :func:`balance_job`."""
    opts = F.common(p)
    army = p.string("army")
    if army not in army_names():
        raise UsageError(f"--army: {army!r} is not a built-in army")
    opts |= {"armies": _armies(p, root), "policy": p.string("policy"),
             "edits": manoeuvre_edits(p, army)}  # fmt: skip
    return "whatif", opts
