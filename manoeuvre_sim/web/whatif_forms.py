"""The forms of the jobs pages (issue 33): a balance study's options and a what-if's edits,
read into a job's options (``jobs_kinds``) in the command line's terms.

A Manoeuvre what-if form shows the chosen army's units (full and reduced strength), its
leaders (command) and its HQ cards (copies), each filled with the army's value; every field
changed becomes one ``--set ARMY/PATH=VALUE`` edit, and the free lines below take any other
edit the command takes (a unit card's dice, a leader's rally). Maneuver's form shows the
scenario's units per side (strength, attack, defence, movement, count) as ``hex whatif
--set SIDE/#N/FIELD=VALUE`` edits, and the rule options (border, quality, step losses and
replacements). Each edit is then applied by the command's own code (``model/edit.py``,
``analyses/hexgame/whatif.py``), so a bad value is refused with its words.
"""

from __future__ import annotations

import json
from pathlib import Path

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import MAX_VALUE_CHARS, Params

HEX_FIELDS = ("strength", "attack", "defence", "ma", "count")
MAX_EDIT_LINES = 50
# the edits box ("more", ``--set`` lines): MAX_EDIT_LINES lines of a parameter's length each,
# a browser ending each line with CR LF
MAX_EDIT_CHARS = MAX_EDIT_LINES * (MAX_VALUE_CHARS + 2)


def army_names() -> list[str]:
    from manoeuvre_sim.manoeuvre.model import load_builtin_armies

    return [a.name for a in load_builtin_armies()]


def _signature_default(command_spec, name: str):
    import inspect

    return inspect.signature(command_spec).parameters[name].default


def library_defaults(kind: str) -> dict:
    """The defaults the study command ``kind`` really takes, as its library resolves an
    option left out (``balance.policy_specs``, ``variants.policy_names``, the builders'
    signatures): what a form shows and what its job runs when a field is left empty."""
    from manoeuvre_sim.manoeuvre.balance_setup import policy_specs
    from manoeuvre_sim.studies import balance as B

    if kind.startswith("hex"):
        from manoeuvre_sim.hexgame.variants import policy_names
        from manoeuvre_sim.studies import whatif

        games = (_signature_default(whatif.command_spec_of("hex"), "games_per_pairing")
                 if kind == "hex whatif" else B.default_games("hex"))  # fmt: skip
        return {"policies": ",".join(policy_names(None)), "games_per_pairing": str(games),
                "seed": str(_signature_default(B.command_spec, "seed"))}  # fmt: skip
    return {"armies": ",".join(army_names()), "policy": policy_specs()[0].policy_a,
            "games_per_pairing": str(B.default_games("manoeuvre")),
            "seed": str(_signature_default(B.command_spec, "seed"))}  # fmt: skip


def balance_defaults(game: str) -> dict:
    return library_defaults("hex balance" if game == "hex" else "balance")


def _common(p: Params) -> dict:
    prec = p.raw("precision")
    try:
        precision = float(prec) if prec is not None else None
    except ValueError:
        raise UsageError(f"--precision: {prec!r} is not a valid number") from None
    return {"games_per_pairing": p.integer("games_per_pairing", 1000),
            "seed": p.integer("seed", 1), "precision": precision,
            "block": p.integer("block", None, lo=1)}  # fmt: skip


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


def balance_options(p: Params, game: str, root: Path) -> tuple[str, dict]:
    """A balance form's job: ``("balance" | "hex balance", options)``; ``root``: the
    studies folder, the only place an army file may come from."""
    opts = _common(p)
    if game == "hex":
        opts |= {"policies": p.string("policies", "capital,attrition"),
                 "borders": p.string("borders"), "quality": p.string("quality"),
                 "step_losses": p.string("step_losses"),
                 "step_replacements": p.string("step_replacements")}  # fmt: skip
        return "hex balance", opts
    return "balance", opts | {"armies": _armies(p, root), "policy": p.string("policy")}


def _from_study(root: Path, rel: str | None) -> dict:
    """The options a what-if takes from the study it starts from (so its seeds match)."""
    if rel is None:
        return {}
    from manoeuvre_sim.web.safety import confine

    path = confine(root, rel, "--from")
    try:
        m = json.loads((path / "manifest.json").read_text())
    except (OSError, ValueError):
        raise UsageError(
            f"--from: {rel!r} is not a finished study (no readable manifest)"
        ) from None
    out = {"seed": m.get("seed", 1), "games_per_pairing": m.get("games_per_pairing", 1000)}
    if m.get("game", "manoeuvre") == "hex":
        return out | {"game": "hex", "policies": ",".join(m.get("policies") or [])}
    pols = m.get("policies") or [{}]
    out["armies"] = ",".join(a["name"] for a in m.get("armies", []))
    out["policy"] = pols[0].get("policy_a", "")
    return out | {"game": "manoeuvre"}


def _army_rows(name: str) -> dict:
    from manoeuvre_sim.manoeuvre.model import find_army

    army = find_army(name)
    units = [{"name": u.name, "full": u.full, "reduced": u.reduced} for u in army.units]
    leaders = [{"name": ld.name, "command": ld.command} for ld in army.leaders]
    hq = [{"type": h.type, "count": h.count} for h in army.hq]
    return {"units": units, "leaders": leaders, "hq": hq}


def _hex_rows() -> dict:
    from manoeuvre_sim.hexgame.whatif_variant import load_raw

    raw = load_raw(None)
    sides = {}
    for side in ("blue", "red"):
        sides[side] = [
            {"n": i + 1, "name": u.get("name", ""), "type": u.get("type", ""),
             **{f: _show(u.get(f)) for f in HEX_FIELDS}}
            for i, u in enumerate(raw["sides"][side]["units"])
        ]  # fmt: skip
    return {"sides": sides, "borders": sorted(raw.get("borders", {}))}


def _show(v) -> str:
    if v is None:
        return ""
    if isinstance(v, list):
        return ":".join(str(x) for x in v)
    return str(v)


def whatif_context(root: Path, p: Params, sent: bool = False) -> dict:
    """The what-if form's context: the game, the study it starts from, the army's fields."""
    start = _from_study(root, p.string("from"))
    game = p.choice("game", ["manoeuvre", "hex"], start.get("game", "manoeuvre"))
    form = library_defaults("hex whatif" if game == "hex" else "whatif")
    form |= {k: str(v) for k, v in start.items() if v not in (None, "")}
    if sent:
        form |= {k: p.raw(k) or "" for k in p._keys()}
    kind = "hex whatif" if game == "hex" else "whatif"
    ctx = {"game": game, "source": p.string("from"), "form": form,
           "defaults": library_defaults(kind)}  # fmt: skip
    if game == "hex":
        return ctx | _hex_rows()
    names = army_names()
    army = p.string("army") or names[0]
    if army not in names:
        raise UsageError(f"--army: {army!r} is not a built-in army ({', '.join(names)})")
    return ctx | {"army": army, "armies": names} | _army_rows(army)


def _more(p: Params) -> list[str]:
    lines = [x.strip() for x in (p.string("more") or "").splitlines() if x.strip()]
    if len(lines) > MAX_EDIT_LINES:
        raise UsageError(f"--set: at most {MAX_EDIT_LINES} edits, got {len(lines)}")
    return lines


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
    return edits + _more(p)


def hex_edits(p: Params) -> list[str]:
    rows = _hex_rows()["sides"]
    edits = []
    for side, units in rows.items():
        for u in units:
            for f in HEX_FIELDS:
                v = p.raw(f"{side}{u['n']}_{f}")
                if v is not None and v != u[f] and u[f] != "":
                    edits.append(f"{side}/#{u['n']}/{f}={v}")
    return edits + _more(p)


def whatif_options(p: Params, root: Path) -> tuple[str, dict]:
    """A what-if form's job: ``("whatif" | "hex whatif", options)``; ``root`` as for
    :func:`balance_options`."""
    game = p.choice("game", ["manoeuvre", "hex"], "manoeuvre")
    opts = _common(p)
    if game == "hex":
        opts |= {"policies": p.string("policies", "capital,attrition"),
                 "border": p.string("border", "basic"),
                 "quality": p.string("quality", "front:front"),
                 "step_losses": p.boolean("step_losses"),
                 "step_replacements": p.boolean("step_replacements"),
                 "edits": hex_edits(p)}  # fmt: skip
        return "hex whatif", opts
    army = p.string("army")
    if army not in army_names():
        raise UsageError(f"--army: {army!r} is not a built-in army")
    opts |= {"armies": _armies(p, root), "policy": p.string("policy"),
             "edits": manoeuvre_edits(p, army)}  # fmt: skip
    return "whatif", opts
