"""Build ``data/`` from the reference transcription in ``tests/fixtures/reference``.

Run once by a maintainer when the reference facts change::

    python scripts/build_data_from_reference.py tests/fixtures/reference data

The generated TOML files are committed: they are the project's editable facts. The package
never reads that folder at run time; ``tests/manoeuvre/test_reference_data.py`` checks that ``data/``
still reproduces the reference CSVs row for row.
"""

from __future__ import annotations

import csv
import re
import sys
from collections import defaultdict
from pathlib import Path

# rule 2.2: "United States, Ottoman Empire, Spain, Austria, Prussia, Russia, Great Britain,
# France" -- the first listed wins the last nightfall tie-breaker.
TIEBREAK_ORDER = [
    "United States",
    "Ottoman Empire",
    "Spain",
    "Austria",
    "Prussia",
    "Russia",
    "Great Britain",
    "France",
]

DEFAULT_HQ_TITLES = {
    "Guerrilla": "Guerrillas",
}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def card_inline(r: dict) -> str:
    parts = []
    if r["attack"]:
        parts.append(f"attack = {q(r['attack'])}")
    if r["defense"]:
        parts.append(f"defense = {int(r['defense'])}")
    if r["range"]:
        parts.append(f"range = {int(r['range'])}")
    if r["bombard"]:
        parts.append(f"bombard = {q(r['bombard'])}")
    if r["volley"]:
        parts.append(f"volley = {q(r['volley'])}")
    if r["pursuit_max"]:
        parts.append(f"pursuit_max = {int(r['pursuit_max'])}")
    if r["withdraw_max"]:
        parts.append(f"withdraw_max = {int(r['withdraw_max'])}")
    if r["not_required_to_advance"] == "1":
        parts.append("not_required_to_advance = true")
    if r["artillery"] == "1":
        parts.append("artillery = true")
    return "{ " + ", ".join(parts) + " }"


def main(ref: Path, out: Path) -> None:
    units = defaultdict(list)
    with open(ref / "manoeuvre_units.csv", encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            units[r["army"]].append(r)
    cards = defaultdict(list)
    with open(ref / "manoeuvre_cards.csv", encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            cards[r["army"]].append(r)
    (out / "armies").mkdir(parents=True, exist_ok=True)
    for army in TIEBREAK_ORDER:
        deck = sorted(cards[army], key=lambda r: int(r["card_no"]))
        lines = [
            f"# {army}: army file for manoeuvre-sim.",
            "# Built from the scan-checked reference transcription (see the README, 'Data').",
            "# Copy this file, change a number, and run the analyses on the copy.",
            "# Dice are NdS (S in 4..20); pursuit_max / withdraw_max: a d6 succeeds on 1..max.",
            "",
            f"name = {q(army)}",
            "# rule 2.2: place in the last nightfall tie-breaker list (1 wins over 2 ... 8).",
            f"tiebreak_rank = {TIEBREAK_ORDER.index(army) + 1}",
            "",
        ]
        for u in units[army]:
            ucards = [r for r in deck if r["kind"] == "unit" and r["unit"] == u["unit"]]
            lines += [
                "[[units]]",
                f"name = {q(u['unit'])}",
            ]
            card_names = {r["name"] for r in ucards}
            if card_names != {u["unit"]}:
                (cn,) = card_names
                lines.append(f"card_name = {q(cn)}  # as printed on its cards (rule 1.4)")
            lines += [
                f"type = {q(u['unit_type'])}",
                f"full = {int(u['full_strength'])}",
                f"reduced = {int(u['reduced_strength'])}",
                "cards = [",
            ]
            lines += [f"  {card_inline(r)}," for r in ucards]
            lines += ["]", ""]
        for r in deck:
            if r["kind"] != "leader":
                continue
            lines += [
                "[[leaders]]",
                f"name = {q(r['name'])}",
                f"command = {int(r['leader_command'])}",
            ]
            a, d = int(r["leader_combat_attack"]), int(r["leader_combat_defense"])
            if a == d:
                lines.append(f"combat = {a}")
            else:
                lines += [f"combat_attack = {a}", f"combat_defense = {d}"]
            rally = r["leader_rally_max"]
            lines.append(f"rally = {q(rally) if rally == 'auto' else int(rally)}")
            if r["leader_pursuit_mod"]:
                lines.append(f"pursuit_mod = {int(r['leader_pursuit_mod'])}")
            if r["special"].startswith("Grand Battery"):
                dice = r["special"].rsplit(" ", 1)[-1]
                lines.append(
                    f"grand_battery = {q(dice)}  # rule 9.1: bombard, range 2, from any unit"
                )
            lines.append("")
        hq = []
        for r in deck:
            if r["kind"] != "hq":
                continue
            title = r["name"]
            if hq and hq[-1][0] == r["hq_type"] and hq[-1][1] == title:
                hq[-1][2] += 1
            else:
                hq.append([r["hq_type"], title, 1])
        for typ, title, n in hq:
            lines += ["[[hq]]", f"type = {q(typ)}"]
            if title != DEFAULT_HQ_TITLES.get(typ, typ):
                lines.append(f"title = {q(title)}")
            lines += [f"count = {n}", ""]
        (out / "armies" / f"{slug(army)}.toml").write_text(
            "\n".join(lines).rstrip() + "\n", encoding="utf-8"
        )

    # map sections
    text = (ref / "manoeuvre_map_sections.txt").read_text(encoding="utf-8")
    blocks = re.findall(r"section (\d+)\n((?:[A-Z]{4}\n?){4})", text)
    lines = [
        "# The 24 printed map sections of Manoeuvre, as 4x4 terrain grids (rule 1.1).",
        "# Rows top to bottom as printed, squares left to right, no rotation.",
        "# Letters are those of data/terrain.toml.",
        "# verified = false: the scan of that section is a stand-in and its printed layout is",
        "# unknown; such sections are left out of the default random pool.",
        "",
    ]
    for num, grid in blocks:
        rows = grid.split()
        n = int(num)
        lines += ["[[sections]]", f"number = {n}"]
        if n in (2, 3, 4):
            lines.append("verified = false  # the image copies another section's layout")
        else:
            lines.append("verified = true")
        lines.append("rows = [" + ", ".join(q(r) for r in rows) + "]")
        lines.append("")
    (out / "maps").mkdir(parents=True, exist_ok=True)
    (out / "maps" / "sections.toml").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
