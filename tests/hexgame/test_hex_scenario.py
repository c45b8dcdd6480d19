"""Maneuver's scenario file (rules [2], [3], [5]) and the hex map's tables (odd-q)."""

from __future__ import annotations

import numpy as np
import pytest

from manoeuvre_sim.core.errors import DataError
from manoeuvre_sim.hexgame import scenario as SC
from manoeuvre_sim.hexgame.grid import CUBE_DIRECTIONS, Grid, cube_distance, offset_to_cube


def test_default_scenario_loads_labelled_as_reconstruction():
    sc = SC.load_scenario()
    assert "Reconstruction" in sc.note
    assert (sc.columns, sc.rows) == (10, 14)
    assert {"basic", "large_blue", "large_red"} <= set(sc.borders)
    assert len(sc.sha256) == 64
    p = SC.pack(sc)
    for s in range(2):
        assert p.units[s * SC.MAXU, SC.U_TYPE] == SC.CAPITAL  # the Capital first
        assert p.units[s * SC.MAXU, SC.U_MA] == 0  # rule [5]


def test_basic_border_halves_the_map():
    p = SC.pack(SC.load_scenario(), "basic")
    assert (p.hexes[:, SC.H_SIDE] == 0).sum() == (p.hexes[:, SC.H_SIDE] == 1).sum() == 70


def test_setup_hexes_keep_off_the_border_and_capital_off_edges_and_corners():
    sc = SC.load_scenario()
    g = sc.grid
    p = SC.pack(sc, "basic")
    nb = g.neighbours()
    for h in range(g.n):
        side = p.hexes[h, SC.H_SIDE]
        near = any(n >= 0 and p.hexes[n, SC.H_SIDE] != side for n in nb[h])
        assert p.hexes[h, SC.H_SETUP] == (not near)  # rule [3]
    # hand-checked: 0202 (col 1, row 1) is not an edge hex and 2 from the corner 0101
    assert p.hexes[g.parse("0202"), SC.H_CAPITAL_OK] == 1
    assert p.hexes[g.parse("0102"), SC.H_CAPITAL_OK] == 0  # on the map edge
    assert p.hexes[g.parse("0207"), SC.H_CAPITAL_OK] == 0  # adjacent to the border


def _write(tmp_path, text):
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _default_text():
    return SC.default_path().read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "field", "expected"),
    [
        ("columns = 10", 'columns = "10"', "columns", "expected an integer"),
        (
            "blue_rows = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7]",
            "blue_rows = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]",
            "basic",
            "blue has no hex its Capital may set up on (rule [3])",
        ),
        ('layout = "odd-q"', 'layout = "even-r"', "layout", "expected 'odd-q'"),
        (
            "blue_rows = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7]",
            "blue_rows = [7, 7]",
            "",
            "expected 10 numbers",
        ),
        (
            "blue_rows = [5, 5, 5, 6, 6, 6, 6, 5, 5, 5]",
            "blue_rows = [5, 5, 5, 6, 40, 6, 6, 5, 5, 14]",
            "large_red > blue_rows",
            "column 5 (entry 5 of 10) is 40; expected a row in 1..13 (blue holds rows 1..N of "
            "that column), and 1 more out of range",
        ),
        (
            "strength = [2, 0]\nma = 5",
            "strength = [2, 1]\nma = 5",
            "blue",
            "exactly two combat units",
        ),
        (
            "attack = [1, 0]\ndefence = [4, 0]\nma = 0",
            "attack = [1, 0]\ndefence = [4, 0]\nma = 1",
            "Capital",
            "ma = 0",
        ),
    ],
)
def test_bad_files_get_one_line_naming_file_field_expected(tmp_path, old, new, field, expected):
    text = _default_text()
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(DataError) as e:
        SC.load_scenario(path)
    msg = str(e.value)
    assert len(msg.splitlines()) == 1, msg
    assert str(path) in msg and field in msg and expected in msg, msg


def test_hash_ignores_comments_but_not_values(tmp_path):
    text = _default_text()
    a = SC.load_scenario(_write(tmp_path, "# another comment\n" + text)).sha256
    assert a == SC.load_scenario().sha256
    b = SC.load_scenario(
        _write(tmp_path, text.replace("strength = [4, 2]", "strength = [5, 2]", 1))
    )
    assert b.sha256 != a


# ------------------------------------------------------------------------------ the grid
def test_offset_cube_round_trip_and_hand_checked_neighbours():
    g = Grid(10, 14)
    for h in range(g.n):
        from manoeuvre_sim.hexgame.grid import cube_to_offset

        assert cube_to_offset(*g.cube(h)) == g.col_row(h)
    nb = g.neighbours()

    def names(h):
        return sorted(g.label(int(n)) for n in nb[h] if n >= 0)

    # odd-q: an odd column (0-based) is shifted down, so the even columns beside it meet
    # it at its row and the next one; an even column meets its odd neighbours a row up.
    # 0-based (1, 1) = "0202": an odd column
    assert names(g.parse("0202")) == ["0102", "0103", "0201", "0203", "0302", "0303"]
    # 0-based (2, 2) = "0303": an even column
    assert names(g.parse("0303")) == ["0202", "0203", "0302", "0304", "0402", "0403"]
    # the corner 0101 has 3 neighbours on the map (even column: up-left/up-right are off)
    assert names(g.parse("0101")) == ["0102", "0201"]
    # the last column is odd (0-based 9): its bottom hex 1014 meets 0914 only above it
    assert names(g.parse("1014")) == ["0914", "1013"]


def test_tables_match_cube_geometry():
    g = Grid(10, 14)
    nb = g.neighbours()
    dist = g.distances()
    assert nb.dtype == np.int16 and nb.shape == (140, 6)
    assert dist.dtype == np.int8 and dist.shape == (140, 140)
    for h in range(g.n):
        a = g.cube(h)
        for d, n in enumerate(nb[h]):
            want = tuple(x + y for x, y in zip(a, CUBE_DIRECTIONS[d], strict=True))
            if n >= 0:
                assert g.cube(int(n)) == want
                assert dist[h, n] == 1
        assert sum(1 for n in nb[h] if n >= 0) == int((dist[h] == 1).sum())
        for k in range(0, g.n, 7):
            assert dist[h, k] == cube_distance(a, g.cube(k))
    assert dist[g.parse("0101"), g.parse("1014")] == max(
        abs(q) for q in np.subtract(offset_to_cube(0, 0), offset_to_cube(9, 13))
    )


def test_scenario_command_shows_hash_armies_and_borders():
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    res = CliRunner().invoke(cli, ["hex", "scenario", "--border", "basic"])
    assert res.exit_code == 0, res.output
    sc = SC.load_scenario()
    assert sc.sha256 in res.output and "Reconstruction" in res.output
    rows = [ln.split() for ln in res.output.splitlines() if ln.startswith("  ") and ln.strip()]
    cells = [c for r in rows if all(len(c) == 1 for c in r) for c in r]
    p = SC.pack(sc, "basic")
    assert len(cells) == sc.columns * sc.rows
    assert sum(c.isupper() for c in cells) == int((p.hexes[:, SC.H_SIDE] == 0).sum())
    assert cells.count("K") == int(
        ((p.hexes[:, SC.H_SIDE] == 0) & (p.hexes[:, SC.H_CAPITAL_OK] == 1)).sum()
    )
