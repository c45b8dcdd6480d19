"""Every option that changes a game reaches every command that plays games, from one shared
definition (``cli/manoeuvre_options.py`` ``game_options``), and ``replay`` replays the recorded game
(issue 23 part 2): with the options given again, or ``--from`` the simulate output.

A replay is checked against the record by winner, victory, game turns and control points;
games are simulated with each rule option on and with all of them together, by simulate,
balance and tournament (the commands that write game rows).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pandas as pd
import pytest

from manoeuvre_sim.cli.main import cli
from manoeuvre_sim.cli.manoeuvre_options import GAME_OPTION_NAMES, game_options, relax_option
from manoeuvre_sim.core.errors import UsageError
from tests.main_run import run

SECTIONS = Path(__file__).parents[1] / "fixtures" / "distant_lands" / "sections.toml"

# the subcommands that play games, and those that do not (with why): a new subcommand
# must be put in one of them, so no game-playing command can miss a game option
PLAYS_GAMES = {
    "simulate", "tournament", "replay", "balance", "cards", "whatif", "tune", "report", "fix",
    "why",
}  # fmt: skip
PLAYS_NONE = {
    "armies": "lists and checks army files",
    "maps": "lists the map sections",
    "odds": "combat odds of one combat, no game",
    "hex": "the other game (Maneuver), its own options",
    "ui": "serves the workbench: a replay's options come from its page or its study",
    "compare": "reads two finished studies, plays nothing",
    "site": "writes the pages of finished studies, plays nothing new",
}
# of those, the ones that load army files given by the user also take --relax
TAKES_RELAX = {"simulate", "replay", "balance", "cards", "whatif", "fix"}


def _params(cmd: click.Command) -> dict[str, click.Parameter]:
    return {p.name: p for p in cmd.params}


def _reference() -> dict[str, click.Parameter]:
    @click.command()
    @relax_option
    @game_options
    def ref(**kw):
        pass

    return _params(ref)


def _command(name: str) -> click.Command:
    return cli.get_command(None, name)


def test_every_subcommand_is_classified():
    """The top-level commands (the table's and Manoeuvre's study kinds, ``studies.kinds``)."""
    assert set(cli.list_commands(None)) == PLAYS_GAMES | set(PLAYS_NONE)
    assert not PLAYS_GAMES & set(PLAYS_NONE)


@pytest.mark.parametrize("name", sorted(PLAYS_GAMES))
def test_every_game_command_takes_every_game_option(name):
    """The same option (flags, type, default, help) in every command that plays games."""
    ref = _reference()
    got = _params(_command(name))
    wanted = list(GAME_OPTION_NAMES) + (["relax"] if name in TAKES_RELAX else [])
    assert set(GAME_OPTION_NAMES) <= set(ref)
    for opt in wanted:
        assert opt in got, f"{name} lacks {ref[opt].opts[0]}"
        a, b = got[opt], ref[opt]
        # flags, type, default, help: the whole definition
        assert a.to_info_dict() == b.to_info_dict(), (
            f"{name} {b.opts[0]} differs from cli/manoeuvre_options.py game_options"
        )


def expect_summary(row) -> re.Pattern:
    """The replay's one-line result for a recorded row: winner, victory, turns, squares."""
    side = "Draw" if row["winner"] == "draw" else rf"\({row['winner'].upper()}\) wins"
    t = int(row["game_turns"])
    if row["victory"] == "attrition":
        return re.compile(rf"{side} by attrition in game turn {t}:")
    when = (
        r"at the turn limit of \d+ game turns"
        if row["turn_limit"]
        else f"at nightfall after game turn {t}"
    )
    return re.compile(rf"{side} {when}: squares controlled A {row['vp_a']}, B {row['vp_b']};")


OPTION_SETS = {
    "advance_to_contact": ["--advance-to-contact"],
    "digging_in": ["--digging-in"],
    "dl_forced_march": ["--dl-forced-march"],
    "tournament_hand": ["--tournament-hand"],
    "sections": ["--sections", SECTIONS],
    "max_turns": ["--max-turns", "5"],
    "setup_rules": ["--setup", "rules"],
    "map_rot": ["--map", "5,9,12,18", "--rot", "1,0,3,2"],
    "all": ["--advance-to-contact", "--digging-in", "--dl-forced-march", "--tournament-hand",
            "--sections", SECTIONS, "--max-turns", "9", "--setup", "rules",
            "--map", "25,9,30,18", "--rot", "0,2,1,3"],
}  # fmt: skip


def replay_row(row, options, capsys, tmp_path):
    """Replay a recorded row through the CLI with ``options`` given again."""
    f = tmp_path / "r.txt"
    args = ["replay", "--army-a", row["army_a"], "--army-b", row["army_b"], "--seed",
            row["seed"], "--game", row["game"], "--policy-a", row["policy_a"], "--policy-b",
            row["policy_b"], *options, "--out", f]  # fmt: skip
    code, _, err = run(args, capsys)
    assert code == 0, err
    return err.splitlines()[0], f.read_text(encoding="utf-8")


@pytest.mark.parametrize("key", list(OPTION_SETS))
def test_simulate_replay_equals_record(key, tmp_path, capsys):
    """simulate with the option(s) on; each row replayed with them given again and --from
    the file: the same winner, victory, game turns and control points as recorded."""
    options = OPTION_SETS[key]
    out = tmp_path / ("games.csv" if key == "sections" else "games.parquet")  # both formats
    code, _, err = run(["simulate", "--army-a", "France", "--army-b", "Russia", "--seed", "5",
                        "--games", "2", "--first-game", "1", "--policy-a", "balanced",
                        "--threads", "1", "--quiet", *options, "--out", out], capsys)  # fmt: skip
    assert code == 0, err
    df = pd.read_csv(out) if out.suffix == ".csv" else pd.read_parquet(out)
    assert list(df["game"]) == [1, 2]
    for row in df.to_dict("records"):
        want = expect_summary(row)
        line, text = replay_row(row, options, capsys, tmp_path)
        assert want.search(line), (key, row, line)
        if key == "all":
            assert "options: tournament hand (rule 3), Advance to Contact, Digging In" in text
        code, text, err = run(["replay", "--from", out, "--game", row["game"]], capsys)
        assert code == 0, err  # (--from also checks the replay against the row itself)
        assert want.search(text.splitlines()[2]), (key, row, text[:500])  # "Result: ..."


def test_the_issue_game(tmp_path, capsys):
    """The game of the issue: France-Russia, seed 5, game 2, simulated with Advance to
    Contact and Digging In: France won 12-6; replayed without them it is another game."""
    out = tmp_path / "g.parquet"
    opts = ["--advance-to-contact", "--digging-in"]
    run(["simulate", "--army-a", "France", "--army-b", "Russia", "--seed", "5", "--games", "3",
         "--threads", "1", "--quiet", *opts, "--out", out], capsys)  # fmt: skip
    row = pd.read_parquet(out).iloc[2].to_dict()
    assert (row["winner"], row["vp_a"], row["vp_b"]) == ("a", 12, 6)
    line, _ = replay_row(row, opts, capsys, tmp_path)
    assert expect_summary(row).search(line)
    line, _ = replay_row(row, [], capsys, tmp_path)
    assert not expect_summary(row).search(line)  # the options decide the game


def test_study_rows_replay_equal_record(tmp_path, capsys):
    """balance, cards and tournament with every rule option: each row replayed with the
    options (its seed column is the pairing's block seed) is the recorded game."""
    options = OPTION_SETS["all"]
    runs = {
        "balance": ["balance", "--armies", "France,Russia", "--games-per-pairing", "1",
                    "--seed", "3", "--threads", "1", "--quiet", "--out", tmp_path / "bal"],
        "cards": ["cards", "--army", "Austria", "--against", "Prussia", "--mode", "observed",
                  "--games", "2", "--threads", "1", "--quiet", "--out", tmp_path / "cards"],
        "tournament": ["tournament", "--policies", "simple,balanced", "--armies", "Spain",
                       "--games", "2", "--threads", "1", "--quiet",
                       "--out", tmp_path / "t.parquet"],
    }  # fmt: skip
    from manoeuvre_sim.core.store import read_store

    for name, args in runs.items():
        code, _, err = run([*args, *options], capsys)
        assert code == 0, (name, err)
        if name == "tournament":
            df = pd.read_parquet(tmp_path / "t.parquet")
        else:
            df = read_store(args[args.index("--out") + 1] / "games.parquet")
        assert len(df) >= 2, name
        for row in df.to_dict("records"):
            line, _ = replay_row(row, options, capsys, tmp_path)
            assert expect_summary(row).search(line), (name, row, line)


def test_tune_records_its_game_options(tmp_path, capsys):
    """tune plays its games with the game options (and says so in its manifest)."""
    pytest.importorskip("cma")
    out = tmp_path / "tune"
    code, _, err = run(["tune", "--armies", "Prussia", "--generations", "0", "--eval-games", "2",
                        "--against", "simple", "--threads", "1", "--quiet", "--out", out,
                        "--digging-in", "--sections", SECTIONS, "--max-turns", "7"], capsys)  # fmt: skip
    assert code == 0, err
    m = json.loads((out / "manifest.json").read_text())
    assert m["options"]["digging_in"] is True and m["options"]["max_turns"] == 7
    assert m["sections_file"] == str(SECTIONS.resolve())


BAD_FROM = [
    (["--game", "7"], ["--game 7", "no such game", "games 0..1"]),
    (["--game", "0", "--seed", "4"], ["--seed: 4 differs", "s.parquet's 5", "leave the option out"]),
    (["--game", "0", "--digging-in"], ["--digging-in: True differs"]),
    (["--game", "0", "--map", "5,9,12,18"], ["--map: 5,9,12,18 differs", "none"]),
]  # fmt: skip


def test_from_refuses_clearly(tmp_path, capsys):
    out = tmp_path / "s.parquet"
    code, _, err = run(["simulate", "--army-a", "France", "--army-b", "Russia", "--seed", "5",
                        "--games", "2", "--threads", "1", "--quiet", "--out", out], capsys)  # fmt: skip
    assert code == 0, err
    for args, needles in BAD_FROM:
        code, o, err = run(["replay", "--from", out, *args], capsys)
        assert code == 2 and "Traceback" not in err, (args, err)
        assert len(err.strip().splitlines()) == 1, err
        for n in needles:
            assert n in err, (args, err)
    # the same value as the file's is no conflict
    code, _, err = run(["replay", "--from", out, "--seed", "5", "--army-a", "France"], capsys)
    assert code == 0, err
    # no manifest: a CSV copied without its manifest.json
    bare = tmp_path / "bare.csv"
    df = pd.read_parquet(out)
    df.to_csv(bare, index=False)
    code, _, err = run(["replay", "--from", bare], capsys)
    assert code == 2 and "--from" in err and "has no manifest" in err, err
    # a row that is not the game the manifest plays: the replay says so
    (tmp_path / "bad.csv.manifest.json").write_text(
        (out.with_name(out.name + ".manifest.json")).read_text()
    )
    df.loc[0, "vp_a"] = df.loc[0, "vp_a"] + 1
    df.to_csv(tmp_path / "bad.csv", index=False)
    code, _, err = run(["replay", "--from", tmp_path / "bad.csv"], capsys)
    assert code == 2 and "is not the game recorded" in err and "vp_a" in err, err


def test_the_rule_options_are_the_configs_fields_in_the_order_manifests_record():
    """``RuleOptions`` is ``runner.SimConfig``'s rule fields (one declaration: their types and
    defaults), in the order a manifest records them (``config_dict``), which stays put."""
    from dataclasses import fields

    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.runner import SimConfig, config_dict

    order = ["tournament_hand", "advance_to_contact", "digging_in", "dl_forced_march",
             "max_turns", "include_unverified_maps", "setup", "fixed_map", "fixed_rot",
             "sections_file"]  # fmt: skip
    assert [f.name for f in fields(RuleOptions)] == order
    config = {f.name: f for f in fields(SimConfig)}
    for f in fields(RuleOptions):
        assert (f.type, f.default) == (config[f.name].type, config[f.name].default), f.name
    opts = RuleOptions(dl_forced_march=True, max_turns=9, sections_file=str(SECTIONS))
    assert list(config_dict(opts)) == order
    assert RuleOptions.of(SimConfig("France", "Spain", max_turns=9, dl_forced_march=True,
                                    sections_file=str(SECTIONS))) == opts  # fmt: skip
    with pytest.raises(UsageError, match="--max-turns: expected a positive number, got 0"):
        RuleOptions(max_turns=0)


def test_tune_plays_its_games_with_the_game_options():
    """tune's games (its Arena's configs and packed data) carry every game option."""
    from manoeuvre_sim.manoeuvre import tune_games as T
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.model import find_army
    from manoeuvre_sim.manoeuvre.styles import builtin_policies

    opts = RuleOptions(advance_to_contact=True, digging_in=True, dl_forced_march=True,
                       tournament_hand=True, max_turns=9, setup="rules",
                       sections_file=str(SECTIONS), fixed_map=(25, 9, 30, 18))  # fmt: skip
    arena = T.Arena({"Prussia": find_army("Prussia")}, builtin_policies(), options=opts)
    blk = T.Block("simple", "Prussia", "Prussia", 0, 7, 2)
    cfg = arena.config(arena.policies["balanced"].params, blk)
    assert {k: getattr(cfg, k) for k in opts.sim_fields()} == opts.sim_fields()
    assert {25, 30} <= set(arena.prepared("Prussia", "Prussia")[2].section_numbers.tolist())


def test_report_runs_its_studies_with_the_game_options():
    """report's balance and card studies (when it runs them) carry the game options; a
    balance study's manifest gives its options back to the card studies run beside it."""
    from manoeuvre_sim.cli import report as Rp
    from manoeuvre_sim.manoeuvre.adapter import RuleOptions
    from manoeuvre_sim.manoeuvre.runner import config_dict

    opts = RuleOptions(digging_in=True, max_turns=9, sections_file=str(SECTIONS),
                       fixed_map=(25, 9, 30, 18), fixed_rot=(1, 0, 0, 2))  # fmt: skip
    spec = Rp._balance_spec("France,Russia", 1, None, None, 1, opts)
    assert spec.options == opts
    field = [("France", "France"), ("Russia", "Russia")]
    (card,) = Rp._card_specs("France", 2, field, set(), 1, "simple", 1, opts)
    assert card.options == opts
    manifest = {"options": config_dict(opts)}
    assert (
        Rp._manifest_options(__import__("json").loads(__import__("json").dumps(manifest))) == opts
    )
