"""Set-up as rule 3 gives it (``--setup rules``) and a fixed battlefield (``--map``/``--rot``).

Rule 3: "The First Player chooses 4 map sections and decides how to orient and place them
into the 2 x 2 pattern ... The second player selects which of the four map edges will be
their starting edge and the first player is assigned the opposite starting edge."
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.engine import batch as B
from manoeuvre_sim.manoeuvre.engine import decisions as D
from manoeuvre_sim.manoeuvre.engine import rules as R
from manoeuvre_sim.manoeuvre.engine import state as S
from manoeuvre_sim.manoeuvre.engine.options import (
    OPT_MAP,
    OPT_ROT,
    OPT_SETUP,
    SETUP_RANDOM,
    SETUP_RULES,
    rule_options,
)
from manoeuvre_sim.manoeuvre.engine.players import battlefield as BF
from manoeuvre_sim.manoeuvre.engine.trace import play_traced
from manoeuvre_sim.manoeuvre.model import load_sections, load_terrain
from manoeuvre_sim.manoeuvre.runner import SimConfig, simulate
from tests.manoeuvre.boards import parse_board
from tests.manoeuvre.engine_helpers import packed

TERRAIN = load_terrain()
LETTERS = TERRAIN.letters
SECTIONS = {s.number: s for s in load_sections(terrain=TERRAIN)}


def terrain_letters(st) -> list[str]:
    """The engine's 8x8 terrain as rows of letters, top row (B's edge) first."""
    codes = st[S.TERR : S.TERR + 64]
    return ["".join(LETTERS[k] for k in codes[r * 8 : r * 8 + 8]) for r in range(8)]


def laid(numbers, rots) -> list[str]:
    """The battlefield of sections NW, NE, SW, SE in these rotations, from the sections file
    (model.MapSection.rotated, not the engine)."""
    g = [[""] * 8 for _ in range(8)]
    for pos, (n, r) in enumerate(zip(numbers, rots, strict=True)):
        rows = SECTIONS[n].rotated(r)
        for i in range(4):
            for j in range(4):
                g[(pos // 2) * 4 + i][(pos % 2) * 4 + j] = rows[i][j]
    return ["".join(r) for r in g]


def turned(rows: list[str], turns: int) -> list[str]:
    """An 8x8 letter grid turned ``turns`` quarter turns clockwise (numpy, not the engine)."""
    a = np.array([list(r) for r in rows])
    return ["".join(r) for r in np.rot90(a, k=-turns)]


def events(tr, ev):
    return [tuple(int(x) for x in row) for row in tr if row[0] == ev]


# --- a fixed battlefield ---------------------------------------------------------------------
FIXED = (5, 9, 12, 18)
FIXED_ROT = (0, 1, 0, 3)
# sections 5 (as printed), 9 (a quarter turn), 12 (as printed), 18 (three quarter turns)
FIXED_BOARD = """
    . W . . T . . W
    . . . W . H . .
    . . H . . T . T
    W W . T . . W W
    . . W . . . . M
    . . . . . H H .
    T W . . . H . .
    W . . . T . T .
"""


def test_a_fixed_map_is_exactly_that_terrain_in_those_rotations():
    """--map 5,9,12,18 --rot 0,1,0,3 with the default (random) set-up: every game is played on
    that battlefield as drawn, army A at the bottom; the first player is still rolled."""
    want = parse_board(FIXED_BOARD).terr
    assert laid(FIXED, FIXED_ROT) == ["".join(LETTERS[k] for k in want[r * 8 : r * 8 + 8])
                                      for r in range(8)]  # fmt: skip
    firsts = set()
    for game in range(4):
        st, tr = play_traced("France", "Russia", seed=3, game=game, policies=("simple", "random"),
                             fixed_map=FIXED, fixed_rot=FIXED_ROT)  # fmt: skip
        assert np.array_equal(st[S.TERR : S.TERR + 64], want)
        assert tuple(st[S.MAP : S.MAP + 4]) == FIXED
        assert tuple(st[S.MAP + 4 : S.MAP + 8]) == FIXED_ROT
        maps = events(tr, R.EV_MAP)
        assert [(m[1], m[2], m[3], m[4]) for m in maps] == [
            (-1, n, r, pos) for pos, (n, r) in enumerate(zip(FIXED, FIXED_ROT, strict=True))
        ]
        assert not events(tr, R.EV_EDGE)
        firsts.add(int(st[S.FIRST]))
    assert firsts == {0, 1}
    r = simulate(SimConfig("France", "Russia", games=50, seed=9, fixed_map=FIXED,
                           fixed_rot=FIXED_ROT, policy_a="random", policy_b="random")).records  # fmt: skip
    assert (r[:, B.R_MAP : B.R_MAP + 4] == FIXED).all()
    assert (r[:, B.R_MAP + 4 : B.R_MAP + 8] == FIXED_ROT).all()


def test_default_set_up_is_random_with_no_fixed_map():
    """The default consumes the game's RNG as before (the golden transcripts hold the games);
    its option slots are zero, as an array built before the options existed would be."""
    opt = rule_options()
    assert opt[OPT_SETUP] == SETUP_RANDOM and not opt[OPT_MAP : OPT_MAP + 4].any()
    assert not opt[OPT_ROT : OPT_ROT + 4].any()
    assert rule_options(setup="rules")[OPT_SETUP] == SETUP_RULES
    base = dict(army_a="Austria", army_b="Spain", games=40, seed=5)
    r1 = simulate(SimConfig(**base)).records
    r2 = simulate(SimConfig(**base, setup="random")).records
    assert np.array_equal(r1, r2)
    maps = {tuple(x) for x in r1[:, B.R_MAP : B.R_MAP + 8].tolist()}
    assert len(maps) == 40  # drawn per game


# --- turning the battlefield -----------------------------------------------------------------
@pytest.mark.parametrize("turns", range(4))
def test_turning_the_battlefield_turns_sections_and_terrain(turns):
    """The second player's edge is carried out by turning the whole map (setup.py): the
    terrain turns as a whole, and the recorded sections move round the quarters, each turned
    with it, so MAP still describes the terrain."""
    from manoeuvre_sim.manoeuvre.engine.setup import lay_section, pool_index, turn_battlefield

    P = packed()
    st = S.new_state()
    for pos, (n, r) in enumerate(zip(FIXED, FIXED_ROT, strict=True)):
        lay_section(st, P.sections, P.section_numbers, pool_index(P.section_numbers, n), r, pos)
    assert terrain_letters(st) == laid(FIXED, FIXED_ROT)
    turn_battlefield(st, P.sections, P.section_numbers, turns)
    assert terrain_letters(st) == turned(laid(FIXED, FIXED_ROT), turns)
    assert terrain_letters(st) == laid(st[S.MAP : S.MAP + 4], st[S.MAP + 4 : S.MAP + 8])
    # and the players' evaluation turns boards the same way
    grid = np.array(parse_board(FIXED_BOARD).terr, dtype=np.int64)
    out = np.empty(64, dtype=np.int64)
    BF.turn_terrain(grid, turns, out)
    assert np.array_equal(out, st[S.TERR : S.TERR + 64])


# --- the rules set-up in whole games ---------------------------------------------------------
@pytest.mark.parametrize(
    "policies", [("balanced", "simple"), ("random", "territorial"), ("attritional", "random")]
)
def test_rules_set_up_first_player_lays_the_map_second_chooses_the_edge(policies):
    """The trace: the first player lays 4 distinct sections NW, NE, SW, SE (EV_MAP by that
    player), then the second player chooses its edge (EV_EDGE), before any card is dealt or
    unit placed; the battlefield played on is the laid map turned to that edge."""
    for seed in (1, 2, 3):
        st, tr = play_traced("France", "Russia", seed=seed, policies=policies, setup="rules")
        first = int(st[S.FIRST])
        maps = events(tr, R.EV_MAP)
        edge = events(tr, R.EV_EDGE)
        assert [m[1] for m in maps] == [first] * 4, "the first player lays the map"
        assert [m[4] for m in maps] == [0, 1, 2, 3]
        assert len({m[2] for m in maps}) == 4, "four distinct sections"
        assert len(edge) == 1 and edge[0][1] == 1 - first, "the second player picks its edge"
        e, turns = edge[0][2], edge[0][3]
        home = D.EDGE_S if 1 - first == 0 else D.EDGE_N
        assert (e + turns) % 4 == home, "the chosen edge is turned to the second player's side"
        rows = [tuple(int(x) for x in row) for row in tr]
        i_edge = rows.index(edge[0])
        assert all(i < i_edge for i in (rows.index(m) for m in maps))
        assert all(row[0] not in (R.EV_DRAW, R.EV_SETUP) for row in rows[:i_edge]), (
            "the battlefield is chosen before the deal and the set-up: no hidden card exists"
        )
        want = turned(laid([m[2] for m in maps], [m[3] for m in maps]), turns)
        assert terrain_letters(st) == want
        assert terrain_letters(st) == laid(st[S.MAP : S.MAP + 4], st[S.MAP + 4 : S.MAP + 8])


def test_rules_set_up_with_a_fixed_map_leaves_only_the_edge():
    """--setup rules --map: the battlefield is fixed; the second player still chooses its edge,
    so each game is the fixed battlefield turned (and recorded as played)."""
    fixed = laid(FIXED, FIXED_ROT)
    seen = set()
    for game in range(12):
        st, tr = play_traced("Prussia", "Austria", seed=8, game=game, policies=("random", "random"),
                             setup="rules", fixed_map=FIXED, fixed_rot=FIXED_ROT)  # fmt: skip
        maps = events(tr, R.EV_MAP)
        assert [(m[1], m[2], m[3]) for m in maps] == [
            (-1, n, r) for n, r in zip(FIXED, FIXED_ROT, strict=True)
        ]
        (edge,) = events(tr, R.EV_EDGE)
        assert edge[1] == 1 - int(st[S.FIRST])
        assert terrain_letters(st) == turned(fixed, edge[3])
        seen.add(edge[2])
    assert seen == {0, 1, 2, 3}, "the random player takes every edge"


def test_rules_set_up_keeps_every_invariant_over_random_play():
    """400 random-legal games with the rules set-up (and 100 with a fixed map), invariants
    checked after every phase (OPT_CHECK); the random player lays varied maps."""
    cfg = SimConfig("Ottoman Empire", "Great Britain", games=400, seed=31, policy_a="random",
                    policy_b="random", setup="rules", check_invariants=True)  # fmt: skip
    r = simulate(cfg).records
    assert len(r) == 400 and np.isin(r[:, B.R_VICTORY], (1, 2)).all()
    secs = r[:, B.R_MAP : B.R_MAP + 4]
    assert all(len(set(row)) == 4 for row in secs.tolist())
    assert len(np.unique(secs)) == len(packed().section_numbers)
    assert set(np.unique(r[:, B.R_MAP + 4 : B.R_MAP + 8])) == {0, 1, 2, 3}
    cfg = SimConfig("Spain", "United States", games=100, seed=32, policy_a="random",
                    policy_b="simple", setup="rules", fixed_map=(21, 7, 6, 14),
                    check_invariants=True)  # fmt: skip
    assert len(simulate(cfg).records) == 100


@pytest.mark.parametrize("policy", ("simple", "balanced"))
def test_rules_set_up_fair_play(policy):
    """Every decision of games with the rules set-up, re-taken on a state whose hidden cards
    are scrambled, is the same (the set-up choices come before the deal; see the trace test)."""
    cfg = SimConfig("Great Britain", "United States", games=40, seed=17, policy_a=policy,
                    policy_b="territorial", threads=1, setup="rules", check_fair_play=1,
                    check_invariants=True)  # fmt: skip
    assert len(simulate(cfg).records) == 40


def test_rules_set_up_same_records_for_any_threads_and_chunks():
    base = dict(army_a="Prussia", army_b="Spain", games=120, seed=42, setup="rules")
    r1 = simulate(SimConfig(**base, threads=1, chunk=120)).records
    r2 = simulate(SimConfig(**base, threads=2, chunk=17)).records
    assert np.array_equal(r1, r2)
    f1 = simulate(SimConfig(**base, fixed_map=FIXED, threads=1)).records
    f2 = simulate(SimConfig(**base, fixed_map=FIXED, threads=2, chunk=31)).records
    assert np.array_equal(f1, f2)


# --- the players' evaluation (players/battlefield.py) ------------------------------------------
STRIPS = {
    # hills on two rows or columns next to a centre line, and the edge that brings them to the
    # chooser's side just behind the centre (its front rows)
    "rows 2-3": (lambda r, c: r in (2, 3), D.EDGE_N),
    "rows 4-5": (lambda r, c: r in (4, 5), D.EDGE_S),
    "columns 2-3": (lambda r, c: c in (2, 3), D.EDGE_W),
    "columns 4-5": (lambda r, c: c in (4, 5), D.EDGE_E),
}


def board_with(hill) -> str:
    return "\n".join(" ".join("H" if hill(r, c) else "." for c in range(8)) for r in range(8))


def edge_options(p: int) -> np.ndarray:
    """The D_EDGE options as setup.choose_edge writes them."""
    opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
    home = D.EDGE_S if p == 0 else D.EDGE_N
    for e in range(4):
        opts[e, :2] = (e, (home - e) % 4)
    return opts


@pytest.mark.parametrize("strip", STRIPS)
@pytest.mark.parametrize("p", (0, 1))
def test_the_second_player_takes_the_edge_that_gives_it_the_high_ground(strip, p):
    """A battlefield with hills along one side of a centre line, e.g. rows 4-5:

        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        H H H H H H H H
        H H H H H H H H
        . . . . . . . .
        . . . . . . . .

    The second player chooses the starting edge (south here) that puts the hills just behind
    the centre line on its own side: defensive terrain where its line will stand (rule 6.3)."""
    hill, want = STRIPS[strip]
    P = packed("France", "Russia")
    st = S.new_state()
    st[S.TERR : S.TERR + 64] = parse_board(board_with(hill)).terr
    opts = edge_options(p)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    i = BF.choose_battlefield(st, P.units, P.cards, P.tprops, rng, opts, p, D.D_EDGE, 4)
    assert opts[i, 0] == want, f"{strip}: chose the {D.EDGE_NAMES[opts[i, 0]]} edge"


def test_fields_weigh_on_the_army_with_more_cavalry():
    """Rule 5: a Field ends a cavalry move. With fields across the middle rows the Ottoman
    army (4 cavalry of 8) values the battlefield below a mirror army with 1 (United States),
    from either seat; on open ground the value is 0."""
    P = packed("Ottoman Empire", "United States")
    traits = np.array([BF.army_traits(P.units, P.cards, p) for p in range(2)])
    assert traits[0, 0] == 0.5 and traits[1, 0] == 0.125
    open_ground = np.array(parse_board(board_with(lambda r, c: False)).terr, dtype=np.int64)
    assert BF.battlefield_value(open_ground, P.tprops, 0, traits) == 0.0
    fields = parse_board(
        "\n".join(" ".join("F" if r in (3, 4) else "." for _ in range(8)) for r in range(8))
    )
    g = np.array(fields.terr, dtype=np.int64)
    assert (
        BF.battlefield_value(g, P.tprops, 0, traits)
        < 0
        < BF.battlefield_value(g, P.tprops, 1, traits)
    )


def _side_score(rows: list[str], p: int, cav: float, bomb: float) -> float:
    """The side score of players/battlefield.py's docstring, in plain Python from the terrain
    table (data/terrain.toml), for the cross-check below. ``rows``: letters, '?' unknown."""
    v = 0.0
    for r, row in enumerate(rows):
        d = 7 - r if p == 0 else r
        for ch in row:
            if ch == "?":
                continue
            t = TERRAIN.terrain[ch]
            if d <= 3:
                v += (0.25, 0.5, 1.0, 1.0)[d] * t.defense
                v += 0.5 * t.attack_bonus if d == 3 else 0.0
                v -= 1.0 if d <= 1 and not t.enterable else 0.0
            if d >= 2:
                v -= cav * t.must_stop
                if d <= 5:
                    v -= bomb * t.blocks_los
    return v


def test_the_first_player_lays_the_section_worth_most_on_the_worst_edge():
    """The first player's last section (SE) with three laid: every option's value is the
    least, over the 4 edges the second player may then take, of its side score minus the
    opponent's; the kernel's choice is the best option by that reckoning (computed here in
    plain Python from the docstring and the terrain table)."""
    from manoeuvre_sim.manoeuvre.engine.setup import lay_section, pack_section_codes, pool_index

    P = packed("Ottoman Empire", "Austria")
    traits = [BF.army_traits(P.units, P.cards, p) for p in range(2)]
    st = S.new_state()
    for pos, n in enumerate((11, 9, 21)):  # hills, towns and woods, a lake and hills
        lay_section(st, P.sections, P.section_numbers, pool_index(P.section_numbers, n), 1, pos)
    numbers = [int(x) for x in P.section_numbers]
    opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
    cand = []
    for k, n in enumerate(numbers):
        if n in (11, 9, 21):
            continue
        for rot in range(4):
            i = len(cand)
            opts[i] = (k, 3 * 4 + rot, pack_section_codes(P.sections, k, rot, 0),
                       pack_section_codes(P.sections, k, rot, 1))  # fmt: skip
            cand.append((n, rot))
    for p in (0, 1):
        q = 1 - p
        values = []
        for n, rot in cand:
            rows = terrain_letters(st)[:4] + [
                terrain_letters(st)[r][:4] + SECTIONS[n].rotated(rot)[r - 4] for r in range(4, 8)
            ]
            values.append(min(
                _side_score(turned(rows, t), p, *traits[p])
                - _side_score(turned(rows, t), q, *traits[q])
                for t in range(4)
            ))  # fmt: skip
        rng = np.array([5, 6, 7, 8], dtype=np.uint64)
        i = BF.choose_battlefield(st, P.units, P.cards, P.tprops, rng, opts, p,
                                  D.D_MAP_SECTION, len(cand))  # fmt: skip
        assert values[i] == pytest.approx(max(values)), (p, cand[i])
        assert max(values) - min(values) > 1.0  # the choice matters


def test_the_first_player_keeps_strong_ground_out_of_the_map():
    """Laying the first section, any terrain may end up on the second player's side (it
    chooses the edge afterwards): offered section 11 (5 hills) or section 12 (3 woods and a
    town, away from the centre), the first player lays 12."""
    from manoeuvre_sim.manoeuvre.engine.setup import pack_section_codes, pool_index

    P = packed("France", "Russia")
    st = S.new_state()
    opts = np.zeros((D.MAXOPT, 4), dtype=np.int32)
    for i, n in enumerate((11, 12)):
        k = pool_index(P.section_numbers, n)
        opts[i] = (k, 0, pack_section_codes(P.sections, k, 0, 0),
                   pack_section_codes(P.sections, k, 0, 1))  # fmt: skip
    for p in (0, 1):
        rng = np.array([1, 1, 1, 1], dtype=np.uint64)
        i = BF.choose_battlefield(st, P.units, P.cards, P.tprops, rng, opts, p,
                                  D.D_MAP_SECTION, 2)  # fmt: skip
        assert P.section_numbers[opts[i, 0]] == 12


# --- options, command line, manifests, replay ------------------------------------------------
@pytest.mark.parametrize(
    "kw, needle",
    [
        (dict(setup="rule"), "--setup: expected one of random, rules, got 'rule'"),
        (dict(fixed_map=(5, 9, 12)), "--map: expected 4 section numbers"),
        (dict(fixed_map=(5, 9, 9, 18)), "--map: expected 4 distinct sections, got section 9"),
        (dict(fixed_map=FIXED, fixed_rot=(0, 1, 4, 0)), "--rot: expected 4 quarter turns"),
        (dict(fixed_rot=(0, 1, 0, 0)), "--rot: turns the sections of a fixed map; give --map"),
    ],
)
def test_bad_set_up_options_in_the_python_api(kw, needle):
    with pytest.raises(UsageError, match="^" + needle.replace("(", r"\(")):
        SimConfig("France", "Russia", **kw)


def test_a_fixed_map_outside_the_pool_is_refused_before_any_game():
    with pytest.raises(UsageError, match=r"^--map: section 3 is unverified \(its printed layout "
                       r"is unknown\) and not in the map pool in use; expected sections from "
                       r"1, 5-24 \(2-4 only with include_unverified_maps\)$"):  # fmt: skip
        simulate(SimConfig("France", "Russia", games=1, fixed_map=(3, 9, 12, 18)))
    with pytest.raises(UsageError, match=r"^--map: section 99: no such section; expected"):
        simulate(SimConfig("France", "Russia", games=1, fixed_map=(99, 9, 12, 18)))
    # the unverified sections are in the pool with the switch
    cfg = SimConfig("France", "Russia", games=2, fixed_map=(3, 9, 12, 18),
                    include_unverified_maps=True)  # fmt: skip
    assert (simulate(cfg).records[:, B.R_MAP] == 3).all()


def _cli(args, capsys):
    from manoeuvre_sim.cli.main import main

    code = 0
    try:
        main(args)
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


BAD_CLI = [
    (["--map", "5,9,12"], "error: --map: expected 4 comma-separated section numbers NW,NE,SW,SE, "
                          "got 3 in '5,9,12'"),
    (["--map", "5,9,x,18"], "error: --map: expected 4 comma-separated section numbers"),
    (["--map", "5,9,9,18"], "error: --map: expected 4 distinct sections, got section 9 more than "
                            "once"),
    (["--map", "2,9,12,18"], "error: --map: section 2 is unverified (its printed layout is "
                             "unknown) and not in the map pool in use"),
    (["--map", "5,9,12,30"], "error: --map: section 30: no such section; expected sections from "
                             "1, 5-24"),
    (["--map", "5,9,12,18", "--rot", "0,1,0,4"], "error: --rot: expected 4 quarter turns clockwise,"
                                                 " each 0-3"),
    (["--map", "5,9,12,18", "--rot", "0,1"], "error: --rot: expected 4 comma-separated quarter "
                                             "turns 0-3, got 2"),
    (["--rot", "0,1,0,3"], "error: --rot: turns the sections of a fixed map; give --map too"),
    (["--setup", "rule"], "Invalid value for '--setup'"),
]  # fmt: skip
COMMANDS = {
    "simulate": ["simulate", "--army-a", "France", "--army-b", "Russia", "--games", "2", "--quiet",
                 "--out", "OUT/x.csv"],
    "balance": ["balance", "--armies", "France,Russia", "--games-per-pairing", "2", "--quiet",
                "--out", "OUT/b"],
    "tournament": ["tournament", "--policies", "random,simple", "--games", "16", "--armies",
                   "France", "--quiet"],
    "replay": ["replay", "--army-a", "France", "--army-b", "Russia"],
}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad, needle", BAD_CLI)
def test_bad_set_up_options_on_the_command_line(command, bad, needle, tmp_path, capsys,
                                                monkeypatch):  # fmt: skip
    """Each command refuses a bad --setup/--map/--rot with one line naming the option, exit
    status 2, no traceback, and before any game is played."""
    import manoeuvre_sim.manoeuvre.runner as RN

    def boom(*a, **k):
        raise AssertionError("a game was played before the options were checked")

    monkeypatch.setattr(RN, "simulate", boom)
    monkeypatch.setattr("manoeuvre_sim.manoeuvre.engine.trace.play_traced", boom)
    args = [a.replace("OUT", str(tmp_path)) for a in COMMANDS[command]] + bad
    code, out, err = _cli(args, capsys)
    assert code == 2, (out, err)
    assert needle in err and "Traceback" not in err
    if needle.startswith("error:"):
        assert len(err.strip().splitlines()) == 1, err


def test_simulate_records_the_set_up_in_its_manifest(tmp_path, capsys):
    import pandas as pd

    out = tmp_path / "g.csv"
    code, _, err = _cli(["simulate", "--army-a", "France", "--army-b", "Russia", "--games", "30",
                         "--seed", "4", "--setup", "rules", "--map", "5,9,12,18", "--rot",
                         "0,1,0,3", "--out", str(out), "--quiet"], capsys)  # fmt: skip
    assert code == 0, err
    m = json.loads((tmp_path / "g.csv.manifest.json").read_text())
    assert m["config"]["setup"] == "rules"
    assert m["config"]["fixed_map"] == [5, 9, 12, 18] and m["config"]["fixed_rot"] == [0, 1, 0, 3]
    df = pd.read_csv(out)
    fixed = laid(FIXED, FIXED_ROT)
    for row in df.itertuples():
        grid = laid([row.map_nw, row.map_ne, row.map_sw, row.map_se],
                    [row.rot_nw, row.rot_ne, row.rot_sw, row.rot_se])  # fmt: skip
        assert grid in [turned(fixed, t) for t in range(4)]
    # and the default records say so too
    code, _, err = _cli(["simulate", "--army-a", "France", "--army-b", "Russia", "--games", "3",
                         "--out", str(tmp_path / "d.csv"), "--quiet"], capsys)  # fmt: skip
    m = json.loads((tmp_path / "d.csv.manifest.json").read_text())
    assert m["config"]["setup"] == "random" and m["config"]["fixed_map"] is None


def test_balance_records_and_reports_a_non_default_set_up(tmp_path, capsys):
    from manoeuvre_sim.analyses.manoeuvre.balance_text import provenance

    out = tmp_path / "study"
    code, stdout, err = _cli(["balance", "--armies", "France,Russia", "--games-per-pairing", "20",
                              "--setup", "rules", "--map", "5,9,12,18", "--out", str(out),
                              "--quiet", "--block", "20"], capsys)  # fmt: skip
    assert code in (0, None), err
    m = json.loads((out / "manifest.json").read_text())
    assert m["options"]["setup"] == "rules" and m["options"]["fixed_map"] == [5, 9, 12, 18]
    assert m["options"]["fixed_rot"] == [0, 0, 0, 0]
    line = "set-up rules (rule 3); map 5,9,12,18 rot 0,0,0,0 — not the default random set-up"
    assert line in stdout and line in (out / "summary.txt").read_text()
    assert provenance(m)["set-up"] == "rules (rule 3); map 5,9,12,18 rot 0,0,0,0"
    default = dict(m, options=dict(m["options"], setup="random", fixed_map=None, fixed_rot=None))
    assert "set-up" not in provenance(default)


def test_tournament_records_the_set_up(capsys):
    code, stdout, err = _cli(["tournament", "--policies", "random,simple", "--games", "16",
                              "--armies", "France", "--setup", "rules", "--map", "5,9,12,18",
                              "--json"], capsys)  # fmt: skip
    assert code in (0, None), err
    doc = json.loads(stdout)
    m = doc["manifest"]
    assert m["setup"] == "rules" and m["fixed_map"] == [5, 9, 12, 18]
    assert m["fixed_rot"] == [0, 0, 0, 0] and doc["pairs"][0]["games"] == 16


def test_replay_shows_the_set_up_choices(capsys):
    """`replay --setup rules`: the first player's sections and the second player's edge are
    lines of the set-up, and the header names the set-up; the rebuilt board (terrain
    included) is checked against the engine."""
    code, text, err = _cli(["replay", "--army-a", "France", "--army-b", "Russia", "--seed", "2",
                            "--policy-a", "balanced", "--policy-b", "simple", "--setup", "rules",
                            "--turns", "1"], capsys)  # fmt: skip
    assert code in (0, None), err
    lines = text.splitlines()
    assert "set-up rules (rule 3)" in lines[1]
    first = next(ln for ln in lines if ln.endswith("is the first player")).split(" is the")[0]
    second = "Russia (B)" if first == "France (A)" else "France (A)"
    lays = [ln for ln in lines if " lays section " in ln]
    assert len(lays) == 4 and all(ln.startswith(f"{first}: lays section ") for ln in lays)
    assert [ln.split(" in the ")[1][:2] for ln in lays] == ["NW", "NE", "SW", "SE"]
    (edge,) = [ln for ln in lines if " edge of the map as laid as its starting edge" in ln]
    assert edge.startswith(f"{second}: chooses the ")


def test_rules_set_up_fair_play_check_can_fail():
    """The check above is live in these games: fogging the deciding player's own hand too,
    which every real policy reads, is caught."""
    from manoeuvre_sim.manoeuvre.engine.options import FLAG_FAIR_CHECK, FLAG_FOG_OWN_HAND

    play_traced("France", "Russia", seed=17, policies=("balanced", "simple"), setup="rules",
                fair_play=FLAG_FAIR_CHECK)  # fmt: skip
    with pytest.raises(AssertionError, match="fair play"):
        play_traced("France", "Russia", seed=17, policies=("balanced", "simple"), setup="rules",
                    fair_play=FLAG_FAIR_CHECK | FLAG_FOG_OWN_HAND)  # fmt: skip
