"""data/ equals the scan-checked reference facts in tests/fixtures/reference, row for row."""

from __future__ import annotations

import csv
import io

from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli
from manoeuvre_sim.manoeuvre.model.export import CARD_COLUMNS


def _read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _key(row):
    return tuple(row[c] for c in row)


def test_cards_export_reproduces_reference_csv(reference_dir):
    ref = _read(reference_dir / "manoeuvre_cards.csv")
    res = CliRunner().invoke(cli, ["armies", "export", "--format", "csv"])
    assert res.exit_code == 0, res.output
    ours = list(csv.DictReader(io.StringIO(res.output)))
    assert list(ours[0]) == list(CARD_COLUMNS) == list(ref[0])
    assert len(ours) == len(ref) == 480
    assert sorted(map(_key, ours)) == sorted(map(_key, ref))


def test_card_numbers_follow_reference_order(reference_dir):
    # Stronger than "order aside": the file order reproduces the reference card_no too.
    ref = _read(reference_dir / "manoeuvre_cards.csv")
    res = CliRunner().invoke(cli, ["armies", "export"])
    ours = list(csv.DictReader(io.StringIO(res.output)))
    by_no = {(r["army"], r["card_no"]): r for r in ref}
    for r in ours:
        assert by_no[(r["army"], r["card_no"])] == r


def test_unit_table_reproduces_reference_csv(reference_dir):
    ref = _read(reference_dir / "manoeuvre_units.csv")
    res = CliRunner().invoke(cli, ["armies", "export", "--units"])
    assert res.exit_code == 0, res.output
    ours = list(csv.DictReader(io.StringIO(res.output)))
    assert len(ours) == len(ref) == 64
    ref_rows = sorted(tuple(r[c] for c in ours[0]) for r in ref)
    assert sorted(tuple(r.values()) for r in ours) == ref_rows


def test_hq_manifest_matches_reference_card(armies):
    # The reference card's HQ manifest (rules/004, "HQ CARD MANIFESTS"), in its column order:
    # Ambush, Committed Attack, Forced March, Guerrilla, Leader, Redoubt, Regroup,
    # Sappers/Engineers, Skirmish, Spy/Scout, Supply, Withdraw.
    manifest = {
        "Austria": (2, 1, 0, 2, 4, 3, 0, 0, 2, 0, 4, 2),
        "France": (0, 0, 3, 0, 6, 1, 0, 1, 1, 0, 4, 4),
        "Great Britain": (0, 1, 2, 0, 5, 2, 0, 1, 1, 1, 4, 3),
        "Ottoman Empire": (0, 4, 0, 0, 4, 0, 7, 0, 0, 0, 0, 5),
        "Prussia": (0, 1, 3, 1, 4, 3, 0, 0, 2, 0, 4, 2),
        "Russia": (0, 3, 0, 2, 6, 2, 0, 0, 1, 0, 4, 2),
        "Spain": (0, 0, 0, 5, 5, 4, 0, 0, 1, 0, 2, 3),
        "United States": (4, 0, 0, 0, 5, 3, 0, 1, 1, 1, 3, 2),
    }
    cols = ("Ambush", "Committed Attack", "Forced March", "Guerrilla", "Leader", "Redoubt",
            "Regroup", "Sappers/Engineers", "Skirmish", "Scout/Spy", "Supply", "Withdraw")  # fmt: skip
    for name, counts in manifest.items():
        got = armies[name].hq_counts()
        assert tuple(got[c] for c in cols) == counts, name


def test_tiebreak_order_rule_2_2(armies):
    order = sorted(armies.values(), key=lambda a: a.tiebreak_rank)
    assert [a.name for a in order] == [
        "United States", "Ottoman Empire", "Spain", "Austria", "Prussia", "Russia",
        "Great Britain", "France",
    ]  # fmt: skip


def test_map_sections_match_reference(reference_dir):
    import re

    from manoeuvre_sim.manoeuvre.model import load_sections

    text = (reference_dir / "manoeuvre_map_sections.txt").read_text(encoding="utf-8")
    ref = {
        int(n): tuple(g.split())
        for n, g in re.findall(r"section (\d+)\n((?:[A-Z]{4}\n?){4})", text)
    }
    ours = {s.number: s for s in load_sections()}
    assert {n: s.rows for n, s in ours.items()} == ref
    assert sorted(n for n, s in ours.items() if not s.verified) == [2, 3, 4]


def test_terrain_table_matches_reference(reference_dir):
    from manoeuvre_sim.manoeuvre.model import load_terrain

    t = load_terrain()
    assert t.redoubt_defense == 3
    # TERRAIN.md: Hill +2 (blocks, +2 attack against non-hill), Marsh +1 must stop,
    # Town +3 blocks, Woods +2 blocks, Field must stop, Lake may not enter.
    got = {ch: (x.defense, x.blocks_los, x.must_stop, x.enterable, x.attack_bonus)
           for ch, x in t.terrain.items()}  # fmt: skip
    assert got == {
        "C": (0, False, False, True, 0),
        "F": (0, False, True, True, 0),
        "H": (2, True, False, True, 2),
        "L": (0, False, False, False, 0),
        "M": (1, False, True, True, 0),
        "T": (3, True, False, True, 0),
        "W": (2, True, False, True, 0),
    }
    assert t.terrain["M"].no_assault_from and t.terrain["M"].no_forced_march
    assert t.terrain["F"].no_forced_march
