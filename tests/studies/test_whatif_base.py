"""A what-if that reads its base games from the balance study it starts from (issue 41,
``studies/whatif_base.py``) gives exactly the records of one that plays them: the same
tables, the same kept games, the same store, whether the study holds every base game, fewer
than asked (the rest played) or a number that is not a whole number of blocks; a study of
another configuration is not read. The toy coin game (pure Python, quick) and Manoeuvre.
"""

from __future__ import annotations

import pandas as pd
import pytest

from manoeuvre_sim.core.store import read_store
from manoeuvre_sim.studies import balance, whatif
from tests.studies.test_third_game import coin  # noqa: F401 - a fixture

SIDES = ["heavy:70", "fair", "light:30"]
EDIT = {"light": "light:45"}


def _same(read, played) -> None:
    """Every record of the two routes equal: tables, kept games, counts, the store."""
    assert set(read.tables) == set(played.tables)
    for name, df in played.tables.items():
        pd.testing.assert_frame_equal(read.tables[name], df, check_exact=True)
    pd.testing.assert_frame_equal(read.games, played.games, check_exact=True)
    assert read.joint.keys() == played.joint.keys()
    assert all((read.joint[k] == played.joint[k]).all() for k in played.joint)
    pd.testing.assert_frame_equal(read_store(read.store), read_store(played.store),
                                  check_exact=True)  # fmt: skip
    for key in ("games", "paired_games", "games_per_pairing_reached"):
        assert read.manifest[key] == played.manifest[key], key


def _balance(game, tmp_path, games, block, seed=5, sides=SIDES):
    out = tmp_path / f"balance-{games}-{block}-{seed}"
    res = balance.run(game, sides, games_per_pairing=games, block=block, seed=seed,
                      out_dir=out)  # fmt: skip
    res.write(out)
    return out


@pytest.mark.parametrize(("stored", "stored_block", "asked"),
                         [(300, 100, 300), (300, 100, 200), (250, 100, 500), (300, 70, 300)],
                         ids=["all", "fewer-asked", "more-asked-partial-block",
                              "other-blocks"])  # fmt: skip
def test_reading_the_base_gives_the_records_of_playing_it(coin, tmp_path, stored,  # noqa: F811
                                                          stored_block, asked):  # fmt: skip
    study = _balance(coin, tmp_path, stored, stored_block)
    kw = dict(variant_sides=EDIT, games_per_pairing=asked, block=100, seed=5)
    played = whatif.run(coin, SIDES, out_dir=tmp_path / "played", **kw)
    spec = whatif.command_spec(coin, SIDES, **kw)
    read = whatif.run_spec(spec, tmp_path / "read", base_study=study)
    _same(read, played)
    rec = read.manifest["base_study"]
    have = min(stored, asked)
    assert rec["base_read"] == 9 * have and rec["note"] == ""
    assert rec["base_played"] == 9 * (asked - have)
    assert rec["variant_played"] == 5 * asked  # every pairing with light, the mirror once
    assert "base_study" not in played.manifest


def test_a_study_of_other_seeds_or_sides_is_not_read(coin, tmp_path):  # noqa: F811
    kw = dict(variant_sides=EDIT, games_per_pairing=100, block=100, seed=5)
    played = whatif.run(coin, SIDES, out_dir=tmp_path / "played", **kw)
    spec = whatif.command_spec(coin, SIDES, **kw)
    other_seed = _balance(coin, tmp_path, 100, 100, seed=6)  # other pairing seeds
    other_side = _balance(coin, tmp_path, 100, 100, sides=["heavy:71", "fair", "light:30"])
    for k, (study, said) in enumerate([(other_seed, "holds none of these pairings' games"),
                                       (other_side, "of another study (data_hash: ")]):  # fmt: skip
        read = whatif.run_spec(spec, tmp_path / f"read{k}", base_study=study)
        rec = read.manifest["base_study"]
        assert rec["base_read"] == 0 and rec["base_played"] == 9 * 100
        assert said in rec["note"]
        _same(read, played)
        assert "base: 0 games read from the study, 900 played" in "\n".join(read.summary())


def test_a_folder_without_a_store_is_one_line(coin, tmp_path):  # noqa: F811
    from manoeuvre_sim.core.errors import UsageError

    spec = whatif.command_spec(coin, SIDES, variant_sides=EDIT, games_per_pairing=10)
    with pytest.raises(UsageError, match=r"^--base-study: .* holds no study store"):
        whatif.run_spec(spec, base_study=tmp_path)


def test_manoeuvres_whatif_reads_its_base_from_the_balance_study(tmp_path):
    """The armies' manifest (sources, data hashes, players' parameters) read as the balance
    study wrote it: every base game read, the records those of playing it."""
    armies, seed = "France,Russia,Prussia", 11
    study = tmp_path / "balance"
    b = balance.run_spec(balance.command_spec("manoeuvre", armies=armies, games_per_pairing=24,
                                              block=8, seed=seed, threads=1), out_dir=study)  # fmt: skip
    b.write(study)
    kw = dict(armies=armies, edits=["France/Garde Imperial/full=6"], games_per_pairing=24,
              block=8, seed=seed, threads=1)  # fmt: skip
    spec = whatif.command_spec("manoeuvre", **kw)
    played = whatif.run_spec(spec, tmp_path / "played", boot=20)
    read = whatif.run_spec(spec, tmp_path / "read", boot=20, base_study=study)
    assert read.manifest["base_study"]["base_read"] == 9 * 24
    assert read.manifest["base_study"]["base_played"] == 0
    assert read.manifest["base_study"]["variant_played"] == 5 * 24
    _same(read, played)


def test_the_games_read_are_one_step_of_progress_before_any_game_plays(coin, tmp_path):  # noqa: F811
    """A job's games per second count only the games played (issue 41): the base games
    read come as one progress call, first, then each played block as its own."""
    study = _balance(coin, tmp_path, 200, 100)
    kw = dict(variant_sides=EDIT, games_per_pairing=300, block=100, seed=5)
    calls = []
    spec = whatif.command_spec(coin, SIDES, **kw)
    whatif.run_spec(spec, tmp_path / "read", base_study=study,
                    progress=lambda done, total: calls.append((done, total)))  # fmt: skip
    total = 9 * 300 + 5 * 300
    assert calls[0] == (9 * 200, total)  # every base game read, at once
    steps = [b[0] - a[0] for a, b in zip(calls, calls[1:], strict=False)]
    assert steps and all(s == 100 for s in steps) and calls[-1] == (total, total)
